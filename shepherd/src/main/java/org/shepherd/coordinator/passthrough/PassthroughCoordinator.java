package org.shepherd.coordinator.passthrough;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.shepherd.admin.AdminView;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.coordinator.Coordinator;
import org.shepherd.coordinator.DatabaseInfo;
import org.shepherd.coordinator.Session;
import org.shepherd.divergence.Divergence;
import org.shepherd.replica.jdbc.ConnectionPreparer;
import org.shepherd.replica.jdbc.JdbcValues;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.replica.jdbc.StatementCache;
import org.shepherd.replica.jdbc.ReplicaSpec;
import org.shepherd.replica.setup.ReplicaRefusedException;
import org.shepherd.replica.setup.ReplicaSetup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mode {@code passthrough}: every statement runs on one replica (the primary), unchanged, with no voting.
 * The baseline the replicated modes are measured against, and the path the embedded default uses until CBS
 * is available. The database name a client asks for is ignored: the replica's database is the only one.
 */
public final class PassthroughCoordinator implements Coordinator, AdminView {

    private static final Logger LOG = LoggerFactory.getLogger(PassthroughCoordinator.class);

    private final ReplicaPool replica;
    private final JdbcValues values;
    private final StatementCache statements = new StatementCache();
    private final int fetchSizeDefault;
    private final Set<PassthroughSession> sessions = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * @param replica the replica every statement goes to; closed with this coordinator
     * @param fetchSizeDefault rows per batch when the client's fetch size is 0
     */
    public PassthroughCoordinator(ReplicaPool replica, int fetchSizeDefault) {
        if (fetchSizeDefault < 1) throw new IllegalArgumentException("fetchSizeDefault must be >= 1");
        this.replica = replica;
        this.values = JdbcValues.forDialect(replica.spec().dialect());
        this.fetchSizeDefault = fetchSizeDefault;
    }

    /** A coordinator over the configuration's primary replica; the other replicas are not touched. */
    public static PassthroughCoordinator open(ShepherdConfig config) throws SQLException {
        ReplicaSpec primary = config.primary();
        if (config.replicas().size() > 1) {
            LOG.warn("mode=passthrough uses replica {} only; the other {} replica(s) are not used", primary.name(),
                    config.replicas().size() - 1);
        }
        try {
            ReplicaSetup.forDialect(primary.dialect()).verifyPrimary();
        } catch (ReplicaRefusedException e) {
            throw new ReplicaRefusedException("replica " + primary.name() + " (" + primary.dialect() + "): " + e.getMessage());
        }
        ReplicaPool pool = new ReplicaPool(primary, ConnectionPreparer.defaults(primary.dialect()),
                config.replicaPoolSizeMax(), config.replicaConnectTimeoutMs());
        return new PassthroughCoordinator(pool, config.fetchSizeDefault());
    }

    @Override
    public Session openSession(String user, String database) throws SQLException {
        if (closed) throw new SQLException("the shepherd is shutting down", "57P01");
        PassthroughSession s = new PassthroughSession(this, replica, values, statements, fetchSizeDefault);
        sessions.add(s);
        if (closed) {
            s.close();
            throw new SQLException("the shepherd is shutting down", "57P01");
        }
        return s;
    }

    @Override
    public DatabaseInfo databaseInfo() {
        return replica.databaseInfoIfKnown(); // its pool checked it is reachable
    }

    /** One replica, no votes, no barriers: barrier 0, nothing committed under a barrier, never a divergence. */
    @Override
    public ViewStatus viewStatus() {
        return new ViewStatus("passthrough", 0, 0, replica.spec().name(), 1, 0, 0, 0, 0, 0, -1, 0, -1, -1, -1, -1, -1, -1, "", "");
    }

    @Override
    public List<ReplicaRow> statusRows() {
        return List.of(new ReplicaRow(replica.spec().name(), "primary", closed ? "down: shutting down" : "up", -1, 0, 0, 0, 0,
                replica.spec().location()));
    }

    @Override
    public List<Divergence> divergenceRows() {
        return List.of();
    }

    /** The replica's pool (for status and tests). */
    public ReplicaPool replica() {
        return replica;
    }

    /** Sessions open now. */
    public int openSessions() {
        return sessions.size();
    }

    void forget(PassthroughSession s) {
        sessions.remove(s);
    }

    /** Cancels what still runs, rolls back and closes every open session, then closes the replica pool. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        for (PassthroughSession s : sessions) s.cancel();
        for (PassthroughSession s : sessions) s.close();
        replica.close();
    }
}
