package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.Session;
import org.shepherd.divergence.DivergenceLog;
import org.shepherd.replica.jdbc.ConnectionPreparer;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.replica.jdbc.ReplicaSpec;
import org.shepherd.schedule.ExecutionMode;
import org.shepherd.testing.BankWorkload;
import org.shepherd.testing.ReplicaTables;
import org.shepherd.testing.SqlClient;
import org.shepherd.testkit.DerbyNetworkServer;

/**
 * Tier 3: a secondary's database server is killed with SIGKILL while clients run, started again on the same data,
 * and the shepherd brings it back: it is probed, the committed transactions it missed are replayed on it, and it
 * serves again; afterwards every replica holds the same accounts and commit log.
 */
class ReplicaRecoveryTest {

    private static final BankWorkload BANK = new BankWorkload(20, 1_000);
    private static final long WAIT_MS = 60_000;

    @TempDir
    Path dir;

    private final List<ReplicaPool> pools = new ArrayList<>();
    private DerbyNetworkServer server;
    private CbsCoordinator coordinator;

    @AfterEach
    void stop() {
        if (coordinator != null) coordinator.close();
        if (server != null) server.close();
    }

    private CbsCoordinator start(String test) throws Exception {
        return start(test, 3, true);
    }

    /**
     * Replica {@code onServer} (1-based) is a Derby network server that the test can kill; the others are embedded.
     * r1 is the primary.
     */
    private CbsCoordinator start(String test, int onServer, boolean viewChange) throws Exception {
        return start(test, onServer, new CbsCore.Recovery(100, 1_000, 100_000).withViewChange(viewChange));
    }

    private CbsCoordinator start(String test, int onServer, CbsCore.Recovery recovery) throws Exception {
        server = new DerbyNetworkServer("r" + onServer, dir.resolve("r" + onServer), "shepherd");
        server.start();
        for (int i = 1; i <= 3; i++) {
            ReplicaSpec spec = i == onServer
                    ? new ReplicaSpec("r" + i, server.jdbcUrl(), server.user(), server.password(), "derby")
                    : ReplicaSpec.of("r" + i, "jdbc:derby:memory:" + test + "r" + i + ";create=true", "", "");
            pools.add(new ReplicaPool(spec, ConnectionPreparer.defaults("derby"), 16, 2_000));
        }
        CbsCore.Settings settings = CbsCore.Settings.defaults(1, ExecutionMode.CBS).withRecovery(recovery);
        coordinator = new CbsCoordinator(pools, 0, settings, 16, 100, 60_000, new DivergenceLog());
        return coordinator;
    }

    private CbsCore.ReplicaStatus r3() throws SQLException {
        return coordinator.replicaStatus().get(2);
    }

    /** Waits (at most {@link #WAIT_MS}) until replica {@code index}'s status state matches, and returns that state. */
    private String awaitState(int index, Predicate<String> wanted) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        String state = coordinator.replicaStatus().get(index).state();
        while (!wanted.test(state) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            state = coordinator.replicaStatus().get(index).state();
        }
        return state;
    }

    @Test
    void aSecondaryKilledAndStartedAgainCatchesUpAndServes() throws Exception {
        start("recover");
        BANK.create(SqlClient.sessions(coordinator));
        BANK.run(SqlClient.sessions(coordinator), 3, 15, 0, 8_100);
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();

        server.kill();
        BANK.run(SqlClient.sessions(coordinator), 3, 20, 0, 8_200);
        assertThat(r3().state()).as("the shepherd noticed").startsWith("down:");
        long missedUpTo = coordinator.currentBarrier() - 1;
        assertThat(r3().lastCommittedBarrier()).isLessThan(missedUpTo);

        server.restart();
        assertThat(awaitState(2, "up"::equals)).as("r3 within %d ms", WAIT_MS).isEqualTo("up");
        assertThat(r3().replayed()).as("transactions replayed on r3").isPositive();
        assertThat(r3().lastCommittedBarrier()).isGreaterThanOrEqualTo(missedUpTo);

        BANK.run(SqlClient.sessions(coordinator), 3, 15, 0, 8_300);
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();
        assertThat(r3().state()).isEqualTo("up");
        BANK.assertReplicasAgree(pools);
        assertThat(coordinator.divergences().snapshot()).as("no replica is accused").isEmpty();
    }

    @Test
    void aTransactionWithSavepointsAndAFailedStatementIsReplayedAsItRanOnTheOthers() throws Exception {
        start("savepoints");
        try (Session s = coordinator.openSession("app", "db")) {
            run(s, "CREATE TABLE sp (id INT PRIMARY KEY, v VARCHAR(10))");
            assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();
            server.kill();
            s.setAutoCommit(false);
            run(s, "INSERT INTO sp VALUES (1, 'one')");
            run(s, "SAVEPOINT a ON ROLLBACK RETAIN CURSORS");
            run(s, "INSERT INTO sp VALUES (2, 'undone')");
            run(s, "UPDATE sp SET v = 'undone' WHERE id = 1");
            run(s, "ROLLBACK TO SAVEPOINT a");
            run(s, "RELEASE SAVEPOINT a");
            assertThatThrownBy(() -> run(s, "INSERT INTO sp VALUES (1, 'again')")).isInstanceOf(SQLException.class);
            run(s, "INSERT INTO sp VALUES (3, 'three')");
            s.commit();
        }
        assertThat(awaitState(2, state -> state.startsWith("down:"))).startsWith("down:");
        server.restart();
        assertThat(awaitState(2, "up"::equals)).as("r3 within %d ms", WAIT_MS).isEqualTo("up");
        assertThat(r3().replayed()).as("transactions replayed on r3").isPositive();
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();
        ReplicaTables.assertEqualEverywhere(pools, "sp", "id");
        assertThat(ReplicaTables.canonical(pools.get(2), "sp", "id")).hasSize(2).noneMatch(row -> row.contains("undone"));
        assertThat(coordinator.divergences().snapshot()).as("no replica is accused").isEmpty();
    }

    private static void run(Session s, String sql) throws SQLException {
        s.execute(sql, List.of(), ExecOptions.DEFAULT);
    }

    @Test
    void withoutViewChangesAPrimaryKilledAndStartedAgainServesAgainAfterItCaughtUp() throws Exception {
        start("primary", 1, false);
        BANK.create(SqlClient.sessions(coordinator));
        BANK.run(SqlClient.sessions(coordinator), 2, 10, 0, 8_700);
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();

        server.kill();
        try (Session s = coordinator.openSession("app", "db")) {
            assertThatThrownBy(() -> s.execute("SELECT SUM(bal) FROM acct", List.of(), ExecOptions.DEFAULT))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("08"));
        }
        assertThat(coordinator.replicaStatus().get(0).state()).startsWith("down:");

        server.restart();
        assertThat(awaitState(0, "up"::equals)).as("the primary within %d ms", WAIT_MS).isEqualTo("up");
        BANK.run(SqlClient.sessions(coordinator), 2, 10, 0, 8_800);
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();
        BANK.assertReplicasAgree(pools);
        assertThat(coordinator.viewStatus().view()).isZero();
        assertThat(coordinator.viewStatus().lastViewChange()).isEmpty();
    }

    @Test
    void aPrimaryKilledIsReplacedByASecondaryAndRejoinsAsASecondaryWhenItIsBack() throws Exception {
        start("failover", 1, true);
        BANK.create(SqlClient.sessions(coordinator));
        BANK.run(SqlClient.sessions(coordinator), 2, 10, 0, 8_900);
        try (SqlClient c = SqlClient.sessions(coordinator).open()) {
            c.update("CREATE TABLE item (id INT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, name VARCHAR(20))");
            for (String name : List.of("a", "b", "c")) c.update("INSERT INTO item (name) VALUES (?)", name);
        }
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();

        server.kill();
        try (Session s = coordinator.openSession("app", "db")) {
            assertThatThrownBy(() -> s.execute("SELECT SUM(bal) FROM acct", List.of(), ExecOptions.DEFAULT))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).as(e.getMessage()).isEqualTo("40001"))
                    .hasMessageContaining("view change");
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (coordinator.viewStatus().view() == 0 && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(coordinator.viewStatus().view()).as("a view change within %d ms", WAIT_MS).isEqualTo(1);
        String next = coordinator.viewStatus().primary();
        assertThat(next).isIn("r2", "r3");

        BANK.run(SqlClient.sessions(coordinator), 2, 10, 0, 9_000);
        try (SqlClient c = SqlClient.sessions(coordinator).open()) {
            // the new primary got keys 1..3 as explicit values as a secondary: its generator must have moved past them
            c.update("INSERT INTO item (name) VALUES (?)", "d");
            assertThat(c.query("SELECT id FROM item WHERE name = 'd'")).singleElement()
                    .satisfies(row -> assertThat(((Number) row[0]).longValue()).isGreaterThan(3));
        }
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();
        assertThat(coordinator.replicaStatus().get(0).state()).startsWith("down:");

        server.restart();
        assertThat(awaitState(0, "up"::equals)).as("r1 within %d ms", WAIT_MS).isEqualTo("up");
        assertThat(coordinator.replicaStatus().get(0).primary()).as("r1 came back as a secondary").isFalse();
        assertThat(coordinator.viewStatus().primary()).isEqualTo(next);
        BANK.run(SqlClient.sessions(coordinator), 2, 10, 0, 9_100);
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();
        BANK.assertReplicasAgree(pools);
        ReplicaTables.assertEqualEverywhere(pools, "item", "id");
        assertThat(coordinator.divergences().snapshot()).as("no replica is accused").isEmpty();
    }

    /** Runs {@code sql} in autocommit mode on another thread: "answered", or the SQLException it failed with. */
    private CompletableFuture<Object> autocommitInTheBackground(String sql) {
        return CompletableFuture.supplyAsync(() -> {
            try (Session s = coordinator.openSession("app", "db")) {
                s.execute(sql, List.of(), ExecOptions.DEFAULT);
                return "answered";
            } catch (SQLException e) {
                return e;
            }
        });
    }

    @Test
    void aPrimaryThatStopsAnsweringWithItsConnectionsOpenIsReplacedWhileItsStuckClientWaitsForIt() throws Exception {
        start("paused", 1, new CbsCore.Recovery(100, 1_000, 100_000).withUnresponsiveMs(300));
        BANK.create(SqlClient.sessions(coordinator));
        BANK.run(SqlClient.sessions(coordinator), 2, 10, 0, 9_200);
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();

        server.pause(); // SIGSTOP: its sockets stay open, nothing answers
        CompletableFuture<Object> stuck = autocommitInTheBackground("UPDATE acct SET bal = bal + 0 WHERE id = 1");
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (coordinator.viewStatus().view() == 0 && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(coordinator.viewStatus().view()).as("a view change within %d ms", WAIT_MS).isEqualTo(1);
        assertThat(coordinator.replicaStatus().get(0).state()).startsWith("down: unresponsive");
        assertThat(coordinator.viewStatus().lastViewChange()).startsWith("view 1: r2 replaced r1 (down: unresponsive: ");

        BANK.run(SqlClient.sessions(coordinator), 2, 10, 0, 9_300); // served by the new primary while r1 is paused
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();

        server.resume();
        // the Derby client cannot be interrupted in a read (its abort() rolls back first): the session whose statement
        // was running at r1 waits for r1, and then gets the error of its aborted transaction instead of an answer
        assertThat(stuck.get(WAIT_MS, TimeUnit.MILLISECONDS)).as("the client whose statement hung gets an error")
                .isInstanceOf(SQLException.class);
        assertThat(awaitState(0, "up"::equals)).as("r1 within %d ms", WAIT_MS).isEqualTo("up");
        assertThat(coordinator.replicaStatus().get(0).primary()).as("r1 came back as a secondary").isFalse();
        BANK.run(SqlClient.sessions(coordinator), 2, 5, 0, 9_400);
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();
        BANK.assertReplicasAgree(pools);
    }

    @Test
    void aPrimaryThatIsSlowButAnswersIsNotReplaced() throws Exception {
        start("slow", 1, new CbsCore.Recovery(100, 1_000, 100_000).withUnresponsiveMs(200));
        BANK.create(SqlClient.sessions(coordinator));
        try (Session holder = coordinator.openSession("app", "db")) {
            holder.setAutoCommit(false);
            holder.execute("UPDATE acct SET bal = bal + 1 WHERE id = 1", List.of(), ExecOptions.DEFAULT);
            // another statement waits at the primary for the row lock: a request in flight far longer than 200 ms
            CompletableFuture<Object> waiting = autocommitInTheBackground("UPDATE acct SET bal = bal - 1 WHERE id = 1");
            Thread.sleep(1_500); // several checks and pings: each ping is answered
            assertThat(waiting).isNotDone();
            holder.commit();
            assertThat(waiting.get(WAIT_MS, TimeUnit.MILLISECONDS)).isEqualTo("answered");
        }
        assertThat(coordinator.viewStatus().view()).as("no view change").isZero();
        assertThat(coordinator.replicaStatus().get(0).state()).isEqualTo("up");
    }

    /**
     * Silent corruption at the primary (a balance changed behind the shepherd's back): the read that returns it is
     * outvoted by r2 and r3, its transaction aborts, and the view changes; r1 serves on as a secondary, where the same
     * wrong answer is masked and reported.
     */
    @Test
    void aPrimaryOutvotedByTheSecondariesIsReplacedAndItsWrongAnswersAreMaskedAfterwards() throws Exception {
        openEmbedded("outvoted", 0, true);
        BANK.create(SqlClient.sessions(coordinator));
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();
        try (var c = pools.get(0).acquire(); var st = c.createStatement()) {
            st.executeUpdate("UPDATE acct SET bal = bal + 7 WHERE id = 1");
            c.commit();
        }
        try (SqlClient c = SqlClient.sessions(coordinator).open()) {
            c.setAutoCommit(false);
            List<Object[]> tentative = c.query("SELECT bal FROM acct WHERE id = 1");
            assertThat(((Number) tentative.get(0)[0]).longValue()).as("the primary's (wrong) answer").isEqualTo(1_007);
            assertThatThrownBy(c::commit).isInstanceOf(SQLException.class).hasMessageContaining("r1 disagreed")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
            c.rollback();
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (coordinator.viewStatus().view() == 0 && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(coordinator.viewStatus().view()).isEqualTo(1);
        assertThat(coordinator.viewStatus().primary()).isEqualTo("r2");
        assertThat(coordinator.viewStatus().lastViewChange()).startsWith("view 1: r2 replaced r1 (down: outvoted: ");
        assertThat(awaitState(0, "up"::equals)).as("r1 back as a secondary within %d ms", WAIT_MS).isEqualTo("up");
        assertThat(coordinator.replicaStatus().get(0).primary()).isFalse();

        try (SqlClient c = SqlClient.sessions(coordinator).open()) {
            c.setAutoCommit(false);
            assertThat(((Number) c.query("SELECT bal FROM acct WHERE id = 1").get(0)[0]).longValue()).isEqualTo(1_000);
            c.commit();
        }
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();
        assertThat(coordinator.divergences().snapshot()).extracting(d -> d.replica() + (d.masked() ? " masked" : " unmasked"))
                .contains("r1 unmasked", "r1 masked").allMatch(d -> d.startsWith("r1"));
    }

    /** A coordinator over three in-memory Derby databases named after the test (they outlive a coordinator). */
    private void openEmbedded(String test, int primary) throws SQLException {
        openEmbedded(test, primary, true);
    }

    private void openEmbedded(String test, int primary, boolean viewChange) throws SQLException {
        pools.clear();
        for (int i = 1; i <= 3; i++) {
            ReplicaSpec spec = ReplicaSpec.of("r" + i, "jdbc:derby:memory:" + test + "r" + i + ";create=true", "", "");
            pools.add(new ReplicaPool(spec, ConnectionPreparer.defaults("derby"), 16, 2_000));
        }
        try {
            CbsCore.Settings settings = CbsCore.Settings.defaults(1, ExecutionMode.CBS)
                    .withRecovery(CbsCore.Recovery.DEFAULTS.withViewChange(viewChange));
            coordinator = new CbsCoordinator(pools, primary, settings, 16, 100, 60_000, new DivergenceLog());
        } catch (SQLException | RuntimeException e) {
            coordinator = null;
            pools.forEach(ReplicaPool::close);
            throw e;
        }
    }

    /** Stops the shepherd (the databases stay) and starts a new one over the same databases. */
    private void restartShepherd(String test, int primary) throws SQLException {
        coordinator.close();
        coordinator = null;
        openEmbedded(test, primary);
    }

    @Test
    void aRestartedShepherdContinuesTransactionIdsAndBarriersWhereTheReplicasLogsEnd() throws Exception {
        openEmbedded("restart", 0);
        BANK.create(SqlClient.sessions(coordinator));
        BANK.run(SqlClient.sessions(coordinator), 2, 10, 0, 8_500);
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();
        long before = coordinator.currentBarrier();

        long lastLogged;
        try (var c = pools.get(0).acquire(); var st = c.createStatement();
                var rs = st.executeQuery("SELECT MAX(barrier) FROM shepherd_txlog")) {
            rs.next();
            lastLogged = rs.getLong(1);
            c.rollback();
        }
        restartShepherd("restart", 0);
        assertThat(coordinator.currentBarrier()).as("barriers go on after the last one that wrote (read-only ones leave no row)")
                .isEqualTo(lastLogged + 1).isLessThanOrEqualTo(before);
        BANK.run(SqlClient.sessions(coordinator), 2, 10, 0, 8_600);
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();
        assertThat(coordinator.replicaStatus()).extracting(CbsCore.ReplicaStatus::state).containsOnly("up");
        BANK.assertReplicasAgree(pools);
    }

    @Test
    void aReplicaBehindTheOthersAtStartIsLeftOutAndAPrimaryBehindIsRefused() throws Exception {
        openEmbedded("behind", 0);
        BANK.create(SqlClient.sessions(coordinator));
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();
        long last = coordinator.currentBarrier() - 1;
        for (ReplicaPool p : List.of(pools.get(0), pools.get(2))) {
            try (var c = p.acquire(); var st = c.createStatement()) {
                st.executeUpdate("DELETE FROM shepherd_txlog WHERE barrier = " + last); // as if its last commit never came
                c.commit();
            }
        }
        restartShepherd("behind", 1);
        assertThat(coordinator.replicaStatus()).extracting(CbsCore.ReplicaStatus::state)
                .satisfies(s -> assertThat(s.get(0)).startsWith("lost:").contains("restore it from a copy"))
                .satisfies(s -> assertThat(s.get(1)).isEqualTo("up"))
                .satisfies(s -> assertThat(s.get(2)).startsWith("lost:"));
        coordinator.close();
        coordinator = null;
        assertThatThrownBy(() -> openEmbedded("behind", 0, false))
                .isInstanceOf(SQLException.class).hasMessageContaining("the configured primary r1 is lost")
                .hasMessageContaining("choose an up-to-date replica as primary=");
        openEmbedded("behind", 0, true);
        assertThat(coordinator.viewStatus().primary()).as("with view changes the up-to-date r2 is the primary at start")
                .isEqualTo("r2");
        assertThat(coordinator.replicaStatus().get(0).state()).startsWith("lost:");
    }

    @Test
    void aSecondaryThatStaysDownIsProbedWithoutHoldingTheOthersBack() throws Exception {
        start("staydown");
        BANK.create(SqlClient.sessions(coordinator));
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();
        server.kill();
        BANK.run(SqlClient.sessions(coordinator), 2, 20, 0, 8_400);
        assertThat(coordinator.awaitIdle(WAIT_MS)).isTrue();
        assertThat(awaitState(2, s -> s.contains("2 failed tries"))).as("probes fail while its server is gone")
                .startsWith("down:").contains("2 failed tries");
        BANK.assertReplicasAgree(pools.subList(0, 2));
    }
}
