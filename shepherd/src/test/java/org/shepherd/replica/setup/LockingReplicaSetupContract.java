package org.shepherd.replica.setup;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** What the setup of a strict two-phase-locking replica must give, checked on a real server of that vendor. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LockingReplicaSetupContract {
    /** Bound on waiting for the two sides of a deadlock; the engines resolve it within their deadlock timeout. */
    private static final long DEADLOCK_RESOLUTION_WAIT_MS = 60_000;

    protected ReplicaSetup setup;

    /** Starts the server (once per class) and returns the dialect. */
    protected abstract String startServer() throws Exception;

    protected abstract void stopServer();

    /** A new raw connection to the replica database. */
    protected abstract Connection open() throws SQLException;

    /** Whether 'a' = 'a ' is true on this engine even after the setup (Derby: always PAD SPACE). */
    protected boolean padSpaceAfterSetup() {
        return false;
    }

    @BeforeAll
    void prepareReplica() throws Exception {
        setup = ReplicaSetup.forDialect(startServer());
        try (Connection c = open()) {
            setup.prepareDatabase(c);
        }
    }

    @AfterAll
    void stop() {
        stopServer();
    }

    protected Connection prepared() throws SQLException {
        Connection c = open();
        setup.prepareConnection(c);
        return c;
    }

    @Test
    void preparedReplicaIsAcceptedAsPrimaryAndSecondary() throws Exception {
        try (Connection c = prepared()) {
            setup.verify(c);
            assertThat(c.getAutoCommit()).isFalse();
            assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
        }
        assertThat(setup.canBePrimary()).isTrue();
        setup.verifyPrimary();
        assertThat(setup.statementGate()).isEqualTo(StatementGate.PREDECESSORS_EXECUTED);
    }

    @Test
    void readsHoldLocksUntilCommitSoAReadWriteCycleIsARetryableDeadlock() throws Exception {
        createTable("t_lock_a");
        createTable("t_lock_b");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Connection c1 = prepared(); Connection c2 = prepared()) {
            assertThat(readValue(c1, "t_lock_a")).isEqualTo(0);
            assertThat(readValue(c2, "t_lock_b")).isEqualTo(0);
            Future<Integer> first = pool.submit(() -> increment(c1, "t_lock_b"));
            Future<Integer> second = pool.submit(() -> increment(c2, "t_lock_a"));
            List<SQLException> failures = new ArrayList<>();
            List<Connection> winners = new ArrayList<>();
            collect(first, c1, failures, winners);
            collect(second, c2, failures, winners);
            assertThat(failures).as("exactly one deadlock victim").hasSize(1);
            assertThat(setup.isRetryable(failures.get(0))).as("victim's error %s (SQLState %s, code %d) is retryable",
                    failures.get(0), failures.get(0).getSQLState(), failures.get(0).getErrorCode()).isTrue();
            winners.get(0).commit();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void comparisonsAreCaseSensitiveAndPadSensitiveWhereTheEngineAllows() throws Exception {
        try (Connection c = prepared(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t_text (id INT PRIMARY KEY, s VARCHAR(10))");
            s.executeUpdate("INSERT INTO t_text VALUES (1, 'a')");
            c.commit();
            assertThat(count(s, "SELECT COUNT(*) FROM t_text WHERE s = 'A'")).isZero();
            assertThat(count(s, "SELECT COUNT(*) FROM t_text WHERE s = 'a'")).isEqualTo(1);
            assertThat(count(s, "SELECT COUNT(*) FROM t_text WHERE s = 'a '")).isEqualTo(padSpaceAfterSetup() ? 1 : 0);
            c.commit();
        }
    }

    private void collect(Future<Integer> f, Connection c, List<SQLException> failures, List<Connection> winners)
            throws Exception {
        try {
            f.get(DEADLOCK_RESOLUTION_WAIT_MS, TimeUnit.MILLISECONDS);
            winners.add(c);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(SQLException.class);
            failures.add((SQLException) e.getCause());
            c.rollback();
        }
    }

    private void createTable(String name) throws SQLException {
        try (Connection c = prepared(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + name + " (id INT PRIMARY KEY, v INT)");
            s.executeUpdate("INSERT INTO " + name + " VALUES (1, 0)");
            c.commit();
        }
    }

    private static int readValue(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT v FROM " + table + " WHERE id = 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static int increment(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement()) {
            return s.executeUpdate("UPDATE " + table + " SET v = v + 1 WHERE id = 1");
        }
    }

    static long count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
