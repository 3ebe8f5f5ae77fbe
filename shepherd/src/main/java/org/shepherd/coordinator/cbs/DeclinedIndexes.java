package org.shepherd.coordinator.cbs;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.shepherd.translator.SessionSetting;
import org.shepherd.translator.dialect.Dialect;

/**
 * Derby makes no index of the same columns as one its table has already (its primary key's, a unique or foreign key's,
 * another index): {@code CREATE INDEX} answers warning 01504 and the name does not exist there, so a later
 * {@code DROP INDEX} of it fails on Derby alone (42X65), where every other engine made the index and drops it. (An index
 * on a foreign key's columns, made after the key, is the common case.) A Derby replica records such a name in
 * {@link #TABLE}, in the transaction of the CREATE INDEX, and a DROP INDEX that fails with 42X65 and finds the name
 * there deletes the record and is done (a record follows its table's RENAME TABLE and goes with its DROP TABLE).
 * What Derby does not do either way: when the index it kept is dropped, the declined one does not come into being (the
 * columns lose their index there, not their data).
 */
final class DeclinedIndexes {

    /** On Derby replicas only; a reserved table, as the transaction log's ({@link ReservedTables}). */
    static final String TABLE = "shepherd_txlog_declined_index";
    static final String COLUMNS = "index_schema VARCHAR(128) NOT NULL, index_name VARCHAR(128) NOT NULL,"
            + " table_schema VARCHAR(128) NOT NULL, table_name VARCHAR(128) NOT NULL, PRIMARY KEY (index_schema, index_name)";
    private static final String DELETE_ONE = "DELETE FROM " + TABLE + " WHERE index_schema = ? AND index_name = ?";
    /** Derby's warning: "'I2' index not created because it is a duplicate of an existing index: 'I1'". */
    private static final String DUPLICATE_INDEX = "01504";
    /** Derby's error: "Index 'I2' does not exist". */
    private static final String NO_SUCH_INDEX = "42X65";
    /** A name, qualified or not, as the rendering writes it. */
    private static final String QNAME = "(" + RestatedColumn.NAME + "(?:\\." + RestatedColumn.NAME + ")?)";
    private static final Pattern CREATE = Pattern.compile("(?is)\\s*CREATE\\s+(?:UNIQUE\\s+)?INDEX\\s+" + QNAME + "\\s+ON\\s+"
            + QNAME + "\\s*\\(.*");
    private static final Pattern DROP = Pattern.compile("(?i)\\s*DROP\\s+INDEX\\s+" + QNAME + "\\s*");
    private static final Pattern DROP_TABLE = Pattern.compile("(?i)\\s*DROP\\s+TABLE\\s+" + QNAME + "\\s*");
    private static final Pattern RENAME_TABLE = Pattern.compile("(?i)\\s*RENAME\\s+TABLE\\s+" + QNAME + "\\s+TO\\s+"
            + QNAME + "\\s*");

    private DeclinedIndexes() {
    }

    /** Whether replicas of dialect {@code d} decline duplicate indexes (and keep {@link #TABLE}). */
    static boolean applies(Dialect d) {
        return d.family() == Dialect.Family.DERBY;
    }

    /** After DDL {@code sql} ran on {@code c} with {@code warnings}: records the index it made when Derby declined it. */
    static void recordIfDeclined(Connection c, Dialect d, String sql, List<SQLWarning> warnings) throws SQLException {
        if (!applies(d) || warnings.stream().noneMatch(w -> DUPLICATE_INDEX.equals(w.getSQLState()))) return;
        Matcher m = CREATE.matcher(sql);
        if (!m.matches()) return;
        String[] index = qualified(c, m.group(1), d);
        String[] table = qualified(c, m.group(2), d);
        if (index == null || table == null) return;
        if (!exists(c)) {
            // a replica the shepherd reached only after its start, which made the table on the others
            try (java.sql.Statement create = c.createStatement()) {
                create.execute("CREATE TABLE " + TABLE + " (" + COLUMNS + ")");
            }
        }
        try (PreparedStatement del = c.prepareStatement(DELETE_ONE);
                PreparedStatement ins = c.prepareStatement("INSERT INTO " + TABLE + " VALUES (?, ?, ?, ?)")) {
            del.setString(1, index[0]);
            del.setString(2, index[1]);
            del.executeUpdate();
            ins.setString(1, index[0]);
            ins.setString(2, index[1]);
            ins.setString(3, table[0]);
            ins.setString(4, table[1]);
            ins.executeUpdate();
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
        if (index == null || !exists(c)) return false;
        try (PreparedStatement del = c.prepareStatement(DELETE_ONE)) {
            del.setString(1, index[0]);
            del.setString(2, index[1]);
            return del.executeUpdate() > 0;
        }
    }

    /**
     * After DDL {@code sql} ran on {@code c}: a dropped table's records go with it, a renamed table's follow it, so that
     * a record names a table that is there and a DROP INDEX of a name Derby never made anywhere still fails.
     */
    static void afterDdl(Connection c, Dialect d, String sql) throws SQLException {
        if (!applies(d) || !RENAME_TABLE.matcher(sql).matches() && !DROP_TABLE.matcher(sql).matches() || !exists(c)) return;
        Matcher m = RENAME_TABLE.matcher(sql);
        if (m.matches()) {
            String[] from = qualified(c, m.group(1), d);
            List<String> to = SessionSetting.storedParts(m.group(2).strip(), d);
            if (from == null || to == null || to.size() != 1) return;
            try (PreparedStatement ps = c.prepareStatement("UPDATE " + TABLE + " SET table_name = ?"
                    + " WHERE table_schema = ? AND table_name = ?")) {
                ps.setString(1, to.get(0));
                ps.setString(2, from[0]);
                ps.setString(3, from[1]);
                ps.executeUpdate();
            }
            return;
        }
        m = DROP_TABLE.matcher(sql);
        if (!m.matches()) return;
        String[] table = qualified(c, m.group(1), d);
        if (table == null) return;
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + TABLE + " WHERE table_schema = ? AND table_name = ?")) {
            ps.setString(1, table[0]);
            ps.setString(2, table[1]);
            ps.executeUpdate();
        }
    }

    /**
     * Whether {@link #TABLE} is there, in the connection's default schema (made at start-up; a replica first reached
     * later, from before this table, may lack it: it then declined nothing yet).
     */
    private static boolean exists(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM SYS.SYSTABLES t JOIN SYS.SYSSCHEMAS s ON t.SCHEMAID"
                + " = s.SCHEMAID WHERE t.TABLENAME = ? AND s.SCHEMANAME = CURRENT SCHEMA")) {
            ps.setString(1, TABLE.toUpperCase(java.util.Locale.ROOT));
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                return rs.next();
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
