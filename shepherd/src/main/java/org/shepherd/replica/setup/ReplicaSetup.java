package org.shepherd.replica.setup;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Per-vendor replica settings, applied by the shepherd so that every replica gives the guarantees commit barrier
 * scheduling relies on: serializable isolation with strict two-phase locking, durable commits, case- and
 * pad-sensitive string comparison where the engine allows it, and lock waits fit for OLTP. docs/replicas.md
 * lists what each vendor gets and why.
 *
 * <p>Order of calls: at start-up, per replica, on one connection: {@link #prepareDatabase}, then
 * {@link #prepareConnection}, then {@link #verify} (and {@link #verifyPrimary} for the replica that is to be the
 * primary, also at a view change); afterwards {@link #prepareConnection} on every new connection.
 */
public interface ReplicaSetup {
    /** Lock wait bound on every vendor that has one: a statement waiting longer fails with a retryable error. */
    int LOCK_WAIT_TIMEOUT_SECONDS = 10;

    /** The setup of a dialect named as in {@code replica.<name>.dialect}: derby|mariadb|mysql|hsqldb|postgresql|db2. */
    static ReplicaSetup forDialect(String dialect) {
        switch (dialect.toLowerCase(Locale.ROOT)) {
            case "derby":
                return new DerbySetup();
            case "mariadb":
                return MySqlFamilySetup.mariaDb();
            case "mysql":
                return MySqlFamilySetup.mySql();
            case "hsqldb":
                return new HsqldbSetup();
            case "postgresql":
                return new PostgresSetup();
            case "db2":
                return new Db2Setup();
            default:
                throw new IllegalArgumentException("no replica setup for dialect '" + dialect
                        + "'; known: derby, mariadb, mysql, hsqldb, postgresql, db2");
        }
    }

    /** The dialect name this setup is for. */
    String dialect();

    /**
     * Database-level settings, once at start-up (e.g. Derby lock timeouts, HSQLDB locking mode). Leaves the
     * connection with no open transaction.
     */
    void prepareDatabase(Connection c) throws SQLException;

    /** Per connection: autocommit off, the isolation level, session variables. */
    void prepareConnection(Connection c) throws SQLException;

    /**
     * Checks, on a connection already given {@link #prepareConnection}, that the replica can give the guarantees.
     *
     * @throws ReplicaRefusedException when it cannot, with the reason and what to change
     * @throws SQLException when the replica could not be asked
     */
    void verify(Connection c) throws SQLException;

    /** False for a replica whose concurrency control cannot order transactions for the others (PostgreSQL). */
    default boolean canBePrimary() {
        return true;
    }

    /** Refuses a replica chosen as primary (configured or by a view change) when {@link #canBePrimary()} is false. */
    default void verifyPrimary() throws ReplicaRefusedException {
    }

    /**
     * Whether an explicit value written into an identity column moves its generator past that value. A secondary gets
     * the primary's generated keys as explicit values; where they do not move the generator (Derby, Db2), a secondary
     * made primary by a view change first has its identity columns restarted above their largest value.
     */
    default boolean identityFollowsExplicitValues() {
        return true;
    }

    /** The statement that makes identity column {@code column} of {@code table} (both quoted) generate {@code next} on. */
    default String restartIdentity(String table, String column, long next) {
        return "ALTER TABLE " + table + " ALTER COLUMN " + column + " RESTART WITH " + next;
    }

    /**
     * Whether a failed statement aborts the whole transaction (PostgreSQL: 25P02 until ROLLBACK) instead of undoing
     * only itself as every other supported engine does. A secondary of such an engine runs a statement the primary
     * failed inside a savepoint, so that the transaction goes on there too.
     */
    default boolean errorAbortsTransaction() {
        return false;
    }

    /** When a statement may be sent to this replica as a secondary; see {@link StatementGate}. */
    default StatementGate statementGate() {
        return StatementGate.PREDECESSORS_EXECUTED;
    }

    /**
     * This vendor's error with the standard SQLState where the vendor uses another one for the same condition, so
     * that replicas of different vendors answer alike (and clients see one SQLState whichever replica is primary).
     */
    default SQLException standardized(SQLException e) {
        return e;
    }

    /**
     * A deadlock, lock wait timeout or serialization failure of this vendor: the transaction must be rolled back
     * at this replica and may be re-run. Callers always issue ROLLBACK after such an error, since some vendors
     * (MariaDB on a lock wait timeout) undo only the failed statement.
     */
    boolean isRetryable(SQLException e);
}
