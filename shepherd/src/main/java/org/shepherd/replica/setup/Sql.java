package org.shepherd.replica.setup;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** The few JDBC calls the setups make. */
final class Sql {
    /** Causes and chained exceptions looked at when classifying an error; drivers wrap at most a few levels. */
    private static final int ERROR_CHAIN_DEPTH_MAX = 8;

    private Sql() {
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** The first column of the first row as a string, or null when there is no row. */
    static String queryString(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    static List<String> queryStrings(Connection c, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    /** Ends the transaction that setup statements may have opened on a manual-commit connection. */
    static void commitIfManual(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }

    /** Whether the error, one of its causes or one of its chained SQLExceptions satisfies the test. */
    static boolean anyInChain(SQLException e, Predicate<SQLException> test) {
        List<SQLException> seen = new ArrayList<>();
        Throwable t = e;
        while (t != null && seen.size() < ERROR_CHAIN_DEPTH_MAX) {
            if (t instanceof SQLException) {
                SQLException s = (SQLException) t;
                if (seen.contains(s)) {
                    break;
                }
                seen.add(s);
                if (test.test(s)) {
                    return true;
                }
                SQLException next = s.getNextException();
                t = next != null && !seen.contains(next) ? next : s.getCause();
            } else {
                t = t.getCause();
            }
        }
        return false;
    }
}
