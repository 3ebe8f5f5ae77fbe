package org.shepherd.jdbc;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code SET autocommit = 0|1} (MySQL, MariaDB: also {@code @@autocommit}, {@code SESSION}), {@code SET AUTOCOMMIT
 * TRUE|FALSE|ON|OFF} (HSQLDB), written as SQL by a script or a tool: the driver runs it as
 * {@link java.sql.Connection#setAutoCommit}, so that the connection's own view of its mode stays true (the shepherd
 * refuses session statements, whose effect would otherwise stay on one pooled replica connection).
 */
final class AutoCommitStatement {

    private static final Pattern SET_AUTOCOMMIT = Pattern.compile(
            "\\s*SET\\s+(?:(?:SESSION|LOCAL)\\s+|@@(?:SESSION\\.|LOCAL\\.)?)?AUTOCOMMIT\\s*(?:=|\\s|\\bTO\\b)\\s*"
                    + "(0|1|ON|OFF|TRUE|FALSE)\\s*;?\\s*",
            Pattern.CASE_INSENSITIVE);

    private AutoCommitStatement() {
    }

    /** The autocommit mode {@code sql} sets, or null when it is not such a statement. */
    static Boolean parse(String sql) {
        if (sql.length() > 64) return null;
        Matcher m = SET_AUTOCOMMIT.matcher(sql);
        if (!m.matches()) return null;
        String v = m.group(1).toUpperCase(Locale.ROOT);
        return v.equals("1") || v.equals("ON") || v.equals("TRUE");
    }
}
