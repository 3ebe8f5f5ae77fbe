package org.shepherd.coordinator.cbs;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;
import org.shepherd.replica.jdbc.JdbcValues;
import org.shepherd.translator.dialect.Dialect;
import org.shepherd.vote.AnswerDigest;
import org.shepherd.vote.CanonicalValues;

/**
 * The repair step of compare-and-repair: makes one key range of one table, on the replicas named as its targets, hold
 * exactly the rows f+1 replicas agreed on.
 *
 * <p>It is a statement of the transaction that read those rows through the vote ({@link TableVerifier}), run after that
 * read, so every replica sees it at the same point of the serial order. The primary and the replicas that are not
 * targets answer it at once and run nothing. A target reads its own rows of the range (the same query, rendered in
 * its dialect), deletes those the agreed rows lack, updates those that differ and inserts those it lacks, comparing
 * values as the vote does ({@link CanonicalValues}); a row that is already right is not written. Every replica answers
 * it alike (an update count of 0) unless the repair fails at a target, whose error is then outvoted and reported.
 *
 * <p>It changes nothing on the replicas that agree, so the write-ahead log has no place for it: {@link
 * JdbcStatement#readOnly()} is true. A target that goes down before committing the transaction comes back without the
 * repair, and the next comparison finds the difference again.
 */
final class RangeRepair {

    /** A statement of the table with parameters, translated for every replica's dialect. */
    interface Template {
        JdbcStatement bind(List<Param> params) throws SQLException;
    }

    /** What one target changed, or why it failed (then {@code error} is not null). */
    record Done(long deleted, long updated, long inserted, String error) {
        /** Nothing changed, nothing failed: where a sum starts. */
        static final Done NONE = new Done(0, 0, 0, null);

        long changed() {
            return deleted + updated + inserted;
        }

        /** The rows both changed (the counts of two successful repairs). */
        Done plus(Done other) {
            return new Done(deleted + other.deleted, updated + other.updated, inserted + other.inserted, null);
        }

        @Override
        public String toString() {
            return error != null ? "failed: " + error : deleted + " deleted, " + updated + " updated, " + inserted + " inserted";
        }
    }

    /**
     * The statements a repair runs at a target. {@code update} is null when every column belongs to the key;
     * {@code delete} deletes one row by its key, or the whole table when it has no key.
     */
    record Statements(JdbcStatement read, Template delete, Template update, Template insert) {
    }

    private final String description;
    private final Set<String> targets;
    private final Statements statements;
    private final List<ColumnInfo> columns;
    private final int[] keyIndexes;
    /** The agreed rows; null once {@link #release released}. */
    private volatile List<Object[]> agreed;
    private final int rows;
    private final Map<String, Done> done = new ConcurrentHashMap<>();

    /**
     * @param description what it repairs, as the divergence report shows the statement
     * @param targets the replicas to repair
     * @param columns the agreed rows' columns, as {@code statements.read()} returns them
     * @param keyIndexes the primary key's columns among them, in key order; empty when the table has no key (a target
     *     whose rows differ as a multiset then loses them all and gets the agreed ones)
     * @param agreed the rows of the range f+1 replicas agreed on
     */
    RangeRepair(String description, Set<String> targets, Statements statements, List<ColumnInfo> columns, int[] keyIndexes,
            List<Object[]> agreed) {
        this.description = description;
        this.targets = Set.copyOf(targets);
        this.statements = statements;
        this.columns = List.copyOf(columns);
        this.keyIndexes = keyIndexes.clone();
        this.agreed = List.copyOf(agreed);
        this.rows = agreed.size();
    }

    /** The agreed rows it carries (until released). */
    int rows() {
        return rows;
    }

    /**
     * Lets go of the agreed rows (the verifier has waited for the targets) and returns what each target did. A target
     * that runs it only afterwards refuses it: with the rows gone it cannot tell what to write.
     */
    Map<String, Done> release() {
        agreed = null;
        return Map.copyOf(done);
    }

    String description() {
        return description;
    }

    boolean targets(String replica) {
        return targets.contains(replica);
    }

    Set<String> targetNames() {
        return targets;
    }

    /** What {@code replica} did, or null while it has not run it. */
    Done doneBy(String replica) {
        return done.get(replica);
    }

    /** Repairs the range on {@code replica} within the transaction of {@code c}, which already read it. */
    void apply(String replica, Connection c, Dialect dialect, JdbcValues values) throws SQLException {
        try {
            done.put(replica, repair(c, dialect, values));
        } catch (SQLException e) {
            done.put(replica, new Done(0, 0, 0, e.getMessage() + " (SQLState " + e.getSQLState() + ")"));
            throw e;
        }
    }

    private Done repair(Connection c, Dialect dialect, JdbcValues values) throws SQLException {
        List<Object[]> agreed = this.agreed;
        if (agreed == null) {
            throw new SQLException("the " + description + " was given up before this replica ran it; compare again", "55000");
        }
        List<ColumnInfo> mineColumns = new ArrayList<>();
        List<Object[]> mine = read(c, dialect, values, mineColumns);
        if (mineColumns.size() != columns.size()) {
            throw new SQLException("the repair of " + description + " read " + mineColumns.size() + " columns here, "
                    + columns.size() + " where the rows were agreed", "XX000");
        }
        return keyIndexes.length == 0 ? repairMultiset(c, dialect, values, agreed, mine, mineColumns)
                : repairByKey(c, dialect, values, agreed, mine, mineColumns);
    }

    private List<Object[]> read(Connection c, Dialect dialect, JdbcValues values, List<ColumnInfo> columnsOut)
            throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(statements.read().sqlFor(dialect))) {
            values.bindAll(ps, statements.read().paramsFor(dialect));
            try (ResultSet rs = ps.executeQuery()) {
                columnsOut.addAll(JdbcValues.columns(rs.getMetaData()));
                while (rs.next()) rows.add(values.readRow(rs, columnsOut));
            }
        }
        return rows;
    }

    private Done repairByKey(Connection c, Dialect dialect, JdbcValues values, List<Object[]> agreed, List<Object[]> mine,
            List<ColumnInfo> mineColumns) throws SQLException {
        Map<String, Object[]> mineByKey = new LinkedHashMap<>();
        for (Object[] row : mine) mineByKey.put(text(row, mineColumns, keyIndexes), row);
        List<Object[]> toUpdate = new ArrayList<>();
        List<Object[]> toInsert = new ArrayList<>();
        for (Object[] row : agreed) {
            Object[] there = mineByKey.remove(text(row, columns, keyIndexes));
            if (there == null) {
                toInsert.add(row);
            } else if (!text(there, mineColumns, null).equals(text(row, columns, null))) {
                toUpdate.add(row);
            }
        }
        // extra rows first: one of them may hold a unique value a missing or changed row needs
        for (Object[] extra : mineByKey.values()) run(c, dialect, values, statements.delete(), params(extra, mineColumns, keyIndexes));
        int[] others = nonKeyIndexes();
        for (Object[] row : toUpdate) {
            List<Param> p = params(row, columns, others);
            p.addAll(params(row, columns, keyIndexes));
            run(c, dialect, values, statements.update(), p);
        }
        for (Object[] row : toInsert) run(c, dialect, values, statements.insert(), params(row, columns, null));
        return new Done(mineByKey.size(), toUpdate.size(), toInsert.size(), null);
    }

    private Done repairMultiset(Connection c, Dialect dialect, JdbcValues values, List<Object[]> agreed, List<Object[]> mine,
            List<ColumnInfo> mineColumns) throws SQLException {
        Map<String, Integer> counts = new HashMap<>();
        for (Object[] row : mine) counts.merge(text(row, mineColumns, null), 1, Integer::sum);
        for (Object[] row : agreed) counts.merge(text(row, columns, null), -1, Integer::sum);
        if (counts.values().stream().allMatch(n -> n == 0)) return Done.NONE;
        run(c, dialect, values, statements.delete(), List.of());
        for (Object[] row : agreed) run(c, dialect, values, statements.insert(), params(row, columns, null));
        return new Done(mine.size(), 0, agreed.size(), null);
    }

    private int[] nonKeyIndexes() {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            boolean key = false;
            for (int k : keyIndexes) key |= k == i;
            if (!key) out.add(i);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void run(Connection c, Dialect dialect, JdbcValues values, Template template, List<Param> params)
            throws SQLException {
        JdbcStatement s = template.bind(params);
        try (PreparedStatement ps = c.prepareStatement(s.sqlFor(dialect))) {
            values.bindAll(ps, s.paramsFor(dialect));
            ps.executeUpdate();
        }
    }

    /** The values at {@code indexes} (all when null) as parameters of their columns' types. */
    private static List<Param> params(Object[] row, List<ColumnInfo> cols, int[] indexes) {
        List<Param> out = new ArrayList<>();
        int n = indexes == null ? row.length : indexes.length;
        for (int k = 0; k < n; k++) {
            int i = indexes == null ? k : indexes[k];
            out.add(new Param(cols.get(i).jdbcType(), row[i]));
        }
        return out;
    }

    /** The canonical text of the values at {@code indexes} (all when null): equal exactly when the vote finds them equal. */
    private static String text(Object[] row, List<ColumnInfo> cols, int[] indexes) {
        return AnswerDigest.canonicalText(row, cols, indexes);
    }
}
