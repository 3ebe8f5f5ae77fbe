package org.shepherd.replica.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.shepherd.coordinator.ExecOptions;

/**
 * Prepared statements kept open per physical replica connection, by SQL text, so that a statement a client runs
 * again is not prepared again on the replica (a round trip per execution on most network drivers). Statements are
 * prepared on the physical connection under the pool's proxy, so returning the connection to the pool leaves them
 * open; a connection the pool drops takes its statements with it (the map holds connections weakly).
 *
 * <p>A statement from {@link #prepare} is used by one session at a time (the one holding the connection) and must
 * not be closed by the caller: {@link #release} it after use, or {@link #discard} it after a failure. Any statement
 * that is not a query or DML ({@link #invalidateAfter}) drops every cached statement, since DDL may change what a
 * prepared statement means.
 */
public final class StatementCache {

    /** Statements kept per connection at most; the least recently used one is closed beyond. */
    public static final int STATEMENTS_PER_CONNECTION_MAX = 256;

    private record Key(String sql, boolean returnGeneratedKeys) {
    }

    private final Map<Connection, Map<Key, PreparedStatement>> byConnection = new WeakHashMap<>();
    private final AtomicLong generation = new AtomicLong();
    private final Map<Connection, Long> generationByConnection = new WeakHashMap<>();

    /** A prepared statement for {@code sql} on {@code c}, configured with the options (cached or new). */
    public PreparedStatement prepare(Connection c, String sql, ExecOptions options, int fetchSize) throws SQLException {
        Connection physical = physical(c);
        Key key = new Key(sql, options.returnGeneratedKeys());
        PreparedStatement ps = take(physical, key);
        if (ps == null) {
            ps = options.returnGeneratedKeys()
                    ? physical.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)
                    : physical.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
        }
        try {
            ps.clearParameters();
            ps.clearWarnings();
            // set only what changes: some drivers send a setting to the server with the next execution (Derby's
            // client sends the query timeout as an extra command that the server compiles)
            if (ps.getFetchSize() != fetchSize) ps.setFetchSize(fetchSize);
            int maxRows = Math.max(0, options.maxRows());
            if (ps.getMaxRows() != maxRows) ps.setMaxRows(maxRows);
            int timeoutSeconds = Math.max(0, options.queryTimeoutSeconds());
            if (ps.getQueryTimeout() != timeoutSeconds) ps.setQueryTimeout(timeoutSeconds);
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    /** Puts a statement from {@link #prepare} back for the next execution of the same SQL on the same connection. */
    public void release(Connection c, String sql, PreparedStatement ps, boolean returnGeneratedKeys) throws SQLException {
        Connection physical = physical(c);
        PreparedStatement evicted = null;
        PreparedStatement duplicate = null;
        synchronized (this) {
            Long seen = generationByConnection.get(physical);
            if (seen == null || seen != generation.get()) {
                duplicate = ps;
            } else {
                Map<Key, PreparedStatement> m = byConnection.computeIfAbsent(physical, k -> lru());
                PreparedStatement old = m.put(new Key(sql, returnGeneratedKeys), ps);
                if (old != null && old != ps) duplicate = old;
                if (m.size() > STATEMENTS_PER_CONNECTION_MAX) {
                    Map.Entry<Key, PreparedStatement> eldest = m.entrySet().iterator().next();
                    m.remove(eldest.getKey());
                    evicted = eldest.getValue();
                }
            }
        }
        if (duplicate != null) duplicate.close();
        if (evicted != null) evicted.close();
    }

    /** Closes a statement from {@link #prepare} that failed; it is not reused. */
    public static void discard(Statement ps) {
        try {
            ps.close();
        } catch (SQLException | RuntimeException e) {
            // the statement or its connection is broken already
        }
    }

    /** Drops every cached statement (on all connections) when {@code sql} may have changed the schema. */
    public void invalidateAfter(String sql) {
        if (!isQueryOrDml(sql)) generation.incrementAndGet();
    }

    static boolean isQueryOrDml(String sql) {
        int i = 0;
        int n = sql.length();
        while (i < n && (Character.isWhitespace(sql.charAt(i)) || sql.charAt(i) == '(')) i++;
        int start = i;
        while (i < n && Character.isLetter(sql.charAt(i))) i++;
        String word = sql.substring(start, i).toUpperCase(java.util.Locale.ROOT);
        switch (word) {
            case "SELECT":
            case "INSERT":
            case "UPDATE":
            case "DELETE":
            case "VALUES":
            case "WITH":
                return true;
            default:
                return false;
        }
    }

    private PreparedStatement take(Connection physical, Key key) throws SQLException {
        Map<Key, PreparedStatement> stale = null;
        PreparedStatement ps;
        synchronized (this) {
            long now = generation.get();
            Long seen = generationByConnection.put(physical, now);
            if (seen != null && seen != now) stale = byConnection.remove(physical);
            Map<Key, PreparedStatement> m = byConnection.get(physical);
            ps = m == null ? null : m.remove(key);
        }
        if (stale != null) {
            for (PreparedStatement s : stale.values()) discard(s);
        }
        if (ps != null && ps.isClosed()) ps = null;
        return ps;
    }

    private static Map<Key, PreparedStatement> lru() {
        return new LinkedHashMap<>(16, 0.75f, true);
    }

    private static Connection physical(Connection c) throws SQLException {
        return c.isWrapperFor(Connection.class) ? c.unwrap(Connection.class) : c;
    }
}
