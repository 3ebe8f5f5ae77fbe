package org.shepherd.coordinator.passthrough;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.List;
import org.shepherd.admin.AdminQueries;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.BatchAnswer;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.MetadataRequest;
import org.shepherd.coordinator.Session;
import org.shepherd.coordinator.SessionSettings;
import org.shepherd.coordinator.StatementDescription;
import org.shepherd.protocol.Param;
import org.shepherd.replica.jdbc.JdbcCursor;
import org.shepherd.replica.jdbc.JdbcExecution;
import org.shepherd.replica.jdbc.JdbcValues;
import org.shepherd.replica.jdbc.MetadataCalls;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.replica.jdbc.StatementCache;
import org.shepherd.translator.SessionSetting;
import org.shepherd.translator.Translator;
import org.shepherd.translator.dialect.Dialect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client session on the single replica. The replica connection is taken from the pool when a transaction
 * starts and returned after its commit or rollback; in autocommit mode every statement is its own transaction,
 * committed when its update count is known or when its result set is closed.
 *
 * <p>Methods are synchronized (the frontend calls them from one worker at a time anyway) except
 * {@link #cancel()}, which only flags and forwards to the running statement.
 */
final class PassthroughSession implements Session {

    private static final Logger LOG = LoggerFactory.getLogger(PassthroughSession.class);

    private final PassthroughCoordinator owner;
    private final ReplicaPool replica;
    private final JdbcValues values;
    private final StatementCache statements;
    private final int fetchSizeDefault;
    private final Dialect dialect;

    private volatile Connection connection;
    private volatile boolean autoCommit = true;
    private boolean readOnly;
    private boolean closed;
    private volatile Statement running;
    private volatile JdbcCursor cursor;

    PassthroughSession(PassthroughCoordinator owner, ReplicaPool replica, JdbcValues values, StatementCache statements,
            int fetchSizeDefault) {
        this.owner = owner;
        this.replica = replica;
        this.values = values;
        this.statements = statements;
        this.fetchSizeDefault = fetchSizeDefault;
        try {
            this.dialect = Dialect.forName(replica.spec().dialect());
        } catch (SQLException e) {
            throw new IllegalArgumentException(e.getMessage(), e); // the configuration checked the dialect
        }
    }

    @Override
    public synchronized Answer execute(String clientSql, List<Param> params, ExecOptions options) throws SQLException {
        ensureOpen();
        SessionSetting setting = SessionSetting.of(clientSql);
        if (setting != null) return SessionSettings.answer(setting, clientSql, null);
        closeCursor();
        String savepointSql = Translator.savepointStatementFor(clientSql, dialect);
        if (savepointSql != null && autoCommit) {
            throw new SQLException("no transaction is open for " + clientSql.strip() + ": savepoints need autocommit off",
                    "25000");
        }
        // a savepoint statement in the database's own spelling (Derby's needs ON ROLLBACK RETAIN CURSORS)
        String sql = savepointSql != null ? savepointSql : clientSql;
        Connection c = connection();
        statements.invalidateAfter(sql);
        boolean cached = !params.isEmpty() || options.returnGeneratedKeys();
        Statement st = null;
        try {
            int fetchSize = options.fetchSize() > 0 ? options.fetchSize() : fetchSizeDefault;
            st = cached
                    ? statements.prepare(c, sql, options, fetchSize)
                    : JdbcExecution.create(c, sql, false, options, fetchSize);
            running = st;
            if (JdbcExecution.execute(st, sql, params, values, options)) {
                Statement owned = st;
                JdbcCursor rows = new JdbcCursor(cached ? null : st, st.getResultSet(), values,
                        failed -> cursorClosed(c, sql, owned, cached, options.returnGeneratedKeys(), failed));
                Answer answer = new Answer.Rows(rows, JdbcExecution.warnings(st));
                cursor = rows;
                return answer;
            }
            Answer.Update update = JdbcExecution.update(st, options, values);
            if (cached) statements.release(c, sql, (PreparedStatement) st, options.returnGeneratedKeys());
            else st.close();
            if (autoCommit) endTransaction(true);
            return update;
        } catch (SQLException | RuntimeException e) {
            if (cursor == null) closeQuietly(st);
            if (autoCommit) endTransaction(false);
            throw JdbcExecution.toSqlException(e);
        } finally {
            running = null;
        }
    }

    @Override
    public synchronized BatchAnswer executeBatch(String sql, List<List<Param>> parameterSets, List<String> statements,
            ExecOptions options) throws SQLException {
        ensureOpen();
        SessionSettings.refuseInBatch(sql, statements);
        closeCursor();
        Connection c = connection();
        try {
            BatchAnswer answer = JdbcExecution.executeBatch(c, sql, parameterSets, statements, values, options, s -> running = s);
            if (autoCommit) endTransaction(true);
            return answer;
        } catch (SQLException | RuntimeException e) {
            if (autoCommit) endTransaction(false);
            throw JdbcExecution.toSqlException(e);
        }
    }

    @Override
    public synchronized Answer metadata(MetadataRequest request) throws SQLException {
        ensureOpen();
        if (AdminQueries.reserved(request)) return AdminQueries.answer(owner, request);
        closeCursor();
        Connection c = connection();
        try {
            if (dialect.family() == Dialect.Family.MYSQL) request = MetadataCalls.inDatabase(request, c.getCatalog());
            ResultSet rs = MetadataCalls.invoke(c.getMetaData(), request);
            JdbcCursor rows = new JdbcCursor(null, rs, values, this::cursorClosed);
            cursor = rows;
            return new Answer.Rows(rows, List.of());
        } catch (SQLException | RuntimeException e) {
            if (autoCommit) endTransaction(false);
            throw JdbcExecution.toSqlException(e);
        }
    }

    /** Prepares the statement on the replica to read its parameter and result metadata. */
    @Override
    public synchronized StatementDescription describe(String sql) throws SQLException {
        ensureOpen();
        boolean ownConnection = connection == null;
        Connection c = connection();
        try {
            return JdbcExecution.describe(c, sql);
        } finally {
            if (ownConnection && cursor == null) endTransaction(false);
        }
    }

    @Override
    public synchronized void setAutoCommit(boolean on) throws SQLException {
        ensureOpen();
        if (on == autoCommit) return;
        if (on) commit(); // JDBC: switching autocommit on commits the transaction in progress
        autoCommit = on;
    }

    @Override
    public boolean inTransaction() {
        return !autoCommit && connection != null;
    }

    @Override
    public synchronized boolean autoCommit() {
        return autoCommit;
    }

    @Override
    public synchronized void setReadOnly(boolean on) throws SQLException {
        ensureOpen();
        if (connection != null) connection.setReadOnly(on);
        readOnly = on;
    }

    @Override
    public synchronized void commit() throws SQLException {
        ensureOpen();
        closeCursor();
        endTransaction(true);
    }

    @Override
    public synchronized void rollback() throws SQLException {
        ensureOpen();
        closeCursor();
        endTransaction(false);
    }

    @Override
    public void cancel() {
        JdbcCursor c = cursor;
        if (c != null) c.cancel();
        Statement st = running;
        if (st == null) return;
        try {
            st.cancel();
        } catch (SQLFeatureNotSupportedException e) {
            LOG.debug("replica {} cannot cancel a running statement; it runs to its end or its timeout",
                    replica.spec().name());
        } catch (SQLException e) {
            LOG.debug("cancel on replica {} failed: {}", replica.spec().name(), e.getMessage());
        }
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        try {
            closeCursor();
        } catch (SQLException e) {
            LOG.debug("closing the cursor of a closing session failed: {}", e.getMessage());
        }
        try {
            endTransaction(false);
        } catch (SQLException e) {
            LOG.debug("rolling back a closing session failed: {}", e.getMessage());
        }
        owner.forget(this);
    }

    /** True while a replica connection is held (a transaction or a result is open). For tests. */
    synchronized boolean holdsConnection() {
        return connection != null;
    }

    private void ensureOpen() throws SQLException {
        if (closed) throw new SQLException("session is closed", "08003");
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            Connection c = replica.acquire();
            try {
                if (readOnly) c.setReadOnly(true);
            } catch (SQLException e) {
                c.close();
                throw e;
            }
            connection = c;
        }
        return connection;
    }

    private void closeCursor() throws SQLException {
        JdbcCursor c = cursor;
        if (c != null) c.close(); // cursorClosed clears the field
    }

    private synchronized void cursorClosed(Connection c, String sql, Statement st, boolean cached, boolean keys,
            boolean failed) throws SQLException {
        if (cached) {
            if (failed) StatementCache.discard(st);
            else statements.release(c, sql, (PreparedStatement) st, keys);
        }
        cursorClosed(failed);
    }

    private synchronized void cursorClosed(boolean failed) throws SQLException {
        cursor = null;
        if (autoCommit) endTransaction(!failed);
    }

    /** Commits or rolls back what the held connection did, then returns it to the pool. */
    private void endTransaction(boolean commit) throws SQLException {
        Connection c = connection;
        if (c == null) return;
        connection = null;
        try {
            if (commit) c.commit();
            else c.rollback();
        } catch (SQLException e) {
            if (commit) {
                try {
                    c.rollback();
                } catch (SQLException ignored) {
                    // the connection is broken; closing it below evicts it from the pool
                }
            }
            throw e;
        } finally {
            c.close();
        }
    }

    private static void closeQuietly(Statement st) {
        if (st == null) return;
        try {
            st.close();
        } catch (SQLException e) {
            LOG.debug("closing a failed statement: {}", e.getMessage());
        }
    }
}
