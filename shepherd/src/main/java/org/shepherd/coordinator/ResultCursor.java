package org.shepherd.coordinator;

import java.sql.SQLException;
import java.util.List;
import org.shepherd.protocol.ColumnInfo;

/**
 * A result being streamed from the primary. Rows are in {@link org.shepherd.protocol.ValueType} representation.
 * Not thread-safe: used by the session's worker thread only.
 */
public interface ResultCursor extends AutoCloseable {

    List<ColumnInfo> columns();

    /**
     * Up to {@code maxRows} next rows (at least one unless the result is exhausted). Memory held by the cursor
     * stays bounded by the batch, whatever the result's size.
     */
    List<Object[]> fetch(int maxRows) throws SQLException;

    /** True once every row was returned by {@link #fetch}. */
    boolean exhausted();

    /** Releases the cursor; rows not fetched are discarded (or drained for the vote, as the mode needs). */
    @Override
    void close() throws SQLException;
}
