package org.shepherd.wal;

import java.util.List;
import java.util.function.Consumer;
import org.shepherd.schedule.Txn;

/**
 * Where the coordinator makes a committed transaction durable before it tells the client and before any replica commits
 * it: the shepherd's write-ahead log in production ({@link WriteAheadLog}), a simulated one in the simulation, or
 * {@link #none()}.
 *
 * @param <S> the statement payload type
 */
public interface CommitLog<S> {

    /**
     * Makes committed transaction {@code t} (its barrier set, its statements final) durable. Exactly one of
     * {@code durable} and {@code failed} is called, later, from any thread; {@code durable} calls come in append order.
     * After a failure the log is unusable: every later append fails.
     */
    void append(Txn<S> t, Runnable durable, Consumer<Exception> failed);

    /** Every transaction with a barrier up to {@code floorBarrier} is committed at every replica that may need it. */
    void release(long floorBarrier);

    /**
     * Reads back the logged transactions with a barrier above {@code afterBarrier} (ascending, writes only, at most
     * {@code max}; fewer when there are no more yet), for a replica that must replay more than the coordinator keeps in
     * memory. {@code done} or {@code failed} is called once, later, from any thread. Without a log: fails.
     */
    default void readAfter(long afterBarrier, int max, Consumer<List<Txn<S>>> done, Consumer<Exception> failed) {
        failed.accept(new IllegalStateException("no write-ahead log to read transactions back from"));
    }

    /**
     * The floor a restarted shepherd would read: the highest {@link #release}d floor recorded durably. The replicas'
     * transaction logs are truncated only up to it, so that a restart never counts their barriers below what they
     * deleted. Without a log: {@link Long#MAX_VALUE} (a restart has no floor to read but the replicas' own).
     */
    default long recordedFloor() {
        return Long.MAX_VALUE;
    }

    /**
     * The bytes the log would keep on disk were it {@link #release}d up to {@code floorBarrier} (what a replica whose
     * replay starts after that barrier costs it); 0 without a log.
     */
    default long bytesKeptAbove(long floorBarrier) {
        return 0;
    }

    /** Whether appends are durable at once (no log): the coordinator then skips them. */
    default boolean durableAtOnce() {
        return false;
    }

    /** No log: a commit is durable as soon as it is decided (tests, and the simulation of a shepherd that never crashes). */
    static <S> CommitLog<S> none() {
        return new CommitLog<>() {
            @Override
            public void append(Txn<S> t, Runnable durable, Consumer<Exception> failed) {
                durable.run();
            }

            @Override
            public void release(long floorBarrier) {
            }

            @Override
            public boolean durableAtOnce() {
                return true;
            }
        };
    }
}
