package org.shepherd.replica.setup;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.shepherd.replica.SqlErrors;

/**
 * Apache Derby, embedded or network server. Derby's SERIALIZABLE is strict two-phase locking with index range
 * locks; its commits are durable unless the JVM runs with {@code derby.system.durability=test}, which SQL cannot
 * see (docs/replicas.md says not to). Comparisons are case-sensitive and always PAD SPACE (no NO PAD collation).
 */
final class DerbySetup implements ReplicaSetup {
    private static final Logger LOG = LoggerFactory.getLogger(DerbySetup.class);
    /** Derby runs deadlock detection only after a waiter has waited this long (default 20 s). */
    static final int DEADLOCK_TIMEOUT_SECONDS = 1;

    private static final Set<String> RETRY_STATES = Set.of("40001", "40XL1", "40XL2");

    @Override
    public String dialect() {
        return "derby";
    }

    @Override
    public void prepareDatabase(Connection c) throws SQLException {
        setDatabaseProperty(c, "derby.locks.deadlockTimeout", Integer.toString(DEADLOCK_TIMEOUT_SECONDS));
        setDatabaseProperty(c, "derby.locks.waitTimeout", Integer.toString(LOCK_WAIT_TIMEOUT_SECONDS));
        Sql.commitIfManual(c);
    }

    @Override
    public void prepareConnection(Connection c) throws SQLException {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
    }

    @Override
    public void verify(Connection c) throws SQLException {
        String url = c.getMetaData().getURL();
        if (url != null && url.startsWith("jdbc:derby:memory:")) {
            LOG.warn("Derby replica {} is an in-memory database: it loses every commit when its JVM stops (fine for tests)", url);
        }
        String isolation = Sql.queryString(c, "VALUES CURRENT ISOLATION");
        String waitTimeout = Sql.queryString(c, "VALUES SYSCS_UTIL.SYSCS_GET_DATABASE_PROPERTY('derby.locks.waitTimeout')");
        Sql.commitIfManual(c);
        // Derby names SERIALIZABLE "RR" (repeatable read in the DB2 sense) and REPEATABLE READ "RS"
        if (!"RR".equals(isolation == null ? null : isolation.trim())) {
            throw new ReplicaRefusedException("Derby replica runs at isolation " + isolation
                    + " instead of SERIALIZABLE (RR): the connection setup did not take effect");
        }
        if (!Integer.toString(LOCK_WAIT_TIMEOUT_SECONDS).equals(waitTimeout)) {
            throw new ReplicaRefusedException("Derby replica's derby.locks.waitTimeout is " + waitTimeout + ", not "
                    + LOCK_WAIT_TIMEOUT_SECONDS + ": the database-level setup did not take effect (read-only database?)");
        }
    }

    @Override
    public boolean isRetryable(SQLException e) {
        return SqlErrors.anyInChain(e, s -> RETRY_STATES.contains(s.getSQLState()));
    }

    private static void setDatabaseProperty(Connection c, String key, String value) throws SQLException {
        Sql.execute(c, "CALL SYSCS_UTIL.SYSCS_SET_DATABASE_PROPERTY('" + key + "', '" + value + "')");
    }

    /** Explicit values do not move an identity generator here. */
    @Override
    public boolean identityFollowsExplicitValues() {
        return false;
    }
}
