package org.shepherd.jdbc;

import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;
import org.shepherd.protocol.ValueType;
import org.shepherd.protocol.v1.Message;

/**
 * A scripted-server handler that runs statements on an embedded Derby database (one JDBC connection per client
 * connection), so that driver tests see real column types and values. Only what the tests use: Execute, Fetch,
 * CloseCursor, transactions, Ping.
 */
final class DerbyBehindScriptedServer implements ScriptedServer.Handler {

    private final String derbyUrl;
    private final Map<ScriptedServer.Conn, Session> sessions = new IdentityHashMap<>();

    private static final class Session {
        final Connection db;
        ResultSet open;
        int cursorId;
        List<ColumnInfo> columns;

        Session(Connection db) {
            this.db = db;
        }
    }

    DerbyBehindScriptedServer(String derbyUrl) {
        this.derbyUrl = derbyUrl;
    }

    @Override
    public synchronized List<Message> answer(Message request, ScriptedServer.Conn conn) throws Exception {
        Session s = sessions.get(conn);
        if (s == null) {
            s = new Session(DriverManager.getConnection(derbyUrl));
            sessions.put(conn, s);
        }
        try {
            return handle(s, request);
        } catch (SQLException e) {
            return ScriptedServer.one(new Message.Error(e.getSQLState() == null ? "" : e.getSQLState(), e.getErrorCode(),
                    e.getMessage()));
        }
    }

    private List<Message> handle(Session s, Message request) throws SQLException {
        if (request instanceof Message.Execute e) {
            closeOpen(s);
            PreparedStatement ps = e.options().returnGeneratedKeys()
                    ? s.db.prepareStatement(e.sql(), Statement.RETURN_GENERATED_KEYS) : s.db.prepareStatement(e.sql());
            for (int i = 0; i < e.params().size(); i++) bind(ps, i + 1, e.params().get(i));
            if (ps.execute()) {
                s.open = ps.getResultSet();
                s.cursorId++;
                s.columns = columns(s.open.getMetaData());
                int fetch = e.options().fetchSize() == 0 ? 1000 : e.options().fetchSize();
                return List.of(new Message.ResultHeader(s.cursorId, s.columns, List.of()), batch(s, fetch));
            }
            long count = ps.getLargeUpdateCount();
            List<ColumnInfo> keyCols = List.of();
            List<Object[]> keys = new ArrayList<>();
            if (e.options().returnGeneratedKeys()) {
                try (ResultSet k = ps.getGeneratedKeys()) {
                    keyCols = columns(k.getMetaData());
                    while (k.next()) keys.add(row(k, keyCols));
                }
            }
            ps.close();
            return ScriptedServer.one(new Message.UpdateResult(count, keyCols, keys, List.of()));
        }
        if (request instanceof Message.Fetch f) return ScriptedServer.one(batch(s, f.maxRows() == 0 ? Integer.MAX_VALUE : f.maxRows()));
        if (request instanceof Message.CloseCursor) {
            closeOpen(s);
            return ScriptedServer.one(new Message.Ok());
        }
        if (request instanceof Message.SetAutoCommit a) {
            s.db.setAutoCommit(a.autoCommit());
        } else if (request instanceof Message.Commit) {
            s.db.commit();
        } else if (request instanceof Message.Rollback) {
            s.db.rollback();
        } else if (request instanceof Message.Ping) {
            return ScriptedServer.one(new Message.Pong());
        } else {
            return ScriptedServer.one(new Message.Error("0A000", 0, request.type() + " is not scripted"));
        }
        return ScriptedServer.one(new Message.Ok());
    }

    private static void closeOpen(Session s) throws SQLException {
        if (s.open != null) {
            Statement st = s.open.getStatement();
            s.open.close();
            st.close();
            s.open = null;
        }
    }

    private static Message.RowBatch batch(Session s, int max) throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        boolean last = false;
        while (rows.size() < max) {
            if (!s.open.next()) {
                last = true;
                break;
            }
            rows.add(row(s.open, s.columns));
        }
        int id = s.cursorId;
        if (last) closeOpen(s);
        return new Message.RowBatch(id, rows, last);
    }

    private static List<ColumnInfo> columns(ResultSetMetaData md) throws SQLException {
        List<ColumnInfo> out = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            out.add(new ColumnInfo(md.getColumnLabel(i), md.getColumnName(i), md.getColumnType(i), md.getColumnTypeName(i),
                    md.getPrecision(i), md.getScale(i), md.isNullable(i), md.getTableName(i), md.isAutoIncrement(i)));
        }
        return out;
    }

    private static Object[] row(ResultSet rs, List<ColumnInfo> columns) throws SQLException {
        Object[] row = new Object[columns.size()];
        for (int i = 0; i < row.length; i++) {
            int c = i + 1;
            Object v;
            switch (columns.get(i).valueType()) {
                case BOOLEAN:
                    v = rs.getBoolean(c);
                    break;
                case LONG:
                    v = rs.getLong(c);
                    break;
                case DECIMAL:
                    v = rs.getBigDecimal(c);
                    break;
                case DOUBLE:
                    v = rs.getDouble(c);
                    break;
                case BYTES:
                    v = rs.getBytes(c);
                    break;
                case DATE: {
                    Date d = rs.getDate(c);
                    v = d == null ? null : d.toLocalDate();
                    break;
                }
                case TIME: {
                    Time t = rs.getTime(c);
                    v = t == null ? null : t.toLocalTime();
                    break;
                }
                case TIMESTAMP: {
                    Timestamp t = rs.getTimestamp(c);
                    v = t == null ? null : t.toLocalDateTime();
                    break;
                }
                default:
                    v = rs.getString(c);
                    break;
            }
            row[i] = rs.wasNull() ? null : v;
        }
        return row;
    }

    private static void bind(PreparedStatement ps, int i, Param p) throws SQLException {
        Object v = p.value();
        if (v == null) {
            // as the shepherd binds a NULL for Derby: with the parameter's type (Derby refuses NULL of another type)
            ps.setNull(i, ps.getParameterMetaData().getParameterType(i));
            return;
        }
        switch (ValueType.of(v)) {
            case DATE:
                ps.setDate(i, Date.valueOf((LocalDate) v));
                break;
            case TIME:
                ps.setTime(i, Time.valueOf((LocalTime) v));
                break;
            case TIMESTAMP:
                ps.setTimestamp(i, Timestamp.valueOf((LocalDateTime) v));
                break;
            default:
                ps.setObject(i, v);
                break;
        }
    }

    synchronized void close() throws SQLException {
        for (Session s : sessions.values()) s.db.close();
        sessions.clear();
    }
}
