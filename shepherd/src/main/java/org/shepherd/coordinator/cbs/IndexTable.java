package org.shepherd.coordinator.cbs;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.shepherd.translator.SessionSetting;
import org.shepherd.translator.dialect.Dialect;

/**
 * A {@code DROP INDEX i} from a client whose engine names no table in it (Derby, HSQLDB, Db2: an index name is unique in
 * its schema), on a MySQL-family replica, which needs {@code DROP INDEX i ON t}: the translator ends the statement with
 * {@link Dialect#INDEX_TABLE} and the replica, before it runs it, reads the table of index i in its own catalog
 * ({@code information_schema.STATISTICS}; index names are case-insensitive there). No such index: MySQL's own error
 * (1091), or nothing under IF EXISTS. Replayed statements carry the mark too and are completed alike.
 */
final class IndexTable {

    private static final String NAME = RestatedColumn.NAME;
    private static final Pattern DROP = Pattern.compile("(?is)\\s*DROP\\s+INDEX\\s+(IF\\s+EXISTS\\s+)?(" + NAME + "(?:\\." + NAME
            + ")?)\\s*" + Pattern.quote(Dialect.INDEX_TABLE) + "\\s*");
    private static final String TABLES = "SELECT DISTINCT TABLE_NAME FROM information_schema.STATISTICS"
            + " WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND LOWER(INDEX_NAME) = LOWER(?) ORDER BY TABLE_NAME";
    /** A statement that does nothing, for a DROP INDEX IF EXISTS of an index that is not there. */
    static final String NOTHING = "DO 0";
    /** MySQL's and MariaDB's error for a key that is not there ("Can't DROP ...; check that column/key exists"). */
    private static final int NO_SUCH_KEY = 1091;

    private IndexTable() {
    }

    /** Whether {@code sql} (DDL rendered for a replica) is a DROP INDEX whose table this replica must find. */
    static boolean marks(String sql) {
        return sql.contains(Dialect.INDEX_TABLE);
    }

    /** {@code sql} ({@link #marks}) as {@code DROP INDEX [IF EXISTS] i ON [schema.]t}, t read from {@code c}'s catalog. */
    static String complete(Connection c, Dialect d, String sql) throws SQLException {
        Matcher m = DROP.matcher(sql);
        List<String> index = m.matches() ? SessionSetting.storedParts(m.group(2), d) : null;
        if (index == null || index.isEmpty() || index.size() > 2) {
            throw new SQLException("cannot read the index to drop in " + sql, "XX000");
        }
        String schema = index.size() == 2 ? index.get(0) : null;
        String name = index.get(index.size() - 1);
        List<String> tables = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(TABLES)) {
            ps.setString(1, schema);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) tables.add(rs.getString(1));
            }
        }
        boolean ifExists = m.group(1) != null;
        if (tables.isEmpty() && ifExists) return NOTHING;
        if (tables.isEmpty()) {
            throw new SQLException("Can't DROP INDEX " + quote(name) + ": no table " + (schema == null ? "here" : "of " + schema)
                    + " has an index of that name", "42000", NO_SUCH_KEY);
        }
        if (tables.size() > 1) {
            throw new SQLException("DROP INDEX " + quote(name) + " names no table, and tables " + tables + " each have an index"
                    + " of that name here: which one is meant is not known", "0A000");
        }
        return "DROP INDEX " + (ifExists ? "IF EXISTS " : "") + quote(name) + " ON " + (schema == null ? "" : quote(schema) + ".")
                + quote(tables.get(0));
    }

    private static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
