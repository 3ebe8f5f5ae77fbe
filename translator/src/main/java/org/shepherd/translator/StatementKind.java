package org.shepherd.translator;

/** What the coordinator must do with a statement. */
public enum StatementKind {
    /** A query that changes nothing and takes no write locks: SELECT, VALUES, WITH ... SELECT. */
    READ,
    /** INSERT, UPDATE, DELETE, MERGE, and SELECT ... FOR UPDATE / FOR SHARE (locking reads). */
    WRITE,
    /** CREATE, ALTER, DROP, TRUNCATE. */
    DDL,
    /** START TRANSACTION, BEGIN, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK TO SAVEPOINT, RELEASE SAVEPOINT. */
    TRANSACTION,
    /** SET ..., USE ...: session settings. */
    SESSION,
    /** Anything else the parser understood (CALL, EXPLAIN, SHOW ...): passed only to engines of the client's family. */
    OTHER
}
