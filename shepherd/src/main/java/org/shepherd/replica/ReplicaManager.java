package org.shepherd.replica;

import java.util.ArrayList;
import java.util.Collection;
import org.shepherd.schedule.Pool;
import org.shepherd.schedule.PoolEntry;
import org.shepherd.schedule.Stmt;
import org.shepherd.schedule.TxState;
import org.shepherd.schedule.Txn;
import org.shepherd.time.Scheduler;

/**
 * The manager of one replica (primary or secondary): sends what its {@link Pool} says is ready and routes the
 * outcomes back to the coordinator core. Runs on the core's scheduler only.
 *
 * @param <S> the statement payload type
 */
public final class ReplicaManager<S> {

    /** The core's side of the conversation. */
    public interface Listener<S> {
        void statementDone(ReplicaManager<S> replica, PoolEntry<S> entry, int index, Outcome outcome);

        void commitDone(ReplicaManager<S> replica, PoolEntry<S> entry, Outcome outcome);

        void rollbackDone(ReplicaManager<S> replica, PoolEntry<S> entry, Outcome outcome);
    }

    private final int index;
    private final ReplicaEndpoint<S> endpoint;
    private final Pool<S> pool;
    private final Scheduler scheduler;
    private final Listener<S> listener;
    /** Where a replica is in its life: serving, unreachable, replaying what it missed, or beyond replay. */
    public enum Phase {
        UP, DOWN, RECOVERING, LOST
    }

    private Phase phase = Phase.UP;
    private String downReason = "";
    private long lastCommittedBarrier = -1;
    private long reruns;
    /** Incremented whenever the replica goes down: outcomes of requests sent before are ignored. */
    private int epoch;
    private int probeFailures;
    private long replayed;
    private int replayAttempt = REPLAY_ATTEMPT_FIRST;
    /** While down or recovering: every committed transaction with a barrier up to here is applied at the replica. */
    private long replayCursor = -1;
    /** Committed transactions read back from the commit log for this replica's replay, not replayed yet. */
    private final java.util.ArrayDeque<Txn<S>> replayFromLog = new java.util.ArrayDeque<>();
    private boolean readingLog;
    /** For a replica that could not be read at start: how many barriers up to the cursor it must hold, else -1. */
    private long expectedUpToCursor = -1;
    /** Barriers above the cursor its transaction log already held when it was reached again. */
    private java.util.Set<Long> alreadyApplied = java.util.Set.of();
    /** Its transaction log's truncation: deleted through here (-1: nothing), next at that floor, and whether one runs. */
    private long txlogTruncatedThrough = -1;
    /** Restored: waiting for the operator to install the copy before it is probed. */
    private boolean awaitingCopy;
    /** Its copy was installed ({@link #copied}) and it has not answered yet. */
    private boolean copiedNotReached;
    private long txlogNextTruncation;
    private boolean truncatingTxlog;

    /** Attempt numbers of replayed transactions start here, far from the attempts of normal runs. */
    static final int REPLAY_ATTEMPT_FIRST = 1 << 30;

    public ReplicaManager(int index, ReplicaEndpoint<S> endpoint, Pool<S> pool, Scheduler scheduler, Listener<S> listener) {
        this.index = index;
        this.endpoint = endpoint;
        this.pool = pool;
        this.scheduler = scheduler;
        this.listener = listener;
    }

    public int index() {
        return index;
    }

    public String name() {
        return endpoint.name();
    }

    /** Transactions this replica may have open at once (its connections). */
    public int connectionsMax() {
        return endpoint.connectionsMax();
    }

    /** {@link ReplicaEndpoint#engine}. */
    public String engine() {
        return endpoint.engine();
    }

    public Pool<S> pool() {
        return pool;
    }

    public boolean primary() {
        return pool.primary();
    }

    /** Not serving: down, recovering or lost. The core leaves such a replica out of pools, votes and pumps. */
    public boolean down() {
        return phase != Phase.UP;
    }

    public Phase phase() {
        return phase;
    }

    /** Down or recovering: it may still need committed transactions replayed. */
    public boolean awaitingReplay() {
        return phase == Phase.DOWN || phase == Phase.RECOVERING;
    }

    /** Outcomes of requests sent in an earlier epoch (before the replica last went down) are stale. */
    public int epoch() {
        return epoch;
    }

    public ReplicaEndpoint<S> endpoint() {
        return endpoint;
    }

    /** Failed reconnection attempts since the replica went down (for the back-off). */
    public int probeFailures() {
        return probeFailures;
    }

    public void probeFailed() {
        probeFailures++;
    }

    /** Every committed transaction up to this barrier is applied here; the missed ones come after it. */
    public long replayCursor() {
        return replayCursor;
    }

    public void setReplayCursor(long barrier) {
        replayCursor = barrier;
    }

    /**
     * A replica that could not be read at start: when it answers it must hold {@code count} barriers up to its cursor (as
     * the others did), else it missed transactions nobody can replay.
     */
    public void expectUpToCursor(long count) {
        expectedUpToCursor = count;
    }

    /** See {@link #expectUpToCursor}; -1 for no check. */
    public long expectedUpToCursor() {
        return expectedUpToCursor;
    }

    /**
     * Committed transactions read back from the commit log (the write-ahead log on disk) for this replica's replay: the
     * shepherd no longer kept them in memory. Emptied when the replica goes down.
     */
    public java.util.ArrayDeque<Txn<S>> replayFromLog() {
        return replayFromLog;
    }

    /** Whether a read from the commit log for this replica is under way. */
    public boolean readingLog() {
        return readingLog;
    }

    public void setReadingLog(boolean reading) {
        readingLog = reading;
    }

    /** Whether the replica's log already held this barrier when it was reached again. */
    public boolean alreadyApplied(long barrier) {
        return alreadyApplied.contains(barrier);
    }

    /** Reached again, its log holding {@code present} (barriers above the cursor): replays the others. */
    public void startRecovery(long[] present) {
        phase = Phase.RECOVERING;
        copiedNotReached = false;
        expectedUpToCursor = -1;
        probeFailures = 0;
        java.util.Set<Long> have = new java.util.HashSet<>();
        for (long b : present) {
            have.add(b);
            committed(b);
        }
        alreadyApplied = have;
    }

    /** The attempt number for the next replayed transaction. */
    public int nextReplayAttempt() {
        return replayAttempt++;
    }

    /** One missed transaction committed here by replay. */
    public void replayedOne(long barrier) {
        replayed++;
        committed(barrier);
    }

    /** Transactions replayed here since start. */
    public long replayed() {
        return replayed;
    }

    /** Caught up: serves again. */
    public void rejoin() {
        phase = Phase.UP;
        downReason = "";
        alreadyApplied = java.util.Set.of();
    }

    /**
     * A lost replica is being restored from a copy of an up-to-date one: it is down again, waiting for the copy (not
     * probed until {@link #copied}); when it answers it must hold {@code expected} barriers up to {@code cursor} (else
     * it is lost again), then it replays what it lacks after it.
     */
    public void restored(long cursor, long expected, String reason) {
        if (phase != Phase.LOST) throw new IllegalStateException(name() + " is " + phase + ", not lost");
        phase = Phase.DOWN;
        downReason = reason;
        epoch++;
        probeFailures = 0;
        replayCursor = cursor;
        expectedUpToCursor = expected;
        replayAttempt = REPLAY_ATTEMPT_FIRST;
        awaitingCopy = true;
        copiedNotReached = false;
    }

    /** Whether it waits for the operator to install its copy ({@link #restored}). */
    public boolean awaitingCopy() {
        return awaitingCopy && phase == Phase.DOWN;
    }

    /**
     * The operator installed its copy: it may be probed. Again while it has not answered yet (the copy was installed
     * elsewhere, or named wrong): a probe already under way is then ignored.
     */
    public void copied(String reason) {
        awaitingCopy = false;
        copiedNotReached = true;
        downReason = reason;
        epoch++;
        probeFailures = 0;
    }

    /** Whether its copy was installed ({@link #copied}) and it has not answered since. */
    public boolean copiedNotReached() {
        return copiedNotReached && phase == Phase.DOWN;
    }

    /** It can no longer catch up by replay. */
    public void markLost(String reason) {
        phase = Phase.LOST;
        copiedNotReached = false;
        downReason = reason;
        replayFromLog.clear();
        readingLog = false;
    }

    public String downReason() {
        return downReason;
    }

    /** Its transaction log's rows of durable transactions up to this barrier were deleted (-1: none yet). */
    public long txlogTruncatedThrough() {
        return txlogTruncatedThrough;
    }

    /** The floor at which its transaction log is truncated next. */
    public long txlogNextTruncation() {
        return txlogNextTruncation;
    }

    /** Whether a truncation of its transaction log is under way. */
    public boolean truncatingTxlog() {
        return truncatingTxlog;
    }

    public void truncatingTxlog(boolean running) {
        truncatingTxlog = running;
    }

    /** Its transaction log was truncated through {@code through}; the next truncation comes {@code every} barriers later. */
    public void txlogTruncated(long through, long every) {
        txlogTruncatedThrough = Math.max(txlogTruncatedThrough, through);
        txlogNextTruncation = through + every;
    }

    /** A truncation through {@code through} failed: tried again {@code every} barriers later. */
    public void txlogTruncationFailed(long through, long every) {
        txlogNextTruncation = through + every;
    }

    /** The highest barrier of a transaction this replica committed, or -1. */
    public long lastCommittedBarrier() {
        return lastCommittedBarrier;
    }

    /** Transactions this replica had to roll back and run again (deadlock victim, lock timeout, cleared way). */
    public long reruns() {
        return reruns;
    }

    public void countRerun() {
        reruns++;
    }

    public void committed(long barrier) {
        lastCommittedBarrier = Math.max(lastCommittedBarrier, barrier);
    }

    /**
     * Unreachable: forgets its pool (the database rolled back what was open) until it is recovered; the replay
     * cursor is kept.
     */
    public void markDown(String reason) {
        phase = Phase.DOWN;
        downReason = reason;
        epoch++;
        pool.clear();
        replayFromLog.clear();
        readingLog = false;
        endpoint.wentDown();
    }

    /**
     * Sends everything the rules allow now. A replica gets at most {@link ReplicaEndpoint#connectionsMax()}
     * transactions at once, so that no JDBC call ever waits for a connection (a worker waiting for one could hold up
     * the COMMIT that would free it). At the primary a new transaction waits until another one ends. At a secondary
     * the committed transaction with the lowest barrier that waits for a connection is served first, taking one from
     * a transaction ordered after it if need be (rolled back here, it runs again once that COMMIT was sent here):
     * transactions that wait at a secondary for a committed one could otherwise hold every connection it needs.
     */
    public void pump(Collection<Txn<S>> live) {
        if (down()) return;
        for (PoolEntry<S> e : pool.entries()) {
            if (e.parkedBehindTx() >= 0) {
                Txn<S> blocker = findLive(live, e.parkedBehindTx());
                PoolEntry<S> be = blocker == null ? null : pool.entry(blocker);
                if (be == null || be.commitSent() || be.finished() || blocker.state() == TxState.ABORTED) e.unpark();
            }
        }
        int capacity = endpoint.connectionsMax();
        int held = capacity == Integer.MAX_VALUE ? 0 : pool.connectionsHeld();
        PoolEntry<S> first = capacity == Integer.MAX_VALUE || primary() ? null : pool.firstCommittedToStart(live);
        if (first != null && held >= capacity && pool.connectionsBeingReleased() == 0) {
            PoolEntry<S> victim = pool.connectionVictim(first.txn());
            if (victim != null) {
                countRerun();
                victim.requestAbort(first.txn().id());
            }
        }
        for (PoolEntry<S> e : new ArrayList<>(pool.entries())) {
            if (down()) return;
            if (e.finished() || e.inFlight()) continue;
            Txn<S> t = e.txn();
            if (t.state() == TxState.ABORTED || e.abortRequested()) {
                if (e.started() && !e.rollbackSent()) {
                    sendRollback(e);
                } else if (!e.started()) {
                    if (t.state() == TxState.ABORTED) {
                        e.markFinished();
                    } else {
                        e.restart();
                    }
                }
                continue;
            }
            if (pool.commitReady(e, live)) {
                sendCommit(e);
                continue;
            }
            int i = pool.nextStatement(e, live);
            if (i < 0) continue;
            if (!e.started() && capacity != Integer.MAX_VALUE) {
                int reserved = first != null && e != first && !first.started() ? 1 : 0;
                if (held + reserved >= capacity) continue;
                held++;
            }
            sendStatement(e, t.stmts().get(i));
        }
    }

    private static <S> Txn<S> findLive(Collection<Txn<S>> live, long id) {
        for (Txn<S> t : live) {
            if (t.id() == id) return t;
        }
        return null;
    }

    private void sendStatement(PoolEntry<S> e, Stmt<S> q) {
        int attempt = e.attempt();
        int i = q.index();
        e.markSent(i, scheduler.clock().nowMillis());
        int sentIn = epoch;
        endpoint.execute(e.txn().id(), attempt, q.payload(), primary(), q.failedAtPrimary(), o -> scheduler.execute(() -> {
            if (epoch == sentIn && !down() && e.attempt() == attempt) listener.statementDone(this, e, i, o);
        }));
    }

    private void sendCommit(PoolEntry<S> e) {
        int attempt = e.attempt();
        e.markCommitSent(scheduler.clock().nowMillis());
        int sentIn = epoch;
        endpoint.commit(e.txn().id(), attempt, e.txn().logBarrier(), o -> scheduler.execute(() -> {
            if (epoch == sentIn && !down()) listener.commitDone(this, e, o);
        }));
    }

    private void sendRollback(PoolEntry<S> e) {
        int attempt = e.attempt();
        e.markRollbackSent(scheduler.clock().nowMillis());
        int sentIn = epoch;
        endpoint.rollback(e.txn().id(), attempt, o -> scheduler.execute(() -> {
            if (epoch == sentIn && !down() && e.attempt() == attempt) listener.rollbackDone(this, e, o);
        }));
    }

    @Override
    public String toString() {
        return name() + (primary() ? " (primary)" : "") + (down() ? " " + phase : "");
    }
}
