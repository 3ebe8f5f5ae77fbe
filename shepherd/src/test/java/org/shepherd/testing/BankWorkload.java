package org.shepherd.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
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
import org.shepherd.replica.jdbc.ReplicaPool;

/**
 * The bank: {@code accounts} rows of table {@code acct (id, bal)}, each starting at {@code initialBalance}.
 * Concurrent clients transfer money (two updates in one transaction, in account-id order so that transfers do not
 * deadlock) and read the total, in autocommit and inside a transaction; every read must see the initial total.
 * Afterwards, with the replicas idle, every replica must hold the total and the same rows and commit log.
 * Seeded: client {@code i} uses {@code seed + i}, and every failure names the client's seed.
 */
public final class BankWorkload {
    public static final String TABLE = "acct";
    private static final int AMOUNT_MAX = 50;
    private static final long CLIENTS_TIMEOUT_MINUTES = 5;

    private final int accounts;
    private final long initialBalance;

    /**
     * What a run did: committed transfers, reads by the clients, reads by the readers that ran while they wrote,
     * retried transactions and their errors (SQLState and message).
     */
    public record Counts(long transfers, long reads, long readsWhileWriting, long retries, List<String> retriedErrors) {
    }

    public BankWorkload(int accounts, long initialBalance) {
        if (accounts < 2) throw new IllegalArgumentException("a bank needs at least 2 accounts, not " + accounts);
        this.accounts = accounts;
        this.initialBalance = initialBalance;
    }

    public long total() {
        return accounts * initialBalance;
    }

    /** Creates and fills {@code acct} through one client (the inserts in one transaction). */
    public void create(SqlClient.Factory clients) throws SQLException {
        try (SqlClient c = clients.open()) {
            c.update("CREATE TABLE acct (id INTEGER NOT NULL PRIMARY KEY, bal BIGINT NOT NULL)");
            c.setAutoCommit(false);
            for (int i = 0; i < accounts; i++) {
                c.update("INSERT INTO acct (id, bal) VALUES (?, ?)", i, initialBalance);
            }
            c.commit();
        }
    }

    /**
     * {@code clients} clients run {@code txnsPerClient} transactions each (a fifth autocommit reads of the total, a
     * fifth reads in a transaction, the rest transfers) while {@code readersWhileWriting} more clients read the
     * total over and over (alternately in autocommit and in a transaction) until the others are done.
     */
    public Counts run(SqlClient.Factory factory, int clients, int txnsPerClient, int readersWhileWriting, long seed)
            throws Exception {
        Run run = new Run(factory);
        ExecutorService pool = Executors.newFixedThreadPool(clients + readersWhileWriting);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                long clientSeed = seed + c;
                writers.add(pool.submit(() -> run.client(clientSeed, txnsPerClient)));
            }
            List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < readersWhileWriting; r++) {
                long readerSeed = seed + clients + r;
                boolean inTransaction = r % 2 == 1;
                readers.add(pool.submit(() -> run.reader(readerSeed, inTransaction)));
            }
            try {
                for (Future<?> f : writers) f.get(CLIENTS_TIMEOUT_MINUTES, TimeUnit.MINUTES);
            } finally {
                run.writing.set(false);
            }
            for (Future<?> f : readers) f.get(CLIENTS_TIMEOUT_MINUTES, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        Counts counts = new Counts(run.transfers.get(), run.reads.get(), run.readsWhileWriting.get(), run.retrying.retries(),
                run.retrying.retriedErrors());
        assertThat(counts.transfers() + counts.reads()).as("transactions of the clients (seed %d)", seed)
                .isEqualTo((long) clients * txnsPerClient);
        return counts;
    }

    /**
     * With the replicas idle: every replica holds the total, and its accounts and commit log ({@code shepherd_txlog})
     * equal the first replica's.
     */
    public void assertReplicasAgree(List<ReplicaPool> pools) throws SQLException {
        for (ReplicaPool p : pools) {
            assertThat(totalOn(p)).as("total on %s", p.spec().name()).isEqualTo(total());
        }
        ReplicaTables.assertEqualEverywhere(pools, TABLE, "id");
        ReplicaTables.assertEqualEverywhere(pools, "shepherd_txlog", "txid");
    }

    private static long totalOn(ReplicaPool pool) throws SQLException {
        try (Connection c = pool.acquire(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT SUM(bal) FROM " + TABLE)) {
            assertThat(rs.next()).isTrue();
            long total = rs.getLong(1);
            c.rollback();
            return total;
        }
    }

    private final class Run {
        final SqlClient.Factory factory;
        final Retrying retrying = new Retrying();
        final AtomicLong transfers = new AtomicLong();
        final AtomicLong reads = new AtomicLong();
        final AtomicLong readsWhileWriting = new AtomicLong();
        final AtomicBoolean writing = new AtomicBoolean(true);

        Run(SqlClient.Factory factory) {
            this.factory = factory;
        }

        Void client(long seed, int txns) throws SQLException {
            Random random = new Random(seed);
            try (SqlClient c = factory.open()) {
                for (int i = 0; i < txns; i++) {
                    int kind = random.nextInt(5);
                    int from = random.nextInt(accounts);
                    int to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
                    long amount = 1 + random.nextInt(AMOUNT_MAX);
                    retrying.run(c, seed, () -> {
                        if (kind < 2) {
                            readTotal(c, kind == 1, from, seed);
                            reads.incrementAndGet();
                        } else {
                            transfer(c, from, to, amount, seed);
                            transfers.incrementAndGet();
                        }
                    });
                }
            }
            return null;
        }

        Void reader(long seed, boolean inTransaction) throws SQLException {
            Random random = new Random(seed);
            try (SqlClient c = factory.open()) {
                do {
                    int account = random.nextInt(accounts);
                    retrying.run(c, seed, () -> readTotal(c, inTransaction, account, seed));
                    readsWhileWriting.incrementAndGet();
                } while (writing.get());
            }
            return null;
        }
    }

    private void readTotal(SqlClient c, boolean inTransaction, int account, long seed) throws SQLException {
        c.setAutoCommit(!inTransaction);
        long seen = ((Number) c.query("SELECT SUM(bal) AS total FROM acct").get(0)[0]).longValue();
        assertThat(seen).as("total read %s by client seed %d", inTransaction ? "in a transaction" : "in autocommit", seed)
                .isEqualTo(total());
        if (inTransaction) {
            assertThat(c.query("SELECT id, bal FROM acct WHERE id = ?", account)).as("account %d (client seed %d)", account, seed)
                    .hasSize(1);
            c.commit();
        }
    }

    private static void transfer(SqlClient c, int from, int to, long amount, long seed) throws SQLException {
        c.setAutoCommit(false);
        for (int id : new int[] {Math.min(from, to), Math.max(from, to)}) {
            long change = id == from ? -amount : amount;
            assertThat(c.update("UPDATE acct SET bal = bal + ? WHERE id = ?", change, id))
                    .as("accounts updated for id %d (client seed %d)", id, seed).isEqualTo(1);
        }
        c.commit();
    }
}
