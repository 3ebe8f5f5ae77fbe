package org.shepherd.coordinator;

import java.sql.SQLWarning;
import java.util.List;
import org.shepherd.protocol.ColumnInfo;

/** What a statement produced: an update count (with generated keys) or a result set to stream. */
public sealed interface Answer {

    /** Warnings to pass on to the client; may be empty, never null. */
    List<SQLWarning> warnings();

    /**
     * An update count.
     *
     * @param generatedKeys the generated keys' columns and rows when the client asked for them, else empty lists
     */
    record Update(long count, List<ColumnInfo> keyColumns, List<Object[]> generatedKeys, List<SQLWarning> warnings)
            implements Answer {
    }

    /** A result set, read in batches through the cursor (bounded memory for any result size). */
    record Rows(ResultCursor cursor, List<SQLWarning> warnings) implements Answer {
    }
}
