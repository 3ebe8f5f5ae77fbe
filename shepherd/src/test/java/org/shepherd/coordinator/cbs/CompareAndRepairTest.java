package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.shepherd.admin.AdminView;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.Session;
import org.shepherd.divergence.DivergenceLog;
import org.shepherd.protocol.Param;
import org.shepherd.replica.jdbc.ConnectionPreparer;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.replica.jdbc.ReplicaSpec;
import org.shepherd.schedule.ExecutionMode;
import org.shepherd.testing.BankWorkload;
import org.shepherd.testing.DerbyMemory;
import org.shepherd.testing.SqlClient;

/**
 * Tier 3: compare-and-repair ({@code shepherd verify --repair}) over three embedded Derby replicas (f=1, r1 the
 * primary): rows changed, deleted and added behind the shepherd's back on two secondaries are rewritten there, and
 * only there, to the rows f+1 replicas agree on, also while clients write the same rows.
 */
class CompareAndRepairTest {

    private static final AtomicInteger DB = new AtomicInteger();
    private static final long IDLE_MS = 30_000;

    private CbsCoordinator coordinator;
    private final List<ReplicaPool> pools = new ArrayList<>();

    private void start() throws SQLException {
        start(ExecutionMode.CBS);
    }

    private void start(ExecutionMode mode) throws SQLException {
        start(mode, new DivergenceLog());
    }

    private void start(ExecutionMode mode, DivergenceLog divergences) throws SQLException {
        int n = DB.incrementAndGet();
        for (int i = 1; i <= 3; i++) {
            ReplicaSpec spec = ReplicaSpec.of("r" + i, "jdbc:derby:memory:repair" + n + "r" + i + ";create=true", "", "");
            pools.add(new ReplicaPool(spec, ConnectionPreparer.defaults("derby"), 16, 5000));
        }
        coordinator = new CbsCoordinator(pools, 0, CbsCore.Settings.defaults(1, mode), 16, 100, 60_000, divergences);
    }

    @AfterEach
    void stop() {
        if (coordinator != null) coordinator.close();
        DerbyMemory.drop(pools);
    }

    private static void behindTheShepherdsBack(ReplicaPool pool, String... sql) throws SQLException {
        try (Connection c = pool.acquire(); Statement st = c.createStatement()) {
            for (String s : sql) assertThat(st.executeUpdate(s)).as(s).isEqualTo(1);
            c.commit();
        }
    }

    /** Runs {@code sql} through the shepherd, one statement after the other, and waits until every replica ran them. */
    private void through(String... sql) throws Exception {
        try (Session s = coordinator.openSession("app", "db")) {
            for (String q : sql) s.execute(q, List.of(), ExecOptions.DEFAULT);
        }
        assertThat(coordinator.awaitIdle(IDLE_MS)).isTrue();
    }

    /** Every row of {@code table} on {@code pool}, in key order, as text. */
    private static List<String> dump(ReplicaPool pool, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = pool.acquire(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) row.append(i == 1 ? "" : "|").append(rs.getString(i));
                rows.add(row.toString());
            }
            c.rollback();
        }
        return rows;
    }

    private void createItems() throws Exception {
        try (Session s = coordinator.openSession("app", "db")) {
            s.execute("CREATE TABLE item (cat VARCHAR(10) NOT NULL, n INT NOT NULL, price DECIMAL(10,2), added DATE,"
                    + " note VARCHAR(20), PRIMARY KEY (cat, n))", List.of(), ExecOptions.DEFAULT);
            List<List<Param>> rows = new ArrayList<>();
            for (int i = 0; i < 2_300; i++) {
                rows.add(List.of(new Param(Types.VARCHAR, i % 3 == 0 ? "tea" : "coffee"), new Param(Types.INTEGER, (long) i),
                        new Param(Types.DECIMAL, java.math.BigDecimal.valueOf(i, 2)),
                        new Param(Types.DATE, java.time.LocalDate.of(2026, 1, 1).plusDays(i % 300)),
                        new Param(Types.VARCHAR, i % 7 == 0 ? null : "n" + i)));
            }
            s.executeBatch("INSERT INTO item VALUES (?, ?, ?, ?, ?)", rows, null, ExecOptions.DEFAULT);
            s.execute("CREATE TABLE tag (name VARCHAR(10), n INT)", List.of(), ExecOptions.DEFAULT);
            s.execute("INSERT INTO tag VALUES ('a', 1), ('a', 1), ('b', 2)", List.of(), ExecOptions.DEFAULT);
        }
        assertThat(coordinator.awaitIdle(IDLE_MS)).isTrue();
    }

    /**
     * A table of three chunks with a two-column key: on r3 a row is missing and a value changed in the first chunk, a
     * value changed and a row added past the last key in the third; on r2 a row added and a date changed in the
     * second. A table without a key has a row too few and one too many on r3. The repair writes exactly those rows, on
     * those replicas; in every mode (with sequential secondaries and serial execution the secondaries run it after the
     * commit).
     */
    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void theRowsThatDifferAreRewrittenOnTheReplicasThatDiffer(ExecutionMode mode) throws Exception {
        start(mode);
        createItems();
        // f = 1: in each chunk one replica at most differs (chunk 1: coffee 1..1499, 2: the rest of coffee and tea
        // 0..1398, 3: tea 1401..2298)
        behindTheShepherdsBack(pools.get(2), "DELETE FROM item WHERE cat = 'coffee' AND n = 1",
                "UPDATE item SET note = 'changed' WHERE cat = 'coffee' AND n = 1400",
                "UPDATE item SET price = 0 WHERE cat = 'tea' AND n = 2100",
                "INSERT INTO item VALUES ('zzz', 1, NULL, NULL, NULL)",
                "DELETE FROM tag WHERE name = 'b'", "INSERT INTO tag VALUES ('c', 3)");
        behindTheShepherdsBack(pools.get(1), "INSERT INTO item VALUES ('coffee', 100000, 1.00, '2026-01-01', 'extra')",
                "UPDATE item SET added = '2020-02-02' WHERE cat = 'tea' AND n = 3");
        String items = "SELECT * FROM item ORDER BY cat, n";
        List<String> agreed = dump(pools.get(0), items);

        assertThat(coordinator.verify(null)).extracting(AdminView.VerifyRow::differing).containsExactly("r2,r3", "r3");
        List<AdminView.VerifyRow> repaired = coordinator.verify(null, true);
        assertThat(repaired).hasSize(2);
        assertThat(repaired.get(0)).satisfies(row -> {
            assertThat(row.table()).isEqualTo("ITEM");
            assertThat(row.differing()).isEqualTo("r2,r3");
            assertThat(row.repaired()).isEqualTo("r2: 1 deleted, 1 updated, 0 inserted; r3: 1 deleted, 2 updated, 1 inserted");
            assertThat(row.result()).isEqualTo("equal");
            assertThat(row.rows()).isEqualTo(2_300);
        });
        assertThat(repaired.get(1)).satisfies(row -> {
            assertThat(row.table()).isEqualTo("TAG");
            assertThat(row.repaired()).as("no key: the whole table again").isEqualTo("r3: 3 deleted, 0 updated, 3 inserted");
            assertThat(row.result()).isEqualTo("equal");
        });

        assertThat(coordinator.awaitIdle(IDLE_MS)).isTrue();
        for (ReplicaPool p : pools) {
            assertThat(dump(p, items)).as("item on %s", p.spec().name()).isEqualTo(agreed);
            assertThat(dump(p, "SELECT * FROM tag ORDER BY name, n")).as("tag on %s", p.spec().name())
                    .containsExactly("a|1", "a|1", "b|2");
        }
        assertThat(coordinator.viewStatus().lastComparison()).as("for status").endsWith(", on demand, with repair: 2 of 2"
                + " tables equal on every replica; repaired ITEM (r2: 1 deleted, 1 updated, 0 inserted; r3: 1 deleted, 2 updated,"
                + " 1 inserted), TAG (r3: 3 deleted, 0 updated, 3 inserted)");
        assertThat(coordinator.verify(null)).extracting(AdminView.VerifyRow::result).containsExactly("equal", "equal");
        assertThat(coordinator.divergences().snapshot()).as("the repair accused nobody that agreed")
                .allMatch(d -> !d.replica().equals("r1"));
        assertThat(dump(pools.get(0), "SELECT COUNT(*) FROM shepherd_txlog")).as("a repair leaves no log row")
                .isEqualTo(dump(pools.get(2), "SELECT COUNT(*) FROM shepherd_txlog"));
    }

    /** With verify.repair, the background comparison repairs what it finds by itself. */
    @Test
    void theBackgroundComparisonRepairsWhatItFinds() throws Exception {
        start();
        createItems();
        try (Session s = coordinator.openSession("app", "db")) {
            s.execute("CREATE SCHEMA hr", List.of(), ExecOptions.DEFAULT);
            s.execute("CREATE TABLE hr.staff (id INT PRIMARY KEY, pay INT)", List.of(), ExecOptions.DEFAULT);
            s.execute("INSERT INTO hr.staff VALUES (1, 100), (2, 200)", List.of(), ExecOptions.DEFAULT);
        }
        assertThat(coordinator.awaitIdle(IDLE_MS)).isTrue();
        behindTheShepherdsBack(pools.get(1), "UPDATE item SET price = 9 WHERE cat = 'coffee' AND n = 2000");
        behindTheShepherdsBack(pools.get(2), "UPDATE hr.staff SET pay = 0 WHERE id = 2");
        String items = "SELECT * FROM item ORDER BY cat, n";
        String staff = "SELECT * FROM hr.staff ORDER BY id";
        List<String> agreed = dump(pools.get(0), items);
        List<String> agreedStaff = dump(pools.get(0), staff);
        // a schema the primary lacks is skipped (a WARN line), the others still compared
        coordinator.verifyInBackground(50, 0, true, List.of("nowhere", "hr"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while ((!dump(pools.get(1), items).equals(agreed) || !dump(pools.get(2), staff).equals(agreedStaff))
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(dump(pools.get(1), items)).as("r2 repaired within the 60 s safety bound").isEqualTo(agreed);
        assertThat(dump(pools.get(2), staff)).as("r3's hr.staff repaired within the 60 s safety bound").isEqualTo(agreedStaff);
        assertThat(coordinator.divergences().snapshot()).isNotEmpty().allMatch(d -> !d.replica().equals("r1"));
    }

    /**
     * A secondary outvoted on a write is repaired at once ({@code verify.repair}, no background pass): r3 lost a row
     * behind the shepherd's back, so an UPDATE of it changes 0 rows there and 1 on r1 and r2 (masked); the table is then
     * compared and r3 gets the row back as f+1 replicas have it, the UPDATE included. A later write to the row finds
     * every replica agreeing. Without the repair r3 would lack the row until someone ran {@code verify --repair}.
     */
    @Test
    void aSecondaryOutvotedOnAWriteIsRepairedAtOnce() throws Exception {
        start();
        through("CREATE TABLE pay (id INT PRIMARY KEY, amount INT)", "INSERT INTO pay VALUES (1, 10), (2, 20), (3, 30)");
        coordinator.repairWhereOutvoted(0, CbsCoordinator.REPAIR_AGAIN_MS);
        behindTheShepherdsBack(pools.get(2), "DELETE FROM pay WHERE id = 2");
        String pay = "SELECT * FROM pay ORDER BY id";
        through("UPDATE pay SET amount = amount + 1 WHERE id = 2");
        // the UPDATE's report; the repair's first read of the table answers otherwise on r3 too
        assertThat(coordinator.divergences().snapshot()).allMatch(d -> d.replica().equals("r3") && d.masked())
                .anyMatch(d -> d.statement().startsWith("UPDATE pay") && d.actual().equals("update count 0"));
        List<String> agreed = List.of("1|10", "2|21", "3|30");
        assertThat(dump(pools.get(0), pay)).isEqualTo(agreed);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!dump(pools.get(2), pay).equals(agreed) && System.nanoTime() < deadline) Thread.sleep(50);
        assertThat(dump(pools.get(2), pay)).as("r3 repaired within the 60 s safety bound").isEqualTo(agreed);
        assertThat(coordinator.awaitIdle(IDLE_MS)).isTrue();
        long reported = coordinator.divergences().total();
        through("UPDATE pay SET amount = amount + 1 WHERE id = 2");
        assertThat(coordinator.divergences().total()).as("no replica outvoted after the repair").isEqualTo(reported);
        for (ReplicaPool p : pools) assertThat(dump(p, pay)).containsExactly("1|10", "2|22", "3|30");
    }

    /**
     * A parent row (identity key) and its child row lost on r3: the child's table comes first and its repair fails on
     * the missing parent; the parent's is repaired, so the next round repairs the child. Quoted mixed-case names too.
     */
    @Test
    void aForeignKeyToARowRepairedLaterIsRepairedInTheNextRound() throws Exception {
        start();
        try (Session s = coordinator.openSession("app", "db")) {
            for (String sql : List.of("CREATE TABLE parent (id INT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name VARCHAR(10))",
                    "CREATE TABLE \"Child\" (\"Id\" INT PRIMARY KEY, parent_id INT NOT NULL REFERENCES parent(id), v INT)",
                    "INSERT INTO parent (name) VALUES ('a'), ('b'), ('c')",
                    "INSERT INTO \"Child\" VALUES (1, 1, 10), (2, 2, 20), (3, 3, 30)")) {
                s.execute(sql, List.of(), ExecOptions.DEFAULT);
            }
        }
        assertThat(coordinator.awaitIdle(IDLE_MS)).isTrue();
        behindTheShepherdsBack(pools.get(2), "DELETE FROM \"Child\" WHERE \"Id\" = 2", "DELETE FROM parent WHERE id = 2");
        List<AdminView.VerifyRow> rows = coordinator.verify(null, true);
        assertThat(rows).extracting(AdminView.VerifyRow::table).containsExactly("Child", "PARENT");
        assertThat(rows).extracting(AdminView.VerifyRow::repaired).containsExactly("r3: 0 deleted, 0 updated, 1 inserted",
                "r3: 0 deleted, 0 updated, 1 inserted");
        assertThat(rows).extracting(AdminView.VerifyRow::result).containsExactly("equal", "equal");
        assertThat(coordinator.awaitIdle(IDLE_MS)).isTrue();
        for (ReplicaPool p : pools) {
            assertThat(dump(p, "SELECT * FROM \"Child\" ORDER BY \"Id\"")).as("Child on %s", p.spec().name())
                    .containsExactly("1|1|10", "2|2|20", "3|3|30");
            assertThat(dump(p, "SELECT * FROM parent ORDER BY id")).as("parent on %s", p.spec().name())
                    .containsExactly("1|a", "2|b", "3|c");
        }
    }

    /**
     * More differing chunks than the divergence log retains (here one report, the last table's): the comparison still
     * finds every one, in every table.
     */
    @Test
    void everyDifferingChunkIsFoundThoughTheLogRetainsFewerReports() throws Exception {
        start(ExecutionMode.CBS, new DivergenceLog(1));
        createItems();
        behindTheShepherdsBack(pools.get(2), "UPDATE item SET price = 7 WHERE cat = 'coffee' AND n = 1",
                "UPDATE item SET price = 7 WHERE cat = 'coffee' AND n = 1600",
                "UPDATE item SET price = 7 WHERE cat = 'tea' AND n = 2298", "UPDATE tag SET n = 9 WHERE name = 'b'");
        assertThat(coordinator.verify(null)).extracting(AdminView.VerifyRow::differing).containsExactly("r3", "r3");
        assertThat(coordinator.verify(null, true)).extracting(AdminView.VerifyRow::repaired)
                .containsExactly("r3: 0 deleted, 3 updated, 0 inserted", "r3: 3 deleted, 0 updated, 3 inserted");
        assertThat(coordinator.verify(null)).extracting(AdminView.VerifyRow::result).containsExactly("equal", "equal");
        assertThat(coordinator.divergences().snapshot()).hasSize(1);
    }

    /** A repair the replica refuses part of (a CHECK constraint only r3 has) changes nothing there: all or nothing. */
    @Test
    void aRepairThatFailsPartWayChangesNothing() throws Exception {
        start();
        through("CREATE TABLE codes (id INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO codes VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        behindTheShepherdsBack(pools.get(2), "UPDATE codes SET v = 'x' WHERE id = 1", "UPDATE codes SET v = 'zz' WHERE id = 2");
        try (Connection c = pools.get(2).acquire(); Statement st = c.createStatement()) {
            st.executeUpdate("ALTER TABLE codes ADD CONSTRAINT no_b CHECK (v <> 'b')");
            c.commit();
        }
        assertThat(coordinator.verify("codes", true)).singleElement().satisfies(row -> {
            assertThat(row.repaired()).isEmpty();
            assertThat(row.result()).as("%s", row).contains("the repair failed on r3").contains("NO_B");
        });
        assertThat(coordinator.awaitIdle(IDLE_MS)).isTrue();
        assertThat(dump(pools.get(2), "SELECT * FROM codes ORDER BY id")).as("row 1 was repairable, but not alone")
                .containsExactly("1|x", "2|zz", "3|c");
    }

    /**
     * A table of another schema (named in the SQL, as the driver asks: a session's default schema is the replicas'):
     * compared and repaired when named as SCHEMA.TABLE or with its schema, in any case; the default schema's tables stay
     * out of a schema's comparison and the schema's out of the default's.
     */
    @Test
    void aTableOfAnotherSchemaIsComparedAndRepaired() throws Exception {
        start();
        createItems();
        try (Session s = coordinator.openSession("app", "db")) {
            s.execute("CREATE SCHEMA sales", List.of(), ExecOptions.DEFAULT);
            s.execute("CREATE TABLE sales.orders (id INT PRIMARY KEY, total DECIMAL(10,2))", List.of(), ExecOptions.DEFAULT);
            s.execute("CREATE TABLE sales.item (id INT PRIMARY KEY)", List.of(), ExecOptions.DEFAULT);
            s.execute("INSERT INTO sales.orders VALUES (1, 10.50), (2, 20.00), (3, 30.25)", List.of(), ExecOptions.DEFAULT);
            s.execute("INSERT INTO sales.item VALUES (7)", List.of(), ExecOptions.DEFAULT);
        }
        assertThat(coordinator.awaitIdle(IDLE_MS)).isTrue();
        behindTheShepherdsBack(pools.get(2), "UPDATE sales.orders SET total = 99 WHERE id = 2",
                "DELETE FROM sales.orders WHERE id = 3");

        assertThat(coordinator.verify(null, false)).extracting(AdminView.VerifyRow::table).containsExactly("ITEM", "TAG");
        assertThat(coordinator.verify("Sales.*", false)).extracting(AdminView.VerifyRow::table, AdminView.VerifyRow::differing)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("SALES.ITEM", ""),
                        org.assertj.core.groups.Tuple.tuple("SALES.ORDERS", "r3"));
        assertThat(coordinator.verify("sales.orders", true)).singleElement().satisfies(row -> {
            assertThat(row.table()).isEqualTo("SALES.ORDERS");
            assertThat(row.differing()).isEqualTo("r3");
            assertThat(row.result()).isEqualTo("equal");
            assertThat(row.repaired()).isEqualTo("r3: 0 deleted, 1 updated, 1 inserted");
        });
        String orders = "SELECT id, total FROM sales.orders ORDER BY id";
        assertThat(dump(pools.get(2), orders)).isEqualTo(dump(pools.get(0), orders)).containsExactly("1|10.50", "2|20.00", "3|30.25");
        assertThat(coordinator.verify("item", false)).extracting(AdminView.VerifyRow::table).containsExactly("ITEM");
        assertThatThrownBy(() -> coordinator.verify("nowhere.*", false)).isInstanceOf(SQLException.class)
                .hasMessageContaining("no schema nowhere");
        assertThatThrownBy(() -> coordinator.verify("sales.nothing", false)).isInstanceOf(SQLException.class)
                .hasMessageContaining("no table nothing in schema SALES");
    }

    /** Equal replicas: nothing to repair, nothing written. */
    @Test
    void equalReplicasAreLeftAlone() throws Exception {
        start();
        createItems();
        assertThat(coordinator.verify("item", true)).singleElement().satisfies(row -> {
            assertThat(row.differing()).isEmpty();
            assertThat(row.repaired()).isEmpty();
            assertThat(row.result()).isEqualTo("equal");
        });
    }

    /**
     * Clients transfer money between the accounts while r3's balance of account 3 is wrong and is repaired: the repair
     * takes its place in the serial order, so every transfer after it applies on the repaired row, and the replicas end
     * equal, with the bank's total.
     */
    @Test
    void aRepairWhileClientsWriteTheSameRowsLeavesEqualReplicas() throws Exception {
        start();
        BankWorkload bank = new BankWorkload(10, 1000);
        bank.create(SqlClient.sessions(coordinator));
        assertThat(coordinator.awaitIdle(IDLE_MS)).isTrue();
        behindTheShepherdsBack(pools.get(2), "UPDATE acct SET bal = 1 WHERE id = 3");
        long seed = 20261126L;
        ExecutorService clients = Executors.newSingleThreadExecutor();
        try {
            Future<BankWorkload.Counts> run = clients.submit(() -> bank.run(SqlClient.sessions(coordinator), 4, 60, 1, seed));
            List<AdminView.VerifyRow> rows = coordinator.verify("acct", true);
            assertThat(rows).as("seed %d", seed).singleElement().satisfies(row -> {
                assertThat(row.repaired()).as("%s", row).isEqualTo("r3: 0 deleted, 1 updated, 0 inserted");
                assertThat(row.result()).as("%s", row).isEqualTo("equal");
            });
            run.get(5, TimeUnit.MINUTES);
        } finally {
            clients.shutdownNow();
        }
        assertThat(coordinator.awaitIdle(IDLE_MS)).isTrue();
        bank.assertReplicasAgree(pools);
    }
}
