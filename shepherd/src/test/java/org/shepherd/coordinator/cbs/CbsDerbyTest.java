package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.ResultCursor;
import org.shepherd.coordinator.Session;
import org.shepherd.divergence.Divergence;
import org.shepherd.divergence.DivergenceLog;
import org.shepherd.protocol.Param;
import org.shepherd.replica.jdbc.ConnectionPreparer;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.replica.jdbc.ReplicaSpec;
import org.shepherd.schedule.ExecutionMode;
import org.shepherd.testing.BankWorkload;
import org.shepherd.testing.DerbyMemory;
import org.shepherd.testing.SqlClient;

/** Tier 3: CBS over three embedded Derby replicas (f=1, r1 is the primary). */
class CbsDerbyTest {

    private static final AtomicInteger DB = new AtomicInteger();
    private static final int ACCOUNTS = 10;
    private static final long INITIAL = 1000;
    private static final BankWorkload BANK = new BankWorkload(ACCOUNTS, INITIAL);

    private CbsCoordinator coordinator;
    private final List<ReplicaPool> pools = new ArrayList<>();

    private CbsCoordinator start(ExecutionMode mode) throws SQLException {
        return start(mode, 16, 5000);
    }

    private CbsCoordinator start(ExecutionMode mode, int connections, long connectTimeoutMs) throws SQLException {
        return start(CbsCore.Settings.defaults(1, mode).withConnectionWaitMs(connectTimeoutMs), connections, connectTimeoutMs);
    }

    private CbsCoordinator start(CbsCore.Settings settings, int connections, long connectTimeoutMs) throws SQLException {
        int n = DB.incrementAndGet();
        for (int i = 1; i <= 3; i++) {
            ReplicaSpec spec = ReplicaSpec.of("r" + i, "jdbc:derby:memory:cbs" + n + "r" + i + ";create=true", "", "");
            pools.add(new ReplicaPool(spec, ConnectionPreparer.defaults("derby"), connections, connectTimeoutMs));
        }
        coordinator = new CbsCoordinator(pools, 0, settings, 16, 100, 60_000, new DivergenceLog());
        return coordinator;
    }

    @AfterEach
    void stop() {
        if (coordinator != null) coordinator.close();
        DerbyMemory.drop(pools);
    }

    private static long update(Session s, String sql, Param... params) throws SQLException {
        return ((Answer.Update) s.execute(sql, List.of(params), ExecOptions.DEFAULT)).count();
    }

    private static List<Object[]> query(Session s, String sql, Param... params) throws SQLException {
        Answer.Rows rows = (Answer.Rows) s.execute(sql, List.of(params), ExecOptions.DEFAULT);
        List<Object[]> out = new ArrayList<>();
        try (ResultCursor c = rows.cursor()) {
            while (!c.exhausted()) out.addAll(c.fetch(50));
        }
        return out;
    }

    /** Creates the bank and waits until every replica committed it (tests then change a replica behind our back). */
    private void createAccounts() throws SQLException, InterruptedException {
        BANK.create(SqlClient.sessions(coordinator));
        assertThat(coordinator.awaitIdle(10_000)).as("every replica committed the accounts").isTrue();
    }

    private static List<String> table(ReplicaPool pool, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = pool.acquire(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder(rs.getString(1));
                for (int i = 2; i <= n; i++) row.append(i == 2 ? "=" : " ").append(rs.getString(i));
                rows.add(row.toString());
            }
            c.rollback();
        }
        return rows;
    }

    private static void behindTheShepherdsBack(ReplicaPool pool, String sql) throws SQLException {
        try (Connection c = pool.acquire(); Statement st = c.createStatement()) {
            st.executeUpdate(sql);
            c.commit();
        }
    }

    @Test
    void bankWorkloadPreservesTheTotalOnEveryReadAndLeavesIdenticalReplicas() throws Exception {
        start(ExecutionMode.CBS);
        createAccounts();
        int clients = 6;
        int txnsPerClient = 30;
        BankWorkload.Counts counts = BANK.run(SqlClient.sessions(coordinator), clients, txnsPerClient, 0, 1000);
        assertThat(coordinator.awaitIdle(30_000)).isTrue();
        BANK.assertReplicasAgree(pools);
        List<String> log = table(pools.get(0), "SELECT txid, barrier FROM shepherd_txlog ORDER BY txid");
        assertThat(log).as("a row per transfer, none for the read-only transactions").hasSizeGreaterThanOrEqualTo(
                (int) counts.transfers()).hasSizeLessThan(clients * txnsPerClient);
        assertThat(coordinator.divergences().snapshot()).as("no correct replica is accused").isEmpty();
        long lastBarrier = coordinator.currentBarrier() - 1;
        assertThat(coordinator.replicaStatus()).extracting(CbsCore.ReplicaStatus::lastCommittedBarrier)
                .containsOnly(lastBarrier);
        assertThat(coordinator.replicaStatus()).extracting(CbsCore.ReplicaStatus::primary).containsExactly(true, false, false);
        assertThat(counts.retriedErrors()).as("no client waited for a lock timeout").noneMatch(e -> e.startsWith("40XL"));
        System.out.printf("bank: %s, %s%n", counts, coordinator.stats());
    }

    @Test
    void aSecondaryRunsStatementsOfDifferentTransactionsConcurrently() throws Exception {
        start(ExecutionMode.CBS);
        createAccounts();
        assertThat(coordinator.awaitIdle(10_000)).isTrue();
        List<String> trace = Collections.synchronizedList(new ArrayList<>());
        coordinator.endpoints().get(1).setTrace(trace::add);
        try (Session s1 = coordinator.openSession("app", "db"); Session s2 = coordinator.openSession("app", "db")) {
            s1.setAutoCommit(false);
            s2.setAutoCommit(false);
            update(s1, "UPDATE acct SET bal = bal + 1 WHERE id = 1");
            update(s2, "UPDATE acct SET bal = bal + 1 WHERE id = 2");
            update(s1, "UPDATE acct SET bal = bal + 1 WHERE id = 3");
            update(s2, "UPDATE acct SET bal = bal + 1 WHERE id = 4");
            awaitTrace(trace, 4);
            assertThat(trace).as("both transactions are open on the secondary before either commits")
                    .allMatch(t -> t.startsWith("exec T")).hasSize(4);
            assertThat(trace.stream().map(t -> t.split(" ")[1]).distinct()).hasSize(2);
            s1.commit();
            s2.commit();
        }
        assertThat(coordinator.awaitIdle(10_000)).isTrue();
        assertThat(table(pools.get(1), "SELECT id, bal FROM acct WHERE id <= 4 ORDER BY id"))
                .containsExactly("0=1000", "1=1001", "2=1001", "3=1001", "4=1001");
    }

    private static void awaitTrace(List<String> trace, int n) throws InterruptedException {
        for (int i = 0; i < 1000 && trace.size() < n; i++) Thread.sleep(10);
    }

    @Test
    void aSecondaryWithAWrongRowIsOutvotedAndReported() throws Exception {
        start(ExecutionMode.CBS);
        createAccounts();
        behindTheShepherdsBack(pools.get(2), "UPDATE acct SET bal = 999999 WHERE id = 5");
        try (Session s = coordinator.openSession("app", "db")) {
            assertThat(query(s, "SELECT bal FROM acct WHERE id = 5").get(0)[0]).isEqualTo(INITIAL);
            s.setAutoCommit(false);
            assertThat(query(s, "SELECT bal FROM acct WHERE id = 5").get(0)[0]).isEqualTo(INITIAL);
            s.commit();
        }
        assertThat(coordinator.awaitIdle(10_000)).isTrue();
        List<Divergence> d = coordinator.divergences().snapshot();
        assertThat(d).isNotEmpty().allMatch(x -> x.replica().equals("r3") && x.masked());
        assertThat(d.get(0).statement()).contains("id = 5");
    }

    /** No client reads the changed row: the background comparison (verify.interval.s) finds it and names r2. */
    @Test
    void theBackgroundComparisonFindsARowChangedBehindTheShepherdsBack() throws Exception {
        start(ExecutionMode.CBS);
        createAccounts();
        behindTheShepherdsBack(pools.get(1), "UPDATE acct SET bal = 1 WHERE id = 3");
        coordinator.verifyInBackground(50, 10, false, List.of());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (coordinator.divergences().snapshot().isEmpty() && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(coordinator.divergences().snapshot()).as("within the 30 s safety bound").isNotEmpty()
                .allMatch(d -> d.replica().equals("r2") && d.masked() && d.statement().startsWith("SELECT * FROM ACCT"));
    }

    /**
     * Account 6 gets a wrong balance at the primary behind the shepherd's back; reading it in autocommit fails with
     * 40001 naming r1 (r2 and r3 outvote it). Returns the session, still open.
     */
    private Session primaryWithAWrongRowOutvoted() throws Exception {
        createAccounts();
        behindTheShepherdsBack(pools.get(0), "UPDATE acct SET bal = 777 WHERE id = 6");
        Session s = coordinator.openSession("app", "db");
        assertThatThrownBy(() -> query(s, "SELECT bal FROM acct WHERE id = 6"))
                .isInstanceOf(SQLException.class).hasMessageContaining("r1")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
        return s;
    }

    /** With view changes on evidence turned off, the primary stays: each transaction that read the wrong row aborts. */
    @Test
    void aPrimaryWithAWrongRowNeverYieldsACommittedWrongAnswer() throws Exception {
        CbsCore.Settings settings = CbsCore.Settings.defaults(1, ExecutionMode.CBS);
        start(settings.withRecovery(settings.recovery().withOutvotedMax(0)), 16, 5000);
        try (Session s = primaryWithAWrongRowOutvoted()) {
            s.setAutoCommit(false);
            assertThat(query(s, "SELECT bal FROM acct WHERE id = 6").get(0)[0]).as("tentative answer").isEqualTo(777L);
            assertThatThrownBy(s::commit)
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("replicas r1 disagreed")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
            assertThat(query(s, "SELECT bal FROM acct WHERE id = 7").get(0)[0]).isEqualTo(INITIAL);
            s.commit();
        }
        assertThat(coordinator.divergences().snapshot()).isNotEmpty().allMatch(x -> x.replica().equals("r1") && !x.masked());
        assertThat(coordinator.viewStatus().view()).isZero();
    }

    /** By default the first outvoted answer replaces the primary: after the view change the right balance commits. */
    @Test
    void aPrimaryWithAWrongRowIsReplacedAfterItsFirstOutvotedAnswer() throws Exception {
        start(ExecutionMode.CBS);
        primaryWithAWrongRowOutvoted().close();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (coordinator.viewStatus().view() == 0 && System.nanoTime() < deadline) Thread.sleep(10);
        assertThat(coordinator.viewStatus().primary()).isEqualTo("r2");
        try (Session s = coordinator.openSession("app", "db")) {
            s.setAutoCommit(false);
            assertThat(query(s, "SELECT bal FROM acct WHERE id = 6").get(0)[0]).isEqualTo(INITIAL);
            s.commit();
        }
        assertThat(coordinator.replicaStatus().get(0).primary()).as("r1 serves on as a secondary once it is back").isFalse();
        assertThat(coordinator.divergences().snapshot()).anyMatch(x -> x.replica().equals("r1") && !x.masked());
    }

    @Test
    void nondeterministicFunctionsAreEvaluatedOnceForAllReplicas() throws Exception {
        start(ExecutionMode.CBS);
        try (Session s = coordinator.openSession("app", "db")) {
            update(s, "CREATE TABLE ev (id INT PRIMARY KEY, ts TIMESTAMP, r DOUBLE)");
            s.setAutoCommit(false);
            update(s, "INSERT INTO ev VALUES (1, CURRENT_TIMESTAMP, RANDOM())");
            update(s, "INSERT INTO ev VALUES (2, CURRENT_TIMESTAMP, RANDOM())");
            s.commit();
            s.setAutoCommit(true);
            update(s, "INSERT INTO ev VALUES (3, CURRENT_TIMESTAMP, RANDOM())");
            assertThat(query(s, "SELECT id, r FROM ev ORDER BY id")).hasSize(3);
        }
        assertThat(coordinator.awaitIdle(10_000)).isTrue();
        List<String> r1 = table(pools.get(0), "SELECT id, ts, r FROM ev ORDER BY id");
        assertThat(r1).hasSize(3);
        assertThat(table(pools.get(1), "SELECT id, ts, r FROM ev ORDER BY id"))
                .isEqualTo(r1);
        assertThat(table(pools.get(2), "SELECT id, ts, r FROM ev ORDER BY id"))
                .isEqualTo(r1);
        assertThat(coordinator.divergences().snapshot()).isEmpty();
    }

    @Test
    void aBlockedSecondaryDoesNotHoldCommitsBackAndReRunsUntilItCatchesUp() throws Exception {
        start(ExecutionMode.CBS);
        createAccounts();
        assertThat(coordinator.awaitIdle(10_000)).isTrue();
        try (Connection blocker = pools.get(1).acquire(); Statement st = blocker.createStatement()) {
            st.executeUpdate("UPDATE acct SET bal = bal WHERE id = 8");
            try (Session s = coordinator.openSession("app", "db")) {
                for (int i = 0; i < 3; i++) update(s, "UPDATE acct SET bal = bal + 1 WHERE id = 8");
                assertThat(query(s, "SELECT bal FROM acct WHERE id = 8").get(0)[0]).isEqualTo(INITIAL + 3);
            }
            for (int i = 0; i < 2000 && coordinator.stats().replicaReruns() == 0; i++) Thread.sleep(10);
            assertThat(coordinator.stats().replicaReruns()).as("r2 timed out on the lock and re-ran the transaction")
                    .isPositive();
            blocker.rollback();
        }
        assertThat(coordinator.awaitIdle(20_000)).isTrue();
        for (ReplicaPool p : pools) assertThat(table(p, "SELECT id, bal FROM acct WHERE id = 8")).containsExactly("8=1003");
        assertThat(coordinator.divergences().snapshot()).isEmpty();
    }

    @Test
    void insideATransactionRowsStreamAndWhatTheClientSkipsIsDrainedForTheVote() throws Exception {
        start(ExecutionMode.CBS);
        createAccounts();
        try (Session s = coordinator.openSession("app", "db")) {
            s.setAutoCommit(false);
            Answer.Rows rows = (Answer.Rows) s.execute("SELECT id, bal FROM acct ORDER BY id", List.of(), ExecOptions.DEFAULT);
            assertThat(rows.cursor()).isInstanceOf(StreamingCursor.class);
            assertThat(rows.cursor().fetch(2)).hasSize(2);
            s.commit();
        }
        behindTheShepherdsBack(pools.get(0), "UPDATE acct SET bal = 5 WHERE id = 9");
        try (Session s = coordinator.openSession("app", "db")) {
            s.setAutoCommit(false);
            Answer.Rows rows = (Answer.Rows) s.execute("SELECT id, bal FROM acct ORDER BY id", List.of(), ExecOptions.DEFAULT);
            assertThat(rows.cursor().fetch(2)).extracting(r -> r[1]).containsExactly(INITIAL, INITIAL);
            assertThatThrownBy(s::commit).isInstanceOf(SQLException.class).hasMessageContaining("replicas r1 disagreed")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
        }
    }

    @Test
    void moreOpenTransactionsThanConnectionsIsARetryableErrorNotADownReplica() throws Exception {
        start(ExecutionMode.CBS, 2, 500);
        createAccounts();
        assertThat(coordinator.awaitIdle(10_000)).isTrue();
        try (Session a = coordinator.openSession("app", "db"); Session b = coordinator.openSession("app", "db");
                Session c = coordinator.openSession("app", "db")) {
            for (Session s : List.of(a, b, c)) s.setAutoCommit(false);
            update(a, "UPDATE acct SET bal = bal + 1 WHERE id = 1");
            update(b, "UPDATE acct SET bal = bal + 1 WHERE id = 2");
            assertThatThrownBy(() -> update(c, "UPDATE acct SET bal = bal + 1 WHERE id = 3"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("connections of the primary r1 are in use")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
            c.rollback();
            a.commit();
            b.commit();
            update(c, "UPDATE acct SET bal = bal + 1 WHERE id = 3");
            c.commit();
        }
        assertThat(coordinator.awaitIdle(10_000)).isTrue();
        assertThat(coordinator.replicaStatus()).noneMatch(CbsCore.ReplicaStatus::down);
        for (ReplicaPool p : pools) {
            assertThat(table(p, "SELECT id, bal FROM acct WHERE id BETWEEN 1 AND 3 ORDER BY id"))
                    .containsExactly("1=1001", "2=1001", "3=1001");
        }
    }

    @Test
    void thePrimarysGeneratedKeysArePinnedOnTheSecondaries() throws Exception {
        start(ExecutionMode.CBS);
        try (Session a = coordinator.openSession("app", "db"); Session b = coordinator.openSession("app", "db")) {
            update(a, "CREATE TABLE item (id INT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, name VARCHAR(10))");
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            for (int i = 0; i < 5; i++) {
                update(a, "INSERT INTO item (name) VALUES (?)", new Param(Types.VARCHAR, "a" + i));
                update(b, "INSERT INTO item (name) VALUES (?)", new Param(Types.VARCHAR, "b" + i));
            }
            b.commit();
            a.commit();
            a.setAutoCommit(true);
            Answer.Update u = (Answer.Update) a.execute("INSERT INTO item (name) VALUES ('c')", List.of(),
                    new ExecOptions(0, 0, 0, true));
            assertThat(u.generatedKeys()).hasSize(1);
            assertThat(((Number) u.generatedKeys().get(0)[0]).longValue()).isEqualTo(11);
            assertThatThrownBy(() -> update(a, "INSERT INTO item VALUES (DEFAULT, 'd')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("name the columns");
        }
        assertThat(coordinator.awaitIdle(10_000)).isTrue();
        List<String> r1 = table(pools.get(0), "SELECT id, name FROM item ORDER BY id");
        assertThat(r1).hasSize(11).contains("11=c");
        assertThat(table(pools.get(1), "SELECT id, name FROM item ORDER BY id")).isEqualTo(r1);
        assertThat(table(pools.get(2), "SELECT id, name FROM item ORDER BY id")).isEqualTo(r1);
        assertThat(coordinator.divergences().snapshot()).isEmpty();
    }

    @Test
    void savepointsUndoPartOfATransactionOnEveryReplicaAndAFailedStatementIsRolledBackTo() throws Exception {
        start(ExecutionMode.CBS);
        try (Session s = coordinator.openSession("app", "db"); Session other = coordinator.openSession("app", "db")) {
            update(s, "CREATE TABLE sp (id INT PRIMARY KEY, v VARCHAR(10))");
            assertThatThrownBy(() -> update(s, "SAVEPOINT a")).as("no transaction in autocommit mode")
                    .hasFieldOrPropertyWithValue("SQLState", "25000");
            s.setAutoCommit(false);
            other.setAutoCommit(false);
            update(s, "INSERT INTO sp VALUES (1, 'kept')");
            update(s, "SAVEPOINT a ON ROLLBACK RETAIN CURSORS"); // Derby's spelling, the client dialect here
            update(s, "INSERT INTO sp VALUES (2, 'undone')");
            update(other, "INSERT INTO sp VALUES (10, 'other')");
            update(s, "UPDATE sp SET v = 'changed' WHERE id = 1");
            assertThatThrownBy(() -> update(s, "SAVEPOINT b")).as("Derby replicas hold one savepoint at a time")
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "3B002")
                    .hasMessageContaining("release it first");
            update(s, "ROLLBACK TO SAVEPOINT a");
            update(s, "RELEASE SAVEPOINT a");
            assertThatThrownBy(() -> update(s, "ROLLBACK TO SAVEPOINT a")).as("released")
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "3B001");
            update(s, "SAVEPOINT c");
            assertThatThrownBy(() -> update(s, "INSERT INTO sp VALUES (1, 'duplicate')"))
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "23505");
            update(s, "ROLLBACK WORK TO c");
            update(s, "INSERT INTO sp VALUES (3, 'kept')");
            update(s, "RELEASE SAVEPOINT c");
            assertThat(query(s, "SELECT id, v FROM sp WHERE id < 10 ORDER BY id")).extracting(r -> r[0] + "=" + r[1])
                    .containsExactly("1=kept", "3=kept");
            s.commit();
            other.commit();
        }
        assertThat(coordinator.awaitIdle(10_000)).isTrue();
        for (ReplicaPool p : pools) {
            assertThat(table(p, "SELECT id, v FROM sp ORDER BY id")).as(p.spec().name())
                    .containsExactly("1=kept", "3=kept", "10=other");
        }
        assertThat(coordinator.divergences().snapshot()).as("every replica gave the same answers").isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = ExecutionMode.class, names = {"SS", "SERIAL"})
    void comparisonModesRunTheSameWorkload(ExecutionMode mode) throws Exception {
        start(mode);
        createAccounts();
        try (Session s = coordinator.openSession("app", "db")) {
            s.setAutoCommit(false);
            update(s, "UPDATE acct SET bal = bal - 5 WHERE id = 1");
            update(s, "UPDATE acct SET bal = bal + 5 WHERE id = 2");
            s.commit();
            s.setAutoCommit(true);
            assertThat(query(s, "SELECT SUM(bal) FROM acct").get(0)[0]).isEqualTo(ACCOUNTS * INITIAL);
        }
        assertThat(coordinator.awaitIdle(10_000)).isTrue();
        for (ReplicaPool p : pools) assertThat(table(p, "SELECT id, bal FROM acct WHERE id = 1")).containsExactly("1=995");
    }

    @Test
    void aStartWithFewerThanFPlusOneReplicasAnsweringIsRefusedNamingThem() throws SQLException {
        List<ReplicaPool> three = new ArrayList<>();
        try {
            three.add(new ReplicaPool(ReplicaSpec.of("r1", "jdbc:derby:memory:cbsreach" + DB.incrementAndGet() + ";create=true",
                    "", ""), ConnectionPreparer.defaults("derby"), 2, 5000));
            for (String name : List.of("r2", "r3")) { // nothing listens on port 1
                three.add(ReplicaPool.startingUnreachable(new ReplicaSpec(name, "jdbc:derby://127.0.0.1:1/" + name, "u", "p",
                        "derby"), ConnectionPreparer.defaults("derby"), 2, 1000));
            }
            assertThat((Object) three.get(1).unreachableAtStart()).isNotNull();
            assertThatThrownBy(() -> new CbsCoordinator(three, 0, CbsCore.Settings.defaults(1, ExecutionMode.CBS), 2, 100, 1000,
                    new DivergenceLog())).isInstanceOf(SQLException.class)
                    .hasMessageContaining("only 1 of 3 replicas answer, and at least f+1 = 2 are needed")
                    .hasMessageContaining("r2 (").hasMessageContaining("r3 (");
        } finally {
            three.forEach(ReplicaPool::close);
        }
    }

    @Test
    void fewerThanTwoFPlusOneReplicasAreRefused() throws SQLException {
        ReplicaSpec spec = ReplicaSpec.of("r1", "jdbc:derby:memory:cbsfew" + DB.incrementAndGet() + ";create=true", "", "");
        ReplicaPool only = new ReplicaPool(spec, ConnectionPreparer.defaults("derby"), 2, 5000);
        try {
            assertThatThrownBy(() -> new CbsCoordinator(List.of(only), 0, CbsCore.Settings.defaults(1, ExecutionMode.CBS), 2, 100,
                    1000, new DivergenceLog())).hasMessageContaining("needs at least 2f+1 = 3 replicas, but 1 are configured");
        } finally {
            only.close();
        }
    }
}
