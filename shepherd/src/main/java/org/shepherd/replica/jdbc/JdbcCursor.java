package org.shepherd.replica.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.shepherd.coordinator.ResultCursor;
import org.shepherd.protocol.ColumnInfo;

/**
 * A replica {@link ResultSet} read lazily, batch by batch: memory is bounded by the batch, whatever the result's
 * size (the replica driver must stream too: forward-only result set with a fetch size, see
 * {@link JdbcExecution}).
 */
public final class JdbcCursor implements ResultCursor {

    /** Told once when the cursor closes; {@code failed} when reading the replica failed. */
    @FunctionalInterface
    public interface CloseListener {
        void closed(boolean failed) throws SQLException;
    }

    private final Statement statement;
    private final ResultSet resultSet;
    private final JdbcValues values;
    private final List<ColumnInfo> columns;
    private final CloseListener listener;
    private volatile boolean cancelled;
    private boolean exhausted;
    private boolean failed;
    private boolean closed;

    /**
     * @param statement closed with the cursor; null when the result set has none to close (metadata results)
     * @param listener told when the cursor closes; may be null
     */
    public JdbcCursor(Statement statement, ResultSet resultSet, JdbcValues values, CloseListener listener)
            throws SQLException {
        this.statement = statement;
        this.resultSet = resultSet;
        this.values = values;
        this.listener = listener;
        this.columns = List.copyOf(JdbcValues.columns(resultSet.getMetaData()));
    }

    @Override
    public List<ColumnInfo> columns() {
        return columns;
    }

    @Override
    public List<Object[]> fetch(int maxRows) throws SQLException {
        if (maxRows < 1) throw new IllegalArgumentException("maxRows must be >= 1, was " + maxRows);
        if (closed) throw new SQLException("the result set is closed", "24000");
        if (exhausted) return List.of();
        List<Object[]> rows = new ArrayList<>(Math.min(maxRows, 4096));
        try {
            while (rows.size() < maxRows) {
                if (cancelled) throw new SQLException("statement cancelled", "57014");
                if (!resultSet.next()) {
                    exhausted = true;
                    break;
                }
                rows.add(values.readRow(resultSet, columns));
            }
        } catch (SQLException | RuntimeException e) {
            failed = true;
            throw e;
        }
        return rows;
    }

    @Override
    public boolean exhausted() {
        return exhausted;
    }

    /** Makes the next {@link #fetch} fail with SQLState 57014. Any thread. */
    public void cancel() {
        cancelled = true;
    }

    @Override
    public void close() throws SQLException {
        if (closed) return;
        closed = true;
        SQLException first = null;
        try {
            resultSet.close();
        } catch (SQLException e) {
            first = e;
        }
        if (statement != null) {
            try {
                statement.close();
            } catch (SQLException e) {
                if (first == null) first = e;
            }
        }
        if (listener != null) {
            try {
                listener.closed(failed || first != null);
            } catch (SQLException e) {
                if (first == null) first = e;
            }
        }
        if (first != null) throw first;
    }
}
