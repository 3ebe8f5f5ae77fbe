package org.shepherd.replica;

import java.sql.SQLException;
import java.util.function.Consumer;

/**
 * One replica database as its manager drives it: statements of a transaction run one at a time, in the order
 * sent; different transactions run concurrently. Requests return at once; the outcome is reported to
 * {@code done} later, from any thread. A transaction is identified by (txId, attempt): a re-run is a new
 * database transaction.
 *
 * @param <S> the statement payload type
 */
public interface ReplicaEndpoint<S> {

    String name();

    /**
     * Whether a statement may be sent here only after every committed transaction ordered before it has committed
     * here ({@code StatementGate.PREDECESSORS_COMMITTED}: replicas whose reads take no locks); false: after their
     * statements executed, the paper's rule.
     */
    default boolean commitGated() {
        return false;
    }

    /**
     * The database engine (family of SQL dialect) of this replica: replicas of one engine refuse the same statements
     * alike, so f+1 of another engine refusing what the primary ran is a statement the translator did not make portable,
     * not evidence against the primary. Empty: unknown (every replica counts as one engine).
     */
    default String engine() {
        return "";
    }

    /** Whether this replica may be made primary by a view change (some engines may only be secondaries). */
    default boolean canBePrimary() {
        return true;
    }

    /**
     * How many transactions may be open here at once (one connection each). The coordinator never opens more at a
     * secondary: a committed transaction that needs a connection while all are taken gets one from a transaction
     * ordered after it, which is rolled back here and run again later.
     */
    default int connectionsMax() {
        return Integer.MAX_VALUE;
    }

    /**
     * Runs one statement of the transaction. {@code primary} says whether the client answer must be kept;
     * {@code failedAtPrimary} (at a secondary) that the primary answered it with an error, so this replica is expected to
     * fail it too and the transaction to go on.
     */
    void execute(long txId, int attempt, S statement, boolean primary, boolean failedAtPrimary, Consumer<Outcome> done);

    /**
     * Appends the transaction-log row (txId, barrier) and commits; {@code barrier} -1: commits without a row (the
     * transaction wrote nothing, {@link org.shepherd.schedule.Txn#logBarrier()}).
     */
    void commit(long txId, int attempt, long barrier, Consumer<Outcome> done);

    /** Rolls the transaction back (a no-op when the replica has nothing open for it). */
    void rollback(long txId, int attempt, Consumer<Outcome> done);

    /**
     * What a probe found in the replica's transaction log ({@code shepherd_txlog}).
     *
     * @param above the barriers above the probe's {@code above}, ascending
     * @param upToAbove how many barriers up to {@code above} it holds; -1 when not asked
     */
    record Probe(long[] above, long upToAbove) {
    }

    /**
     * Asks a replica that went down whether it answers again (creating its transaction log if it has none): {@code reached}
     * gets what its log holds above {@code above} and, when {@code countUpTo}, how many barriers up to it;
     * {@code unreachable} why not. Either is called once, later, from any thread.
     */
    default void probe(long above, boolean countUpTo, Consumer<Probe> reached, Consumer<SQLException> unreachable) {
        unreachable.accept(new SQLException("replica " + name() + " cannot be probed", "0A000"));
    }

    /**
     * Counts the barriers up to {@code upTo} in the replica's transaction log (truncated rows included): {@code counted}
     * or {@code failed} is called once, later, from any thread.
     */
    default void countTxlog(long upTo, Consumer<Long> counted, Consumer<SQLException> failed) {
        failed.accept(new SQLException("replica " + name() + " cannot count its transaction log", "0A000"));
    }

    /**
     * Deletes the rows of transactions {@code txIds} (their barriers {@code barriers}, ascending) from the replica's
     * transaction log, adding their count and high water to what earlier truncations kept, so that the log does not
     * grow with every transaction. The core names only durable transactions that this replica and every other one that is
     * not lost committed, up to the floor the commit log recorded ({@link org.shepherd.wal.CommitLog#recordedFloor}):
     * a restart never counts below it. {@code done} gets {@link Outcome#done()} or the failure, once, later, from any
     * thread. It may be asked again for rows a failed call deleted: those are no longer there, and not counted again.
     */
    default void truncateTxlog(long[] txIds, long[] barriers, Consumer<Outcome> done) {
        done.accept(Outcome.retryable(new SQLException("replica " + name() + " cannot truncate its transaction log", "0A000")));
    }

    /**
     * Asks the replica, on a connection and a thread of its own, whether it answers at all (a request of a transaction
     * has been running there for long): {@code done} gets {@link Outcome#done()} when it does, a down outcome when it
     * fails; it may never be called when the replica hangs.
     */
    default void ping(Consumer<Outcome> done) {
        done.accept(Outcome.done());
    }

    /**
     * Whether the statement only reads (a query that takes no write locks): a replica catching up on committed
     * transactions skips it, since it changes nothing.
     */
    default boolean readOnly(S statement) {
        return false;
    }

    /**
     * A view change makes this replica the primary; it has no transaction open. {@code done} gets
     * {@link Outcome#done()} once it may generate keys and answer clients (e.g. its identity generators were moved past
     * the keys it got from the old primary), or a failure (then it counts as down).
     */
    default void becomePrimary(Consumer<Outcome> done) {
        done.accept(Outcome.done());
    }

    /**
     * The coordinator marked this replica down: whatever it holds for transactions there (connections, statements) is
     * given up; outcomes of requests still running are ignored.
     */
    default void wentDown() {
    }
}
