package org.shepherd.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.shepherd.server.ServerTestSupport.PASSWORD;
import static org.shepherd.server.ServerTestSupport.USER;
import static org.shepherd.server.ServerTestSupport.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.apache.commons.dbutils.QueryRunner;
import org.apache.commons.dbutils.handlers.MapListHandler;
import org.apache.commons.dbutils.handlers.ScalarHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.shepherd.coordinator.SessionSettingsContract;
import org.shepherd.coordinator.passthrough.PassthroughCoordinator;

/** Client → real JDBC driver → server → passthrough → embedded Derby, with nothing mocked. */
class JdbcEndToEndTest {

    private static ShepherdServer server;
    private static String url;

    @BeforeAll
    static void start() throws Exception {
        server = ShepherdServer.create(ServerTestSupport.config(Map.of()));
        server.start();
        url = server.jdbcUrl("shepherd") + "?user=" + USER + "&password=" + PASSWORD;
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }

    private static int replicaConnectionsInUse() {
        return ((PassthroughCoordinator) server.coordinator()).replica().activeConnections();
    }

    /**
     * A request larger than maxFrameBytes is refused by the driver before it is sent (the server would close the
     * connection on it): 54000, and the connection, with its transaction, goes on.
     */
    @Test
    void aRequestLargerThanTheFrameLimitIsRefusedAndTheConnectionGoesOn() throws SQLException {
        try (Connection c = DriverManager.getConnection(url + "&maxFrameBytes=65536"); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE framed (id INT PRIMARY KEY, v VARCHAR(32000))");
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO framed VALUES (1, 'kept')");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO framed VALUES (?, ?)")) {
                for (int i = 2; i < 12; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "x".repeat(8_000));
                    ps.addBatch();
                }
                assertThatThrownBy(ps::executeBatch).isInstanceOf(SQLException.class)
                        .hasFieldOrPropertyWithValue("SQLState", "54000").hasMessageContaining("was not sent");
            }
            c.commit();
            try (ResultSet rs = s.executeQuery("SELECT v FROM framed ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("kept");
                assertThat(rs.next()).as("nothing of the refused batch").isFalse();
            }
        }
    }

    @Test
    void sessionStatementsNeverReachAPooledConnection() throws SQLException {
        try (Connection a = connect(); Connection b = connect()) {
            SessionSettingsContract.holds(a, b, false);
        }
    }

    @Test
    void savepointsReachTheDatabaseInItsOwnSpelling() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.executeUpdate("CREATE TABLE sp (k INT PRIMARY KEY)");
            assertThatThrownBy(() -> st.execute("SAVEPOINT s1")).isInstanceOf(SQLException.class)
                    .hasFieldOrPropertyWithValue("SQLState", "25000");
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO sp VALUES (1)");
            Savepoint sp = c.setSavepoint("s1"); // Derby needs ON ROLLBACK RETAIN CURSORS, which the driver leaves out
            st.executeUpdate("INSERT INTO sp VALUES (2)");
            c.rollback(sp);
            c.releaseSavepoint(sp);
            st.execute("SAVEPOINT s2 ON ROLLBACK RETAIN CURSORS");
            st.executeUpdate("INSERT INTO sp VALUES (3)");
            st.execute("ROLLBACK TO SAVEPOINT s2");
            c.commit();
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(k) FROM sp")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(1);
                assertThat(rs.getInt(2)).isEqualTo(1);
            }
            c.commit();
        }
        assertThat(await(() -> replicaConnectionsInUse() == 0)).isTrue();
    }

    @Test
    void everyCommonTypeIsStoredAndReadBackExactly() throws SQLException {
        byte[] bytes = {0, 1, 2, (byte) 0x80, (byte) 0xff};
        Date date = Date.valueOf("2024-02-29");
        Time time = Time.valueOf("23:59:58");
        Timestamp ts = Timestamp.valueOf("2024-02-29 13:14:15.123456789");
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.executeUpdate("CREATE TABLE types (i INT, l BIGINT, sm SMALLINT, d DECIMAL(30,10), f DOUBLE, r REAL, "
                    + "v VARCHAR(100), ch CHAR(5), dt DATE, tm TIME, ts TIMESTAMP, b BOOLEAN, vb VARCHAR(16) FOR BIT DATA, "
                    + "blb BLOB(1M), clb CLOB(1M), n INT)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO types VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
                ps.setInt(1, Integer.MIN_VALUE);
                ps.setLong(2, Long.MAX_VALUE);
                ps.setShort(3, (short) -7);
                ps.setBigDecimal(4, new BigDecimal("-12345678901234567890.0123456789"));
                ps.setDouble(5, 0.1 + 0.2);
                ps.setFloat(6, 1.1f);
                ps.setString(7, "héllo, wörld ✓ 'quoted'");
                ps.setString(8, "ab");
                ps.setDate(9, date);
                ps.setTime(10, time);
                ps.setTimestamp(11, ts);
                ps.setBoolean(12, true);
                ps.setBytes(13, bytes);
                ps.setBytes(14, bytes);
                ps.setString(15, "x".repeat(10_000));
                ps.setNull(16, Types.INTEGER);
                assertThat(ps.executeUpdate()).isEqualTo(1);
                ps.setInt(1, 2);
                for (int i = 2; i <= 16; i++) ps.setNull(i, ps.getParameterMetaData().getParameterType(i));
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            try (ResultSet rs = st.executeQuery("SELECT * FROM types ORDER BY i")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(Integer.MIN_VALUE);
                assertThat(rs.getLong("L")).isEqualTo(Long.MAX_VALUE);
                assertThat(rs.getShort(3)).isEqualTo((short) -7);
                assertThat(rs.getBigDecimal(4)).isEqualTo(new BigDecimal("-12345678901234567890.0123456789"));
                assertThat(rs.getDouble(5)).isEqualTo(0.1 + 0.2);
                assertThat(rs.getFloat(6)).isEqualTo(1.1f);
                assertThat(rs.getString(7)).isEqualTo("héllo, wörld ✓ 'quoted'");
                assertThat(rs.getString(8)).isEqualTo("ab   ");
                assertThat(rs.getDate(9)).isEqualTo(date);
                assertThat(rs.getTime(10)).isEqualTo(time);
                assertThat(rs.getTimestamp(11)).isEqualTo(ts);
                assertThat(rs.getBoolean(12)).isTrue();
                assertThat(rs.getBytes(13)).isEqualTo(bytes);
                assertThat(rs.getBytes(14)).isEqualTo(bytes);
                assertThat(rs.getString(15)).isEqualTo("x".repeat(10_000));
                assertThat(rs.getInt(16)).isZero();
                assertThat(rs.wasNull()).isTrue();
                assertThat(rs.getObject(16)).isNull();
                assertThat(rs.next()).isTrue();
                for (int i = 2; i <= 16; i++) assertThat(rs.getObject(i)).as("column %d", i).isNull();
                assertThat(rs.next()).isFalse();
            }
        }
        assertThat(await(() -> replicaConnectionsInUse() == 0)).isTrue();
    }

    @Test
    void transactionsCommitAndRollBack() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.executeUpdate("CREATE TABLE tx (id INT PRIMARY KEY, v VARCHAR(10))");
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO tx VALUES (1, 'kept')");
            c.commit();
            st.executeUpdate("INSERT INTO tx VALUES (2, 'dropped')");
            assertThat(replicaConnectionsInUse()).isEqualTo(1);
            c.rollback();
            c.setAutoCommit(true);
            try (ResultSet rs = st.executeQuery("SELECT id, v FROM tx")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("v")).isEqualTo("kept");
                assertThat(rs.next()).isFalse();
            }
            assertThatThrownBy(() -> st.executeUpdate("INSERT INTO tx VALUES (1, 'dup')"))
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "23505");
        }
    }

    @Test
    void generatedKeysBatchesAndMetadataWorkThroughTheDriver() throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.executeUpdate("CREATE TABLE gk (id INT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v VARCHAR(10))");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO gk (v) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, "a");
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    assertThat(keys.next()).isTrue();
                    assertThat(keys.getLong(1)).isEqualTo(1L);
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO gk (v) VALUES (?)")) {
                for (String v : List.of("b", "c", "d")) {
                    ps.setString(1, v);
                    ps.addBatch();
                }
                assertThat(ps.executeBatch()).containsExactly(1, 1, 1);
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO gk (v) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
                for (String v : List.of("e", "f")) {
                    ps.setString(1, v);
                    ps.addBatch();
                }
                assertThat(ps.executeBatch()).containsExactly(1, 1);
                List<Long> keys = new java.util.ArrayList<>();
                try (ResultSet rs = ps.getGeneratedKeys()) {
                    while (rs.next()) keys.add(rs.getLong(1));
                }
                // passthrough passes on what the engine reports: embedded Derby, the last element's key only
                assertThat(keys).containsExactly(6L);
            }
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getTables(null, null, "GK", new String[] {"TABLE"})) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("TABLE_NAME")).isEqualTo("GK");
            }
            try (ResultSet rs = md.getPrimaryKeys(null, null, "GK")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("COLUMN_NAME")).isEqualTo("ID");
            }
        }
    }

    @Test
    void hikariCpPoolsShepherdConnectionsWithOnlyTheUrl() throws SQLException {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(url);
        hc.setMaximumPoolSize(3);
        hc.setPoolName("client-pool");
        try (HikariDataSource ds = new HikariDataSource(hc)) {
            try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                st.executeUpdate("CREATE TABLE pooled (x INT)");
            }
            for (int i = 0; i < 10; i++) {
                try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("INSERT INTO pooled VALUES (?)")) {
                    ps.setInt(1, i);
                    ps.executeUpdate();
                }
            }
            try (Connection c = ds.getConnection(); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(x) FROM pooled")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(10);
                assertThat(rs.getInt(2)).isEqualTo(45);
            }
            assertThat(ds.getHikariPoolMXBean().getTotalConnections()).isLessThanOrEqualTo(3);
        }
        assertThat(await(() -> replicaConnectionsInUse() == 0)).isTrue();
    }

    @Test
    void anUnmodifiedThirdPartyClientWorks() throws SQLException {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(url);
        hc.setMaximumPoolSize(2);
        try (HikariDataSource ds = new HikariDataSource(hc)) {
            QueryRunner run = new QueryRunner(ds);
            run.update("CREATE TABLE people (id INT PRIMARY KEY, name VARCHAR(40), born DATE)");
            run.update("INSERT INTO people VALUES (?, ?, ?)", 1, "Ada", Date.valueOf("1815-12-10"));
            run.update("INSERT INTO people VALUES (?, ?, ?)", 2, "Alan", Date.valueOf(LocalDate.of(1912, 6, 23)));
            List<Map<String, Object>> rows = run.query("SELECT * FROM people ORDER BY id", new MapListHandler());
            assertThat(rows).hasSize(2);
            assertThat(rows.get(0)).containsEntry("name", "Ada");
            assertThat(rows.get(1).get("born").toString()).isEqualTo("1912-06-23");
            Integer count = run.query("SELECT COUNT(*) FROM people WHERE born < ?", new ScalarHandler<>(),
                    Timestamp.valueOf(LocalDateTime.of(1900, 1, 1, 0, 0)));
            assertThat(count).isEqualTo(1);
        }
    }

    @Test
    void wrongPasswordIsRefusedWithSqlState28P01() {
        assertThatThrownBy(() -> DriverManager.getConnection(server.jdbcUrl("shepherd"), USER, "nope"))
                .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "28P01");
    }

    @Test
    void statementCancelFromAnotherThreadStopsAStreamingResult() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.setFetchSize(10);
            try (ResultSet rs = st.executeQuery("SELECT * FROM SYS.SYSCOLUMNS a, SYS.SYSCOLUMNS b, SYS.SYSCOLUMNS c")) {
                assertThat(rs.next()).isTrue();
                Thread canceller = new Thread(() -> {
                    try {
                        st.cancel();
                    } catch (SQLException e) {
                        throw new AssertionError(e);
                    }
                });
                canceller.start();
                canceller.join();
                assertThatThrownBy(() -> {
                    while (rs.next()) {
                        rs.getObject(1);
                    }
                }).isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "57014");
            }
            try (ResultSet rs = st.executeQuery("VALUES 42")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(42);
            }
        }
    }
}
