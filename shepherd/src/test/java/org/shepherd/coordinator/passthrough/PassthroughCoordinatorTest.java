package org.shepherd.coordinator.passthrough;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.MetadataRequest;
import org.shepherd.coordinator.ResultCursor;
import org.shepherd.coordinator.Session;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;
import org.shepherd.replica.jdbc.ConnectionPreparer;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.replica.jdbc.ReplicaSpec;

class PassthroughCoordinatorTest {

    private static final AtomicInteger DB = new AtomicInteger();

    private PassthroughCoordinator coordinator;
    private ReplicaPool pool;

    @BeforeEach
    void start() throws SQLException {
        ReplicaSpec spec = ReplicaSpec.of("r1", "jdbc:derby:memory:pt" + DB.incrementAndGet() + ";create=true", "", "");
        pool = new ReplicaPool(spec, ConnectionPreparer.defaults("derby"), 4, 2000);
        coordinator = new PassthroughCoordinator(pool, 100);
    }

    @AfterEach
    void stop() {
        coordinator.close();
    }

    private static Answer.Update update(Session s, String sql, Param... params) throws SQLException {
        return (Answer.Update) s.execute(sql, List.of(params), ExecOptions.DEFAULT);
    }

    private static List<Object[]> query(Session s, String sql, ExecOptions options, Param... params) throws SQLException {
        Answer.Rows rows = (Answer.Rows) s.execute(sql, List.of(params), options);
        List<Object[]> out = new ArrayList<>();
        try (ResultCursor c = rows.cursor()) {
            while (!c.exhausted()) out.addAll(c.fetch(7));
        }
        return out;
    }

    @Test
    void everyCommonTypeRoundTripsExactlyThroughParameters() throws SQLException {
        try (Session s = coordinator.openSession("app", "db")) {
            update(s, "CREATE TABLE t (i INT, l BIGINT, sm SMALLINT, d DECIMAL(20,4), f DOUBLE, r REAL, v VARCHAR(50), "
                    + "c CHAR(3), dt DATE, tm TIME, ts TIMESTAMP, b BOOLEAN, vb VARCHAR(8) FOR BIT DATA, n INT)");
            Object[] values = {42L, 9_000_000_000L, 7L, new BigDecimal("12345678.1234"), 0.1 + 0.2, 1.5,
                "héllo ✓", "abc", LocalDate.of(1999, 12, 31), LocalTime.of(23, 59, 58),
                LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_456_789), true, new byte[] {0, 1, (byte) 0xff}, null};
            int[] types = {Types.INTEGER, Types.BIGINT, Types.SMALLINT, Types.DECIMAL, Types.DOUBLE, Types.REAL, Types.VARCHAR,
                Types.CHAR, Types.DATE, Types.TIME, Types.TIMESTAMP, Types.BOOLEAN, Types.VARBINARY, Types.INTEGER};
            Param[] params = new Param[values.length];
            for (int i = 0; i < values.length; i++) params[i] = new Param(types[i], values[i]);
            Answer.Update u = update(s, "INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", params);
            assertThat(u.count()).isEqualTo(1);

            Answer.Rows rows = (Answer.Rows) s.execute("SELECT * FROM t", List.of(), ExecOptions.DEFAULT);
            try (ResultCursor c = rows.cursor()) {
                assertThat(c.columns()).extracting(ColumnInfo::label)
                        .containsExactly("I", "L", "SM", "D", "F", "R", "V", "C", "DT", "TM", "TS", "B", "VB", "N");
                assertThat(c.columns().get(3).scale()).isEqualTo(4);
                List<Object[]> all = c.fetch(10);
                assertThat(all).hasSize(1);
                assertThat(Arrays.deepEquals(all.get(0), values)).as(Arrays.deepToString(all.get(0))).isTrue();
                assertThat(c.exhausted()).isTrue();
            }
            update(s, "INSERT INTO t (i, n) VALUES (?, ?)", new Param(Types.INTEGER, 1L), Param.nullOf(Types.NULL));
            assertThat(query(s, "SELECT n FROM t WHERE i = 1", ExecOptions.DEFAULT).get(0)[0]).isNull();
        }
    }

    @Test
    void largeResultIsReadInBatchesAndMaxRowsIsHonoured() throws SQLException {
        try (Session s = coordinator.openSession("app", "db")) {
            update(s, "CREATE TABLE n (x INT)");
            update(s, "INSERT INTO n VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)");
            Answer.Rows rows = (Answer.Rows) s.execute("SELECT a.x * 100 + b.x * 10 + c.x FROM n a, n b, n c ORDER BY 1",
                    List.of(), new ExecOptions(0, 64, 0, false));
            long expected = 0;
            try (ResultCursor c = rows.cursor()) {
                while (!c.exhausted()) {
                    List<Object[]> batch = c.fetch(64);
                    assertThat(batch.size()).isLessThanOrEqualTo(64);
                    for (Object[] r : batch) assertThat(r[0]).isEqualTo(expected++);
                }
            }
            assertThat(expected).isEqualTo(1000);
            assertThat(query(s, "SELECT x FROM n", new ExecOptions(3, 0, 0, false))).hasSize(3);
        }
    }

    @Test
    void autocommitReleasesTheReplicaConnectionAfterEachStatementAndTransactionsKeepOne() throws SQLException {
        try (Session s = coordinator.openSession("app", "db")) {
            PassthroughSession ps = (PassthroughSession) s;
            update(s, "CREATE TABLE a (x INT)");
            assertThat(ps.holdsConnection()).isFalse();
            assertThat(pool.activeConnections()).isZero();

            s.setAutoCommit(false);
            update(s, "INSERT INTO a VALUES (1)");
            assertThat(ps.holdsConnection()).isTrue();
            assertThat(pool.activeConnections()).isEqualTo(1);
            s.rollback();
            assertThat(pool.activeConnections()).isZero();
            update(s, "INSERT INTO a VALUES (2)");
            s.commit();
            assertThat(pool.activeConnections()).isZero();
            s.setAutoCommit(true);

            Answer.Rows rows = (Answer.Rows) s.execute("SELECT x FROM a", List.of(), ExecOptions.DEFAULT);
            assertThat(pool.activeConnections()).as("an open result holds its connection").isEqualTo(1);
            rows.cursor().close();
            assertThat(pool.activeConnections()).isZero();
            assertThat(query(s, "SELECT x FROM a", ExecOptions.DEFAULT)).extracting(r -> r[0]).containsExactly(2L);
        }
    }

    @Test
    void closingASessionRollsBackItsOpenTransaction() throws SQLException {
        try (Session s = coordinator.openSession("app", "db")) {
            update(s, "CREATE TABLE b (x INT)");
        }
        Session s = coordinator.openSession("app", "db");
        s.setAutoCommit(false);
        update(s, "INSERT INTO b VALUES (1)");
        s.execute("SELECT * FROM b", List.of(), ExecOptions.DEFAULT);
        s.close();
        s.close();
        assertThat(pool.activeConnections()).isZero();
        assertThat(coordinator.openSessions()).isZero();
        try (Session t = coordinator.openSession("app", "db")) {
            assertThat(query(t, "SELECT * FROM b", ExecOptions.DEFAULT)).isEmpty();
        }
        assertThatThrownBy(() -> s.execute("VALUES 1", List.of(), ExecOptions.DEFAULT))
                .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "08003");
    }

    @Test
    void replicaErrorsKeepTheirSqlStateAndVendorCode() throws SQLException {
        try (Session s = coordinator.openSession("app", "db")) {
            update(s, "CREATE TABLE k (x INT PRIMARY KEY)");
            update(s, "INSERT INTO k VALUES (1)");
            assertThatThrownBy(() -> update(s, "INSERT INTO k VALUES (1)"))
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "23505");
            int derbyCode;
            try (Connection direct = DriverManager.getConnection(pool.spec().url())) {
                direct.setAutoCommit(false);
                derbyCode = assertThrows(SQLException.class, () -> direct.createStatement().execute("SELEC nonsense"))
                        .getErrorCode();
            }
            assertThat(derbyCode).isNotZero();
            assertThatThrownBy(() -> update(s, "SELEC nonsense"))
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "42X01")
                    .hasFieldOrPropertyWithValue("errorCode", derbyCode);
            assertThat(pool.activeConnections()).isZero();
        }
    }

    @Test
    void generatedKeysAreReturnedWhenAsked() throws SQLException {
        try (Session s = coordinator.openSession("app", "db")) {
            update(s, "CREATE TABLE g (id INT GENERATED ALWAYS AS IDENTITY, v VARCHAR(5))");
            Answer.Update u = (Answer.Update) s.execute("INSERT INTO g (v) VALUES (?)",
                    List.of(new Param(Types.VARCHAR, "x")), new ExecOptions(0, 0, 0, true));
            assertThat(u.count()).isEqualTo(1);
            assertThat(u.keyColumns()).hasSize(1);
            assertThat(u.generatedKeys()).hasSize(1);
            assertThat(((Number) u.generatedKeys().get(0)[0]).longValue()).isEqualTo(1L);
        }
    }

    @Test
    void batchesReturnOneCountPerElement() throws SQLException {
        try (Session s = coordinator.openSession("app", "db")) {
            update(s, "CREATE TABLE bt (x INT)");
            long[] counts = s.executeBatch("INSERT INTO bt VALUES (?)",
                    List.of(List.of(new Param(Types.INTEGER, 1L)), List.of(new Param(Types.INTEGER, 2L))), null,
                    ExecOptions.DEFAULT).counts();
            assertThat(counts).containsExactly(1, 1);
            counts = s.executeBatch(null, null, List.of("UPDATE bt SET x = x + 1", "DELETE FROM bt WHERE x = 3"),
                    ExecOptions.DEFAULT).counts();
            assertThat(counts).containsExactly(2, 1);
            assertThat(pool.activeConnections()).isZero();
        }
    }

    @Test
    void metadataCallsAreForwardedToTheReplicaAndOthersRefused() throws SQLException {
        try (Session s = coordinator.openSession("app", "db")) {
            update(s, "CREATE TABLE meta_t (id INT PRIMARY KEY, v VARCHAR(5))");
            Answer.Rows rows = (Answer.Rows) s.metadata(new MetadataRequest("getTables",
                    Arrays.asList(null, null, "META_T", new String[] {"TABLE"})));
            List<Object[]> all;
            try (ResultCursor c = rows.cursor()) {
                assertThat(c.columns()).extracting(ColumnInfo::label).contains("TABLE_NAME");
                all = c.fetch(100);
            }
            assertThat(all).hasSize(1);
            rows = (Answer.Rows) s.metadata(new MetadataRequest("getColumns", Arrays.asList(null, null, "META_T", "%")));
            try (ResultCursor c = rows.cursor()) {
                assertThat(c.fetch(100)).hasSize(2);
            }
            assertThat(pool.activeConnections()).isZero();
            assertThatThrownBy(() -> s.metadata(new MetadataRequest("getConnection", List.of())))
                    .hasFieldOrPropertyWithValue("SQLState", "0A000");
            assertThatThrownBy(() -> s.metadata(new MetadataRequest("getTables", List.of("x"))))
                    .hasFieldOrPropertyWithValue("SQLState", "07001");
        }
    }

    @Test
    void cancelStopsAStreamingResult() throws SQLException {
        try (Session s = coordinator.openSession("app", "db")) {
            Answer.Rows rows = (Answer.Rows) s.execute("SELECT * FROM SYS.SYSCOLUMNS", List.of(), ExecOptions.DEFAULT);
            ResultCursor c = rows.cursor();
            assertThat(c.fetch(2)).hasSize(2);
            s.cancel();
            assertThatThrownBy(() -> c.fetch(2)).hasFieldOrPropertyWithValue("SQLState", "57014");
            c.close();
            assertThat(pool.activeConnections()).isZero();
        }
    }

    @Test
    void closedCoordinatorRefusesSessions() {
        coordinator.close();
        assertThatThrownBy(() -> coordinator.openSession("app", "db")).hasFieldOrPropertyWithValue("SQLState", "57P01");
    }
}
