package org.shepherd.sim;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.shepherd.recovery.RestartPlan;
import org.shepherd.replica.Outcome;
import org.shepherd.replica.ReplicaEndpoint;
import org.shepherd.time.Scheduler;
import org.shepherd.vote.AnswerDigest;

/**
 * A simulated replica: a key-value store under strict two-phase locking (shared locks for reads, exclusive for
 * writes, held to the end of the transaction, FIFO waits, deadlock detection and lock-wait timeouts that roll the
 * waiter back with a retryable error). Faults make it slow, crash, lie, lock coarser than the primary, or ignore
 * locks altogether (the Byzantine primary of the seed's Figure 5).
 */
final class SimReplica implements ReplicaEndpoint<SimOp> {

    /**
     * Faults of one replica.
     *
     * @param latencyFactor multiplies every latency (slow replica)
     * @param crashAtMs crash at this simulated time (-1: never)
     * @param restartAtMs come back at this simulated time after the crash (-1: never), with what it had committed
     * @param lieProbability probability that an answer is wrong (the data stays right)
     * @param lockGranularity keys per lock (1: row locks; more: coarser locks, blocks where others do not)
     * @param ignoresLocks reads see committed data only, writes are buffered and applied at commit, no locks
     * @param readCommitted not a fault: a correct engine like PostgreSQL at READ COMMITTED; reads take no locks and see
     *     the latest committed value (or the transaction's own write), writes take exclusive locks held to the end and
     *     are applied at commit
     * @param commitGateOff ask the coordinator for the paper's gate only, even for a read-committed replica (to show the
     *     commit gate is needed)
     * @param connections not a fault: transactions the replica can have open at once (its connection pool), 0 for no
     *     limit; the coordinator must never open more (an anomaly otherwise). Negative: the limit is -connections but the
     *     replica does not tell the coordinator (to show that the coordinator needs to know it)
     * @param pausedFromMs paused from this simulated time (-1: never) until {@code pausedUntilMs}
     * @param restoredAtMs restored from a copy of replica {@code restoredFrom} at this simulated time (-1: never)
     * @param commitsOnly the pause holds up only COMMITs: statements, rollbacks and pings are answered
     */
    record Faults(int latencyFactor, long crashAtMs, long restartAtMs, double lieProbability, int lockGranularity,
            boolean ignoresLocks, boolean readCommitted, boolean commitGateOff, int connections, long pausedFromMs,
            long pausedUntilMs, int restoredFrom, long restoredAtMs, boolean commitsOnly) {
        static final Faults NONE = new Faults(1, -1, -1, 0, 1, false, false, false, 0, -1, -1, -1, -1, false);

        boolean byzantine() {
            return lieProbability > 0 || ignoresLocks;
        }

        Faults slow(int factor) {
            return new Faults(factor, crashAtMs, restartAtMs, lieProbability, lockGranularity,
                    ignoresLocks, readCommitted, commitGateOff, connections, pausedFromMs, pausedUntilMs,
                    restoredFrom, restoredAtMs, commitsOnly);
        }

        Faults crashAt(long ms) {
            return new Faults(latencyFactor, ms, restartAtMs, lieProbability, lockGranularity,
                    ignoresLocks, readCommitted, commitGateOff, connections, pausedFromMs, pausedUntilMs,
                    restoredFrom, restoredAtMs, commitsOnly);
        }

        Faults lying(double p) {
            return new Faults(latencyFactor, crashAtMs, restartAtMs, p, lockGranularity,
                    ignoresLocks, readCommitted, commitGateOff, connections, pausedFromMs, pausedUntilMs,
                    restoredFrom, restoredAtMs, commitsOnly);
        }

        Faults coarseLocks(int keysPerLock) {
            return new Faults(latencyFactor, crashAtMs, restartAtMs, lieProbability, keysPerLock,
                    ignoresLocks, readCommitted, commitGateOff, connections, pausedFromMs, pausedUntilMs,
                    restoredFrom, restoredAtMs, commitsOnly);
        }

        Faults ignoringLocks() {
            return new Faults(latencyFactor, crashAtMs, restartAtMs, lieProbability, lockGranularity,
                    true, readCommitted, commitGateOff, connections, pausedFromMs, pausedUntilMs, restoredFrom, restoredAtMs, commitsOnly);
        }

        Faults readCommittedNoReadLocks() {
            return new Faults(latencyFactor, crashAtMs, restartAtMs, lieProbability, lockGranularity,
                    ignoresLocks, true, commitGateOff, connections, pausedFromMs, pausedUntilMs, restoredFrom, restoredAtMs, commitsOnly);
        }

        Faults withoutCommitGate() {
            return new Faults(latencyFactor, crashAtMs, restartAtMs, lieProbability, lockGranularity,
                    ignoresLocks, readCommitted, true, connections, pausedFromMs, pausedUntilMs, restoredFrom, restoredAtMs, commitsOnly);
        }

        Faults restartAt(long ms) {
            return new Faults(latencyFactor, crashAtMs, ms, lieProbability, lockGranularity,
                    ignoresLocks, readCommitted, commitGateOff, connections, pausedFromMs, pausedUntilMs,
                    restoredFrom, restoredAtMs, commitsOnly);
        }

        Faults withConnections(int n) {
            return new Faults(latencyFactor, crashAtMs, restartAtMs, lieProbability, lockGranularity,
                    ignoresLocks, readCommitted, commitGateOff, n, pausedFromMs, pausedUntilMs, restoredFrom, restoredAtMs, commitsOnly);
        }

        /**
         * Paused (as by SIGSTOP) from {@code fromMs} until {@code untilMs}: nothing it was asked answers meanwhile, pings
         * included, its connections stay open; then everything goes on.
         */
        Faults pausedBetween(long fromMs, long untilMs) {
            return new Faults(latencyFactor, crashAtMs, restartAtMs, lieProbability, lockGranularity,
                    ignoresLocks, readCommitted, commitGateOff, connections, fromMs, untilMs, restoredFrom, restoredAtMs, commitsOnly);
        }

        /**
         * COMMITs asked from {@code fromMs} until {@code untilMs} complete only at {@code untilMs}; everything else,
         * pings included, is answered meanwhile (a server whose commits are blocked: a stuck disk, FLUSH TABLES WITH
         * READ LOCK).
         */
        Faults commitsStuckBetween(long fromMs, long untilMs) {
            return new Faults(latencyFactor, crashAtMs, restartAtMs, lieProbability, lockGranularity,
                    ignoresLocks, readCommitted, commitGateOff, connections, fromMs, untilMs, restoredFrom, restoredAtMs, true);
        }

        /**
         * At {@code atMs} the operator starts restoring this replica ({@code CbsCore.restore}), then replaces its database
         * with a copy of replica {@code source}'s (-1: leaves it as it is) and says so ({@code CbsCore.restoreCopied}).
         */
        Faults restoredAt(long atMs, int source) {
            return new Faults(latencyFactor, crashAtMs, restartAtMs, lieProbability, lockGranularity,
                    ignoresLocks, readCommitted, commitGateOff, connections, pausedFromMs, pausedUntilMs, source, atMs, commitsOnly);
        }

        boolean buffersWrites() {
            return ignoresLocks || readCommitted;
        }
    }

    /** Latency of one request, in simulated ms. */
    interface Latency {
        long ms(long txId, Random rnd);
    }

    /** What this replica committed: the transaction, its barrier, and the operations and answers of its final attempt. */
    record CommitRecord(long txId, long barrier, List<SimOp> ops, List<String> answers) {
    }

    static final long LOCK_WAIT_TIMEOUT_MS = 400;

    private final class DbTx {
        final long txId;
        final Map<Integer, Long> undo = new LinkedHashMap<>();
        final Map<Integer, Long> buffer = new HashMap<>();
        final List<String> answers = new ArrayList<>();
        final List<SimOp> ops = new ArrayList<>();
        final Set<Integer> held = new HashSet<>();
        Waiter waiting;
        /** Rolled back and forgotten: a lock granted to it meanwhile must not run its operation. */
        boolean gone;

        DbTx(long txId) {
            this.txId = txId;
        }
    }

    private static final class Waiter {
        final DbTx tx;
        final SimOp op;
        final boolean exclusive;
        final int lockKey;
        final Consumer<Outcome> done;
        Scheduler.Timer timeout;

        Waiter(DbTx tx, SimOp op, boolean exclusive, int lockKey, Consumer<Outcome> done) {
            this.tx = tx;
            this.op = op;
            this.exclusive = exclusive;
            this.lockKey = lockKey;
            this.done = done;
        }
    }

    private static final class LockState {
        final Set<DbTx> shared = new LinkedHashSet<>();
        DbTx exclusive;
        final ArrayDeque<Waiter> queue = new ArrayDeque<>();
    }

    private final String name;
    private final SimScheduler scheduler;
    private final Random rnd;
    private final Faults faults;
    private final Latency latency;
    private final TreeMap<Integer, Long> data = new TreeMap<>();
    private final Map<String, DbTx> txs = new HashMap<>();
    private final Map<Integer, LockState> locks = new HashMap<>();
    private final List<CommitRecord> history = new ArrayList<>();
    /** Every transaction this replica committed with a log row (txId to barrier), truncated rows included. */
    private final Map<Long, Long> txlog = new HashMap<>();
    /**
     * The rows of {@link #txlog} deleted by a truncation, and what {@code shepherd_txlog_base} keeps of them: through
     * which barrier, how many, their highest transaction id and barrier. The shepherd sees only the rows not deleted.
     */
    private final Set<Long> truncatedTx = new HashSet<>();
    private long truncatedThrough = -1;
    private long truncatedCount;
    private long truncatedLastTxId = -1;
    private long truncatedLastBarrier = -1;
    private int truncations;
    /** When the coordinator gave this replica up (simulated ms), each time. */
    private final List<Long> givenUpAtMs = new ArrayList<>();
    private final List<String> anomalies = new ArrayList<>();
    private final Consumer<SimReplica> onCommit;
    private boolean crashed;
    /** Incremented when the coordinator gives the replica up ({@link #wentDown}): requests sent before then fail. */
    private int generation;
    /** Transactions open when the replica crashed: their connections are broken, every later request for them fails. */
    private final Set<String> severed = new HashSet<>();
    private long rollbacksByDatabase;
    private int maxOpenTransactions;

    SimReplica(String name, SimScheduler scheduler, Random rnd, Faults faults, Latency latency, Consumer<SimReplica> onCommit) {
        this.name = name;
        this.scheduler = scheduler;
        this.rnd = rnd;
        this.faults = faults;
        this.latency = latency != null ? latency : (tx, r) -> 1 + r.nextInt(4);
        this.onCommit = onCommit;
        if (faults.crashAtMs() >= 0) scheduler.schedule(faults.crashAtMs(), this::crash);
        if (faults.crashAtMs() >= 0 && faults.restartAtMs() > faults.crashAtMs()) {
            scheduler.schedule(faults.restartAtMs(), () -> crashed = false);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void probe(long above, boolean countUpTo, Consumer<Probe> reached, Consumer<SQLException> unreachable) {
        later(delay(0), () -> {
            if (crashed) {
                unreachable.accept(new SQLException(name + " crashed", "08006"));
            } else {
                long[] present = visibleBarriers().filter(b -> b > above).sorted().toArray();
                reached.accept(new Probe(present, countUpTo ? countUpTo(above) : -1));
            }
        });
    }

    @Override
    public void truncateTxlog(long[] txIds, long[] barriers, Consumer<Outcome> done) {
        // a fixed delay: the truncation draws nothing from the replica's random stream, so it leaves the schedule alone
        later(1, () -> {
            if (crashed) {
                done.accept(Outcome.down(new SQLException(name + " crashed", "08006")));
                return;
            }
            for (int i = 0; i < txIds.length; i++) {
                Long b = txlog.get(txIds[i]);
                if (b == null) {
                    anomalies.add("asked to truncate T" + txIds[i] + " (barrier " + barriers[i] + ") from its transaction log,"
                            + " which it never committed");
                } else if (b != barriers[i]) {
                    anomalies.add("asked to truncate T" + txIds[i] + " at barrier " + barriers[i] + "; it committed at " + b);
                } else if (truncatedTx.add(txIds[i])) {
                    deleted(txIds[i], b);
                }
                truncatedThrough = Math.max(truncatedThrough, barriers[i]);
            }
            truncations++;
            done.accept(Outcome.done());
        });
    }

    @Override
    public void countTxlog(long upTo, Consumer<Long> counted, Consumer<SQLException> failed) {
        later(1, () -> {
            if (crashed) {
                failed.accept(new SQLException(name + " crashed", "08006"));
            } else {
                counted.accept(countUpTo(upTo));
            }
        });
    }

    /** As {@code JdbcReplicaEndpoint.truncateTxlogThrough}, at a shepherd's start: every row up to {@code through}. */
    void truncateTxlogThrough(long through) {
        for (Map.Entry<Long, Long> e : txlog.entrySet()) {
            if (e.getValue() <= through && truncatedTx.add(e.getKey())) deleted(e.getKey(), e.getValue());
        }
        truncatedThrough = Math.max(truncatedThrough, through);
    }

    private void deleted(long txId, long barrier) {
        truncatedCount++;
        truncatedLastTxId = Math.max(truncatedLastTxId, txId);
        truncatedLastBarrier = Math.max(truncatedLastBarrier, barrier);
    }

    /** The barriers of the log rows a shepherd can read: those not truncated. */
    private java.util.stream.LongStream visibleBarriers() {
        return txlog.entrySet().stream().filter(e -> !truncatedTx.contains(e.getKey())).mapToLong(Map.Entry::getValue);
    }

    /** As the production count: the truncated rows plus those left up to {@code barrier}, never below the truncation. */
    private long countUpTo(long barrier) {
        if (barrier < 0) return 0;
        if (barrier < truncatedThrough) {
            anomalies.add("its transaction log was counted up to barrier " + barrier + ", below its truncation through "
                    + truncatedThrough);
        }
        return truncatedCount + visibleBarriers().filter(b -> b <= barrier).count();
    }

    /**
     * The operator replaced this replica's database with a copy of {@code source}'s, taken now: its data, its transaction
     * log and what was truncated from it, its commit history. Whatever it had open is gone.
     */
    void restoreFrom(SimReplica source) {
        txs.clear();
        locks.clear();
        severed.clear();
        data.clear();
        data.putAll(source.data);
        // a consistent copy holds what was committed: the writes of the source's open transactions are undone in it
        for (DbTx open : source.txs.values()) undo(data, open);
        txlog.clear();
        txlog.putAll(source.txlog);
        truncatedTx.clear();
        truncatedTx.addAll(source.truncatedTx);
        truncatedThrough = source.truncatedThrough;
        truncatedCount = source.truncatedCount;
        truncatedLastTxId = source.truncatedLastTxId;
        truncatedLastBarrier = source.truncatedLastBarrier;
        history.clear();
        history.addAll(source.history);
        crashed = false;
    }

    /** What the shepherd answered when asked to restore this replica: "probing", or the error. */
    String restoreOutcome;

    /** When the coordinator gave this replica up (simulated ms), each time. */
    List<Long> givenUpAtMs() {
        return givenUpAtMs;
    }

    /** Truncations of its transaction log that deleted something. */
    int truncations() {
        return truncations;
    }

    @Override
    public boolean readOnly(SimOp op) {
        return op.kind() == SimOp.Kind.READ;
    }

    @Override
    public int connectionsMax() {
        return faults.connections() > 0 ? faults.connections() : Integer.MAX_VALUE;
    }

    @Override
    public boolean commitGated() {
        return faults.readCommitted() && !faults.commitGateOff();
    }

    Faults faults() {
        return faults;
    }

    boolean crashed() {
        return crashed;
    }

    Map<Integer, Long> data() {
        return data;
    }

    List<CommitRecord> history() {
        return history;
    }

    List<String> anomalies() {
        return anomalies;
    }

    /** The most transactions this replica had open at once. */
    int maxOpenTransactions() {
        return maxOpenTransactions;
    }

    long rollbacksByDatabase() {
        return rollbacksByDatabase;
    }

    /** Runs {@code task} after {@code delayMs}, or once a pause that covers that time is over. */
    private void later(long delayMs, Runnable task) {
        scheduler.schedule(delayMs, () -> runUnlessPaused(task, false));
    }

    /** As {@link #later}, for a COMMIT, which {@link Faults#commitsStuckBetween} holds up. */
    private void laterCommit(long delayMs, Runnable task) {
        scheduler.schedule(delayMs, () -> runUnlessPaused(task, true));
    }

    private void runUnlessPaused(Runnable task, boolean commit) {
        long now = scheduler.now();
        boolean held = commit || !faults.commitsOnly();
        if (held && now >= faults.pausedFromMs() && now < faults.pausedUntilMs()) {
            scheduler.schedule(faults.pausedUntilMs() - now, () -> runUnlessPaused(task, commit));
        } else {
            task.run();
        }
    }

    @Override
    public void ping(Consumer<Outcome> done) {
        later(1, () -> done.accept(crashed ? Outcome.down(new SQLException(name + " crashed", "08006")) : Outcome.done()));
    }

    private long delay(long txId) {
        return latency.ms(txId, rnd) * faults.latencyFactor();
    }

    private static String key(long txId, int attempt) {
        return txId + "/" + attempt;
    }

    @Override
    public void execute(long txId, int attempt, SimOp op, boolean primary, boolean failedAtPrimary, Consumer<Outcome> done) {
        int gen = generation;
        later(delay(txId), () -> {
            if (crashed || severed.contains(key(txId, attempt)) || gen != generation) {
                done.accept(Outcome.down(new SQLException(name + " crashed", "08006")));
                return;
            }
            String txKey = key(txId, attempt);
            int limit = Math.abs(faults.connections());
            if (!txs.containsKey(txKey) && limit > 0 && txs.size() >= limit) {
                anomalies.add("T" + txId + " opened while all " + limit + " connections are taken by " + txs.keySet());
            }
            DbTx tx = txs.computeIfAbsent(txKey, x -> new DbTx(txId));
            maxOpenTransactions = Math.max(maxOpenTransactions, txs.size());
            if (faults.ignoresLocks() || (faults.readCommitted() && op.kind() == SimOp.Kind.READ)) {
                complete(tx, op, done);
                return;
            }
            int lockKey = op.key() / faults.lockGranularity();
            boolean exclusive = op.kind() != SimOp.Kind.READ;
            LockState ls = locks.computeIfAbsent(lockKey, k -> new LockState());
            if (grantable(ls, tx, exclusive) && (ls.queue.isEmpty() || tx.held.contains(lockKey))) {
                grant(ls, tx, exclusive, lockKey);
                complete(tx, op, done);
                return;
            }
            Waiter w = new Waiter(tx, op, exclusive, lockKey, done);
            ls.queue.add(w);
            tx.waiting = w;
            if (deadlocked(tx)) {
                victim(tx, "deadlock detected", "40001");
            } else {
                w.timeout = scheduler.schedule(LOCK_WAIT_TIMEOUT_MS, () -> {
                    if (tx.waiting == w) victim(tx, "lock wait timeout", "40XL1");
                });
            }
        });
    }

    private static boolean grantable(LockState ls, DbTx tx, boolean exclusive) {
        if (ls.exclusive != null && ls.exclusive != tx) return false;
        if (!exclusive) return true;
        for (DbTx s : ls.shared) {
            if (s != tx) return false;
        }
        return true;
    }

    private static void grant(LockState ls, DbTx tx, boolean exclusive, int lockKey) {
        if (exclusive) {
            ls.exclusive = tx;
        } else {
            ls.shared.add(tx);
        }
        tx.held.add(lockKey);
    }

    private void complete(DbTx tx, SimOp op, Consumer<Outcome> done) {
        String answer = apply(tx, op);
        tx.answers.add(answer);
        tx.ops.add(op);
        String told = answer;
        if (faults.lieProbability() > 0 && rnd.nextDouble() < faults.lieProbability()) {
            told = op.kind() == SimOp.Kind.WRITE ? "count=0" : "v=" + (1000 + rnd.nextInt(1000));
        }
        done.accept(Outcome.answer(AnswerDigest.ofText(told), told));
    }

    private String apply(DbTx tx, SimOp op) {
        int k = op.key();
        long current = faults.buffersWrites() && tx.buffer.containsKey(k) ? tx.buffer.get(k) : data.getOrDefault(k, 0L);
        switch (op.kind()) {
            case READ:
                return "v=" + current;
            case WRITE:
                write(tx, k, op.value());
                return "count=1";
            case INCREMENT:
                write(tx, k, current + 1);
                return "v=" + (current + 1);
            default:
                throw new IllegalStateException();
        }
    }

    private void write(DbTx tx, int k, long v) {
        if (faults.buffersWrites()) {
            tx.buffer.put(k, v);
            return;
        }
        if (!tx.undo.containsKey(k)) tx.undo.put(k, data.get(k));
        data.put(k, v);
    }

    /** Whether {@code start}, now waiting, waits (transitively) for itself. */
    private boolean deadlocked(DbTx start) {
        ArrayDeque<DbTx> todo = new ArrayDeque<>();
        Set<DbTx> seen = new HashSet<>();
        todo.add(start);
        while (!todo.isEmpty()) {
            DbTx t = todo.poll();
            if (t.waiting == null || !seen.add(t)) continue;
            LockState ls = locks.get(t.waiting.lockKey);
            List<DbTx> blockers = new ArrayList<>(ls.shared);
            if (ls.exclusive != null) blockers.add(ls.exclusive);
            for (Waiter w : ls.queue) {
                if (w == t.waiting) break;
                blockers.add(w.tx);
            }
            for (DbTx b : blockers) {
                if (b == t) continue;
                if (b == start) return true;
                todo.add(b);
            }
        }
        return false;
    }

    private void victim(DbTx tx, String reason, String sqlState) {
        Waiter w = tx.waiting;
        locks.get(w.lockKey).queue.remove(w);
        if (w.timeout != null) w.timeout.cancel();
        tx.waiting = null;
        rollbacksByDatabase++;
        undoAndRelease(tx);
        txs.values().remove(tx);
        w.done.accept(Outcome.retryable(new SQLException(name + ": " + reason, sqlState)));
    }

    private void undoAndRelease(DbTx tx) {
        tx.gone = true;
        undo(data, tx);
        tx.undo.clear();
        release(tx);
    }

    /** Puts back in {@code into} what {@code tx} overwrote, newest first. */
    private static void undo(Map<Integer, Long> into, DbTx tx) {
        List<Map.Entry<Integer, Long>> undo = new ArrayList<>(tx.undo.entrySet());
        for (int i = undo.size() - 1; i >= 0; i--) {
            Map.Entry<Integer, Long> u = undo.get(i);
            if (u.getValue() == null) {
                into.remove(u.getKey());
            } else {
                into.put(u.getKey(), u.getValue());
            }
        }
    }

    private void release(DbTx tx) {
        for (int lockKey : tx.held) {
            LockState ls = locks.get(lockKey);
            ls.shared.remove(tx);
            if (ls.exclusive == tx) ls.exclusive = null;
        }
        List<Integer> keys = new ArrayList<>(tx.held);
        tx.held.clear();
        for (int lockKey : keys) grantWaiters(lockKey);
    }

    private void grantWaiters(int lockKey) {
        LockState ls = locks.get(lockKey);
        Iterator<Waiter> it = ls.queue.iterator();
        while (it.hasNext()) {
            Waiter w = it.next();
            if (!grantable(ls, w.tx, w.exclusive)) break;
            it.remove();
            if (w.timeout != null) w.timeout.cancel();
            w.tx.waiting = null;
            grant(ls, w.tx, w.exclusive, lockKey);
            int gen = generation;
            scheduler.execute(() -> {
                // rolled back meanwhile (given up, crashed): its operation must not run
                if (crashed || gen != generation || w.tx.gone) {
                    w.done.accept(Outcome.down(new SQLException(name + " crashed", "08006")));
                } else {
                    complete(w.tx, w.op, w.done);
                }
            });
        }
    }

    @Override
    public void commit(long txId, int attempt, long barrier, Consumer<Outcome> done) {
        int gen = generation;
        laterCommit(delay(txId), () -> {
            if (crashed || severed.contains(key(txId, attempt)) || gen != generation) {
                done.accept(Outcome.down(new SQLException(name + " crashed", "08006")));
                return;
            }
            DbTx tx = txs.remove(key(txId, attempt));
            if (tx == null) tx = new DbTx(txId);
            if (tx.waiting != null) anomalies.add("COMMIT of T" + txId + " while a statement waits");
            if (faults.buffersWrites()) data.putAll(tx.buffer);
            // barrier -1: it wrote nothing, no log row (as JdbcReplicaEndpoint)
            if (barrier >= 0 && txlog.put(txId, barrier) != null) anomalies.add("T" + txId + " committed twice");
            history.add(new CommitRecord(txId, barrier, List.copyOf(tx.ops), List.copyOf(tx.answers)));
            tx.undo.clear();
            release(tx);
            done.accept(Outcome.done());
            onCommit.accept(this);
        });
    }

    @Override
    public void rollback(long txId, int attempt, Consumer<Outcome> done) {
        int gen = generation;
        later(delay(txId), () -> {
            if (crashed || gen != generation) {
                done.accept(Outcome.down(new SQLException(name + " crashed", "08006")));
                return;
            }
            DbTx tx = txs.remove(key(txId, attempt));
            if (tx != null) {
                if (tx.waiting != null) anomalies.add("ROLLBACK of T" + txId + " while a statement waits");
                undoAndRelease(tx);
            }
            done.accept(Outcome.done());
        });
    }

    /**
     * The coordinator gave this replica up (marked it down) while it still runs, e.g. a primary outvoted: like the JDBC
     * endpoint, its open transactions are rolled back and their connections closed, and requests sent before and not
     * yet run fail (their outcomes are stale for the coordinator).
     */
    @Override
    public void wentDown() {
        generation++;
        givenUpAtMs.add(scheduler.now());
        if (crashed) return;
        for (Map.Entry<String, DbTx> e : new ArrayList<>(txs.entrySet())) {
            DbTx tx = e.getValue();
            severed.add(e.getKey());
            Waiter w = tx.waiting;
            if (w != null) {
                locks.get(w.lockKey).queue.remove(w);
                if (w.timeout != null) w.timeout.cancel();
                tx.waiting = null;
            }
            undoAndRelease(tx);
            if (w != null) w.done.accept(Outcome.down(new SQLException(name + ": connection closed", "08003")));
        }
        txs.clear();
    }

    /**
     * The shepherd process died: every connection it had here closes, so the database rolls back every open transaction
     * and requests sent before and not yet run fail (nobody will read their outcomes). The replica itself keeps running
     * and keeps what it committed; a new shepherd opens new connections (transaction ids may be reused by it).
     */
    void shepherdCrashed() {
        wentDown();
        severed.clear();
    }

    /** Whether this replica committed transaction {@code txId} (its {@code shepherd_txlog} holds it). */
    boolean holds(long txId) {
        return txlog.containsKey(txId);
    }

    /**
     * What a restarting shepherd reads from this replica's {@code shepherd_txlog} (the transactions that wrote), for a log
     * whose floor is {@code floor}.
     */
    RestartPlan.ReplicaLog replicaLog(long floor) {
        long lastTxId = Math.max(truncatedLastTxId,
                txlog.keySet().stream().filter(id -> !truncatedTx.contains(id)).mapToLong(Long::longValue).max().orElse(-1));
        long lastBarrier = Math.max(truncatedLastBarrier, visibleBarriers().max().orElse(-1));
        long[] above = visibleBarriers().filter(b -> b > floor).sorted().toArray();
        return new RestartPlan.ReplicaLog(name, canBePrimary(), lastTxId, lastBarrier, countUpTo(floor), above);
    }

    private void crash() {
        crashed = true;
        severed.addAll(txs.keySet());
        for (DbTx tx : new ArrayList<>(txs.values())) {
            tx.held.clear();
            undoAndRelease(tx);
            if (tx.waiting != null) {
                Waiter w = tx.waiting;
                if (w.timeout != null) w.timeout.cancel();
                w.done.accept(Outcome.down(new SQLException(name + " crashed", "08006")));
            }
        }
        txs.clear();
        locks.clear();
    }
}
