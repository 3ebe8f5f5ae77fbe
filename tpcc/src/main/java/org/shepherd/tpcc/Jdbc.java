package org.shepherd.tpcc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Properties;
import java.util.Set;

/**
 * Connection settings and the few JDBC helpers every part of the benchmark shares. {@code setup} runs on every new
 * connection (the side-by-side benchmark gives its direct baseline the settings a shepherd gives its replicas).
 */
public record Jdbc(String url, String user, String password, ConnectionSetup setup) {

    /** Applied to each connection right after it is opened. */
    @FunctionalInterface
    public interface ConnectionSetup {
        void apply(Connection c) throws SQLException;
    }

    public Jdbc(String url, String user, String password) {
        this(url, user, password, c -> { });
    }

    /** MySQL/MariaDB: deadlock found (1213), lock wait timeout (1205); their SQLState is not always class 40. */
    private static final Set<Integer> VENDOR_RETRYABLE_CODES = Set.of(1213, 1205);

    public Connection connect() throws SQLException {
        Properties props = new Properties();
        if (user != null) props.setProperty("user", user);
        if (password != null) props.setProperty("password", password);
        Connection c = DriverManager.getConnection(url, props);
        try {
            setup.apply(c);
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** The URL with any password in its query string blanked out, for output people and files read. */
    public String redactedUrl() {
        return url.replaceAll("(?i)(password=)[^&;]*", "$1***");
    }

    /** A serialization failure or deadlock: the transaction may succeed when run again. */
    public static boolean isRetryable(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if (state != null && state.startsWith("40")) return true;
                if (VENDOR_RETRYABLE_CODES.contains(sql.getErrorCode())) return true;
            }
        }
        SQLException next = e.getNextException();
        return next != null && next != e && isRetryable(next);
    }

    /** A broken or refused connection (SQLState class 08): the next statement needs a new connection. */
    public static boolean isConnectionLoss(SQLException e) {
        return e.getSQLState() != null && e.getSQLState().startsWith("08");
    }

    /**
     * The time to store, truncated to whole seconds: some databases keep no fraction in TIMESTAMP/DATETIME
     * and others round it, which would make replicas of different vendors differ.
     */
    public static Timestamp now(Clock clock) {
        return Timestamp.from(Instant.now(clock).truncatedTo(ChronoUnit.SECONDS));
    }

    public static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // the connection is already broken; the caller reports the original error
        }
    }

    /** Closes {@code connection} (null: none), ignoring a failure: it is broken or no longer needed. */
    public static void closeQuietly(Connection connection) {
        if (connection == null) return;
        try {
            connection.close();
        } catch (SQLException ignored) {
            // nothing depends on it any more
        }
    }
}
