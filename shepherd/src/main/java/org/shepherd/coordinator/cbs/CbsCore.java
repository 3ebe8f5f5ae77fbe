package org.shepherd.coordinator.cbs;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.shepherd.divergence.Divergence;
import org.shepherd.divergence.DivergenceLog;
import org.shepherd.recovery.RestartPlan;
import org.shepherd.replica.Outcome;
import org.shepherd.replica.ReplicaEndpoint;
import org.shepherd.replica.ReplicaManager;
import org.shepherd.schedule.ExecutionMode;
import org.shepherd.schedule.OrderingRules;
import org.shepherd.schedule.Pool;
import org.shepherd.schedule.PoolEntry;
import org.shepherd.schedule.Stmt;
import org.shepherd.schedule.TxState;
import org.shepherd.schedule.Txn;
import org.shepherd.time.Clock;
import org.shepherd.time.Scheduler;
import org.shepherd.vote.AnswerDigest;
import org.shepherd.vote.Ballot;
import org.shepherd.wal.CommitLog;

/**
 * The coordinator of commit barrier scheduling as an event-driven state machine (seed Figures 2 and 3): client
 * requests and replica outcomes are events, handled one at a time on the {@link Scheduler}. The same code runs
 * in the deterministic simulation and over JDBC replicas. Not thread-safe: call it on the scheduler only.
 * Callbacks are invoked on the scheduler too and must not call back into the core synchronously (post a new
 * event instead).
 *
 * @param <S> the statement payload type the replica endpoints understand
 */
public final class CbsCore<S> implements ReplicaManager.Listener<S> {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CbsCore.class);

    /** Receives the primary's (tentative) answer to one statement. */
    public interface StatementCallback {
        void answered(Object clientAnswer);

        void failed(SQLException e);
    }

    /** Receives the commit decision. */
    public interface CommitCallback {
        void committed();

        void failed(SQLException e);
    }

    /**
     * Core settings.
     *
     * @param f faulty replicas tolerated; at least 2f+1 replicas are required
     * @param mode the scheduling mode
     * @param rules the ordering rules (all on outside the simulation)
     * @param commitTimeoutMs how long a COMMIT waits for f+1 ready, agreeing replicas before it aborts
     * @param blockBoundMs a committed transaction's statement running longer than this at a secondary counts as
     *     blocked: the secondary aborts the local transactions in its way
     * @param blockCheckMs how often blocked secondaries are looked for
     * @param connectionWaitMs how long a transaction may wait for a connection of the primary (all taken by other
     *     transactions) before it is aborted with 40001
     * @param recovery how replicas that went down are brought back
     * @param pinning the clock and the seed the coordinator draws pinned values from (NOW(), RAND(), UUID(), ...)
     * @param clientDialect the SQL dialect clients write ({@code client.dialect}); "" for the primary's
     */
    public record Settings(int f, ExecutionMode mode, OrderingRules rules, long commitTimeoutMs, long blockBoundMs,
            long blockCheckMs, long connectionWaitMs, Recovery recovery, Pinning pinning, String clientDialect) {

        /** The default of {@code connectionWaitMs}, as {@code replica.connect.timeout.ms}. */
        public static final long CONNECTION_WAIT_MS_DEFAULT = 10_000;

        public Settings {
            if (f < 0) throw new IllegalArgumentException("f must be >= 0");
            if (commitTimeoutMs <= 0 || blockBoundMs <= 0 || blockCheckMs <= 0 || connectionWaitMs <= 0) {
                throw new IllegalArgumentException("timeouts must be > 0");
            }
            java.util.Objects.requireNonNull(recovery, "recovery");
            java.util.Objects.requireNonNull(pinning, "pinning");
            java.util.Objects.requireNonNull(clientDialect, "clientDialect");
        }

        public Settings(int f, ExecutionMode mode, OrderingRules rules, long commitTimeoutMs, long blockBoundMs,
                long blockCheckMs) {
            this(f, mode, rules, commitTimeoutMs, blockBoundMs, blockCheckMs, CONNECTION_WAIT_MS_DEFAULT, Recovery.DEFAULTS,
                    Pinning.system(), "");
        }

        public static Settings defaults(int f, ExecutionMode mode) {
            return new Settings(f, mode, OrderingRules.ALL, 30_000, 200, 50);
        }

        public Settings withRules(OrderingRules r) {
            return new Settings(f, mode, r, commitTimeoutMs, blockBoundMs, blockCheckMs, connectionWaitMs, recovery, pinning,
                    clientDialect);
        }

        public Settings withConnectionWaitMs(long ms) {
            return new Settings(f, mode, rules, commitTimeoutMs, blockBoundMs, blockCheckMs, ms, recovery, pinning, clientDialect);
        }

        public Settings withRecovery(Recovery r) {
            return new Settings(f, mode, rules, commitTimeoutMs, blockBoundMs, blockCheckMs, connectionWaitMs, r, pinning, clientDialect);
        }

        public Settings withPinning(Pinning p) {
            return new Settings(f, mode, rules, commitTimeoutMs, blockBoundMs, blockCheckMs, connectionWaitMs, recovery, p, clientDialect);
        }

        /** The dialect clients write ({@code client.dialect}); "" for the primary's. */
        public Settings withClientDialect(String dialect) {
            return new Settings(f, mode, rules, commitTimeoutMs, blockBoundMs, blockCheckMs, connectionWaitMs, recovery, pinning, dialect);
        }
    }

    /**
     * Where the values the coordinator pins in statements come from: the clock that NOW(), UNIX_TIMESTAMP() and their
     * kin read, and the seed of the generator behind RAND() and UUID(). Injected, so that a test (or a replay) gets the
     * same values again.
     */
    public record Pinning(Clock clock, long seed) {
        public Pinning {
            java.util.Objects.requireNonNull(clock, "clock");
        }

        /** The system clock and a seed drawn from the operating system's generator. */
        public static Pinning system() {
            return new Pinning(Clock.SYSTEM, new java.security.SecureRandom().nextLong());
        }
    }

    /**
     * Bringing back a replica that went down (seed 3.4.1): it is probed again after {@code probeMinMs}, doubling up
     * to {@code probeMaxMs}; once it answers, the committed transactions it missed are replayed on it in barrier
     * order, their reads skipped, and it rejoins when it has them all. The shepherd keeps at most
     * {@code logTransactionsMax} committed transactions for this; a replica that needs older ones is lost.
     * {@code viewChange}: when the primary goes down, a secondary that is up takes its role once it has committed
     * every committed transaction (seed 3.5); false: the service waits for the primary to come back. With view changes,
     * a primary that is up is also replaced once {@code outvotedMax} of its answers were outvoted since the last view
     * change (0: never), and when it stops answering ({@code unresponsiveMs}: a request has been running there that long
     * and a ping gets no answer within that long either; 0: never). Each replica's transaction log is truncated once
     * the floor every replica committed (and the commit log recorded) moved {@code txlogTruncateBarriers} past the last
     * truncation (0: never). A replica that is down or catching up and would make the commit log keep more than
     * {@code logBytesMax} bytes on disk is declared lost (0: no bound).
     */
    public record Recovery(long probeMinMs, long probeMaxMs, int logTransactionsMax, boolean viewChange, int outvotedMax,
            long unresponsiveMs, long txlogTruncateBarriers, long logBytesMax) {

        public static final int OUTVOTED_MAX_DEFAULT = 1;
        /** The default of {@code unresponsiveMs}, as {@code view.change.unresponsive.ms}. */
        public static final long UNRESPONSIVE_MS_DEFAULT = 5_000;
        /** The default of {@code txlogTruncateBarriers}, as {@code replica.txlog.truncate.barriers}. */
        public static final long TXLOG_TRUNCATE_BARRIERS_DEFAULT = 4_096;
        public static final Recovery DEFAULTS = new Recovery(1_000, 30_000, 100_000).withUnresponsiveMs(UNRESPONSIVE_MS_DEFAULT);

        public Recovery {
            if (probeMinMs <= 0 || probeMaxMs < probeMinMs) throw new IllegalArgumentException("need 0 < probeMinMs <= probeMaxMs");
            if (logTransactionsMax < 1) throw new IllegalArgumentException("logTransactionsMax must be >= 1");
            if (outvotedMax < 0) throw new IllegalArgumentException("outvotedMax must be >= 0");
            if (unresponsiveMs < 0) throw new IllegalArgumentException("unresponsiveMs must be >= 0");
            if (txlogTruncateBarriers < 0) throw new IllegalArgumentException("txlogTruncateBarriers must be >= 0");
            if (logBytesMax < 0) throw new IllegalArgumentException("logBytesMax must be >= 0");
        }

        /**
         * With view changes, on crash and on the first outvoted answer, but not on an unresponsive primary; truncation
         * at its default; no bound on the log's disk (the {@code with...} methods change each).
         */
        public Recovery(long probeMinMs, long probeMaxMs, int logTransactionsMax) {
            this(probeMinMs, probeMaxMs, logTransactionsMax, true, OUTVOTED_MAX_DEFAULT, 0, TXLOG_TRUNCATE_BARRIERS_DEFAULT, 0);
        }

        public Recovery withViewChange(boolean on) {
            return new Recovery(probeMinMs, probeMaxMs, logTransactionsMax, on, outvotedMax, unresponsiveMs, txlogTruncateBarriers,
                    logBytesMax);
        }

        public Recovery withOutvotedMax(int max) {
            return new Recovery(probeMinMs, probeMaxMs, logTransactionsMax, viewChange, max, unresponsiveMs, txlogTruncateBarriers,
                    logBytesMax);
        }

        public Recovery withUnresponsiveMs(long ms) {
            return new Recovery(probeMinMs, probeMaxMs, logTransactionsMax, viewChange, outvotedMax, ms, txlogTruncateBarriers,
                    logBytesMax);
        }

        public Recovery withTxlogTruncateBarriers(long barriers) {
            return new Recovery(probeMinMs, probeMaxMs, logTransactionsMax, viewChange, outvotedMax, unresponsiveMs, barriers,
                    logBytesMax);
        }

        public Recovery withLogBytesMax(long bytes) {
            return new Recovery(probeMinMs, probeMaxMs, logTransactionsMax, viewChange, outvotedMax, unresponsiveMs,
                    txlogTruncateBarriers, bytes);
        }
    }

    /**
     * Counters, for tests and status.
     *
     * @param commitWait from a client's COMMIT to the decision: f+1 replicas ready and agreeing (the commit barrier)
     * @param commitLatency from a client's COMMIT to its answer: the decision, then the write-ahead log's force
     */
    public record Stats(long commits, long aborts, long voteAborts, long replicaReruns, long live, Latency commitWait,
            Latency commitLatency) {
    }

    /**
     * Milliseconds since start, in the core's clock: how many, the median, the 99th percentile and the largest; the
     * three are -1 while nothing was measured.
     */
    public record Latency(long count, long p50Ms, long p99Ms, long maxMs) {
        static Latency of(Histogram h) {
            if (h.getTotalCount() == 0) return new Latency(0, -1, -1, -1);
            return new Latency(h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(99), h.getMaxValue());
        }
    }

    /** Longer waits are recorded as this (an hour): a commit times out long before. */
    private static final long LATENCY_MS_MAX = 3_600_000;
    /** COMMIT to decision and COMMIT to answer, of the transactions committed since start (core thread only). */
    private final Histogram commitWaitMs = new Histogram(LATENCY_MS_MAX, 2);
    private final Histogram commitLatencyMs = new Histogram(LATENCY_MS_MAX, 2);

    private static final class Ctx {
        StatementCallback statementCallback;
        CommitCallback commitCallback;
        /** When the client asked to commit, in the core's clock; -1 before. */
        long commitAskedAtMs = -1;
        Scheduler.Timer commitTimer;
        Scheduler.Timer connectionTimer;
        String abortReason = "";
    }

    private final List<ReplicaManager<S>> replicas = new ArrayList<>();
    /** The primary's index; changes only in a view change. Read by other threads for status and metadata. */
    private volatile int primary;
    /** Views since start: each view change makes another replica the primary. */
    private volatile long view;
    /** See {@link #lastViewChange()}. */
    private volatile String lastViewChange = "";
    /** Why the primary was last marked down, for {@link #lastViewChange}. */
    private String primaryDownReason = "";
    /** While the primary is down: the replica that takes over once it has committed everything committed, or -1. */
    private int successor = -1;
    /** The successor is preparing to serve ({@link ReplicaEndpoint#becomePrimary}); its epoch then, or -1. */
    private int preparingEpoch = -1;
    /** Answers of the primary outvoted by f+1 replicas since the last view change. */
    private int primaryOutvoted;
    /**
     * View changes since a primary last settled ({@link #VIEW_SETTLED_COMMITS} commits in its view): each doubles the
     * time the next primary is given before it counts as unresponsive (seed 3.4: timeouts that grow across view changes
     * one after another, so that a slow but correct primary eventually gets the time it needs).
     */
    private int unsettledViewChanges;
    private long commitsInView;
    /** Commits after which a view counts as settled. */
    static final int VIEW_SETTLED_COMMITS = 100;
    /** A primary's COMMIT is stuck only once it ran this many times as long as the slowest other replica's. */
    static final long STUCK_COMMIT_FACTOR = 4;

    /** The unresponsive timeout doubles at most this many times. */
    static final int TIMEOUT_DOUBLINGS_MAX = 6;
    private final Settings settings;
    private final Scheduler scheduler;
    private final DivergenceLog divergences;
    /** Told of each statement a secondary was outvoted on in a committed transaction ({@link #onOutvotedSecondary}). */
    private volatile java.util.function.BiConsumer<S, String> outvoted = (statement, replica) -> { };
    private final CommitLog<S> commitLog;
    /** Set when the commit log failed: nothing can be made durable any more, so nothing more is committed. */
    private Exception commitLogFailure;
    /** The floor last given to {@link CommitLog#release}. */
    private long releasedFloor = -1;
    /** While a lost replica's restore counts at the primary ({@link #restore}): the log is not released past it. */
    private long restoringFloor = NOT_RESTORING;
    private static final long NOT_RESTORING = Long.MIN_VALUE;
    /**
     * Durable transactions that wrote (barrier to transaction id), from the lowest barrier some replica that is up has
     * not truncated from its transaction log ({@link #truncateTxlogs}).
     */
    private final TreeMap<Long, Long> truncatable = new TreeMap<>();
    /** Every barrier up to here was dropped from {@link #truncatable}. */
    private long truncatableDropped = -1;
    /** {@link #truncatable} holds at most this many; the oldest beyond it stay in the replicas' logs until a restart. */
    static final int TRUNCATABLE_MAX = 1 << 18;
    /** Whether {@link #truncatable} ever overflowed (warned once). */
    private boolean truncatableOverflowed;

    /** Recovering replicas (and their epoch) whose next transaction to replay is not durable yet. */
    private final Map<ReplicaManager<S>, Integer> replayAwaitingDurability = new LinkedHashMap<>();
    private final TreeMap<Long, Txn<S>> live = new TreeMap<>();
    private final Map<Long, Ctx> ctx = new HashMap<>();
    private final ArrayDeque<Txn<S>> gateQueue = new ArrayDeque<>();
    /** Transactions read back from the write-ahead log at a time, for a replica that replays more than memory keeps. */
    static final int LOG_READ_BATCH = 256;
    /**
     * The highest barrier {@link #boundLog} dropped from {@link #committedLog}: a replica whose replay cursor is below it
     * reads what it lacks back from the commit log (the write-ahead log on disk), -1 while nothing was dropped.
     */
    private long memoryFloor = -1;
    /** Committed transactions by barrier, kept while some replica is down or recovering and may need them replayed. */
    private final TreeMap<Long, Txn<S>> committedLog = new TreeMap<>();
    private Txn<S> gateHolder;
    private long nextTxId = 1;
    private long barrier;
    private Scheduler.Timer blockTimer;
    /** Looks for a primary request running longer than {@code unresponsiveMs}; null when not armed. */
    private Scheduler.Timer primaryCheckTimer;
    /** A ping of the primary under way: whom, in which of its epochs, and the timer that gives up on it. */
    private record Ping<S>(ReplicaManager<S> replica, int epoch, Scheduler.Timer noAnswer) {
    }

    /** The ping under way, or null. */
    private Ping<S> ping;
    private long commits;
    private long aborts;
    private long voteAborts;

    public CbsCore(List<? extends ReplicaEndpoint<S>> endpoints, int primaryIndex, Settings settings, Scheduler scheduler,
            DivergenceLog divergences) {
        this(endpoints, primaryIndex, settings, scheduler, divergences, CommitLog.none());
    }

    /**
     * @param commitLog where a committed transaction that wrote is made durable before the client is told and before any
     *     replica commits it (the shepherd's write-ahead log)
     */
    public CbsCore(List<? extends ReplicaEndpoint<S>> endpoints, int primaryIndex, Settings settings, Scheduler scheduler,
            DivergenceLog divergences, CommitLog<S> commitLog) {
        this.commitLog = java.util.Objects.requireNonNull(commitLog, "commitLog");
        int needed = 2 * settings.f() + 1;
        if (endpoints.size() < needed) {
            throw new IllegalArgumentException("mode " + settings.mode().name().toLowerCase(java.util.Locale.ROOT) + " with f="
                    + settings.f() + " needs at least 2f+1 = " + needed + " replicas, but " + endpoints.size()
                    + " are configured; add replicas or lower f");
        }
        if (primaryIndex < 0 || primaryIndex >= endpoints.size()) throw new IllegalArgumentException("bad primary index");
        this.primary = primaryIndex;
        this.settings = settings;
        this.scheduler = scheduler;
        this.divergences = divergences;
        for (int i = 0; i < endpoints.size(); i++) {
            Pool<S> pool = new Pool<>(i == primaryIndex, settings.rules(), endpoints.get(i).commitGated());
            replicas.add(new ReplicaManager<>(i, endpoints.get(i), pool, scheduler, this));
        }
    }

    /**
     * Continues after an earlier run (call before anything else): transaction ids after {@code lastTxId}, barriers from
     * {@code nextBarrier}. {@code logged} holds the committed transactions the write-ahead log kept, ascending barrier;
     * those up to {@code onDiskThrough} (-1: none) are on disk only, read back when a replay needs them. Each replica
     * starts as {@code starts} says: up; or missing some logged transactions, which are replayed on it (it is probed at
     * once, then recovered like a replica that went down); or lost.
     */
    public void resume(long lastTxId, long nextBarrier, List<Txn<S>> logged, long onDiskThrough,
            List<RestartPlan.ReplicaStart> starts) {
        if (!live.isEmpty() || barrier != 0) throw new IllegalStateException("resume only a fresh core");
        if (starts.size() != replicas.size()) throw new IllegalArgumentException("one start per replica");
        if (!logged.isEmpty() && logged.get(0).barrier() <= onDiskThrough) {
            throw new IllegalArgumentException("logged transactions must all be above the on-disk-only barrier " + onDiskThrough);
        }
        memoryFloor = Math.max(memoryFloor, onDiskThrough);
        nextTxId = Math.max(nextTxId, lastTxId + 1);
        barrier = nextBarrier;
        List<ReplicaManager<S>> toReplay = new ArrayList<>();
        for (ReplicaManager<S> r : replicas) {
            RestartPlan.ReplicaStart start = starts.get(r.index());
            r.committed(start.lastCommittedBarrier());
            switch (start.start()) {
                case LOST -> {
                    r.markLost(start.reason());
                    LOG.warn("replica {} is left out: {}", r.name(), r.downReason());
                }
                case REPLAY, UNREACHABLE -> {
                    r.markDown(start.reason());
                    r.setReplayCursor(start.replayCursor());
                    if (start.expectedUpToCursor() >= 0) r.expectUpToCursor(start.expectedUpToCursor());
                    toReplay.add(r);
                }
                default -> {
                    // UP: serves at once
                }
            }
        }
        for (Txn<S> t : logged) toTruncate(t); // durable: every replica commits it, or is lost
        if (toReplay.isEmpty()) return;
        for (Txn<S> t : logged) committedLog.put(t.barrier(), t);
        boundLog(); // beyond replica.recovery.log.max, the oldest are read back from the log when the replay gets there
        for (ReplicaManager<S> r : toReplay) {
            if (r.phase() != ReplicaManager.Phase.DOWN) continue;
            LOG.info("replica {}: {}", r.name(), r.downReason());
            scheduleProbe(r, 0);
        }
        if (primaryManager().down() && settings.recovery().viewChange()) chooseSuccessor();
    }

    // ---------------------------------------------------------------- client events

    /** Starts a transaction. */
    public Txn<S> begin() {
        Txn<S> t = new Txn<>(nextTxId++, replicas.size());
        live.put(t.id(), t);
        ctx.put(t.id(), new Ctx());
        if (settings.mode() == ExecutionMode.SERIAL) {
            gateQueue.add(t);
            advanceGate();
        } else {
            t.admit();
        }
        return t;
    }

    /** Runs a statement: at once on the primary; the callback gets the primary's answer. */
    public void execute(Txn<S> t, S payload, String text, StatementCallback callback) {
        Ctx c = ctx.get(t.id());
        if (refusedByFailedLog(t, payload, callback::failed)) return;
        if (c == null || t.state() != TxState.ACTIVE) {
            callback.failed(new SQLException("transaction " + t.id() + " was aborted"
                    + (c == null || c.abortReason.isEmpty() ? "" : ": " + c.abortReason) + "; roll back and retry", "40001"));
            return;
        }
        if (primaryManager().down()) {
            abort(t, "the primary replica is down");
            callback.failed(primaryDownError());
            return;
        }
        // a change of primary aborts every transaction that ran a statement, so the first one fixes whose answers count
        if (t.stmts().isEmpty()) t.setPrimary(primary);
        t.append(payload, text);
        c.statementCallback = callback;
        if (t.admitted()) primaryManager().pool().entryOrCreate(t);
        afterEvent();
        PoolEntry<S> waiting = primaryManager().pool().entry(t);
        if (waiting != null && !waiting.started() && c.connectionTimer == null && t.state() == TxState.ACTIVE) {
            c.connectionTimer = scheduler.schedule(settings.connectionWaitMs(), () -> connectionWaitTimedOut(t));
        }
    }

    /** T's first statement still waits for a connection of the primary: every one is taken by other transactions. */
    private void connectionWaitTimedOut(Txn<S> t) {
        PoolEntry<S> e = primaryManager().pool().entry(t);
        if (t.state() != TxState.ACTIVE || e == null || e.started()) return;
        abort(t, "all " + primaryManager().connectionsMax() + " connections of the primary " + primaryManager().name()
                + " are in use by other transactions for more than " + settings.connectionWaitMs()
                + " ms (raise replica.pool.size.max or use fewer client connections); retry the transaction");
        afterEvent();
    }

    /** Asks to commit: decided once f+1 replicas are ready to commit T and agree with every answer given. */
    public void commit(Txn<S> t, CommitCallback callback) {
        Ctx c = ctx.get(t.id());
        if (c == null || t.state() == TxState.ABORTED) {
            callback.failed(new SQLException("transaction " + t.id() + " was aborted"
                    + (c == null || c.abortReason.isEmpty() ? "" : ": " + c.abortReason) + "; retry it", "40001"));
            return;
        }
        if (t.state() != TxState.ACTIVE) throw new IllegalStateException("commit twice of " + t);
        if (refusedByFailedLog(t, null, callback::failed)) return;
        t.setState(TxState.COMMITTING);
        c.commitCallback = callback;
        c.commitAskedAtMs = scheduler.clock().nowMillis();
        c.commitTimer = scheduler.schedule(settings.commitTimeoutMs(), () -> commitTimedOut(t));
        if (settings.mode() == ExecutionMode.SS && !t.stmts().isEmpty()) {
            gateQueue.add(t);
            advanceGate();
        }
        afterEvent();
    }

    /** Client ROLLBACK (or session close): abort everywhere; acknowledged at once. */
    public void rollback(Txn<S> t) {
        if (t.state() == TxState.ACTIVE || t.state() == TxState.COMMITTING) abort(t, "rolled back by the client");
        afterEvent();
    }

    // ---------------------------------------------------------------- replica events

    @Override
    public void statementDone(ReplicaManager<S> r, PoolEntry<S> e, int index, Outcome o) {
        Txn<S> t = e.txn();
        Stmt<S> q = t.stmts().get(index);
        if (o.kind() == Outcome.Kind.STREAMING) {
            primaryStreaming(t, o);
            afterEvent();
            return;
        }
        e.completed();
        if (r.primary()) {
            primaryStatementDone(r, e, q, o);
        } else if (t.state() != TxState.ABORTED && !e.abortRequested()) {
            switch (o.kind()) {
                case DOWN:
                    replicaDown(r, o.error());
                    break;
                case RETRYABLE:
                    rolledBackAtSecondary(r, e);
                    break;
                case ANSWER:
                    q.recordVote(r.index(), o.ballot());
                    e.markDone(index);
                    break;
                default:
                    throw new IllegalStateException("unknown outcome " + o.kind());
            }
        } else if (o.kind() == Outcome.Kind.DOWN) {
            replicaDown(r, o.error());
        }
        afterEvent();
    }

    /** The primary's rows start flowing to the client; the statement stays in flight until they are all read. */
    private void primaryStreaming(Txn<S> t, Outcome o) {
        Ctx c = ctx.get(t.id());
        StatementCallback cb = c == null ? null : c.statementCallback;
        if (c != null) c.statementCallback = null;
        if (cb != null) {
            cb.answered(o.clientAnswer());
        } else if (o.clientAnswer() instanceof AutoCloseable orphan) {
            // nobody will read it (the transaction was aborted meanwhile): drain it off the core thread
            java.util.concurrent.CompletableFuture.runAsync(() -> {
                try {
                    orphan.close();
                } catch (Exception ignored) {
                    // its outcome (or failure) reaches the core through the endpoint
                }
            });
        }
    }

    private void primaryStatementDone(ReplicaManager<S> r, PoolEntry<S> e, Stmt<S> q, Outcome o) {
        Txn<S> t = e.txn();
        Ctx c = ctx.get(t.id());
        StatementCallback cb = c == null ? null : c.statementCallback;
        if (c != null) c.statementCallback = null;
        if (o.kind() == Outcome.Kind.DOWN) {
            replicaDown(r, o.error());
            if (cb != null) cb.failed(primaryDownError());
            return;
        }
        if (t.state() == TxState.ABORTED) {
            if (cb != null) cb.failed(abortedError(t));
            return;
        }
        if (o.kind() == Outcome.Kind.RETRYABLE) {
            abort(t, "the primary " + r.name() + " rolled it back (" + o.error().getMessage() + ")");
            if (cb != null) cb.failed(o.error());
            return;
        }
        e.markDone(q.index());
        q.setBarrier(barrier);
        q.recordVote(r.index(), o.ballot());
        if (o.error() != null) q.markFailedAtPrimary();
        if (settings.mode() != ExecutionMode.SS) enterSecondaryPools(t);
        if (cb != null) {
            if (o.error() != null) {
                cb.failed(o.error());
            } else {
                cb.answered(o.clientAnswer());
            }
        }
    }

    @Override
    public void commitDone(ReplicaManager<S> r, PoolEntry<S> e, Outcome o) {
        long now = scheduler.clock().nowMillis();
        e.completed();
        if (o.kind() != Outcome.Kind.ANSWER) {
            replicaDown(r, o.error());
        } else {
            e.markCommitted(now);
            r.committed(e.txn().barrier());
            if (!r.primary()) reportLateDivergences(r, e.txn());
        }
        afterEvent();
    }

    @Override
    public void rollbackDone(ReplicaManager<S> r, PoolEntry<S> e, Outcome o) {
        e.completed();
        if (o.kind() == Outcome.Kind.DOWN) {
            replicaDown(r, o.error());
        } else if (e.txn().state() == TxState.ABORTED) {
            e.markFinished();
        } else {
            e.restart();
        }
        afterEvent();
    }

    // ---------------------------------------------------------------- blocking secondaries (seed 3.3.2)

    /** The replica rolled back T on its own (deadlock victim, lock timeout): re-run T there. */
    private void rolledBackAtSecondary(ReplicaManager<S> r, PoolEntry<S> e) {
        r.countRerun();
        List<PoolEntry<S>> pending = r.pool().pendingCommits();
        PoolEntry<S> first = pending.isEmpty() ? null : pending.get(0);
        if (first == null) {
            e.requestAbort(-1);
        } else if (first == e) {
            clearTheWay(r, e.txn());
            e.requestAbort(-1);
        } else {
            e.requestAbort(first.txn().id());
        }
    }

    /** Aborts, at this replica only, the transactions that may hold locks committed transaction {@code t} needs. */
    private void clearTheWay(ReplicaManager<S> r, Txn<S> t) {
        for (PoolEntry<S> v : r.pool().entries()) {
            Txn<S> vt = v.txn();
            if (vt == t || v.commitSent() || v.finished() || v.abortRequested() || !v.started()) continue;
            if (vt.state() == TxState.ABORTED) continue;
            if (vt.committed() && vt.barrier() < t.barrier()) continue;
            r.countRerun();
            v.requestAbort(t.id());
        }
    }

    private void blockCheck() {
        blockTimer = null;
        long now = scheduler.clock().nowMillis();
        for (ReplicaManager<S> r : replicas) {
            if (r.down() || r.primary()) continue;
            List<PoolEntry<S>> pending = r.pool().pendingCommits();
            if (pending.isEmpty()) continue;
            PoolEntry<S> first = pending.get(0);
            if (first.inFlight() && now - first.inFlightSinceMs() >= settings.blockBoundMs()) clearTheWay(r, first.txn());
        }
        afterEvent();
    }

    // ---------------------------------------------------------------- a primary that stops answering (seed 3.5: timeouts)

    /** While the primary has a request in flight, checks now and then whether it has been running too long. */
    private void armPrimaryCheck() {
        long ms = unresponsiveMs();
        if (ms == 0 || !settings.recovery().viewChange() || primaryCheckTimer != null || primaryManager().down()) return;
        if (oldestInFlightAtPrimary() == Long.MAX_VALUE) return;
        primaryCheckTimer = scheduler.schedule(Math.max(1, ms / 4), this::primaryCheck);
    }

    /**
     * How long a request may run at the primary before it is pinged, and the ping may take: {@code unresponsiveMs},
     * doubled for each view change since a primary last settled (0: off).
     */
    public long unresponsiveMs() {
        return settings.recovery().unresponsiveMs() << unsettledViewChanges;
    }

    private long oldestInFlightAtPrimary() {
        long oldest = Long.MAX_VALUE;
        for (PoolEntry<S> e : primaryManager().pool().entries()) {
            if (e.inFlight()) oldest = Math.min(oldest, e.inFlightSinceMs());
        }
        return oldest;
    }

    /**
     * A request has been running at the primary for {@code unresponsiveMs}: a long query, or a primary that stopped
     * answering with its connections open (a stalled or paused server). A ping on a connection of its own tells them
     * apart: no answer within {@code unresponsiveMs} either, and the primary is treated as down (a view change).
     */
    private void primaryCheck() {
        primaryCheckTimer = null;
        ReplicaManager<S> p = primaryManager();
        long ms = unresponsiveMs();
        String stuck = p.down() ? null : stuckCommit(p, ms);
        if (stuck != null) {
            LOG.warn("the primary {} is not committing: {}", p.name(), stuck);
            replicaDown(p, new SQLException("stuck commit: " + stuck + " (view.change.unresponsive.ms"
                    + (unsettledViewChanges > 0 ? ", doubled for each of " + unsettledViewChanges + " view changes in a row" : "")
                    + ")", "08006"));
            afterEvent();
            armPrimaryCheck();
            return;
        }
        long oldest = oldestInFlightAtPrimary();
        // a ping of another replica, or of an earlier epoch of this one, no longer counts (it may never answer)
        if (ping != null && (ping.replica() != p || ping.replica().epoch() != ping.epoch())) ping = null;
        if (!p.down() && ping == null && oldest != Long.MAX_VALUE && scheduler.clock().nowMillis() - oldest >= ms) {
            long runningMs = scheduler.clock().nowMillis() - oldest;
            int epoch = p.epoch();
            Ping<S> sent = new Ping<>(p, epoch, scheduler.schedule(ms, () -> {
                if (ping == null || ping.replica() != p || ping.epoch() != epoch) return; // answered, or given up
                ping = null;
                if (p.epoch() != epoch || p.down() || !p.primary()) return;
                LOG.warn("the primary {} does not answer: a request has been running there for {} ms and a ping got no answer"
                        + " within {} ms", p.name(), runningMs + ms, ms);
                replicaDown(p, new SQLException("unresponsive: a request had been running for " + runningMs + " ms and a ping"
                        + " got no answer within " + ms + " ms (view.change.unresponsive.ms"
                        + (unsettledViewChanges > 0 ? ", doubled for each of " + unsettledViewChanges + " view changes in a row"
                                : "") + ")", "08006"));
                afterEvent();
            }));
            ping = sent;
            p.endpoint().ping(o -> scheduler.execute(() -> {
                if (ping != sent) return;
                ping = null;
                sent.noAnswer().cancel();
                if (o.kind() == Outcome.Kind.DOWN && p.epoch() == epoch && !p.down()) replicaDown(p, o.error());
                afterEvent();
            }));
        }
        armPrimaryCheck();
    }

    /**
     * Evidence against a primary that answers pings (paper 3.5: a primary that does not make progress): the COMMIT of a
     * decided transaction has been running there for {@code ms} while f other replicas committed it. Under strict
     * two-phase locking a COMMIT waits for no lock, so it is not a long query or a lock wait: the primary's commits are
     * stuck (a disk that no longer completes writes, a server-wide lock such as FLUSH TABLES WITH READ LOCK), and every
     * transaction that needs the locks that transaction still holds there waits with it. A commit that is merely
     * large (a binary log written at commit) takes long on the others too: the primary's must also have run
     * {@link #STUCK_COMMIT_FACTOR} times as long as the slowest of theirs. Null when there is none.
     */
    private String stuckCommit(ReplicaManager<S> p, long ms) {
        long now = scheduler.clock().nowMillis();
        for (PoolEntry<S> e : p.pool().entries()) {
            if (!e.inFlight() || !e.commitSent() || e.finished() || now - e.inFlightSinceMs() < ms) continue;
            Txn<S> t = e.txn();
            int committedElsewhere = 0;
            long slowestElsewhereMs = 0;
            for (ReplicaManager<S> r : replicas) {
                if (r == p || r.down()) continue;
                PoolEntry<S> other = r.pool().entry(t);
                if (other != null && other.commitTookMs() >= 0) {
                    committedElsewhere++;
                    slowestElsewhereMs = Math.max(slowestElsewhereMs, other.commitTookMs());
                }
            }
            if (committedElsewhere >= settings.f() && now - e.inFlightSinceMs() >= STUCK_COMMIT_FACTOR * slowestElsewhereMs) {
                return "the COMMIT of T" + t.id() + " has been running there for " + (now - e.inFlightSinceMs()) + " ms while "
                        + committedElsewhere + " other replica" + (committedElsewhere == 1 ? "" : "s")
                        + " committed it, and a commit waits for no lock";
            }
        }
        return null;
    }

    private void armBlockTimer() {
        if (blockTimer != null) return;
        for (ReplicaManager<S> r : replicas) {
            if (!r.down() && !r.primary() && !r.pool().pendingCommits().isEmpty()) {
                blockTimer = scheduler.schedule(settings.blockCheckMs(), this::blockCheck);
                return;
            }
        }
    }

    // ---------------------------------------------------------------- the commit decision (Figure 2)

    private void evaluateCommits() {
        for (Txn<S> t : new ArrayList<>(live.values())) {
            if (t.state() == TxState.COMMITTING) decide(t);
        }
    }

    private void decide(Txn<S> t) {
        ReplicaManager<S> p = primaryManager();
        if (p.down()) return;
        if (t.stmts().isEmpty()) {
            commitNow(t);
            return;
        }
        Collection<Txn<S>> lv = live.values();
        if (!p.pool().readyToCommit(t, lv)) return;
        int f = settings.f();
        boolean[] ready = new boolean[replicas.size()];
        int aliveSecondaries = 0;
        for (ReplicaManager<S> r : replicas) {
            if (r.down() || r.primary()) continue;
            aliveSecondaries++;
            ready[r.index()] = r.pool().readyToCommit(t, lv);
        }
        boolean waiting = false;
        for (Stmt<S> q : t.stmts()) {
            Ballot accepted = q.vote(t.primary());
            int matches = 0;
            int readyMismatches = 0;
            for (ReplicaManager<S> r : replicas) {
                if (r.down() || r.primary()) continue;
                boolean counts = ready[r.index()] || !settings.rules().readyVotesOnly();
                Ballot v = q.vote(r.index());
                if (!counts || v == null) continue;
                if (v.agreesWith(accepted)) {
                    matches++;
                } else if (ready[r.index()]) {
                    readyMismatches++;
                }
            }
            if (matches >= f) continue;
            if (aliveSecondaries - readyMismatches < f) {
                abortForVote(t, q, ready);
                return;
            }
            waiting = true;
        }
        if (!waiting) commitNow(t);
    }

    /**
     * The commit decision. T is acknowledged, and sent COMMIT at the replicas, once it is durable: at once when it wrote
     * nothing (a restarted shepherd has nothing to replay for it) or there is no log, else when the log says so.
     */
    private void commitNow(Txn<S> t) {
        t.commitAt(barrier++);
        commits++;
        if (++commitsInView >= VIEW_SETTLED_COMMITS) unsettledViewChanges = 0;
        if (replayMayNeed()) {
            committedLog.put(t.barrier(), t);
            boundLog();
        }
        Ctx c = ctx.get(t.id());
        c.commitTimer.cancel();
        record(commitWaitMs, c.commitAskedAtMs);
        boolean wrote = wrote(t);
        if (!wrote) t.markWroteNothing();
        if (commitLog.durableAtOnce() || !wrote) {
            durable(t);
            return;
        }
        commitLog.append(t, () -> scheduler.execute(() -> {
            durable(t);
            afterEvent();
        }), e -> scheduler.execute(() -> {
            if (e instanceof IllegalArgumentException tooLarge) {
                notLogged(t, tooLarge);
            } else {
                commitLogFailed(e);
            }
        }));
    }

    /**
     * The log refused T itself (too large a record): T alone is aborted (54000). Safe, as it is neither acknowledged nor
     * committed anywhere: its COMMIT waits for durability, and a transaction ordered after it that conflicted with it
     * still waits for its locks.
     */
    private void notLogged(Txn<S> t, IllegalArgumentException why) {
        abortUndurable(t, "the write-ahead log refused it: " + why.getMessage(), new SQLException("the transaction was not"
                + " committed: the write-ahead log refused it (" + why.getMessage() + "); make it smaller", "54000", why));
        resumeReplays();
        afterEvent();
    }

    /**
     * Aborts a decided transaction that is not durable: not acknowledged and committed nowhere (its COMMIT waits for
     * durability), so it may still be rolled back everywhere. Its client gets {@code toClient}, not abort()'s 40001.
     */
    private void abortUndurable(Txn<S> t, String reason, SQLException toClient) {
        if (!t.committed() || t.durable()) return;
        committedLog.remove(t.barrier());
        Ctx c = ctx.get(t.id());
        CommitCallback cb = c == null ? null : c.commitCallback;
        if (c != null) {
            c.commitCallback = null;
            c.abortReason = reason;
        }
        t.setState(TxState.ABORTED);
        aborts++;
        if (cb != null) cb.failed(toClient);
    }

    /** Whether some statement of T may have changed data (a statement the primary failed changed nothing). */
    private boolean wrote(Txn<S> t) {
        ReplicaEndpoint<S> p = primaryManager().endpoint();
        for (Stmt<S> q : t.stmts()) {
            if (!q.failedAtPrimary() && !p.readOnly(q.payload())) return true;
        }
        return false;
    }

    /** T is safe from a crash of the shepherd: the client is told, the replicas may commit it. */
    private void durable(Txn<S> t) {
        if (!t.committed() || t.durable()) return; // aborted when the log failed
        t.markDurable();
        toTruncate(t);
        Ctx c = ctx.get(t.id());
        CommitCallback cb = c == null ? null : c.commitCallback;
        if (c != null) c.commitCallback = null;
        if (cb != null) {
            record(commitLatencyMs, c.commitAskedAtMs);
            cb.committed();
        }
        resumeReplays();
    }

    private void record(Histogram h, long sinceMs) {
        if (sinceMs < 0) return;
        h.recordValue(Math.min(LATENCY_MS_MAX, Math.max(0, scheduler.clock().nowMillis() - sinceMs)));
    }

    /**
     * The log cannot make anything durable any more: the transactions decided but not durable are rolled back at the
     * replicas and their clients told the outcome is unknown (08007: a failed force may still have left the record on
     * disk, and a restart then commits it), and nothing that writes is committed any more (reads are served: they need
     * no log record, and see every durable transaction and none of those rolled back here, which a restart may commit
     * after them in the serial order); the shepherd must be restarted once its disk is fixed.
     */
    private void commitLogFailed(Exception e) {
        if (commitLogFailure != null) return;
        commitLogFailure = e;
        LOG.error("the write-ahead log failed: only reads are served any more; restart the shepherd once the disk is fixed",
                e);
        for (Txn<S> t : new ArrayList<>(live.values())) {
            abortUndurable(t, "the write-ahead log failed", new SQLException("the shepherd's write-ahead log failed ("
                    + e.getMessage() + ") while this transaction's commit was being logged: its outcome is unknown until the"
                    + " shepherd is restarted with a working log (its record may have reached the disk; then the restart commits"
                    + " it)", "08007", e));
        }
        for (Txn<S> t : new ArrayList<>(live.values())) {
            if (t.state() == TxState.ACTIVE || t.state() == TxState.COMMITTING) abort(t, "the write-ahead log failed");
        }
        resumeReplays();
        afterEvent();
    }

    /**
     * Once the log failed, a statement that may write ({@code payload}), or the COMMIT ({@code payload} null) of a
     * transaction that wrote, is refused (58030) and its transaction aborted. Reads are served on: a transaction that
     * wrote nothing commits without a log record, so the failed log takes nothing from it.
     */
    private boolean refusedByFailedLog(Txn<S> t, S payload, java.util.function.Consumer<SQLException> failed) {
        if (commitLogFailure == null) return false;
        if (payload != null ? primaryManager().endpoint().readOnly(payload) : !wrote(t)) return false;
        abort(t, "the write-ahead log failed");
        failed.accept(commitLogFailedError());
        afterEvent();
        return true;
    }

    /** For a transaction refused before its commit decision: it was not committed. */
    private SQLException commitLogFailedError() {
        return new SQLException("the shepherd's write-ahead log failed (" + commitLogFailure.getMessage() + "): until it is"
                + " restarted with a working log it serves reads only; the transaction was not committed", "58030",
                commitLogFailure);
    }

    private void abortForVote(Txn<S> t, Stmt<S> q, boolean[] ready) {
        voteAborts++;
        List<String> disagreeing = new ArrayList<>();
        Ballot primaryBallot = q.vote(t.primary());
        Map<Ballot, Integer> counts = new LinkedHashMap<>();
        counts.merge(primaryBallot, 1, Integer::sum);
        for (ReplicaManager<S> r : replicas) {
            if (ready[r.index()] && q.vote(r.index()) != null) counts.merge(q.vote(r.index()), 1, Integer::sum);
        }
        Ballot accepted = null;
        for (Map.Entry<Ballot, Integer> en : counts.entrySet()) {
            if (en.getValue() >= settings.f() + 1) accepted = en.getKey();
        }
        StringBuilder answers = new StringBuilder();
        for (ReplicaManager<S> r : replicas) {
            Ballot v = q.vote(r.index());
            boolean voted = r.primary() || ready[r.index()];
            answers.append(answers.length() == 0 ? "" : ", ").append(r.name()).append(r.primary() ? " (primary)" : "")
                    .append(": ").append(r.down() ? "down" : voted && v != null ? v.summary() : "not ready");
            if (!voted || v == null || r.down()) continue;
            Ballot reference = accepted != null ? accepted : primaryBallot;
            if (!v.agreesWith(reference) || (accepted == null && r.primary())) {
                if (!v.agreesWith(reference)) disagreeing.add(r.name());
                divergences.report(new Divergence(scheduler.clock().nowMillis(), t.id(), q.index(), shorten(q.text()), r.name(),
                        accepted != null ? accepted.summary() : "no answer with f+1 = " + (settings.f() + 1) + " votes",
                        v.summary(), false));
            }
        }
        if (accepted == null) disagreeing.add(0, replicas.get(t.primary()).name());
        boolean notPortable = refusedByOtherEngines(t, q, ready, accepted, primaryBallot);
        boolean primaryRefused = refusedByPrimaryEngineOnly(t, q, ready, accepted, primaryBallot);
        String msg = notPortable
                ? "Shepherd aborted the transaction: statement " + (q.index() + 1) + " (" + shorten(q.text()) + ") ran on the"
                        + " primary " + replicas.get(t.primary()).name() + " but replicas of other engines refused it (SQLState"
                        + " class 42: their engine does not take it, and Shepherd does not translate it for them): " + answers
                        + ". It cannot run on every replica; retrying will not help."
                : primaryRefused
                ? "Shepherd aborted the transaction: statement " + (q.index() + 1) + " (" + shorten(q.text()) + ") is refused by"
                        + " the engine of the primary " + replicas.get(t.primary()).name() + ", whose SQL the client writes, but"
                        + " replicas of other engines ran it: " + answers + ". Write it as that engine takes it; retrying will"
                        + " not help."
                : "Shepherd aborted the transaction: replicas " + String.join(", ", disagreeing)
                        + " disagreed on statement " + (q.index() + 1) + " (" + shorten(q.text()) + "): " + answers
                        + ". Retry the transaction.";
        Ctx c = ctx.get(t.id());
        CommitCallback cb = c.commitCallback;
        c.commitCallback = null;
        abort(t, msg);
        cb.failed(new SQLException(msg, notPortable ? "0A000" : primaryRefused ? AnswerDigest.sqlStateOf(primaryBallot, "42000")
                : "40001"));
        if (notPortable || primaryRefused) {
            LOG.warn("not held against the primary {}: {}", replicas.get(t.primary()).name(), msg);
        } else if (accepted != null && !accepted.agreesWith(primaryBallot) && t.primary() == primary) {
            primaryOutvoted(replicas.get(primary).name() + " answered " + primaryBallot.summary() + " to statement "
                    + (q.index() + 1) + " of T" + t.id() + " (" + shorten(q.text()) + ") where f+1 = " + (settings.f() + 1)
                    + " replicas answered " + accepted.summary());
        }
    }

    /**
     * Whether the answer f+1 replicas agreed on is a refusal (an error of SQLState class 42) of a statement the primary
     * ran, and no replica of the primary's engine is among them: then the statement is one the translator did not make
     * portable to their engine (replicas of one engine refuse alike), not evidence against the primary, and the
     * transaction is aborted without a view change. A replica of the primary's own engine that refuses it does count.
     */
    private boolean refusedByOtherEngines(Txn<S> t, Stmt<S> q, boolean[] ready, Ballot accepted, Ballot primaryBallot) {
        return AnswerDigest.isRefusal(accepted) && !AnswerDigest.isRefusal(primaryBallot) && onlyOtherEngines(t, q, ready, accepted);
    }

    /**
     * Whether the primary's engine is known and no ready replica of it but the primary answered {@code accepted}: only
     * replicas of other engines did.
     */
    private boolean onlyOtherEngines(Txn<S> t, Stmt<S> q, boolean[] ready, Ballot accepted) {
        String engine = replicas.get(t.primary()).engine();
        if (engine.isEmpty()) return false;
        for (ReplicaManager<S> r : replicas) {
            if (r.index() != t.primary() && ready[r.index()] && accepted.agreesWith(q.vote(r.index())) && engine.equals(r.engine())) {
                return false;
            }
        }
        return true;
    }

    /**
     * The mirror of {@link #refusedByOtherEngines}: the primary refused the statement (SQLState class 42) and f+1
     * replicas, none of the primary's engine, agreed on another answer. The client writes the primary's engine's SQL, so
     * the statement is not one that engine takes (a type it does not convert, a function it lacks) which the translator
     * let through to the others: the client's error, not a wrong answer of the primary. The transaction is aborted with
     * the primary's refusal, without a view change. A replica of the primary's own engine among them does count.
     */
    private boolean refusedByPrimaryEngineOnly(Txn<S> t, Stmt<S> q, boolean[] ready, Ballot accepted, Ballot primaryBallot) {
        return accepted != null && AnswerDigest.isRefusal(primaryBallot) && !AnswerDigest.isRefusal(accepted)
                && onlyOtherEngines(t, q, ready, accepted);
    }

    /**
     * f+1 replicas agreed on an answer other than the primary's: with at most f faulty replicas, the primary's was wrong
     * (seed 3.5, evidence against the primary). After {@code outvotedMax} such answers the primary is treated as down:
     * a view change replaces it, and it is probed, caught up and serves on as a secondary (outvoted again there, its
     * answers are masked and reported).
     */
    private void primaryOutvoted(String evidence) {
        Recovery rec = settings.recovery();
        if (!rec.viewChange() || rec.outvotedMax() == 0 || primaryManager().down()) return;
        primaryOutvoted++;
        if (primaryOutvoted < rec.outvotedMax()) return;
        LOG.warn("the primary {} is replaced: {}", primaryManager().name(), evidence);
        replicaDown(primaryManager(), new SQLException("outvoted: " + evidence, "XX000"));
    }

    private void reportLateDivergences(ReplicaManager<S> r, Txn<S> t) {
        for (Stmt<S> q : t.stmts()) {
            Ballot accepted = q.vote(t.primary());
            Ballot v = q.vote(r.index());
            if (accepted != null && v != null && !v.agreesWith(accepted)) {
                divergences.report(new Divergence(scheduler.clock().nowMillis(), t.id(), q.index(), shorten(q.text()), r.name(),
                        accepted.summary(), v.summary(), true));
                outvoted.accept(q.payload(), r.name());
            }
        }
    }

    /**
     * Tells {@code hook} of every statement of a committed transaction that a secondary answered otherwise than f+1
     * replicas (a masked divergence, reported when the secondary committed the transaction or replayed it): the
     * secondary's rows may now differ. It runs on the scheduler's thread, so it must be quick.
     */
    public void onOutvotedSecondary(java.util.function.BiConsumer<S, String> hook) {
        outvoted = java.util.Objects.requireNonNull(hook, "hook");
    }

    private void commitTimedOut(Txn<S> t) {
        if (t.state() != TxState.COMMITTING) return;
        List<String> ready = new ArrayList<>();
        for (ReplicaManager<S> r : replicas) {
            if (!r.down() && r.pool().readyToCommit(t, live.values())) ready.add(r.name());
        }
        String msg = "Shepherd aborted the transaction: no f+1 = " + (settings.f() + 1) + " replicas were ready to commit it within "
                + settings.commitTimeoutMs() + " ms (ready: " + ready + "). Retry the transaction.";
        Ctx c = ctx.get(t.id());
        CommitCallback cb = c.commitCallback;
        c.commitCallback = null;
        abort(t, msg);
        cb.failed(new SQLException(msg, "40001"));
        afterEvent();
    }

    // ---------------------------------------------------------------- bookkeeping

    private void abort(Txn<S> t, String reason) {
        if (t.state() == TxState.ABORTED) return;
        t.setState(TxState.ABORTED);
        aborts++;
        Ctx c = ctx.get(t.id());
        if (c != null) {
            c.abortReason = reason;
            if (c.commitTimer != null) c.commitTimer.cancel();
            if (c.connectionTimer != null) c.connectionTimer.cancel();
            StatementCallback sc = c.statementCallback;
            c.statementCallback = null;
            if (sc != null) sc.failed(abortedError(t));
            CommitCallback cc = c.commitCallback;
            c.commitCallback = null;
            if (cc != null) cc.failed(abortedError(t));
        }
    }

    private SQLException abortedError(Txn<S> t) {
        Ctx c = ctx.get(t.id());
        String reason = c == null ? "" : c.abortReason;
        if (primaryManager().down()) return primaryDownError();
        return new SQLException("transaction aborted: " + reason, "40001");
    }

    /**
     * While a view change is under way: 40001, retry (the next primary serves soon). Without one: 08006, the service
     * is unavailable until the primary, or a replica that may take over, is back.
     */
    private SQLException primaryDownError() {
        ReplicaManager<S> p = primaryManager();
        String is = "the primary replica " + p.name() + " is " + p.phase().name().toLowerCase(java.util.Locale.ROOT) + " ("
                + p.downReason() + ")";
        if (successor >= 0) {
            return new SQLException(is + "; " + replicas.get(successor).name() + " becomes the primary once it has committed"
                    + " every committed transaction (view change); retry the transaction", "40001");
        }
        String why = settings.recovery().viewChange()
                ? "no other replica that may be primary is up to take over"
                : "view changes are off (view.change=false)";
        return new SQLException(is + "; it serves again once it is reachable and has caught up; " + why, "08006");
    }

    private void replicaDown(ReplicaManager<S> r, SQLException cause) {
        if (r.down()) return;
        // what it may lack: every committed transaction it has not finished (the log keeps them from now on)
        long cursor = barrier - 1;
        for (Txn<S> t : live.values()) {
            if (!t.committed()) continue;
            PoolEntry<S> e = r.pool().entry(t);
            if (e != null ? e.finished() : t.stmts().isEmpty()) continue;
            committedLog.put(t.barrier(), t);
            cursor = Math.min(cursor, t.barrier() - 1);
        }
        r.markDown(cause == null ? "unknown" : cause.getMessage());
        r.setReplayCursor(cursor);
        LOG.warn("replica {} is down: {}", r.name(), r.downReason());
        if (r.primary()) {
            primaryDownReason = r.downReason();
            if (settings.recovery().viewChange()) chooseSuccessor();
            for (Txn<S> t : new ArrayList<>(live.values())) {
                if (!t.committed()) abort(t, "the primary replica is down");
            }
        }
        trimLog();
        scheduleProbe(r);
    }

    // ---------------------------------------------------------------- view change: another primary (seed 3.5)

    /**
     * The primary is down: picks the replica that takes over, an up one that may be primary, the one that committed
     * most first (it has least left to do). Uncommitted transactions are aborted (their answers came from the old
     * primary); committed ones go on at the secondaries.
     */
    private void chooseSuccessor() {
        if (successor >= 0 && !replicas.get(successor).down()) return;
        successor = -1;
        preparingEpoch = -1;
        for (ReplicaManager<S> r : replicas) {
            if (r.down() || r.primary() || !r.endpoint().canBePrimary()) continue;
            if (successor < 0 || r.lastCommittedBarrier() > replicas.get(successor).lastCommittedBarrier()) successor = r.index();
        }
        if (successor >= 0) {
            LOG.warn("the primary {} is down: {} becomes the primary once it has committed every committed transaction"
                    + " (view change)", primaryManager().name(), replicas.get(successor).name());
        }
    }

    /**
     * Makes the successor the primary once it has finished every transaction in its pool and committed every committed
     * one (from then on it answers at once, and what it answers must include every commit acknowledged before) and
     * its endpoint prepared it ({@link ReplicaEndpoint#becomePrimary}).
     */
    private void advanceViewChange() {
        if (!primaryManager().down()) {
            successor = -1; // the primary came back first
            preparingEpoch = -1;
            return;
        }
        chooseSuccessor();
        if (successor < 0 || preparingEpoch >= 0) return;
        ReplicaManager<S> next = replicas.get(successor);
        // every committed transaction has an entry in every up secondary's pool: it entered them when the primary
        // answered (ss, serial: when its turn came, before it could be ready to commit) or when the replica rejoined
        if (!next.pool().drained()) return;
        int epoch = next.epoch();
        preparingEpoch = epoch;
        next.endpoint().becomePrimary(o -> scheduler.execute(() -> prepared(next, epoch, o)));
    }

    /** The successor's endpoint is ready to serve as primary (or failed to get ready: then it is down). */
    private void prepared(ReplicaManager<S> next, int epoch, Outcome o) {
        if (successor != next.index() || preparingEpoch != epoch || next.epoch() != epoch || next.down()) return;
        preparingEpoch = -1;
        if (o.kind() != Outcome.Kind.ANSWER) {
            replicaDown(next, o.error());
            successor = -1;
            afterEvent();
            return;
        }
        if (!next.pool().drained()) {
            afterEvent(); // it got work meanwhile: prepared again once that is finished
            return;
        }
        ReplicaManager<S> old = primaryManager();
        old.pool().clear();
        old.pool().setPrimary(false);
        next.pool().setPrimary(true);
        primary = next.index();
        successor = -1;
        primaryOutvoted = 0;
        view++;
        lastViewChange = "view " + view + ": " + next.name() + " replaced " + old.name() + " (down: " + primaryDownReason + ")";
        unsettledViewChanges = Math.min(unsettledViewChanges + 1, TIMEOUT_DOUBLINGS_MAX);
        commitsInView = 0;
        LOG.warn("view {}: {} is the primary ({} is {}; it rejoins as a secondary once it has caught up)", view, next.name(),
                old.name(), old.phase().name().toLowerCase(java.util.Locale.ROOT));
        afterEvent();
    }

    // ---------------------------------------------------------------- recovery of a replica that went down (seed 3.4.1)

    /** Whether a replica that is down or recovering may need committed transactions replayed. */
    private boolean replayMayNeed() {
        for (ReplicaManager<S> r : replicas) {
            if (r.awaitingReplay()) return true;
        }
        return false;
    }

    /** Forgets committed transactions that no replica needs replayed any more. */
    private void trimLog() {
        long floor = Long.MAX_VALUE;
        for (ReplicaManager<S> r : replicas) {
            if (r.awaitingReplay()) floor = Math.min(floor, r.replayCursor());
        }
        if (floor == Long.MAX_VALUE) {
            committedLog.clear();
        } else {
            committedLog.headMap(floor, true).clear();
        }
    }

    /**
     * Keeps the in-memory log within its bound. With a commit log, what is dropped is read back from it when a replica
     * needs it (only durable transactions are dropped: the commit log holds them); without one, a replica that would
     * need a dropped transaction can no longer catch up.
     */
    private void boundLog() {
        int max = settings.recovery().logTransactionsMax();
        while (committedLog.size() > max) {
            if (!commitLog.durableAtOnce()) {
                Txn<S> oldest = committedLog.firstEntry().getValue();
                if (!oldest.durable()) break; // not on disk yet: kept beyond the bound for now
                committedLog.pollFirstEntry();
                memoryFloor = Math.max(memoryFloor, oldest.barrier());
                continue;
            }
            long dropped = committedLog.pollFirstEntry().getKey();
            for (ReplicaManager<S> r : replicas) {
                if (r.awaitingReplay() && r.replayCursor() < dropped) {
                    r.markLost("it fell more than " + max + " committed transactions behind (replica.recovery.log.max);"
                            + " restore it from a copy of an up-to-date replica");
                    LOG.error("replica {} is lost: {}", r.name(), r.downReason());
                }
            }
        }
        trimLog();
    }

    /**
     * First step of bringing back a lost replica while the shepherd serves: the log is kept from now on for a copy of
     * an up-to-date replica's database that the operator takes after this and installs on it. Every replica that is not
     * lost committed every transaction up to the released floor F, and the log keeps every one that wrote above it: F is
     * pinned (the replica is down again, waiting for its copy, and holds the floor like any replica that is down), and
     * the primary's count of barriers up to F is what the copy must hold. {@code done} gets null, or why not, on the
     * core's thread. The second step is {@link #restoreCopied}.
     */
    public void restore(String name, java.util.function.Consumer<SQLException> done) {
        restore(name, false, done);
    }

    /**
     * As {@link #restore(String, java.util.function.Consumer)}; with {@code takeOut}, a secondary that is not lost
     * (one whose data differs, found by {@code shepherd verify}) is first taken out of service and declared lost, when
     * f+1 other replicas are up to go on committing without it.
     */
    public void restore(String name, boolean takeOut, java.util.function.Consumer<SQLException> done) {
        ReplicaManager<S> r = replicaNamed(name, done);
        if (r == null) return;
        String phase = r.phase().name().toLowerCase(java.util.Locale.ROOT);
        if (r.phase() != ReplicaManager.Phase.LOST && !takeOut && !r.primary()) {
            done.accept(new SQLException("replica " + name + " is " + phase + ", not lost: only a lost replica is restored"
                    + " (to restore a secondary that serves, e.g. one `shepherd verify` found different, take it out:"
                    + " `shepherd restore --take-out " + name + "`)", "55000"));
            return;
        }
        String takeOutRefusal = r.phase() == ReplicaManager.Phase.LOST ? null : takeOutRefusal(r, phase);
        if (takeOutRefusal != null) {
            done.accept(new SQLException(takeOutRefusal, "55000"));
            return;
        }
        ReplicaManager<S> p = primaryManager();
        if (p.down()) {
            done.accept(new SQLException("the primary " + p.name() + " is down: restore " + name + " once it serves", "55000"));
            return;
        }
        if (restoringFloor != NOT_RESTORING) {
            done.accept(new SQLException("another replica's restore is starting; try again in a moment", "55006"));
            return;
        }
        if (r.phase() != ReplicaManager.Phase.LOST) takeOut(r); // every check passed: nothing is left half done
        long recorded = commitLog.recordedFloor();
        long floor = Math.max(releasedFloor, recorded == Long.MAX_VALUE ? -1 : recorded);
        restoringFloor = floor; // the log keeps what lies above it while the primary counts
        p.endpoint().countTxlog(floor, count -> scheduler.execute(() -> {
            restoringFloor = NOT_RESTORING;
            if (r.phase() != ReplicaManager.Phase.LOST) {
                done.accept(new SQLException("replica " + name + " changed meanwhile: " + r.phase(), "55000"));
                return;
            }
            // what committed above the floor: on disk up to the first committed transaction still in progress, which
            // and every later one memory keeps from now on (a replica awaits replay)
            long onDisk = barrier - 1;
            for (Txn<S> t : live.values()) {
                if (!t.committed()) continue;
                committedLog.put(t.barrier(), t);
                onDisk = Math.min(onDisk, t.barrier() - 1);
            }
            memoryFloor = Math.max(memoryFloor, onDisk);
            r.restored(floor, count, "restoring: waiting for a copy of an up-to-date replica taken from now on (the log"
                    + " keeps every transaction after barrier " + floor + "), then for `shepherd restore --copied " + name + "`");
            LOG.warn("replica {} is being restored: {}", r.name(), r.downReason());
            done.accept(null);
            afterEvent();
        }), e -> scheduler.execute(() -> {
            restoringFloor = NOT_RESTORING;
            done.accept(new SQLException("cannot count the primary " + p.name() + "'s transaction log up to barrier " + floor
                    + " to check " + name + " against: " + e.getMessage(), "55000", e));
        }));
    }

    /** Why secondary {@code r} may not be taken out of service to be restored, or null when it may. */
    private String takeOutRefusal(ReplicaManager<S> r, String phase) {
        if (r.primary()) {
            return "replica " + r.name() + " is the primary: only a secondary is taken out to be restored (a primary that"
                    + " answers wrongly is replaced by a view change)";
        }
        if (r.awaitingCopy()) return "replica " + r.name() + " is already waiting for its copy";
        int othersUp = 0;
        for (ReplicaManager<S> o : replicas) {
            if (o != r && o.phase() == ReplicaManager.Phase.UP) othersUp++;
        }
        if (othersUp < settings.f() + 1) {
            return "taking " + r.name() + " (" + phase + ") out would leave " + othersUp + " replicas up, fewer than f+1 = "
                    + (settings.f() + 1) + ": commits would stop; bring the others back first";
        }
        return null;
    }

    /** The operator takes secondary {@code r} out of service to restore it from a copy: it is lost from now on. */
    private void takeOut(ReplicaManager<S> r) {
        String reason = "taken out of service by the operator, to be restored from a copy";
        if (!r.down()) {
            replicaDown(r, new SQLException(reason, "57P01"));
        } else if (r.phase() == ReplicaManager.Phase.RECOVERING) {
            r.markDown(reason); // its replay stops
        }
        r.markLost(reason);
        LOG.warn("replica {} is {}", r.name(), reason);
        trimLog();
    }

    /**
     * Second step: the operator installed the copy on replica {@code name} ({@link #restore} came first). It is probed
     * now; when it answers it must hold as many barriers up to the pinned floor as the primary did (else it is lost
     * again: the copy was older), then it replays what it lacks after the floor (barriers the copy already holds are
     * skipped) and serves again. It may be taken again until the replica answers (the copy's place named wrong, then
     * mended).
     */
    public void restoreCopied(String name, java.util.function.Consumer<SQLException> done) {
        restoreCopied(name, null, done);
    }

    /**
     * As {@link #restoreCopied(String, java.util.function.Consumer)}, for a replica whose copy was installed at a new
     * location: {@code move} (null: none) points its endpoint there before it is probed, once the replica is known to
     * wait for its copy, and says where.
     */
    public void restoreCopied(String name, Move move, java.util.function.Consumer<SQLException> done) {
        ReplicaManager<S> r = replicaNamed(name, done);
        if (r == null) return;
        if (!r.awaitingCopy() && !r.copiedNotReached()) {
            done.accept(new SQLException("replica " + name + " is not waiting for its copy (" + r.phase().name()
                    .toLowerCase(java.util.Locale.ROOT) + "): run `shepherd restore " + name + "` first, then copy", "55000"));
            return;
        }
        if (move != null) move.apply().run();
        r.copied("restored" + (move == null ? "" : " at its new location " + move.to()) + ": probed, checked against the "
                + r.expectedUpToCursor() + " transactions every replica committed up to barrier " + r.replayCursor()
                + ", then caught up");
        scheduleProbe(r, 0);
        done.accept(null);
    }

    /**
     * A replica's move to a new location ({@link #restoreCopied(String, Move, java.util.function.Consumer)}).
     *
     * @param to where it is now, as shown to the operator
     * @param apply points its endpoint there; runs on the core's thread, and must not block
     */
    public record Move(String to, Runnable apply) {
    }

    private ReplicaManager<S> replicaNamed(String name, java.util.function.Consumer<SQLException> done) {
        for (ReplicaManager<S> r : replicas) {
            if (r.name().equals(name)) return r;
        }
        done.accept(new SQLException("no replica " + name, "42704"));
        return null;
    }

    private void scheduleProbe(ReplicaManager<S> r) {
        Recovery rec = settings.recovery();
        scheduleProbe(r, Math.min(rec.probeMaxMs(), rec.probeMinMs() << Math.min(r.probeFailures(), 20)));
    }

    private void scheduleProbe(ReplicaManager<S> r, long delay) {
        int epoch = r.epoch();
        scheduler.schedule(delay, () -> {
            if (r.phase() != ReplicaManager.Phase.DOWN || r.epoch() != epoch) return;
            r.endpoint().probe(r.replayCursor(), r.expectedUpToCursor() >= 0, found -> scheduler.execute(() -> reached(r, epoch, found)),
                    e -> scheduler.execute(() -> {
                        if (r.phase() != ReplicaManager.Phase.DOWN || r.epoch() != epoch) return;
                        r.probeFailed();
                        scheduleProbe(r);
                    }));
        });
    }

    private void reached(ReplicaManager<S> r, int epoch, ReplicaEndpoint.Probe found) {
        if (r.phase() != ReplicaManager.Phase.DOWN || r.epoch() != epoch) return;
        long expected = r.expectedUpToCursor();
        if (expected >= 0 && found.upToAbove() != expected) {
            r.markLost("when it answered, its transaction log held " + found.upToAbove() + " committed transactions up to"
                    + " barrier " + r.replayCursor() + " where the others held " + expected + ": it missed transactions nobody"
                    + " can replay; restore it from a copy of an up-to-date replica");
            LOG.error("replica {} is lost: {}", r.name(), r.downReason());
            trimLog();
            afterEvent();
            return;
        }
        r.startRecovery(found.above());
        LOG.info("replica {} answers again; replaying the committed transactions it missed after barrier {} ({} in the log)",
                r.name(), r.replayCursor(), committedLog.tailMap(r.replayCursor(), false).size());
        replayNext(r);
        afterEvent();
    }

    /** Replays the next committed transaction the recovering replica lacks, or lets it rejoin when there is none. */
    private void replayNext(ReplicaManager<S> r) {
        java.util.ArrayDeque<Txn<S>> fromLog = r.replayFromLog();
        while (!fromLog.isEmpty()) {
            Txn<S> t = fromLog.poll();
            if (t.barrier() <= r.replayCursor()) continue;
            if (r.alreadyApplied(t.barrier())) {
                r.committed(t.barrier());
                r.setReplayCursor(t.barrier());
                continue;
            }
            replayStatement(r, r.epoch(), t, r.nextReplayAttempt(), 0);
            return;
        }
        if (r.replayCursor() < memoryFloor) {
            if (!r.readingLog()) readFromLog(r);
            return;
        }
        Map.Entry<Long, Txn<S>> next = committedLog.higherEntry(r.replayCursor());
        // skipped: what its log already held, and what wrote nothing (no change, no log row: nothing to send)
        while (next != null && (r.alreadyApplied(next.getKey()) || next.getValue().wroteNothing())) {
            r.committed(next.getKey());
            r.setReplayCursor(next.getKey());
            next = committedLog.higherEntry(next.getKey());
        }
        trimLog();
        if (next == null) {
            rejoin(r);
            return;
        }
        if (!next.getValue().durable()) {
            replayAwaitingDurability.put(r, r.epoch()); // resumed by durable()
            return;
        }
        replayStatement(r, r.epoch(), next.getValue(), r.nextReplayAttempt(), 0);
    }

    /** Reads the next transactions the replica lacks back from the commit log: memory no longer holds them. */
    private void readFromLog(ReplicaManager<S> r) {
        r.setReadingLog(true);
        int epoch = r.epoch();
        long after = r.replayCursor();
        commitLog.readAfter(after, LOG_READ_BATCH, read -> scheduler.execute(() -> {
            if (r.phase() != ReplicaManager.Phase.RECOVERING || r.epoch() != epoch) return;
            r.setReadingLog(false);
            // only what memory dropped (durable: see boundLog); the log's newest records may not be forced yet, and
            // memory holds them with their durability
            List<Txn<S>> dropped = read.stream().filter(t -> t.barrier() <= memoryFloor).toList();
            if (dropped.isEmpty()) {
                // nothing that wrote after the cursor is on disk up to memory's floor: what memory dropped wrote nothing
                r.setReplayCursor(Math.max(r.replayCursor(), memoryFloor));
            } else {
                r.replayFromLog().addAll(dropped);
            }
            replayNext(r);
            afterEvent();
        }), e -> scheduler.execute(() -> {
            if (r.phase() != ReplicaManager.Phase.RECOVERING || r.epoch() != epoch) return;
            r.markLost("it needs committed transactions after barrier " + after + " that the shepherd no longer keeps in"
                    + " memory, and the write-ahead log could not give them back (" + e.getMessage() + "); restore it from"
                    + " a copy of an up-to-date replica");
            LOG.error("replica {} is lost: {}", r.name(), r.downReason());
            trimLog();
            afterEvent();
        }));
    }

    /** Goes on replaying on the recovering replicas that waited for a transaction to become durable. */
    private void resumeReplays() {
        if (replayAwaitingDurability.isEmpty()) return;
        Map<ReplicaManager<S>, Integer> waiting = new LinkedHashMap<>(replayAwaitingDurability);
        replayAwaitingDurability.clear();
        waiting.forEach((r, epoch) -> {
            if (r.phase() == ReplicaManager.Phase.RECOVERING && r.epoch() == epoch) replayNext(r);
        });
    }

    private void replayStatement(ReplicaManager<S> r, int epoch, Txn<S> t, int attempt, int from) {
        int i = from;
        while (i < t.stmts().size() && (t.stmts().get(i).failedAtPrimary() || r.endpoint().readOnly(t.stmts().get(i).payload()))) {
            i++;
        }
        if (i == t.stmts().size()) {
            r.endpoint().commit(t.id(), attempt, t.logBarrier(), o -> scheduler.execute(() -> replayCommitted(r, epoch, t, o)));
            return;
        }
        int index = i;
        r.endpoint().execute(t.id(), attempt, t.stmts().get(index).payload(), false, false, // failed ones are not replayed
                o -> scheduler.execute(() -> replayed(r, epoch, t, attempt, index, o)));
    }

    private void replayed(ReplicaManager<S> r, int epoch, Txn<S> t, int attempt, int index, Outcome o) {
        if (r.phase() != ReplicaManager.Phase.RECOVERING || r.epoch() != epoch) return;
        switch (o.kind()) {
            case DOWN -> replayFailed(r, o.error());
            case RETRYABLE -> r.endpoint().rollback(t.id(), attempt, x -> scheduler.execute(() -> {
                if (r.phase() == ReplicaManager.Phase.RECOVERING && r.epoch() == epoch) {
                    replayNext(r);
                    afterEvent();
                }
            }));
            default -> {
                Stmt<S> q = t.stmts().get(index);
                Ballot accepted = q.vote(t.primary());
                if (accepted != null && o.ballot() != null && !o.ballot().agreesWith(accepted)) {
                    divergences.report(new Divergence(scheduler.clock().nowMillis(), t.id(), index, shorten(q.text()), r.name(),
                            accepted.summary(), o.ballot().summary() + " (replayed during recovery)", true));
                    outvoted.accept(q.payload(), r.name());
                }
                replayStatement(r, epoch, t, attempt, index + 1);
            }
        }
        afterEvent();
    }

    private void replayCommitted(ReplicaManager<S> r, int epoch, Txn<S> t, Outcome o) {
        if (r.phase() != ReplicaManager.Phase.RECOVERING || r.epoch() != epoch) return;
        if (o.kind() != Outcome.Kind.ANSWER) {
            replayFailed(r, o.error());
        } else {
            r.replayedOne(t.barrier());
            r.setReplayCursor(t.barrier());
            replayNext(r);
        }
        afterEvent();
    }

    /** Down again while catching up: probed again; the replay goes on from its cursor. */
    private void replayFailed(ReplicaManager<S> r, SQLException cause) {
        r.markDown(cause == null ? "unknown" : cause.getMessage());
        LOG.warn("replica {} went down again while catching up: {}", r.name(), r.downReason());
        scheduleProbe(r);
    }

    /**
     * The replica has every committed transaction: it serves again. Committed transactions still in flight elsewhere
     * are finished here; the others start here from their first statement, as the rules allow.
     */
    private void rejoin(ReplicaManager<S> r) {
        r.rejoin();
        for (Txn<S> t : live.values()) {
            if (t.state() == TxState.ABORTED || !t.admitted()) continue;
            if (t.committed()) {
                r.pool().entryOrCreate(t).markFinished();
            } else if (!r.primary() && !t.stmts().isEmpty() && (settings.mode() != ExecutionMode.SS || t == gateHolder)) {
                r.pool().entryOrCreate(t);
            }
        }
        trimLog();
        LOG.info("replica {} caught up at barrier {} ({} transactions replayed since start) and serves again", r.name(),
                r.replayCursor(), r.replayed());
    }

    private void enterSecondaryPools(Txn<S> t) {
        for (ReplicaManager<S> r : replicas) {
            if (!r.down() && !r.primary()) r.pool().entryOrCreate(t);
        }
    }

    private void advanceGate() {
        if (gateHolder != null && live.containsKey(gateHolder.id())) return;
        gateHolder = null;
        while (!gateQueue.isEmpty()) {
            Txn<S> next = gateQueue.poll();
            if (!live.containsKey(next.id()) || next.state() == TxState.ABORTED) continue;
            gateHolder = next;
            if (settings.mode() == ExecutionMode.SERIAL) {
                next.admit();
                if (!next.stmts().isEmpty()) primaryManager().pool().entryOrCreate(next);
            } else {
                enterSecondaryPools(next);
            }
            return;
        }
    }

    private void reap() {
        for (Txn<S> t : new ArrayList<>(live.values())) {
            if (t.state() != TxState.ABORTED && !t.committed()) continue;
            boolean finished = true;
            for (ReplicaManager<S> r : replicas) {
                if (r.down()) continue;
                PoolEntry<S> e = r.pool().entry(t);
                if (e != null && !e.finished()) finished = false;
            }
            if (!finished) continue;
            live.remove(t.id());
            ctx.remove(t.id());
            for (ReplicaManager<S> r : replicas) r.pool().remove(t);
        }
        advanceGate();
        releaseCommitLog();
    }

    /**
     * Tells the log which transactions no replica needs any more: those with a barrier below every committed transaction
     * still in progress somewhere and below what each replica that is down or recovering lacks. Lost replicas do not
     * count (they are restored from a copy).
     */
    private void releaseCommitLog() {
        long floor = barrier - 1;
        for (Txn<S> t : live.values()) {
            if (t.committed()) floor = Math.min(floor, t.barrier() - 1);
        }
        if (restoringFloor != NOT_RESTORING) floor = Math.min(floor, restoringFloor);
        while (true) {
            ReplicaManager<S> laggard = null;
            for (ReplicaManager<S> r : replicas) {
                if (r.awaitingReplay() && (laggard == null || r.replayCursor() < laggard.replayCursor())) laggard = r;
            }
            if (laggard == null || laggard.replayCursor() >= floor) break;
            long bound = settings.recovery().logBytesMax();
            // a primary that is down is waited for (without view changes), never lost: the service needs it back
            long kept = bound > 0 && !laggard.primary() ? commitLog.bytesKeptAbove(laggard.replayCursor()) : 0;
            if (kept <= bound) {
                floor = laggard.replayCursor();
                break;
            }
            loseForTheLog(laggard, kept, bound);
        }
        if (floor > releasedFloor) {
            releasedFloor = floor;
            commitLog.release(floor);
        }
        truncateTxlogs();
    }

    /**
     * A replica down or catching up would make the write-ahead log keep more than its bound on disk: it is lost (as a
     * PostgreSQL replication slot past {@code max_slot_wal_keep_size}), and the log is released past it.
     */
    private void loseForTheLog(ReplicaManager<S> r, long kept, long bound) {
        String reason = "it lacks committed transactions after barrier " + r.replayCursor() + " for which the write-ahead log"
                + " would keep " + kept + " bytes on disk, more than wal.retain.bytes.max = " + bound + "; restore it from a"
                + " copy of an up-to-date replica";
        if (r.phase() == ReplicaManager.Phase.RECOVERING) r.markDown(reason); // its replay stops
        r.markLost(reason);
        LOG.error("replica {} is lost: {}", r.name(), r.downReason());
        trimLog();
    }

    /**
     * Asks each replica that is up to delete its transaction log's rows up to the floor every replica committed, once
     * that floor moved {@code txlogTruncateBarriers} past its last truncation. Only up to the floor the commit log
     * recorded: a restart counts each replica's barriers up to that floor, and must never count below what was deleted.
     * The rows are named by transaction id ({@link #truncatable}), so that the deletion touches no row of a transaction
     * still committing there and never waits for one.
     */
    private void truncateTxlogs() {
        long every = settings.recovery().txlogTruncateBarriers();
        if (every <= 0 || commitLogFailure != null) return;
        long through = Math.min(releasedFloor, commitLog.recordedFloor());
        for (ReplicaManager<S> r : replicas) {
            if (r.phase() != ReplicaManager.Phase.UP || r.truncatingTxlog()) continue;
            // back after being down: what was dropped from the list meanwhile stays until a restart truncates it
            if (r.txlogTruncatedThrough() < truncatableDropped) r.txlogTruncated(truncatableDropped, every);
            if (through < r.txlogNextTruncation()) continue;
            java.util.SortedMap<Long, Long> rows = truncatable.subMap(r.txlogTruncatedThrough() + 1, through + 1);
            if (rows.isEmpty()) {
                r.txlogTruncated(through, every);
                continue;
            }
            long[] barriers = rows.keySet().stream().mapToLong(Long::longValue).toArray();
            long[] txIds = rows.values().stream().mapToLong(Long::longValue).toArray();
            r.truncatingTxlog(true);
            int epoch = r.epoch();
            r.endpoint().truncateTxlog(txIds, barriers, outcome -> scheduler.execute(() -> {
                r.truncatingTxlog(false);
                if (outcome.error() == null && r.epoch() == epoch) {
                    r.txlogTruncated(through, every);
                    dropTruncated();
                } else {
                    r.txlogTruncationFailed(through, every);
                    LOG.warn("cannot truncate the transaction log of replica {} through barrier {} (tried again after {} more"
                            + " barriers): {}", r.name(), through, every,
                            outcome.error() == null ? "it went down meanwhile" : outcome.error().toString());
                }
            }));
        }
    }

    /**
     * Durable T's row is to be truncated from every replica's transaction log. Beyond {@link #TRUNCATABLE_MAX} waiting
     * (a replica down for long holds the floor back), the oldest are forgotten: their rows stay until a restart.
     */
    private void toTruncate(Txn<S> t) {
        if (t.logBarrier() < 0 || settings.recovery().txlogTruncateBarriers() <= 0) return;
        truncatable.put(t.barrier(), t.id());
        if (truncatable.size() <= TRUNCATABLE_MAX) return;
        long oldest = truncatable.firstKey();
        if (!truncatableOverflowed) {
            truncatableOverflowed = true;
            LOG.warn("more than {} transactions wait to be truncated from the replicas' transaction logs (a replica is down):"
                    + " the oldest, from barrier {} on, stay there until the shepherd restarts", TRUNCATABLE_MAX, oldest);
        }
        dropTruncatableThrough(oldest);
    }

    /** Drops from {@link #truncatable} what every replica that is up deleted. */
    private void dropTruncated() {
        long done = Long.MAX_VALUE;
        for (ReplicaManager<S> r : replicas) {
            if (r.phase() == ReplicaManager.Phase.UP) done = Math.min(done, r.txlogTruncatedThrough());
        }
        if (done != Long.MAX_VALUE) dropTruncatableThrough(done);
    }

    private void dropTruncatableThrough(long barrierInclusive) {
        if (barrierInclusive <= truncatableDropped) return;
        truncatable.headMap(barrierInclusive, true).clear();
        truncatableDropped = barrierInclusive;
    }

    private void afterEvent() {
        evaluateCommits();
        for (ReplicaManager<S> r : replicas) r.pump(live.values());
        reap();
        if (settings.recovery().viewChange() && (successor >= 0 || primaryManager().down())) advanceViewChange();
        for (ReplicaManager<S> r : replicas) r.pump(live.values());
        armBlockTimer();
        armPrimaryCheck();
    }

    private ReplicaManager<S> primaryManager() {
        return replicas.get(primary);
    }

    private static String shorten(String s) {
        return s.length() <= 120 ? s : s.substring(0, 117) + "...";
    }

    // ---------------------------------------------------------------- views for tests, status and the simulation

    public Settings settings() {
        return settings;
    }

    public List<ReplicaManager<S>> replicas() {
        return List.copyOf(replicas);
    }

    public int primaryIndex() {
        return primary;
    }

    /** View changes since start (0: the configured primary still serves). */
    public long view() {
        return view;
    }

    /** The last view change and the evidence against the primary it replaced; "" while the configured primary serves. */
    public String lastViewChange() {
        return lastViewChange;
    }

    public Collection<Txn<S>> liveTransactions() {
        return List.copyOf(live.values());
    }

    /** Whether replica {@code r} is ready to commit T now (seed 3.3's definition). */
    public boolean readyToCommit(int r, Txn<S> t) {
        return !replicas.get(r).down() && replicas.get(r).pool().readyToCommit(t, live.values());
    }

    /** No transaction is in progress anywhere: every decided transaction is committed or rolled back everywhere. */
    public boolean idle() {
        return live.isEmpty();
    }

    /**
     * Whether every replica that is up has finished (committed or rolled back) each of {@code txIds}: their answers were
     * all compared, and any divergence reported.
     */
    public boolean finishedEverywhere(java.util.Collection<Long> txIds) {
        for (long id : txIds) {
            if (live.containsKey(id)) return false;
        }
        return true;
    }

    public long currentBarrier() {
        return barrier;
    }

    /**
     * One replica as status reports show it.
     *
     * @param state "up"; "down: " and why; "recovering: " and how far; "lost: " and why
     * @param replayed transactions replayed on this replica while it caught up, since start
     */
    public record ReplicaStatus(String name, boolean primary, boolean down, long lastCommittedBarrier, int transactionsInPool,
            long reruns, String state, long replayed) {
    }

    public List<ReplicaStatus> replicaStatus() {
        List<ReplicaStatus> out = new ArrayList<>();
        for (ReplicaManager<S> r : replicas) {
            String state = switch (r.phase()) {
                case UP -> "up";
                case DOWN -> "down: " + r.downReason() + " (probed again"
                        + (r.probeFailures() > 0 ? ", " + r.probeFailures() + " failed tries" : "") + ")";
                case RECOVERING -> "recovering: replaying committed transactions, at barrier " + r.replayCursor() + " of "
                        + (barrier - 1);
                case LOST -> "lost: " + r.downReason();
            };
            out.add(new ReplicaStatus(r.name(), r.primary(), r.down(), r.lastCommittedBarrier(), r.pool().entries().size(),
                    r.reruns(), state, r.replayed()));
        }
        return out;
    }

    public Stats stats() {
        long reruns = 0;
        for (ReplicaManager<S> r : replicas) reruns += r.reruns();
        return new Stats(commits, aborts, voteAborts, reruns, live.size(), Latency.of(commitWaitMs), Latency.of(commitLatencyMs));
    }
}
