package org.shepherd.tpcc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The New-Orders the database acknowledged (their COMMIT returned) and those in doubt (their COMMIT failed with a
 * broken connection), and the check that a database holds them. An order counts as held when its row in ORDERS has the
 * customer and line count the terminal gave and its ORDER_LINE rows name the same items, supply warehouses and
 * quantities in the same order: a lost order's id is taken again by the next New-Order of its district, so the key
 * alone would not tell.
 */
public final class NewOrderLedger implements Runner.Recorder {

    private static final int EXAMPLES_KEPT = 5;

    private final ConcurrentLinkedQueue<Runner.PlacedOrder> acknowledged = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Runner.PlacedOrder> inDoubt = new ConcurrentLinkedQueue<>();

    /** What one database holds of the ledger; {@code lostExamples} describes the first few lost orders. */
    public record Audit(long acknowledged, long acknowledgedFound, long lost, List<String> lostExamples, long inDoubt,
                        long inDoubtFound) {
    }

    @Override
    public void newOrderCommitted(Runner.PlacedOrder order) {
        acknowledged.add(order);
    }

    @Override
    public void newOrderInDoubt(Runner.PlacedOrder order) {
        inDoubt.add(order);
    }

    public long acknowledgedCount() {
        return acknowledged.size();
    }

    public long inDoubtCount() {
        return inDoubt.size();
    }

    /** Reads, per district, the orders from the lowest id in the ledger on, and matches every order of the ledger. */
    public Audit audit(Connection c) throws SQLException {
        List<Runner.PlacedOrder> acked = List.copyOf(acknowledged);
        List<Runner.PlacedOrder> doubtful = List.copyOf(inDoubt);
        Map<District, Integer> lowestIds = new HashMap<>();
        for (List<Runner.PlacedOrder> orders : List.of(acked, doubtful)) {
            for (Runner.PlacedOrder o : orders) lowestIds.merge(District.of(o), o.orderId(), Math::min);
        }
        Map<District, Map<Integer, HeldOrder>> held = new HashMap<>();
        for (Map.Entry<District, Integer> e : lowestIds.entrySet()) held.put(e.getKey(), read(c, e.getKey(), e.getValue()));
        long found = 0;
        List<String> examples = new ArrayList<>();
        for (Runner.PlacedOrder o : acked) {
            String problem = mismatch(o, heldRow(held, o));
            if (problem == null) {
                found++;
            } else if (examples.size() < EXAMPLES_KEPT) {
                examples.add(problem);
            }
        }
        long doubtfulFound = doubtful.stream().filter(o -> mismatch(o, heldRow(held, o)) == null).count();
        return new Audit(acked.size(), found, acked.size() - found, examples, doubtful.size(), doubtfulFound);
    }

    private static HeldOrder heldRow(Map<District, Map<Integer, HeldOrder>> held, Runner.PlacedOrder o) {
        return held.get(District.of(o)).get(o.orderId());
    }

    /** Null when {@code row} is the order the terminal placed, else what differs. */
    static String mismatch(Runner.PlacedOrder placed, HeldOrder row) {
        TxInput.NewOrder in = placed.input();
        String order = "order " + in.warehouse() + "/" + in.district() + "/" + placed.orderId() + " (customer " + in.customer()
            + ", " + in.lines().size() + " lines)";
        if (row == null) return order + ": not in ORDERS";
        if (row.customer() != in.customer() || row.lineCount() != in.lines().size() || !row.lines().equals(in.lines())) {
            return order + ": ORDERS holds another order under its id (customer " + row.customer() + ", " + row.lineCount()
                + " lines, " + row.lines().size() + " ORDER_LINE rows)";
        }
        return null;
    }

    private static Map<Integer, HeldOrder> read(Connection c, District d, int fromId) throws SQLException {
        Map<Integer, List<TxInput.OrderLine>> lines = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(TpccSql.LEDGER_ORDER_LINES)) {
            bind(ps, d, fromId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    lines.computeIfAbsent(rs.getInt(1), k -> new ArrayList<>())
                        .add(new TxInput.OrderLine(rs.getInt(2), rs.getInt(3), rs.getInt(4)));
                }
            }
        }
        Map<Integer, HeldOrder> orders = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(TpccSql.LEDGER_ORDERS)) {
            bind(ps, d, fromId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int id = rs.getInt(1);
                    orders.put(id, new HeldOrder(rs.getInt(2), rs.getInt(3), lines.getOrDefault(id, List.of())));
                }
            }
        }
        return orders;
    }

    private static void bind(PreparedStatement ps, District d, int fromId) throws SQLException {
        ps.setInt(1, d.warehouse());
        ps.setInt(2, d.district());
        ps.setInt(3, fromId);
    }

    /** An order as a database holds it. */
    record HeldOrder(int customer, int lineCount, List<TxInput.OrderLine> lines) {
    }

    private record District(int warehouse, int district) {
        static District of(Runner.PlacedOrder o) {
            return new District(o.input().warehouse(), o.input().district());
        }
    }
}
