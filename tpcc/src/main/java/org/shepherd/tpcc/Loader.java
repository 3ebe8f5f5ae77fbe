package org.shepherd.tpcc;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Creates the TPC-C schema and fills it per clause 4.3.3.1, deterministically for a given seed and load time:
 * items from one random stream, each warehouse from its own, so the data does not depend on the thread count.
 */
public final class Loader {

    /** Rows per JDBC batch and per commit. */
    public static final int DEFAULT_BATCH_ROWS = 1_000;
    private static final int STREAM_ITEMS = 0;
    private static final int STREAM_WAREHOUSE = 1;
    private static final int ESTIMATED_LINES_PER_ORDER = 10;
    private static final BigDecimal CREDIT_LIMIT = new BigDecimal("50000.00");
    private static final BigDecimal INITIAL_BALANCE = new BigDecimal("-10.00");
    private static final BigDecimal INITIAL_PAYMENT = new BigDecimal("10.00");
    private static final BigDecimal ZERO_AMOUNT = new BigDecimal("0.00");
    private static final long AWAIT_LOADERS_HOURS = 24;

    /** How to load. {@code threads} loaders work on different warehouses, each on its own connection. */
    public record Options(Scale scale, long seed, Dialect dialect, int batchRows, int threads, Clock clock) {
        public Options {
            if (batchRows < 1) throw new IllegalArgumentException("--batch-rows must be at least 1");
            if (threads < 1) throw new IllegalArgumentException("--loader-threads must be at least 1");
        }
    }

    /** Rows per table and the time it took. */
    public record Result(Map<String, Long> rowsPerTable, double seconds) {
        public long totalRows() {
            return rowsPerTable.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private final Jdbc jdbc;
    private final Options options;
    private final PrintStream log;
    private final boolean interactive;

    public Loader(Jdbc jdbc, Options options, PrintStream log, boolean interactive) {
        this.jdbc = jdbc;
        this.options = options;
        this.log = log;
        this.interactive = interactive;
    }

    public Result load() throws SQLException, InterruptedException {
        long start = System.nanoTime();
        Scale scale = options.scale();
        Timestamp loadTime = Jdbc.now(options.clock());
        try (Connection c = jdbc.connect()) {
            createSchema(c, options.dialect(), log);
        }
        Map<String, Long> rows = new LinkedHashMap<>();
        for (String table : TpccSql.TABLES) rows.put(table, 0L);
        long perWarehouse = 1 + scale.items() + Scale.DISTRICTS_PER_WAREHOUSE * (1L
            + 2L * scale.customersPerDistrict() + (long) scale.ordersPerDistrict() * (1 + ESTIMATED_LINES_PER_ORDER)
            + scale.newOrdersPerDistrict());
        Progress progress = new Progress(log, "load", scale.items() + scale.warehouses() * perWarehouse, interactive);

        try (Connection c = jdbc.connect()) {
            c.setAutoCommit(false);
            try (Batches b = new Batches(c, options.batchRows(), progress)) {
                loadItems(b, new TpccRandom(TpccRandom.derive(options.seed(), STREAM_ITEMS, 0), loadConstants()));
                merge(rows, b.rowsPerTable());
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(options.threads(), scale.warehouses()));
        try {
            List<Future<Map<String, Long>>> futures = new ArrayList<>();
            for (int w = 1; w <= scale.warehouses(); w++) {
                int warehouse = w;
                futures.add(pool.submit(() -> loadWarehouse(warehouse, loadTime, progress)));
            }
            for (Future<Map<String, Long>> f : futures) merge(rows, f.get());
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SQLException sql) throw sql;
            throw new IllegalStateException("loading failed: " + cause, cause);
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(AWAIT_LOADERS_HOURS, TimeUnit.HOURS);
        }
        progress.finish();
        return new Result(rows, (System.nanoTime() - start) / 1e9);
    }

    /** Drops the TPC-C tables that exist and creates them again, in autocommit mode. */
    public static void createSchema(Connection c, Dialect dialect, PrintStream log) throws SQLException {
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            for (String table : TpccSql.TABLES) {
                try {
                    s.executeUpdate(TpccSql.dropTable(table));
                } catch (SQLException e) {
                    if (!isMissingTable(e)) throw e;
                }
            }
            for (String ddl : TpccSql.createSchema(dialect)) s.executeUpdate(ddl);
        }
        log.println("created the TPC-C schema (" + dialect.name().toLowerCase(java.util.Locale.ROOT) + " DDL)");
    }

    private static boolean isMissingTable(SQLException e) {
        String state = e.getSQLState();
        return state != null && state.startsWith("42");
    }

    /** 30,000.00 in the standard: the initial payments (H_AMOUNT 10.00) of the district's customers. */
    private BigDecimal districtYtd() {
        return INITIAL_PAYMENT.multiply(BigDecimal.valueOf(options.scale().customersPerDistrict()));
    }

    private NuRandConstants loadConstants() {
        return NuRandConstants.forLoad(options.seed());
    }

    private static void merge(Map<String, Long> into, Map<String, Long> from) {
        from.forEach((k, v) -> into.merge(k, v, Long::sum));
    }

    private void loadItems(Batches b, TpccRandom r) throws SQLException {
        PreparedStatement item = b.statement("item", TpccSql.LOAD_ITEM);
        for (int i = 1; i <= options.scale().items(); i++) {
            item.setInt(1, i);
            item.setInt(2, r.uniform(1, 10_000));
            item.setString(3, r.aString(14, 24));
            item.setBigDecimal(4, r.decimal(100, 10_000, 2));
            item.setString(5, r.dataWithOriginal());
            b.add("item");
        }
        b.commit();
    }

    private Map<String, Long> loadWarehouse(int w, Timestamp loadTime, Progress progress) throws SQLException {
        Scale scale = options.scale();
        TpccRandom r = new TpccRandom(TpccRandom.derive(options.seed(), STREAM_WAREHOUSE, w), loadConstants());
        try (Connection c = jdbc.connect()) {
            c.setAutoCommit(false);
            try (Batches b = new Batches(c, options.batchRows(), progress)) {
                PreparedStatement wh = b.statement("warehouse", TpccSql.LOAD_WAREHOUSE);
                wh.setInt(1, w);
                setAddress(wh, 2, r);
                wh.setBigDecimal(8, r.decimal(0, 2000, 4));
                wh.setBigDecimal(9, districtYtd().multiply(BigDecimal.valueOf(Scale.DISTRICTS_PER_WAREHOUSE)));
                b.add("warehouse");
                loadStock(b, r, w);
                for (int d = 1; d <= Scale.DISTRICTS_PER_WAREHOUSE; d++) {
                    PreparedStatement ds = b.statement("district", TpccSql.LOAD_DISTRICT);
                    ds.setInt(1, d);
                    ds.setInt(2, w);
                    setAddress(ds, 3, r);
                    ds.setBigDecimal(9, r.decimal(0, 2000, 4));
                    ds.setBigDecimal(10, districtYtd());
                    ds.setInt(11, scale.ordersPerDistrict() + 1);
                    b.add("district");
                    loadCustomers(b, r, w, d, loadTime);
                    loadOrders(b, r, w, d, loadTime);
                }
                b.commit();
                return b.rowsPerTable();
            }
        }
    }

    /** Sets name, street 1, street 2, city, state, zip starting at parameter {@code first}. */
    private static void setAddress(PreparedStatement ps, int first, TpccRandom r) throws SQLException {
        ps.setString(first, r.aString(6, 10));
        ps.setString(first + 1, r.aString(10, 20));
        ps.setString(first + 2, r.aString(10, 20));
        ps.setString(first + 3, r.aString(10, 20));
        ps.setString(first + 4, r.state());
        ps.setString(first + 5, r.zip());
    }

    private void loadStock(Batches b, TpccRandom r, int w) throws SQLException {
        PreparedStatement s = b.statement("stock", TpccSql.LOAD_STOCK);
        for (int i = 1; i <= options.scale().items(); i++) {
            s.setInt(1, i);
            s.setInt(2, w);
            s.setInt(3, r.uniform(10, 100));
            for (int d = 0; d < Scale.DISTRICTS_PER_WAREHOUSE; d++) s.setString(4 + d, r.aString(24, 24));
            s.setInt(14, 0);
            s.setInt(15, 0);
            s.setInt(16, 0);
            s.setString(17, r.dataWithOriginal());
            b.add("stock");
        }
    }

    private void loadCustomers(Batches b, TpccRandom r, int w, int d, Timestamp loadTime) throws SQLException {
        PreparedStatement cs = b.statement("customer", TpccSql.LOAD_CUSTOMER);
        PreparedStatement hs = b.statement("history", TpccSql.LOAD_HISTORY);
        for (int c = 1; c <= options.scale().customersPerDistrict(); c++) {
            cs.setInt(1, c);
            cs.setInt(2, d);
            cs.setInt(3, w);
            cs.setString(4, r.aString(8, 16));
            cs.setString(5, "OE");
            cs.setString(6, TpccRandom.lastName(c <= 1000 ? c - 1 : r.nuRand(NuRandConstants.A_LAST_NAME, 0, 999)));
            cs.setString(7, r.aString(10, 20));
            cs.setString(8, r.aString(10, 20));
            cs.setString(9, r.aString(10, 20));
            cs.setString(10, r.state());
            cs.setString(11, r.zip());
            cs.setString(12, r.nString(16, 16));
            cs.setTimestamp(13, loadTime);
            cs.setString(14, r.uniform(1, 10) == 1 ? "BC" : "GC");
            cs.setBigDecimal(15, CREDIT_LIMIT);
            cs.setBigDecimal(16, r.decimal(0, 5000, 4));
            cs.setBigDecimal(17, INITIAL_BALANCE);
            cs.setBigDecimal(18, INITIAL_PAYMENT);
            cs.setInt(19, 1);
            cs.setInt(20, 0);
            cs.setString(21, r.aString(300, 500));
            b.add("customer");

            hs.setInt(1, c);
            hs.setInt(2, d);
            hs.setInt(3, w);
            hs.setInt(4, d);
            hs.setInt(5, w);
            hs.setTimestamp(6, loadTime);
            hs.setBigDecimal(7, INITIAL_PAYMENT);
            hs.setString(8, r.aString(12, 24));
            b.add("history");
        }
    }

    private void loadOrders(Batches b, TpccRandom r, int w, int d, Timestamp loadTime) throws SQLException {
        Scale scale = options.scale();
        PreparedStatement os = b.statement("orders", TpccSql.LOAD_ORDER);
        PreparedStatement ls = b.statement("order_line", TpccSql.LOAD_ORDER_LINE);
        PreparedStatement ns = b.statement("new_order", TpccSql.LOAD_NEW_ORDER);
        int[] customers = r.permutation(scale.customersPerDistrict());
        for (int o = 1; o <= scale.ordersPerDistrict(); o++) {
            boolean delivered = o <= scale.lastDeliveredOrderId();
            int lines = r.uniform(5, 15);
            os.setInt(1, o);
            os.setInt(2, d);
            os.setInt(3, w);
            os.setInt(4, customers[o - 1]);
            os.setTimestamp(5, loadTime);
            if (delivered) {
                os.setInt(6, r.uniform(1, 10));
            } else {
                os.setNull(6, Types.INTEGER);
            }
            os.setInt(7, lines);
            os.setInt(8, 1);
            b.add("orders");
            for (int ol = 1; ol <= lines; ol++) {
                ls.setInt(1, o);
                ls.setInt(2, d);
                ls.setInt(3, w);
                ls.setInt(4, ol);
                ls.setInt(5, r.uniform(1, scale.items()));
                ls.setInt(6, w);
                if (delivered) {
                    ls.setTimestamp(7, loadTime);
                } else {
                    ls.setNull(7, Types.TIMESTAMP);
                }
                ls.setInt(8, 5);
                ls.setBigDecimal(9, delivered ? ZERO_AMOUNT : r.decimal(1, 999_999, 2));
                ls.setString(10, r.aString(24, 24));
                b.add("order_line");
            }
            if (!delivered) {
                ns.setInt(1, o);
                ns.setInt(2, d);
                ns.setInt(3, w);
                b.add("new_order");
            }
        }
    }

    /**
     * Insert statements of one connection, batched; every {@code batchRows} rows all batches are executed in
     * the order the statements were first used (parents first) and committed. Falls back to one execute per
     * row when the driver does not support batches.
     */
    private static final class Batches implements AutoCloseable {
        private final Connection connection;
        private final int batchRows;
        private final Progress progress;
        private final Map<String, PreparedStatement> statements = new LinkedHashMap<>();
        private final Map<String, Long> rows = new LinkedHashMap<>();
        private boolean batching = true;
        private int pending;

        Batches(Connection connection, int batchRows, Progress progress) {
            this.connection = connection;
            this.batchRows = batchRows;
            this.progress = progress;
        }

        PreparedStatement statement(String table, String sql) throws SQLException {
            PreparedStatement ps = statements.get(table);
            if (ps == null) {
                ps = connection.prepareStatement(sql);
                statements.put(table, ps);
            }
            return ps;
        }

        void add(String table) throws SQLException {
            PreparedStatement ps = statements.get(table);
            if (batching) {
                try {
                    ps.addBatch();
                } catch (SQLFeatureNotSupportedException e) {
                    flush();
                    batching = false;
                    ps.executeUpdate();
                }
            } else {
                ps.executeUpdate();
            }
            rows.merge(table, 1L, Long::sum);
            if (++pending >= batchRows) commit();
        }

        void commit() throws SQLException {
            flush();
            connection.commit();
            progress.add(pending);
            pending = 0;
        }

        private void flush() throws SQLException {
            if (!batching) return;
            for (PreparedStatement ps : statements.values()) ps.executeBatch();
        }

        Map<String, Long> rowsPerTable() {
            return rows;
        }

        @Override
        public void close() throws SQLException {
            for (PreparedStatement ps : statements.values()) ps.close();
        }
    }
}
