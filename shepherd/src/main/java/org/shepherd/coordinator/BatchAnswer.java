package org.shepherd.coordinator;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.shepherd.protocol.ColumnInfo;

/**
 * What a batch produced: one update count per element and, when the client asked for generated keys, the key rows of
 * every element in element order (with the columns of the first element that generated any).
 */
public record BatchAnswer(long[] counts, List<ColumnInfo> keyColumns, List<Object[]> generatedKeys) {

    public BatchAnswer {
        counts = counts.clone();
        keyColumns = List.copyOf(keyColumns);
        generatedKeys = List.copyOf(generatedKeys);
    }

    /** Counts only: no keys were asked for (or none were generated). */
    public static BatchAnswer counts(long[] counts) {
        return new BatchAnswer(counts, List.of(), List.of());
    }

    @Override
    public long[] counts() {
        return counts.clone();
    }

    /** Collects a batch's answer element by element. */
    public static final class Builder {
        private final long[] counts;
        private final boolean keys;
        private final int keyRowsMax;
        private List<ColumnInfo> keyColumns = List.of();
        private final List<Object[]> generatedKeys = new ArrayList<>();

        /**
         * {@code keys}: the client asked for generated keys, at most {@code keyRowsMax} rows of them in all (the answer
         * is one message).
         */
        public Builder(int elements, boolean keys, int keyRowsMax) {
            this.counts = new long[elements];
            this.keys = keys;
            this.keyRowsMax = keyRowsMax;
        }

        /**
         * Element {@code i} updated {@code count} rows and generated {@code rows} of keys in {@code columns}.
         *
         * @throws SQLException 54000 when the batch's keys pass {@code keyRowsMax}
         */
        public void add(int i, long count, List<ColumnInfo> columns, List<Object[]> rows) throws SQLException {
            counts[i] = count;
            if (!keys || rows.isEmpty()) return;
            if (generatedKeys.size() + rows.size() > keyRowsMax) {
                throw new SQLException("batch element " + (i + 1) + " brings the batch's generated keys past " + keyRowsMax
                        + "; send smaller batches, or do not ask for generated keys", "54000");
            }
            if (keyColumns.isEmpty()) keyColumns = columns;
            generatedKeys.addAll(rows);
        }

        public BatchAnswer build() {
            return new BatchAnswer(counts, keyColumns, generatedKeys);
        }
    }
}
