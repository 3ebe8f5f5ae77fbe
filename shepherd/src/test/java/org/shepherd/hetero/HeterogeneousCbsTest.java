package org.shepherd.hetero;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.ResultCursor;
import org.shepherd.coordinator.Session;
import org.shepherd.admin.AdminView;
import org.shepherd.coordinator.cbs.CbsCoordinator;
import org.shepherd.coordinator.cbs.CbsCore;
import org.shepherd.coordinator.cbs.JdbcReplicaEndpoint;
import org.shepherd.divergence.DivergenceLog;
import org.shepherd.protocol.Param;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.replica.setup.ReplicaRefusedException;
import org.shepherd.replica.setup.ReplicaSetup;
import org.shepherd.schedule.ExecutionMode;
import org.shepherd.testing.BankWorkload;
import org.shepherd.testing.ReplicaTables;
import org.shepherd.testing.SqlClient;

/**
 * Tier 3: commit barrier scheduling over real servers of different vendors (f = 1, three replicas), each vendor as
 * primary; two MariaDB versions; MariaDB three times. After each workload every replica's tables are equal (canonical
 * values row by row) and no correct replica was reported as divergent.
 */
class HeterogeneousCbsTest {

    private static final int WORKER_THREADS_MAX = 16;
    private static final int FETCH_SIZE = 100;
    private static final long STATEMENT_TIMEOUT_MS = 60_000;
    private static final long IDLE_TIMEOUT_MS = 60_000;
    private static final int CLIENTS = 4;
    private static final int BANK_TXNS_PER_CLIENT = 15;
    private static final int MIX_TXNS_PER_CLIENT = 10;
    private static final long SEED = 5_000;
    private static final BankWorkload BANK = new BankWorkload(20, 1_000);

    private static ReplicaServers servers;

    @BeforeAll
    static void startServers() throws Exception {
        long t0 = System.nanoTime();
        servers = ReplicaServers.start();
        System.out.printf("replica servers started in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
    }

    @AfterAll
    static void stopServers() {
        if (servers != null) {
            servers.close();
        }
    }

    /** The replica set of these servers (fresh databases), with {@code names.get(primary)} as primary. */
    private static CbsCoordinator coordinator(List<String> names, int primary) throws SQLException {
        return coordinator(names, primary, CbsCore.Settings.defaults(1, ExecutionMode.CBS));
    }

    private static CbsCoordinator coordinator(List<String> names, int primary, CbsCore.Settings settings) throws SQLException {
        int set = servers.newSet();
        List<ReplicaPool> pools = new ArrayList<>();
        try {
            for (String n : names) {
                pools.add(servers.pool(n, set));
            }
        } catch (SQLException | RuntimeException e) {
            pools.forEach(ReplicaPool::close);
            throw e;
        }
        return coordinatorOver(pools, primary, settings);
    }

    /** A coordinator over {@code pools} (closed when it cannot start), {@code pools.get(primary)} the primary. */
    static CbsCoordinator coordinatorOver(List<ReplicaPool> pools, int primary, CbsCore.Settings settings) throws SQLException {
        try {
            return new CbsCoordinator(pools, primary, settings, WORKER_THREADS_MAX, FETCH_SIZE, STATEMENT_TIMEOUT_MS,
                    new DivergenceLog());
        } catch (SQLException | RuntimeException e) {
            pools.forEach(ReplicaPool::close);
            throw e;
        }
    }

    private static void bankOn(List<String> names, int primary) throws Exception {
        long t0 = System.nanoTime();
        try (CbsCoordinator c = coordinator(names, primary)) {
            BANK.create(SqlClient.sessions(c));
            BankWorkload.Counts counts = BANK.run(SqlClient.sessions(c), CLIENTS, BANK_TXNS_PER_CLIENT, 0, SEED + primary * 100);
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).as("every replica caught up").isTrue();
            BANK.assertReplicasAgree(ReplicaTables.pools(c));
            assertThat(c.divergences().snapshot()).as("no correct replica is accused").isEmpty();
            // the bank's table only: the servers' databases may hold other tests' tables
            assertThat(c.verify(BankWorkload.TABLE)).as("verify with %s as primary", names.get(primary))
                    .extracting(r -> r.table().toLowerCase(java.util.Locale.ROOT) + ": " + r.result()).containsExactly("acct: equal");
            System.out.printf("bank on %s, primary %s: %s %s in %d ms%n", names, names.get(primary), counts, c.stats(),
                    (System.nanoTime() - t0) / 1_000_000);
        }
    }

    private static void mixOn(List<String> names, int primary) throws Exception {
        long t0 = System.nanoTime();
        try (CbsCoordinator c = coordinator(names, primary)) {
            Workloads.createMix(c);
            Workloads.Counts counts = Workloads.mix(c, CLIENTS, MIX_TXNS_PER_CLIENT, SEED + 50 + primary);
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).as("every replica caught up").isTrue();
            Workloads.checkMix(c);
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertEqualEverywhere(c, "district", "d_id");
            assertEqualEverywhere(c, "customer", "d_id, c_id");
            assertEqualEverywhere(c, "stock", "i_id");
            assertEqualEverywhere(c, "orders", "d_id, o_id");
            assertEqualEverywhere(c, "order_line", "d_id, o_id, ol_number");
            assertThat(c.divergences().snapshot()).as("no correct replica is accused").isEmpty();
            System.out.printf("tpcc-like mix on %s, primary %s: %s %s in %d ms%n", names, names.get(primary), counts, c.stats(),
                    (System.nanoTime() - t0) / 1_000_000);
        }
    }

    /** {@code table} and the commit log are equal on every replica. */
    private static void assertEqualEverywhere(CbsCoordinator c, String table, String orderBy) throws SQLException {
        List<ReplicaPool> pools = ReplicaTables.pools(c);
        ReplicaTables.assertEqualEverywhere(pools, table, orderBy);
        ReplicaTables.assertEqualEverywhere(pools, "shepherd_txlog", "txid");
    }

    private static final List<String> THREE_MARIADB = List.of(ReplicaServers.MARIADB, ReplicaServers.MARIADB_B,
            ReplicaServers.MARIADB_C);
    private static final List<String> MARIADB_DERBY_HSQLDB = List.of(ReplicaServers.MARIADB, ReplicaServers.DERBY,
            ReplicaServers.HSQLDB);

    @Test
    void bankWithMariaDbAsPrimary() throws Exception {
        bankOn(MARIADB_DERBY_HSQLDB, 0);
    }

    @Test
    void bankWithDerbyAsPrimary() throws Exception {
        bankOn(MARIADB_DERBY_HSQLDB, 1);
    }

    @Test
    void bankWithHsqldbAsPrimary() throws Exception {
        bankOn(MARIADB_DERBY_HSQLDB, 2);
    }

    @Test
    void tpccLikeMixWithMariaDbAsPrimary() throws Exception {
        mixOn(MARIADB_DERBY_HSQLDB, 0);
    }

    @Test
    void tpccLikeMixWithDerbyAsPrimary() throws Exception {
        mixOn(MARIADB_DERBY_HSQLDB, 1);
    }

    @Test
    void twoMariaDbVersionsAndDerby() throws Exception {
        Assumptions.assumeTrue(servers.has(ReplicaServers.MARIADB_10), "Debian's mariadbd (10.11) is not installed");
        List<String> set = List.of(ReplicaServers.MARIADB, ReplicaServers.MARIADB_10, ReplicaServers.DERBY);
        bankOn(set, 0);
        mixOn(set, 1);
    }

    @Test
    void mariaDbThreeTimes() throws Exception {
        List<String> set = THREE_MARIADB;
        bankOn(set, 0);
        mixOn(set, 2);
    }

    /**
     * MySQL's SHOW TABLES goes to MariaDB replicas unchanged; its answer leaves out the shepherd's own tables, as does a
     * query of information_schema.
     */
    @Test
    void showTablesOnMariaDbLeavesOutTheShepherdsTables() throws Exception {
        try (CbsCoordinator c = coordinator(THREE_MARIADB, 0); Session s = c.openSession("app", "db")) {
            s.execute("CREATE TABLE pets (id INT PRIMARY KEY)", List.of(), ExecOptions.DEFAULT);
            s.execute("INSERT INTO pets VALUES (1)", List.of(), ExecOptions.DEFAULT);
            assertThat(firstColumn(s, "SHOW TABLES")).containsExactly("pets");
            assertThat(firstColumn(s, "show full tables like '%'")).containsExactly("pets");
            s.setAutoCommit(false);
            assertThat(firstColumn(s, "SHOW TABLES")).as("inside a transaction (streamed)").containsExactly("pets");
            s.commit();
            // (every replica's database has its own name: DATABASE() is refused, the server's other sets are listed)
            String catalog = "SELECT DISTINCT table_name FROM information_schema.tables WHERE table_name IN ('pets',"
                    + " 'shepherd_txlog', 'shepherd_txlog_base') ORDER BY table_name";
            assertThat(firstColumn(s, catalog)).containsExactly("pets");
            assertThat(firstColumn(s, "SELECT DISTINCT t.table_name AS t, t.table_type FROM INFORMATION_SCHEMA.TABLES t"
                    + " WHERE t.table_name LIKE 'pets' OR t.table_name LIKE 'shepherd%' ORDER BY 1")).as("aliased")
                    .containsExactly("pets");
            s.setAutoCommit(true);
            assertThat(firstColumn(s, catalog)).as("in autocommit").containsExactly("pets");
            assertThat(firstColumn(s, "SELECT COUNT(*) FROM information_schema.tables WHERE table_name LIKE 'shepherd%'"))
                    .as("counted in the query: none of the shepherd's tables (of any database on the servers)").containsExactly("0");
            // DatabaseMetaData with a null catalog: the session's database, not every database of the server (the
            // server's own, and the other sets' with their tables) nor the shepherd's tables
            List<String> tables = new ArrayList<>();
            try (ResultCursor cursor = ((Answer.Rows) s.metadata(new org.shepherd.coordinator.MetadataRequest("getTables",
                    java.util.Arrays.asList(null, null, "%", new String[] {"TABLE", "VIEW"})))).cursor()) {
                while (!cursor.exhausted()) {
                    for (Object[] row : cursor.fetch(100)) tables.add(String.valueOf(row[2]));
                }
            }
            assertThat(tables).containsExactly("pets");
        }
    }

    /**
     * MySQL's INSERT ... ON DUPLICATE KEY UPDATE (and REPLACE) runs on a replica set of MariaDB servers: clients upserting the same
     * keys at once leave equal replicas and the count of every upsert; into a table with an AUTO_INCREMENT column the
     * primary's keys are pinned (it runs the rows one at a time), also for several rows and for REPLACE; with a replica
     * of another engine it is refused before it runs.
     */
    @Test
    void upsertsRunOnMariaDbReplicasOnly() throws Exception {
        int clients = 4;
        int upserts = 25;
        try (CbsCoordinator c = coordinator(THREE_MARIADB, 0)) {
            try (Session s = c.openSession("app", "db")) {
                Workloads.update(s, "CREATE TABLE hits (page VARCHAR(20) PRIMARY KEY, n INT NOT NULL, last_by INT)");
                Workloads.update(s, "CREATE TABLE visits (id INT AUTO_INCREMENT PRIMARY KEY, page VARCHAR(20) UNIQUE, n INT)");
                String upsert = "INSERT INTO hits (page, n, last_by) VALUES (?, 1, ?) ON DUPLICATE KEY UPDATE n = n + 1,"
                        + " last_by = VALUES(last_by)";
                // a statement the parser does not read runs unchanged on an all-MariaDB set, unless a replica would
                // evaluate something in it for itself
                assertThat(Workloads.update(s, "DO 1 + 1")).isZero();
                assertThatThrownBy(() -> Workloads.update(s, "DO NOW()")).isInstanceOf(SQLException.class)
                        .hasFieldOrPropertyWithValue("SQLState", "0A000").hasMessageContaining("NOW()");
                assertThat(Workloads.update(s, upsert, "home", 0)).as("inserted").isEqualTo(1);
                assertThat(Workloads.update(s, upsert, "home", 0)).as("updated").isEqualTo(2);
                assertThat(Workloads.update(s, "REPLACE INTO hits (page, n) VALUES ('about', 1)")).as("inserted").isEqualTo(1);
                assertThat(Workloads.update(s, "REPLACE INTO hits (page, n) VALUES ('about', 0)")).as("replaced").isEqualTo(2);
                Workloads.update(s, "DELETE FROM hits WHERE page = 'about'");
                // an AUTO_INCREMENT table, upserted one row at a time: inserted rows get the primary's keys everywhere
                s.setAutoCommit(false);
                Workloads.update(s, "INSERT INTO visits (page, n) VALUES ('gap', 1)");
                s.rollback(); // the primary's counter moves on; the secondaries got its key pinned and rolled back too
                s.setAutoCommit(true);
                String visit = "INSERT INTO visits (page, n) VALUES (?, 1) ON DUPLICATE KEY UPDATE n = n + 1";
                assertThat(Workloads.update(s, visit, "a")).isEqualTo(1);
                assertThat(Workloads.update(s, visit, "a")).isEqualTo(2);
                assertThat(Workloads.update(s, visit, "b")).isEqualTo(1);
                assertThat(Workloads.update(s, visit, "a")).isEqualTo(2);
                // several rows: the primary runs them one at a time; rows it inserted get its keys everywhere, the row
                // it updated updates everywhere (a secondary's own counter, moved behind the shepherd's back, is not used)
                assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
                try (java.sql.Connection conn = c.endpoints().get(2).pool().acquire(); java.sql.Statement st = conn.createStatement()) {
                    st.execute("ALTER TABLE visits AUTO_INCREMENT = 1000");
                }
                assertThat(Workloads.update(s, "INSERT INTO visits (page, n) VALUES ('c', 1), ('a', 10), ('d', 1), ('c', 5)"
                        + " ON DUPLICATE KEY UPDATE n = n + VALUES(n)")).as("c, d inserted; a, c updated").isEqualTo(1 + 2 + 1 + 2);
                s.setAutoCommit(false);
                Workloads.update(s, "SAVEPOINT before_e");
                Workloads.update(s, "INSERT INTO visits (page, n) VALUES ('e', 1), ('f', 1) ON DUPLICATE KEY UPDATE n = 0");
                Workloads.update(s, "ROLLBACK TO SAVEPOINT before_e");
                Workloads.update(s, "INSERT INTO visits (page, n) VALUES ('f', 1), ('e', 1) ON DUPLICATE KEY UPDATE n = 0");
                s.commit();
                s.setAutoCommit(true);
                // REPLACE deletes the row it replaces and inserts a new one, with a new key: the primary's everywhere
                assertThat(Workloads.update(s, "REPLACE INTO visits (page, n) VALUES ('a', 5), ('g', 1)"))
                        .as("a replaced, g inserted").isEqualTo(2 + 1);
                assertThat(Workloads.update(s, "REPLACE INTO visits (page, n) VALUES ('g', 2)")).isEqualTo(2);
                for (String refused : List.of("INSERT INTO visits (page, n) SELECT page, n FROM hits ON DUPLICATE KEY UPDATE"
                        + " n = visits.n + 1", "REPLACE INTO visits (page, n) SELECT page, n FROM hits")) {
                    assertThatThrownBy(() -> Workloads.update(s, refused)).as(refused).isInstanceOf(SQLException.class)
                            .hasFieldOrPropertyWithValue("SQLState", "0A000").hasMessageContaining("AUTO_INCREMENT");
                }
            }
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(clients);
            try {
                List<java.util.concurrent.Future<?>> done = new ArrayList<>();
                for (int k = 0; k < clients; k++) {
                    int client = k;
                    done.add(pool.submit(() -> {
                        java.util.Random rnd = new java.util.Random(SEED + client);
                        try (Session s = c.openSession("app", "db")) {
                            s.setAutoCommit(false);
                            for (int i = 0; i < upserts; i++) {
                                Workloads.update(s, "INSERT INTO hits (page, n, last_by) VALUES (?, 1, ?) ON DUPLICATE KEY"
                                        + " UPDATE n = n + 1, last_by = VALUES(last_by)", "p" + rnd.nextInt(3), client);
                                s.commit();
                            }
                        }
                        return null;
                    }));
                }
                for (java.util.concurrent.Future<?> f : done) f.get(120, java.util.concurrent.TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            try (Session s = c.openSession("app", "db")) {
                List<Object[]> total = Workloads.query(s, "SELECT SUM(n) FROM hits");
                assertThat(Workloads.number(total.get(0)[0])).as("every upsert counted").isEqualTo(2L + clients * upserts);
            }
            assertEqualEverywhere(c, "hits", "page");
            assertEqualEverywhere(c, "visits", "id");
            assertThat(c.divergences().snapshot()).as("no correct replica is accused").isEmpty();
        }
        try (CbsCoordinator c = coordinator(MARIADB_DERBY_HSQLDB, 0); Session s = c.openSession("app", "db")) {
            Workloads.update(s, "CREATE TABLE hits (page VARCHAR(20) PRIMARY KEY, n INT NOT NULL)");
            assertThatThrownBy(() -> Workloads.update(s, "INSERT INTO hits (page, n) VALUES ('a', 1) ON DUPLICATE KEY UPDATE"
                    + " n = n + 1")).isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "0A000")
                    .hasMessageContaining("runs only when every replica is MySQL or MariaDB");
        }
    }

    /**
     * One multi-row INSERT into an identity table whose rows mix generated keys (DEFAULT, NULL, the column left out) with
     * explicit ones, on a Derby, a MariaDB and an HSQLDB primary with the other two engines as secondaries: every engine
     * keeps the explicit keys and gets the primary's for the others (each engine's own counter would go on differently
     * after an explicit key: MariaDB's past it, Derby's not), and later generated keys agree too. DEFAULT there generates
     * a key on a MariaDB primary too, where the replicas' NO_AUTO_VALUE_ON_ZERO would otherwise store 0.
     */
    @Test
    void rowsMixingExplicitAndGeneratedKeysGetThePrimarysKeysEverywhere() throws Exception {
        List<String> engines = List.of(ReplicaServers.DERBY, ReplicaServers.MARIADB, ReplicaServers.HSQLDB);
        for (int primary = 0; primary < engines.size(); primary++) {
            try (CbsCoordinator c = coordinator(engines, primary); Session s = c.openSession("app", "db")) {
                Workloads.update(s, "CREATE TABLE item (id INT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, v VARCHAR(10))");
                assertThat(Workloads.update(s, "INSERT INTO item (id, v) VALUES (DEFAULT, 'a'), (100, 'b'), (DEFAULT, 'c')"))
                        .isEqualTo(3);
                assertThat(Workloads.update(s, "INSERT INTO item (v, id) VALUES ('d', ?), ('e', 50), ('f', ?)", 200, 300))
                        .isEqualTo(3);
                assertThat(Workloads.update(s, "INSERT INTO item (v) VALUES ('g'), ('h')")).isEqualTo(2);
                assertThat(Workloads.update(s, "INSERT INTO item (id, v) VALUES (70, 'i'), (DEFAULT, 'j')")).isEqualTo(2);
                assertThat(firstColumn(s, "SELECT v FROM item WHERE id = LAST_INSERT_ID()")).as("the first generated key,"
                        + " not the explicit one before it").containsExactly("j");
                assertThat(Workloads.update(s, "INSERT INTO item (id, v) VALUES (DEFAULT, 'k')")).isEqualTo(1);
                assertThat(firstColumn(s, "SELECT v FROM item WHERE id IN (50, 70, 100, 200, 300) ORDER BY id"))
                        .as("explicit keys kept on %s", engines.get(primary)).containsExactly("e", "i", "b", "d", "f");
                // a parameter bound to NULL in the key column is a NULL there: what the primary does with it (generate a
                // key, or refuse) is what every replica does, with the primary's key
                String nullParameter = "INSERT INTO item (v, id) VALUES ('l', ?), ('m', ?)";
                if (engines.get(primary).equals(ReplicaServers.DERBY)) {
                    assertThatThrownBy(() -> Workloads.update(s, nullParameter, null, 400)).isInstanceOf(SQLException.class)
                            .hasFieldOrPropertyWithValue("SQLState", "23502");
                } else {
                    assertThat(Workloads.update(s, nullParameter, null, 400)).isEqualTo(2);
                    assertThat(firstColumn(s, "SELECT v FROM item WHERE id = LAST_INSERT_ID()")).containsExactly("l");
                }
                assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
                ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "item", "id");
                assertThat(c.divergences().snapshot()).as("primary %s", engines.get(primary)).isEmpty();
            }
        }
    }

    /**
     * A session's schema across engines (Derby primary, HSQLDB, MariaDB), the schema made on each beforehand (a MariaDB
     * database): the session's unqualified tables land in it on every replica, each engine naming it its own way, and
     * verify finds them equal.
     */
    @Test
    void aSessionsSchemaAcrossEngines() throws Exception {
        String schema = "shop" + servers.newSet();
        List<String> names = List.of(ReplicaServers.DERBY, ReplicaServers.HSQLDB, ReplicaServers.MARIADB);
        try (CbsCoordinator c = coordinator(names, 0)) {
            List<ReplicaPool> pools = new ArrayList<>();
            for (JdbcReplicaEndpoint e : c.endpoints()) pools.add(e.pool());
            behindTheShepherdsBack(pools, "CREATE SCHEMA " + schema, "CREATE SCHEMA " + schema, "CREATE DATABASE " + schema);
            try {
                try (Session s = c.openSession("app", "db")) {
                    s.execute("SET SCHEMA " + schema, List.of(), ExecOptions.DEFAULT);
                    Workloads.update(s, "CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(10), n INT)");
                    Workloads.update(s, "INSERT INTO items VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)");
                    assertThat(Workloads.update(s, "UPDATE items SET n = n + 1 WHERE name <> 'b'")).isEqualTo(2);
                    assertThat(firstColumn(s, "SELECT SUM(n) FROM items")).containsExactly("62");
                }
                assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
                List<String> first = ReplicaTables.canonical(pools.get(0), schema + ".items", "id");
                assertThat(first).hasSize(3);
                for (ReplicaPool p : pools) {
                    assertThat(ReplicaTables.canonical(p, schema + ".items", "id")).as(p.spec().name()).isEqualTo(first);
                }
                assertThat(c.verify(schema + ".*", false)).extracting(AdminView.VerifyRow::result).containsExactly("equal");
                assertThat(c.divergences().snapshot()).isEmpty();
            } finally {
                behindTheShepherdsBack(pools, "DROP TABLE " + schema + ".items", "DROP SCHEMA " + schema + " CASCADE",
                        "DROP DATABASE " + schema);
                behindTheShepherdsBack(pools.subList(0, 1), "DROP SCHEMA " + schema + " RESTRICT");
            }
        }
    }

    /**
     * A column whose DEFAULT reads the clock gets one time on every engine: created through the shepherd (Derby primary,
     * the default kept in each engine's spelling), and created behind its back on each replica before it served (MariaDB
     * primary: the shepherd learns the default from MariaDB's metadata). Without the rewrite each replica would store
     * its own time and the rows would differ.
     */
    @Test
    void clockDefaultsGetOneTimeOnEveryEngine() throws Exception {
        try (CbsCoordinator c = coordinator(List.of(ReplicaServers.DERBY, ReplicaServers.HSQLDB, ReplicaServers.MARIADB), 0);
                Session s = c.openSession("app", "db")) {
            Workloads.update(s, "CREATE TABLE ev (id INT PRIMARY KEY, name VARCHAR(10),"
                    + " created TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL, day DATE DEFAULT CURRENT_DATE)");
            clockDefaultRows(c, s);
        }
        try (CbsCoordinator c = coordinator(MARIADB_DERBY_HSQLDB, 0)) {
            List<ReplicaPool> pools = ReplicaTables.pools(c);
            behindTheShepherdsBack(pools,
                    "CREATE TABLE ev (id INT PRIMARY KEY, name VARCHAR(10), created DATETIME(6) NOT NULL DEFAULT"
                            + " CURRENT_TIMESTAMP(6), day DATE DEFAULT (curdate()))",
                    "CREATE TABLE ev (id INT PRIMARY KEY, name VARCHAR(10), created TIMESTAMP NOT NULL DEFAULT CURRENT"
                            + " TIMESTAMP, day DATE DEFAULT CURRENT DATE)",
                    "CREATE TABLE ev (id INT PRIMARY KEY, name VARCHAR(10), created TIMESTAMP(6) DEFAULT LOCALTIMESTAMP NOT"
                            + " NULL, day DATE DEFAULT CURRENT_DATE)");
            try (Session s = c.openSession("app", "db")) {
                clockDefaultRows(c, s);
            }
        }
    }

    /**
     * MySQL's {@code ON UPDATE CURRENT_TIMESTAMP} with a MariaDB primary and Derby and HSQLDB secondaries: an UPDATE that
     * leaves the column out sets it to one time on every engine (Derby and HSQLDB have no such clause; MariaDB would take
     * its own time); created through the shepherd, and behind its back before it served (the shepherd then reads the
     * clause from MariaDB's information_schema).
     */
    @Test
    void onUpdateCurrentTimestampGetsOneTimeOnEveryEngine() throws Exception {
        try (CbsCoordinator c = coordinator(MARIADB_DERBY_HSQLDB, 0); Session s = c.openSession("app", "db")) {
            Workloads.update(s, "CREATE TABLE doc (id INT PRIMARY KEY, body VARCHAR(10), changed TIMESTAMP(6) NOT NULL"
                    + " DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6))");
            onUpdateRows(c, s);
        }
        try (CbsCoordinator c = coordinator(MARIADB_DERBY_HSQLDB, 0)) {
            behindTheShepherdsBack(ReplicaTables.pools(c),
                    "CREATE TABLE doc (id INT PRIMARY KEY, body VARCHAR(10), changed DATETIME(6) NOT NULL DEFAULT"
                            + " CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6))",
                    "CREATE TABLE doc (id INT PRIMARY KEY, body VARCHAR(10), changed TIMESTAMP NOT NULL DEFAULT"
                            + " CURRENT_TIMESTAMP)",
                    "CREATE TABLE doc (id INT PRIMARY KEY, body VARCHAR(10), changed TIMESTAMP(6) DEFAULT LOCALTIMESTAMP"
                            + " NOT NULL)");
            try (Session s = c.openSession("app", "db")) {
                onUpdateRows(c, s);
            }
        }
    }

    /**
     * A schema migration's column and table changes through a Derby primary with HSQLDB and PostgreSQL secondaries, each
     * rendered in the engine's words: columns renamed (the standard's words and Derby's RENAME COLUMN t.c), a DEFAULT set
     * and dropped, a clock DEFAULT set on a column (rows that leave it out then get one time everywhere: the catalog reads
     * the new default back), a VARCHAR widened, NOT NULL set (a row without the value is refused everywhere) and dropped,
     * the table renamed. A type change Derby cannot make is refused before it runs anywhere. The rows end equal.
     */
    @Test
    void columnAndTableChangesRunOnDerbyHsqldbAndPostgresql() throws Exception {
        List<String> names = List.of(ReplicaServers.DERBY, ReplicaServers.HSQLDB, ReplicaServers.POSTGRESQL);
        try (CbsCoordinator c = coordinator(names, 0); Session s = c.openSession("app", "db")) {
            for (String sql : List.of("CREATE TABLE mig (id INT PRIMARY KEY, name VARCHAR(10), n INT, seen TIMESTAMP)",
                    "INSERT INTO mig (id, name) VALUES (1, 'ada')", "ALTER TABLE mig RENAME COLUMN name TO label",
                    "RENAME COLUMN mig.n TO qty", "ALTER TABLE mig ALTER COLUMN qty SET DEFAULT 5",
                    "INSERT INTO mig (id, label) VALUES (2, 'alan')", "ALTER TABLE mig ALTER COLUMN qty DROP DEFAULT",
                    "ALTER TABLE mig ALTER COLUMN seen SET DEFAULT CURRENT_TIMESTAMP",
                    "INSERT INTO mig (id, label) VALUES (3, 'grace')",
                    "ALTER TABLE mig ALTER COLUMN label SET DATA TYPE VARCHAR(40)",
                    "INSERT INTO mig (id, label, seen) VALUES (4, 'a name longer than ten', NULL)",
                    "ALTER TABLE mig ALTER COLUMN label SET NOT NULL")) {
                Workloads.update(s, sql);
            }
            assertThatThrownBy(() -> Workloads.update(s, "INSERT INTO mig (id) VALUES (5)")).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("23"));
            assertThatThrownBy(() -> Workloads.update(s, "ALTER TABLE mig ALTER COLUMN qty SET DATA TYPE BIGINT"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("VARCHAR's length")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
            for (String sql : List.of("ALTER TABLE mig ALTER COLUMN label DROP NOT NULL", "INSERT INTO mig (id) VALUES (5)",
                    "RENAME TABLE mig TO migrated")) {
                Workloads.update(s, sql);
            }
            assertThat(firstColumn(s, "SELECT qty FROM migrated ORDER BY id")).containsExactly("null", "5", "null", "null", "null");
            assertThat(firstColumn(s, "SELECT COUNT(*) FROM migrated WHERE seen IS NOT NULL")).as("rows 3 and 5 took the clock")
                    .containsExactly("2");
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "migrated", "id");
            assertThat(c.divergences().snapshot()).isEmpty();
        }
    }

    /**
     * The same kind of migration written for MySQL, with a MariaDB primary and Derby and HSQLDB secondaries: a column
     * renamed, a DEFAULT and a clock DEFAULT (NOW()) set, a column made NOT NULL (refused alike everywhere while a row
     * holds a NULL), a VARCHAR widened, MySQL's RENAME TABLE. MariaDB changes a column only by restating all of it
     * (MODIFY): the MariaDB replica restates what the change leaves as it was from its own catalog, so the column keeps
     * its DEFAULT and an AUTO_INCREMENT column its generated keys. MySQL's own MODIFY and CHANGE run on Derby and HSQLDB
     * as a statement per part (rename, type, NULL or NOT NULL, DEFAULT); one that makes a column AUTO_INCREMENT is
     * refused before it runs anywhere.
     */
    @Test
    void columnAndTableChangesWithAMariaDbPrimary() throws Exception {
        columnAndTableChangesWithAMariaDbPrimary(MARIADB_DERBY_HSQLDB);
    }

    /** The same with HSQLDB and PostgreSQL secondaries. */
    @Test
    void columnAndTableChangesWithAMariaDbPrimaryAndPostgresql() throws Exception {
        columnAndTableChangesWithAMariaDbPrimary(List.of(ReplicaServers.MARIADB, ReplicaServers.HSQLDB, ReplicaServers.POSTGRESQL));
    }

    private static void columnAndTableChangesWithAMariaDbPrimary(List<String> names) throws Exception {
        try (CbsCoordinator c = coordinator(names, 0); Session s = c.openSession("app", "db")) {
            for (String sql : List.of("CREATE TABLE mig (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(10), n INT,"
                    + " seen DATETIME(6))", "INSERT INTO mig (name) VALUES ('ada')", "ALTER TABLE mig RENAME COLUMN name TO label",
                    "ALTER TABLE mig ALTER COLUMN n SET DEFAULT 5", "ALTER TABLE mig ALTER COLUMN seen SET DEFAULT NOW(6)",
                    "INSERT INTO mig (label) VALUES ('alan')")) {
                Workloads.update(s, sql);
            }
            assertThatThrownBy(() -> Workloads.update(s, "ALTER TABLE mig ALTER COLUMN n SET NOT NULL"))
                    .as("row 1 holds a NULL").isInstanceOf(SQLException.class);
            for (String sql : List.of("UPDATE mig SET n = 0 WHERE n IS NULL", "ALTER TABLE mig ALTER COLUMN n SET NOT NULL",
                    "ALTER TABLE mig ALTER COLUMN id SET NOT NULL", "INSERT INTO mig (label) VALUES ('grace')",
                    "ALTER TABLE mig ALTER COLUMN label SET DATA TYPE VARCHAR(40)",
                    "INSERT INTO mig (label) VALUES ('a name longer than ten')")) {
                Workloads.update(s, sql);
            }
            assertThatThrownBy(() -> Workloads.update(s, "INSERT INTO mig (label, n) VALUES ('none', NULL)"))
                    .isInstanceOf(SQLException.class).satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("23"));
            // MySQL's own restatements: the other engines change each part in a statement of its own
            Workloads.update(s, "ALTER TABLE mig MODIFY label VARCHAR(50) NOT NULL");
            assertThatThrownBy(() -> Workloads.update(s, "INSERT INTO mig (n) VALUES (1)")).as("label is NOT NULL now, no default")
                    .isInstanceOf(SQLException.class); // MariaDB's own error: 1364, HY000
            Workloads.update(s, "ALTER TABLE mig CHANGE label title VARCHAR(50) NOT NULL DEFAULT 'untitled'");
            Workloads.update(s, "INSERT INTO mig (n) VALUES (7)");
            assertThatThrownBy(() -> Workloads.update(s, "ALTER TABLE mig MODIFY n INT NOT NULL AUTO_INCREMENT"))
                    .as("MySQL-only").isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
            Workloads.update(s, "RENAME TABLE mig TO migrated");
            assertThat(Workloads.update(s, "ALTER TABLE IF EXISTS mig ALTER COLUMN n DROP NOT NULL")).as("gone: nothing")
                    .isZero();
            assertThatThrownBy(() -> Workloads.update(s, "ALTER TABLE migrated ALTER COLUMN nope SET NOT NULL"))
                    .as("no such column, on every engine").isInstanceOf(SQLException.class);
            assertThat(firstColumn(s, "SELECT n FROM migrated ORDER BY id")).as("the DEFAULT kept on MariaDB too")
                    .containsExactly("0", "5", "5", "5", "7");
            assertThat(firstColumn(s, "SELECT title FROM migrated ORDER BY id")).containsExactly("ada", "alan", "grace",
                    "a name longer than ten", "untitled");
            assertThat(firstColumn(s, "SELECT COUNT(*) FROM migrated WHERE seen IS NOT NULL")).containsExactly("4");
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "migrated", "id");
            try (java.sql.Connection maria = ReplicaTables.pools(c).get(0).acquire(); java.sql.Statement st = maria.createStatement();
                    java.sql.ResultSet rs = st.executeQuery("SELECT COLUMN_NAME, IS_NULLABLE, COLUMN_DEFAULT, EXTRA FROM"
                            + " information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'migrated'"
                            + " AND COLUMN_NAME IN ('id', 'n', 'title') ORDER BY COLUMN_NAME")) {
                List<String> columns = new ArrayList<>();
                while (rs.next()) {
                    columns.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getString(4));
                }
                maria.rollback();
                assertThat(columns).containsExactly("id NO null auto_increment", "n NO 5 ", "title NO 'untitled' ");
            }
            assertThat(c.divergences().snapshot()).isEmpty();
        }
    }

    /**
     * A nullable column's DEFAULT dropped leaves DEFAULT NULL on every engine: MariaDB would leave it without any default
     * and refuse (in strict mode) an INSERT that leaves the column out, which Derby and HSQLDB take with a NULL. With a
     * Derby primary and a MariaDB primary.
     */
    @Test
    void aDroppedDefaultOfANullableColumnIsNullEverywhere() throws Exception {
        for (List<String> names : List.of(List.of(ReplicaServers.DERBY, ReplicaServers.MARIADB, ReplicaServers.HSQLDB),
                MARIADB_DERBY_HSQLDB)) {
            try (CbsCoordinator c = coordinator(names, 0); Session s = c.openSession("app", "db")) {
                Workloads.update(s, "CREATE TABLE nodefault (id INT PRIMARY KEY, n INT DEFAULT 5, m INT NOT NULL DEFAULT 6)");
                Workloads.update(s, "ALTER TABLE nodefault ALTER COLUMN n DROP DEFAULT");
                Workloads.update(s, "ALTER TABLE nodefault ALTER COLUMN m DROP DEFAULT");
                Workloads.update(s, "INSERT INTO nodefault (id, m) VALUES (1, 1)");
                assertThatThrownBy(() -> Workloads.update(s, "INSERT INTO nodefault (id, n) VALUES (2, 2)"))
                        .as("m is NOT NULL without a default, on every engine").isInstanceOf(SQLException.class);
                assertThat(firstColumn(s, "SELECT n FROM nodefault")).containsExactly("null");
                assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
                ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "nodefault", "id");
                assertThat(c.divergences().snapshot()).as("on %s", names).isEmpty();
            }
        }
    }

    /**
     * DDL the primary refuses runs nowhere, also on the engines that would take it and keep it whatever the rollback
     * (MariaDB and HSQLDB commit DDL by themselves): Derby does not make a VARCHAR shorter, MariaDB and HSQLDB do; the
     * column stays as long everywhere.
     */
    @Test
    void ddlThePrimaryRefusesRunsNowhere() throws Exception {
        try (CbsCoordinator c = coordinator(List.of(ReplicaServers.DERBY, ReplicaServers.MARIADB, ReplicaServers.HSQLDB), 0);
                Session s = c.openSession("app", "db")) {
            Workloads.update(s, "CREATE TABLE narrow (id INT PRIMARY KEY, s VARCHAR(10))");
            Workloads.update(s, "INSERT INTO narrow (id, s) VALUES (1, 'abc')");
            assertThatThrownBy(() -> Workloads.update(s, "ALTER TABLE narrow ALTER COLUMN s SET DATA TYPE VARCHAR(5)"))
                    .as("Derby refuses a shorter VARCHAR").isInstanceOf(SQLException.class);
            Workloads.update(s, "INSERT INTO narrow (id, s) VALUES (2, 'abcdefgh')");
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "narrow", "id");
            assertThat(c.divergences().snapshot()).as("no replica shortened the column").isEmpty();
        }
    }

    /**
     * Derby makes no index of the columns of a unique constraint's own (warning 01504): the name does not exist there.
     * Its DROP INDEX is done all the same, on a Derby secondary (MariaDB primary) as on a Derby primary (whose client
     * made the index without an error; next to HSQLDB and PostgreSQL, since a Derby client's DROP INDEX names no table,
     * which MariaDB needs), and the index can be made again: no replica answers otherwise. (Not a foreign
     * key's columns: MariaDB then lets the new index stand for the key's and refuses to drop it, as it does alone.)
     */
    @Test
    void anIndexDerbyDeclinedAsADuplicateIsDroppedOnEveryReplica() throws Exception {
        eachSet(List.of(List.of(ReplicaServers.MARIADB, ReplicaServers.DERBY, ReplicaServers.HSQLDB),
                List.of(ReplicaServers.DERBY, ReplicaServers.HSQLDB, ReplicaServers.POSTGRESQL)), (replicas, mysql, c, s) -> {
            Workloads.update(s, "CREATE TABLE pet (id INT PRIMARY KEY, tag INT, CONSTRAINT uq_pet_tag UNIQUE (tag))");
            Workloads.update(s, "CREATE INDEX ix_pet_tag ON pet (tag)");
            Workloads.update(s, "INSERT INTO pet (id, tag) VALUES (1, 10)");
            Workloads.update(s, mysql ? "DROP INDEX ix_pet_tag ON pet" : "DROP INDEX ix_pet_tag");
            Workloads.update(s, "CREATE INDEX ix_pet_tag ON pet (tag)");
            Workloads.update(s, "INSERT INTO pet (id, tag) VALUES (2, 20)");
            assertThatThrownBy(() -> Workloads.update(s, mysql ? "DROP INDEX ix_none ON pet" : "DROP INDEX ix_none"))
                    .as("an index made nowhere").isInstanceOf(SQLException.class);
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).as(replicas.toString()).isEmpty();
            assertThat(c.statusRows()).as(replicas.toString()).allSatisfy(r -> assertThat(r.state()).isEqualTo("up"));
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "pet", "id");
        });
    }

    /**
     * What the engines that made an index Derby declined do to it, Derby's record does too: once the index Derby kept is
     * dropped, the declined one is there on Derby as well (making it again fails everywhere), and it goes with its
     * column's DROP COLUMN, alone or among other changes (dropping it then fails everywhere; the record had outlived the
     * column, and Derby alone answered "done").
     */
    @Test
    void anIndexDerbyDeclinedComesIntoBeingWhenTheKeptOneGoesAndGoesWithItsColumn() throws Exception {
        eachSet(List.of(List.of(ReplicaServers.MARIADB, ReplicaServers.DERBY, ReplicaServers.HSQLDB),
                List.of(ReplicaServers.DERBY, ReplicaServers.HSQLDB, ReplicaServers.POSTGRESQL)), (replicas, mysql, c, s) -> {
            Workloads.update(s, "CREATE TABLE kit (id INT PRIMARY KEY, a INT, d INT)");
            Workloads.update(s, "CREATE INDEX ix_kit_a ON kit (a)");
            Workloads.update(s, "CREATE INDEX ix_kit_a2 ON kit (a)");
            Workloads.update(s, "CREATE INDEX ix_kit_d ON kit (d)");
            Workloads.update(s, "CREATE INDEX ix_kit_d2 ON kit (d)");
            Workloads.update(s, "INSERT INTO kit (id, a, d) VALUES (1, 10, 100)");
            Workloads.update(s, mysql ? "DROP INDEX ix_kit_a ON kit" : "DROP INDEX ix_kit_a");
            assertThatThrownBy(() -> Workloads.update(s, "CREATE INDEX ix_kit_a2 ON kit (a)"))
                    .as("there on every replica").isInstanceOf(SQLException.class);
            // from a MySQL client, one of several changes: the first of the statements Derby runs one by one
            Workloads.update(s, mysql ? "ALTER TABLE kit DROP COLUMN d, ADD COLUMN e INT" : "ALTER TABLE kit DROP COLUMN d");
            assertThatThrownBy(() -> Workloads.update(s, mysql ? "DROP INDEX ix_kit_d2 ON kit" : "DROP INDEX ix_kit_d2"))
                    .as("gone with its column on every replica").isInstanceOf(SQLException.class);
            // the name is free again everywhere (a MariaDB primary runs no statement it refused on its secondaries)
            Workloads.update(s, "CREATE INDEX ix_kit_d2 ON kit (a)");
            Workloads.update(s, mysql ? "DROP INDEX ix_kit_d2 ON kit" : "DROP INDEX ix_kit_d2");
            Workloads.update(s, "INSERT INTO kit (id, a) VALUES (2, 20)");
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).as(replicas.toString()).isEmpty();
            assertThat(c.statusRows()).as(replicas.toString()).allSatisfy(r -> assertThat(r.state()).isEqualTo("up"));
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "kit", "id");
        });
    }

    /**
     * MySQL names indexes per table, Derby and HSQLDB per schema: a MySQL client's index named as another table's (a
     * common name such as meta_key; also a UNIQUE constraint or key) is refused before it runs, with a name to use
     * instead. It used to run on the MariaDB primary, whose DDL commits at once, and be refused by the other replicas:
     * the transaction was aborted with "retry", and the schemas differed. The same name on the same table (a second
     * index, refused by MySQL itself) and on a table of another schema are left to the engines.
     */
    @Test
    void anIndexNamedAsAnotherTablesIndexIsRefusedBeforeItRuns() throws Exception {
        try (CbsCoordinator c = coordinator(MARIADB_DERBY_HSQLDB, 0); Session s = c.openSession("app", "db")) {
            Workloads.update(s, "CREATE TABLE postmeta (meta_id INT PRIMARY KEY, meta_key VARCHAR(50), code INT,"
                    + " CONSTRAINT uq_code UNIQUE (code))");
            Workloads.update(s, "CREATE TABLE usermeta (umeta_id INT PRIMARY KEY, meta_key VARCHAR(50), code INT)");
            Workloads.update(s, "CREATE INDEX meta_key ON postmeta (meta_key)");
            assertThatThrownBy(() -> Workloads.update(s, "CREATE INDEX META_KEY ON usermeta (meta_key)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"))
                    .hasMessageContaining("table postmeta has an index of that name").hasMessageContaining("usermeta_META_KEY");
            assertThatThrownBy(() -> Workloads.update(s, "ALTER TABLE usermeta ADD CONSTRAINT uq_code UNIQUE (code)"))
                    .hasMessageContaining("table postmeta has an index of that name");
            assertThatThrownBy(() -> Workloads.update(s, "CREATE TABLE termmeta (id INT PRIMARY KEY, code INT,"
                    + " CONSTRAINT uq_code UNIQUE (code))")).hasMessageContaining("table postmeta has an index of that name");
            assertThatThrownBy(() -> Workloads.update(s, "CREATE TABLE termmeta (id INT PRIMARY KEY, meta_key VARCHAR(50),"
                    + " KEY meta_key (meta_key))")).hasMessageContaining("table postmeta has an index of that name");
            assertThatThrownBy(() -> Workloads.update(s, "ALTER TABLE usermeta ADD INDEX meta_key (meta_key)"))
                    .hasMessageContaining("table postmeta has an index of that name");
            Workloads.update(s, "CREATE INDEX usermeta_meta_key ON usermeta (meta_key)");
            Workloads.update(s, "INSERT INTO usermeta (umeta_id, meta_key, code) VALUES (1, 'a', 7)");
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).isEmpty();
            assertThat(c.statusRows()).allSatisfy(r -> assertThat(r.state()).isEqualTo("up"));
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "usermeta", "umeta_id");
        }
    }

    /**
     * MySQL's KEYs inside CREATE TABLE (as mysqldump and most MySQL schemas write them), its ALTER TABLE ... ADD INDEX and
     * ADD UNIQUE KEY: CREATE INDEX statements after the table and UNIQUE constraints on Derby, HSQLDB and PostgreSQL,
     * so that every replica has the indexes (they were refused). A KEY that Derby declines as a duplicate (of the primary
     * key's, of a UNIQUE constraint's) is recorded there among the statements, and dropped alike; the unique keys answer
     * a duplicate alike; CREATE TABLE IF NOT EXISTS of a table that is there does nothing, its indexes included. MySQL's
     * DROP INDEX and ALTER TABLE ... DROP INDEX|KEY of a unique key drop the UNIQUE constraint of that name elsewhere. A
     * column's CHARACTER SET and COLLATE are left out, as a table's are: every replica compares as its setup says.
     */
    @Test
    void mysqlKeysInsideCreateTableAndAlterTableMakeIndexesOnEveryEngine() throws Exception {
        eachSet(List.of(MARIADB_DERBY_HSQLDB, List.of(ReplicaServers.MARIADB, ReplicaServers.HSQLDB, ReplicaServers.POSTGRESQL)),
                (replicas, mysql, c, s) -> {
            Workloads.update(s, "CREATE TABLE `postmeta` (`meta_id` BIGINT NOT NULL AUTO_INCREMENT, `post_id` BIGINT NOT NULL"
                    + " DEFAULT 0, `meta_key` VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci DEFAULT NULL,"
                    + " PRIMARY KEY (`meta_id`), KEY `post_id` (`post_id`),"
                    + " KEY `pm_meta_key` (`meta_key`, `post_id` DESC) USING BTREE)");
            Workloads.update(s, "CREATE TABLE code (id INT PRIMARY KEY, code INT, UNIQUE KEY uq_code (code), KEY ix_id (id),"
                    + " KEY ix_code (code))");
            // mysqldump's foreign key: the KEY MySQL made for it has the constraint's name
            Workloads.update(s, "CREATE TABLE `code_use` (`id` INT NOT NULL, `code_id` INT DEFAULT NULL, PRIMARY KEY (`id`),"
                    + " KEY `fk_use_code` (`code_id`), CONSTRAINT `fk_use_code` FOREIGN KEY (`code_id`) REFERENCES `code` (`id`))"
                    + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
            Workloads.update(s, "ALTER TABLE code ADD COLUMN n INT, ADD INDEX ix_n (n)");
            Workloads.update(s, "ALTER TABLE code ADD UNIQUE KEY uq_n (n)");
            Workloads.update(s, "INSERT INTO code (id, code, n) VALUES (1, 10, 100), (2, 20, 200)");
            assertThatThrownBy(() -> Workloads.update(s, "INSERT INTO code (id, code, n) VALUES (3, 10, 300)"))
                    .as("uq_code").isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> Workloads.update(s, "INSERT INTO code (id, code, n) VALUES (3, 30, 200)"))
                    .as("uq_n").isInstanceOf(SQLException.class);
            Workloads.update(s, "INSERT INTO postmeta (post_id, meta_key) VALUES (7, 'a'), (7, 'b')");
            // the column's collation is the replica setup's on every replica: case-sensitive everywhere
            assertThat(firstColumn(s, "SELECT COUNT(*) FROM postmeta WHERE meta_key = 'A'")).containsExactly("0");
            Workloads.update(s, "INSERT INTO code_use (id, code_id) VALUES (1, 1), (2, NULL)");
            Workloads.update(s, "CREATE TABLE IF NOT EXISTS code (id INT PRIMARY KEY, KEY ix_other (id))");
            Workloads.update(s, "DROP INDEX ix_id ON code");
            Workloads.update(s, "DROP INDEX ix_code ON code");
            Workloads.update(s, "DROP INDEX pm_meta_key ON postmeta");
            assertThatThrownBy(() -> Workloads.update(s, "DROP INDEX ix_other ON code"))
                    .as("made nowhere").isInstanceOf(SQLException.class);
            Workloads.update(s, "INSERT INTO code (id, code, n) VALUES (3, 30, 300)");
            // MySQL drops a UNIQUE KEY as an index: the UNIQUE constraint of that name elsewhere
            Workloads.update(s, "ALTER TABLE code DROP INDEX uq_n");
            Workloads.update(s, "DROP INDEX uq_code ON code");
            Workloads.update(s, "ALTER TABLE code DROP KEY ix_n");
            Workloads.update(s, "INSERT INTO code (id, code, n) VALUES (4, 30, 300)"); // no unique key left
            assertThatThrownBy(() -> Workloads.update(s, "ALTER TABLE code DROP INDEX uq_n"))
                    .as("dropped everywhere").isInstanceOf(SQLException.class);
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).as(replicas.toString()).isEmpty();
            assertThat(c.statusRows()).as(replicas.toString()).allSatisfy(r -> assertThat(r.state()).isEqualTo("up"));
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "code", "id");
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "postmeta", "meta_id");
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "code_use", "id");
        });
    }

    /**
     * MySQL's multi-table DELETE of one table with inner joins (orphan and cleanup queries) deletes the same rows on every
     * engine: DELETE ... WHERE EXISTS where the engine has no such DELETE (it was sent as written, and Derby, HSQLDB and
     * PostgreSQL refused it after the MariaDB primary ran it); so does its UPDATE of a join, a value read from the joined
     * table by a subquery; and the orphan cleanup (LEFT JOIN ... WHERE u.k IS NULL), NOT EXISTS elsewhere. With another
     * outer join, or of several tables: refused before they run, where a replica is of another engine.
     */
    @Test
    void mysqlMultiTableDeleteAndUpdateChangeTheSameRowsOnEveryEngine() throws Exception {
        eachSet(List.of(MARIADB_DERBY_HSQLDB, List.of(ReplicaServers.MARIADB, ReplicaServers.HSQLDB, ReplicaServers.POSTGRESQL)),
                (replicas, mysql, c, s) -> {
            Workloads.update(s, "CREATE TABLE post (id INT PRIMARY KEY, author INT, draft INT)");
            Workloads.update(s, "CREATE TABLE author (id INT PRIMARY KEY, banned INT)");
            Workloads.update(s, "CREATE TABLE tag (post_id INT, name VARCHAR(10), PRIMARY KEY (post_id, name))");
            Workloads.update(s, "INSERT INTO author (id, banned) VALUES (1, 0), (2, 1), (3, 1)");
            Workloads.update(s, "INSERT INTO post (id, author, draft) VALUES (10, 1, 0), (11, 2, 0), (12, 2, 1), (13, 3, 1),"
                    + " (14, 1, 1)");
            Workloads.update(s, "INSERT INTO tag (post_id, name) VALUES (10, 'a'), (11, 'a'), (12, 'b'), (13, 'c'), (14, 'd')");
            assertThat(Workloads.update(s, "DELETE p FROM post AS p JOIN author a ON a.id = p.author AND a.banned = ? WHERE"
                    + " p.draft = ?", 1, 1)).isEqualTo(2);
            assertThat(Workloads.update(s, "DELETE tag FROM tag, post WHERE post.id = tag.post_id AND post.author = 2"))
                    .isEqualTo(1);
            // the orphans: NOT EXISTS elsewhere
            assertThat(Workloads.update(s, "DELETE tag FROM tag LEFT JOIN post ON post.id = tag.post_id WHERE post.id IS NULL"
                    + " AND tag.name <> ?", "z")).isEqualTo(2);
            assertThatThrownBy(() -> Workloads.update(s, "DELETE tag FROM tag LEFT JOIN post ON post.id = tag.post_id"
                    + " WHERE post.draft IS NULL")).isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(e.getSQLState()).isEqualTo("0A000"));
            // UPDATE of a join: a value read from the joined table; markers in the SET and the WHERE
            Workloads.update(s, "INSERT INTO post (id, author, draft) VALUES (20, 2, 0), (21, 3, 0)");
            assertThat(Workloads.update(s, "UPDATE post JOIN author ON author.id = post.author AND author.id > ? SET post.draft ="
                    + " author.banned + ?, post.id = post.id + ? WHERE author.banned = ?", 0, 5, 100, 1)).isEqualTo(3);
            assertThat(Workloads.update(s, "UPDATE post p, author a SET p.draft = 0 WHERE a.id = p.author AND a.id = 1"))
                    .isEqualTo(2);
            assertThatThrownBy(() -> Workloads.update(s, "UPDATE post JOIN author ON author.id = post.author SET post.draft = 1,"
                    + " author.banned = 0")).isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(e.getSQLState()).isEqualTo("0A000"));
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).as(replicas.toString()).isEmpty();
            assertThat(firstColumn(s, "SELECT id FROM post ORDER BY id")).containsExactly("10", "14", "111", "120", "121");
            assertThat(firstColumn(s, "SELECT draft FROM post ORDER BY id")).containsExactly("0", "0", "6", "6", "6");
            // a shared locking read: a plain SELECT at SERIALIZABLE on every replica
            assertThat(firstColumn(s, "SELECT id FROM post WHERE id = 10 LOCK IN SHARE MODE")).containsExactly("10");
            assertThat(firstColumn(s, "SELECT name FROM tag ORDER BY name")).containsExactly("a", "d");
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "post", "id");
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "tag", "post_id");
        });
    }

    /**
     * A MySQL application's reporting and housekeeping SQL over a MariaDB primary and secondaries of other engines:
     * IF, GREATEST, DATE_FORMAT, DATEDIFF, DATE_ADD/DATE_SUB with the pinned clock, LEFT, SUBSTRING from the end. Each
     * is written in the secondaries' own SQL (they were refused before, or failed there after the primary ran them);
     * every answer is voted equal, and the rows the writes leave are equal on every replica.
     */
    @Test
    void mysqlFunctionsOfEveryDayRunOnEveryEngine() throws Exception {
        eachSet(List.of(MARIADB_DERBY_HSQLDB, List.of(ReplicaServers.MARIADB, ReplicaServers.DERBY, ReplicaServers.POSTGRESQL)),
                (replicas, mysql, c, s) -> {
            Workloads.update(s, "CREATE TABLE invoice (id INT PRIMARY KEY, customer VARCHAR(20), amount DECIMAL(9, 2),"
                    + " discount DECIMAL(9, 2), issued DATE, paid TIMESTAMP NULL, due DATE)");
            Workloads.update(s, "INSERT INTO invoice (id, customer, amount, discount, issued, paid, due) VALUES"
                    + " (1, 'ACME-0001', 120.00, 20.00, DATE '2024-01-31', TIMESTAMP '2024-02-10 09:30:00', NULL),"
                    + " (2, 'ACME-0002', 80.50, NULL, DATE '2024-02-29', NULL, NULL),"
                    + " (3, 'INITECH-07', 15.25, 30.00, DATE '2025-12-31', TIMESTAMP '2026-01-02 23:59:59', NULL)");
            s.setAutoCommit(false);
            assertThat(Workloads.update(s, "UPDATE invoice SET due = DATE_ADD(issued, INTERVAL ? MONTH)", 1)).isEqualTo(3);
            assertThat(Workloads.update(s, "UPDATE invoice SET paid = NOW() WHERE paid IS NULL AND issued < DATE_SUB(CURDATE(),"
                    + " INTERVAL 30 DAY)")).isEqualTo(1);
            s.commit();
            s.setAutoCommit(true);
            assertThat(firstColumn(s, "SELECT DATE_FORMAT(due, '%Y-%m-%d') FROM invoice ORDER BY id"))
                    .containsExactly("2024-02-29", "2024-03-29", "2026-01-31");
            assertThat(firstColumn(s, "SELECT CONCAT(LEFT(customer, 4), '/', SUBSTRING(customer, -2), ' ', IF(paid IS NULL,"
                    + " 'open', 'paid')) FROM invoice ORDER BY id")).containsExactly("ACME/01 paid", "ACME/02 paid", "INIT/07 paid");
            assertThat(firstColumn(s, "SELECT GREATEST(amount - COALESCE(discount, 0), 0) FROM invoice ORDER BY id"))
                    .map(BigDecimal::new).usingElementComparator(BigDecimal::compareTo)
                    .containsExactly(new BigDecimal("100"), new BigDecimal("80.5"), BigDecimal.ZERO);
            assertThat(firstColumn(s, "SELECT DATE_FORMAT(issued, '%Y-%m') AS month FROM invoice WHERE DATEDIFF(paid, issued)"
                    + " BETWEEN 0 AND 10 ORDER BY month")).containsExactly("2024-01", "2025-12");
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).as(replicas.toString()).isEmpty();
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "invoice", "id");
        });
    }

    /**
     * The clocks an engine reads for itself (a MySQL client's UNIX_TIMESTAMP(), UTC_DATE() and UTC_TIME(); an HSQLDB
     * client's UNIX_MILLIS() and TODAY) are the coordinator's one time on every replica: with its clock set to a day
     * in 2021, every replica writes that day's values (each engine's own clock would write today's).
     */
    @Test
    void clocksAnEngineReadsForItselfAreTheCoordinatorsOneTime() throws Exception {
        java.time.Instant at = java.time.Instant.parse("2021-06-30T23:59:58.250Z");
        CbsCore.Settings settings = CbsCore.Settings.defaults(1, ExecutionMode.CBS)
                .withPinning(new CbsCore.Pinning(at::toEpochMilli, SEED));
        try (CbsCoordinator c = coordinator(MARIADB_DERBY_HSQLDB, 0, settings); Session s = c.openSession("app", "db")) {
            Workloads.update(s, "CREATE TABLE stamp (id INT PRIMARY KEY, secs BIGINT, day DATE, tm TIME)");
            Workloads.update(s, "INSERT INTO stamp (id, secs, day, tm) VALUES (1, UNIX_TIMESTAMP(), UTC_DATE(), UTC_TIME())");
            Workloads.update(s, "INSERT INTO stamp (id, secs, day, tm) SELECT 2, UNIX_TIMESTAMP() - secs, UTC_DATE, NULL FROM stamp");
            assertThat(firstColumn(s, "SELECT secs FROM stamp ORDER BY id")).containsExactly("1625097598", "0");
            assertThat(firstColumn(s, "SELECT day FROM stamp ORDER BY id")).containsExactly("2021-06-30", "2021-06-30");
            assertThat(firstColumn(s, "SELECT tm FROM stamp ORDER BY id")).containsExactly("23:59:58", "null");
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).isEmpty();
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "stamp", "id");
        }
        try (CbsCoordinator c = coordinator(List.of(ReplicaServers.HSQLDB, ReplicaServers.DERBY, ReplicaServers.MARIADB), 0,
                settings); Session s = c.openSession("app", "db")) {
            Workloads.update(s, "CREATE TABLE stamp (id INT PRIMARY KEY, ms BIGINT, day DATE)");
            Workloads.update(s, "INSERT INTO stamp (id, ms, day) VALUES (1, UNIX_MILLIS(), TODAY)");
            assertThat(firstColumn(s, "SELECT ms FROM stamp")).containsExactly("1625097598250");
            assertThat(firstColumn(s, "SELECT day FROM stamp"))
                    .containsExactly(java.time.LocalDate.ofInstant(at, java.time.ZoneId.systemDefault()).toString());
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).isEmpty();
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "stamp", "id");
        }
    }

    /**
     * A MySQL table as MySQL users write it, through the shepherd: a table named {@code user}, columns named {@code year}
     * and {@code end} (reserved on Derby, {@code user} and {@code end} on PostgreSQL), unnamed {@code KEY (year)} and
     * {@code UNIQUE KEY (end)}. Before, the parser did not read the unnamed keys and the names failed on Derby: the
     * statement was refused with replicas of other engines. Then columns named with words the parser takes as keywords
     * ({@code current}, {@code global}; {@code REFERENCES user}, {@code DROP COLUMN}, {@code RENAME COLUMN} of such
     * names), which it refused (42000) before anything ran.
     */
    @Test
    void aMysqlTableWithReservedNamesAndUnnamedKeysRunsOnEveryEngine() throws Exception {
        eachSet(List.of(MARIADB_DERBY_HSQLDB, List.of(ReplicaServers.MARIADB, ReplicaServers.DERBY, ReplicaServers.POSTGRESQL)),
                (replicas, mysql, c, s) -> {
            Workloads.update(s, "CREATE TABLE user (id INT PRIMARY KEY, year INT, end DATE, first VARCHAR(20), KEY (year),"
                    + " UNIQUE KEY (end))");
            Workloads.update(s, "INSERT INTO user (id, year, end, first) VALUES (1, 2024, DATE '2024-12-31', 'Ada'),"
                    + " (2, 2025, NULL, 'Alan')");
            assertThatThrownBy(() -> Workloads.update(s, "INSERT INTO user (id, year, end) VALUES (3, 2026, DATE '2024-12-31')"))
                    .isInstanceOf(SQLException.class).extracting(e -> ((SQLException) e).getSQLState()).asString().startsWith("23");
            assertThat(Workloads.update(s, "UPDATE user SET year = year + 1 WHERE end IS NULL")).isEqualTo(1);
            assertThat(firstColumn(s, "SELECT first FROM user u WHERE u.year > 2024 ORDER BY year")).containsExactly("Alan");
            // a ? alone in a select list, bound to a string, a number and NULL (cast by value on Derby and HSQLDB)
            for (Object tag : java.util.Arrays.asList("x", 5L, null)) {
                assertThat(Workloads.query(s, "SELECT ? AS tag, id FROM user WHERE id = 1", tag)).as("tag %s", tag)
                        .extracting(r -> r[0] == null ? null : String.valueOf(r[0])).containsExactly(tag == null ? null : tag.toString());
            }
            Workloads.update(s, "CREATE TABLE tally (id INT PRIMARY KEY, current INT, global INT, owner INT REFERENCES user (id))");
            Workloads.update(s, "INSERT INTO tally (id, current, global, owner) VALUES (1, 10, 20, 1), (2, 30, 40, 2)");
            assertThat(Workloads.update(s, "UPDATE tally SET current = current + 1, global = ? WHERE current = ?", 21, 10))
                    .isEqualTo(1);
            assertThat(Workloads.query(s, "SELECT current, global FROM tally WHERE current < 20 ORDER BY current"))
                    .extracting(r -> ((Number) r[0]).intValue() + "/" + ((Number) r[1]).intValue()).containsExactly("11/21");
            Workloads.update(s, "ALTER TABLE tally DROP COLUMN global");
            Workloads.update(s, "ALTER TABLE tally RENAME COLUMN current TO level");
            assertThat(firstColumn(s, "SELECT level FROM tally ORDER BY id")).containsExactly("11", "30");
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).as(replicas.toString()).isEmpty();
            for (String table : List.of("user", "tally")) {
                assertThat(c.verify(table)).extracting(r -> r.table().toLowerCase(java.util.Locale.ROOT) + ": " + r.result())
                        .containsExactly(table + ": equal");
            }
        });
    }

    /**
     * Times bound with nanoseconds, as Java's clocks give them ({@code LocalDateTime.now()}): Derby kept every digit,
     * MariaDB truncated to the column's precision, PostgreSQL rounded (a TIME, which has no fraction, to the next
     * second), so the replicas stored different rows (found by {@code verify}, and a majority-less vote when the three
     * differ). The shepherd now cuts each bound time value once, by the client's engine's rule, to the precision of
     * the column it is stored into (a MySQL DATETIME(3) too), or to microseconds; a comparison with such a value finds
     * the row on every replica.
     */
    @Test
    void timesBoundWithNanosecondsAreStoredAlikeEverywhere() throws Exception {
        eachSet(List.of(MARIADB_DERBY_HSQLDB, List.of(ReplicaServers.DERBY, ReplicaServers.MARIADB, ReplicaServers.POSTGRESQL)),
                (replicas, mysql, c, s) -> {
            java.time.LocalDateTime at = java.time.LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_556_789);
            java.time.LocalTime time = java.time.LocalTime.of(10, 11, 12, 600_000_000);
            if (mysql) {
                Workloads.update(s, "CREATE TABLE clock (id INT PRIMARY KEY, at6 DATETIME(6), t TIME, at3 DATETIME(3))");
                Workloads.update(s, "INSERT INTO clock (id, at6, t, at3) VALUES (?, ?, ?, ?)", 1, at, time, at);
                Workloads.update(s, "INSERT INTO clock (id, at6, t, at3) VALUES (2, ?, ?, ?)", at.plusNanos(100), time, at);
                assertThat(Workloads.update(s, "UPDATE clock SET at3 = ? WHERE id = ?", at.plusNanos(500_000), 2)).isEqualTo(1);
            } else {
                Workloads.update(s, "CREATE TABLE clock (id INT PRIMARY KEY, at6 TIMESTAMP, t TIME)");
                Workloads.update(s, "INSERT INTO clock (id, at6, t) VALUES (?, ?, ?)", 1, at, time);
                Workloads.update(s, "INSERT INTO clock (id, at6, t) VALUES (2, ?, ?)", at.plusNanos(100), time);
            }
            assertThat(Workloads.query(s, "SELECT id FROM clock WHERE at6 = ? ORDER BY id", at))
                    .extracting(r -> ((Number) r[0]).intValue()).as(replicas.toString()).containsExactly(1, 2);
            assertThat(Workloads.query(s, "SELECT at6, t FROM clock WHERE id = 1"))
                    .extracting(r -> r[0] + " " + r[1]).containsExactly("2024-05-06T07:08:09.123556 10:11:12");
            if (mysql) {
                assertThat(Workloads.query(s, "SELECT at3 FROM clock ORDER BY id")).extracting(r -> String.valueOf(r[0]))
                        .containsExactly("2024-05-06T07:08:09.123", "2024-05-06T07:08:09.124");
            }
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).as(replicas.toString()).isEmpty();
            assertThat(c.verify("clock")).extracting(r -> r.table().toLowerCase(java.util.Locale.ROOT) + ": " + r.result())
                    .as(replicas.toString()).containsExactly("clock: equal");
        });
    }

    /**
     * MySQL's GROUP_CONCAT over MariaDB, HSQLDB and PostgreSQL (Derby has none): PostgreSQL gets STRING_AGG of the
     * values as text; without an ORDER BY the three engines joined the values in orders of their own (now ordered by
     * the values everywhere); with DISTINCT, numbers, several expressions, a separator. Before, PostgreSQL refused it.
     * And FIND_IN_SET, which HSQLDB and PostgreSQL lack, and SPACE, which PostgreSQL lacks (refused before).
     */
    @Test
    void groupConcatAndFindInSetAnswerAlikeOnEveryEngine() throws Exception {
        eachSet(List.of(List.of(ReplicaServers.MARIADB, ReplicaServers.HSQLDB, ReplicaServers.POSTGRESQL)), (replicas, mysql, c, s) -> {
            Workloads.update(s, "CREATE TABLE gc (id INT PRIMARY KEY, g INT, s VARCHAR(5), n INT, d DECIMAL(5, 2))");
            Workloads.update(s, "INSERT INTO gc (id, g, s, n, d) VALUES (1, 1, 'b', 2, 1.50), (2, 1, 'a', 1, NULL),"
                    + " (3, 1, NULL, 3, 0.25), (4, 2, 'c', 10, 2.00), (5, 2, 'c', 9, -1.00), (6, 3, NULL, NULL, NULL)");
            assertThat(Workloads.query(s, "SELECT g, GROUP_CONCAT(s) AS a, GROUP_CONCAT(n ORDER BY n DESC SEPARATOR '-') AS b,"
                    + " GROUP_CONCAT(s, n ORDER BY id) AS c FROM gc GROUP BY g ORDER BY g"))
                    .extracting(r -> r[0] + " " + r[1] + " " + r[2] + " " + r[3])
                    .containsExactly("1 a,b 3-2-1 b2,a1", "2 c,c 10-9 c10,c9", "3 null null null");
            assertThat(Workloads.query(s, "SELECT g, GROUP_CONCAT(DISTINCT s ORDER BY s DESC SEPARATOR ';') AS a,"
                    + " GROUP_CONCAT(d) AS b FROM gc GROUP BY g ORDER BY g"))
                    .extracting(r -> r[0] + " " + r[1] + " " + r[2])
                    .containsExactly("1 b;a 0.25,1.50", "2 c -1.00,2.00", "3 null null");
            Workloads.update(s, "INSERT INTO gc (id, g, s) VALUES (7, 4, 'B'), (8, 4, 'a'), (9, 4, 'A')");
            assertThat(Workloads.query(s, "SELECT GROUP_CONCAT(s) AS a FROM gc WHERE g = 4")).extracting(r -> r[0])
                    .as("strings ordered by their code points, as the replicas are set up to compare them").containsExactly("A,B,a");
            assertThatThrownBy(() -> Workloads.query(s, "SELECT GROUP_CONCAT(DISTINCT n) AS a FROM gc"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("DISTINCT");
            // FIND_IN_SET, which HSQLDB and PostgreSQL lack: the commas before the item in ',' || list || ','
            Workloads.update(s, "CREATE TABLE fis (id INT PRIMARY KEY, item VARCHAR(5), list VARCHAR(20))");
            Workloads.update(s, "INSERT INTO fis (id, item, list) VALUES (1, 'b', 'a,b,c'), (2, 'a', 'a,b,c'), (3, 'd', 'a,b,c'),"
                    + " (4, '', 'a,,b'), (5, 'x', ''), (6, NULL, 'a'), (7, 'a', NULL), (8, 'a,b', 'a,b,c'), (9, 'c', 'c')");
            assertThat(Workloads.query(s, "SELECT id, FIND_IN_SET(item, list) AS p FROM fis ORDER BY id"))
                    .extracting(r -> r[0] + ":" + r[1])
                    .containsExactly("1:2", "2:1", "3:0", "4:2", "5:0", "6:null", "7:null", "8:0", "9:1");
            assertThat(Workloads.query(s, "SELECT id FROM fis WHERE FIND_IN_SET(?, list) > 0 ORDER BY id", "c"))
                    .extracting(r -> ((Number) r[0]).intValue()).containsExactly(1, 2, 3, 8, 9);
            assertThat(Workloads.query(s, "SELECT id, CONCAT('[', SPACE(id - 7), ']') AS pad FROM fis WHERE id > 6 ORDER BY id"))
                    .extracting(r -> r[1]).containsExactly("[]", "[ ]", "[  ]");
            assertThat(Workloads.query(s, "SELECT id, REPEAT(item, id - 7) AS r, LPAD(item, id - 6, '*') AS l, REPEAT(id, 2) AS n"
                    + " FROM fis WHERE id > 7 ORDER BY id")).extracting(r -> r[1] + " " + r[2] + " " + r[3])
                    .containsExactly("a,b a, 88", "cc **c 99");
            assertThat(Workloads.query(s, "SELECT LEFT(item, id - 7) AS l, RIGHT(list, id - 7) AS r FROM fis WHERE id > 7 ORDER BY id"))
                    .extracting(r -> r[0] + " " + r[1]).containsExactly("a c", "c c");
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).as(replicas.toString()).isEmpty();
        });
    }

    /**
     * A Derby client's DROP INDEX names no table, which MariaDB needs: the MariaDB replica reads the index's table from
     * its own catalog. IF EXISTS of an index made nowhere does nothing anywhere; without it every replica fails.
     */
    @Test
    void aDerbyClientsDropIndexFindsItsTableOnAMariaDbReplica() throws Exception {
        try (CbsCoordinator c = coordinator(List.of(ReplicaServers.DERBY, ReplicaServers.MARIADB, ReplicaServers.HSQLDB), 0);
                Session s = c.openSession("app", "db")) {
            Workloads.update(s, "CREATE TABLE toy (id INT PRIMARY KEY, color VARCHAR(10), size INT)");
            Workloads.update(s, "CREATE INDEX ix_toy_color ON toy (color)");
            Workloads.update(s, "CREATE INDEX ix_toy_size ON toy (size)");
            Workloads.update(s, "INSERT INTO toy (id, color, size) VALUES (1, 'red', 3)");
            Workloads.update(s, "DROP INDEX ix_toy_color");
            Workloads.update(s, "DROP INDEX " + c.databaseInfo().defaultSchema() + ".IX_TOY_SIZE");
            Workloads.update(s, "DROP INDEX IF EXISTS ix_toy_color");
            assertThatThrownBy(() -> Workloads.update(s, "DROP INDEX ix_toy_color")).isInstanceOf(SQLException.class);
            Workloads.update(s, "CREATE INDEX ix_toy_color ON toy (color, size)");
            Workloads.update(s, "INSERT INTO toy (id, color, size) VALUES (2, 'blue', 1)");
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).isEmpty();
            assertThat(c.statusRows()).allSatisfy(r -> assertThat(r.state()).isEqualTo("up"));
            ReplicaPool mariadb = ReplicaTables.pools(c).stream().filter(p -> p.spec().dialect().equals("mariadb")).findFirst()
                    .orElseThrow();
            try (Connection direct = mariadb.acquireForMetadata(); Statement st = direct.createStatement();
                    ResultSet rs = st.executeQuery("SELECT INDEX_NAME, COUNT(*) FROM information_schema.STATISTICS"
                            + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'toy' GROUP BY INDEX_NAME ORDER BY INDEX_NAME")) {
                List<String> indexes = new ArrayList<>();
                while (rs.next()) indexes.add(rs.getString(1) + " " + rs.getInt(2));
                assertThat(indexes).containsExactlyInAnyOrder("PRIMARY 1", "ix_toy_color 2");
                direct.rollback();
            }
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "toy", "id");
        }
    }

    /**
     * A column added with a DEFAULT that reads the clock: the rows already there get one time on every replica (each
     * would fill them with its own), later INSERTs that leave the column out the pinned time, NOT NULL or not, from a
     * MySQL client over MariaDB, Derby and HSQLDB and from a Derby client over Derby, MariaDB and PostgreSQL; and MySQL's
     * ON UPDATE CURRENT_TIMESTAMP in an added column, which each UPDATE then sets on every replica alike.
     */
    @Test
    void aColumnAddedWithAClockDefaultGivesTheRowsThereOneTimeEverywhere() throws Exception {
        eachSet(List.of(List.of(ReplicaServers.MARIADB, ReplicaServers.DERBY, ReplicaServers.HSQLDB),
                List.of(ReplicaServers.DERBY, ReplicaServers.MARIADB, ReplicaServers.POSTGRESQL)), (replicas, mysql, c, s) -> {
            Workloads.update(s, "CREATE TABLE ev (id INT PRIMARY KEY, name VARCHAR(10))");
            Workloads.update(s, "INSERT INTO ev (id, name) VALUES (1, 'a'), (2, 'b')");
            Workloads.update(s, mysql ? "ALTER TABLE ev ADD COLUMN created DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)"
                    : "ALTER TABLE ev ADD COLUMN created TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP");
            Workloads.update(s, "ALTER TABLE ev ADD COLUMN day DATE DEFAULT CURRENT_DATE");
            Workloads.update(s, "INSERT INTO ev (id, name) VALUES (3, 'c')");
            List<Object[]> rows = Workloads.query(s, "SELECT id, created, day FROM ev ORDER BY id");
            assertThat(rows).hasSize(3).allSatisfy(r -> assertThat(r[1]).isNotNull()).allSatisfy(r -> assertThat(r[2]).isNotNull());
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).as(replicas.toString()).isEmpty();
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "ev", "id");
            if (!mysql) return;
            // MySQL's ON UPDATE in an added column: kept on MariaDB, set by each UPDATE (pinned) elsewhere
            Workloads.update(s, "ALTER TABLE ev ADD COLUMN changed DATETIME(6) NULL DEFAULT CURRENT_TIMESTAMP(6)"
                    + " ON UPDATE CURRENT_TIMESTAMP(6)");
            Workloads.update(s, "UPDATE ev SET name = 'z' WHERE id = 1");
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).isEmpty();
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "ev", "id");
            assertThat(firstColumn(s, "SELECT EXTRA FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()"
                    + " AND TABLE_NAME = 'ev' AND COLUMN_NAME = 'changed'")).singleElement().asString()
                    .containsIgnoringCase("on update");
        });
    }

    /**
     * An ALTER TABLE of several changes (as Liquibase writes one for MySQL): as written on MariaDB, all or none; one
     * statement per change on Derby, HSQLDB and PostgreSQL, in an order in which each can run (the old constraint and
     * column dropped first, the columns added before the constraint on them), a column added with a clock DEFAULT giving
     * the rows there one time everywhere. ALTER TABLE IF EXISTS of a table that is not there is done on every engine,
     * also where its IF EXISTS is emulated (the first of its statements finds no table).
     */
    @Test
    void severalChangesOfOneAlterTableRunOneByOneWhereTheEngineTakesOne() throws Exception {
        eachSet(List.of(MARIADB_DERBY_HSQLDB, List.of(ReplicaServers.DERBY, ReplicaServers.MARIADB, ReplicaServers.POSTGRESQL)),
                (replicas, mysql, c, s) -> {
            Workloads.update(s, "CREATE TABLE kid (id INT PRIMARY KEY, name VARCHAR(10), s INT, mom INT,"
                    + " CONSTRAINT uq_old UNIQUE (mom))");
            Workloads.update(s, "INSERT INTO kid (id, name, s, mom) VALUES (1, 'a', 1, 1), (2, 'b', 2, 2)");
            Workloads.update(s, "ALTER TABLE kid ADD CONSTRAINT uq_new UNIQUE (age, mom), DROP COLUMN s,"
                    + (mysql ? " MODIFY name VARCHAR(40) NOT NULL," : " ALTER COLUMN name SET DATA TYPE VARCHAR(40),")
                    + " ADD COLUMN age INT NOT NULL DEFAULT 7, DROP CONSTRAINT uq_old,"
                    + (mysql ? " ADD COLUMN created DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6)"
                            : " ADD COLUMN created TIMESTAMP DEFAULT CURRENT_TIMESTAMP"));
            Workloads.update(s, "INSERT INTO kid (id, name, mom) VALUES (3, 'a name of 20 chars.', 3)");
            assertThat(firstColumn(s, "SELECT age FROM kid ORDER BY id")).containsExactly("7", "7", "7");
            assertThatThrownBy(() -> Workloads.update(s, "INSERT INTO kid (id, name, age, mom) VALUES (4, 'd', 7, 2)"))
                    .as("the new constraint").isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("23"));
            Workloads.update(s, "ALTER TABLE IF EXISTS no_such_table ADD COLUMN a INT, ADD COLUMN b INT");
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).as(replicas.toString()).isEmpty();
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "kid", "id");
        });
    }

    /**
     * {@code client.dialect=postgresql} over a MariaDB primary and Derby and PostgreSQL secondaries (PostgreSQL cannot be
     * the primary): an application written for PostgreSQL keeps its SQL. Clients are told the dialect; an unaliased
     * expression is labelled as PostgreSQL labels it ({@code count}, {@code max}, {@code ?column?}, a CAST's column), so
     * that {@code rs.getLong("count")} works as it does against PostgreSQL (it was {@code count(*)}); PostgreSQL's own
     * spellings (ILIKE, CONCAT of a NULL, IS DISTINCT FROM, {@code date + n}, {@code INTERVAL '1 month'}, EXTRACT(DOW))
     * run on every replica with PostgreSQL's answers, where they failed on MariaDB and Derby or answered otherwise there;
     * {@code ||} is concatenation, not MySQL's OR.
     */
    @Test
    void aPostgresqlClientGetsPostgresqlLabelsAndSpellingsOnEveryEngine() throws Exception {
        List<String> replicas = List.of(ReplicaServers.MARIADB, ReplicaServers.DERBY, ReplicaServers.POSTGRESQL);
        try (CbsCoordinator c = postgresqlClientOver(replicas); Session s = c.openSession("app", "db")) {
            assertThat(c.databaseInfo().sqlDialect()).isEqualTo("postgresql");
            assertThat(c.databaseInfo().identifierQuote()).isEqualTo("\"");
            assertThat(c.databaseInfo().productName()).as("the primary's product").containsIgnoringCase("maria");
            Workloads.update(s, "CREATE TABLE pgl (id INTEGER PRIMARY KEY, name VARCHAR(20), nick VARCHAR(20), born DATE)");
            Workloads.update(s, "INSERT INTO pgl (id, name, nick, born) VALUES (1, 'Ann', NULL, DATE '2024-02-29'),"
                    + " (2, 'bob', 'Bobby', DATE '1999-12-31')");
            try (ResultCursor cursor = ((Answer.Rows) s.execute("SELECT count(*), max(id) FROM pgl", List.of(),
                    ExecOptions.DEFAULT)).cursor()) {
                assertThat(cursor.columns()).extracting(col -> col.label().toLowerCase(java.util.Locale.ROOT))
                        .containsExactly("count", "max");
                assertThat(cursor.fetch(10)).extracting(r -> r[0] + " " + r[1]).containsExactly("2 2");
            }
            try (ResultCursor cursor = ((Answer.Rows) s.execute("SELECT id + 1, CAST(id AS TEXT), CASE WHEN id > 1 THEN 'b' END,"
                    + " (SELECT min(name) FROM pgl) FROM pgl ORDER BY 1", List.of(), ExecOptions.DEFAULT)).cursor()) {
                assertThat(cursor.columns()).extracting(col -> col.label().toLowerCase(java.util.Locale.ROOT))
                        .containsExactly("?column?", "id", "case", "min");
                assertThat(cursor.fetch(10)).extracting(r -> r[0] + " " + r[1] + " " + r[2] + " " + r[3])
                        .containsExactly("2 1 null Ann", "3 2 b Ann");
            }
            assertThat(Workloads.query(s, "SELECT id, CONCAT(name, '/', nick) AS c FROM pgl WHERE name ILIKE ? ORDER BY id", "%B%"))
                    .extracting(r -> r[0] + " " + r[1]).containsExactly("2 bob/Bobby");
            assertThat(Workloads.query(s, "SELECT id, CONCAT(name, '/', nick) AS c FROM pgl WHERE nick IS DISTINCT FROM 'Bobby'"
                    + " ORDER BY id")).extracting(r -> r[0] + " " + r[1]).containsExactly("1 Ann/");
            assertThat(Workloads.query(s, "SELECT born + 1 AS a, born - ? AS b, EXTRACT(DOW FROM born) AS d,"
                    + " CAST(born + INTERVAL '1 month' AS DATE) AS m FROM pgl ORDER BY id", 366L))
                    .extracting(r -> r[0] + " " + r[1] + " " + r[2] + " " + r[3])
                    .containsExactly("2024-03-01 2023-02-28 4 2024-03-29", "2000-01-01 1998-12-30 5 2000-01-31");
            assertThat(Workloads.query(s, "SELECT name || '!' AS x FROM pgl WHERE id = 1")).extracting(r -> r[0])
                    .containsExactly("Ann!");
            assertThatThrownBy(() -> Workloads.query(s, "SELECT id FROM pgl WHERE name ~ '^A'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("regular expression")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).as(replicas.toString()).isEmpty();
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "pgl", "id");
            assertThat(c.verify("pgl")).as("the shepherd's own comparison, written in the client's dialect")
                    .extracting(org.shepherd.admin.AdminView.VerifyRow::result).containsExactly("equal");
        }
    }

    /**
     * {@code client.dialect=postgresql} over MariaDB, HSQLDB and PostgreSQL: STRING_AGG is MariaDB's and HSQLDB's
     * GROUP_CONCAT, ordered by the values where the application gives no order (PostgreSQL's own is arbitrary, and the
     * engines joined the values each in its own order); {@code x = ANY(array)} is refused before it runs (the others have
     * no arrays; it failed on the secondaries).
     */
    @Test
    void aPostgresqlClientsStringAggIsGroupConcatElsewhere() throws Exception {
        List<String> replicas = List.of(ReplicaServers.MARIADB, ReplicaServers.HSQLDB, ReplicaServers.POSTGRESQL);
        try (CbsCoordinator c = postgresqlClientOver(replicas); Session s = c.openSession("app", "db")) {
            Workloads.update(s, "CREATE TABLE sa (id INTEGER PRIMARY KEY, g INTEGER, v VARCHAR(10))");
            Workloads.update(s, "INSERT INTO sa (id, g, v) VALUES (1, 1, 'b'), (2, 1, 'a'), (3, 1, NULL), (4, 2, 'c'), (5, 2, 'c'),"
                    + " (6, 1, 'B')");
            assertThat(Workloads.query(s, "SELECT g, string_agg(v, ',') AS a, string_agg(v, '-' ORDER BY id DESC) AS b,"
                    + " string_agg(DISTINCT v, ';') AS c FROM sa GROUP BY g ORDER BY g"))
                    .extracting(r -> r[0] + " " + r[1] + " " + r[2] + " " + r[3])
                    .containsExactly("1 B,a,b B-a-b B;a;b", "2 c,c c-c c");
            assertThatThrownBy(() -> Workloads.query(s, "SELECT id FROM sa WHERE id = ANY(?)", 1L))
                    .isInstanceOf(SQLException.class).hasMessageContaining("arrays")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).as(replicas.toString()).isEmpty();
        }
    }

    /** A coordinator over {@code replicas} (the first the primary) for clients writing PostgreSQL's dialect. */
    private static CbsCoordinator postgresqlClientOver(List<String> replicas) throws SQLException {
        return coordinator(replicas, 0, CbsCore.Settings.defaults(1, ExecutionMode.CBS).withClientDialect("postgresql"));
    }

    /** What a test runs on each replica set: its primary first, whether that is MariaDB (the client writes MySQL). */
    @FunctionalInterface
    private interface OnSet {
        void run(List<String> replicas, boolean mysql, CbsCoordinator c, Session s) throws Exception;
    }

    /** Runs {@code test} over a coordinator of each of {@code sets} (the first replica the primary), one after the other. */
    private static void eachSet(List<List<String>> sets, OnSet test) throws Exception {
        for (List<String> replicas : sets) {
            try (CbsCoordinator c = coordinator(replicas, 0); Session s = c.openSession("app", "db")) {
                test.run(replicas, replicas.get(0).equals(ReplicaServers.MARIADB), c, s);
            }
        }
    }

    /**
     * On replicas that are all MariaDB, what only MySQL and MariaDB say runs as the client wrote it: ALTER TABLE's own
     * clauses (several changes at once, ADD INDEX, COMMENT), a statement the parser reads as one it does not know (CREATE
     * TRIGGER, ALTER ONLINE TABLE) and one it does not read (DROP TRIGGER). Each replica's database is named otherwise
     * (three databases on one server), so a name qualified with the primary's database must lose its qualifier to mean
     * each replica's own. Such a statement inside a transaction commits it first, as MariaDB does, through the shepherd
     * (logged like any commit). With a replica of another engine ALTER TABLE's own clauses are refused before they run.
     */
    @Test
    void mysqlOwnStatementsRunAsWrittenOnThreeMariaDbDatabases() throws Exception {
        int set = servers.newSet();
        List<ReplicaPool> pools = new ArrayList<>();
        for (String suffix : List.of("a", "b", "c")) pools.add(servers.pool(ReplicaServers.MARIADB, "hset" + set + suffix));
        try (CbsCoordinator c = coordinatorOver(pools, 0, CbsCore.Settings.defaults(1, ExecutionMode.CBS));
                Session s = c.openSession("app", "db")) {
            String db = c.databaseInfo().defaultSchema();
            assertThat(db).isEqualTo("hset" + set + "a");
            Workloads.update(s, "CREATE TABLE parent (id INT PRIMARY KEY)");
            Workloads.update(s, "CREATE TABLE kid (id INT PRIMARY KEY, name VARCHAR(20))");
            Workloads.update(s, "ALTER TABLE " + db + ".kid ADD COLUMN mom INT, ADD CONSTRAINT fk_mom FOREIGN KEY (mom)"
                    + " REFERENCES `" + db + "`.parent (id), ADD INDEX ix_name (name), COMMENT = 'kids'");
            Workloads.update(s, "INSERT INTO parent (id) VALUES (1)");
            Workloads.update(s, "INSERT INTO kid (id, name, mom) VALUES (1, 'ann', 1)");
            assertThatThrownBy(() -> Workloads.update(s, "INSERT INTO kid (id, name, mom) VALUES (2, 'bob', 9)"))
                    .as("the foreign key").isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "23000");
            Workloads.update(s, "CREATE TRIGGER " + db + ".kid_upper BEFORE INSERT ON " + db + ".kid FOR EACH ROW"
                    + " SET NEW.name = UPPER(NEW.name)");
            Workloads.update(s, "INSERT INTO kid (id, name, mom) VALUES (3, 'cy', 1)");
            Workloads.update(s, "DROP TRIGGER " + db + ".kid_upper");
            Workloads.update(s, "INSERT INTO kid (id, name, mom) VALUES (4, 'di', 1)");
            assertThat(firstColumn(s, "SELECT name FROM kid ORDER BY id")).containsExactly("ann", "CY", "di");

            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            int logged = ReplicaTables.canonical(pools.get(0), "shepherd_txlog", "txid").size();
            s.setAutoCommit(false);
            Workloads.update(s, "INSERT INTO parent (id) VALUES (2)");
            Workloads.update(s, "ALTER ONLINE TABLE `" + db + "`.kid ADD INDEX ix_mom (mom)");
            Workloads.update(s, "INSERT INTO parent (id) VALUES (3)");
            s.rollback();
            s.setAutoCommit(true);
            assertThat(firstColumn(s, "SELECT id FROM parent ORDER BY id")).containsExactly("1", "2");
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(ReplicaTables.canonical(pools.get(0), "shepherd_txlog", "txid").size())
                    .as("the transaction the ALTER committed was committed by the shepherd").isGreaterThan(logged);
            for (String table : List.of("parent", "kid", "shepherd_txlog")) {
                ReplicaTables.assertEqualEverywhere(pools, table, table.equals("shepherd_txlog") ? "txid" : "id");
            }
            for (ReplicaPool pool : pools) {
                try (Connection conn = pool.acquire(); Statement st = conn.createStatement();
                        java.sql.ResultSet rs = st.executeQuery("SELECT t.table_comment, (SELECT GROUP_CONCAT(DISTINCT"
                                + " i.index_name ORDER BY i.index_name) FROM information_schema.statistics i WHERE i.table_schema"
                                + " = t.table_schema AND i.table_name = 'kid' AND i.index_name LIKE 'ix%') FROM"
                                + " information_schema.tables t WHERE t.table_schema = DATABASE() AND t.table_name = 'kid'")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1) + ": " + rs.getString(2)).as(pool.spec().url()).isEqualTo("kids: ix_mom,ix_name");
                    conn.rollback();
                }
            }
            assertThat(c.divergences().snapshot()).isEmpty();
        }
        try (CbsCoordinator c = coordinator(MARIADB_DERBY_HSQLDB, 0); Session s = c.openSession("app", "db")) {
            Workloads.update(s, "CREATE TABLE kid (id INT PRIMARY KEY, name VARCHAR(20))");
            assertThatThrownBy(() -> Workloads.update(s, "ALTER TABLE kid ADD INDEX ix_name (name), COMMENT = 'kids'"))
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "0A000");
            Workloads.update(s, "CREATE INDEX ix_name ON kid (name)"); // the refused statement made none anywhere
            assertThat(c.divergences().snapshot()).isEmpty();
        }
    }

    /**
     * MySQL, MariaDB and HSQLDB commit the open transaction at a DDL statement, and the DDL with it; Derby and PostgreSQL
     * run DDL inside the transaction. With such a replica among them, DDL does what it does on every replica: a ROLLBACK
     * afterwards undoes neither the rows written before it nor the table it made, anywhere (before, MariaDB and HSQLDB
     * kept them and the others did not), in a batch too. A MariaDB primary and a Derby primary next to the other engines,
     * and Derby, HSQLDB and PostgreSQL without MariaDB.
     */
    @Test
    void ddlInATransactionCommitsItOnEveryReplicaWhenOneCommitsAtDdl() throws Exception {
        for (List<String> names : List.of(MARIADB_DERBY_HSQLDB,
                List.of(ReplicaServers.DERBY, ReplicaServers.MARIADB, ReplicaServers.HSQLDB),
                List.of(ReplicaServers.DERBY, ReplicaServers.HSQLDB, ReplicaServers.POSTGRESQL))) {
            try (CbsCoordinator c = coordinator(names, 0); Session s = c.openSession("app", "db")) {
                Workloads.update(s, "CREATE TABLE tx_before (id INT PRIMARY KEY)");
                s.setAutoCommit(false);
                Workloads.update(s, "INSERT INTO tx_before (id) VALUES (1)");
                Workloads.update(s, "CREATE TABLE tx_made (id INT PRIMARY KEY)");
                Workloads.update(s, "INSERT INTO tx_before (id) VALUES (2)");
                s.rollback();
                s.executeBatch(null, List.of(), List.of("INSERT INTO tx_before (id) VALUES (3)",
                        "CREATE TABLE tx_batch (id INT PRIMARY KEY)", "INSERT INTO tx_before (id) VALUES (4)"), ExecOptions.DEFAULT);
                s.rollback();
                s.setAutoCommit(true);
                assertThat(firstColumn(s, "SELECT id FROM tx_before ORDER BY id")).as("on %s", names).containsExactly("1", "3");
                assertThat(firstColumn(s, "SELECT COUNT(*) FROM tx_made")).containsExactly("0");
                assertThat(firstColumn(s, "SELECT COUNT(*) FROM tx_batch")).containsExactly("0");
                assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
                ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "tx_before", "id");
                assertThat(c.divergences().snapshot()).isEmpty();
            }
        }
    }

    private static void onUpdateRows(CbsCoordinator c, Session s) throws Exception {
        Workloads.update(s, "INSERT INTO doc (id, body) VALUES (1, 'a'), (2, 'b')");
        Thread.sleep(5); // a later time for the UPDATE, so that its own time shows
        assertThat(Workloads.update(s, "UPDATE doc SET body = 'A' WHERE id = 1")).isEqualTo(1);
        assertThat(firstColumn(s, "SELECT COUNT(DISTINCT changed) FROM doc")).as("the UPDATE set its own time").containsExactly("2");
        assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
        ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "doc", "id");
        assertThat(c.divergences().snapshot()).isEmpty();
    }

    private static void clockDefaultRows(CbsCoordinator c, Session s) throws Exception {
        Workloads.update(s, "INSERT INTO ev (id, name) VALUES (1, 'a'), (2, 'b')");
        Thread.sleep(5); // a later time for the next statements, so that each statement's own time shows
        Workloads.update(s, "INSERT INTO ev (id, name) SELECT id + 10, name FROM ev");
        Workloads.update(s, "INSERT INTO ev (id, name, created, day) VALUES (3, 'c', DEFAULT, DEFAULT)");
        assertThat(Workloads.update(s, "UPDATE ev SET created = DEFAULT WHERE id = 2")).isEqualTo(1);
        assertThat(firstColumn(s, "SELECT COUNT(*) FROM ev WHERE created IS NULL OR day IS NULL")).containsExactly("0");
        assertThat(firstColumn(s, "SELECT COUNT(DISTINCT created) FROM ev WHERE id IN (1, 11)")).as("each statement's time")
                .containsExactly("2");
        assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
        ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "ev", "id");
        assertThat(ReplicaTables.canonical(ReplicaTables.pools(c).get(0), "ev", "id")).hasSize(5);
        assertThat(c.divergences().snapshot()).isEmpty();
    }

    /**
     * The statements Hibernate's MySQL and MariaDB dialects write (schema generation, an HQL bulk update, a LIKE), with a
     * MariaDB primary and Derby and HSQLDB secondaries: MySQL's BIT and DECIMAL(38, 2) (Derby holds 31 digits),
     * {@code DROP FOREIGN KEY}, {@code ALTER TABLE IF EXISTS ... DROP ... IF EXISTS} (MariaDB has the clauses, Derby and
     * HSQLDB get them emulated), the {@code IN (SELECT * FROM (...) _sub_)} wrapper MySQL needs (Derby refuses
     * {@code SELECT *} there and a name that begins with an underscore) and {@code ESCAPE ''}. Every statement runs on
     * every engine, the vote agrees, and the tables end equal.
     */
    @Test
    void statementsAsHibernateWritesThemForMySqlRunOnEveryEngine() throws Exception {
        try (CbsCoordinator c = coordinator(MARIADB_DERBY_HSQLDB, 0); Session s = c.openSession("app", "db")) {
            Workloads.update(s, "create table orm_owner (active bit not null, balance decimal(38,2), version integer not null,"
                    + " created datetime(6), id bigint not null auto_increment, name varchar(80) not null, primary key (id))"
                    + " engine=InnoDB");
            Workloads.update(s, "create table orm_pet (id bigint not null auto_increment, owner_id bigint, name varchar(255),"
                    + " primary key (id)) engine=InnoDB");
            try {
                Workloads.update(s, "alter table if exists orm_pet add constraint fk_orm_pet foreign key (owner_id)"
                        + " references orm_owner (id)");
                for (int i = 1; i <= 4; i++) {
                    Workloads.update(s, "insert into orm_owner (active, balance, created, name, version) values (?, ?, ?, ?, 0)",
                            i % 2 == 1, new java.math.BigDecimal("10.50"), java.time.LocalDateTime.parse("2026-11-26T10:00:00"),
                            "owner" + i);
                    Workloads.update(s, "insert into orm_pet (owner_id, name) values (?, ?), (?, ?)", i, "pet" + i + "a", i,
                            "pet" + i + "b");
                }
                assertThat(Workloads.update(s, "update orm_pet p1_0 set name=upper(p1_0.name) where p1_0.owner_id in"
                        + " (select * from (select o2_0.id from orm_owner o2_0 where o2_0.active=true) _sub_)")).isEqualTo(4);
                assertThat(firstColumn(s, "select count(p1_0.id) from orm_pet p1_0 where p1_0.name like 'PET%' escape ''"))
                        .containsExactly("4");
                assertThat(firstColumn(s, "select _o.name from orm_owner _o where _o.balance > 10 and _o.active order by"
                        + " _o.name")).containsExactly("owner1", "owner3");
                Workloads.update(s, "alter table orm_pet drop foreign key fk_orm_pet");
                Workloads.update(s, "alter table if exists orm_pet add constraint fk_orm_pet foreign key (owner_id)"
                        + " references orm_owner (id)");
                Workloads.update(s, "alter table if exists orm_pet drop foreign key if exists fk_orm_pet");
                Workloads.update(s, "alter table if exists orm_pet drop foreign key if exists fk_orm_pet"); // gone: nothing
                Workloads.update(s, "alter table if exists orm_nothing drop constraint if exists fk_orm_nothing");
                assertThatThrownBy(() -> Workloads.update(s, "alter table orm_pet drop constraint fk_orm_pet"))
                        .as("without IF EXISTS a missing constraint is an error").isInstanceOf(SQLException.class);
                Workloads.update(s, "insert into orm_pet (owner_id, name) values (99, 'stray')"); // no foreign key now
                assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
                ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "orm_owner", "id");
                ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "orm_pet", "id");
                assertThat(ReplicaTables.canonical(ReplicaTables.pools(c).get(1), "orm_pet", "id")).hasSize(9);
                assertThat(c.divergences().snapshot()).isEmpty();
            } finally {
                Workloads.update(s, "drop table if exists orm_pet");
                Workloads.update(s, "drop table if exists orm_owner");
            }
        }
    }

    /** Runs {@code sql[i]} on {@code pools[i]} directly (and commits), ignoring what fails: set-up and clean-up. */
    private static void behindTheShepherdsBack(List<ReplicaPool> pools, String... sql) {
        for (int i = 0; i < pools.size() && i < sql.length; i++) {
            try (java.sql.Connection conn = pools.get(i).acquire(); java.sql.Statement st = conn.createStatement()) {
                st.execute(sql[i]);
                conn.commit();
            } catch (SQLException e) {
                // clean-up of what may not exist
            }
        }
    }

    /**
     * MySQL's USE on three MariaDB servers: the session's tables go to that database on every replica (its statements
     * name it), another session keeps its own database, and verify compares that database's tables.
     */
    @Test
    void useNamesTheSessionsDatabaseOnMariaDbReplicas() throws Exception {
        try (CbsCoordinator c = coordinator(THREE_MARIADB, 0); Session s = c.openSession("app", "db");
                Session other = c.openSession("app", "db")) {
            s.execute("CREATE DATABASE IF NOT EXISTS shop_use", List.of(), ExecOptions.DEFAULT);
            try {
                s.execute("USE shop_use", List.of(), ExecOptions.DEFAULT);
                s.execute("CREATE TABLE items (id INT PRIMARY KEY, n INT)", List.of(), ExecOptions.DEFAULT);
                s.execute("INSERT INTO items VALUES (1, 10), (2, 20)", List.of(), ExecOptions.DEFAULT);
                assertThat(firstColumn(s, "SELECT n FROM items ORDER BY id")).containsExactly("10", "20");
                assertThatThrownBy(() -> other.execute("SELECT n FROM items", List.of(), ExecOptions.DEFAULT))
                        .as("the other session's database has no such table").isInstanceOf(SQLException.class);
                assertThat(firstColumn(other, "SELECT n FROM shop_use.items ORDER BY id")).containsExactly("10", "20");
                assertThat(c.awaitIdle(30_000)).isTrue();
                for (JdbcReplicaEndpoint e : c.endpoints()) {
                    assertThat(ReplicaTables.canonical(e.pool(), "shop_use.items", "id")).as(e.name()).hasSize(2);
                }
                assertThat(c.verify("shop_use.*", false)).singleElement().satisfies(row -> {
                    assertThat(row.table()).isEqualTo("shop_use.items");
                    assertThat(row.result()).isEqualTo("equal");
                });
                s.execute("SET SCHEMA DEFAULT", List.of(), ExecOptions.DEFAULT);
                assertThatThrownBy(() -> s.execute("SELECT n FROM items", List.of(), ExecOptions.DEFAULT))
                        .isInstanceOf(SQLException.class);
            } finally {
                other.execute("DROP DATABASE IF EXISTS shop_use", List.of(), ExecOptions.DEFAULT);
            }
        }
    }

    private static List<String> firstColumn(Session s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultCursor cursor = ((Answer.Rows) s.execute(sql, List.of(), ExecOptions.DEFAULT)).cursor()) {
            while (!cursor.exhausted()) {
                for (Object[] row : cursor.fetch(100)) out.add(String.valueOf(row[0]));
            }
        }
        return out;
    }

    /**
     * HSQLDB's LOCKS mode locks whole tables; MariaDB locks rows. With MariaDB as primary, two transactions that update
     * different rows of one table run together on the primary and Derby but block each other on HSQLDB: the primary
     * is not sufficiently blocking for HSQLDB. The later transaction commits first; HSQLDB must give way (abort and
     * re-run the other one there), and both commit with identical tables everywhere.
     */
    @Test
    void aPrimaryThatBlocksLessThanASecondaryStaysCorrectAndLive() throws Exception {
        try (CbsCoordinator c = coordinator(MARIADB_DERBY_HSQLDB, 0)) {
            BANK.create(SqlClient.sessions(c));
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            List<String> hsqldbTrace = java.util.Collections.synchronizedList(new ArrayList<>());
            c.endpoints().get(2).setTrace(hsqldbTrace::add);
            try (Session first = c.openSession("app", "db"); Session second = c.openSession("app", "db")) {
                first.setAutoCommit(false);
                second.setAutoCommit(false);
                Workloads.update(first, "UPDATE acct SET bal = bal - 5 WHERE id = 1");
                // HSQLDB takes its table lock for the first transaction before the second one's update arrives there
                for (int i = 0; i < 500 && hsqldbTrace.isEmpty(); i++) {
                    Thread.sleep(10);
                }
                assertThat(hsqldbTrace).as("HSQLDB ran the first transaction's update (else this scenario is not exercised)")
                        .isNotEmpty();
                Workloads.update(second, "UPDATE acct SET bal = bal - 7 WHERE id = 2");
                Workloads.update(second, "UPDATE acct SET bal = bal + 7 WHERE id = 3");
                second.commit();
                Workloads.update(first, "UPDATE acct SET bal = bal + 5 WHERE id = 4");
                first.commit();
            }
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).as("HSQLDB caught up").isTrue();
            assertEqualEverywhere(c, "acct", "id");
            assertThat(ReplicaTables.canonical(c.endpoints().get(2).pool(), "acct", "id")).contains("ID=E1|BAL=E995",
                    "ID=E2|BAL=E993", "ID=E3|BAL=E1007", "ID=E4|BAL=E1005");
            assertThat(c.divergences().snapshot()).as("no correct replica is accused").isEmpty();
            System.out.printf("insufficiently blocking primary: %s%n", c.stats());
        }
    }

    /**
     * A MySQL client's {@code ?} bound to 1.505 is that number wherever it stands; Derby and HSQLDB would give it the type
     * of the DECIMAL(9, 2) beside it and lose the third decimal. The shepherd casts such a marker to the bound number's
     * type for them ({@code Bound}, from the value of each client parameter as the session received it).
     */
    @Test
    void aBoundDecimalKeepsItsDigitsOnEveryEngine() throws Exception {
        try (CbsCoordinator c = coordinator(MARIADB_DERBY_HSQLDB, 0); Session s = c.openSession("app", "db")) {
            Workloads.update(s, "CREATE TABLE bd (id INT PRIMARY KEY, d DECIMAL(9, 2))");
            Workloads.update(s, "INSERT INTO bd (id, d) VALUES (1, -1.50), (2, 1.50)");
            BigDecimal p = new BigDecimal("1.505");
            assertThat(Workloads.query(s, "SELECT id, CASE WHEN d > 0 THEN ? ELSE d END FROM bd ORDER BY id", p))
                    .extracting(r -> ((BigDecimal) r[1]).stripTrailingZeros().toPlainString()).containsExactly("-1.5", "1.505");
            assertThat(Workloads.query(s, "SELECT id FROM bd WHERE d < ? ORDER BY id", new BigDecimal("1.501")))
                    .extracting(r -> Workloads.number(r[0])).containsExactly(1L, 2L);
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.divergences().snapshot()).isEmpty();
        }
    }

    /**
     * A MySQL client's INSERT that gives the AUTO_INCREMENT column NULL (written, or a parameter bound to NULL: MyBatis's
     * {@code VALUES (#{id}, ...)}, Hibernate's MySQL dialect) to have a key generated: MySQL and HSQLDB generate one for
     * NULL, Derby refuses it. Once the primary is a Derby replica (the MariaDB primary replaced, its commits blocked),
     * the shepherd writes DEFAULT there for it, so the client's inserts go on; the secondaries get the keys Derby made.
     * A query of the client's catalog (information_schema, which Derby has not) is answered by the MariaDB replica once
     * it is back as a secondary and has caught up. MariaDB's ALTER TABLE IF EXISTS and DROP COLUMN IF EXISTS, emulated on
     * the Derby primary, are done only where what they name is missing.
     */
    @Test
    void aMySqlClientGoesOnOverADerbyPrimaryAfterAMariaDbPrimaryWasReplaced() throws Exception {
        CbsCore.Settings settings = CbsCore.Settings.defaults(1, ExecutionMode.CBS)
                .withRecovery(new CbsCore.Recovery(100, 1_000, 100_000).withUnresponsiveMs(500));
        try (CbsCoordinator c = coordinator(MARIADB_DERBY_HSQLDB, 0, settings); Session s = c.openSession("app", "db")) {
            Workloads.update(s, "CREATE TABLE tag (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(10))");
            Workloads.update(s, "INSERT INTO tag (id, name) VALUES (NULL, 'a')");
            ReplicaPool primary = c.endpoints().get(0).pool();
            try (Connection backup = primary.acquire(); Statement st = backup.createStatement()) {
                s.setAutoCommit(false);
                Workloads.update(s, "INSERT INTO tag (id, name) VALUES (NULL, 'b')");
                st.execute("FLUSH TABLES WITH READ LOCK");
                try {
                    s.commit();
                    s.setAutoCommit(true);
                    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(IDLE_TIMEOUT_MS);
                    while (c.viewStatus().view() == 0 && System.nanoTime() < deadline) Thread.sleep(20);
                    assertThat(c.viewStatus().view()).as("a view change").isEqualTo(1);
                    assertThat(c.primary().name()).isEqualTo(ReplicaServers.DERBY);
                    Workloads.update(s, "INSERT INTO tag (id, name) VALUES (NULL, 'c')");
                    Workloads.update(s, "INSERT INTO tag (id, name) VALUES (?, ?)", null, "d");
                    Workloads.update(s, "INSERT INTO tag (id, name) VALUES (NULL, 'e'), (?, 'f'), (DEFAULT, 'g')", (Object) null);
                    Workloads.update(s, "INSERT INTO tag (id, name) VALUES (?, 'h')", 100);
                    assertThatThrownBy(() -> firstColumn(s, "SELECT COLUMN_NAME FROM information_schema.COLUMNS"))
                            .as("MariaDB is down: only Derby's catalog is there").hasMessageContaining("a query of the client's"
                                    + " catalog (mysql's), answered by the primary derby, whose catalog is derby's");
                } finally {
                    st.execute("UNLOCK TABLES");
                }
            }
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(IDLE_TIMEOUT_MS);
            while (!"up".equals(c.replicaStatus().get(0).state()) && System.nanoTime() < deadline) Thread.sleep(20);
            assertThat(c.replicaStatus().get(0).state()).as("MariaDB back, as a secondary").isEqualTo("up");
            // MariaDB's IF EXISTS, which Derby lacks, covers what it names and nothing else
            assertThatThrownBy(() -> Workloads.update(s, "ALTER TABLE IF EXISTS tag DROP COLUMN nosuch"))
                    .as("the table is there, the column is not").isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> Workloads.update(s, "ALTER TABLE nosuch DROP COLUMN IF EXISTS name"))
                    .as("the table is not there").isInstanceOf(SQLException.class);
            assertThat(Workloads.update(s, "ALTER TABLE IF EXISTS nosuch ADD COLUMN x INT")).isZero();
            assertThat(Workloads.update(s, "ALTER TABLE tag DROP COLUMN IF EXISTS nosuch")).isZero();
            // the client's catalog (Derby has no information_schema): answered by the MariaDB secondary once caught up
            assertThat(firstColumn(s, "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()"
                    + " AND TABLE_NAME = 'tag' ORDER BY ORDINAL_POSITION")).containsExactly("id", "name");
            assertThat(firstColumn(s, "SELECT name FROM tag ORDER BY id")).containsExactly("a", "b", "c", "d", "e", "f", "g", "h");
            assertThat(firstColumn(s, "SELECT id FROM tag WHERE name = 'h'")).containsExactly("100");
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertEqualEverywhere(c, "tag", "id");
            assertThat(c.divergences().snapshot()).isEmpty();
        }
    }

    /**
     * A MariaDB primary whose commits are blocked (FLUSH TABLES WITH READ LOCK, as a backup tool takes it) answers pings
     * and reads, so nothing breaks and, without more, every transaction that needs the rows its stuck COMMIT still
     * locks would wait for ever. Its COMMIT running for view.change.unresponsive.ms while both secondaries committed
     * the transaction is evidence: the view changes, and once the lock is gone the old primary catches up as a
     * secondary.
     */
    @Test
    void aMariaDbPrimaryWhoseCommitsAreBlockedIsReplaced() throws Exception {
        CbsCore.Settings settings = CbsCore.Settings.defaults(1, ExecutionMode.CBS)
                .withRecovery(new CbsCore.Recovery(100, 1_000, 100_000).withUnresponsiveMs(500));
        try (CbsCoordinator c = coordinator(MARIADB_DERBY_HSQLDB, 0, settings)) {
            BANK.create(SqlClient.sessions(c));
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            ReplicaPool primary = c.endpoints().get(0).pool();
            try (Connection backup = primary.acquire(); Statement st = backup.createStatement();
                    Session client = c.openSession("app", "db")) {
                client.setAutoCommit(false);
                Workloads.update(client, "UPDATE acct SET bal = bal - 5 WHERE id = 1");
                Workloads.update(client, "UPDATE acct SET bal = bal + 5 WHERE id = 2");
                st.execute("FLUSH TABLES WITH READ LOCK");
                try {
                    client.commit(); // answered once durable: r2 and r3 commit it, r1's COMMIT waits for the lock
                    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(IDLE_TIMEOUT_MS);
                    while (c.viewStatus().view() == 0 && System.nanoTime() < deadline) Thread.sleep(20);
                    assertThat(c.viewStatus().view()).as("a view change").isEqualTo(1);
                    assertThat(c.viewStatus().lastViewChange()).startsWith("view 1: " + ReplicaServers.DERBY + " replaced "
                            + ReplicaServers.MARIADB + " (down: stuck commit: the COMMIT of T");
                    BANK.run(SqlClient.sessions(c), 2, 5, 0, SEED + 700); // served by the new primary meanwhile
                } finally {
                    st.execute("UNLOCK TABLES");
                }
            }
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(IDLE_TIMEOUT_MS);
            while (!"up".equals(c.replicaStatus().get(0).state()) && System.nanoTime() < deadline) Thread.sleep(20);
            assertThat(c.replicaStatus().get(0).state()).as("r1 back").isEqualTo("up");
            assertThat(c.replicaStatus().get(0).primary()).as("r1 back as a secondary").isFalse();
            BANK.run(SqlClient.sessions(c), 2, 5, 0, SEED + 800);
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            BANK.assertReplicasAgree(ReplicaTables.pools(c));
            assertThat(c.divergences().snapshot()).as("no correct replica is accused").isEmpty();
        }
    }

    /**
     * Each replica's shepherd_txlog is truncated while transactions commit (every 8 barriers here), on every engine: what
     * the deleted rows counted is kept in shepherd_txlog_base, so every replica counts the same commits.
     */
    @Test
    void transactionLogsAreTruncatedOnMariaDbHsqldbAndPostgresql() throws Exception {
        CbsCore.Settings settings = CbsCore.Settings.defaults(1, ExecutionMode.CBS);
        settings = settings.withRecovery(settings.recovery().withTxlogTruncateBarriers(8));
        List<String> names = List.of(ReplicaServers.MARIADB, ReplicaServers.HSQLDB, ReplicaServers.POSTGRESQL);
        try (CbsCoordinator c = coordinator(names, 0, settings)) {
            BANK.create(SqlClient.sessions(c));
            BankWorkload.Counts counts = BANK.run(SqlClient.sessions(c), CLIENTS, BANK_TXNS_PER_CLIENT, 0, SEED + 7);
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).as("every replica caught up").isTrue();
            List<ReplicaPool> pools = ReplicaTables.pools(c);
            ReplicaTables.assertEqualEverywhere(pools, "acct", "id");
            long[] first = awaitTruncated(pools.get(0));
            assertThat(first[0] + first[1]).as("commits counted").isGreaterThanOrEqualTo(counts.transfers());
            for (ReplicaPool p : pools.subList(1, pools.size())) {
                long[] log = awaitTruncated(p);
                assertThat(log[0] + log[1]).as("commits counted on %s", p.spec().name()).isEqualTo(first[0] + first[1]);
            }
            assertThat(c.divergences().snapshot()).as("no correct replica is accused").isEmpty();
        }
    }

    /**
     * Nested savepoints and failed statements inside one transaction, MariaDB's spelling, on MariaDB, HSQLDB and
     * PostgreSQL (which would abort the whole transaction on the failed INSERT without the shepherd's savepoint).
     */
    @Test
    void nestedSavepointsAndFailedStatementsOnMariaDbHsqldbAndPostgresql() throws Exception {
        List<String> names = List.of(ReplicaServers.MARIADB, ReplicaServers.HSQLDB, ReplicaServers.POSTGRESQL);
        try (CbsCoordinator c = coordinator(names, 0); Session s = c.openSession("app", "db")) {
            for (String sql : List.of("CREATE TABLE sv (id INT PRIMARY KEY, v VARCHAR(10))", "SET_AUTOCOMMIT_OFF",
                    "INSERT INTO sv VALUES (1, 'one')", "SAVEPOINT a", "INSERT INTO sv VALUES (2, 'two')", "SAVEPOINT b",
                    "INSERT INTO sv VALUES (3, 'undone')", "FAILS INSERT INTO sv VALUES (1, 'again')", "ROLLBACK TO b",
                    "INSERT INTO sv VALUES (4, 'four')", "RELEASE SAVEPOINT a", "FAILS ROLLBACK TO SAVEPOINT b",
                    "SAVEPOINT c", "UPDATE sv SET v = 'undone' WHERE id = 2", "ROLLBACK WORK TO SAVEPOINT c", "COMMIT")) {
                if (sql.equals("SET_AUTOCOMMIT_OFF")) {
                    s.setAutoCommit(false);
                } else if (sql.startsWith("FAILS ")) {
                    assertThatThrownBy(() -> s.execute(sql.substring(6), List.of(), ExecOptions.DEFAULT)).as(sql)
                            .isInstanceOf(SQLException.class);
                } else {
                    s.execute(sql, List.of(), ExecOptions.DEFAULT);
                }
            }
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).as("every replica caught up").isTrue();
            List<ReplicaPool> pools = ReplicaTables.pools(c);
            ReplicaTables.assertEqualEverywhere(pools, "sv", "id");
            assertThat(ReplicaTables.canonical(pools.get(0), "sv", "id")).hasSize(3)
                    .allMatch(row -> !row.contains("undone")).noneMatch(row -> row.contains("again"));
            assertThat(c.divergences().snapshot()).as("no correct replica is accused").isEmpty();
        }
    }

    /**
     * {@code shepherd verify} on MariaDB (primary, MariaDB's SQL), HSQLDB and PostgreSQL: a table with a two-column key
     * of a string and an integer read in three chunks, and a row changed behind the shepherd's back on PostgreSQL found;
     * then that row and one deleted on HSQLDB repaired.
     */
    @Test
    void verifyComparesTablesAcrossEnginesChunkByChunk() throws Exception {
        List<String> names = List.of(ReplicaServers.MARIADB, ReplicaServers.HSQLDB, ReplicaServers.POSTGRESQL);
        try (CbsCoordinator c = coordinator(names, 0)) {
            try (Session s = c.openSession("app", "db")) {
                s.execute("CREATE TABLE item (cat VARCHAR(10) NOT NULL, n INT NOT NULL, price DECIMAL(10,2), added DATE,"
                        + " PRIMARY KEY (cat, n))", List.of(), ExecOptions.DEFAULT);
                List<List<Param>> rows = new ArrayList<>();
                for (int i = 0; i < 2_300; i++) {
                    rows.add(List.of(new Param(Types.VARCHAR, i % 3 == 0 ? "tea" : "coffee"), new Param(Types.INTEGER, (long) i),
                            new Param(Types.DECIMAL, java.math.BigDecimal.valueOf(i, 2)),
                            new Param(Types.DATE, java.time.LocalDate.of(2026, 1, 1).plusDays(i % 300))));
                }
                s.executeBatch("INSERT INTO item VALUES (?, ?, ?, ?)", rows, null, ExecOptions.DEFAULT);
            }
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.verify(null)).singleElement().satisfies(row -> {
                assertThat(row.table()).isEqualToIgnoringCase("item");
                assertThat(row.rows()).isEqualTo(2_300);
                assertThat(row.chunks()).isEqualTo(3);
                assertThat(row.result()).isEqualTo("equal");
            });
            ReplicaPool postgresql = ReplicaTables.pools(c).get(2);
            try (Connection pg = postgresql.acquire(); Statement st = pg.createStatement()) {
                assertThat(st.executeUpdate("UPDATE item SET price = 0 WHERE cat = 'tea' AND n = 2100")).isEqualTo(1);
                pg.commit();
            }
            assertThat(c.verify("ITEM")).singleElement().satisfies(row -> {
                assertThat(row.differing()).isEqualTo(ReplicaServers.POSTGRESQL);
                assertThat(row.result()).startsWith("DIFFERS on " + ReplicaServers.POSTGRESQL);
            });
            assertThat(c.divergences().snapshot()).isNotEmpty().allMatch(d -> d.replica().equals(ReplicaServers.POSTGRESQL));

            // repair: the agreed rows (read on MariaDB) written on HSQLDB and PostgreSQL in their own SQL and types
            ReplicaPool hsqldb = ReplicaTables.pools(c).get(1);
            try (Connection h = hsqldb.acquire(); Statement st = h.createStatement()) {
                assertThat(st.executeUpdate("DELETE FROM item WHERE cat = 'coffee' AND n = 4")).isEqualTo(1);
                h.commit();
            }
            assertThat(c.verify("item", true)).singleElement().satisfies(row -> {
                assertThat(row.differing()).isEqualTo(ReplicaServers.HSQLDB + "," + ReplicaServers.POSTGRESQL);
                assertThat(row.repaired()).isEqualTo(ReplicaServers.HSQLDB + ": 0 deleted, 0 updated, 1 inserted; "
                        + ReplicaServers.POSTGRESQL + ": 0 deleted, 1 updated, 0 inserted");
                assertThat(row.result()).isEqualTo("equal");
            });
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            ReplicaTables.assertEqualEverywhere(ReplicaTables.pools(c), "item", "cat, n");
        }
    }

    /**
     * A repair that PostgreSQL refuses (a CHECK constraint only it has) changes nothing there, not even the other row it
     * would have fixed, and leaves its transaction usable: the replica commits it and serves on.
     */
    @Test
    void aRepairThatFailsOnPostgresqlChangesNothingThereAndItServesOn() throws Exception {
        List<String> names = List.of(ReplicaServers.MARIADB, ReplicaServers.HSQLDB, ReplicaServers.POSTGRESQL);
        try (CbsCoordinator c = coordinator(names, 0); Session s = c.openSession("app", "db")) {
            s.execute("CREATE TABLE codes (id INT PRIMARY KEY, v VARCHAR(10))", List.of(), ExecOptions.DEFAULT);
            s.execute("INSERT INTO codes VALUES (1, 'a'), (2, 'b'), (3, 'c')", List.of(), ExecOptions.DEFAULT);
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            ReplicaPool postgresql = ReplicaTables.pools(c).get(2);
            try (Connection pg = postgresql.acquire(); Statement st = pg.createStatement()) {
                st.executeUpdate("UPDATE codes SET v = 'x' WHERE id = 1");
                st.executeUpdate("UPDATE codes SET v = 'zz' WHERE id = 2");
                st.executeUpdate("ALTER TABLE codes ADD CONSTRAINT no_b CHECK (v <> 'b')");
                pg.commit();
            }
            assertThat(c.verify("codes", true)).singleElement().satisfies(row -> {
                assertThat(row.differing()).isEqualTo(ReplicaServers.POSTGRESQL);
                assertThat(row.repaired()).isEmpty();
                assertThat(row.result()).startsWith("DIFFERS on " + ReplicaServers.POSTGRESQL)
                        .contains("the repair failed on " + ReplicaServers.POSTGRESQL);
            });
            s.execute("INSERT INTO codes VALUES (4, 'd')", List.of(), ExecOptions.DEFAULT);
            assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
            assertThat(c.statusRows()).filteredOn(r -> r.replica().equals(ReplicaServers.POSTGRESQL))
                    .singleElement().satisfies(r -> assertThat(r.state()).isEqualTo("up"));
            assertThat(ReplicaTables.canonical(postgresql, "codes", "id")).as("nothing of the failed repair, the new row")
                    .hasSize(4).first().asString().endsWith("=Sx");
        }
    }

    /** Waits (bounded) until {@code pool}'s transaction log was truncated: {@code [commits truncated, rows left]}. */
    private static long[] awaitTruncated(ReplicaPool pool) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(IDLE_TIMEOUT_MS);
        while (true) {
            try (java.sql.Connection conn = pool.acquire(); java.sql.Statement st = conn.createStatement()) {
                // one serializable transaction: a truncation moves rows into the count
                conn.setTransactionIsolation(java.sql.Connection.TRANSACTION_SERIALIZABLE);
                long rows; // in the order a truncation writes them, so that this reader cannot deadlock with one
                try (java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM shepherd_txlog")) {
                    rs.next();
                    rows = rs.getLong(1);
                }
                long truncated = 0;
                try (java.sql.ResultSet rs = st.executeQuery("SELECT commit_count FROM shepherd_txlog_base")) {
                    if (rs.next()) truncated = rs.getLong(1);
                }
                conn.rollback();
                if (truncated > 0) return new long[] {truncated, rows};
            }
            if (System.nanoTime() > deadline) throw new AssertionError(pool.spec().name() + "'s shepherd_txlog was never truncated");
            Thread.sleep(50);
        }
    }

    /** PostgreSQL's multiversion concurrency control cannot order transactions for the others: refused as primary. */
    @Test
    void postgresqlIsRefusedAsPrimaryWithTheReason() {
        ReplicaSetup pg = ReplicaSetup.forDialect("postgresql");
        assertThat(pg.canBePrimary()).isFalse();
        assertThatThrownBy(pg::verifyPrimary).isInstanceOf(ReplicaRefusedException.class)
                .satisfies(e -> assertThat(e.getMessage()).containsIgnoringCase("postgresql").hasSizeGreaterThan(40));
    }
}
