package org.shepherd.replica.setup;

import java.sql.Connection;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.shepherd.replica.SqlErrors;

/**
 * HSQLDB 2.x. Only its LOCKS transaction control is strict two-phase locking (MVCC and MVLOCKS let reads pass
 * writers). Commits reach the disk at once only with {@code WRITE DELAY FALSE} (the default waits 0.5 s).
 */
final class HsqldbSetup implements ReplicaSetup {
    private static final Logger LOG = LoggerFactory.getLogger(HsqldbSetup.class);

    @Override
    public String dialect() {
        return "hsqldb";
    }

    @Override
    public void prepareDatabase(Connection c) throws SQLException {
        Sql.commitIfManual(c);
        Sql.execute(c, "SET DATABASE TRANSACTION CONTROL LOCKS");
        Sql.execute(c, "SET DATABASE DEFAULT ISOLATION LEVEL SERIALIZABLE");
        Sql.execute(c, "SET DATABASE TRANSACTION ROLLBACK ON CONFLICT TRUE");
        Sql.execute(c, "SET FILES WRITE DELAY FALSE");
        try {
            Sql.execute(c, "SET DATABASE COLLATION SQL_TEXT NO PAD");
        } catch (SQLException e) {
            // HSQLDB changes the collation only while the database holds no table data
            LOG.warn("HSQLDB replica keeps its collation (trailing spaces ignored in comparisons): {}", e.getMessage());
        }
        Sql.commitIfManual(c);
    }

    @Override
    public void prepareConnection(Connection c) throws SQLException {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        Sql.execute(c, "SET TIME ZONE INTERVAL '+00:00' HOUR TO MINUTE");
    }

    @Override
    public void verify(Connection c) throws SQLException {
        String url = c.getMetaData().getURL();
        if (url != null && url.startsWith("jdbc:hsqldb:mem:")) {
            LOG.warn("HSQLDB replica {} is an in-memory database: it loses every commit when its JVM stops (fine for tests)", url);
        }
        String control = property(c, "hsqldb.tx");
        String writeDelay = property(c, "hsqldb.write_delay");
        String writeDelayMillis = property(c, "hsqldb.write_delay_millis");
        Sql.commitIfManual(c);
        if (!"LOCKS".equalsIgnoreCase(control)) {
            throw new ReplicaRefusedException("HSQLDB replica uses transaction control " + control + ", not LOCKS (strict "
                    + "two-phase locking); SET DATABASE TRANSACTION CONTROL LOCKS failed, usually because other sessions "
                    + "had open transactions: close them, or add hsqldb.tx=locks to the database URL");
        }
        boolean delayed = "true".equalsIgnoreCase(writeDelay) && !"0".equals(writeDelayMillis);
        if (delayed) {
            throw new ReplicaRefusedException("HSQLDB replica delays its log writes by " + writeDelayMillis
                    + " ms: a crash loses commits; SET FILES WRITE DELAY FALSE failed (read-only files?)");
        }
    }

    @Override
    public boolean isRetryable(SQLException e) {
        return SqlErrors.anyInChain(e, s -> "40001".equals(s.getSQLState()));
    }

    private static String property(Connection c, String name) throws SQLException {
        return Sql.queryString(c, "SELECT PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES WHERE PROPERTY_NAME = '"
                + name + "'");
    }
}
