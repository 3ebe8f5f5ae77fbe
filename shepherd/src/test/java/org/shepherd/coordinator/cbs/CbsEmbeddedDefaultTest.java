package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.admin.AdminView;
import org.shepherd.config.EmbeddedDefault;
import org.shepherd.config.Mode;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.coordinator.SessionSettingsContract;
import org.shepherd.server.ShepherdServer;

/** The embedded default (3 Derby replicas, f=1, mode=cbs) through the JDBC driver and the server. */
class CbsEmbeddedDefaultTest {

    /** The embedded default of {@code dir}, started, and client connections to it with its credentials. */
    private record Embedded(ShepherdServer server, String url, String password) implements AutoCloseable {
        static Embedded start(Path dir) throws Exception {
            ShepherdConfig config = EmbeddedDefault.config(dir.resolve("shepherd-data"), "127.0.0.1:0");
            assertThat(config.mode()).isEqualTo(Mode.CBS);
            ShepherdServer server = ShepherdServer.create(config);
            try {
                server.start();
            } catch (Exception | Error e) {
                server.close();
                throw e;
            }
            return new Embedded(server, server.jdbcUrl("shepherd"), config.users().get(EmbeddedDefault.USER));
        }

        Connection connect() throws SQLException {
            return DriverManager.getConnection(url, EmbeddedDefault.USER, password);
        }

        CbsCoordinator coordinator() {
            return (CbsCoordinator) server.coordinator();
        }

        @Override
        public void close() {
            server.close();
        }
    }

    /** {@code sql}'s rows as replica {@code e} holds them (values as text, joined by |), read on a connection of its own. */
    private static List<String> rows(JdbcReplicaEndpoint e, String sql) throws SQLException {
        try (Connection c = e.pool().acquire(); Statement s = c.createStatement()) {
            List<String> rows = rows(s, sql);
            c.rollback();
            return rows;
        }
    }

    /** {@code sql}'s rows as {@code s} reads them (values as text, joined by |). */
    private static List<String> rows(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            List<String> rows = new ArrayList<>();
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) row.append(i > 1 ? "|" : "").append(rs.getString(i));
                rows.add(row.toString());
            }
            return rows;
        }
    }

    @Test
    void embeddedDefaultRunsCbsOverThreeDerbyReplicas(@TempDir Path dir) throws Exception {
        try (Embedded server = Embedded.start(dir)) {
            CbsCoordinator coordinator = server.coordinator();
            try (Connection c = server.connect()) {
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("CREATE TABLE kv (k INT PRIMARY KEY, v VARCHAR(20))");
                }
                c.setAutoCommit(false);
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO kv VALUES (?, ?)")) {
                    for (int i = 0; i < 3; i++) {
                        ps.setInt(1, i);
                        ps.setString(2, "v" + i);
                        ps.executeUpdate();
                    }
                }
                c.commit();
                c.setAutoCommit(true);
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM kv")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(3);
                }
                assertThatThrownBy(() -> c.createStatement().executeUpdate("INSERT INTO kv VALUES (1, 'dup')"))
                        .isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("23"));
            }
            assertThat(coordinator.awaitIdle(10_000)).isTrue();
            for (JdbcReplicaEndpoint e : coordinator.endpoints()) {
                assertThat(rows(e, "SELECT COUNT(*) FROM kv")).as("rows on %s", e.name()).containsExactly("3");
            }
            assertThat(coordinator.divergences().snapshot()).isEmpty();
        }
    }

    /**
     * A session's schema (Connection.setSchema, SET SCHEMA): unqualified tables of its statements, DDL included, go to
     * that schema on every replica, whichever pooled connection runs them; identity keys are pinned there too; other
     * sessions keep the default; an unknown schema is refused.
     */
    @Test
    void aSessionsSchemaNamesItsTablesOnEveryReplica(@TempDir Path dir) throws Exception {
        try (Embedded server = Embedded.start(dir); Connection c = server.connect(); Connection other = server.connect()) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("CREATE SCHEMA sales");
                s.executeUpdate("CREATE TABLE orders (id INT PRIMARY KEY, note VARCHAR(10))"); // the default schema's
                c.setSchema("SALES");
                assertThat(c.getSchema()).isEqualTo("SALES");
                s.executeUpdate("CREATE TABLE orders (id INT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, total DECIMAL(10,2))");
                s.executeUpdate("CREATE INDEX orders_total ON orders (total)");
                assertThatThrownBy(() -> s.executeUpdate("DROP INDEX orders_total")).isInstanceOf(SQLException.class)
                        .hasMessageContaining("DROP INDEX");
                s.executeUpdate("DROP INDEX sales.orders_total"); // Derby keeps an index in its table's schema
                s.executeUpdate("CREATE INDEX orders_total ON orders (total)");
                s.executeUpdate("CREATE TABLE line (oid INT REFERENCES orders (id), qty INT)");
                assertThat(s.executeUpdate("INSERT INTO orders (total) VALUES (1.50)", Statement.RETURN_GENERATED_KEYS)).isOne();
                try (ResultSet keys = s.getGeneratedKeys()) {
                    assertThat(keys.next()).isTrue();
                    assertThat(keys.getInt(1)).isOne();
                }
            }
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO line SELECT id, ? FROM orders")) {
                ps.setInt(1, 7);
                assertThat(ps.executeUpdate()).isOne();
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO line (oid, qty) VALUES (NULL, ?)")) {
                for (int q = 1; q <= 2; q++) {
                    ps.setInt(1, -q);
                    ps.addBatch();
                }
                assertThat(ps.executeBatch()).containsExactly(1, 1);
            }
            c.commit();
            c.setAutoCommit(true);
            try (Statement s = other.createStatement()) {
                assertThat(s.executeUpdate("INSERT INTO orders VALUES (5, 'default')")).isOne();
                try (ResultSet rs = s.executeQuery("SELECT o.total, l.qty FROM sales.orders o JOIN sales.line l ON l.oid = o.id")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("1.50");
                    assertThat(rs.getInt(2)).isEqualTo(7);
                }
                assertThatThrownBy(() -> s.execute("SET SCHEMA nowhere")).isInstanceOf(SQLException.class)
                        .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("3F000");
            }
            try (Statement s = c.createStatement()) {
                s.execute("SET SCHEMA DEFAULT"); // as SQL: getSchema follows it too
                assertThat(c.getSchema()).isNull();
                s.execute("set current schema sales");
                assertThat(c.getSchema()).isEqualTo("SALES");
                try (ResultSet rs = s.executeQuery("SELECT CURRENT SCHEMA FROM SYSIBM.SYSDUMMY1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).as("the session's, not each replica connection's").isEqualTo("SALES");
                }
                assertThatThrownBy(() -> s.execute("SET SCHEMA nowhere")).isInstanceOf(SQLException.class);
                assertThat(c.getSchema()).as("a refused one changes nothing").isEqualTo("SALES");
                s.execute("SET SCHEMA DEFAULT");
                try (ResultSet rs = s.executeQuery("SELECT note FROM orders")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("default");
                }
            }
            CbsCoordinator coordinator = server.coordinator();
            assertThat(coordinator.awaitIdle(10_000)).isTrue();
            for (JdbcReplicaEndpoint e : coordinator.endpoints()) {
                assertThat(rows(e, "SELECT l.oid, l.qty FROM sales.line l ORDER BY l.qty")).as(e.name())
                        .containsExactly("null|-2", "null|-1", "1|7");
            }
            assertThat(coordinator.verify("sales.*", false)).extracting(AdminView.VerifyRow::result).containsOnly("equal");
        }
    }

    /**
     * Large objects through the driver's Blob and Clob (created, filled, bound, read back) reach every replica; a NULL
     * bound through a large-object or stream setter fits a BLOB or CLOB column (Derby refuses a NULL whose type is not
     * the parameter's).
     */
    @Test
    void blobsAndClobsReachEveryReplica(@TempDir Path dir) throws Exception {
        byte[] image = new byte[200_000];
        new java.util.Random(11).nextBytes(image);
        String essay = "Ünïcödé ✓ ".repeat(10_000);
        try (Embedded server = Embedded.start(dir); Connection c = server.connect()) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE docs (id INT PRIMARY KEY, body BLOB(1M), note CLOB(1M))");
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO docs VALUES (?, ?, ?)")) {
                java.sql.Blob blob = c.createBlob();
                blob.setBytes(1, image);
                java.sql.Clob clob = c.createClob();
                clob.setString(1, essay);
                ps.setInt(1, 1);
                ps.setBlob(2, blob);
                ps.setClob(3, clob);
                ps.executeUpdate();
                ps.setInt(1, 2);
                ps.setBlob(2, (java.sql.Blob) null);
                ps.setClob(3, (java.sql.Clob) null);
                ps.executeUpdate();
                ps.setInt(1, 3);
                ps.setBinaryStream(2, null);
                ps.setNClob(3, (java.sql.NClob) null);
                ps.executeUpdate();
                ps.setInt(1, 4);
                ps.setBytes(2, null);
                ps.setString(3, null);
                ps.executeUpdate();
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT body, note FROM docs ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBlob(1).getBytes(1, image.length)).isEqualTo(image);
                assertThat(rs.getClob(2).getSubString(1, essay.length())).isEqualTo(essay);
                for (int id = 2; id <= 4; id++) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getBlob(1)).as("row %d", id).isNull();
                    assertThat(rs.getNClob(2)).as("row %d", id).isNull();
                }
            }
            CbsCoordinator coordinator = server.coordinator();
            assertThat(coordinator.awaitIdle(10_000)).isTrue();
            for (JdbcReplicaEndpoint e : coordinator.endpoints()) {
                try (Connection r = e.pool().acquire(); Statement s = r.createStatement();
                        ResultSet rs = s.executeQuery("SELECT body FROM docs WHERE id = 1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getBytes(1)).as("the BLOB on %s", e.name()).isEqualTo(image);
                    r.rollback();
                }
            }
            assertThat(coordinator.divergences().snapshot()).isEmpty();
        }
    }

    /**
     * Derby's driver reports one generated key per statement, so a multi-row INSERT into an identity table runs row by
     * row on the Derby primary and every row's key is pinned on the secondaries. The third replica's identity generator
     * is moved on behind the shepherd's back: had it generated its own keys, its rows would be 100, 101, ...
     */
    /**
     * {@code DROP TABLE t CASCADE} (Hibernate's PostgreSQL, HSQLDB and H2 dialects drop a schema so): the foreign keys of
     * other tables that reference t are dropped first on every replica, then t; the referencing tables and their rows
     * stay. A view that reads t still makes the DROP fail, on every replica alike.
     */
    @Test
    void dropTableCascadeDropsTheForeignKeysThatReferenceIt(@TempDir Path dir) throws Exception {
        try (Embedded server = Embedded.start(dir); Connection c = server.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE parent (id INT PRIMARY KEY)");
            s.executeUpdate("CREATE TABLE child (id INT PRIMARY KEY, pid INT CONSTRAINT child_parent REFERENCES parent (id))");
            s.executeUpdate("CREATE TABLE \"Other\" (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES parent (id))");
            s.executeUpdate("INSERT INTO parent VALUES (1)");
            s.executeUpdate("INSERT INTO child VALUES (10, 1)");
            s.executeUpdate("CREATE VIEW parent_ids AS SELECT id FROM parent");
            assertThatThrownBy(() -> s.executeUpdate("DROP TABLE parent CASCADE")).as("a view reads it")
                    .isInstanceOf(SQLException.class);
            s.executeUpdate("DROP VIEW parent_ids");
            assertThatThrownBy(() -> s.executeUpdate("DROP TABLE parent")).as("without CASCADE, child references it")
                    .isInstanceOf(SQLException.class);
            assertThat(s.executeUpdate("DROP TABLE parent CASCADE")).isZero();
            s.executeUpdate("DROP TABLE IF EXISTS parent CASCADE"); // gone: nothing to do
            s.executeUpdate("INSERT INTO child VALUES (11, 7)"); // no parent 7: the key went with the table
            s.executeUpdate("INSERT INTO \"Other\" VALUES (1, 7)");
            CbsCoordinator coordinator = server.coordinator();
            assertThat(coordinator.awaitIdle(10_000)).isTrue();
            for (JdbcReplicaEndpoint e : coordinator.endpoints()) {
                assertThat(rows(e, "SELECT COUNT(*) FROM sys.systables WHERE tablename = 'PARENT'"))
                        .as("parent on %s", e.name()).containsExactly("0");
                assertThat(rows(e, "SELECT COUNT(*) FROM child")).as("child rows on %s", e.name()).containsExactly("2");
            }
            assertThat(coordinator.divergences().snapshot()).isEmpty();
        }
    }

    /**
     * Sequences are the shepherd's: each NEXT VALUE FOR is drawn once and bound on every replica (the replicas have no
     * sequence at all), a draw in a transaction that rolls back is not given again, and after a restart the draws go on
     * above every value given before.
     */
    @Test
    void sequencesAreDrawnOnceForEveryReplicaAndSurviveARestart(@TempDir Path dir) throws Exception {
        List<Long> before = new ArrayList<>();
        try (Embedded server = Embedded.start(dir); Connection c = server.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE SEQUENCE order_seq START WITH 100 INCREMENT BY 10");
            s.executeUpdate("CREATE TABLE orders (id BIGINT PRIMARY KEY, note VARCHAR(10))");
            s.executeUpdate("INSERT INTO orders VALUES (NEXT VALUE FOR order_seq, 'a')");
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO orders VALUES (NEXT VALUE FOR order_seq, 'undone')");
            c.rollback();
            c.setAutoCommit(true);
            try (ResultSet rs = s.executeQuery("VALUES NEXT VALUE FOR order_seq")) {
                assertThat(rs.next()).isTrue();
                before.add(rs.getLong(1));
            }
            s.executeUpdate("INSERT INTO orders VALUES (NEXT VALUE FOR order_seq, 'b'), (NEXT VALUE FOR order_seq, 'c')");
            assertThatThrownBy(() -> s.executeQuery("SELECT NEXT VALUE FOR order_seq, id FROM orders"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("one value per row");
            assertThatThrownBy(() -> s.executeQuery("VALUES NEXT VALUE FOR no_such_seq")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("does not exist");
            try (ResultSet rs = s.executeQuery("SELECT id FROM orders ORDER BY id")) {
                while (rs.next()) before.add(rs.getLong(1));
            }
            assertThat(before).containsExactly(120L, 100L, 130L, 140L); // 110 went with the rollback
            CbsCoordinator coordinator = server.coordinator();
            assertThat(coordinator.awaitIdle(10_000)).isTrue();
            for (JdbcReplicaEndpoint e : coordinator.endpoints()) {
                assertThat(rows(e, "SELECT id FROM orders ORDER BY id")).as("keys on %s", e.name())
                        .containsExactly("100", "130", "140");
            }
        }
        try (Embedded server = Embedded.start(dir); Connection c = server.connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("VALUES NEXT VALUE FOR order_seq")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).as("after a restart").isGreaterThan(140L);
            }
            s.executeUpdate("ALTER SEQUENCE order_seq RESTART WITH 200 MAXVALUE 210");
            s.executeUpdate("INSERT INTO orders VALUES (NEXT VALUE FOR order_seq, 'd'), (NEXT VALUE FOR order_seq, 'e')");
            assertThatThrownBy(() -> s.executeUpdate("INSERT INTO orders VALUES (NEXT VALUE FOR order_seq, 'f')"))
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "2200H");
            assertThat(server.coordinator().awaitIdle(10_000)).isTrue();
            for (JdbcReplicaEndpoint e : server.coordinator().endpoints()) {
                assertThat(rows(e, "SELECT id FROM orders WHERE id >= 200 ORDER BY id")).as("keys on %s", e.name())
                        .containsExactly("200", "210");
            }
            c.setReadOnly(true);
            assertThatThrownBy(() -> s.executeUpdate("DROP SEQUENCE order_seq")).isInstanceOf(SQLException.class)
                    .hasFieldOrPropertyWithValue("SQLState", "25006");
            c.setReadOnly(false);
            s.executeUpdate("DROP SEQUENCE order_seq RESTRICT");
            assertThatThrownBy(() -> s.executeQuery("VALUES NEXT VALUE FOR order_seq")).isInstanceOf(SQLException.class);
        }
    }

    @Test
    void theKeysOfAMultiRowInsertArePinnedOnEveryReplica(@TempDir Path dir) throws Exception {
        try (Embedded server = Embedded.start(dir); Connection c = server.connect()) {
            CbsCoordinator coordinator = server.coordinator();
            try (Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE pets (id INT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name VARCHAR(10) UNIQUE)");
            }
            assertThat(coordinator.awaitIdle(10_000)).isTrue();
            try (Connection r3 = coordinator.endpoints().get(2).pool().acquire(); Statement s = r3.createStatement()) {
                s.executeUpdate("ALTER TABLE pets ALTER COLUMN id RESTART WITH 100");
                r3.commit();
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO pets (name) VALUES (?), ('b'), (?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, "a");
                ps.setString(2, "c");
                assertThat(ps.executeUpdate()).isEqualTo(3);
                List<Integer> keys = new ArrayList<>();
                try (ResultSet rs = ps.getGeneratedKeys()) {
                    while (rs.next()) keys.add(rs.getInt(1));
                }
                assertThat(keys).as("one key per row, not Derby's one per statement").containsExactly(1, 2, 3);
            }
            // a batch that asks for its keys gets every element's, in order (Spring Data JDBC's saveAll needs them)
            try (Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE owners (id INT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name VARCHAR(10))");
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO owners (name) VALUES (?)", new String[] {"ID"});
                    PreparedStatement noKeys = c.prepareStatement("INSERT INTO owners (name) VALUES (?)")) {
                for (String n : List.of("x", "y", "z")) {
                    ps.setString(1, n);
                    ps.addBatch();
                }
                assertThat(ps.executeBatch()).containsExactly(1, 1, 1);
                try (ResultSet rs = ps.getGeneratedKeys()) {
                    List<Integer> keys = new ArrayList<>();
                    while (rs.next()) keys.add(rs.getInt("ID")); // named as asked (Derby itself labels it 1)
                    assertThat(keys).containsExactly(1, 2, 3);
                }
                // IDENTITY_VAL_LOCAL() (LAST_INSERT_ID() on MySQL) is the session's, not each replica connection's
                try (Statement s = c.createStatement(); Connection other = server.connect(); Statement o = other.createStatement()) {
                    assertThat(rows(s, "VALUES IDENTITY_VAL_LOCAL()")).as("the key of the batch's last element")
                            .containsExactly("3");
                    s.executeUpdate("INSERT INTO owners (name) VALUES ('v')");
                    assertThat(rows(o, "VALUES IDENTITY_VAL_LOCAL()")).as("another session inserted nothing")
                            .containsExactly("null");
                    s.executeUpdate("UPDATE owners SET name = 'vv' WHERE id = 1"); // not an insert: the value stays
                    assertThat(rows(s, "SELECT name FROM owners WHERE id = IDENTITY_VAL_LOCAL()")).containsExactly("v");
                }
                noKeys.setString(1, "w");
                noKeys.addBatch();
                assertThat(noKeys.executeBatch()).containsExactly(1);
                try (ResultSet rs = noKeys.getGeneratedKeys()) {
                    assertThat(rs.next()).as("not asked for").isFalse();
                }
            }
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO pets (name) VALUES ('d')");
                // the third row fails: the two before it are undone with it, the transaction goes on
                assertThatThrownBy(() -> s.executeUpdate("INSERT INTO pets (name) VALUES ('e'), ('f'), ('a')"))
                        .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "23505");
                s.executeUpdate("INSERT INTO pets (name) VALUES ('g'), ('h')");
                // Derby's rows of one column without parentheses: the same rows, keys pinned (was an internal error)
                assertThat(s.executeUpdate("INSERT INTO pets (name) VALUES 'n', 'o'")).isEqualTo(2);
                Savepoint sp = c.setSavepoint("sp");
                assertThatThrownBy(() -> s.executeUpdate("INSERT INTO pets (name) VALUES ('i'), ('j')"))
                        .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "0A000")
                        .hasMessageContaining("one savepoint at a time");
                c.releaseSavepoint(sp);
                c.commit();
            }
            c.setAutoCommit(true);
            // INSERT ... SELECT: the SELECT runs (voted), then its rows are inserted with VALUES and pinned keys
            try (Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE names (n VARCHAR(10) PRIMARY KEY)");
                s.executeUpdate("INSERT INTO names VALUES ('k'), ('l'), ('m')");
                assertThat(s.executeUpdate("INSERT INTO pets (name) SELECT n FROM names WHERE n > 'k'",
                        Statement.RETURN_GENERATED_KEYS)).isEqualTo(2);
                List<Integer> keys = new ArrayList<>();
                try (ResultSet rs = s.getGeneratedKeys()) {
                    while (rs.next()) keys.add(rs.getInt(1));
                }
                assertThat(keys).hasSize(2);
                assertThat(s.executeUpdate("INSERT INTO pets (name) SELECT n FROM names WHERE n = 'none'")).isZero();
                c.setAutoCommit(false);
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO pets (name) SELECT n FROM names WHERE n = ?")) {
                    ps.setString(1, "k");
                    assertThat(ps.executeUpdate()).isEqualTo(1);
                }
                c.commit();
                c.setAutoCommit(true);
                s.executeUpdate("CREATE TABLE many (i INT PRIMARY KEY)");
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO many VALUES (?)")) {
                    for (int i = 0; i < 1_001; i++) {
                        ps.setInt(1, i);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
                // more rows than one INSERT ... VALUES carries: inserted in slices, as one statement
                assertThat(s.executeUpdate("INSERT INTO pets (name) SELECT CAST(i AS CHAR(10)) FROM many")).isEqualTo(1_001);
                assertThat(rows(s, "SELECT COUNT(*) FROM pets WHERE id >= IDENTITY_VAL_LOCAL()"))
                        .as("IDENTITY_VAL_LOCAL() is the statement's first key, not its last slice's").containsExactly("1001");
                s.executeUpdate("CREATE TABLE tags (id INT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, n INT UNIQUE)");
                s.executeUpdate("INSERT INTO tags (n) VALUES (2000)");
                String clash = "INSERT INTO tags (n) SELECT i + 1000 FROM many ORDER BY i"; // its second slice holds 2000
                assertThatThrownBy(() -> s.executeUpdate(clash)).isInstanceOf(SQLException.class)
                        .hasFieldOrPropertyWithValue("SQLState", "23505");
                c.setAutoCommit(false);
                s.executeUpdate("INSERT INTO tags (n) VALUES (-1)");
                assertThatThrownBy(() -> s.executeUpdate(clash)).isInstanceOf(SQLException.class)
                        .hasFieldOrPropertyWithValue("SQLState", "40000").hasMessageContaining("after inserting 1000 of its 1001");
                c.rollback();
                c.setAutoCommit(true);
                assertThat(coordinator.awaitIdle(10_000)).isTrue();
                assertThat(rows(coordinator.primary(), "SELECT n FROM tags")).as("neither statement left a row")
                        .containsExactly("2000");
            }
            assertThat(coordinator.awaitIdle(10_000)).isTrue();
            List<List<String>> tables = new ArrayList<>();
            for (JdbcReplicaEndpoint e : coordinator.endpoints()) {
                tables.add(rows(e, "SELECT id, name FROM pets ORDER BY id").stream().map(r -> r.replace('|', '=')).toList());
            }
            assertThat(tables.get(0)).contains("1=a", "2=b", "3=c", "4=d").doesNotContain("e", "f")
                    .noneMatch(row -> row.endsWith("=e") || row.endsWith("=f")).hasSize(11 + 1_001).anyMatch(row -> row.endsWith("=o"))
                    .anyMatch(row -> row.endsWith("=l")).anyMatch(row -> row.endsWith("=m")).anyMatch(row -> row.endsWith("=k"));
            assertThat(tables).as("every replica holds the primary's keys").containsOnly(tables.get(0));
            assertThat(coordinator.divergences().snapshot()).isEmpty();
        }
    }

    /**
     * The shepherd's own tables on every replica are out of the clients' reach: statements naming them are refused and
     * metadata does not list them; a client table whose name merely starts like them is an ordinary table.
     */
    @Test
    void theShepherdsOwnTablesAreRefusedAndHidden(@TempDir Path dir) throws Exception {
        try (Embedded server = Embedded.start(dir)) {
            try (Connection c = server.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE shepherd_notes (id INT PRIMARY KEY, txt VARCHAR(20))");
                s.executeUpdate("INSERT INTO shepherd_notes VALUES (1, 'shepherd_txlog')");
                for (String sql : List.of("SELECT COUNT(*) FROM shepherd_txlog", "DELETE FROM SHEPHERD_TXLOG_BASE",
                        "DROP TABLE shepherd_txlog", "UPDATE \"SHEPHERD_TXLOG\" SET barrier = 0")) {
                    assertThatThrownBy(() -> s.execute(sql)).as(sql).isInstanceOf(SQLException.class)
                            .hasFieldOrPropertyWithValue("SQLState", "42501").hasMessageContaining("the shepherd's own table");
                }
                c.setAutoCommit(false);
                try (PreparedStatement ps = c.prepareStatement("SELECT txid FROM shepherd_txlog WHERE barrier > ?")) {
                    ps.setLong(1, 0);
                    assertThatThrownBy(ps::executeQuery).isInstanceOf(SQLException.class)
                            .hasFieldOrPropertyWithValue("SQLState", "42501");
                }
                s.executeUpdate("INSERT INTO shepherd_notes VALUES (2, 'b')");
                c.commit();
                c.setAutoCommit(true);
                List<String> tables = new ArrayList<>();
                try (ResultSet rs = c.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})) {
                    while (rs.next()) tables.add(rs.getString("TABLE_NAME"));
                }
                assertThat(tables).containsExactly("SHEPHERD_NOTES");
                tables.clear();
                try (ResultSet rs = s.executeQuery("SELECT t.tablename FROM sys.systables t JOIN sys.sysschemas s"
                        + " ON t.schemaid = s.schemaid WHERE t.tabletype = 'T' AND s.schemaname = CURRENT SCHEMA")) {
                    while (rs.next()) tables.add(rs.getString(1));
                }
                assertThat(tables).as("Derby's catalog").containsExactly("SHEPHERD_NOTES");
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sys.systables WHERE tabletype = 'T'")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).as("counted in the query: the shepherd's tables left out").isOne();
                }
                try (ResultSet rs = c.getMetaData().getColumns(null, null, "SHEPHERD_TXLOG%", "%")) {
                    assertThat(rs.next()).as("no columns of the shepherd's tables").isFalse();
                }
            }
            CbsCoordinator coordinator = server.coordinator();
            assertThat(coordinator.awaitIdle(10_000)).isTrue();
            assertThat(coordinator.verify(null)).extracting(AdminView.VerifyRow::table).containsExactly("SHEPHERD_NOTES");
            for (JdbcReplicaEndpoint e : coordinator.endpoints()) {
                try (Connection c = e.pool().acquireForMetadata(); Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM shepherd_txlog")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).as("the log of %s is untouched", e.name()).isPositive();
                    c.rollback();
                }
            }
            assertThat(coordinator.divergences().snapshot()).isEmpty();
        }
    }

    /** A statement nested too deeply for the SQL parser gets an error, and the connection and the server serve on; one
     * with 3,000 ORs runs alike on every replica. */
    @Test
    void aStatementTooDeepForTheParserIsRefusedAndTheConnectionServesOn(@TempDir Path dir) throws Exception {
        try (Embedded server = Embedded.start(dir)) {
            String deep = "SELECT " + "(".repeat(50_000) + "1" + ")".repeat(50_000) + " FROM kv";
            try (Connection c = server.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE kv (k INT PRIMARY KEY)");
                assertThatThrownBy(() -> s.executeQuery(deep)).isInstanceOf(SQLException.class)
                        .hasFieldOrPropertyWithValue("SQLState", "54001");
                s.executeUpdate("INSERT INTO kv VALUES (1)");
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM kv")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(1);
                }
                // deep, but not too deep: every thread that parses or runs it has the same stack, so the embedded
                // replicas agree (with the replicas' workers on the JVM's default stack, r2 and r3 overflowed where
                // the primary, run on the session's thread, did not, and outvoted it)
                StringBuilder ors = new StringBuilder("SELECT COUNT(*) FROM kv WHERE k = -1");
                for (int i = 0; i < 3_000; i++) ors.append(" OR k = ").append(i * 2 + 1);
                try (ResultSet rs = s.executeQuery(ors.toString())) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(1);
                }
            }
            CbsCoordinator coordinator = server.coordinator();
            assertThat(coordinator.awaitIdle(10_000)).isTrue();
            assertThat(coordinator.divergences().snapshot()).isEmpty();
            assertThat(coordinator.viewStatus().view()).as("no view change").isZero();
        }
    }

    @Test
    void sessionStatementsAreAnsweredOrRefusedWithoutReachingAReplica(@TempDir Path dir) throws Exception {
        try (Embedded server = Embedded.start(dir)) {
            try (Connection a = server.connect(); Connection b = server.connect()) {
                SessionSettingsContract.holds(a, b, true);
            }
            CbsCoordinator coordinator = server.coordinator();
            assertThat(coordinator.awaitIdle(10_000)).isTrue();
            assertThat(coordinator.divergences().snapshot()).isEmpty();
        }
    }

    @Test
    void jdbcSavepointsThroughTheDriverUndoPartOfATransactionOnEveryReplica(@TempDir Path dir) throws Exception {
        try (Embedded server = Embedded.start(dir)) {
            CbsCoordinator coordinator = server.coordinator();
            try (Connection c = server.connect(); Connection other = server.connect(); Statement s = c.createStatement()) {
                assertThat(c.getMetaData().supportsSavepoints()).isTrue();
                s.executeUpdate("CREATE TABLE kv (k INT PRIMARY KEY, v VARCHAR(20))");
                assertThatThrownBy(c::setSavepoint).isInstanceOf(SQLException.class)
                        .hasFieldOrPropertyWithValue("SQLState", "25000");
                c.setAutoCommit(false);
                s.executeUpdate("INSERT INTO kv VALUES (1, 'kept')");
                Savepoint first = c.setSavepoint();
                assertThat(first.getSavepointId()).isEqualTo(1);
                assertThatThrownBy(first::getSavepointName).isInstanceOf(SQLException.class);
                s.executeUpdate("INSERT INTO kv VALUES (2, 'undone')");
                c.rollback(first);
                c.releaseSavepoint(first);
                Savepoint named = c.setSavepoint("before_three");
                assertThat(named.getSavepointName()).isEqualTo("before_three");
                s.executeUpdate("INSERT INTO kv VALUES (3, 'kept')");
                c.releaseSavepoint(named);
                Savepoint again = c.setSavepoint();
                assertThatThrownBy(() -> s.executeUpdate("INSERT INTO kv VALUES (3, 'duplicate')"))
                        .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "23505");
                c.rollback(again);
                assertThatThrownBy(() -> c.setSavepoint("two words")).isInstanceOf(SQLException.class)
                        .hasMessageContaining("plain SQL identifier");
                other.setAutoCommit(false);
                assertThatThrownBy(() -> other.rollback(again)).isInstanceOf(SQLException.class)
                        .hasMessageContaining("not set on this connection");
                c.commit();
                c.setAutoCommit(true);
                try (ResultSet rs = s.executeQuery("SELECT k FROM kv ORDER BY k")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(1);
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(3);
                    assertThat(rs.next()).isFalse();
                }
            }
            assertThat(coordinator.awaitIdle(10_000)).isTrue();
            for (JdbcReplicaEndpoint e : coordinator.endpoints()) {
                assertThat(rows(e, "SELECT COUNT(*), SUM(k) FROM kv")).as("rows, sum on %s", e.name()).containsExactly("2|4");
            }
            assertThat(coordinator.divergences().snapshot()).isEmpty();
        }
    }

    @Test
    void modeSelectsTheCoordinator(@TempDir Path dir) throws Exception {
        ShepherdConfig cbs = EmbeddedDefault.config(dir.resolve("d"), "127.0.0.1:0");
        for (Mode m : new Mode[] {Mode.SERIAL, Mode.PASSTHROUGH}) {
            try (org.shepherd.coordinator.Coordinator c = ShepherdServer.openCoordinator(cbs.with("mode", m.configName()))) {
                assertThat(c instanceof CbsCoordinator).as("mode %s", m).isEqualTo(m != Mode.PASSTHROUGH);
            }
        }
    }

    /**
     * A query of the catalog is answered by the primary, outside the session's transaction, except after that
     * transaction changed the schema (Derby's DDL is transactional): then the primary answers it in the transaction, and
     * it sees the change, instead of waiting outside for the catalog locks the transaction holds.
     */
    @Test
    void aCatalogQuerySeesItsOwnTransactionsTables(@TempDir Path dir) throws Exception {
        try (Embedded server = Embedded.start(dir); Connection c = server.connect(); Statement s = c.createStatement()) {
            String count = "SELECT COUNT(*) FROM SYS.SYSTABLES WHERE TABLENAME = 'NEWBORN'";
            c.setAutoCommit(false);
            s.executeUpdate("CREATE TABLE newborn (id INT PRIMARY KEY)");
            try (ResultSet rs = s.executeQuery(count)) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as("in the transaction that made it").isEqualTo(1);
            }
            c.rollback();
            c.setAutoCommit(true);
            try (ResultSet rs = s.executeQuery(count)) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as("rolled back; answered by the primary").isZero();
            }
        }
    }

    /**
     * A migration creates a schema and a table with an identity key and fills it, in one transaction. What the shepherd
     * must know of them (that the schema exists, which column is the identity) is read in that transaction on the
     * primary: read on another connection, Derby made the lookup wait for the catalog locks the transaction holds, until
     * the lock timeout (40XL1).
     */
    @Test
    void aTransactionFillsTheTablesItCreated(@TempDir Path dir) throws Exception {
        try (Embedded server = Embedded.start(dir); Connection c = server.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("CREATE SCHEMA shop");
            s.executeUpdate("SET SCHEMA shop");
            s.executeUpdate("CREATE TABLE item (id INT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, name VARCHAR(20))");
            assertThat(s.executeUpdate("INSERT INTO item (name) VALUES ('nail')")).isEqualTo(1);
            s.executeUpdate("ALTER TABLE item ADD COLUMN price INT");
            assertThat(s.executeUpdate("INSERT INTO item (name, price) VALUES ('screw', 2)")).isEqualTo(1);
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getColumns(null, "SHOP", "ITEM", null)) {
                while (rs.next()) columns.add(rs.getString("COLUMN_NAME"));
            }
            assertThat(columns).as("a DatabaseMetaData call in the transaction").containsExactly("ID", "NAME", "PRICE");
            s.executeUpdate("CREATE VIEW priced AS SELECT name, price FROM item WHERE price IS NOT NULL");
            assertThat(rows(s, "SELECT name, price FROM priced ORDER BY name")).containsExactly("screw|2");
            c.commit();
            c.setAutoCommit(true);
            for (JdbcReplicaEndpoint e : server.coordinator().endpoints()) {
                assertThat(rows(e, "SELECT id, name, price FROM shop.item ORDER BY id")).as(e.name())
                        .containsExactly("1|nail|null", "2|screw|2");
            }
            // a batch is one transaction: its INSERT follows the CREATE TABLE before it
            s.addBatch("CREATE TABLE bolt (id INT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, size INT)");
            s.addBatch("INSERT INTO bolt (size) VALUES (8)");
            assertThat(s.executeBatch()).containsExactly(0, 1);
            for (JdbcReplicaEndpoint e : server.coordinator().endpoints()) {
                assertThat(rows(e, "SELECT id, size FROM shop.bolt")).as(e.name()).containsExactly("1|8");
            }
        }
    }
}
