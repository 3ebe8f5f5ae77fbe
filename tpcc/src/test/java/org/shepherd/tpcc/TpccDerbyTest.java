package org.shepherd.tpcc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * One small warehouse in two embedded Derby databases: A loaded here, B a copy of an identical load made with the
 * same seed and load time (see DerbyTestSupport). A stays as loaded, B runs transactions.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TpccDerbyTest {

    private static final long SEED = DerbyTestSupport.SEED;
    private static final Scale SCALE = DerbyTestSupport.SCALE;
    private static final Jdbc A = new Jdbc("jdbc:derby:memory:tpcc-a;create=true", null, null);
    private static final PrintStream QUIET = DerbyTestSupport.quiet();
    private static Jdbc copyB;

    private static List<Digest.TableDigest> loadedDigest;

    @BeforeAll
    static void loadTwice() throws Exception {
        DerbyTestSupport.shortLockTimeouts();
        DerbyTestSupport.load(A);
        copyB = new Jdbc(DerbyTestSupport.loadedCopy("tpcc-b"), null, null);
    }

    @AfterAll
    static void drop() {
        DerbyTestSupport.dropInMemory("tpcc-a");
        DerbyTestSupport.dropInMemory("tpcc-b");
    }

    @Test
    @Order(1)
    void freshLoadPassesAllTwelveConditionsIncludingEleven() throws SQLException {
        try (Connection c = A.connect()) {
            List<Checker.Condition> conditions = new Checker(c, SCALE).checkAll(true);
            assertThat(conditions).extracting(Checker.Condition::number)
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
            assertThat(conditions).allSatisfy(x -> assertThat(x.status()).as(x.toString()).isEqualTo(Checker.Status.PASS));
            assertThat(TpccCli.count(c, "SELECT COUNT(*) FROM customer")).isEqualTo(10L * SCALE.customersPerDistrict());
            assertThat(TpccCli.count(c, "SELECT COUNT(*) FROM new_order")).isEqualTo(10L * SCALE.newOrdersPerDistrict());
            assertThat(TpccCli.count(c, TpccSql.COUNT_ITEMS)).isEqualTo(SCALE.items());
        }
    }

    @Test
    @Order(2)
    void identicalLoadsHaveEqualDigests() throws SQLException {
        try (Connection a = A.connect(); Connection b = copyB.connect()) {
            loadedDigest = Digest.ofTables(a);
            assertThat(Digest.ofTables(b)).isEqualTo(loadedDigest);
            assertThat(loadedDigest).extracting(Digest.TableDigest::rows).allSatisfy(n -> assertThat(n).isPositive());
        }
    }

    @Test
    @Order(3)
    void everyTransactionTypeRunsAndTheDatabaseStaysConsistent() throws SQLException {
        TpccRandom random = new TpccRandom(SEED, NuRandConstants.forRun(SEED));
        Map<TxType, Integer> committed = new EnumMap<>(TxType.class);
        try (Connection c = copyB.connect(); Transactions tx = new Transactions(c, Clock.systemUTC())) {
            for (TxType type : TxType.ALL) {
                for (int i = 0; i < 20; i++) {
                    TxInput input = TxInput.draw(type, random, SCALE, 1, 3);
                    if (tx.run(input) == Transactions.Outcome.COMMITTED) committed.merge(type, 1, Integer::sum);
                }
            }
            TxInput.NewOrder unusedItem = new TxInput.NewOrder(1, 2, 3, List.of(
                new TxInput.OrderLine(5, 1, 3), new TxInput.OrderLine(SCALE.items() + 1, 1, 2)));
            long ordersBefore = TpccCli.count(c, "SELECT COUNT(*) FROM orders");
            assertThat(tx.run(unusedItem)).isEqualTo(Transactions.Outcome.ROLLED_BACK);
            assertThat(TpccCli.count(c, "SELECT COUNT(*) FROM orders")).isEqualTo(ordersBefore);
            c.commit();

            assertThat(committed.get(TxType.PAYMENT)).isEqualTo(20);
            assertThat(committed.get(TxType.ORDER_STATUS)).isEqualTo(20);
            assertThat(committed.get(TxType.DELIVERY)).isEqualTo(20);
            assertThat(committed.get(TxType.STOCK_LEVEL)).isEqualTo(20);
            assertThat(committed.get(TxType.NEW_ORDER)).isBetween(18, 20);
            assertAllConditionsPass(c);
            List<Digest.TableDigest> after = Digest.ofTables(c);
            assertThat(hash(after, "item")).isEqualTo(hash(loadedDigest, "item"));
            assertThat(hash(after, "customer")).isNotEqualTo(hash(loadedDigest, "customer"));
            assertThat(hash(after, "orders")).isNotEqualTo(hash(loadedDigest, "orders"));
            c.commit();
        }
    }

    @Test
    @Order(4)
    void aChangedRowChangesOnlyItsTablesDigest() throws SQLException {
        try (Connection c = A.connect(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE customer SET c_data = 'changed' WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 1");
            List<Digest.TableDigest> after = Digest.ofTables(c);
            assertThat(hash(after, "customer")).isNotEqualTo(hash(loadedDigest, "customer"));
            assertThat(after.stream().filter(d -> !d.table().equals("customer")).toList())
                .isEqualTo(loadedDigest.stream().filter(d -> !d.table().equals("customer")).toList());
        }
    }

    @Test
    @Order(5)
    void terminalsRunTheMixConcurrentlyAndTheDatabaseStaysConsistent() throws Exception {
        int terminals = 3;
        int perTerminal = 40;
        Runner.Options options = new Runner.Options(SCALE, terminals, 600, 0, SEED, 0, 0, 10, 60, perTerminal, 0,
            Clock.systemUTC());
        RunResult result = new Runner(copyB, options, QUIET).run();
        assertThat(result.errors()).as(String.valueOf(result.firstErrors())).isZero();
        assertThat(result.transactions()).isEqualTo((long) terminals * perTerminal);
        assertThat(result.byType()).extracting(RunResult.TypeSummary::type)
            .containsExactly("NewOrder", "Payment", "OrderStatus", "Delivery", "StockLevel");
        long newOrders = result.byType().get(0).count();
        assertThat(result.tpmC()).isEqualTo(newOrders * 60 / result.elapsedS());
        try (Connection c = copyB.connect()) {
            assertAllConditionsPass(c);
        }
    }

    /** The progress lines of the warm-up count its transactions (they are not measured). */
    @Test
    @Order(6)
    void theWarmUpsProgressLinesCountItsTransactions() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        Runner.Options options = new Runner.Options(SCALE, 2, 1, 2, SEED, 0, 0, 10, 0.5, 0, 0, Clock.systemUTC());
        RunResult result;
        try (PrintStream log = new PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8)) {
            result = new Runner(copyB, options, log).run();
        }
        List<String> warmUp = bytes.toString(java.nio.charset.StandardCharsets.UTF_8).lines()
                .filter(l -> l.contains(" warm-up tx ")).toList();
        assertThat(warmUp).as("progress every 0.5 s of a 2 s warm-up").isNotEmpty();
        assertThat(Long.parseLong(warmUp.get(warmUp.size() - 1).replaceAll(".* warm-up tx ([0-9,]+) .*", "$1").replace(",", "")))
                .as("warm-up transactions, last line: %s", warmUp.get(warmUp.size() - 1)).isPositive();
        assertThat(result.progress()).as("only the measured window's samples").allMatch(p -> p.elapsedS() >= 2);
    }

    private static void assertAllConditionsPass(Connection c) throws SQLException {
        List<Checker.Condition> conditions = new Checker(c, SCALE).checkAll(false);
        for (Checker.Condition x : conditions) {
            assertThat(x.status()).as(x.toString()).isEqualTo(x.number() == 11 ? Checker.Status.SKIP : Checker.Status.PASS);
        }
    }

    private static String hash(List<Digest.TableDigest> digests, String table) {
        return digests.stream().filter(d -> d.table().equals(table)).findFirst().orElseThrow().hash();
    }
}
