package org.shepherd.client;

import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.ArrayDeque;
import java.util.List;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.v1.Message;

/**
 * The rows of one result, read batch by batch from the shepherd ({@link Message.Fetch}) as they are consumed,
 * or held in memory (generated keys; a result that was drained to let another statement run).
 * Not thread-safe.
 */
public final class Cursor {

    private final QueryExecutor owner;
    private final int cursorId;
    private final List<ColumnInfo> columns;
    private final List<SQLWarning> warnings;
    private final ArrayDeque<Object[]> buffered = new ArrayDeque<>();
    private int fetchSize;
    private boolean last;
    private boolean closed;

    Cursor(QueryExecutor owner, int cursorId, List<ColumnInfo> columns, List<SQLWarning> warnings, int fetchSize) {
        this.owner = owner;
        this.cursorId = cursorId;
        this.columns = columns;
        this.warnings = warnings;
        this.fetchSize = fetchSize;
    }

    /** A result held entirely in memory. */
    public static Cursor of(List<ColumnInfo> columns, List<Object[]> rows) {
        Cursor c = new Cursor(null, -1, columns, List.of(), 0);
        c.buffered.addAll(rows);
        c.last = true;
        return c;
    }

    public List<ColumnInfo> columns() {
        return columns;
    }

    public List<SQLWarning> warnings() {
        return warnings;
    }

    int cursorId() {
        return cursorId;
    }

    public void setFetchSize(int rows) {
        this.fetchSize = rows;
    }

    void accept(Message.RowBatch batch) {
        buffered.addAll(batch.rows());
        if (batch.last()) last = true;
    }

    /** The shepherd reported an error for this cursor: it is gone there. */
    void fail() {
        last = true;
        closed = true;
        buffered.clear();
    }

    boolean remoteOpen() {
        return !last && !closed;
    }

    /** The next row, or null at the end. Fetches the next batch when the buffered ones are used up. */
    public Object[] next() throws SQLException {
        return hasNext() ? buffered.poll() : null;
    }

    /** True when {@link #next} would return a row (may fetch). */
    public boolean hasNext() throws SQLException {
        if (closed) return false;
        while (buffered.isEmpty() && !last) {
            owner.fetch(this, fetchSize);
        }
        return !buffered.isEmpty();
    }

    /** Reads every remaining row into memory, so that the session may run another statement. */
    void drain() throws SQLException {
        while (!last && !closed) {
            owner.fetch(this, 0);
        }
    }

    /** Frees the cursor on the shepherd if rows are still pending there. Idempotent. */
    public void close() throws SQLException {
        if (closed) return;
        closed = true;
        buffered.clear();
        if (!last && owner != null) owner.closeCursor(this);
    }
}
