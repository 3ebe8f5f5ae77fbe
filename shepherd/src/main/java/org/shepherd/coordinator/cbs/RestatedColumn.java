package org.shepherd.coordinator.cbs;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.shepherd.translator.SessionSetting;
import org.shepherd.translator.dialect.Dialect;

/**
 * A column's nullability or type changed on a MariaDB replica, which changes a column only by restating all of it
 * ({@code ALTER TABLE t MODIFY c <definition>}): the translator renders {@code MODIFY c [type] MARK [[NOT] NULL]}, the
 * mark being {@link Dialect#RESTATED_COLUMN}, and the replica, before it runs it, puts in what the change does not
 * set as its own catalog holds it: the type, NULL or NOT NULL, the DEFAULT, AUTO_INCREMENT, ON UPDATE, INVISIBLE and the
 * COMMENT. A generated column is refused (0A000). Replayed statements carry the mark too and are completed alike.
 */
final class RestatedColumn {

    /** A name as a replica's rendering writes it: plain, or quoted in backquotes or double quotes. */
    static final String NAME = "(?:`(?:[^`]|``)*`|\"(?:[^\"]|\"\")*\"|[\\p{L}\\p{N}_$]+)";
    /** A name as {@link #NAME}, qualified or not, captured. */
    static final String QNAME = "(" + NAME + "(?:\\." + NAME + ")?)";
    private static final Pattern MODIFY = Pattern.compile("(?is)\\s*(ALTER\\s+TABLE\\s+(?:IF\\s+EXISTS\\s+)?)(" + NAME
            + "(?:\\." + NAME + ")?)\\s+MODIFY\\s+(" + NAME + ")\\s*(.*?)\\s*" + Pattern.quote(Dialect.RESTATED_COLUMN)
            + "\\s*(NOT\\s+NULL|NULL)?\\s*");
    private static final Pattern DROP_DEFAULT = Pattern.compile("(?is)\\s*(ALTER\\s+TABLE\\s+(?:IF\\s+EXISTS\\s+)?)(" + NAME
            + "(?:\\." + NAME + ")?)\\s+ALTER\\s+COLUMN\\s+(" + NAME + ")\\s+DROP\\s+DEFAULT\\s*"
            + Pattern.quote(Dialect.NULL_DEFAULT_IF_NULLABLE) + "\\s*");
    private static final String DEFINITION = "SELECT COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, EXTRA, COLUMN_COMMENT"
            + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ? AND COLUMN_NAME = ?";

    private RestatedColumn() {
    }

    /** Whether {@code sql} (DDL rendered for a replica) holds a column to restate, or a default to drop so. */
    static boolean marks(String sql) {
        return sql.contains(Dialect.RESTATED_COLUMN) || sql.contains(Dialect.NULL_DEFAULT_IF_NULLABLE);
    }

    /**
     * {@code ALTER TABLE t ALTER COLUMN c DROP DEFAULT} marked {@link Dialect#NULL_DEFAULT_IF_NULLABLE}: {@code SET
     * DEFAULT NULL} when {@code c}'s catalog says the column is nullable (MySQL and MariaDB would otherwise leave it
     * without a default, which the other engines cannot), else as it is.
     */
    private static String droppedDefault(Connection c, Dialect d, String sql) throws SQLException {
        Matcher m = DROP_DEFAULT.matcher(sql);
        if (!m.matches()) throw new SQLException("cannot read the column whose default is dropped in " + sql, "XX000");
        List<String> table = SessionSetting.storedParts(m.group(2), d);
        List<String> column = SessionSetting.storedParts(m.group(3), d);
        String statement = m.group(1) + m.group(2) + " ALTER COLUMN " + m.group(3);
        if (table == null || column == null || column.size() != 1) return statement + " DROP DEFAULT";
        return statement + definition(c, table, column.get(0), rs -> rs != null && "YES".equals(rs.getString("IS_NULLABLE"))
                ? " SET DEFAULT NULL" : " DROP DEFAULT");
    }

    /** What {@code read} makes of the column's row of {@code information_schema.COLUMNS} (null: no such column). */
    private static String definition(Connection c, List<String> table, String column, DefinitionRead read) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(DEFINITION)) {
            ps.setString(1, table.size() == 2 ? table.get(0) : null);
            ps.setString(2, table.get(table.size() - 1));
            ps.setString(3, column);
            try (ResultSet rs = ps.executeQuery()) {
                return read.read(rs.next() ? rs : null);
            }
        }
    }

    @FunctionalInterface
    private interface DefinitionRead {
        String read(ResultSet row) throws SQLException;
    }

    /**
     * {@code sql} ({@link #marks}) with the column's definition restated from {@code c}'s catalog; the change's own type
     * or nullability, where it sets one, replaces the replica's.
     */
    static String complete(Connection c, Dialect d, String sql) throws SQLException {
        if (sql.contains(Dialect.NULL_DEFAULT_IF_NULLABLE)) return droppedDefault(c, d, sql);
        Matcher m = MODIFY.matcher(sql);
        if (!m.matches()) throw new SQLException("cannot read the column to restate in " + sql, "XX000");
        List<String> table = SessionSetting.storedParts(m.group(2), d);
        List<String> column = SessionSetting.storedParts(m.group(3), d);
        if (table == null || column == null || column.size() != 1) {
            throw new SQLException("cannot read the column to restate in " + sql, "XX000");
        }
        String type = m.group(4).isBlank() ? null : m.group(4).strip();
        String nullability = m.group(5) == null ? null : m.group(5).toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        StringBuilder out = new StringBuilder(m.group(1)).append(m.group(2)).append(" MODIFY ").append(m.group(3));
        return definition(c, table, column.get(0), rs -> {
            if (rs == null) {
                // no such table or column: MariaDB answers for itself (an error, or a note under IF EXISTS)
                return out.append(' ').append(type != null ? type : "INT").append(' ')
                        .append(nullability != null ? nullability : "NULL").toString();
            }
            out.append(' ').append(type != null ? type : rs.getString("COLUMN_TYPE"));
            out.append(' ').append(nullability != null ? nullability : "NO".equals(rs.getString("IS_NULLABLE")) ? "NOT NULL" : "NULL");
            String dflt = rs.getString("COLUMN_DEFAULT");
            // MariaDB writes a default as SQL (literals quoted); NULL (or no value) means none to restate
            if (dflt != null && !dflt.equalsIgnoreCase("NULL")) out.append(" DEFAULT ").append(dflt);
            out.append(extra(rs.getString("EXTRA"), sql));
            String comment = rs.getString("COLUMN_COMMENT");
            if (comment != null && !comment.isEmpty()) {
                out.append(" COMMENT '").append(comment.replace("\\", "\\\\").replace("'", "''")).append('\'');
            }
            return out.toString();
        });
    }

    /** What of {@code information_schema.COLUMNS.EXTRA} a restated definition repeats. */
    private static String extra(String extra, String sql) throws SQLException {
        if (extra == null || extra.isBlank()) return "";
        String e = extra.toLowerCase(Locale.ROOT);
        if (e.contains("generated")) {
            throw new SQLException("a generated column's nullability or type is not changed through Shepherd: " + sql, "0A000");
        }
        StringBuilder out = new StringBuilder();
        if (e.contains("auto_increment")) out.append(" AUTO_INCREMENT");
        int onUpdate = e.indexOf("on update ");
        if (onUpdate >= 0) {
            String rest = extra.substring(onUpdate);
            int end = rest.indexOf(')');
            out.append(' ').append(end >= 0 ? rest.substring(0, end + 1) : rest.strip());
        }
        if (e.contains("invisible")) out.append(" INVISIBLE");
        return out.toString();
    }
}
