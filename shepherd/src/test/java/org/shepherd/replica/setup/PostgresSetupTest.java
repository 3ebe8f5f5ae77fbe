package org.shepherd.replica.setup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.shepherd.testkit.PostgresServer;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresSetupTest {
    private PostgresServer server;
    private ReplicaSetup setup;

    @BeforeAll
    void start() throws Exception {
        server = new PostgresServer();
        server.start();
        setup = ReplicaSetup.forDialect(server.dialect());
        try (Connection c = server.connect()) {
            setup.prepareDatabase(c);
        }
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private Connection prepared() throws SQLException {
        Connection c = server.connect();
        setup.prepareConnection(c);
        return c;
    }

    @Test
    void acceptedAsSecondaryWithCommittedPredecessorsGateAndRefusedAsPrimary() throws Exception {
        try (Connection c = prepared()) {
            setup.verify(c);
            assertThat(c.getAutoCommit()).isFalse();
        }
        assertThat(setup.canBePrimary()).isFalse();
        assertThat(setup.statementGate()).isEqualTo(StatementGate.PREDECESSORS_COMMITTED);
        assertThatThrownBy(setup::verifyPrimary).isInstanceOf(ReplicaRefusedException.class)
                .hasMessageContaining("cannot be the primary");
    }

    /** Why the gate is needed: a read does not wait for an uncommitted write, and it sees every earlier commit. */
    @Test
    void eachStatementReadsWhatWasCommittedBeforeItAndNeverWaitsForWriters() throws Exception {
        try (Connection setupConnection = prepared(); Statement s = setupConnection.createStatement()) {
            s.execute("CREATE TABLE t_rc (id INT PRIMARY KEY, v INT)");
            s.executeUpdate("INSERT INTO t_rc VALUES (1, 0)");
            setupConnection.commit();
        }
        try (Connection reader = prepared(); Connection writer = prepared();
             Statement r = reader.createStatement(); Statement w = writer.createStatement()) {
            assertThat(value(r)).isZero();
            w.executeUpdate("UPDATE t_rc SET v = 1 WHERE id = 1");
            assertThat(value(r)).as("uncommitted write invisible, and the read did not block").isZero();
            writer.commit();
            assertThat(value(r)).as("same transaction, next statement sees the commit").isEqualTo(1);
            reader.commit();
        }
    }

    @Test
    void lockTimeoutIsRetryable() throws Exception {
        try (Connection setupConnection = prepared(); Statement s = setupConnection.createStatement()) {
            s.execute("CREATE TABLE t_lock (id INT PRIMARY KEY, v INT)");
            s.executeUpdate("INSERT INTO t_lock VALUES (1, 0)");
            setupConnection.commit();
        }
        try (Connection first = prepared(); Connection second = prepared();
             Statement a = first.createStatement(); Statement b = second.createStatement()) {
            a.executeUpdate("UPDATE t_lock SET v = 1 WHERE id = 1");
            b.execute("SET LOCAL lock_timeout = '100ms'");
            SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> b.executeUpdate("UPDATE t_lock SET v = 2 WHERE id = 1"));
            assertThat(e.getSQLState()).isEqualTo("55P03");
            assertThat(setup.isRetryable(e)).isTrue();
            second.rollback();
            first.commit();
        }
    }

    @Test
    void settingsThatLoseCommitsAreRefused() throws Exception {
        try (Connection admin = server.connect(); Statement s = admin.createStatement()) {
            s.execute("ALTER SYSTEM SET fsync = off");
            s.execute("SELECT pg_reload_conf()");
            try (Connection c = prepared()) {
                awaitSetting(c, "fsync", "off");
                assertThatThrownBy(() -> setup.verify(c)).isInstanceOf(ReplicaRefusedException.class)
                        .hasMessageContaining("fsync=off");
            } finally {
                s.execute("ALTER SYSTEM RESET fsync");
                s.execute("SELECT pg_reload_conf()");
            }
        }
        try (Connection c = prepared()) {
            awaitSetting(c, "fsync", "on");
            setup.verify(c);
        }
    }

    /** pg_reload_conf() signals the postmaster; backends apply the file before their next command. */
    private static void awaitSetting(Connection c, String name, String expected) throws Exception {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW " + name)) {
                rs.next();
                if (expected.equals(rs.getString(1))) {
                    c.commit();
                    return;
                }
            }
            c.commit();
            Thread.sleep(50);
        }
        throw new AssertionError(name + " never became " + expected);
    }

    private static int value(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT v FROM t_rc WHERE id = 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
