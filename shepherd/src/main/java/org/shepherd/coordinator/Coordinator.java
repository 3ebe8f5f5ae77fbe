package org.shepherd.coordinator;

import java.sql.SQLException;

/**
 * The replicated database as the frontend sees it. One implementation per execution mode family
 * (passthrough, cbs/ss/serial); the frontend ({@code org.shepherd.server}) never knows which.
 */
public interface Coordinator extends AutoCloseable {

    /**
     * Opens a client session. Called on a worker thread, never on an event loop.
     *
     * @param user the authenticated shepherd user
     * @param database the database name from the client's URL
     */
    Session openSession(String user, String database) throws SQLException;

    /**
     * The dialect and primary product reported to clients when their session opens. Override it with the
     * primary replica's ({@code ReplicaPool.databaseInfo()}); the default names no dialect or product.
     */
    default DatabaseInfo databaseInfo() {
        return DatabaseInfo.UNKNOWN;
    }

    /** Stops accepting sessions, lets running transactions end (bounded), releases replica connections. */
    @Override
    void close();
}
