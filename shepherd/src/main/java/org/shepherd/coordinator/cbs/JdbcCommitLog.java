package org.shepherd.coordinator.cbs;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.shepherd.schedule.Stmt;
import org.shepherd.schedule.Txn;
import org.shepherd.translator.dialect.Dialect;
import org.shepherd.wal.CommitLog;
import org.shepherd.wal.LoggedStatement;
import org.shepherd.wal.WalRecord;
import org.shepherd.wal.WriteAheadLog;

/**
 * The coordinator's commits as write-ahead log records: a committed transaction's writes, each rendered for every
 * dialect of the replica set exactly as a secondary runs it (the primary's generated keys pinned), so that a restarted
 * shepherd replays them without the translator. Reads, and statements the primary failed, are left out: they changed
 * nothing.
 */
final class JdbcCommitLog implements CommitLog<JdbcStatement> {

    private final WriteAheadLog wal;
    private final List<Dialect> dialects;
    private final int replicaCount;
    /** Reads transactions back from disk for replicas that replay more than the core keeps in memory. */
    private final java.util.concurrent.ExecutorService reader = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "shepherd-wal-reader");
        t.setDaemon(true);
        return t;
    });

    JdbcCommitLog(WriteAheadLog wal, java.util.Collection<Dialect> dialects, int replicaCount) {
        this.wal = wal;
        this.dialects = List.copyOf(dialects);
        this.replicaCount = replicaCount;
    }

    @Override
    public void readAfter(long afterBarrier, int max, Consumer<List<Txn<JdbcStatement>>> done, Consumer<Exception> failed) {
        try {
            reader.execute(() -> {
                List<Txn<JdbcStatement>> out = new ArrayList<>();
                try {
                    for (WalRecord r : wal.readAfter(afterBarrier, max)) out.add(replayable(r, replicaCount));
                } catch (java.io.IOException | RuntimeException e) {
                    failed.accept(e);
                    return;
                }
                done.accept(out);
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            failed.accept(e);
        }
    }

    /** Stops reading transactions back (the coordinator is closing). */
    void close() {
        reader.shutdownNow();
    }

    @Override
    public void append(Txn<JdbcStatement> t, Runnable durable, Consumer<Exception> failed) {
        try {
            wal.append(record(t, dialects), durable, failed::accept);
        } catch (RuntimeException e) {
            failed.accept(e); // too large a record: this transaction fails
        }
    }

    @Override
    public void release(long floorBarrier) {
        wal.release(floorBarrier);
    }

    @Override
    public long recordedFloor() {
        return wal.floor();
    }

    @Override
    public long bytesKeptAbove(long floorBarrier) {
        return wal.bytesKeptAbove(floorBarrier);
    }

    static WalRecord record(Txn<JdbcStatement> t, List<Dialect> dialects) {
        List<LoggedStatement> writes = new ArrayList<>();
        for (Stmt<JdbcStatement> q : t.stmts()) {
            if (q.failedAtPrimary() || q.payload().readOnly()) continue;
            writes.add(q.payload().toLogged(dialects));
        }
        return new WalRecord(t.id(), t.barrier(), writes);
    }

    /** A committed transaction read back from the log, as the core replays it. */
    static Txn<JdbcStatement> replayable(WalRecord r, int replicaCount) {
        List<JdbcStatement> writes = new ArrayList<>();
        for (LoggedStatement s : r.statements()) writes.add(JdbcStatement.logged(s));
        return Txn.logged(r.txId(), r.barrier(), writes, replicaCount);
    }
}
