package org.shepherd.coordinator.cbs;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether the table of an ALTER TABLE (on these engines also a CREATE INDEX: MySQL's ADD INDEX) is there, on an
 * engine that lacks {@code ALTER TABLE IF EXISTS} or {@code DROP COLUMN IF EXISTS}: its "does not exist" errors do not
 * say which (Derby's 42X14 is a column, 42Y55 a table; HSQLDB answers 42501 for both; MySQL's 1091 a column or a key),
 * and the clause covers only what it names. Asked only after such an error, by a query of no rows on the same
 * connection, in the transaction (on these engines a failed statement does not end it).
 */
final class AlteredTable {

    private static final String NAME = RestatedColumn.NAME;
    private static final String QNAME = RestatedColumn.QNAME;
    /** The forms an ALTER TABLE takes on these engines: ALTER TABLE t, Derby's RENAME TABLE t and RENAME COLUMN t.c. */
    private static final Pattern ALTER = Pattern.compile("(?is)\\s*(?:ALTER\\s+TABLE|RENAME\\s+TABLE)\\s+" + QNAME + "\\s.*");
    /** MySQL's ALTER TABLE t ADD INDEX, on these engines. */
    private static final Pattern CREATE_INDEX = Pattern.compile("(?is)\\s*CREATE\\s+(?:UNIQUE\\s+)?INDEX\\s+" + QNAME
            + "\\s+ON\\s+" + QNAME + "\\s*\\(.*");
    private static final Pattern RENAME_COLUMN = Pattern.compile("(?is)\\s*RENAME\\s+COLUMN\\s+" + QNAME + "\\." + NAME
            + "\\s+TO\\s.*");

    private AlteredTable() {
    }

    /**
     * Whether the table {@code sql} alters is there on {@code c} (it is not when the query fails, unless the connection
     * did); null when {@code sql} names none this reads.
     */
    static Boolean isThere(Connection c, String sql) throws SQLException {
        Matcher m = ALTER.matcher(sql);
        if (!m.matches()) m = RENAME_COLUMN.matcher(sql);
        String table = m.matches() ? m.group(1) : null;
        Matcher index = CREATE_INDEX.matcher(sql);
        if (table == null && index.matches()) table = index.group(2);
        if (table == null) return null;
        try (Statement st = c.createStatement()) {
            st.executeQuery("SELECT 1 FROM " + table + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException e) {
            // not only this engine's "does not exist" for a DROP (Derby answers a query of no table 42X05)
            if (e.getSQLState() != null && e.getSQLState().startsWith("08")) throw e;
            return false;
        }
    }
}
