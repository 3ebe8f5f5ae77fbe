package org.shepherd.translator;

/** The transaction-control verb of a {@link StatementKind#TRANSACTION} statement. */
public enum TransactionControl {
    BEGIN, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK_TO_SAVEPOINT, RELEASE_SAVEPOINT;

    /**
     * SAVEPOINT, ROLLBACK TO SAVEPOINT and RELEASE SAVEPOINT: statements inside a transaction, which every replica runs
     * in order like the others; the rest begin or end a transaction.
     */
    public boolean insideTransaction() {
        return this == SAVEPOINT || this == ROLLBACK_TO_SAVEPOINT || this == RELEASE_SAVEPOINT;
    }
}
