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

    JdbcCommitLog(WriteAheadLog wal, java.util.Collection<Dialect> dialects) {
        this.wal = wal;
        this.dialects = List.copyOf(dialects);
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
