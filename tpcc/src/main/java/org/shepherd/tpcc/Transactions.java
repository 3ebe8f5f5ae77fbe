package org.shepherd.tpcc;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The five TPC-C transactions on one connection (autocommit off). Each method runs one transaction to its
 * COMMIT, or to its ROLLBACK for the New-Order with an unused item; SQLExceptions leave the rollback to the
 * caller, which decides whether to retry.
 */
final class Transactions implements AutoCloseable {

    /** How a transaction ended when it did not throw. */
    enum Outcome { COMMITTED, ROLLED_BACK }

    private static final int C_DATA_MAX_LENGTH = 500;
    private static final int STOCK_LEVEL_ORDERS = 20;
    private static final String DELIVERY_CONFLICT_SQLSTATE = "40001";

    private final Connection connection;
    private final Clock clock;
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    private boolean committing;
    private int lastOrderId;

    Transactions(Connection connection, Clock clock) throws SQLException {
        this.connection = connection;
        this.clock = clock;
        connection.setAutoCommit(false);
    }

    Connection connection() {
        return connection;
    }

    /**
     * Whether the last {@link #run} threw from its COMMIT: when the connection broke there, the transaction may or may
     * not have committed.
     */
    boolean failedAtCommit() {
        return committing;
    }

    /** The order id the last New-Order took (d_next_o_id - 1 after its increment). */
    int lastOrderId() {
        return lastOrderId;
    }

    private void commit() throws SQLException {
        committing = true;
        connection.commit();
    }

    Outcome run(TxInput input) throws SQLException {
        committing = false;
        if (input instanceof TxInput.NewOrder in) return newOrder(in);
        if (input instanceof TxInput.Payment in) return payment(in);
        if (input instanceof TxInput.OrderStatus in) return orderStatus(in);
        if (input instanceof TxInput.Delivery in) return delivery(in);
        if (input instanceof TxInput.StockLevel in) return stockLevel(in);
        throw new IllegalArgumentException("unknown transaction input " + input);
    }

    private PreparedStatement prepare(String sql, Object... params) throws SQLException {
        PreparedStatement ps = statements.get(sql);
        if (ps == null) {
            ps = connection.prepareStatement(sql);
            statements.put(sql, ps);
        }
        for (int i = 0; i < params.length; i++) {
            Object p = params[i];
            if (p instanceof Integer v) {
                ps.setInt(i + 1, v);
            } else if (p instanceof BigDecimal v) {
                ps.setBigDecimal(i + 1, v);
            } else if (p instanceof String v) {
                ps.setString(i + 1, v);
            } else if (p instanceof Timestamp v) {
                ps.setTimestamp(i + 1, v);
            } else {
                throw new IllegalArgumentException("unsupported parameter type " + p);
            }
        }
        return ps;
    }

    private int update(String sql, Object... params) throws SQLException {
        return prepare(sql, params).executeUpdate();
    }

    private void updateOne(String sql, Object... params) throws SQLException {
        int count = update(sql, params);
        if (count != 1) throw new SQLException("expected to change 1 row, changed " + count + ": " + sql);
    }

    /** Runs a query that must return exactly one row, handing that row to {@code reader}. */
    private <T> T one(RowReader<T> reader, String sql, Object... params) throws SQLException {
        try (ResultSet rs = prepare(sql, params).executeQuery()) {
            if (!rs.next()) throw new SQLException("expected one row, got none: " + sql);
            T value = reader.read(rs);
            if (rs.next()) throw new SQLException("expected one row, got more: " + sql);
            return value;
        }
    }

    private static Integer nullableInt(ResultSet rs) throws SQLException {
        int value = rs.getInt(1);
        return rs.wasNull() ? null : value;
    }

    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private Outcome newOrder(TxInput.NewOrder in) throws SQLException {
        Timestamp now = Jdbc.now(clock);
        int w = in.warehouse();
        int d = in.district();
        BigDecimal wTax = one(rs -> rs.getBigDecimal(1), TpccSql.NEW_ORDER_WAREHOUSE_TAX, w);
        updateOne(TpccSql.NEW_ORDER_DISTRICT_NEXT_ID, w, d);
        Object[] district = one(rs -> new Object[] {rs.getBigDecimal(1), rs.getInt(2)}, TpccSql.NEW_ORDER_DISTRICT, w, d);
        BigDecimal dTax = (BigDecimal) district[0];
        int orderId = (Integer) district[1] - 1;
        lastOrderId = orderId;
        BigDecimal discount = one(rs -> rs.getBigDecimal(1), TpccSql.NEW_ORDER_CUSTOMER, w, d, in.customer());
        updateOne(TpccSql.NEW_ORDER_INSERT_ORDER, orderId, d, w, in.customer(), now, in.lines().size(),
            in.allLocal() ? 1 : 0);
        updateOne(TpccSql.NEW_ORDER_INSERT_NEW_ORDER, orderId, d, w);
        BigDecimal total = BigDecimal.ZERO;
        int number = 0;
        for (TxInput.OrderLine line : in.lines()) {
            number++;
            BigDecimal price;
            try (ResultSet rs = prepare(TpccSql.NEW_ORDER_ITEM, line.itemId()).executeQuery()) {
                if (!rs.next()) {
                    connection.rollback();
                    return Outcome.ROLLED_BACK;
                }
                price = rs.getBigDecimal(1);
            }
            int q = line.quantity();
            updateOne(TpccSql.NEW_ORDER_STOCK_UPDATE, q + 10, q, q, q, line.supplyWarehouse() == w ? 0 : 1,
                line.supplyWarehouse(), line.itemId());
            String distInfo = one(rs -> rs.getString(2 + d), TpccSql.NEW_ORDER_STOCK, line.supplyWarehouse(), line.itemId());
            BigDecimal amount = price.multiply(BigDecimal.valueOf(q));
            total = total.add(amount);
            updateOne(TpccSql.NEW_ORDER_INSERT_ORDER_LINE, orderId, d, w, number, line.itemId(), line.supplyWarehouse(),
                q, amount, distInfo);
        }
        // The total is shown to the terminal user and stored nowhere; computed to keep the work realistic.
        total.multiply(BigDecimal.ONE.subtract(discount)).multiply(BigDecimal.ONE.add(wTax).add(dTax))
            .setScale(2, RoundingMode.HALF_UP);
        commit();
        return Outcome.COMMITTED;
    }

    private int customerByLastName(int w, int d, String lastName) throws SQLException {
        List<Integer> ids = new ArrayList<>();
        try (ResultSet rs = prepare(TpccSql.CUSTOMER_IDS_BY_LAST_NAME, w, d, lastName).executeQuery()) {
            while (rs.next()) ids.add(rs.getInt(1));
        }
        if (ids.isEmpty()) throw new SQLException("no customer named " + lastName + " in district " + w + "/" + d);
        return ids.get((ids.size() + 1) / 2 - 1);
    }

    private Outcome payment(TxInput.Payment in) throws SQLException {
        Timestamp now = Jdbc.now(clock);
        int w = in.warehouse();
        int d = in.district();
        int cw = in.customerWarehouse();
        int cd = in.customerDistrict();
        BigDecimal amount = in.amount();
        updateOne(TpccSql.PAYMENT_WAREHOUSE_YTD, amount, w);
        String wName = one(rs -> rs.getString(1), TpccSql.PAYMENT_WAREHOUSE, w);
        updateOne(TpccSql.PAYMENT_DISTRICT_YTD, amount, w, d);
        String dName = one(rs -> rs.getString(1), TpccSql.PAYMENT_DISTRICT, w, d);
        int c = in.customerId() != null ? in.customerId() : customerByLastName(cw, cd, in.customerLastName());
        updateOne(TpccSql.PAYMENT_CUSTOMER_BALANCE, amount, amount, cw, cd, c);
        String credit = one(rs -> rs.getString(11), TpccSql.PAYMENT_CUSTOMER, cw, cd, c);
        if ("BC".equals(credit.trim())) {
            String data = one(rs -> rs.getString(1), TpccSql.PAYMENT_CUSTOMER_DATA, cw, cd, c);
            String entry = c + " " + cd + " " + cw + " " + d + " " + w + " " + amount.toPlainString() + " | ";
            String newData = entry + data;
            if (newData.length() > C_DATA_MAX_LENGTH) newData = newData.substring(0, C_DATA_MAX_LENGTH);
            updateOne(TpccSql.PAYMENT_CUSTOMER_DATA_UPDATE, newData, cw, cd, c);
        }
        updateOne(TpccSql.PAYMENT_INSERT_HISTORY, c, cd, cw, d, w, now, amount, wName.trim() + "    " + dName.trim());
        commit();
        return Outcome.COMMITTED;
    }

    private Outcome orderStatus(TxInput.OrderStatus in) throws SQLException {
        int w = in.warehouse();
        int d = in.district();
        int c;
        if (in.customerId() != null) {
            c = in.customerId();
            one(rs -> rs.getBigDecimal(1), TpccSql.ORDER_STATUS_CUSTOMER, w, d, c);
        } else {
            List<Integer> ids = new ArrayList<>();
            try (ResultSet rs = prepare(TpccSql.ORDER_STATUS_CUSTOMERS_BY_LAST_NAME, w, d, in.customerLastName())
                .executeQuery()) {
                while (rs.next()) ids.add(rs.getInt(1));
            }
            if (ids.isEmpty()) {
                throw new SQLException("no customer named " + in.customerLastName() + " in district " + w + "/" + d);
            }
            c = ids.get((ids.size() + 1) / 2 - 1);
        }
        Integer orderId = one(Transactions::nullableInt, TpccSql.ORDER_STATUS_LAST_ORDER_ID, w, d, c);
        if (orderId != null) {
            one(rs -> rs.getTimestamp(1), TpccSql.ORDER_STATUS_ORDER, w, d, orderId);
            try (ResultSet rs = prepare(TpccSql.ORDER_STATUS_ORDER_LINES, w, d, orderId).executeQuery()) {
                while (rs.next()) rs.getBigDecimal(5);
            }
        }
        commit();
        return Outcome.COMMITTED;
    }

    private Outcome delivery(TxInput.Delivery in) throws SQLException {
        Timestamp now = Jdbc.now(clock);
        int w = in.warehouse();
        for (int d = 1; d <= Scale.DISTRICTS_PER_WAREHOUSE; d++) {
            Integer orderId = one(Transactions::nullableInt, TpccSql.DELIVERY_OLDEST_NEW_ORDER, w, d);
            if (orderId == null) continue;
            if (update(TpccSql.DELIVERY_DELETE_NEW_ORDER, w, d, orderId) != 1) {
                throw new SQLException("another Delivery took order " + w + "/" + d + "/" + orderId + " first",
                    DELIVERY_CONFLICT_SQLSTATE);
            }
            int customer = one(rs -> rs.getInt(1), TpccSql.DELIVERY_ORDER_CUSTOMER, w, d, orderId);
            updateOne(TpccSql.DELIVERY_ORDER_CARRIER, in.carrier(), w, d, orderId);
            update(TpccSql.DELIVERY_ORDER_LINES_DELIVERED, now, w, d, orderId);
            BigDecimal total = one(rs -> rs.getBigDecimal(1), TpccSql.DELIVERY_ORDER_TOTAL, w, d, orderId);
            updateOne(TpccSql.DELIVERY_CUSTOMER_BALANCE, total == null ? BigDecimal.ZERO : total, w, d, customer);
        }
        commit();
        return Outcome.COMMITTED;
    }

    private Outcome stockLevel(TxInput.StockLevel in) throws SQLException {
        int w = in.warehouse();
        int d = in.district();
        int next = one(rs -> rs.getInt(1), TpccSql.STOCK_LEVEL_NEXT_ORDER_ID, w, d);
        one(rs -> rs.getInt(1), TpccSql.STOCK_LEVEL_LOW_STOCK, w, d, next - STOCK_LEVEL_ORDERS, next, w, in.threshold());
        commit();
        return Outcome.COMMITTED;
    }

    @Override
    public void close() {
        for (PreparedStatement ps : statements.values()) {
            try {
                ps.close();
            } catch (SQLException ignored) {
                // closing after a broken connection; nothing left to release
            }
        }
        statements.clear();
    }
}
