package org.shepherd.coordinator.cbs;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.shepherd.translator.SessionSetting;
import org.shepherd.translator.dialect.Dialect;

/**
 * A MySQL-family client's DROP INDEX (or ALTER TABLE ... DROP INDEX) on a replica of another engine
 * ({@link Dialect#UNIQUE_KEY}): MySQL drops a UNIQUE KEY that way, which the other engines have as a UNIQUE constraint
 * (the translator makes one of it), so where the replica's schema has a UNIQUE constraint of that name the statement is
 * {@code ALTER TABLE t DROP CONSTRAINT i} instead (on PostgreSQL, whose constraint's index has the constraint's name,
 * DROP INDEX would refuse it); else the DROP INDEX, without the mark.
 */
final class UniqueKeyDrop {

    private static final Pattern DROP = Pattern.compile("(?is)\\s*DROP\\s+INDEX\\s+(?:IF\\s+EXISTS\\s+)?" + RestatedColumn.QNAME
            + "\\s*" + Pattern.quote(Dialect.UNIQUE_KEY) + "\\s*");

    private UniqueKeyDrop() {
    }

    static boolean marks(String sql) {
        return sql.contains(Dialect.UNIQUE_KEY);
    }

    /** What the replica runs for {@code sql}, a marked DROP INDEX ({@link #marks}). */
    static String complete(Connection c, Dialect d, String sql) throws SQLException {
        String dropIndex = sql.replace(Dialect.UNIQUE_KEY, "").strip();
        Matcher m = DROP.matcher(sql);
        if (!m.matches()) return dropIndex;
        List<String> parts = SessionSetting.storedParts(m.group(1).strip(), d);
        if (parts == null || parts.isEmpty() || parts.size() > 2) return dropIndex;
        String schema = parts.size() == 2 ? parts.get(0) : c.getSchema();
        String name = parts.get(parts.size() - 1);
        String[] table = uniqueConstraintTable(c, d, schema, name);
        return table == null ? dropIndex : "ALTER TABLE " + JdbcReplicaEndpoint.quoted("\"", table[0]) + "."
                + JdbcReplicaEndpoint.quoted("\"", table[1]) + " DROP CONSTRAINT " + JdbcReplicaEndpoint.quoted("\"", name);
    }

    /** {@code [schema, table]} of the UNIQUE constraint {@code name} of {@code schema} on {@code c}, or null. */
    private static String[] uniqueConstraintTable(Connection c, Dialect d, String schema, String name) throws SQLException {
        String query = switch (d.family()) {
            case DERBY -> "SELECT s.SCHEMANAME, t.TABLENAME FROM SYS.SYSCONSTRAINTS k JOIN SYS.SYSTABLES t ON k.TABLEID = t.TABLEID"
                    + " JOIN SYS.SYSSCHEMAS s ON k.SCHEMAID = s.SCHEMAID WHERE k.TYPE = 'U' AND s.SCHEMANAME = ? AND k.CONSTRAINTNAME = ?";
            case HSQLDB, POSTGRESQL -> "SELECT TABLE_SCHEMA, TABLE_NAME FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS"
                    + " WHERE CONSTRAINT_TYPE = 'UNIQUE' AND CONSTRAINT_SCHEMA = ? AND CONSTRAINT_NAME = ?";
            default -> null; // Db2 (SYSCAT): the DROP INDEX as written
        };
        if (query == null) return null;
        try (PreparedStatement ps = c.prepareStatement(query)) {
            ps.setString(1, schema);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new String[] {rs.getString(1), rs.getString(2)} : null;
            }
        }
    }
}
