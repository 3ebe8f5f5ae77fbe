package org.shepherd.hetero;

import java.sql.Connection;
import java.sql.SQLException;
import org.shepherd.replica.jdbc.ConnectionPreparer;
import org.shepherd.replica.setup.ReplicaSetup;

/** The vendor setup the shepherd applies to a replica ({@link ReplicaSetup}), for the engines of these tests. */
final class EngineSetup {

    private EngineSetup() {
    }

    /** Database settings, connection settings, then the check that the replica gives the guarantees. */
    static void apply(String dialect, Connection c) throws SQLException {
        ReplicaSetup setup = ReplicaSetup.forDialect(dialect);
        setup.prepareDatabase(c);
        setup.prepareConnection(c);
        setup.verify(c);
        c.commit();
    }

    /** A replica pool's preparer that applies {@link ReplicaSetup} (database settings once, then every connection). */
    static ConnectionPreparer preparer(String dialect) {
        ReplicaSetup setup = ReplicaSetup.forDialect(dialect);
        return new ConnectionPreparer() {
            @Override
            public void prepareDatabase(Connection c) throws SQLException {
                setup.prepareDatabase(c);
                setup.prepareConnection(c);
                setup.verify(c);
                c.commit();
            }

            @Override
            public void prepareConnection(Connection c) throws SQLException {
                setup.prepareConnection(c);
            }
        };
    }
}
