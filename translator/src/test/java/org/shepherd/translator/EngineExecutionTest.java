package org.shepherd.translator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.shepherd.translator.dialect.Dialect;

/**
 * Runs rendered SQL on real embedded Derby and HSQLDB (in memory), side by side, and compares what they answer: the
 * golden files are checked against engines, not only as strings.
 */
class EngineExecutionTest {

    private static final AtomicInteger DATABASE_COUNTER = new AtomicInteger();
    private static final long SEED = 20_261_121L;

    private Connection derby;
    private Connection hsqldb;

    @BeforeEach
    void open() throws SQLException {
        int n = DATABASE_COUNTER.incrementAndGet();
        derby = DriverManager.getConnection("jdbc:derby:memory:translator" + n + ";create=true");
        hsqldb = DriverManager.getConnection("jdbc:hsqldb:mem:translator" + n, "SA", "");
    }

    @AfterEach
    void close() throws SQLException {
        derby.close();
        try (Statement s = hsqldb.createStatement()) {
            s.execute("SHUTDOWN");
        }
        hsqldb.close();
    }

    /** A fixed clock and a seeded generator: what the coordinator injects. */
    private static final class FixedSource implements DeterminismSource {
        private final Random random = new Random(SEED);

        @Override
        public Instant now() {
            return Instant.parse("2026-03-04T05:06:07.123456789Z");
        }

        @Override
        public double random() {
            return random.nextDouble();
        }

        @Override
        public UUID uuid() {
            return new UUID(random.nextLong(), random.nextLong());
        }
    }

    @Test
    void everyTpccStatementRunsOnDerbyAndHsqldb() throws Exception {
        JsonNode cases;
        try (InputStream in = getClass().getResourceAsStream("/cases/tpcc.json")) {
            cases = new ObjectMapper().readTree(in);
        }
        int prepared = 0;
        // Two schemas (our reference statements, then the tpcc module's), each in fresh databases.
        for (boolean module : new boolean[] {false, true}) {
            if (module) {
                close();
                open();
            }
            List<Translation> drops = new ArrayList<>();
            // One translator per client dialect, so the statements are rendered with the schema's column types.
            Map<String, Translator> translators = new HashMap<>();
            Map<Dialect, Translator> readBack = new HashMap<>();
            for (JsonNode c : cases) {
                if (c.path("name").asText().startsWith("module") != module) {
                    continue;
                }
                String client = c.path("client").asText("derby");
                Translator translator = translators.computeIfAbsent(client, k -> new Translator(dialect(k), 256));
                Translation t = translator.translate(c.path("sql").asText());
                if (t.kind() == StatementKind.DDL && t.clientSql().startsWith("DROP")) {
                    drops.add(t);
                    continue;
                }
                if (c.has("client")) {
                    continue;
                }
                if (t.kind() == StatementKind.READ || t.kind() == StatementKind.WRITE) {
                    for (Dialect d : Dialect.ALL) {
                        assertReadsBackInItsDialect(t, d, readBack.computeIfAbsent(d, k -> new Translator(k, 256)));
                    }
                }
                for (Engine e : engines()) {
                    if (t.kind() == StatementKind.DDL) {
                        try (Statement s = e.connection.createStatement()) {
                            s.execute(t.sqlFor(e.dialect));
                        }
                    } else if (t.kind() == StatementKind.READ || t.kind() == StatementKind.WRITE) {
                        try (PreparedStatement ps = e.connection.prepareStatement(t.sqlFor(e.dialect))) {
                            // a marker may be rendered twice (Derby's NO PAD comparison with a parameter)
                            assertThat(ps.getParameterMetaData().getParameterCount()).isEqualTo(t.rendered(e.dialect).markers().length)
                                    .isGreaterThanOrEqualTo(t.parameterCount() + t.nondeterministic().size());
                            prepared++;
                        }
                    }
                }
            }
            for (Translation drop : drops) {
                for (Engine e : engines()) {
                    try (Statement s = e.connection.createStatement()) {
                        s.execute(drop.sqlFor(e.dialect));
                    }
                }
            }
            assertThat(drops.isEmpty()).isEqualTo(!module);
        }
        assertThat(prepared).isGreaterThan(150);
    }

    /**
     * Most dialects have no engine in this test: the rendering for {@code d}, read back by a translator whose clients
     * speak {@code d}, must parse as the same kind of statement with one parameter per marker the coordinator binds.
     */
    private static void assertReadsBackInItsDialect(Translation t, Dialect d, Translator readBack) throws SQLException {
        String rendering = t.sqlFor(d);
        Translation back;
        try {
            back = readBack.translate(rendering);
        } catch (SQLException e) {
            throw new AssertionError(t.clientSql() + " rendered for " + d + " does not parse as " + d + ": " + rendering, e);
        }
        assertThat(back.kind()).as("kind of %s rendered for %s: %s", t.clientSql(), d, rendering).isEqualTo(t.kind());
        assertThat(back.parameterCount()).as("parameters of %s rendered for %s: %s", t.clientSql(), d, rendering)
                .isEqualTo(t.rendered(d).markers().length);
    }

    @Test
    void sameWorkloadGivesSameAnswersOnBothEngines() throws Exception {
        Translator translator = new Translator(Dialect.DERBY, 64);
        DeterminismSource source = new FixedSource();
        String create = "CREATE TABLE item_log (id INTEGER GENERATED ALWAYS AS IDENTITY (START WITH 1, INCREMENT BY 1) PRIMARY KEY,"
                + " name VARCHAR(20), qty INTEGER, price DECIMAL(10, 2), active BOOLEAN, note CLOB, at_time TIMESTAMP, r DOUBLE PRECISION,"
                + " u CHAR(36))";
        for (Engine e : engines()) {
            execute(e, translator.translate(create), List.of(), source);
        }
        Translation insert = translator.translate("INSERT INTO item_log (name, qty, price, active, note, at_time, r, u)"
                + " VALUES (?, ?, ?, ?, 'x', CURRENT_TIMESTAMP, RAND(), UUID())");
        Object[][] rows = {
            {"apple", 3, new BigDecimal("1.50"), true},
            {null, 7, new BigDecimal("2.25"), false},
            {"cherry", null, new BigDecimal("0.10"), true},
            {"date", 2, null, null},
        };
        for (Object[] row : rows) {
            Bound bound = insert.bind(Arrays.asList(row), source);
            long key = executeReturningKey(derby, bound.sqlFor(Dialect.DERBY), bound.parameters(Dialect.DERBY));
            String secondary = bound.sqlWithExplicitKeys(Dialect.HSQLDB, "id", List.of(key));
            assertThat(secondary).startsWith("INSERT INTO item_log (id, name");
            executeUpdate(hsqldb, secondary, bound.parameters(Dialect.HSQLDB));
        }
        String[] queries = {
            "SELECT id, name, qty, price, active, at_time, r, u FROM item_log ORDER BY id",
            "SELECT name, qty FROM item_log ORDER BY name",
            "SELECT name, qty FROM item_log ORDER BY name DESC",
            "SELECT name, qty FROM item_log ORDER BY qty NULLS FIRST, name",
            "SELECT name FROM item_log ORDER BY id DESC OFFSET 1 ROWS FETCH FIRST 2 ROWS ONLY",
            "SELECT name FROM item_log ORDER BY id LIMIT 2 OFFSET 1",
            "SELECT AVG(qty), AVG(price), COUNT(DISTINCT active), MIN(id), SUM(qty) FROM item_log",
            "SELECT name || '-' || name, YEAR(at_time), MONTH(at_time), EXTRACT(DAY FROM at_time) FROM item_log"
                + " WHERE name IS NOT NULL ORDER BY id",
            "SELECT 7 / 2, MOD(7, 2), qty / 2 FROM item_log WHERE qty IS NOT NULL ORDER BY id",
            "SELECT id FROM item_log WHERE at_time = CURRENT_TIMESTAMP ORDER BY 1",
            "SELECT CAST(price AS INTEGER), CAST(qty AS DECIMAL(10, 2)), CAST(name AS CHAR(8)) FROM item_log ORDER BY id",
            "SELECT CAST(price AS DECIMAL(5, 1)), CAST(price * -1 AS INTEGER), CAST(r AS DECIMAL(6, 3)) FROM item_log ORDER BY id",
        };
        for (String q : queries) {
            Translation t = translator.translate(q);
            Bound bound = t.bind(List.of(), source);
            List<String> fromDerby = query(derby, bound.sqlFor(Dialect.DERBY), bound.parameters(Dialect.DERBY));
            List<String> fromHsqldb = query(hsqldb, bound.sqlFor(Dialect.HSQLDB), bound.parameters(Dialect.HSQLDB));
            assertThat(fromHsqldb).as(q + "\n derby: " + bound.sqlFor(Dialect.DERBY) + "\n hsqldb: " + bound.sqlFor(Dialect.HSQLDB))
                    .isEqualTo(fromDerby);
            assertThat(fromDerby).as(q).isNotEmpty();
        }
        assertThat(query(derby, "SELECT name FROM item_log ORDER BY name NULLS LAST", List.of()))
                .containsExactly("[apple]", "[cherry]", "[date]", "[null]");
        assertThat(query(derby, translator.translate("SELECT AVG(qty) FROM item_log").sqlFor(Dialect.DERBY), List.of()))
                .containsExactly("[4]");
    }

    @Test
    void mysqlClientWorkloadKeepsMysqlSemanticsOnDerbyAndHsqldb() throws Exception {
        Translator translator = new Translator(Dialect.MYSQL, 64);
        DeterminismSource source = new FixedSource();
        for (Engine e : engines()) {
            execute(e, translator.translate("CREATE TABLE IF NOT EXISTS `Users` (id INT NOT NULL AUTO_INCREMENT, name VARCHAR(50),"
                    + " flag TINYINT(1) DEFAULT 0, bio TEXT, born DATETIME, score DECIMAL(8, 2), PRIMARY KEY (id)) ENGINE=InnoDB"),
                    List.of(), source);
        }
        Translation insert = translator.translate("INSERT INTO users (name, flag, bio, born, score) VALUES (?, ?, 'it\\'s', NOW(), ?)");
        Object[][] rows = {{"ann", 1, new BigDecimal("7.5")}, {null, 0, new BigDecimal("1")}, {"bob", null, null}};
        List<Long> keys = new ArrayList<>();
        for (Object[] row : rows) {
            Bound bound = insert.bind(Arrays.asList(row), source);
            long key = executeReturningKey(hsqldb, bound.sqlFor(Dialect.HSQLDB), bound.parameters(Dialect.HSQLDB));
            keys.add(key);
            executeUpdate(derby, bound.sqlWithExplicitKeys(Dialect.DERBY, "id", List.of(key)), bound.parameters(Dialect.DERBY));
        }
        assertThat(keys).as("identity keys start at 1 on HSQLDB as on every other engine").containsExactly(1L, 2L, 3L);
        String[] queries = {
            "SELECT `id`, name, flag, bio, born, score FROM `users` ORDER BY id",
            "SELECT name FROM users ORDER BY name LIMIT 1, 2",
            "SELECT CONCAT(name, '!'), IFNULL(name, 'none'), 7 DIV 2, LENGTH(bio) FROM users ORDER BY id DESC",
            "SELECT AVG(score), COUNT(*) FROM users",
        };
        for (String q : queries) {
            Bound bound = translator.translate(q).bind(List.of(), source);
            List<String> fromDerby = query(derby, bound.sqlFor(Dialect.DERBY), bound.parameters(Dialect.DERBY));
            assertThat(query(hsqldb, bound.sqlFor(Dialect.HSQLDB), bound.parameters(Dialect.HSQLDB))).as(q).isEqualTo(fromDerby);
        }
        Bound nullsFirst = translator.translate("SELECT name FROM users ORDER BY name").bind(List.of(), source);
        assertThat(query(derby, nullsFirst.sqlFor(Dialect.DERBY), List.of())).containsExactly("[null]", "[ann]", "[bob]");
        assertThat(query(derby, "SELECT bio FROM users", List.of())).containsOnly("[it's]");
    }

    @Test
    void valuesAMergeStoresIntoADecimalColumnAreTruncatedOnHsqldbAsOnDerby() throws Exception {
        Translator translator = new Translator(Dialect.DERBY, 64);
        DeterminismSource source = new FixedSource();
        for (String sql : List.of("CREATE TABLE mt (id INTEGER NOT NULL PRIMARY KEY, d DECIMAL(7, 2))",
                "CREATE TABLE ms (id INTEGER NOT NULL PRIMARY KEY, e DECIMAL(9, 3))", "INSERT INTO mt (id, d) VALUES (1, 0)",
                "INSERT INTO ms (id, e) VALUES (1, 1.339), (2, 1.006)",
                "MERGE INTO mt USING ms ON (mt.id = ms.id) WHEN MATCHED THEN UPDATE SET d = ms.e * 1.5"
                        + " WHEN NOT MATCHED THEN INSERT (id, d) VALUES (ms.id, ms.e)")) {
            Translation t = translator.translate(sql);
            for (Engine e : engines()) {
                execute(e, t, List.of(), source);
            }
        }
        // 2.0085 and 1.006: Derby truncates to 2.00 and 1.00, HSQLDB alone would round half toward zero to 2.01 and 1.01
        Bound rows = translator.translate("SELECT id, d FROM mt ORDER BY id").bind(List.of(), source);
        List<String> fromDerby = query(derby, rows.sqlFor(Dialect.DERBY), List.of());
        assertThat(fromDerby).containsExactly("[1, 2]", "[2, 1]");
        assertThat(query(hsqldb, rows.sqlFor(Dialect.HSQLDB), List.of())).isEqualTo(fromDerby);
    }

    /**
     * A schema migration's column and table changes, each written as the standard, Derby or HSQLDB write it, run on both
     * engines: the rows they hold afterwards are the same, and so is what they refuse on the way (a NULL in a NOT NULL
     * column).
     */
    @Test
    void renamesDefaultsNullabilityAndWideningRunOnDerbyAndHsqldb() throws Exception {
        for (Dialect client : List.of(Dialect.DERBY, Dialect.HSQLDB)) {
            Translator translator = new Translator(client, 64);
            DeterminismSource source = new FixedSource();
            String table = "mig_" + client.name();
            String renamed = table + "_done";
            boolean derbyClient = client == Dialect.DERBY;
            List<String> steps = List.of("CREATE TABLE " + table + " (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(10), n INTEGER)",
                    "INSERT INTO " + table + " (id, name) VALUES (1, 'ada')",
                    "ALTER TABLE " + table + " RENAME COLUMN name TO label",
                    derbyClient ? "RENAME COLUMN " + table + ".n TO qty" : "ALTER TABLE " + table + " ALTER COLUMN n RENAME TO qty",
                    derbyClient ? "ALTER TABLE " + table + " ALTER qty WITH DEFAULT 5"
                            : "ALTER TABLE " + table + " ALTER COLUMN qty SET DEFAULT 5",
                    "INSERT INTO " + table + " (id, label) VALUES (2, 'alan')",
                    "ALTER TABLE " + table + " ALTER COLUMN qty DROP DEFAULT",
                    "INSERT INTO " + table + " (id, label) VALUES (3, 'grace')",
                    derbyClient ? "ALTER TABLE " + table + " ALTER COLUMN label SET DATA TYPE VARCHAR(40)"
                            : "ALTER TABLE " + table + " ALTER COLUMN label VARCHAR(40)",
                    "INSERT INTO " + table + " (id, label) VALUES (4, 'a name longer than ten')",
                    derbyClient ? "ALTER TABLE " + table + " ALTER COLUMN label NOT NULL"
                            : "ALTER TABLE " + table + " ALTER COLUMN label SET NOT NULL");
            for (String sql : steps) {
                Translation t = translator.translate(sql);
                for (Engine e : engines()) execute(e, t, List.of(), source);
            }
            Translation nameless = translator.translate("INSERT INTO " + table + " (id) VALUES (5)");
            for (Engine e : engines()) {
                SQLException refused = catchSql(() -> execute(e, nameless, List.of(), source));
                assertThat(refused.getSQLState()).as("%s on %s", client, e.dialect).startsWith("23");
            }
            for (String sql : List.of(derbyClient ? "ALTER TABLE " + table + " ALTER COLUMN label NULL"
                    : "ALTER TABLE " + table + " ALTER COLUMN label SET NULL", "INSERT INTO " + table + " (id) VALUES (5)",
                    "RENAME TABLE " + table + " TO " + renamed)) {
                Translation t = translator.translate(sql);
                for (Engine e : engines()) execute(e, t, List.of(), source);
            }
            Bound rows = translator.translate("SELECT id, label, qty FROM " + renamed + " ORDER BY id").bind(List.of(), source);
            List<String> fromDerby = query(derby, rows.sqlFor(Dialect.DERBY), List.of());
            assertThat(fromDerby).as("client %s", client).containsExactly("[1, ada, null]", "[2, alan, 5]", "[3, grace, null]",
                    "[4, a name longer than ten, null]", "[5, null, null]");
            assertThat(query(hsqldb, rows.sqlFor(Dialect.HSQLDB), List.of())).isEqualTo(fromDerby);
        }
    }

    @Test
    void ifNotExistsIsEmulatedOnDerbyWithIgnorableErrors() throws Exception {
        Translator translator = new Translator(Dialect.MYSQL, 16);
        Translation create = translator.translate("CREATE TABLE IF NOT EXISTS t1 (id INT AUTO_INCREMENT PRIMARY KEY, v TEXT)");
        Translation drop = translator.translate("DROP TABLE IF EXISTS t1");
        for (Engine e : engines()) {
            String sql = create.sqlFor(e.dialect);
            try (Statement s = e.connection.createStatement()) {
                s.execute(sql);
                if (create.existenceCheckEmulated(e.dialect)) {
                    SQLException again = catchSql(() -> s.execute(sql));
                    assertThat(create.isIgnorableError(e.dialect, again)).as(again.getSQLState() + " " + again.getMessage()).isTrue();
                } else {
                    s.execute(sql);
                }
                s.execute(drop.sqlFor(e.dialect));
                if (drop.existenceCheckEmulated(e.dialect)) {
                    SQLException missing = catchSql(() -> s.execute(drop.sqlFor(e.dialect)));
                    assertThat(drop.isIgnorableError(e.dialect, missing)).as(missing.getSQLState()).isTrue();
                } else {
                    s.execute(drop.sqlFor(e.dialect));
                }
            }
        }
        assertThat(create.existenceCheckEmulated(Dialect.DERBY)).isTrue();
        assertThat(create.existenceCheckEmulated(Dialect.HSQLDB)).isFalse();
        assertThat(create.identityColumns()).containsExactly("id");
    }

    @Test
    void transactionControlAndIndexesRunOnBothEngines() throws Exception {
        Translator translator = new Translator(Dialect.DERBY, 16);
        for (Engine e : engines()) {
            e.connection.setAutoCommit(false);
            for (String sql : List.of("CREATE TABLE tx (a INTEGER NOT NULL PRIMARY KEY, b VARCHAR(5))",
                    "CREATE UNIQUE INDEX tx_b ON tx (b)", "INSERT INTO tx (a, b) VALUES (1, 'one')", "SAVEPOINT s1",
                    "INSERT INTO tx (a, b) VALUES (2, 'two')", "ROLLBACK TO SAVEPOINT s1", "RELEASE SAVEPOINT s1", "COMMIT",
                    "DROP INDEX tx_b ON tx")) {
                Translation t = translator.translate(sql);
                if (t.transactionControl() == TransactionControl.COMMIT && e.dialect == Dialect.DERBY) {
                    e.connection.commit();
                    continue;
                }
                try (Statement s = e.connection.createStatement()) {
                    s.execute(t.sqlFor(e.dialect));
                }
            }
            assertThat(query(e.connection, "SELECT a, b FROM tx", List.of())).containsExactly("[1, one]");
            e.connection.commit();
        }
        assertThatThrownBy(() -> translator.translate("DELETE FROM tx LIMIT 1"))
                .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "0A000");
    }

    private record Engine(Dialect dialect, Connection connection) {
    }

    private List<Engine> engines() {
        return List.of(new Engine(Dialect.DERBY, derby), new Engine(Dialect.HSQLDB, hsqldb));
    }

    private interface SqlAction {
        void run() throws SQLException;
    }

    private static SQLException catchSql(SqlAction action) {
        try {
            action.run();
        } catch (SQLException e) {
            return e;
        }
        throw new AssertionError("expected an SQLException");
    }

    private static void execute(Engine e, Translation t, List<Object> params, DeterminismSource source) throws SQLException {
        Bound b = t.bind(params, source);
        executeUpdate(e.connection, b.sqlFor(e.dialect), b.parameters(e.dialect));
    }

    private static void executeUpdate(Connection c, String sql, List<Object> params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            ps.executeUpdate();
        }
    }

    private static long executeReturningKey(Connection c, String sql, List<Object> params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
            bind(ps, params);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                assertThat(keys.next()).isTrue();
                return keys.getLong(1);
            }
        }
    }

    private static void bind(PreparedStatement ps, List<Object> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            Object v = params.get(i);
            if (v == null) {
                ps.setNull(i + 1, ps.getParameterMetaData().getParameterType(i + 1));
            } else {
                ps.setObject(i + 1, v);
            }
        }
    }

    /** Rows as text with numbers compared by value (scale-insensitive) and CLOBs read out. */
    private static List<String> query(Connection c, String sql, List<Object> params) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                while (rs.next()) {
                    List<String> row = new ArrayList<>();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        Object v = rs.getObject(i);
                        if (v instanceof BigDecimal) {
                            v = ((BigDecimal) v).stripTrailingZeros().toPlainString();
                        } else if (v instanceof Number && !(v instanceof Double)) {
                            v = new BigDecimal(v.toString()).stripTrailingZeros().toPlainString();
                        } else if (v instanceof java.sql.Clob) {
                            v = ((java.sql.Clob) v).getSubString(1, (int) ((java.sql.Clob) v).length());
                        }
                        row.add(String.valueOf(v));
                    }
                    rows.add(row.toString());
                }
            }
        }
        return rows;
    }

    private static Dialect dialect(String name) {
        try {
            return Dialect.forName(name);
        } catch (SQLException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
