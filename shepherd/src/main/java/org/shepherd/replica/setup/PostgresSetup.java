package org.shepherd.replica.setup;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import org.shepherd.replica.SqlErrors;

/**
 * PostgreSQL, as a secondary only. Its concurrency control is multiversion: reads never wait for writers, and
 * SERIALIZABLE is serializable snapshot isolation, not strict two-phase locking. It therefore runs at READ COMMITTED
 * (each statement reads everything committed before it) and needs {@link StatementGate#PREDECESSORS_COMMITTED}; the
 * argument is in docs/replicas.md.
 */
final class PostgresSetup implements ReplicaSetup {
    /** serialization_failure, deadlock_detected, lock_not_available (lock_timeout). */
    private static final Set<String> RETRY_STATES = Set.of("40001", "40P01", "55P03");

    @Override
    public String dialect() {
        return "postgresql";
    }

    @Override
    public void prepareDatabase(Connection c) throws SQLException {
        Sql.commitIfManual(c);
    }

    @Override
    public void prepareConnection(Connection c) throws SQLException {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        Sql.execute(c, "SET SESSION synchronous_commit = on");
        Sql.execute(c, "SET SESSION lock_timeout = '" + LOCK_WAIT_TIMEOUT_SECONDS + "s'");
        Sql.execute(c, "SET SESSION TIME ZONE 'UTC'");
        c.commit();
    }

    @Override
    public void verify(Connection c) throws SQLException {
        String fsync = Sql.queryString(c, "SHOW fsync");
        String fullPageWrites = Sql.queryString(c, "SHOW full_page_writes");
        String synchronousCommit = Sql.queryString(c, "SHOW synchronous_commit");
        String isolation = Sql.queryString(c, "SHOW transaction_isolation");
        Sql.commitIfManual(c);
        if (!"on".equals(fsync)) {
            throw new ReplicaRefusedException("PostgreSQL replica runs with fsync=" + fsync
                    + ": a crash can lose or corrupt committed data; set fsync=on");
        }
        if (!"on".equals(fullPageWrites)) {
            throw new ReplicaRefusedException("PostgreSQL replica runs with full_page_writes=" + fullPageWrites
                    + ": a crash can leave torn pages; set full_page_writes=on");
        }
        if ("off".equals(synchronousCommit)) {
            throw new ReplicaRefusedException("PostgreSQL replica ignores synchronous_commit=on for this session");
        }
        if (!"read committed".equals(isolation)) {
            throw new ReplicaRefusedException("PostgreSQL replica runs at " + isolation + " instead of READ COMMITTED");
        }
    }

    @Override
    public boolean canBePrimary() {
        return false;
    }

    @Override
    public void verifyPrimary() throws ReplicaRefusedException {
        throw new ReplicaRefusedException("a PostgreSQL replica cannot be the primary: its reads never wait for "
                + "writers (multiversion concurrency control, not strict two-phase locking), so the statements it lets "
                + "run together do not tell the secondaries which ones are free of conflicts, and its SERIALIZABLE "
                + "mode may refuse a COMMIT after every answer was voted; choose another replica as primary");
    }

    @Override
    public boolean errorAbortsTransaction() {
        return true;
    }

    @Override
    public StatementGate statementGate() {
        return StatementGate.PREDECESSORS_COMMITTED;
    }

    @Override
    public boolean isRetryable(SQLException e) {
        return SqlErrors.anyInChain(e, s -> RETRY_STATES.contains(s.getSQLState()));
    }
}
