package org.shepherd.translator;

/** The transaction-control verb of a {@link StatementKind#TRANSACTION} statement. */
public enum TransactionControl {
    BEGIN, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK_TO_SAVEPOINT, RELEASE_SAVEPOINT
}
