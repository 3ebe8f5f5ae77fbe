package org.shepherd.replica.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Per-vendor settings applied to replica connections: once per database when its pool starts, and on every new
 * physical connection. The single place where replica session settings are chosen.
 */
public interface ConnectionPreparer {

    /** Called once with a fresh connection before the pool hands out connections. */
    void prepareDatabase(Connection connection) throws SQLException;

    /** Called on every new physical connection; must leave it in manual-commit, SERIALIZABLE mode. */
    void prepareConnection(Connection connection) throws SQLException;

    /** Autocommit off and SERIALIZABLE; for embedded Derby also short lock timeouts. */
    static ConnectionPreparer defaults(String dialect) {
        return new ConnectionPreparer() {
            @Override
            public void prepareDatabase(Connection c) throws SQLException {
                if ("derby".equals(dialect)) {
                    setDerbyProperty(c, "derby.locks.deadlockTimeout", DERBY_DEADLOCK_TIMEOUT_SECONDS);
                    setDerbyProperty(c, "derby.locks.waitTimeout", DERBY_WAIT_TIMEOUT_SECONDS);
                    if (!c.getAutoCommit()) c.commit();
                }
            }

            @Override
            public void prepareConnection(Connection c) throws SQLException {
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            }
        };
    }

    /** Derby's default of 20 s would stall every lock conflict; deadlocks are detected after this. */
    int DERBY_DEADLOCK_TIMEOUT_SECONDS = 1;
    /** A lock wait beyond this fails the statement with SQLState 40XL1. */
    int DERBY_WAIT_TIMEOUT_SECONDS = 5;

    private static void setDerbyProperty(Connection c, String key, int value) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CALL SYSCS_UTIL.SYSCS_SET_DATABASE_PROPERTY('" + key + "', '" + value + "')");
        }
    }
}
