package org.shepherd.coordinator.cbs;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.shepherd.translator.SessionSetting;
import org.shepherd.translator.dialect.Dialect;

/**
 * {@code DROP TABLE t CASCADE} as every engine runs it alike: the foreign keys of tables that reference t are dropped
 * first, each replica reading them from its own catalog (their names may differ by engine), then t. Engines' own
 * CASCADE differs (PostgreSQL and HSQLDB drop the views that read t too; Derby and MySQL have none).
 */
final class ReferencingKeys {

    private ReferencingKeys() {
    }

    /** Drops, on {@code c}, the foreign keys that reference the table {@code dropTable} (a DROP TABLE in dialect d) drops. */
    static void dropFor(Connection c, Dialect d, String dropTable) throws SQLException {
        List<String> name = tableOf(dropTable, d);
        boolean mysql = d.family() == Dialect.Family.MYSQL;
        String schema = name.size() == 2 ? name.get(0) : null;
        String table = name.get(name.size() - 1);
        String catalog = null;
        if (mysql) { // a MySQL database is a JDBC catalog
            catalog = schema != null ? schema : c.getCatalog();
            schema = null;
        } else if (schema == null) {
            schema = c.getSchema();
        }
        Set<List<String>> keys = new LinkedHashSet<>(); // one row per column of a key
        DatabaseMetaData md = c.getMetaData();
        try (ResultSet rs = md.getExportedKeys(catalog, schema, table)) {
            while (rs.next()) {
                keys.add(Arrays.asList(rs.getString("FKTABLE_CAT"), rs.getString("FKTABLE_SCHEM"), rs.getString("FKTABLE_NAME"),
                        rs.getString("FK_NAME")));
            }
        }
        char q = d.identifierQuote();
        for (List<String> key : keys) {
            if (key.get(3) == null) {
                throw new SQLException("DROP TABLE ... CASCADE: a foreign key of " + key.get(2) + " that references " + table
                        + " has no name, so it cannot be dropped first", "0A000");
            }
            String owner = mysql ? key.get(0) : key.get(1);
            String alter = "ALTER TABLE " + (owner == null ? "" : quote(owner, q) + ".") + quote(key.get(2), q)
                    + (mysql ? " DROP FOREIGN KEY " : " DROP CONSTRAINT ") + quote(key.get(3), q);
            try (Statement st = c.createStatement()) {
                st.execute(alter);
            }
        }
    }

    /**
     * The parts of the table name in {@code DROP TABLE [IF EXISTS] name} as the translator renders it for dialect
     * {@code d} ({@code [schema.]table}, parts plain or quoted with d's quote), in the case the engine stores them.
     */
    static List<String> tableOf(String dropTable, Dialect d) throws SQLException {
        String rest = dropTable.strip();
        for (String word : new String[] {"DROP", "TABLE", "IF", "EXISTS"}) {
            if (rest.regionMatches(true, 0, word, 0, word.length()) && rest.length() > word.length()
                    && Character.isWhitespace(rest.charAt(word.length()))) {
                rest = rest.substring(word.length()).stripLeading();
            } else if (!word.equals("IF") && !word.equals("EXISTS")) {
                throw new SQLException("not a DROP TABLE: " + dropTable, "XX000");
            }
        }
        List<String> parts = SessionSetting.storedParts(rest.strip(), d);
        if (parts == null || parts.size() > 2) throw new SQLException("cannot read the table of " + dropTable, "XX000");
        return parts;
    }

    private static String quote(String name, char q) {
        String quote = String.valueOf(q);
        return quote + name.replace(quote, quote + quote) + quote;
    }
}
