package org.shepherd.sim;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.shepherd.recovery.RestartPlan;
import org.shepherd.schedule.Stmt;
import org.shepherd.schedule.Txn;
import org.shepherd.time.Scheduler;
import org.shepherd.wal.CommitLog;

/**
 * The shepherd's write-ahead log in the simulation. An append waits for the next force, which runs after a seeded random
 * delay and makes every record queued by then durable at once, in order (group commit); their {@code durable} callbacks
 * follow in order, 0-1 ms later (the log's thread handing them to the coordinator). Like the production log, it keeps the
 * durable records (transaction, barrier, write operations) in segments of a few records and deletes a segment once
 * {@link #release} passed its last barrier, never the newest one, recording the released floor when it deletes: the floor
 * a restart reads may lag behind the released one, and records at or below it may remain. A crash of the shepherd loses
 * what was queued and not forced; the log (its "disk") survives into the next shepherd process. It may fail at a chosen
 * time: every append queued then or made later fails, and nothing is deleted any more.
 */
final class SimCommitLog implements CommitLog<SimOp> {

    /** How the log misbehaves, to show that the simulation catches it. */
    enum Fault {
        NONE,
        /** Says "durable" but keeps nothing: a restarted shepherd has nothing to replay. */
        FORGETS_RECORDS,
        /** Works, but its directory is gone when the shepherd restarts: no history, nothing to replay. */
        LOST_AT_CRASH,
        /**
         * When it fails, the records of the failing force were written but not forced (an fsync error): they are reported
         * failed, yet a restarted shepherd finds them, as the production log does when its force fails after the write.
         */
        FAILED_FORCE_SURVIVES
    }

    /** What the simulation learns from the log, to check its invariants. */
    interface Listener {
        /** The core decided T (it appends inside its commit decision). */
        void decided(Txn<SimOp> t);

        /** T is durable: called in durability order, before T's {@code durable} callback. */
        void durable(Txn<SimOp> t);

        /** A force ended: every record it covered is durable; their callbacks are not called yet. */
        void forced();

        /** The {@code durable} callbacks of every durable record were called. */
        void reported();

        /** T will never be durable: the log failed. */
        void failed(Txn<SimOp> t);
    }

    /** A durable record: what a restarted shepherd replays. */
    record Record(long txId, long barrier, List<SimOp> writes) {
    }

    private record Pending(Txn<SimOp> t, Runnable durable, Consumer<Exception> failed) {
    }

    private final Scheduler scheduler;
    private final Random rnd;
    private final int forceDelayMinMs;
    private final int forceDelayMaxMs;
    private final Fault fault;
    private final Listener listener;
    private final int segmentRecords;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    /** Durable, callback not called yet. */
    private final ArrayDeque<Runnable> toReport = new ArrayDeque<>();
    /** The durable records, oldest segment first; the last one is being filled. */
    private final ArrayDeque<TreeMap<Long, Record>> segments = new ArrayDeque<>();
    /** The floor recorded on disk (when a segment was deleted): what a restart reads. */
    private long floor = -1;
    private long released = -1;
    private boolean history;
    private boolean forceScheduled;
    /** Incremented by a crash: a force scheduled by the process that crashed does nothing. */
    private int process;
    private Exception failure;
    private long forces;
    private long durableRecords;
    private long readBack;
    /** Ballots per read-back transaction: the simulation runs three replicas. */
    private static final int READ_BACK_REPLICAS = 3;

    /**
     * @param forceDelayMinMs a force runs this..{@code forceDelayMaxMs} simulated ms after the append that asked for it
     * @param segmentRecords records per segment
     */
    SimCommitLog(Scheduler scheduler, Random rnd, int forceDelayMinMs, int forceDelayMaxMs, int segmentRecords, Fault fault,
            Listener listener) {
        this.scheduler = scheduler;
        this.rnd = rnd;
        this.forceDelayMinMs = forceDelayMinMs;
        this.forceDelayMaxMs = forceDelayMaxMs;
        this.segmentRecords = segmentRecords;
        this.fault = fault;
        this.listener = listener;
    }

    @Override
    public void append(Txn<SimOp> t, Runnable durable, Consumer<Exception> failed) {
        listener.decided(t);
        if (failure != null) {
            listener.failed(t);
            Exception why = failure;
            scheduler.execute(() -> failed.accept(why));
            return;
        }
        queue.add(new Pending(t, durable, failed));
        if (!forceScheduled) {
            forceScheduled = true;
            int p = process;
            scheduler.schedule(forceDelayMinMs + rnd.nextInt(forceDelayMaxMs - forceDelayMinMs + 1), () -> force(p));
        }
    }

    private void force(int scheduledBy) {
        if (scheduledBy != process) return;
        forceScheduled = false;
        if (queue.isEmpty()) return;
        List<Pending> batch = new ArrayList<>(queue);
        queue.clear();
        forces++;
        for (Pending p : batch) {
            Txn<SimOp> t = p.t();
            if (fault != Fault.FORGETS_RECORDS) keep(new Record(t.id(), t.barrier(), writes(t)));
            durableRecords++;
            listener.durable(t);
        }
        listener.forced();
        if (scheduledBy != process) return; // the shepherd crashed right after the force: nobody hears of it
        for (Pending p : batch) toReport.add(p.durable());
        scheduler.schedule(rnd.nextInt(2), () -> report(scheduledBy));
    }

    private void report(int scheduledBy) {
        if (scheduledBy != process || toReport.isEmpty()) return;
        while (!toReport.isEmpty()) toReport.poll().run();
        listener.reported();
    }

    private static List<SimOp> writes(Txn<SimOp> t) {
        List<SimOp> out = new ArrayList<>();
        for (Stmt<SimOp> q : t.stmts()) {
            if (!q.failedAtPrimary() && q.payload().kind() != SimOp.Kind.READ) out.add(q.payload());
        }
        return List.copyOf(out);
    }

    private void keep(Record r) {
        if (segments.isEmpty() || segments.peekLast().size() >= segmentRecords) segments.add(new TreeMap<>());
        segments.peekLast().put(r.barrier(), r);
    }

    @Override
    public void release(long floorBarrier) {
        if (failure != null) return; // like the production log, whose thread stops at a failure: nothing is deleted any more
        released = Math.max(released, floorBarrier);
        while (segments.size() > 1 && segments.peekFirst().lastKey() <= released) {
            floor = Math.max(floor, released);
            segments.removeFirst();
        }
    }

    /**
     * Reads back the records after {@code afterBarrier} a few simulated ms later, as the production log reads its segment
     * files: the durable ones, and those appended but not forced yet (in the file, not durable); fails for a barrier
     * below what was released (those records may be gone).
     */
    @Override
    public void readAfter(long afterBarrier, int max, Consumer<List<Txn<SimOp>>> done, Consumer<Exception> failed) {
        scheduler.schedule(1 + rnd.nextInt(3), () -> {
            if (afterBarrier < released) {
                failed.accept(new IOException("records after barrier " + afterBarrier + " may have been released (the floor is "
                        + released + ")"));
                return;
            }
            List<Txn<SimOp>> out = new ArrayList<>();
            for (Record r : records().tailMap(afterBarrier, false).values()) {
                if (out.size() >= max) break;
                out.add(Txn.logged(r.txId(), r.barrier(), r.writes(), READ_BACK_REPLICAS));
            }
            // like the production log, whose file holds written frames before their force: not durable yet
            for (Pending p : queue) {
                if (out.size() >= max) break;
                Txn<SimOp> t = p.t();
                if (t.barrier() > afterBarrier) out.add(Txn.logged(t.id(), t.barrier(), writes(t), READ_BACK_REPLICAS));
            }
            readBack += out.size();
            done.accept(out);
        });
    }

    /** Records read back for replicas that replayed more than the core kept in memory. */
    long readBack() {
        return readBack;
    }

    private TreeMap<Long, Record> records() {
        TreeMap<Long, Record> all = new TreeMap<>();
        for (TreeMap<Long, Record> segment : segments) all.putAll(segment);
        return all;
    }

    /** From now on the log cannot write: what is queued fails, and so does every later append. */
    void fail() {
        if (failure != null) return;
        failure = new IOException("simulated disk failure");
        Exception why = failure;
        for (Pending p : queue) {
            if (fault == Fault.FAILED_FORCE_SURVIVES) keep(new Record(p.t().id(), p.t().barrier(), writes(p.t())));
            listener.failed(p.t());
            scheduler.execute(() -> p.failed().accept(why));
        }
        queue.clear();
    }

    /**
     * The shepherd process died: what was queued and not forced is lost (returned: decided, never durable). With
     * {@link Fault#LOST_AT_CRASH} the whole log is gone.
     */
    List<Txn<SimOp>> crash() {
        process++;
        forceScheduled = false;
        toReport.clear();
        List<Txn<SimOp>> lost = new ArrayList<>();
        for (Pending p : queue) lost.add(p.t());
        queue.clear();
        released = floor; // what the next process knows
        failure = null; // the next process opens it again (once its disk was fixed)
        if (fault == Fault.LOST_AT_CRASH) {
            segments.clear();
            floor = -1;
            released = -1;
            history = false;
        }
        return lost;
    }

    /** A shepherd process started with this log: from now on it has a history. */
    void started() {
        history = true;
    }

    /** What a restarting shepherd reads from the log. */
    RestartPlan.LogState state() {
        TreeMap<Long, Record> records = records();
        long[] barriers = records.keySet().stream().mapToLong(Long::longValue).toArray();
        long lastTxId = records.values().stream().mapToLong(Record::txId).max().orElse(-1);
        return new RestartPlan.LogState(history, floor, barriers, lastTxId);
    }

    /** As the production start-up does on a log without history: the replicas held everything up to here before it began. */
    void recordFloor(long barrier) {
        floor = Math.max(floor, barrier);
        released = Math.max(released, floor);
    }

    /** The committed transactions a restarted shepherd may replay, ascending barrier. */
    List<Txn<SimOp>> logged(int replicaCount) {
        List<Txn<SimOp>> out = new ArrayList<>();
        for (Record r : records().tailMap(floor, false).values()) {
            out.add(Txn.logged(r.txId(), r.barrier(), r.writes(), replicaCount));
        }
        return out;
    }

    /** Whether the log holds a record of barrier {@code b} that a restarted shepherd would replay. */
    boolean holds(long barrier) {
        return barrier > floor && records().containsKey(barrier);
    }

    /** Whether the log still holds a record of barrier {@code b}, replayed at a restart or not (at or below the floor). */
    boolean keeps(long barrier) {
        return records().containsKey(barrier);
    }

    long floor() {
        return floor;
    }

    @Override
    public long recordedFloor() {
        return floor;
    }

    /** What a record takes on the simulated disk, for {@link #bytesKeptAbove}. */
    static final int RECORD_BYTES = 100;

    @Override
    public long bytesKeptAbove(long floorBarrier) {
        long kept = 0;
        int i = 0;
        for (TreeMap<Long, Record> segment : segments) {
            boolean newest = ++i == segments.size();
            if (!newest && !segment.isEmpty() && segment.lastKey() <= floorBarrier) continue;
            kept += (long) segment.size() * RECORD_BYTES;
        }
        return kept;
    }

    long forces() {
        return forces;
    }

    long durableRecords() {
        return durableRecords;
    }

    boolean failed() {
        return failure != null;
    }
}
