package org.shepherd.coordinator;

import java.sql.SQLException;
import java.util.List;
import org.shepherd.protocol.ColumnInfo;

/** Rows already in memory (a metadata answer within its row limit, an admin answer), read in batches. */
public final class BufferedCursor implements ResultCursor {

    private final List<ColumnInfo> columns;
    private final List<Object[]> rows;
    private int next;
    private boolean closed;

    public BufferedCursor(List<ColumnInfo> columns, List<Object[]> rows) {
        this.columns = List.copyOf(columns);
        this.rows = rows;
    }

    @Override
    public List<ColumnInfo> columns() {
        return columns;
    }

    @Override
    public List<Object[]> fetch(int maxRows) throws SQLException {
        if (maxRows < 1) throw new IllegalArgumentException("maxRows must be >= 1, was " + maxRows);
        if (closed) throw new SQLException("the result set is closed", "24000");
        int end = Math.min(rows.size(), next + maxRows);
        List<Object[]> out = List.copyOf(rows.subList(next, end));
        next = end;
        return out;
    }

    @Override
    public boolean exhausted() {
        return next >= rows.size();
    }

    @Override
    public void close() {
        closed = true;
    }
}
