package org.shepherd.coordinator.cbs;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.BufferedCursor;
import org.shepherd.coordinator.ResultCursor;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.translator.SqlWords;

/**
 * The tables the shepherd keeps on every replica for itself ({@link JdbcReplicaEndpoint#TXLOG_TABLE},
 * {@link JdbcReplicaEndpoint#TXLOG_BASE_TABLE}; on Derby also {@link DeclinedIndexes#TABLE}): they record which
 * transactions each replica committed (and what its engine did otherwise), so a client statement that names one is
 * refused (reading them would be voted on rows that differ per replica between two
 * truncations; changing or dropping them would break recovery or every commit), and metadata answers leave them out
 * (a schema tool that lists the tables, then drops or checks them, never sees them), as do MySQL's SHOW TABLES and
 * queries of the catalog (INFORMATION_SCHEMA, Derby's SYS) in the columns that name tables.
 */
final class ReservedTables {

    static final Set<String> NAMES = Set.of(JdbcReplicaEndpoint.TXLOG_TABLE, JdbcReplicaEndpoint.TXLOG_BASE_TABLE,
            DeclinedIndexes.TABLE);
    /** The common prefix of the names: the cheap test every statement goes through. */
    private static final String PREFIX = "shepherd_txlog";
    /** Metadata columns that name a table. */
    private static final Set<String> TABLE_COLUMNS = Set.of("TABLE_NAME", "PKTABLE_NAME", "FKTABLE_NAME");
    /**
     * MySQL's listing of tables, the name in the first column: SHOW [FULL] TABLES. (SHOW TABLE STATUS answers sizes and
     * times that differ between replicas, so its vote fails anyway.)
     */
    private static final Pattern TABLE_LISTING = Pattern.compile("\\s*SHOW\\s+(?:FULL\\s+)?TABLES\\b.*",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    /** Catalog columns that name a table (INFORMATION_SCHEMA's and Derby's SYS.SYSTABLES'). */
    private static final Set<String> CATALOG_TABLE_COLUMNS = Set.of("TABLE_NAME", "TABLENAME", "REFERENCED_TABLE_NAME",
            "TABNAME");
    /** Rows of such a listing the shepherd holds at most (a listing is one row per table). */
    static final int LISTING_ROWS_MAX = 1_000_000;

    private ReservedTables() {
    }

    static boolean isReserved(String tableName) {
        return tableName != null && NAMES.contains(tableName.toLowerCase(Locale.ROOT));
    }

    /**
     * Refuses {@code sql} (SQLState 42501) when it names a reserved table outside string literals and comments, as a
     * plain or quoted identifier, qualified or not.
     *
     * @param backslashEscapes whether a backslash escapes the next character in a string literal (MySQL)
     */
    static void refuseIfNamed(String sql, boolean backslashEscapes) throws SQLException {
        if (!mentionsPrefix(sql)) return;
        String[] named = {null};
        SqlWords.scan(sql, backslashEscapes, new SqlWords.Visitor() {
            @Override
            public void word(String text, int start, int end) {
                if (named[0] == null && isReserved(text.substring(start, end))) named[0] = text.substring(start, end);
            }

            @Override
            public void quoted(String text, int start, int end) {
                // a quoted name, or MySQL's double-quoted string: a name is what matters ("SHEPHERD_TXLOG", `t`.`x`)
                if (named[0] == null && isReserved(text.substring(start, end))) named[0] = text.substring(start, end);
            }
        });
        if (named[0] != null) {
            throw new SQLException(named[0] + " is one of the shepherd's own tables on the replicas (they record which"
                    + " transactions each replica committed, for recovery, and what a replica's engine did otherwise); client"
                    + " statements may not read or change it: '" + sql.strip() + "'", "42501");
        }
    }

    private static boolean mentionsPrefix(String sql) {
        for (int i = sql.length() - PREFIX.length(); i >= 0; i--) {
            if ((sql.charAt(i) == 's' || sql.charAt(i) == 'S') && sql.regionMatches(true, i, PREFIX, 0, PREFIX.length())) return true;
        }
        return false;
    }

    /** The positions (0-based) of the columns of a metadata result that name a table. */
    static int[] tableColumns(List<ColumnInfo> columns) {
        return columnsNamed(columns, TABLE_COLUMNS);
    }

    private static int[] columnsNamed(List<ColumnInfo> columns, Set<String> names) {
        List<Integer> found = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if (names.contains(columns.get(i).name().toUpperCase(Locale.ROOT))) found.add(i);
        }
        return found.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Whether {@code sql} is MySQL's listing of tables (SHOW [FULL] TABLES): it goes to MySQL-family replicas unchanged,
     * and its answer names the reserved tables unless they are taken out.
     */
    static boolean isTableListing(String sql) {
        return sql.length() < 4096 && TABLE_LISTING.matcher(sql).matches();
    }


    /** {@code answer} (of a listing of tables) without the rows whose first column names a reserved table. */
    static Answer withoutReservedRows(Answer answer) throws SQLException {
        return without(answer, new int[] {0});
    }

    /**
     * {@code answer} (of a catalog query) without the rows that name a reserved table in a column the catalog names
     * tables in; unchanged (still streaming) when it has no such column.
     */
    static Answer withoutReservedCatalogRows(Answer answer) throws SQLException {
        if (!(answer instanceof Answer.Rows rows)) return answer;
        int[] tableColumns = columnsNamed(rows.cursor().columns(), CATALOG_TABLE_COLUMNS);
        return tableColumns.length == 0 ? answer : without(answer, tableColumns);
    }

    private static Answer without(Answer answer, int[] tableColumns) throws SQLException {
        if (!(answer instanceof Answer.Rows rows)) return answer;
        List<Object[]> kept = new ArrayList<>();
        List<ColumnInfo> columns;
        try (ResultCursor cursor = rows.cursor()) {
            columns = cursor.columns();
            while (!cursor.exhausted()) {
                for (Object[] row : cursor.fetch(1000)) {
                    if (namesReserved(row, tableColumns)) continue;
                    if (kept.size() == LISTING_ROWS_MAX) {
                        throw new SQLException("a listing of more than " + LISTING_ROWS_MAX + " tables", "54000");
                    }
                    kept.add(row);
                }
            }
        }
        return new Answer.Rows(new BufferedCursor(columns, kept), rows.warnings());
    }

    /** Whether a metadata row names a reserved table in one of {@code tableColumns}. */
    static boolean namesReserved(Object[] row, int[] tableColumns) {
        for (int i : tableColumns) {
            if (i < row.length && row[i] instanceof String s && isReserved(s)) return true;
        }
        return false;
    }
}
