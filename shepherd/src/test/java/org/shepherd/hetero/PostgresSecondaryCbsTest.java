package org.shepherd.hetero;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.ResultCursor;
import org.shepherd.coordinator.Session;
import org.shepherd.coordinator.cbs.CbsCoordinator;
import org.shepherd.coordinator.cbs.CbsCore;
import org.shepherd.coordinator.cbs.JdbcReplicaEndpoint;
import org.shepherd.divergence.DivergenceLog;
import org.shepherd.replica.jdbc.ConnectionPreparer;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.replica.jdbc.ReplicaSpec;
import org.shepherd.schedule.ExecutionMode;
import org.shepherd.testing.BankWorkload;
import org.shepherd.testing.SqlClient;
import org.shepherd.testkit.DatabaseServer;
import org.shepherd.testkit.PostgresServer;

/**
 * Tier 3: PostgreSQL (READ COMMITTED, reads take no locks) as a CBS secondary behind the commit gate, next to two
 * embedded Derby replicas (the first is the primary). The bank workload checks the total on every read; afterwards
 * every replica's tables are equal and no replica was reported as divergent.
 */
class PostgresSecondaryCbsTest {

    private static final int POOL_SIZE_MAX = 16;
    private static final long CONNECT_TIMEOUT_MS = 10_000;
    private static final int WORKER_THREADS_MAX = 16;
    private static final int FETCH_SIZE = 100;
    private static final long STATEMENT_TIMEOUT_MS = 60_000;
    private static final long IDLE_TIMEOUT_MS = 60_000;
    private static final int CLIENTS = 4;
    private static final int BANK_TXNS_PER_CLIENT = 25;
    private static final long SEED = 7_100;
    private static final BankWorkload BANK = new BankWorkload(20, 1_000);

    private static PostgresServer postgres;

    @BeforeAll
    static void startPostgres() throws Exception {
        postgres = new PostgresServer("postgresql", null);
        postgres.start();
    }

    @AfterAll
    static void stopPostgres() {
        if (postgres != null) postgres.close();
    }

    private static ReplicaPool derby(String name) throws SQLException {
        ReplicaSpec spec = ReplicaSpec.of(name, "jdbc:derby:memory:pgsec" + name + ";create=true", "", "");
        return new ReplicaPool(spec, ConnectionPreparer.defaults("derby"), POOL_SIZE_MAX, CONNECT_TIMEOUT_MS);
    }

    private static ReplicaPool postgresql(String db) throws SQLException {
        try (Connection c = postgres.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + db);
        }
        String url = "jdbc:postgresql://" + DatabaseServer.LOOPBACK + ":" + postgres.port() + "/" + db;
        ReplicaSpec spec = new ReplicaSpec("postgresql", url, postgres.user(), postgres.password(), "postgresql");
        return new ReplicaPool(spec, ConnectionPreparer.defaults("postgresql"), POOL_SIZE_MAX, CONNECT_TIMEOUT_MS);
    }

    /** Two embedded Derby replicas (the first is the primary) and a PostgreSQL database {@code db} as the secondary. */
    private static CbsCoordinator open(String db, List<ReplicaPool> pools) throws SQLException {
        try {
            pools.add(derby(db + "d1"));
            pools.add(derby(db + "d2"));
            pools.add(postgresql(db));
            return new CbsCoordinator(pools, 0, CbsCore.Settings.defaults(1, ExecutionMode.CBS), WORKER_THREADS_MAX,
                    FETCH_SIZE, STATEMENT_TIMEOUT_MS, new DivergenceLog());
        } catch (SQLException | RuntimeException e) {
            pools.forEach(ReplicaPool::close);
            throw e;
        }
    }

    @Test
    void bankWithPostgresqlSecondary() throws Exception {
        long t0 = System.nanoTime();
        List<ReplicaPool> pools = new ArrayList<>();
        try (CbsCoordinator coordinator = open("pgsec", pools)) {
            assertThat(coordinator.endpoints().stream().map(JdbcReplicaEndpoint::commitGated).toList())
                    .containsExactly(false, false, true);
            BANK.create(SqlClient.sessions(coordinator));
            BankWorkload.Counts counts = BANK.run(SqlClient.sessions(coordinator), CLIENTS, BANK_TXNS_PER_CLIENT, 0, SEED);
            assertThat(coordinator.awaitIdle(IDLE_TIMEOUT_MS)).as("every replica caught up").isTrue();
            BANK.assertReplicasAgree(pools);
            assertThat(coordinator.divergences().snapshot()).as("no replica is accused").isEmpty();
            System.out.printf("bank with a PostgreSQL secondary: %s %s in %d ms%n", counts, coordinator.stats(),
                    (System.nanoTime() - t0) / 1_000_000);
        }
    }

    /**
     * A statement that fails inside a transaction undoes only itself on Derby, but makes PostgreSQL refuse the rest of
     * the transaction (25P02) unless it is rolled back to a savepoint: a PostgreSQL secondary runs a statement the
     * primary failed inside a savepoint of its own, so the transaction goes on there as on the primary.
     */
    @Test
    void aFailedStatementAndSavepointsInsideATransaction() throws Exception {
        List<ReplicaPool> pools = new ArrayList<>();
        try (CbsCoordinator coordinator = open("pgfail", pools); Session s = coordinator.openSession("app", "db")) {
            run(s, "CREATE TABLE item (id INT PRIMARY KEY, v VARCHAR(10))");
            s.setAutoCommit(false);
            run(s, "INSERT INTO item VALUES (1, 'one')");
            assertThatThrownBy(() -> run(s, "INSERT INTO item VALUES (1, 'again')")).isInstanceOf(SQLException.class)
                    .hasFieldOrPropertyWithValue("SQLState", "23505");
            run(s, "INSERT INTO item VALUES (2, 'two')");
            assertThatThrownBy(() -> readAll(s, "SELECT id, 10 / (id - 2) FROM item ORDER BY id"))
                    .as("a query that fails on its second row, after the first reached the client")
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "22012");
            run(s, "SAVEPOINT a");
            run(s, "INSERT INTO item VALUES (3, 'undone')");
            assertThatThrownBy(() -> run(s, "INSERT INTO item VALUES (2, 'again')")).isInstanceOf(SQLException.class)
                    .hasFieldOrPropertyWithValue("SQLState", "23505");
            run(s, "ROLLBACK TO SAVEPOINT a");
            run(s, "RELEASE SAVEPOINT a");
            commitAndCheckEveryReplica(coordinator, s, pools);
        }
    }

    /**
     * {@code SAVEPOINT a} a second time replaces the first one (the standard, HSQLDB, MariaDB) where PostgreSQL keeps it:
     * after {@code RELEASE SAVEPOINT a} a {@code ROLLBACK TO SAVEPOINT a} would succeed on a PostgreSQL secondary only
     * and it would be outvoted. The session releases the older one first, on every replica; when savepoints were set
     * after it, which a release would drop too, it refuses the statement.
     */
    @Test
    void aSavepointNameSetAgainIsReplacedOnPostgresqlAsElsewhere() throws Exception {
        List<ReplicaPool> pools = new ArrayList<>();
        try {
            pools.add(hsqldb("pgsp1"));
            pools.add(hsqldb("pgsp2"));
            pools.add(postgresql("pgsp"));
        } catch (SQLException | RuntimeException e) {
            pools.forEach(ReplicaPool::close);
            throw e;
        }
        try (CbsCoordinator coordinator = new CbsCoordinator(pools, 0, CbsCore.Settings.defaults(1, ExecutionMode.CBS),
                WORKER_THREADS_MAX, FETCH_SIZE, STATEMENT_TIMEOUT_MS, new DivergenceLog());
                Session s = coordinator.openSession("app", "db")) {
            run(s, "CREATE TABLE item (id INT PRIMARY KEY, v VARCHAR(10))");
            s.setAutoCommit(false);
            run(s, "SAVEPOINT a");
            run(s, "INSERT INTO item VALUES (1, 'one')");
            run(s, "SAVEPOINT a");
            run(s, "INSERT INTO item VALUES (2, 'two')");
            run(s, "RELEASE SAVEPOINT a");
            assertThatThrownBy(() -> run(s, "ROLLBACK TO SAVEPOINT a")).as("no savepoint a is left, on any replica")
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "3B001");
            run(s, "SAVEPOINT b");
            run(s, "SAVEPOINT c");
            assertThatThrownBy(() -> run(s, "SAVEPOINT b")).isInstanceOf(SQLException.class)
                    .hasFieldOrPropertyWithValue("SQLState", "0A000").hasMessageContaining("while C, set after it");
            run(s, "ROLLBACK TO SAVEPOINT b");
            commitAndCheckEveryReplica(coordinator, s, pools);
        }
    }

    /** Changes item 2 to 'TWO', commits, and checks that every replica holds items 1 and 2 and none was accused. */
    private static void commitAndCheckEveryReplica(CbsCoordinator coordinator, Session s, List<ReplicaPool> pools)
            throws Exception {
        run(s, "UPDATE item SET v = 'TWO' WHERE id = 2");
        s.commit();
        assertThat(coordinator.awaitIdle(IDLE_TIMEOUT_MS)).as("every replica caught up").isTrue();
        for (ReplicaPool p : pools) {
            assertThat(rows(p, "SELECT id, v FROM item ORDER BY id")).as(p.spec().name()).containsExactly("1 one", "2 TWO");
        }
        assertThat(coordinator.divergences().snapshot()).as("no replica is accused").isEmpty();
    }

    private static ReplicaPool hsqldb(String name) throws SQLException {
        ReplicaSpec spec = ReplicaSpec.of(name, "jdbc:hsqldb:mem:" + name, "SA", "");
        return new ReplicaPool(spec, ConnectionPreparer.defaults("hsqldb"), POOL_SIZE_MAX, CONNECT_TIMEOUT_MS);
    }

    private static void readAll(Session s, String sql) throws SQLException {
        Answer.Rows rows = (Answer.Rows) s.execute(sql, List.of(), ExecOptions.DEFAULT);
        try (ResultCursor c = rows.cursor()) {
            while (!c.exhausted()) c.fetch(1);
        }
    }

    private static void run(Session s, String sql) throws SQLException {
        s.execute(sql, List.of(), ExecOptions.DEFAULT);
    }

    private static List<String> rows(ReplicaPool pool, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = pool.acquire(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) out.add(rs.getString(1) + " " + rs.getString(2));
            c.rollback();
        }
        return out;
    }
}
