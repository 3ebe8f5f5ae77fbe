package org.shepherd.client;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLWarning;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.shepherd.protocol.Param;
import org.shepherd.protocol.v1.Message;
import org.shepherd.protocol.v1.StatementOptions;
import org.shepherd.protocol.v1.WarningInfo;

/**
 * The requests of one session, over one {@link ProtocolConnection}. Requests are serialized (one in flight).
 * At most one cursor is open on the shepherd per session: before any other request, a cursor still open is read
 * to its end into client memory, so the application's result set stays valid.
 */
public final class QueryExecutor implements AutoCloseable {

    private final ProtocolConnection conn;
    private final int defaultFetchSize;
    private final ReentrantLock lock = new ReentrantLock();
    private Cursor openCursor;
    private volatile boolean inFlight;

    public QueryExecutor(ProtocolConnection conn, int defaultFetchSize) {
        this.conn = conn;
        this.defaultFetchSize = defaultFetchSize;
    }

    public ProtocolConnection connection() {
        return conn;
    }

    public Result execute(String sql, List<Param> params, StatementOptions options) throws SQLException {
        return locked(() -> toResult(request(new Message.Execute(sql, params, options)), options.fetchSize()));
    }

    public Message.PrepareOk prepare(String sql) throws SQLException {
        return locked(() -> expect(Message.PrepareOk.class, request(new Message.Prepare(sql))));
    }

    public void closePrepared(int statementId) throws SQLException {
        locked(() -> expect(Message.Ok.class, request(new Message.ClosePrepared(statementId))));
    }

    /**
     * One update count per element, and the elements' generated keys when {@code options} ask for them; a failure is a
     * {@link java.sql.BatchUpdateException} with the counts done.
     */
    public Result.Batch executeBatch(String sql, List<List<Param>> parameterSets, List<String> statements,
                                     StatementOptions options) throws SQLException {
        return locked(() -> {
            Message m = request(new Message.ExecuteBatch(sql, parameterSets, statements, options));
            if (m instanceof Message.Error e) {
                closeIfConnectionError(e);
                throw ServerErrors.toBatchException(e);
            }
            Message.BatchResult r = expect(Message.BatchResult.class, m);
            return new Result.Batch(r.counts(), r.keyColumns(), r.keyRows(), warnings(r.warnings()));
        });
    }

    /** A {@link java.sql.DatabaseMetaData} call answered by the shepherd from the primary's metadata. */
    public Cursor metadata(String method, List<Object> arguments) throws SQLException {
        Result r = locked(() -> toResult(request(new Message.Metadata(method, arguments)), 0));
        if (r instanceof Result.Rows rows) return rows.cursor();
        throw violation("metadata call " + method + " answered with an update count");
    }

    public List<SQLWarning> commit() throws SQLException {
        return locked(() -> ok(request(new Message.Commit())));
    }

    public List<SQLWarning> rollback() throws SQLException {
        return locked(() -> ok(request(new Message.Rollback())));
    }

    public List<SQLWarning> setAutoCommit(boolean autoCommit) throws SQLException {
        return locked(() -> ok(request(new Message.SetAutoCommit(autoCommit))));
    }

    public List<SQLWarning> setReadOnly(boolean readOnly) throws SQLException {
        return locked(() -> ok(request(new Message.SetReadOnly(readOnly))));
    }

    /**
     * Round trip bounded by {@code timeoutMs} (0 = no bound), including the wait for another thread's request on
     * this connection; false when it failed (the connection is then closed) or did not complete in time.
     */
    public boolean ping(int timeoutMs) {
        if (conn.isClosed()) return false;
        try {
            if (timeoutMs == 0) {
                lock.lock();
            } else if (!lock.tryLock(timeoutMs, TimeUnit.MILLISECONDS)) {
                return false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        try {
            return pingLocked(timeoutMs);
        } finally {
            lock.unlock();
        }
    }

    private boolean pingLocked(int timeoutMs) {
        try {
            int before = conn.socketTimeout();
            conn.setSocketTimeout(timeoutMs);
            try {
                expect(Message.Pong.class, request(new Message.Ping()));
            } finally {
                if (!conn.isClosed()) conn.setSocketTimeout(before);
            }
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    public void cancel() throws SQLException {
        conn.cancel();
    }

    public boolean isClosed() {
        return conn.isClosed();
    }

    @Override
    public void close() {
        lock.lock();
        try {
            openCursor = null;
            conn.close();
        } finally {
            lock.unlock();
        }
    }

    private interface SqlCall<T> {
        T call() throws SQLException;
    }

    private <T> T locked(SqlCall<T> call) throws SQLException {
        lock.lock();
        try {
            return call.call();
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- cursors

    void fetch(Cursor cursor, int maxRows) throws SQLException {
        locked(() -> {
            fetchLocked(cursor, maxRows);
            return null;
        });
    }

    private void fetchLocked(Cursor cursor, int maxRows) throws SQLException {
        Message m = roundTrip(new Message.Fetch(cursor.cursorId(), maxRows));
        if (m instanceof Message.Error e) {
            if (openCursor == cursor) openCursor = null;
            cursor.fail();
            throw serverError(e);
        }
        Message.RowBatch batch = expect(Message.RowBatch.class, m);
        if (batch.cursorId() != cursor.cursorId()) {
            throw violation("RowBatch for cursor " + batch.cursorId() + " while fetching " + cursor.cursorId());
        }
        cursor.accept(batch);
        if (!cursor.remoteOpen() && openCursor == cursor) openCursor = null;
    }

    void closeCursor(Cursor cursor) throws SQLException {
        locked(() -> {
            if (openCursor != cursor) return null;
            openCursor = null;
            return expect(Message.Ok.class, roundTrip(new Message.CloseCursor(cursor.cursorId())));
        });
    }

    private Result toResult(Message m, int fetchSize) throws SQLException {
        if (m instanceof Message.UpdateResult u) {
            return new Result.Update(u.count(), u.keyColumns(), u.keyRows(), warnings(u.warnings()));
        }
        if (m instanceof Message.ResultHeader h) {
            Message next = receive();
            Message.RowBatch first = expect(Message.RowBatch.class, next);
            if (first.cursorId() != h.cursorId()) throw violation("RowBatch of another cursor after ResultHeader");
            Cursor c = new Cursor(this, h.cursorId(), h.columns(), warnings(h.warnings()),
                    fetchSize == 0 ? defaultFetchSize : fetchSize);
            c.accept(first);
            if (c.remoteOpen()) openCursor = c;
            return new Result.Rows(c);
        }
        if (m instanceof Message.Error e) throw serverError(e);
        throw violation("unexpected " + m.type() + " as the answer to a statement");
    }

    private <T extends Message> T expect(Class<T> type, Message m) throws SQLException {
        if (type.isInstance(m)) return type.cast(m);
        if (m instanceof Message.Error e) throw serverError(e);
        throw violation("expected " + type.getSimpleName() + ", got " + m.type());
    }

    private List<SQLWarning> ok(Message m) throws SQLException {
        return warnings(expect(Message.Ok.class, m).warnings());
    }

    static List<SQLWarning> warnings(List<WarningInfo> infos) {
        if (infos.isEmpty()) return List.of();
        List<SQLWarning> out = new ArrayList<>(infos.size());
        for (WarningInfo w : infos) out.add(w.toSqlWarning());
        return out;
    }

    /** Sends a request that is not about the open cursor: drains that cursor first. */
    private Message request(Message m) throws SQLException {
        if (openCursor != null) {
            Cursor c = openCursor;
            c.drain();
            openCursor = null;
        }
        return roundTrip(m);
    }

    private Message roundTrip(Message m) throws SQLException {
        ensureOpen();
        inFlight = true;
        try {
            conn.send(m);
        } catch (IOException e) {
            inFlight = false;
            throw broken(e);
        } catch (OversizedRequestException e) {
            inFlight = false;
            throw e.toSqlException();
        } catch (IllegalArgumentException e) {
            inFlight = false;
            throw new SQLException("cannot encode the request: " + e.getMessage(), "22000", e);
        }
        return receive();
    }

    private Message receive() throws SQLException {
        inFlight = true;
        try {
            return conn.receive();
        } catch (IOException e) {
            throw broken(e);
        } finally {
            inFlight = false;
        }
    }

    /** True while a request waits for its answer (another thread is inside the executor). */
    public boolean busy() {
        return inFlight;
    }

    /** The server's error; a connection-class error (08xxx) means the shepherd is closing the session. */
    private SQLException serverError(Message.Error e) {
        closeIfConnectionError(e);
        return ServerErrors.toException(e);
    }

    private void closeIfConnectionError(Message.Error e) {
        if (e.sqlState().startsWith("08")) {
            conn.abort();
            openCursor = null;
        }
    }

    private void ensureOpen() throws SQLException {
        if (conn.isClosed()) {
            throw new SQLNonTransientConnectionException("the connection is closed", ServerErrors.CONNECTION_DOES_NOT_EXIST);
        }
    }

    private SQLException broken(IOException e) {
        conn.abort();
        openCursor = null;
        String what = e instanceof java.net.SocketTimeoutException ? "socket timeout expired" : e.getMessage();
        return new SQLNonTransientConnectionException("connection to the shepherd broke (" + what
                + "); the connection is closed", ServerErrors.CONNECTION_FAILURE, e);
    }

    private SQLException violation(String what) {
        conn.abort();
        openCursor = null;
        return new SQLNonTransientConnectionException("protocol violation: " + what + "; the connection is closed",
                ServerErrors.CONNECTION_FAILURE);
    }
}
