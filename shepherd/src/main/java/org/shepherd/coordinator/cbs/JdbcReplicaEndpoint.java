package org.shepherd.coordinator.cbs;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.StatementThreads;
import org.shepherd.recovery.RestartPlan;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;
import org.shepherd.translator.Bound;
import org.shepherd.replica.Outcome;
import org.shepherd.replica.ReplicaEndpoint;
import org.shepherd.replica.jdbc.JdbcExecution;
import org.shepherd.replica.jdbc.JdbcValues;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.replica.jdbc.StatementCache;
import org.shepherd.replica.setup.ReplicaSetup;
import org.shepherd.replica.setup.StatementGate;
import org.shepherd.translator.dialect.Dialect;
import org.shepherd.vote.AnswerDigest;
import org.shepherd.vote.Ballot;
import org.shepherd.vote.ErrorOutcome;
import org.shepherd.wal.IgnorableError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real replica behind JDBC: one connection per (transaction, attempt), JDBC calls on a bounded pool of worker
 * threads, outcomes handed back to the core. The primary's rows of an autocommit statement are held for the client
 * ({@link SpillingRows}: memory, then disk); a secondary's rows only feed the digest.
 */
public final class JdbcReplicaEndpoint implements ReplicaEndpoint<JdbcStatement>, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcReplicaEndpoint.class);
    /** Requests queued per replica at most; beyond it the replica counts as overloaded (down). */
    public static final int QUEUED_REQUESTS_MAX = 10_000;
    public static final String TXLOG_TABLE = "shepherd_txlog";
    /**
     * One row: what the rows of {@link #TXLOG_TABLE} that truncations deleted held (the highest barrier a truncation went
     * through, how many rows, and a high water at least as high as their highest transaction id and barrier). No row:
     * nothing was deleted.
     */
    public static final String TXLOG_BASE_TABLE = "shepherd_txlog_base";
    /** Ends the connections of replicas given up; its threads may wait for a replica that does not answer. */
    private static final java.util.concurrent.ExecutorService RELEASER = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "replica-release");
        t.setDaemon(true);
        return t;
    });
    private static final String TXLOG_INSERT = "INSERT INTO " + TXLOG_TABLE + "(txid, barrier) VALUES (?, ?)";

    private record TxConnection(int attempt, Connection connection) {
    }

    private final ReplicaPool pool;
    private final StatementCache statements = new StatementCache();
    private final Dialect dialect;
    private final JdbcValues values;
    private final ReplicaSetup setup;
    private final int fetchSize;
    private final SpillSpace spill;
    private final long resultMemoryBytesMax;
    private final ThreadPoolExecutor workers;
    /** Pings run here, not on the workers: every worker may be stuck in a call to a replica that stopped answering. */
    private final java.util.concurrent.ExecutorService pinger;
    /** Truncations of the transaction log run here, off the workers and the pinger. */
    private final ThreadPoolExecutor maintenance;
    private final Map<Long, TxConnection> connections = new ConcurrentHashMap<>();
    /**
     * Incremented (under this endpoint's lock) when the coordinator gives the replica up ({@link #wentDown}): a request
     * sent before then that has not taken its connection yet fails instead of opening one that nobody would end.
     */
    private volatile int generation;
    private final Map<Long, Statement> running = new ConcurrentHashMap<>();
    /** Set on this replica's worker threads: the request it runs next ({@link #runChain}). */
    private final ThreadLocal<Runnable[]> continuation = new ThreadLocal<>();
    private volatile Consumer<String> trace;

    /**
     * @param workerThreadsMax JDBC calls running at once on this replica (one per open transaction at most)
     * @param fetchSize rows per round trip when reading results
     * @param spill where a held result goes beyond {@code resultMemoryBytesMax}, with the shared disk bound
     * @param resultMemoryBytesMax heap one held result of the primary may take before it spills to disk
     */
    JdbcReplicaEndpoint(ReplicaPool pool, int workerThreadsMax, int fetchSize, SpillSpace spill, long resultMemoryBytesMax) {
        this.pool = pool;
        this.values = JdbcValues.forDialect(pool.spec().dialect());
        this.setup = ReplicaSetup.forDialect(pool.spec().dialect());
        try {
            this.dialect = Dialect.forName(pool.spec().dialect());
        } catch (SQLException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        this.fetchSize = fetchSize;
        this.spill = spill;
        this.resultMemoryBytesMax = resultMemoryBytesMax;
        AtomicInteger n = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(workerThreadsMax, workerThreadsMax, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUED_REQUESTS_MAX),
                r -> StatementThreads.newThread(r, "replica-" + pool.spec().name() + "-" + n.incrementAndGet()));
        workers.allowCoreThreadTimeOut(true);
        this.pinger = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "replica-" + pool.spec().name() + "-ping");
            t.setDaemon(true);
            return t;
        });
        this.maintenance = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(4),
                r -> StatementThreads.newThread(r, "replica-" + pool.spec().name() + "-maintenance"));
        maintenance.allowCoreThreadTimeOut(true);
    }

    @Override
    public String name() {
        return pool.spec().name();
    }

    @Override
    public boolean commitGated() {
        return setup.statementGate() == StatementGate.PREDECESSORS_COMMITTED;
    }

    @Override
    public boolean canBePrimary() {
        return setup.canBePrimary();
    }

    /** A secondary's connections are used by its transactions only, so the coordinator may plan with all of them. */
    @Override
    public int connectionsMax() {
        return pool.sizeMax();
    }

    @Override
    public String engine() {
        return dialect.family().name();
    }

    public Dialect dialect() {
        return dialect;
    }

    public ReplicaPool pool() {
        return pool;
    }

    /** Observes every request as it starts on this replica ("exec T3 ...", "commit T3", "rollback T3"), for tests. */
    public void setTrace(Consumer<String> trace) {
        this.trace = trace;
    }

    /**
     * What the rows deleted from a replica's transaction log held ({@link #TXLOG_BASE_TABLE}).
     *
     * @param through the highest barrier a truncation went through (-1: none); a restart never counts below it (rows at or
     *     below it may remain: those a running shepherd could not name)
     * @param committed how many rows were deleted
     * @param lastTxId at least the highest transaction id among them (-1: none)
     * @param lastBarrier at least the highest barrier among them (-1: none)
     */
    record TxlogBase(long through, long committed, long lastTxId, long lastBarrier) {
        static final TxlogBase NONE = new TxlogBase(-1, 0, -1, -1);
    }

    private static TxlogBase readBase(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT through_barrier, commit_count, last_txid, last_barrier FROM " + TXLOG_BASE_TABLE)) {
            if (!rs.next()) return TxlogBase.NONE;
            TxlogBase base = new TxlogBase(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4));
            if (rs.next()) throw new SQLException(TXLOG_BASE_TABLE + " holds more than one row", "XX000");
            return base;
        }
    }

    /**
     * The highest transaction id and the highest barrier in this replica's transaction log, truncated part included
     * ({@code -1} each when it is empty): what earlier runs of the shepherd committed here.
     */
    public long[] txlogHighWater() throws SQLException {
        try (Connection c = pool.acquireForMetadata()) {
            long[] out = {-1, -1};
            // the rows before the base, in the order a truncation writes them: a reader cannot deadlock with one
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT MAX(txid), MAX(barrier) FROM " + TXLOG_TABLE)) {
                if (rs.next()) {
                    long txid = rs.getLong(1);
                    if (!rs.wasNull()) out[0] = txid;
                    long barrier = rs.getLong(2);
                    if (!rs.wasNull()) out[1] = barrier;
                }
            }
            TxlogBase base = readBase(c);
            c.rollback();
            return new long[] {Math.max(out[0], base.lastTxId()), Math.max(out[1], base.lastBarrier())};
        }
    }

    /**
     * What this replica's transaction log holds, for a restart of the shepherd: its last transaction id and barrier
     * ({@code highWater}, as {@link #txlogHighWater()} read it), how many barriers up to {@code floor} it holds and which
     * ones above.
     */
    public RestartPlan.ReplicaLog readTxlog(long[] highWater, long floor) throws SQLException {
        try (Connection c = pool.acquireForMetadata()) {
            long upToFloor = countUpTo(c, floor, name());
            long[] above = barriersAbove(c, floor);
            c.rollback();
            return new RestartPlan.ReplicaLog(name(), canBePrimary(), highWater[0], highWater[1], upToFloor, above);
        }
    }

    /**
     * How many barriers up to {@code barrier} the log holds, the deleted rows included. The shepherd deletes only rows
     * at or below a floor it recorded first, so a count below the truncation point is never asked for; when it is (the
     * write-ahead log was replaced by an older copy, or this database by one from another shepherd), it fails.
     */
    private static long countUpTo(Connection c, long barrier, String replica) throws SQLException {
        if (barrier < 0) return 0;
        long rows;
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM " + TXLOG_TABLE + " WHERE barrier <= ?")) {
            ps.setLong(1, barrier);
            try (ResultSet rs = ps.executeQuery()) {
                rows = rs.next() ? rs.getLong(1) : 0;
            }
        }
        TxlogBase base = readBase(c); // after the rows, as a truncation writes them
        if (barrier < base.through()) {
            throw new SQLException("the transaction log of replica " + replica + " was truncated through barrier "
                    + base.through() + ", above the floor " + barrier + " it must be checked against: the write-ahead log"
                    + " is older than this replica's state (restore them together, or remove data.dir/wal)", "55000");
        }
        return base.committed() + rows;
    }

    private static long[] barriersAbove(Connection c, long above) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT barrier FROM " + TXLOG_TABLE + " WHERE barrier > ? ORDER BY barrier")) {
            ps.setLong(1, above);
            List<Long> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) found.add(rs.getLong(1));
            }
            return found.stream().mapToLong(Long::longValue).toArray();
        }
    }

    @Override
    public void countTxlog(long upTo, Consumer<Long> counted, Consumer<SQLException> failed) {
        try {
            maintenance.execute(() -> {
                long count;
                try (Connection c = pool.acquireForMetadata()) {
                    count = countUpTo(c, upTo, name());
                    c.rollback();
                } catch (SQLException | RuntimeException e) {
                    failed.accept(JdbcExecution.toSqlException(e));
                    return;
                }
                counted.accept(count);
            });
        } catch (RejectedExecutionException e) {
            failed.accept(new SQLException("replica " + name() + ": its maintenance thread is busy; try again", "55006", e));
        }
    }

    /** Creates the replica transaction log's tables unless they exist. */
    public void createTxlogIfMissing() throws SQLException {
        try (Connection c = pool.acquireForMetadata()) {
            createIfMissing(c, TXLOG_TABLE, "txid BIGINT NOT NULL PRIMARY KEY, barrier BIGINT NOT NULL");
            createIfMissing(c, TXLOG_BASE_TABLE, "through_barrier BIGINT NOT NULL, commit_count BIGINT NOT NULL,"
                    + " last_txid BIGINT NOT NULL, last_barrier BIGINT NOT NULL");
            if (DeclinedIndexes.applies(dialect)) {
                DeclinedIndexes.ensureTable(c);
                c.commit();
            }
        }
    }

    private void createIfMissing(Connection c, String table, String columns) throws SQLException {
        // metadata with a null catalog/schema would also find the table in another database of the same server
        boolean exists;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM " + table + " WHERE 1 = 0")) {
            exists = true;
        } catch (SQLException missing) {
            exists = false;
            c.rollback();
        }
        if (!exists) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + table + " (" + columns + ")");
            }
            LOG.info("created {} on replica {}", table, name());
        }
        c.commit();
    }

    /**
     * Deletes the rows of this replica's transaction log up to barrier {@code through}, adding their count to
     * {@link #TXLOG_BASE_TABLE} in the same transaction, with the log's high water ({@code highWater}, as
     * {@link #txlogHighWater()} read it) as the base's: the rows deleted are not read, only counted by the DELETE. For
     * the start-up only, before any transaction runs: it scans the table, and a scan would wait for (and could deadlock
     * with) transactions committing meanwhile. The caller guarantees that this replica holds every committed transaction
     * up to {@code through} and that a restart never counts below it.
     */
    public void truncateTxlogThrough(long through, long[] highWater) throws SQLException {
        if (through < 0) return;
        try (Connection c = pool.acquireForMetadata()) {
            try {
                long deleted;
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + TXLOG_TABLE + " WHERE barrier <= ?")) {
                    ps.setLong(1, through);
                    deleted = ps.executeUpdate();
                }
                TxlogBase base = readBase(c); // after the rows, as a running truncation writes them
                writeBase(c, base, new TxlogBase(Math.max(base.through(), through), base.committed() + deleted,
                        Math.max(base.lastTxId(), highWater[0]), Math.max(base.lastBarrier(), highWater[1])));
                c.commit();
                if (deleted > 0) LOG.info("replica {}: truncated {} rows of {} through barrier {}", name(), deleted, TXLOG_TABLE, through);
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /** Transaction log rows deleted per database transaction: below the row-lock counts at which engines escalate. */
    static final int TRUNCATE_ROWS_PER_TRANSACTION = 1_000;

    /**
     * Deletes the named rows by primary key ({@link ReplicaEndpoint#truncateTxlog}): the rows of durable transactions
     * every replica committed, which no transaction running here touches, so the deletion never waits for one. At READ
     * COMMITTED, {@link #TRUNCATE_ROWS_PER_TRANSACTION} rows per transaction, each with its update of
     * {@link #TXLOG_BASE_TABLE}; on a connection and a thread of their own.
     */
    @Override
    public void truncateTxlog(long[] txIds, long[] barriers, Consumer<Outcome> done) {
        try {
            maintenance.execute(() -> {
                try (Connection c = pool.acquireForMetadata()) {
                    int isolation = c.getTransactionIsolation();
                    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                    try {
                        for (int from = 0; from < txIds.length; from += TRUNCATE_ROWS_PER_TRANSACTION) {
                            int to = Math.min(txIds.length, from + TRUNCATE_ROWS_PER_TRANSACTION);
                            deleteRows(c, txIds, barriers, from, to);
                            c.commit();
                        }
                    } catch (SQLException | RuntimeException e) {
                        c.rollback();
                        throw e;
                    } finally {
                        c.setTransactionIsolation(isolation);
                    }
                    done.accept(Outcome.done());
                } catch (SQLException | RuntimeException e) {
                    done.accept(Outcome.retryable(JdbcExecution.toSqlException(e)));
                }
            });
        } catch (RejectedExecutionException e) {
            done.accept(Outcome.retryable(new SQLException("replica " + name() + ": a truncation is already running", "55006", e)));
        }
    }

    private static void deleteRows(Connection c, long[] txIds, long[] barriers, int from, int to) throws SQLException {
        TxlogBase base = readBase(c);
        int[] counts;
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + TXLOG_TABLE + " WHERE txid = ?")) {
            for (int i = from; i < to; i++) {
                ps.setLong(1, txIds[i]);
                ps.addBatch();
            }
            counts = ps.executeBatch();
        }
        long deleted = 0;
        long lastTxId = base.lastTxId();
        long lastBarrier = base.lastBarrier();
        for (int i = 0; i < counts.length; i++) {
            // a row a failed truncation already deleted is gone (and counted): 0
            if (counts[i] == 0) continue;
            if (counts[i] == Statement.SUCCESS_NO_INFO) { // counting it blindly could count a row twice
                throw new SQLException("the replica's driver does not say how many rows each DELETE of a batch deleted: its "
                        + TXLOG_TABLE + " is not truncated", "0A000");
            }
            if (counts[i] != 1) {
                throw new SQLException(counts[i] + " rows of " + TXLOG_TABLE + " for transaction " + txIds[from + i], "XX000");
            }
            deleted++;
            lastTxId = Math.max(lastTxId, txIds[from + i]);
            lastBarrier = Math.max(lastBarrier, barriers[from + i]);
        }
        writeBase(c, base, new TxlogBase(Math.max(base.through(), barriers[to - 1]), base.committed() + deleted, lastTxId,
                lastBarrier));
    }

    private static void writeBase(Connection c, TxlogBase old, TxlogBase now) throws SQLException {
        String sql = old == TxlogBase.NONE
                ? "INSERT INTO " + TXLOG_BASE_TABLE + " (through_barrier, commit_count, last_txid, last_barrier) VALUES (?, ?, ?, ?)"
                : "UPDATE " + TXLOG_BASE_TABLE + " SET through_barrier = ?, commit_count = ?, last_txid = ?, last_barrier = ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, now.through());
            ps.setLong(2, now.committed());
            ps.setLong(3, now.lastTxId());
            ps.setLong(4, now.lastBarrier());
            if (ps.executeUpdate() != 1) throw new SQLException(TXLOG_BASE_TABLE + " changed while it was updated", "40001");
        }
    }

    private void submit(Consumer<Outcome> done, Supplier<String> what, Runnable task) {
        Runnable job = traced(what, task);
        Runnable[] next = continuation.get();
        if (next != null && next[0] == null) {
            next[0] = job; // this worker runs it as soon as its current request is over
            return;
        }
        try {
            workers.execute(() -> runChain(job));
        } catch (RejectedExecutionException e) {
            done.accept(Outcome.down(new SQLException("replica " + name() + " has more than " + QUEUED_REQUESTS_MAX
                    + " queued requests", "08004", e)));
        }
    }

    /**
     * Runs {@code first} on this worker, then the one request handed to this replica while it ran (the core usually
     * sends the transaction's next statement or its commit from the outcome of the current one): the worker that
     * just finished makes the call itself instead of waking another worker and waiting for it.
     */
    private void runChain(Runnable first) {
        Runnable[] next = new Runnable[1];
        continuation.set(next);
        Runnable job = first;
        try {
            while (job != null) {
                next[0] = null;
                job.run();
                job = next[0];
            }
        } finally {
            continuation.remove();
            Runnable left = next[0];
            if (job != null && left != null) workers.execute(() -> runChain(left)); // job threw: the next one still runs
        }
    }

    private Runnable traced(Supplier<String> what, Runnable task) {
        return () -> {
            Consumer<String> t = trace;
            if (t != null) t.accept(what.get());
            task.run();
        };
    }

    /**
     * The connection transaction T holds here, or null when it holds none (it ran nothing here yet, ended, or was given
     * up). For reading this replica's catalog as T sees it ({@link CbsCoordinator#readPrimaryCatalog}), on the calling
     * thread, while none of T's statements runs here.
     */
    Connection transactionConnection(long txId) {
        TxConnection tc = connections.get(txId);
        return tc == null ? null : tc.connection();
    }

    private Connection connection(long txId, int attempt, int gen) throws SQLException {
        TxConnection tc = connections.get(txId);
        if (tc != null && tc.attempt() == attempt) return tc.connection();
        if (tc != null && connections.remove(txId, tc)) close(txId, tc, true);
        // busy (every connection taken: 40001, retried) is told apart from unreachable (08xxx: down) by the pool
        Connection c = pool.acquire();
        synchronized (this) {
            if (gen == generation) {
                connections.put(txId, new TxConnection(attempt, c));
                return c;
            }
        }
        c.close();
        throw new SQLException("replica " + name() + " was given up after this request was sent", "08003");
    }

    /**
     * Gives back the connection of attempt {@code attempt} of T, rolled back first if asked. A connection of another
     * attempt stays: a request of an attempt the core gave up (the replica went down and came back) must not take the
     * connection of the attempt that replaced it.
     */
    private void release(long txId, int attempt, boolean rollback) {
        TxConnection tc = connections.get(txId);
        if (tc == null || tc.attempt() != attempt || !connections.remove(txId, tc)) return;
        close(txId, tc, rollback);
    }

    private void close(long txId, TxConnection tc, boolean rollback) {
        try (Connection c = tc.connection()) {
            if (rollback && !c.isClosed()) c.rollback();
        } catch (SQLException | RuntimeException e) { // a connection ended underneath may fail in any way
            LOG.debug("releasing the connection of T{} on {}: {}", txId, name(), e.toString());
        }
    }

    /**
     * Takes every connection out of the map and gives them back, rolled back; off the calling thread when asked.
     * Requests sent before and not yet holding a connection fail ({@link #generation}).
     */
    private void releaseAll(boolean inBackground) {
        Map<Long, TxConnection> taken = new java.util.HashMap<>();
        synchronized (this) {
            generation++;
            for (Long tx : List.copyOf(connections.keySet())) {
                TxConnection tc = connections.remove(tx);
                if (tc != null) taken.put(tx, tc);
            }
        }
        if (taken.isEmpty()) return;
        if (!inBackground) {
            taken.forEach((tx, tc) -> close(tx, tc, true));
            return;
        }
        // given up: every session is aborted (a rollback would wait for a statement still running on its connection, or
        // for a replica that stopped answering), off the calling thread, which may be the core's
        RELEASER.execute(() -> taken.forEach((tx, tc) -> {
            abort(tx, tc);
            pool.evict(tc.connection()); // never back into the pool: the driver may end it underneath later
        }));
    }

    @Override
    public void execute(long txId, int attempt, JdbcStatement stmt, boolean primary, boolean failedAtPrimary,
            Consumer<Outcome> done) {
        Supplier<String> what = () -> "exec T" + txId + " " + stmt.sql();
        int gen = generation;
        Runnable call = () -> done.accept(run(txId, attempt, gen, stmt, primary, failedAtPrimary, done));
        if (primary && InlineWork.offer(txId, traced(what, call))) return;
        submit(done, what, call);
    }

    private Outcome run(long txId, int attempt, int gen, JdbcStatement stmt, boolean primary, boolean failedAtPrimary,
            Consumer<Outcome> done) {
        if (stmt.repair() != null) return runRepair(txId, attempt, gen, stmt.repair(), primary);
        if (!primary && failedAtPrimary && stmt.isDdl() && dialect.ddlCommitsTransaction()) {
            // DDL runs in a transaction of its own when such an engine is a replica (CbsSession.committedApart), which a
            // failure at the primary rolls back: this engine, which commits DDL by itself, must not keep what it would do
            SQLException skipped = new SQLException("not run: the DDL failed at the primary, and its transaction is rolled"
                    + " back", "25000");
            return Outcome.errorAnswer(AnswerDigest.error(skipped), skipped);
        }
        if (primary || !failedAtPrimary || !setup.errorAbortsTransaction()) {
            return runStatement(txId, attempt, gen, stmt, primary, done);
        }
        // PostgreSQL: the error the primary answered would abort the whole transaction here; a savepoint undoes only
        // the statement, as the primary's engine did
        Savepoint guard;
        try {
            guard = connection(txId, attempt, gen).setSavepoint();
        } catch (SQLException e) {
            return failure(txId, attempt, e);
        }
        Outcome o = runStatement(txId, attempt, gen, stmt, false, done);
        if (o.kind() != Outcome.Kind.ANSWER) return o; // the transaction was rolled back here (or the replica is down)
        try {
            Connection c = connection(txId, attempt, gen);
            if (o.error() != null) c.rollback(guard);
            c.releaseSavepoint(guard);
            return o;
        } catch (SQLException e) {
            return failure(txId, attempt, e);
        }
    }

    /**
     * A repair runs only at its targets (never at the primary, whose answer is the one being agreed on); every replica
     * answers an update count of 0, so that only a target whose repair failed is outvoted. It runs under a savepoint: a
     * repair that fails changes nothing, and leaves its transaction usable where an error would abort the whole
     * transaction (PostgreSQL), so that the replica commits it like the others.
     */
    private Outcome runRepair(long txId, int attempt, int gen, RangeRepair repair, boolean primary) {
        Ballot alike = AnswerDigest.updateCount(0, List.of(), List.of());
        if (primary) return Outcome.answer(alike, new Answer.Update(0, List.of(), List.of(), List.of()));
        if (!repair.targets(name())) return Outcome.answer(alike, null);
        Connection c;
        Savepoint guard;
        try {
            c = connection(txId, attempt, gen);
            guard = c.setSavepoint();
        } catch (SQLException e) {
            return failure(txId, attempt, e);
        }
        try {
            repair.apply(name(), c, dialect, values);
            c.releaseSavepoint(guard);
            LOG.info("{}: {}", repair.description(), repair.doneBy(name()));
            return Outcome.answer(alike, null);
        } catch (SQLException | RuntimeException failed) {
            SQLException e = failed instanceof SQLException s ? s : JdbcExecution.toSqlException((RuntimeException) failed);
            LOG.warn("replica {}: {} failed: {}", name(), repair.description(), e.toString());
            Outcome o = failure(txId, attempt, e);
            if (o.kind() != Outcome.Kind.ANSWER) return o; // rolled back here, or down
            try {
                c.rollback(guard);
                c.releaseSavepoint(guard);
                return o;
            } catch (SQLException undo) {
                return failure(txId, attempt, undo);
            }
        }
    }

    private Outcome runStatement(long txId, int attempt, int gen, JdbcStatement stmt, boolean primary,
            Consumer<Outcome> done) {
        try {
            Connection c = connection(txId, attempt, gen);
            String rendered = primary ? stmt.sqlFor(dialect) : stmt.secondarySqlFor(dialect);
            List<Param> params = primary ? stmt.paramsFor(dialect) : stmt.secondaryParamsFor(dialect);
            boolean pinKeys = primary && stmt.pinnedKeyColumn() != null;
            ExecOptions asked = stmt.options();
            ExecOptions options = pinKeys && !asked.returnGeneratedKeys()
                    ? new ExecOptions(asked.maxRows(), asked.fetchSize(), asked.queryTimeoutSeconds(), true)
                    : asked;
            boolean upsert = stmt.translation() != null && stmt.translation().upsert();
            if (pinKeys && (upsert || stmt.insertValuesRows() > 1 && !dialect.reportsGeneratedKeysOfEveryRow())) {
                Answer.Update u = insertRowByRow(txId, c, stmt, options);
                if (!asked.returnGeneratedKeys()) u = new Answer.Update(u.count(), List.of(), List.of(), u.warnings());
                return Outcome.answer(AnswerDigest.updateCount(u.count(), List.of(), List.of()), u);
            }
            if (stmt.dropsReferencingKeys(dialect)) ReferencingKeys.dropFor(c, dialect, rendered);
            String sql = !stmt.isDdl() ? rendered : completed(c, stmt, rendered);
            if (sql == null) return done(primary);
            statements.invalidateAfter(sql);
            boolean cached = !params.isEmpty();
            Statement st = cached
                    ? statements.prepare(c, sql, options, fetchSize)
                    : JdbcExecution.create(c, sql, false, options, fetchSize);
            boolean handedOver = false;
            boolean reusable = false;
            running.put(txId, st);
            try {
                boolean hasRows;
                try {
                    hasRows = JdbcExecution.execute(st, sql, params, values, options);
                } catch (SQLException e) {
                    if (!ignorable(c, stmt, sql, e) && !(stmt.isDdl() && DeclinedIndexes.droppedDeclined(c, dialect, sql, e))) {
                        throw e;
                    }
                    // IF [NOT] EXISTS emulated for this engine: "already there" / "not there" means done; or Derby's
                    // duplicate index, which it never made
                    return done(primary);
                }
                if (!hasRows) {
                    Answer.Update u = JdbcExecution.update(st, options, values);
                    JdbcExecution.throwIfWarningIsAnError(st);
                    if (stmt.isDdl()) {
                        try {
                            DeclinedIndexes.recordIfDeclined(c, dialect, sql, u.warnings());
                        } catch (SQLException e) {
                            if (ignorable(c, stmt, sql, e)) return done(primary); // CREATE INDEX IF NOT EXISTS
                            throw e;
                        }
                        DeclinedIndexes.afterDdl(c, dialect, sql);
                    }
                    if (stmt.isDdl() && u.count() != 0) u = new Answer.Update(0, u.keyColumns(), u.generatedKeys(), u.warnings());
                    if (pinKeys) {
                        pinKeys(stmt, u);
                        if (!asked.returnGeneratedKeys()) u = new Answer.Update(u.count(), List.of(), List.of(), u.warnings());
                    }
                    // generated keys are the primary's until the translator pins them on the secondaries: not voted
                    Ballot b = AnswerDigest.updateCount(u.count(), List.of(), List.of());
                    reusable = true;
                    return Outcome.answer(b, primary ? u : null);
                }
                ResultSet result = st.getResultSet();
                if (primary && stmt.streamsToClient()) {
                    List<ColumnInfo> cols = JdbcValues.columns(result.getMetaData());
                    AnswerDigest digest = AnswerDigest.forRows(cols, stmt.orderKeyPositions());
                    StreamingCursor cursor = new StreamingCursor(st, (used, reuse) -> finish(c, sql, used, cached && reuse,
                            options.returnGeneratedKeys()), result, values, cols, digest, setup, done);
                    handedOver = true;
                    return Outcome.streaming(new Answer.Rows(cursor, JdbcExecution.warnings(st)));
                }
                SpillingRows rows = null;
                try (ResultSet rs = result) {
                    List<ColumnInfo> cols = JdbcValues.columns(rs.getMetaData());
                    AnswerDigest digest = AnswerDigest.forRows(cols, stmt.orderKeyPositions());
                    if (primary) rows = new SpillingRows(spill, cols, resultMemoryBytesMax);
                    while (rs.next()) {
                        Object[] row = values.readRow(rs, cols);
                        digest.addRow(row);
                        if (primary) rows.add(row);
                    }
                    JdbcExecution.throwIfWarningIsAnError(st);
                    Ballot b = digest.finish();
                    if (!primary) {
                        reusable = true;
                        return Outcome.answer(b, null);
                    }
                    rows.finishWriting();
                    Outcome o = Outcome.answer(b, new Answer.Rows(rows, JdbcExecution.warnings(st)));
                    rows = null;
                    reusable = true;
                    return o;
                } finally {
                    if (rows != null) rows.close();
                }
            } finally {
                running.remove(txId, st);
                if (!handedOver) finish(c, sql, st, cached && reusable, options.returnGeneratedKeys());
            }
        } catch (SQLException e) {
            return failure(txId, attempt, e);
        } catch (RuntimeException e) {
            return failure(txId, attempt, JdbcExecution.toSqlException(e));
        }
    }

    /**
     * DDL {@code rendered} for this replica as it runs here: where it is several statements ({@link Dialect#THEN}), the
     * ones before the last run first; each completed from this replica's own catalog where the translator marked it so
     * (a restated column, a DROP INDEX's table) just before it runs. Null: nothing more to run, the statement is done
     * (the table of an emulated {@code ALTER TABLE IF EXISTS} is not there: its first part said so).
     */
    private String completed(Connection c, JdbcStatement stmt, String rendered) throws SQLException {
        if (!rendered.contains(Dialect.THEN)) return completedPart(c, stmt, rendered);
        String[] parts = rendered.split(Pattern.quote(Dialect.THEN));
        for (int i = 0; i < parts.length - 1; i++) {
            String part = completedPart(c, stmt, parts[i]);
            try (Statement st = c.createStatement()) {
                st.execute(part);
                DeclinedIndexes.recordIfDeclined(c, dialect, part, JdbcExecution.warnings(st));
            } catch (SQLException e) {
                if (i == 0 && ignorable(c, stmt, part, e)) return null;
                throw e;
            }
            DeclinedIndexes.afterDdl(c, dialect, part);
        }
        return completedPart(c, stmt, parts[parts.length - 1]);
    }

    private String completedPart(Connection c, JdbcStatement stmt, String part) throws SQLException {
        if (RestatedColumn.marks(part)) return RestatedColumn.complete(c, dialect, part);
        if (UniqueKeyDrop.marks(part)) return UniqueKeyDrop.complete(c, dialect, part);
        if (IndexTable.marks(part)) {
            try {
                return IndexTable.complete(c, dialect, part);
            } catch (SQLException e) {
                if (stmt.isIgnorableError(dialect, e)) return IndexTable.NOTHING; // IF EXISTS emulated (MySQL)
                throw e;
            }
        }
        return part;
    }

    /**
     * Whether {@code e}, which {@code sql} (the statement, or the first of its parts) raised here, means "already done":
     * an existence clause this engine lacks, emulated; for an ALTER TABLE whose clause names the table alone, or a change's
     * object alone, only when the table is missing, or there ({@link AlteredTable}).
     */
    private boolean ignorable(Connection c, JdbcStatement stmt, String sql, SQLException e) throws SQLException {
        if (!stmt.isIgnorableError(dialect, e)) return false;
        IgnorableError kind = stmt.ignorable(dialect);
        if (kind != IgnorableError.TABLE_DOES_NOT_EXIST && kind != IgnorableError.PART_DOES_NOT_EXIST) return true;
        Boolean there = AlteredTable.isThere(c, sql);
        return there == null || there == (kind == IgnorableError.PART_DOES_NOT_EXIST);
    }

    /** The answer of a DDL statement found done already: an update count of 0. */
    private static Outcome done(boolean primary) {
        return Outcome.answer(AnswerDigest.updateCount(0, List.of(), List.of()),
                primary ? new Answer.Update(0, List.of(), List.of(), List.of()) : null);
    }

    /** Puts a statement back into the cache when it may be used again, else closes it. */
    private void finish(Connection c, String sql, Statement st, boolean reuse, boolean returnGeneratedKeys) {
        try {
            if (reuse) {
                statements.release(c, sql, (PreparedStatement) st, returnGeneratedKeys);
            } else {
                st.close();
            }
        } catch (SQLException | RuntimeException e) {
            StatementCache.discard(st);
        }
    }

    private static void abort(long txId, TxConnection tc) {
        try {
            // a driver's own abort task may fail in its error handling (Derby's prints to a log writer it may not have)
            tc.connection().abort(task -> RELEASER.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.debug("the driver's abort of T{}'s connection failed: {}", txId, e.toString());
                }
            }));
        } catch (SQLException | RuntimeException e) {
            LOG.debug("aborting the connection of T{}: {}", txId, e.toString());
        }
    }

    /** Asks the replica to stop the statement transaction {@code txId} is running here, where the driver can. */
    void cancel(long txId) {
        Statement st = running.get(txId);
        if (st == null) return;
        try {
            st.cancel();
        } catch (SQLException | RuntimeException e) {
            LOG.debug("cancel of T{} on {}: {}", txId, name(), e.toString());
        }
    }

    /**
     * A multi-row INSERT into an identity table on a primary whose driver reports one generated key per statement
     * (Derby), or an upsert (INSERT ... ON DUPLICATE KEY UPDATE, whose rows each insert or update, and REPLACE, whose
     * count says nothing of its keys): one statement per row, in order, inside a savepoint (when there are several), so
     * that every inserted row's key is known and pinned on the secondaries (null for a row that updated), and a row that
     * fails undoes the rows before it, as the whole statement would have.
     */
    private Answer.Update insertRowByRow(long txId, Connection c, JdbcStatement stmt, ExecOptions options) throws SQLException {
        long count = 0;
        List<ColumnInfo> keyColumns = List.of();
        List<Object[]> keys = new ArrayList<>();
        List<Object> keyPerRow = new ArrayList<>();
        List<SQLWarning> warnings = new ArrayList<>();
        List<Bound.Part> parts = stmt.rowByRow(dialect);
        Savepoint guard = parts.size() > 1 ? c.setSavepoint() : null;
        try {
            for (Bound.Part part : parts) {
                List<Param> params = new ArrayList<>();
                for (Object v : part.parameters()) params.add(JdbcStatement.toParam(v));
                try (Statement st = JdbcExecution.create(c, part.sql(), !params.isEmpty(), options, fetchSize)) {
                    running.put(txId, st);
                    try {
                        JdbcExecution.execute(st, part.sql(), params, values, options);
                        Answer.Update u = JdbcExecution.update(st, options, values);
                        JdbcExecution.throwIfWarningIsAnError(st);
                        count += u.count();
                        Object key = stmt.translation().rowInserted(u.count()) && !u.generatedKeys().isEmpty()
                                && u.generatedKeys().get(0).length > 0 ? u.generatedKeys().get(0)[0] : null;
                        keyPerRow.add(key);
                        if (key != null) {
                            keyColumns = u.keyColumns();
                            keys.add(u.generatedKeys().get(0));
                        }
                        warnings.addAll(u.warnings());
                    } finally {
                        running.remove(txId, st);
                    }
                }
            }
            if (guard != null) c.releaseSavepoint(guard);
        } catch (SQLException | RuntimeException e) {
            try {
                if (guard != null) {
                    c.rollback(guard);
                    c.releaseSavepoint(guard);
                }
            } catch (SQLException undo) {
                e.addSuppressed(undo);
            }
            throw e;
        }
        boolean upsert = stmt.translation() != null && stmt.translation().upsertKeysPinnable();
        if (upsert || !keyPerRow.contains(null)) {
            stmt.primaryGenerated(keyPerRow);
        } else {
            LOG.warn("cannot pin generated keys of [{}]: the primary reported no key for some of its {} rows; the"
                    + " secondaries generate their own", stmt.sql(), keyPerRow.size());
        }
        return new Answer.Update(count, keyColumns, keys, warnings);
    }

    private void pinKeys(JdbcStatement stmt, Answer.Update u) {
        List<Object> keys = new ArrayList<>();
        for (Object[] row : u.generatedKeys()) {
            if (row.length > 0 && row[0] != null) keys.add(row[0]);
        }
        if (keys.size() == u.count()) {
            stmt.primaryGenerated(keys);
        } else {
            LOG.warn("cannot pin generated keys of [{}]: the primary reported {} keys for {} rows; the secondaries generate"
                    + " their own", stmt.sql(), keys.size(), u.count());
        }
    }

    /** A statement's failure here; the connection goes back unless the transaction goes on (an error answer). */
    private Outcome failure(long txId, int attempt, SQLException vendorError) {
        Outcome o = errorOutcome(vendorError, setup);
        if (o.kind() != Outcome.Kind.ANSWER) release(txId, attempt, o.kind() == Outcome.Kind.RETRYABLE);
        return o;
    }

    /**
     * What a statement's error means, in the vendor's standard SQLState: the replica is down, the transaction must be
     * run again here, or an answer to vote on.
     */
    static Outcome errorOutcome(SQLException vendorError, ReplicaSetup setup) {
        SQLException e = setup.standardized(vendorError);
        if (ErrorOutcome.isConnectionFailure(e)) return Outcome.down(e);
        if (setup.isRetryable(e)) return Outcome.retryable(e);
        return Outcome.errorAnswer(AnswerDigest.error(e), e);
    }

    @Override
    public void commit(long txId, int attempt, long barrier, Consumer<Outcome> done) {
        int gen = generation;
        submit(done, () -> "commit T" + txId, () -> {
            try {
                Connection c = connection(txId, attempt, gen);
                if (barrier >= 0) {
                    PreparedStatement ps = statements.prepare(c, TXLOG_INSERT, ExecOptions.DEFAULT, fetchSize);
                    try {
                        ps.setLong(1, txId);
                        ps.setLong(2, barrier);
                        ps.executeUpdate();
                    } catch (SQLException | RuntimeException e) {
                        StatementCache.discard(ps);
                        throw e;
                    }
                    statements.release(c, TXLOG_INSERT, ps, false);
                }
                c.commit();
                release(txId, attempt, false);
                done.accept(Outcome.done());
            } catch (SQLException | RuntimeException e) {
                LOG.error("COMMIT of T{} failed on replica {}", txId, name(), e);
                release(txId, attempt, true);
                done.accept(Outcome.down(JdbcExecution.toSqlException(e)));
            }
        });
    }

    @Override
    public void rollback(long txId, int attempt, Consumer<Outcome> done) {
        submit(done, () -> "rollback T" + txId, () -> {
            release(txId, attempt, true);
            done.accept(Outcome.done());
        });
    }

    @Override
    public void probe(long above, boolean countUpTo, Consumer<Probe> reached, Consumer<SQLException> unreachable) {
        Runnable job = () -> {
            Probe present;
            try {
                // a replica unreachable when the shepherd started may have none yet; its count then decides whether it
                // is lost. Without a count to check, a missing log fails the probe: a replica wiped while it was down must
                // not look like one that lacks only what came after the cursor
                if (countUpTo) createTxlogIfMissing();
                try (Connection c = pool.acquireForMetadata()) {
                    present = new Probe(barriersAbove(c, above), countUpTo ? countUpTo(c, above, name()) : -1);
                    c.rollback();
                }
            } catch (SQLException | RuntimeException e) {
                unreachable.accept(JdbcExecution.toSqlException(e));
                return;
            }
            reached.accept(present);
        };
        try {
            workers.execute(job);
        } catch (RejectedExecutionException e) {
            unreachable.accept(new SQLException("replica " + name() + ": no worker to probe it", "08004", e));
        }
    }

    @Override
    public void ping(Consumer<Outcome> done) {
        try {
            pinger.execute(() -> {
                try (Connection c = pool.acquireForMetadata()) {
                    if (!c.isValid(0)) throw new SQLException("replica " + name() + " answered a ping as not valid", "08006");
                    c.rollback();
                    done.accept(Outcome.done());
                } catch (SQLException | RuntimeException e) {
                    SQLException why = JdbcExecution.toSqlException(e);
                    done.accept(ErrorOutcome.isConnectionFailure(why) ? Outcome.down(why) : Outcome.done());
                }
            });
        } catch (RejectedExecutionException e) {
            done.accept(Outcome.down(new SQLException("replica " + name() + ": no thread to ping it", "08004", e)));
        }
    }

    @Override
    public void becomePrimary(Consumer<Outcome> done) {
        try {
            workers.execute(() -> {
                try {
                    if (!setup.identityFollowsExplicitValues()) restartIdentities();
                    done.accept(Outcome.done());
                } catch (SQLException | RuntimeException e) {
                    LOG.error("replica {} cannot take over as primary", name(), e);
                    done.accept(Outcome.down(JdbcExecution.toSqlException(e)));
                }
            });
        } catch (RejectedExecutionException e) {
            done.accept(Outcome.down(new SQLException("replica " + name() + ": no worker to prepare it as primary", "08004", e)));
        }
    }

    /**
     * Moves every identity column of the replica's schema past its largest value: as a secondary it got the primary's
     * keys as explicit values, which did not move its generators, and as primary it generates keys itself.
     */
    private void restartIdentities() throws SQLException {
        String q = pool.databaseInfo().identifierQuote();
        try (Connection c = pool.acquireForMetadata()) {
            List<String[]> identities = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getColumns(null, c.getSchema(), "%", "%")) {
                while (rs.next()) {
                    if ("YES".equalsIgnoreCase(rs.getString("IS_AUTOINCREMENT"))) {
                        identities.add(new String[] {rs.getString("TABLE_NAME"), rs.getString("COLUMN_NAME")});
                    }
                }
            }
            c.rollback();
            for (String[] tc : identities) {
                String table = quoted(q, tc[0]);
                String column = quoted(q, tc[1]);
                long max;
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT MAX(" + column + ") FROM " + table)) {
                    max = rs.next() ? rs.getLong(1) : 0;
                }
                try (Statement s = c.createStatement()) {
                    s.execute(setup.restartIdentity(table, column, max + 1));
                }
                c.commit();
                LOG.info("replica {}: identity {}.{} restarted at {} before it serves as primary", name(), tc[0], tc[1], max + 1);
            }
        }
    }

    /** {@code identifier} between {@code quote}s, a quote inside doubled; unchanged when the database has no quote. */
    static String quoted(String quote, String identifier) {
        return quote.isEmpty() ? identifier : quote + identifier.replace(quote, quote + quote) + quote;
    }

    /** Reads change nothing: a replica catching up skips them (translated statements only; others are run). */
    @Override
    public boolean readOnly(JdbcStatement statement) {
        return statement.readOnly();
    }

    @Override
    public void wentDown() {
        releaseAll(true);
    }

    @Override
    public void close() {
        pinger.shutdownNow();
        maintenance.shutdownNow();
        workers.shutdownNow();
        releaseAll(false);
    }
}
