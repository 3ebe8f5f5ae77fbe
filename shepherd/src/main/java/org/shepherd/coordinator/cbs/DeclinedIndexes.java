package org.shepherd.coordinator.cbs;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.shepherd.replica.jdbc.JdbcExecution;
import org.shepherd.translator.SessionSetting;
import org.shepherd.translator.dialect.Dialect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Derby makes no index of the same columns as one its table has already (its primary key's, a unique or foreign key's,
 * another index): {@code CREATE INDEX} answers warning 01504 and the name does not exist there, so a later
 * {@code DROP INDEX} of it fails on Derby alone (42X65), where every other engine made the index and drops it. (An index
 * on a foreign key's columns, made after the key, is the common case.) A Derby replica records such an index (name,
 * table, columns) in {@link #TABLE}, in the transaction of the CREATE INDEX, and keeps the record true to what the other
 * engines have, as if Derby had made the index:
 * <ul>
 * <li>a DROP INDEX that fails with 42X65 and finds the name there deletes the record and is done;</li>
 * <li>a record follows its table's RENAME TABLE and its columns' RENAME COLUMN, and goes with its DROP TABLE and with
 * the DROP COLUMN of one of its columns (Derby drops an index of a dropped column);</li>
 * <li>when an index or a constraint of its table is dropped, Derby is asked again to make the declined index (it then
 * may: the one it kept may have been the dropped one); the record goes when it does.</li>
 * </ul>
 * Records made before the columns were recorded have none: they are dropped by name as before, and
 * otherwise left.
 */
final class DeclinedIndexes {

    private static final Logger LOG = LoggerFactory.getLogger(DeclinedIndexes.class);

    /** On Derby replicas only; a reserved table, as the transaction log's ({@link ReservedTables}). */
    static final String TABLE = "shepherd_txlog_declined_index";
    /** The indexed columns, each quoted as Derby stores it, DESC where so: {@code "A", "B" DESC}. */
    private static final String INDEX_COLUMNS = "index_columns VARCHAR(4000)";
    private static final String INDEX_UNIQUE = "index_unique SMALLINT";
    private static final String COLUMNS = "index_schema VARCHAR(128) NOT NULL, index_name VARCHAR(128) NOT NULL,"
            + " table_schema VARCHAR(128) NOT NULL, table_name VARCHAR(128) NOT NULL, " + INDEX_COLUMNS + ", " + INDEX_UNIQUE
            + ", PRIMARY KEY (index_schema, index_name)";
    private static final String DELETE_ONE = "DELETE FROM " + TABLE + " WHERE index_schema = ? AND index_name = ?";
    /** Derby's warning: "'I2' index not created because it is a duplicate of an existing index: 'I1'". */
    private static final String DUPLICATE_INDEX = "01504";
    /** Derby's error: "Index 'I2' does not exist". */
    private static final String NO_SUCH_INDEX = "42X65";
    private static final String NAME = RestatedColumn.NAME;
    /** The quote of Derby's identifiers. */
    private static final String Q = "\"";
    /** A name, qualified or not, as the rendering writes it. */
    private static final String QNAME = RestatedColumn.QNAME;
    private static final Pattern CREATE = Pattern.compile("(?is)\\s*CREATE\\s+(UNIQUE\\s+)?INDEX\\s+" + QNAME + "\\s+ON\\s+"
            + QNAME + "\\s*\\((.*)\\)\\s*");
    /** One indexed column of a CREATE INDEX's list (or of a record's), the comma after it or the end. */
    private static final Pattern INDEXED_COLUMN = Pattern.compile("(?is)\\s*(" + NAME + ")(?:\\s+(ASC|DESC))?\\s*(,|$)");
    private static final Pattern DROP = Pattern.compile("(?i)\\s*DROP\\s+INDEX\\s+" + QNAME + "\\s*");
    private static final Pattern DROP_TABLE = Pattern.compile("(?i)\\s*DROP\\s+TABLE\\s+" + QNAME + "\\s*");
    private static final Pattern RENAME_TABLE = Pattern.compile("(?i)\\s*RENAME\\s+TABLE\\s+" + QNAME + "\\s+TO\\s+"
            + QNAME + "\\s*");
    private static final Pattern DROP_COLUMN = Pattern.compile("(?i)\\s*ALTER\\s+TABLE\\s+" + QNAME + "\\s+DROP\\s+(?:COLUMN\\s+)?"
            + "(?!(?:CONSTRAINT|PRIMARY|UNIQUE|FOREIGN|CHECK)\\s)(" + NAME + ")(?:\\s+(?:CASCADE|RESTRICT))?\\s*");
    private static final Pattern RENAME_COLUMN = Pattern.compile("(?i)\\s*RENAME\\s+COLUMN\\s+(" + NAME + "(?:\\." + NAME
            + "){1,2})\\s+TO\\s+(" + NAME + ")\\s*");
    /** DDL that drops an index of a table with the constraint it backs. */
    private static final Pattern DROP_CONSTRAINT = Pattern.compile("(?is)\\s*ALTER\\s+TABLE\\s+" + QNAME
            + "\\s+DROP\\s+(?:CONSTRAINT|PRIMARY|UNIQUE|FOREIGN)\\s.*");

    /** What {@link #TABLE} looks like on a replica. */
    private enum Shape { MISSING, WITHOUT_COLUMNS, CURRENT }

    private DeclinedIndexes() {
    }

    /** Whether replicas of dialect {@code d} decline duplicate indexes (and keep {@link #TABLE}). */
    static boolean applies(Dialect d) {
        return d.family() == Dialect.Family.DERBY;
    }

    /** Makes {@link #TABLE} on {@code c}, or adds the columns a table made before session 27 lacks; does not commit. */
    static void ensureTable(Connection c) throws SQLException {
        Shape shape = shape(c);
        if (shape == Shape.CURRENT) return;
        try (Statement s = c.createStatement()) {
            if (shape == Shape.MISSING) {
                s.execute("CREATE TABLE " + TABLE + " (" + COLUMNS + ")");
            } else {
                s.execute("ALTER TABLE " + TABLE + " ADD COLUMN " + INDEX_COLUMNS);
                s.execute("ALTER TABLE " + TABLE + " ADD COLUMN " + INDEX_UNIQUE);
            }
        }
        LOG.info("{} {} on a Derby replica", shape == Shape.MISSING ? "created" : "added the index's columns to", TABLE);
    }

    /**
     * After DDL {@code sql} ran on {@code c} with {@code warnings}: records the index it made when Derby declined it; or,
     * when an index of that name is there already (Derby declines a duplicate before it looks at the name), fails as
     * every engine does then (X0Y32, which an emulated IF NOT EXISTS takes for done).
     */
    static void recordIfDeclined(Connection c, Dialect d, String sql, List<SQLWarning> warnings) throws SQLException {
        if (!applies(d) || warnings.stream().noneMatch(w -> DUPLICATE_INDEX.equals(w.getSQLState()))) return;
        Matcher m = CREATE.matcher(sql);
        if (!m.matches()) return;
        String[] index = qualified(c, m.group(2), d);
        String[] table = qualified(c, m.group(3), d);
        String columns = indexedColumns(m.group(4), d);
        if (index == null || table == null) return;
        // a replica the shepherd reached only after its start, which made the table on the others
        ensureTable(c);
        if (named(c, index)) {
            // Derby looks at the columns before the name: an index of this name, made or declined, is there elsewhere
            throw new SQLException("Index '" + index[1] + "' already exists in Schema '" + index[0] + "' (Derby declined the"
                    + " statement as a duplicate of an index it has; an index of that name is there on every replica)", "X0Y32");
        }
        try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + TABLE + " VALUES (?, ?, ?, ?, ?, ?)")) {
            ins.setString(1, index[0]);
            ins.setString(2, index[1]);
            ins.setString(3, table[0]);
            ins.setString(4, table[1]);
            ins.setString(5, columns);
            ins.setShort(6, (short) (m.group(1) != null ? 1 : 0));
            ins.executeUpdate();
        }
    }

    /** Whether Derby has an index named {@code index} ({@code [schema, name]}), or has declined one of that name. */
    private static boolean named(Connection c, String[] index) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM SYS.SYSCONGLOMERATES g JOIN SYS.SYSSCHEMAS s"
                + " ON g.SCHEMAID = s.SCHEMAID WHERE g.ISINDEX AND g.CONGLOMERATENAME = ? AND s.SCHEMANAME = ?"
                + " UNION ALL SELECT 1 FROM " + TABLE + " WHERE index_name = ? AND index_schema = ?")) {
            ps.setString(1, index[1]);
            ps.setString(2, index[0]);
            ps.setString(3, index[1]);
            ps.setString(4, index[0]);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Whether DDL {@code sql}, which failed on {@code c} with {@code e}, is a DROP INDEX of an index Derby declined: then
     * its record is deleted, and the drop is done.
     */
    static boolean droppedDeclined(Connection c, Dialect d, String sql, SQLException e) throws SQLException {
        if (!applies(d) || !NO_SUCH_INDEX.equals(e.getSQLState())) return false;
        Matcher m = DROP.matcher(sql);
        if (!m.matches()) return false;
        String[] index = qualified(c, m.group(1), d);
        if (index == null || shape(c) == Shape.MISSING) return false;
        try (PreparedStatement del = c.prepareStatement(DELETE_ONE)) {
            del.setString(1, index[0]);
            del.setString(2, index[1]);
            return del.executeUpdate() > 0;
        }
    }

    /**
     * After DDL {@code sql} ran on {@code c}: the records follow what it did to their tables and columns, and an index
     * Derby declined is made when the one it kept was dropped (the class comment says which DDL does what).
     */
    static void afterDdl(Connection c, Dialect d, String sql) throws SQLException {
        if (!applies(d)) return;
        Matcher renameTable = RENAME_TABLE.matcher(sql);
        Matcher dropTable = DROP_TABLE.matcher(sql);
        Matcher dropColumn = DROP_COLUMN.matcher(sql);
        Matcher renameColumn = RENAME_COLUMN.matcher(sql);
        Matcher dropIndex = DROP.matcher(sql);
        Matcher dropConstraint = DROP_CONSTRAINT.matcher(sql);
        boolean tableOnly = renameTable.matches() || dropTable.matches();
        boolean any = tableOnly || dropColumn.matches() || renameColumn.matches() || dropIndex.matches()
                || dropConstraint.matches();
        if (!any) return;
        Shape shape = shape(c);
        if (shape == Shape.MISSING || !tableOnly && shape != Shape.CURRENT) return;
        if (renameTable.matches()) {
            String[] from = qualified(c, renameTable.group(1), d);
            List<String> to = SessionSetting.storedParts(renameTable.group(2).strip(), d);
            if (from == null || to == null || to.size() != 1) return;
            update(c, "UPDATE " + TABLE + " SET table_name = ? WHERE table_schema = ? AND table_name = ?", to.get(0), from[0],
                    from[1]);
        } else if (dropTable.matches()) {
            String[] table = qualified(c, dropTable.group(1), d);
            if (table != null) update(c, "DELETE FROM " + TABLE + " WHERE table_schema = ? AND table_name = ?", table[0], table[1]);
        } else if (dropColumn.matches()) {
            String[] table = qualified(c, dropColumn.group(1), d);
            List<String> column = SessionSetting.storedParts(dropColumn.group(2), d);
            if (table == null || column == null || column.size() != 1) return;
            for (Declined r : records(c, "table_schema = ? AND table_name = ?", table[0], table[1])) {
                if (r.columns().contains(column.get(0))) update(c, DELETE_ONE, r.schema(), r.name());
            }
        } else if (renameColumn.matches()) {
            renameColumn(c, d, renameColumn.group(1), renameColumn.group(2));
        } else if (dropIndex.matches()) {
            String[] index = qualified(c, dropIndex.group(1), d);
            if (index != null) makeDeclined(c, records(c, "index_schema = ?", index[0]));
        } else {
            String[] table = qualified(c, dropConstraint.group(1), d);
            if (table != null) makeDeclined(c, records(c, "table_schema = ? AND table_name = ?", table[0], table[1]));
        }
    }

    /** RENAME COLUMN {@code qualifiedColumn} TO {@code newName}: the records of the table name the column anew. */
    private static void renameColumn(Connection c, Dialect d, String qualifiedColumn, String newName) throws SQLException {
        List<String> parts = SessionSetting.storedParts(qualifiedColumn, d);
        List<String> to = SessionSetting.storedParts(newName, d);
        if (parts == null || to == null || to.size() != 1) return;
        String schema = parts.size() == 3 ? parts.get(0) : c.getSchema();
        String table = parts.get(parts.size() - 2);
        String from = parts.get(parts.size() - 1);
        for (Declined r : records(c, "table_schema = ? AND table_name = ?", schema, table)) {
            if (!r.columns().contains(from)) continue;
            List<String> renamed = new ArrayList<>(r.columns());
            renamed.replaceAll(col -> col.equals(from) ? to.get(0) : col);
            update(c, "UPDATE " + TABLE + " SET index_columns = ? WHERE index_schema = ? AND index_name = ?",
                    r.columnList(renamed), r.schema(), r.name());
        }
    }

    /** Asks Derby to make each of {@code declined}: the records of those it makes now go. */
    private static void makeDeclined(Connection c, List<Declined> declined) throws SQLException {
        for (Declined r : declined) {
            String create = "CREATE " + (r.unique() ? "UNIQUE " : "") + "INDEX " + quotedName(r.schema(), r.name()) + " ON "
                    + quotedName(r.tableSchema(), r.table()) + " (" + r.columnList(r.columns()) + ")";
            try (Statement s = c.createStatement()) {
                s.execute(create);
                if (JdbcExecution.warnings(s).stream().anyMatch(w -> DUPLICATE_INDEX.equals(w.getSQLState()))) continue;
            } catch (SQLException e) {
                // Derby undid the statement alone; the record stays, and its DROP INDEX is done as before
                LOG.warn("a Derby replica could not make the index it had declined ({}): {}", create, e.toString());
                continue;
            }
            update(c, DELETE_ONE, r.schema(), r.name());
        }
    }

    /** A record of {@link #TABLE} whose columns are known. */
    private record Declined(String schema, String name, String tableSchema, String table, List<String> columns,
            List<Boolean> descending, boolean unique) {

        /** {@code names} (this record's columns, or some renamed) as the record keeps them, each with its order. */
        String columnList(List<String> names) {
            return DeclinedIndexes.columnList(names, descending);
        }
    }

    /** The records matching {@code where} with parameters {@code args}, those whose columns are known. */
    private static List<Declined> records(Connection c, String where, String... args) throws SQLException {
        List<Declined> found = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT index_schema, index_name, table_schema, table_name,"
                + " index_columns, index_unique FROM " + TABLE + " WHERE " + where + " ORDER BY index_schema, index_name")) {
            for (int i = 0; i < args.length; i++) ps.setString(i + 1, args[i]);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String list = rs.getString(5);
                    if (list == null) continue; // recorded before the columns were
                    List<String> columns = new ArrayList<>();
                    List<Boolean> descending = new ArrayList<>();
                    if (!parseColumns(list, Dialect.DERBY, columns, descending)) continue;
                    found.add(new Declined(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), columns,
                            descending, rs.getShort(6) == 1));
                }
            }
        }
        return found;
    }

    /** A CREATE INDEX's column list as a record keeps it, null when it cannot be read. */
    private static String indexedColumns(String list, Dialect d) {
        List<String> columns = new ArrayList<>();
        List<Boolean> descending = new ArrayList<>();
        if (!parseColumns(list, d, columns, descending)) return null;
        return columnList(columns, descending);
    }

    /** {@code "SCHEMA"."NAME"}. */
    private static String quotedName(String schema, String name) {
        return JdbcReplicaEndpoint.quoted(Q, schema) + "." + JdbcReplicaEndpoint.quoted(Q, name);
    }

    /** Columns as a record keeps them: {@code "A", "B" DESC}. */
    private static String columnList(List<String> names, List<Boolean> descending) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(JdbcReplicaEndpoint.quoted(Q, names.get(i))).append(descending.get(i) ? " DESC" : "");
        }
        return sb.toString();
    }

    /** Reads {@code list} ({@code a, "B" DESC}) into stored names and orders; false when it is not such a list. */
    private static boolean parseColumns(String list, Dialect d, List<String> columns, List<Boolean> descending) {
        Matcher m = INDEXED_COLUMN.matcher(list);
        int at = 0;
        while (at < list.length() && m.find(at) && m.start() == at) {
            List<String> name = SessionSetting.storedParts(m.group(1), d);
            if (name == null || name.size() != 1) return false;
            columns.add(name.get(0));
            descending.add("DESC".equalsIgnoreCase(m.group(2)));
            at = m.end();
            if (m.group(3).isEmpty()) break;
        }
        return at == list.length() && !columns.isEmpty();
    }

    private static void update(Connection c, String sql, String... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setString(i + 1, args[i]);
            ps.executeUpdate();
        }
    }

    /**
     * Whether {@link #TABLE} is there, in the connection's default schema, and with the index's columns (made at
     * start-up; a replica first reached later, from before this table or its columns, may lack them: it then declined
     * nothing yet, or has records without columns).
     */
    private static Shape shape(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*), COUNT(col.COLUMNNAME) FROM SYS.SYSTABLES t"
                + " JOIN SYS.SYSSCHEMAS s ON t.SCHEMAID = s.SCHEMAID LEFT JOIN SYS.SYSCOLUMNS col ON col.REFERENCEID = t.TABLEID"
                + " AND col.COLUMNNAME = 'INDEX_COLUMNS' WHERE t.TABLENAME = ? AND s.SCHEMANAME = CURRENT SCHEMA")) {
            ps.setString(1, TABLE.toUpperCase(Locale.ROOT));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getInt(1) == 0) return Shape.MISSING;
                return rs.getInt(2) > 0 ? Shape.CURRENT : Shape.WITHOUT_COLUMNS;
            }
        }
    }

    /** {@code [schema, name]} as Derby stores them, the connection's schema where {@code name} has none; null if unread. */
    private static String[] qualified(Connection c, String name, Dialect d) throws SQLException {
        List<String> parts = SessionSetting.storedParts(name.strip(), d);
        if (parts == null || parts.isEmpty() || parts.size() > 2) return null;
        return parts.size() == 2 ? new String[] {parts.get(0), parts.get(1)} : new String[] {c.getSchema(), parts.get(0)};
    }
}
