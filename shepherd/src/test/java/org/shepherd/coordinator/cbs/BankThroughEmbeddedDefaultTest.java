package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.config.EmbeddedDefault;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.server.ShepherdServer;

/**
 * Issue 3's acceptance workload, end to end: the embedded default (3 Derby replicas, f=1, mode=cbs) behind the
 * server, reached through the JDBC driver by concurrent transfer clients and concurrent balance readers. Every
 * read must see the whole total; afterwards the three replica databases hold identical tables and no replica
 * was reported divergent.
 */
class BankThroughEmbeddedDefaultTest {

    private static final int ACCOUNTS = 20;
    private static final long INITIAL_BALANCE = 1_000;
    private static final int WRITERS = 6;
    private static final int TRANSFERS_PER_WRITER = 25;
    private static final int READERS = 2;
    private static final int ATTEMPTS_MAX = 50;

    @Test
    void concurrentTransfersAndReadsKeepTheTotalAndLeaveIdenticalReplicas(@TempDir Path dir) throws Exception {
        long seed = Long.getLong("bank.seed", System.nanoTime());
        ShepherdConfig config = EmbeddedDefault.config(dir.resolve("shepherd-data"), "127.0.0.1:0");
        try (ShepherdServer server = ShepherdServer.create(config)) {
            server.start();
            String url = server.jdbcUrl("shepherd");
            String password = config.users().get(EmbeddedDefault.USER);
            try (Connection c = DriverManager.getConnection(url, EmbeddedDefault.USER, password); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE account (id INT PRIMARY KEY, balance BIGINT NOT NULL)");
                c.setAutoCommit(false);
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO account VALUES (?, ?)")) {
                    for (int i = 0; i < ACCOUNTS; i++) {
                        ps.setInt(1, i);
                        ps.setLong(2, INITIAL_BALANCE);
                        ps.executeUpdate();
                    }
                }
                c.commit();
            }

            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicLong retries = new AtomicLong();
            AtomicLong reads = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
            List<Future<?>> writers = new ArrayList<>();
            List<Future<?>> readers = new ArrayList<>();
            try {
                for (int w = 0; w < WRITERS; w++) {
                    Random random = new Random(seed + w);
                    writers.add(pool.submit(() -> transfers(url, password, random, retries)));
                }
                for (int r = 0; r < READERS; r++) {
                    boolean inTransaction = r % 2 == 1;
                    readers.add(pool.submit(() -> readTotals(url, password, inTransaction, writing, reads)));
                }
                for (Future<?> f : writers) f.get(5, TimeUnit.MINUTES);
                writing.set(false);
                for (Future<?> f : readers) f.get(1, TimeUnit.MINUTES);
            } catch (Exception e) {
                throw new AssertionError("bank workload failed; replay with -Dbank.seed=" + seed, e);
            } finally {
                pool.shutdownNow();
            }
            assertThat(reads.get()).as("balance reads (seed %d)", seed).isPositive();

            CbsCoordinator coordinator = (CbsCoordinator) server.coordinator();
            assertThat(coordinator.awaitIdle(30_000)).as("replicas drained (seed %d)", seed).isTrue();
            List<String> reference = null;
            for (JdbcReplicaEndpoint e : coordinator.endpoints()) {
                List<String> rows = new ArrayList<>();
                try (Connection c = e.pool().acquire(); Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT id, balance FROM account ORDER BY id")) {
                    while (rs.next()) rows.add(rs.getInt(1) + "=" + rs.getLong(2));
                    c.rollback();
                }
                assertThat(rows.stream().mapToLong(r -> Long.parseLong(r.substring(r.indexOf('=') + 1))).sum())
                        .as("total on %s (seed %d)", e.name(), seed).isEqualTo(ACCOUNTS * INITIAL_BALANCE);
                if (reference == null) {
                    reference = rows;
                } else {
                    assertThat(rows).as("table on %s equals the first replica's (seed %d)", e.name(), seed)
                            .isEqualTo(reference);
                }
            }
            assertThat(coordinator.divergences().snapshot()).as("divergence reports (seed %d)", seed).isEmpty();
        }
    }

    private static Void transfers(String url, String password, Random random, AtomicLong retries) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, EmbeddedDefault.USER, password)) {
            c.setAutoCommit(false);
            try (PreparedStatement debit = c.prepareStatement("UPDATE account SET balance = balance - ? WHERE id = ?");
                    PreparedStatement credit = c.prepareStatement("UPDATE account SET balance = balance + ? WHERE id = ?")) {
                for (int t = 0; t < TRANSFERS_PER_WRITER; t++) {
                    int from = random.nextInt(ACCOUNTS);
                    int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                    long amount = 1 + random.nextInt(50);
                    for (int attempt = 1; ; attempt++) {
                        try {
                            debit.setLong(1, amount);
                            debit.setInt(2, from);
                            assertThat(debit.executeUpdate()).isEqualTo(1);
                            credit.setLong(1, amount);
                            credit.setInt(2, to);
                            assertThat(credit.executeUpdate()).isEqualTo(1);
                            c.commit();
                            break;
                        } catch (SQLException e) {
                            c.rollback();
                            if (!retryable(e) || attempt >= ATTEMPTS_MAX) throw e;
                            retries.incrementAndGet();
                        }
                    }
                }
            }
        }
        return null;
    }

    private static Void readTotals(String url, String password, boolean inTransaction, AtomicBoolean writing, AtomicLong reads)
            throws SQLException {
        try (Connection c = DriverManager.getConnection(url, EmbeddedDefault.USER, password)) {
            c.setAutoCommit(!inTransaction);
            do {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT SUM(balance) FROM account")) {
                    assertThat(rs.next()).isTrue();
                    long total = rs.getLong(1);
                    if (inTransaction) c.commit();
                    assertThat(total).as("total seen by a %s read", inTransaction ? "transactional" : "autocommit")
                            .isEqualTo(ACCOUNTS * INITIAL_BALANCE);
                    reads.incrementAndGet();
                } catch (SQLException e) {
                    if (inTransaction) c.rollback();
                    if (!retryable(e)) throw e;
                }
            } while (writing.get());
        }
        return null;
    }

    private static boolean retryable(SQLException e) {
        String state = e.getSQLState();
        return state != null && state.startsWith("40");
    }
}
