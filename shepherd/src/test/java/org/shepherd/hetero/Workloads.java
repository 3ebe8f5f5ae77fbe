package org.shepherd.hetero;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.shepherd.coordinator.Coordinator;
import org.shepherd.coordinator.Session;
import org.shepherd.testing.Retrying;
import org.shepherd.testing.SqlClient;

/**
 * The TPC-C-like mix of the heterogeneous tests (the bank is {@link org.shepherd.testing.BankWorkload}), in portable
 * client SQL through a {@link Coordinator}'s sessions. Seeded; the seed of each client is printed with any failure.
 */
final class Workloads {
    static final int DISTRICTS = 3;
    static final int CUSTOMERS = 10;
    static final int ITEMS = 20;

    /** What a workload did. */
    record Counts(long commits, long reads, long retries) {
    }

    private Workloads() {
    }

    static long update(Session s, String sql, Object... params) throws SQLException {
        return SqlClient.of(s).update(sql, params);
    }

    static List<Object[]> query(Session s, String sql, Object... params) throws SQLException {
        return SqlClient.of(s).query(sql, params);
    }

    static long number(Object v) {
        return ((Number) v).longValue();
    }

    // ----------------------------------------------------------------------------------------- TPC-C-like

    static void createMix(Coordinator coordinator) throws SQLException {
        try (Session s = coordinator.openSession("app", "db")) {
            update(s, "CREATE TABLE district (d_id INTEGER NOT NULL PRIMARY KEY, next_o_id INTEGER NOT NULL, "
                    + "ytd DECIMAL(12, 2) NOT NULL)");
            update(s, "CREATE TABLE customer (c_id INTEGER NOT NULL, d_id INTEGER NOT NULL, balance DECIMAL(12, 2) NOT NULL, "
                    + "payment_cnt INTEGER NOT NULL, last_name VARCHAR(16) NOT NULL, PRIMARY KEY (d_id, c_id))");
            update(s, "CREATE TABLE stock (i_id INTEGER NOT NULL PRIMARY KEY, quantity INTEGER NOT NULL, ytd INTEGER NOT NULL)");
            update(s, "CREATE TABLE orders (d_id INTEGER NOT NULL, o_id INTEGER NOT NULL, c_id INTEGER NOT NULL, "
                    + "ol_cnt INTEGER NOT NULL, entry_d TIMESTAMP NOT NULL, PRIMARY KEY (d_id, o_id))");
            update(s, "CREATE TABLE order_line (d_id INTEGER NOT NULL, o_id INTEGER NOT NULL, ol_number INTEGER NOT NULL, "
                    + "i_id INTEGER NOT NULL, quantity INTEGER NOT NULL, amount DECIMAL(8, 2) NOT NULL, "
                    + "PRIMARY KEY (d_id, o_id, ol_number))");
            s.setAutoCommit(false);
            for (int d = 1; d <= DISTRICTS; d++) {
                update(s, "INSERT INTO district (d_id, next_o_id, ytd) VALUES (?, 1, 0)", d);
                for (int c = 1; c <= CUSTOMERS; c++) {
                    update(s, "INSERT INTO customer (c_id, d_id, balance, payment_cnt, last_name) VALUES (?, ?, -10.00, 0, ?)",
                            c, d, "NAME" + (c % 4));
                }
            }
            for (int i = 1; i <= ITEMS; i++) {
                update(s, "INSERT INTO stock (i_id, quantity, ytd) VALUES (?, 50, 0)", i);
            }
            s.commit();
        }
    }

    /** New-order 45%, payment 43%, order-status 4%, stock-level 4%, customer by name 4%, like TPC-C's mix. */
    static Counts mix(Coordinator coordinator, int clients, int txnsPerClient, long seed) throws Exception {
        AtomicLong commits = new AtomicLong();
        AtomicLong reads = new AtomicLong();
        Retrying retrying = new Retrying();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                long clientSeed = seed + c;
                futures.add(pool.submit(() -> {
                    Random rnd = new Random(clientSeed);
                    try (Session s = coordinator.openSession("app", "db")) {
                        SqlClient client = SqlClient.of(s);
                        s.setAutoCommit(false);
                        for (int i = 0; i < txnsPerClient; i++) {
                            int p = rnd.nextInt(100);
                            int d = 1 + rnd.nextInt(DISTRICTS);
                            int cust = 1 + rnd.nextInt(CUSTOMERS);
                            int lines = 2 + rnd.nextInt(4);
                            int[] items = new int[lines];
                            for (int k = 0; k < lines; k++) {
                                items[k] = 1 + rnd.nextInt(ITEMS);
                            }
                            java.util.Arrays.sort(items);
                            BigDecimal amount = BigDecimal.valueOf(100 + rnd.nextInt(500000), 2);
                            boolean write = p < 88;
                            retrying.run(client, clientSeed, () -> {
                                if (p < 45) {
                                    newOrder(s, d, cust, items);
                                } else if (p < 88) {
                                    update(s, "UPDATE district SET ytd = ytd + ? WHERE d_id = ?", amount, d);
                                    update(s, "UPDATE customer SET balance = balance - ?, payment_cnt = payment_cnt + 1 "
                                            + "WHERE d_id = ? AND c_id = ?", amount, d, cust);
                                } else if (p < 92) {
                                    List<Object[]> last = query(s, "SELECT o_id, ol_cnt FROM orders WHERE d_id = ? AND c_id = ? "
                                            + "ORDER BY o_id DESC LIMIT 1", d, cust);
                                    if (!last.isEmpty()) {
                                        List<Object[]> ol = query(s, "SELECT ol_number, i_id, amount FROM order_line "
                                                + "WHERE d_id = ? AND o_id = ? ORDER BY ol_number", d, number(last.get(0)[0]));
                                        assertThat(ol).hasSize((int) number(last.get(0)[1]));
                                    }
                                } else if (p < 96) {
                                    query(s, "SELECT COUNT(DISTINCT s.i_id) AS low FROM order_line ol JOIN stock s "
                                            + "ON s.i_id = ol.i_id WHERE ol.d_id = ? AND s.quantity < ?", d, 40);
                                } else {
                                    query(s, "SELECT c_id, balance FROM customer WHERE d_id = ? AND last_name = ? ORDER BY c_id",
                                            d, "NAME" + (cust % 4));
                                }
                                s.commit();
                            });
                            if (write) {
                                commits.incrementAndGet();
                            } else {
                                reads.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        return new Counts(commits.get(), reads.get(), retrying.retries());
    }

    private static void newOrder(Session s, int d, int cust, int[] items) throws SQLException {
        update(s, "UPDATE district SET next_o_id = next_o_id + 1 WHERE d_id = ?", d);
        long oid = number(query(s, "SELECT next_o_id - 1 AS o_id FROM district WHERE d_id = ?", d).get(0)[0]);
        update(s, "INSERT INTO orders (d_id, o_id, c_id, ol_cnt, entry_d) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)", d, oid, cust,
                items.length);
        for (int k = 0; k < items.length; k++) {
            update(s, "UPDATE stock SET quantity = CASE WHEN quantity > 10 THEN quantity - 3 ELSE quantity + 88 END, "
                    + "ytd = ytd + 3 WHERE i_id = ?", items[k]);
            long quantity = number(query(s, "SELECT quantity FROM stock WHERE i_id = ?", items[k]).get(0)[0]);
            update(s, "INSERT INTO order_line (d_id, o_id, ol_number, i_id, quantity, amount) VALUES (?, ?, ?, ?, 3, ?)", d, oid,
                    k + 1, items[k], BigDecimal.valueOf(125 * quantity, 2));
        }
    }

    /** TPC-C's consistency conditions that this mix keeps: order ids dense per district, order lines per order. */
    static void checkMix(Coordinator coordinator) throws SQLException {
        try (Session s = coordinator.openSession("app", "db")) {
            for (int d = 1; d <= DISTRICTS; d++) {
                long next = number(query(s, "SELECT next_o_id AS n FROM district WHERE d_id = ?", d).get(0)[0]);
                List<Object[]> o = query(s, "SELECT COUNT(*) AS n, COALESCE(MAX(o_id), 0) AS m FROM orders WHERE d_id = ?", d);
                assertThat(number(o.get(0)[0])).as("orders of district %d", d).isEqualTo(next - 1);
                assertThat(number(o.get(0)[1])).as("max order id of district %d", d).isEqualTo(next - 1);
                List<Object[]> l = query(s, "SELECT COALESCE(SUM(ol_cnt), 0) AS n FROM orders WHERE d_id = ?", d);
                List<Object[]> ol = query(s, "SELECT COUNT(*) AS n FROM order_line WHERE d_id = ?", d);
                assertThat(number(ol.get(0)[0])).as("order lines of district %d", d).isEqualTo(number(l.get(0)[0]));
            }
        }
    }
}
