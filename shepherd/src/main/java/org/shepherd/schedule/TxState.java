package org.shepherd.schedule;

/** Where a transaction is in the coordinator's life cycle. */
public enum TxState {
    /** Statements may still arrive. */
    ACTIVE,
    /** The client asked to commit; the coordinator waits for f+1 ready replicas. */
    COMMITTING,
    /** Committed with barrier {@link Txn#barrier()}; secondaries commit it as the rules allow. */
    COMMITTED,
    /** Aborted everywhere. */
    ABORTED
}
