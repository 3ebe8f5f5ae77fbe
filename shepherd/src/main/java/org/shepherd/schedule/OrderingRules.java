package org.shepherd.schedule;

/**
 * Switches for the scheduling rules. Production uses {@link #ALL}; the simulation turns single rules off to
 * show that its invariants catch the consequences.
 *
 * @param queryOrdering a query or COMMIT of T goes to a secondary only after all earlier queries of T were done
 * @param commitOrdering a COMMIT of T goes to a secondary only after all queries of transactions ordered before T
 * @param transactionOrdering a query with barrier Q.b waits for all queries of committed T with T.b &lt; Q.b
 * @param readyVotesOnly only votes of replicas ready to commit T count (the point of section 3.3.2)
 */
public record OrderingRules(boolean queryOrdering, boolean commitOrdering, boolean transactionOrdering, boolean readyVotesOnly) {

    public static final OrderingRules ALL = new OrderingRules(true, true, true, true);

    public OrderingRules withoutQueryOrdering() {
        return new OrderingRules(false, commitOrdering, transactionOrdering, readyVotesOnly);
    }

    public OrderingRules withoutCommitOrdering() {
        return new OrderingRules(queryOrdering, false, transactionOrdering, readyVotesOnly);
    }

    public OrderingRules withoutTransactionOrdering() {
        return new OrderingRules(queryOrdering, commitOrdering, false, readyVotesOnly);
    }

    public OrderingRules countingUnreadyVotes() {
        return new OrderingRules(queryOrdering, commitOrdering, transactionOrdering, false);
    }
}
