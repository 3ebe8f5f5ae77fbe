package org.shepherd.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.shepherd.admin.AdminQueries;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.BatchAnswer;
import org.shepherd.coordinator.DatabaseInfo;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.MetadataRequest;
import org.shepherd.coordinator.ResultCursor;
import org.shepherd.coordinator.Session;
import org.shepherd.coordinator.StatementDescription;
import org.shepherd.protocol.Param;
import org.shepherd.protocol.v1.Message;
import org.shepherd.protocol.v1.MessageCodec;
import org.shepherd.protocol.v1.Protocol;
import org.shepherd.protocol.v1.StatementOptions;
import org.shepherd.protocol.v1.WarningInfo;
import org.shepherd.replica.QueryTimeouts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker side of one authenticated client connection: runs its requests against its coordinator
 * {@link Session}, one at a time and in order (a {@link SerialExecutor}), never on an event loop, and writes the
 * answers. Owns the session's open cursor and prepared statements.
 */
final class ClientSession {

    private static final Logger LOG = LoggerFactory.getLogger(ClientSession.class);

    /** Prepared statements one connection may hold at once; more fail with SQLState 54000. */
    static final int PREPARED_STATEMENTS_MAX = 10_000;

    final long sessionId;
    final long cancelKey;
    private final ShepherdServer server;
    private final Channel channel;
    private final SerialExecutor executor;
    private final int clientMaxFrameBytes;
    private final Map<Integer, String> prepared = new HashMap<>();
    private volatile Session session;
    /** The authenticated user, set when the session opens. */
    private volatile String user;
    private volatile boolean closed;
    private final AtomicBoolean releaseQueued = new AtomicBoolean();
    private int nextStatementId;
    private int nextCursorId;
    private OpenCursor cursor;

    /** A result being streamed: the coordinator's cursor and the rows held back to keep a frame small enough. */
    private static final class OpenCursor {
        final int id;
        final ResultCursor rows;
        final int fetchSize;
        final ArrayDeque<Object[]> held = new ArrayDeque<>();

        OpenCursor(int id, ResultCursor rows, int fetchSize) {
            this.id = id;
            this.rows = rows;
            this.fetchSize = fetchSize;
        }

        List<Object[]> next(int maxRows) throws SQLException {
            if (held.isEmpty()) return rows.fetch(maxRows);
            List<Object[]> out = new ArrayList<>(Math.min(maxRows, held.size()));
            while (out.size() < maxRows && !held.isEmpty()) out.add(held.poll());
            return out;
        }

        boolean done() {
            return held.isEmpty() && rows.exhausted();
        }
    }

    ClientSession(ShepherdServer server, Channel channel, long sessionId, long cancelKey, int clientMaxFrameBytes) {
        this.server = server;
        this.channel = channel;
        this.sessionId = sessionId;
        this.cancelKey = cancelKey;
        this.clientMaxFrameBytes = clientMaxFrameBytes;
        this.executor = new SerialExecutor(server.workers(), server.config().sessionQueuedRequestsMax());
    }

    /** Opens the coordinator session on a worker, then answers Ready (or an Error and closes). */
    void open(String user, String database) {
        executor.submitUnbounded(() -> {
            if (closed) return;
            try {
                this.user = user;
                session = server.coordinator().openSession(user, database);
                DatabaseInfo info = server.coordinator().databaseInfo();
                send(new Message.Ready(sessionId, cancelKey, ShepherdServer.VERSION, info.sqlDialect(),
                        info.identifierQuote(), info.productName(), info.productVersion()));
            } catch (SQLException | RuntimeException e) {
                sendAndClose(error(e));
            }
        });
    }

    /** Queues a request; false when the client sent more requests ahead than allowed. */
    boolean submit(Message request) {
        return executor.submit(() -> {
            if (!closed) handle(request);
        });
    }

    /** Nothing running or waiting for this client. */
    boolean idle() {
        return executor.idle();
    }

    /** A transaction outside autocommit is open (read from the event loop without waiting for the session). */
    boolean inTransaction() {
        Session s = session;
        return s != null && s.inTransaction();
    }

    void pauseIfUnwritable() {
        executor.pause();
        if (channel.isWritable()) executor.resume();
    }

    void resume() {
        executor.resume();
    }

    /** Asks the statement running now to stop. Any thread; may block briefly on the replica. */
    void cancel() {
        Session s = session;
        if (s != null) s.cancel();
    }

    /** The connection is gone: stop what runs, then release the cursor, the transaction and the replica connections. */
    void disconnected() {
        if (!releaseQueued.compareAndSet(false, true)) return;
        closed = true;
        server.runOnWorker(this::cancel);
        executor.submitLast(this::release);
    }

    private void release() {
        try {
            dropCursor();
            Session s = session;
            if (s != null) s.close();
        } catch (RuntimeException e) {
            LOG.warn("closing session {} failed", sessionId, e);
        } finally {
            server.unregister(this);
        }
    }

    private void handle(Message m) {
        try {
            if (m instanceof Message.Execute e) {
                execute(e.sql(), e.params(), e.options());
            } else if (m instanceof Message.ExecutePrepared e) {
                String sql = prepared.get(e.statementId());
                if (sql == null) throw new SQLException("no prepared statement " + e.statementId(), "26000");
                execute(sql, e.params(), e.options());
            } else if (m instanceof Message.Fetch f) {
                fetch(f);
            } else if (m instanceof Message.CloseCursor c) {
                if (cursor != null && cursor.id == c.cursorId()) dropCursor();
                send(new Message.Ok());
            } else if (m instanceof Message.Prepare p) {
                if (prepared.size() >= PREPARED_STATEMENTS_MAX) {
                    throw new SQLException("more than " + PREPARED_STATEMENTS_MAX + " prepared statements open on one "
                            + "connection; close some", "54000");
                }
                StatementDescription d = session.describe(p.sql());
                int id = ++nextStatementId;
                prepared.put(id, p.sql());
                send(new Message.PrepareOk(id, d.parameterCount(), d.parameterTypes(), d.columns()));
            } else if (m instanceof Message.ClosePrepared c) {
                prepared.remove(c.statementId());
                send(new Message.Ok());
            } else if (m instanceof Message.ExecuteBatch b) {
                executeBatch(b);
            } else if (m instanceof Message.Metadata md) {
                dropCursor();
                MetadataRequest request = new MetadataRequest(md.method(), md.arguments());
                if (AdminQueries.isAction(request) && !server.config().mayAdminister(user)) {
                    throw new SQLException("user " + user + " may not run " + md.method() + ", which changes what the shepherd"
                            + " does: set user." + user + ".admin=true in the configuration", "42501");
                }
                sendRows((Answer.Rows) session.metadata(request), 0);
            } else if (m instanceof Message.Commit) {
                dropCursor();
                session.commit();
                send(new Message.Ok());
            } else if (m instanceof Message.Rollback) {
                dropCursor();
                session.rollback();
                send(new Message.Ok());
            } else if (m instanceof Message.SetAutoCommit a) {
                session.setAutoCommit(a.autoCommit());
                send(new Message.Ok());
            } else if (m instanceof Message.SetReadOnly r) {
                session.setReadOnly(r.readOnly());
                send(new Message.Ok());
            } else if (m instanceof Message.Ping) {
                send(new Message.Pong());
            } else if (m instanceof Message.Terminate) {
                channel.close();
            } else {
                sendAndClose(new Message.Error("08P01", 0, "unexpected " + m.type() + " after the session opened"));
            }
        } catch (SQLException | RuntimeException e) {
            if (!(e instanceof SQLException)) LOG.error("request {} of session {} failed", m.type(), sessionId, e);
            send(error(e));
        } catch (StackOverflowError | LinkageError e) {
            // the client must not wait for ever, and the session's state is unknown: answer, then close this connection
            LOG.error("request {} of session {} failed; closing the session", m.type(), sessionId, e);
            sendAndClose(new Message.Error(e instanceof StackOverflowError ? "54001" : "XX000", 0,
                    (e instanceof StackOverflowError ? "request too complex for the shepherd (" : "internal error (") + e
                            + "); the shepherd closed this connection, the others are served on"));
        }
    }

    private void execute(String sql, List<Param> params, StatementOptions o) throws SQLException {
        dropCursor();
        ExecOptions options = new ExecOptions(o.maxRows(), o.fetchSize(), o.queryTimeoutSeconds(), o.returnGeneratedKeys());
        Answer answer = session.execute(sql, params, options);
        if (answer instanceof Answer.Rows rows) {
            sendRows(rows, o.fetchSize());
        } else {
            Answer.Update u = (Answer.Update) answer;
            send(new Message.UpdateResult(u.count(), u.keyColumns(), u.generatedKeys(), warnings(u.warnings())));
        }
    }

    private void executeBatch(Message.ExecuteBatch b) throws SQLException {
        dropCursor();
        StatementOptions o = b.options();
        ExecOptions options = new ExecOptions(o.maxRows(), o.fetchSize(), o.queryTimeoutSeconds(), o.returnGeneratedKeys());
        try {
            BatchAnswer a = session.executeBatch(b.sql(), b.parameterSets(), b.statements(), options);
            send(new Message.BatchResult(a.counts(), a.keyColumns(), a.generatedKeys(), List.of()));
        } catch (BatchUpdateException e) {
            long[] done = e.getLargeUpdateCounts() != null ? e.getLargeUpdateCounts() : new long[0];
            Message.Error err = error(e);
            send(new Message.Error(err.sqlState(), err.vendorCode(), err.message(), done));
        }
    }

    private void sendRows(Answer.Rows answer, int clientFetchSize) throws SQLException {
        int fetchSize = clientFetchSize > 0 ? clientFetchSize : server.config().fetchSizeDefault();
        OpenCursor c = new OpenCursor(++nextCursorId, answer.cursor(), fetchSize);
        cursor = c;
        send(new Message.ResultHeader(c.id, c.rows.columns(), warnings(answer.warnings())));
        sendBatch(c, fetchSize);
    }

    private void fetch(Message.Fetch f) throws SQLException {
        OpenCursor c = cursor;
        if (c == null || c.id != f.cursorId()) throw new SQLException("no open cursor " + f.cursorId(), "24000");
        sendBatch(c, f.maxRows() > 0 ? f.maxRows() : c.fetchSize);
    }

    /** Sends the next batch; when the client's frame limit would be exceeded, fewer rows (the rest is held). */
    private void sendBatch(OpenCursor c, int maxRows) throws SQLException {
        byte[] frame;
        try {
            List<Object[]> rows = c.next(maxRows);
            while (true) {
                boolean last = c.done();
                frame = MessageCodec.encodeFrame(new Message.RowBatch(c.id, rows, last));
                if (frame.length - 4 <= clientMaxFrameBytes) {
                    if (last) {
                        cursor = null;
                        c.rows.close(); // in autocommit mode this commits: an error then replaces the last batch
                    }
                    break;
                }
                if (rows.size() <= 1) {
                    throw new SQLException("a row of the result needs a frame of " + (frame.length - 4)
                            + " bytes, more than the client's maximum of " + clientMaxFrameBytes
                            + " (raise maxFrameBytes on the client and protocol.max.frame.bytes on the server)", "54000");
                }
                int keep = rows.size() / 2;
                for (int i = rows.size() - 1; i >= keep; i--) c.held.addFirst(rows.get(i));
                rows = new ArrayList<>(rows.subList(0, keep));
            }
        } catch (SQLException | RuntimeException e) {
            dropCursor();
            throw e;
        }
        write(frame);
        if (channel.isActive() && !channel.isWritable()) pauseIfUnwritable();
    }

    private void dropCursor() {
        OpenCursor c = cursor;
        if (c == null) return;
        cursor = null;
        try {
            c.rows.close();
        } catch (SQLException | RuntimeException e) {
            LOG.debug("closing cursor {} of session {}: {}", c.id, sessionId, e.getMessage());
        }
    }

    private void send(Message m) {
        byte[] frame = MessageCodec.encodeFrame(m);
        if (frame.length - 4 > clientMaxFrameBytes) {
            frame = MessageCodec.encodeFrame(new Message.Error("54000", 0, "the answer needs a frame of "
                    + (frame.length - 4) + " bytes, more than the client's maximum of " + clientMaxFrameBytes));
        }
        write(frame);
    }

    private void sendAndClose(Message m) {
        closed = true;
        channel.writeAndFlush(Unpooled.wrappedBuffer(MessageCodec.encodeFrame(m))).addListener(ChannelFutureListener.CLOSE);
    }

    private void write(byte[] frame) {
        channel.writeAndFlush(Unpooled.wrappedBuffer(frame));
    }

    static Message.Error error(Throwable e) {
        if (e instanceof SQLException s) {
            String vendorState = QueryTimeouts.clientSqlState(s);
            String state = vendorState == null || vendorState.isEmpty() ? "HY000" : vendorState;
            return new Message.Error(state, s.getErrorCode(), s.getMessage() == null ? s.toString() : s.getMessage());
        }
        return new Message.Error("XX000", 0, "internal error in the shepherd: " + e);
    }

    private static List<WarningInfo> warnings(List<SQLWarning> warnings) {
        List<WarningInfo> out = new ArrayList<>(warnings.size());
        for (SQLWarning w : warnings) out.add(WarningInfo.of(w));
        return out;
    }

    /** The client's maximum frame from its Startup properties, never above the server's own maximum. */
    static int clientMaxFrameBytes(Map<String, String> startupProperties, int serverMaxFrameBytes) {
        String v = startupProperties.get("maxFrameBytes");
        int client = Protocol.DEFAULT_MAX_FRAME_BYTES;
        if (v != null) {
            try {
                client = Integer.parseInt(v.trim());
            } catch (NumberFormatException e) {
                client = Protocol.DEFAULT_MAX_FRAME_BYTES;
            }
        }
        return Math.max(1024, Math.min(client, serverMaxFrameBytes));
    }
}
