package org.shepherd.client;

import java.sql.SQLWarning;
import java.util.List;
import org.shepherd.protocol.ColumnInfo;

/** What one statement produced, as the JDBC layer consumes it. */
public sealed interface Result {

    List<SQLWarning> warnings();

    record Update(long count, List<ColumnInfo> keyColumns, List<Object[]> keyRows, List<SQLWarning> warnings)
            implements Result {
    }

    /** A batch: each element's update count, and the keys the elements generated when they were asked for. */
    record Batch(long[] counts, List<ColumnInfo> keyColumns, List<Object[]> keyRows, List<SQLWarning> warnings)
            implements Result {
    }

    record Rows(Cursor cursor) implements Result {
        @Override
        public List<SQLWarning> warnings() {
            return cursor.warnings();
        }
    }
}
