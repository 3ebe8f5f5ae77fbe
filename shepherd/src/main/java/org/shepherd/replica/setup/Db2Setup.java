package org.shepherd.replica.setup;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import org.shepherd.replica.SqlErrors;

/**
 * IBM DB2 (LUW): JDBC SERIALIZABLE is DB2's Repeatable Read, strict two-phase locking with next-key locks.
 * Not exercised against a DB2 server (none runs in this project's test environment); see docs/replicas.md.
 */
final class Db2Setup implements ReplicaSetup {
    /** 40001: deadlock or timeout, transaction rolled back (SQLCODE -911); 57033: same without rollback (-913). */
    private static final Set<String> RETRY_STATES = Set.of("40001", "57033");
    private static final Set<Integer> RETRY_CODES = Set.of(-911, -913);

    @Override
    public String dialect() {
        return "db2";
    }

    @Override
    public void prepareDatabase(Connection c) throws SQLException {
        Sql.commitIfManual(c);
    }

    @Override
    public void prepareConnection(Connection c) throws SQLException {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        Sql.execute(c, "SET CURRENT LOCK TIMEOUT " + LOCK_WAIT_TIMEOUT_SECONDS);
    }

    @Override
    public void verify(Connection c) throws SQLException {
        String isolation = Sql.queryString(c, "VALUES CURRENT ISOLATION");
        Sql.commitIfManual(c);
        if (!"RR".equals(isolation == null ? null : isolation.trim())) {
            throw new ReplicaRefusedException("DB2 replica runs at isolation " + isolation + " instead of RR (SERIALIZABLE)");
        }
    }

    @Override
    public boolean isRetryable(SQLException e) {
        return SqlErrors.anyInChain(e, s -> RETRY_STATES.contains(s.getSQLState()) || RETRY_CODES.contains(s.getErrorCode()));
    }

    /** Explicit values do not move an identity generator here. */
    @Override
    public boolean identityFollowsExplicitValues() {
        return false;
    }
}
