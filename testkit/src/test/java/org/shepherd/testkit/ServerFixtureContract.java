package org.shepherd.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** What every server fixture must do; each engine starts once per test class. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ServerFixtureContract {
    private static final int PAUSED_NETWORK_TIMEOUT_MS = 1_500;
    private static final long RESUMED_ANSWER_TIMEOUT_MS = 60_000;
    private static final int UNPAUSED_NETWORK_TIMEOUT_MS = 60_000;

    protected DatabaseServer server;

    protected abstract DatabaseServer newServer() throws Exception;

    protected abstract String expectedDialect();

    @BeforeAll
    void startServer() throws Exception {
        server = newServer();
        server.start();
    }

    @BeforeEach
    void serverRunsBeforeEachTest() throws Exception {
        if (server.isPaused()) {
            server.resume();
        }
        if (!server.isRunning()) {
            server.start();
        }
    }

    @AfterAll
    void closeServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void listensOnLoopbackAndAnswersJdbc() throws Exception {
        assertThat(server.dialect()).isEqualTo(expectedDialect());
        assertThat(server.jdbcUrl()).contains("127.0.0.1:" + server.port());
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t_answer (id INT PRIMARY KEY, v VARCHAR(20))");
            s.executeUpdate("INSERT INTO t_answer VALUES (1, 'one')");
            assertThat(rows(c, "t_answer")).containsExactly("1=one");
        }
    }

    @Test
    void killedServerRestartsOnItsDataWithExactlyTheCommittedRows() throws Exception {
        Connection c = server.connect();
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t_crash (id INT PRIMARY KEY, v VARCHAR(20))");
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t_crash VALUES (1, 'committed')");
            s.executeUpdate("INSERT INTO t_crash VALUES (2, 'committed')");
            c.commit();
            s.executeUpdate("INSERT INTO t_crash VALUES (3, 'in flight')");
            long pid = server.pid();
            server.kill();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
            assertThat(server.isRunning()).isFalse();
        } finally {
            closeBroken(c);
        }
        int port = server.port();
        server.restart();
        assertThat(server.port()).isEqualTo(port);
        try (Connection after = server.connect()) {
            assertThat(rows(after, "t_crash")).containsExactly("1=committed", "2=committed");
        }
    }

    @Test
    void pausedServerTimesOutAndAnswersAgainAfterResume() throws Exception {
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t_pause (id INT PRIMARY KEY, v VARCHAR(20))");
            s.executeUpdate("INSERT INTO t_pause VALUES (1, 'before')");
        }
        if (server.supportsNetworkTimeout()) {
            Connection slow = server.connect(UNPAUSED_NETWORK_TIMEOUT_MS);
            try {
                assertThat(rows(slow, "t_pause")).containsExactly("1=before");
                slow.setNetworkTimeout(Runnable::run, PAUSED_NETWORK_TIMEOUT_MS);
                server.pause();
                assertThat(server.isPaused()).isTrue();
                assertThatThrownBy(() -> rows(slow, "t_pause")).isInstanceOf(SQLException.class);
            } finally {
                server.resume();
                closeBroken(slow);
            }
        } else {
            pausedQueryWaitsAndCompletesAfterResume();
        }
        try (Connection c = server.connect()) {
            assertThat(rows(c, "t_pause")).containsExactly("1=before");
        }
    }

    /** Without a driver network timeout the client-side bound is a Future's: no answer while stopped, then the answer. */
    private void pausedQueryWaitsAndCompletesAfterResume() throws Exception {
        ExecutorService worker = Executors.newSingleThreadExecutor();
        Connection c = server.connect();
        try {
            assertThat(rows(c, "t_pause")).containsExactly("1=before");
            server.pause();
            Future<List<String>> answer = worker.submit(() -> rows(c, "t_pause"));
            assertThatThrownBy(() -> answer.get(PAUSED_NETWORK_TIMEOUT_MS, TimeUnit.MILLISECONDS))
                    .isInstanceOf(TimeoutException.class);
            server.resume();
            assertThat(answer.get(RESUMED_ANSWER_TIMEOUT_MS, TimeUnit.MILLISECONDS)).containsExactly("1=before");
        } finally {
            if (server.isPaused()) {
                server.resume();
            }
            worker.shutdownNow();
            closeBroken(c);
        }
    }

    @Test
    void cleanStopAndStartKeepData() throws Exception {
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t_stop (id INT PRIMARY KEY, v VARCHAR(20))");
            s.executeUpdate("INSERT INTO t_stop VALUES (7, 'kept')");
        }
        server.stop();
        assertThat(server.isRunning()).isFalse();
        server.start();
        try (Connection c = server.connect()) {
            assertThat(rows(c, "t_stop")).containsExactly("7=kept");
        }
    }

    /** A connection to a killed or paused server may refuse a clean close (open transaction, broken socket). */
    static void closeBroken(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // the server side is gone; the client's resources are released anyway
        }
    }

    static List<String> rows(Connection c, String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, v FROM " + table + " ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getInt(1) + "=" + rs.getString(2));
            }
        }
        return rows;
    }
}
