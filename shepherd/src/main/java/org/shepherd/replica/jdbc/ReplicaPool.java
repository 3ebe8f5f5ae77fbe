package org.shepherd.replica.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.SQLExceptionOverride;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.shepherd.coordinator.DatabaseInfo;
import org.shepherd.replica.setup.ReplicaRefusedException;
import org.slf4j.LoggerFactory;

/**
 * The connections to one replica, pooled by HikariCP. A connection handed out is in manual-commit,
 * SERIALIZABLE mode (see {@link ConnectionPreparer}); the caller keeps it for a whole transaction and closes it
 * only after commit or rollback, which returns it to the pool (HikariCP rolls back anything left open and
 * resets autocommit, isolation and read-only).
 */
public final class ReplicaPool implements AutoCloseable {

    private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(ReplicaPool.class);
    private static final int IDLE_CONNECTIONS_MIN = 1;
    /** Connections for metadata reads ({@link #acquireForMetadata}), opened when needed, beside the transactions' pool. */
    public static final int METADATA_CONNECTIONS_MAX = 2;

    /** Where the replica is: the configured spec, or where it moved to ({@link #relocate}). */
    private volatile ReplicaSpec spec;
    private final ConnectionPreparer preparer;
    private final HikariDataSource pool;
    private final HikariDataSource metadataPool;
    /** Read at the first connection: when the pool started, or when an unreachable replica first answered. */
    private volatile DatabaseInfo databaseInfo;
    /** Why the replica could not be reached when the pool started, or null. */
    private final SQLException unreachableAtStart;
    private final int sizeMax;

    /**
     * Creates the pool and checks the replica is reachable (fails with the replica's SQLException if not).
     *
     * @param poolSizeMax connections open at most
     * @param connectTimeoutMs how long {@link #acquire()} waits for a connection
     */
    public ReplicaPool(ReplicaSpec spec, ConnectionPreparer preparer, int poolSizeMax, long connectTimeoutMs)
            throws SQLException {
        this(spec, preparer, poolSizeMax, connectTimeoutMs, false);
    }

    /**
     * As {@link #ReplicaPool(ReplicaSpec, ConnectionPreparer, int, long)}, but a replica that cannot be reached does not
     * fail the start ({@link #unreachableAtStart()}): its settings are checked, and its product read, when it first
     * answers. A replica that answers and refuses its settings still fails.
     */
    public static ReplicaPool startingUnreachable(ReplicaSpec spec, ConnectionPreparer preparer, int poolSizeMax,
            long connectTimeoutMs) throws SQLException {
        return new ReplicaPool(spec, preparer, poolSizeMax, connectTimeoutMs, true);
    }

    private ReplicaPool(ReplicaSpec spec, ConnectionPreparer preparer, int poolSizeMax, long connectTimeoutMs,
            boolean mayBeUnreachable) throws SQLException {
        this.spec = spec;
        this.preparer = preparer;
        this.sizeMax = poolSizeMax;
        SQLException unreachable = null;
        try {
            checkDatabase();
        } catch (ReplicaRefusedException e) {
            throw e;
        } catch (SQLException e) {
            if (!mayBeUnreachable) throw e;
            unreachable = e;
            LOG.warn("replica {} is not reachable at start: {}", spec.name(), e.getMessage());
        }
        this.unreachableAtStart = unreachable;
        HikariConfig hc = new HikariConfig();
        hc.setPoolName("replica-" + spec.name());
        hc.setDataSource(new PreparingDataSource());
        hc.setMaximumPoolSize(poolSizeMax);
        hc.setMinimumIdle(Math.min(IDLE_CONNECTIONS_MIN, poolSizeMax));
        hc.setConnectionTimeout(Math.max(250, connectTimeoutMs));
        hc.setAutoCommit(false);
        hc.setInitializationFailTimeout(-1);
        // HikariCP evicts a connection on SQLState 0A000, but a replica refusing a feature leaves it usable.
        hc.setExceptionOverride(new KeepOnFeatureNotSupported());
        this.pool = new HikariDataSource(hc);
        HikariConfig mc = new HikariConfig();
        hc.copyStateTo(mc);
        mc.setPoolName("replica-" + spec.name() + "-metadata");
        mc.setMaximumPoolSize(METADATA_CONNECTIONS_MAX);
        mc.setMinimumIdle(0);
        this.metadataPool = new HikariDataSource(mc);
    }

    public ReplicaSpec spec() {
        return spec;
    }

    /**
     * Points the pool at the replica's new location (its machine was replaced and a copy of its database installed
     * there): connections opened from now on go to {@code moved}, whose settings and product are checked at the first;
     * those open to the old location are closed as they come back (the replica is down, so none should be in use). The
     * name and the dialect stay: a replica keeps its engine.
     */
    public void relocate(ReplicaSpec moved) {
        ReplicaSpec old = spec;
        if (!moved.name().equals(old.name()) || !moved.dialect().equals(old.dialect())) {
            throw new IllegalArgumentException("replica " + old.name() + " (" + old.dialect() + ") cannot move to " + moved);
        }
        synchronized (this) {
            spec = moved;
            databaseInfo = null;
        }
        for (HikariDataSource p : List.of(pool, metadataPool)) {
            if (p.getHikariPoolMXBean() != null) p.getHikariPoolMXBean().softEvictConnections();
        }
        if (old.isEmbeddedDerby() && !old.database().equals(moved.database())) shutdownEmbeddedDerby(old);
        LOG.warn("replica {} moved from {} to {}", old.name(), old.location(), moved.location());
    }

    /**
     * The replica's dialect, identifier quote and product, read when the pool started (or, for a replica unreachable then,
     * at its first connection; until then an SQLException).
     */
    public DatabaseInfo databaseInfo() throws SQLException {
        DatabaseInfo info = databaseInfo;
        if (info == null) {
            checkDatabase();
            info = databaseInfo;
        }
        return info;
    }

    /** {@link #databaseInfo()} if it was read already (the replica answered once), else {@link DatabaseInfo#UNKNOWN}. */
    public DatabaseInfo databaseInfoIfKnown() {
        DatabaseInfo info = databaseInfo;
        return info == null ? DatabaseInfo.UNKNOWN : info;
    }

    /** Why the replica could not be reached when the pool started, or null when it answered. */
    public SQLException unreachableAtStart() {
        return unreachableAtStart;
    }

    /** Checks the database's settings and reads its product, once (a replica that refuses them cannot be used). */
    private void checkDatabase() throws SQLException {
        if (databaseInfo != null) return;
        synchronized (this) {
            if (databaseInfo != null) return;
            try (Connection first = openPhysical()) {
                try {
                    preparer.prepareDatabase(first);
                } catch (ReplicaRefusedException e) {
                    throw new ReplicaRefusedException("replica " + spec.name() + " (" + spec.dialect() + "): " + e.getMessage());
                }
                DatabaseMetaData md = first.getMetaData();
                String quote = md.getIdentifierQuoteString();
                String schema = first.getSchema();
                if (schema == null) schema = first.getCatalog(); // MySQL, MariaDB: a database is a catalog
                DatabaseInfo info = new DatabaseInfo(spec.dialect(), quote == null ? "" : quote.trim(),
                        md.getDatabaseProductName(), md.getDatabaseProductVersion(), schema == null ? "" : schema);
                first.rollback();
                databaseInfo = info;
            }
        }
    }

    /**
     * A connection for one transaction: manual commit, SERIALIZABLE. Close it after commit/rollback. When every
     * connection stays in use for the connect timeout it fails with 40001 (busy, not broken: retry); when the replica
     * cannot be reached, with the driver's SQLState or 08001.
     */
    public Connection acquire() throws SQLException {
        return acquire(pool, sizeMax);
    }

    private Connection acquire(HikariDataSource from, int connectionsMax) throws SQLException {
        checkDatabase(); // a replica unreachable at start: its settings are checked before it is used
        try {
            return from.getConnection();
        } catch (SQLException e) {
            if (e instanceof SQLTransientConnectionException && e.getCause() == null) {
                // HikariCP timed out without a failed connection attempt behind it: all connections are in use
                throw new SQLTransientConnectionException("replica " + spec.name() + ": all " + connectionsMax
                        + " connections are in use by other transactions (replica.pool.size.max); retry the transaction",
                        "40001", e);
            }
            if (e.getSQLState() != null) throw e;
            throw new SQLException("replica " + spec.name() + " is not reachable: " + e.getMessage(), "08001", e);
        }
    }

    /**
     * A connection for reading metadata (column types for the translator, a client's DatabaseMetaData call, identity
     * columns), from a small pool of its own: a session that holds a transaction's connection may need one, and taking
     * it from the transactions' pool could wait for connections held by sessions that need one too. Close it (after a
     * rollback) when done.
     */
    public Connection acquireForMetadata() throws SQLException {
        return acquire(metadataPool, METADATA_CONNECTIONS_MAX);
    }

    /** Connections the pool opens at most ({@code replica.pool.size.max}). */
    public int sizeMax() {
        return sizeMax;
    }

    /**
     * Takes a connection of {@link #acquire()} out of the pool for good instead of giving it back: it was aborted, and
     * its driver may still end it underneath whoever would borrow it next.
     */
    public void evict(Connection c) {
        try {
            pool.evictConnection(c);
        } catch (RuntimeException e) {
            LOG.debug("evicting a connection of replica {}: {}", spec.name(), e.toString());
        }
    }

    /** Connections handed out and not yet returned. */
    public int activeConnections() {
        return pool.getHikariPoolMXBean() == null ? 0 : pool.getHikariPoolMXBean().getActiveConnections();
    }

    /** Connections open to the replica (active and idle). */
    public int totalConnections() {
        return pool.getHikariPoolMXBean() == null ? 0 : pool.getHikariPoolMXBean().getTotalConnections();
    }

    /** Closes every connection; an embedded Derby database is also shut down so its files are consistent. */
    @Override
    public void close() {
        metadataPool.close();
        pool.close();
        ReplicaSpec s = spec;
        if (s.isEmbeddedDerby()) shutdownEmbeddedDerby(s);
    }

    private static void shutdownEmbeddedDerby(ReplicaSpec spec) {
        try {
            DriverManager.getConnection(spec.database() + ";shutdown=true").close();
        } catch (SQLException e) {
            // Derby reports a successful shutdown of one database with 08006.
            if (!"08006".equals(e.getSQLState())) {
                LOG.warn("shutting down embedded Derby replica {} failed: {}", spec.name(), e.getMessage());
            }
        }
    }

    private Connection openPhysical() throws SQLException {
        ReplicaSpec spec = this.spec;
        Properties p = new Properties();
        if (!spec.user().isEmpty()) p.setProperty("user", spec.user());
        if (!spec.password().isEmpty()) p.setProperty("password", spec.password());
        if ("mysql".equals(spec.dialect())) p.setProperty("useCursorFetch", "true"); // else fetchSize is ignored
        Connection c = DriverManager.getConnection(spec.url(), p);
        try {
            preparer.prepareConnection(c);
            return c;
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private static final class KeepOnFeatureNotSupported implements SQLExceptionOverride {
        @java.lang.Override
        public Override adjudicate(SQLException e) {
            return "0A000".equals(e.getSQLState()) ? Override.DO_NOT_EVICT : Override.CONTINUE_EVICT;
        }
    }

    /** Opens physical connections through DriverManager and prepares each one for replica use. */
    private final class PreparingDataSource implements DataSource {
        private volatile int loginTimeoutSeconds;

        @Override
        public Connection getConnection() throws SQLException {
            return openPhysical();
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            throw new SQLFeatureNotSupportedException("replica credentials come from the replica spec");
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
            // DriverManager logging is not used.
        }

        @Override
        public void setLoginTimeout(int seconds) {
            loginTimeoutSeconds = seconds;
        }

        @Override
        public int getLoginTimeout() {
            return loginTimeoutSeconds;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException("getParentLogger");
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            if (iface.isInstance(this)) return iface.cast(this);
            throw new SQLException("not a wrapper for " + iface.getName());
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return iface.isInstance(this);
        }
    }
}
