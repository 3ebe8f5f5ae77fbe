package org.shepherd.replica.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import org.shepherd.replica.setup.ReplicaSetup;

/**
 * Per-vendor settings applied to replica connections: once per database when its pool starts, and on every new
 * physical connection. The single place where {@link ReplicaPool} takes replica session settings from.
 */
public interface ConnectionPreparer {

    /**
     * Called once, when the pool starts, with a connection already given {@link #prepareConnection}: database-level
     * settings and checks. Leaves no transaction open.
     */
    void prepareDatabase(Connection connection) throws SQLException;

    /** Called on every new physical connection; must leave it in manual-commit, SERIALIZABLE mode. */
    void prepareConnection(Connection connection) throws SQLException;

    /**
     * The vendor's {@link ReplicaSetup}: database settings then {@link ReplicaSetup#verify} once, connection
     * settings (autocommit off, SERIALIZABLE, session variables) on every connection.
     */
    static ConnectionPreparer defaults(String dialect) {
        ReplicaSetup setup = ReplicaSetup.forDialect(dialect);
        return new ConnectionPreparer() {
            @Override
            public void prepareDatabase(Connection c) throws SQLException {
                setup.prepareDatabase(c);
                setup.verify(c);
            }

            @Override
            public void prepareConnection(Connection c) throws SQLException {
                setup.prepareConnection(c);
            }
        };
    }
}
