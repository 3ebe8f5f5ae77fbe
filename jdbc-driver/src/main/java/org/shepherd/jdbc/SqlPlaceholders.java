package org.shepherd.jdbc;

/**
 * Counts the {@code ?} parameter markers of a statement, skipping string literals, quoted identifiers and
 * comments. Used to check parameter indexes and that every parameter was set before the statement is sent.
 */
final class SqlPlaceholders {

    private SqlPlaceholders() {
    }

    /** @param backslashEscapes whether a backslash escapes the next character inside quotes (MySQL, MariaDB) */
    static int count(String sql, boolean backslashEscapes) {
        int n = 0;
        int i = 0;
        int len = sql.length();
        while (i < len) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(sql, i, c, backslashEscapes);
            } else if (c == '-' && i + 1 < len && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? len : eol + 1;
            } else if (c == '/' && i + 1 < len && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? len : end + 2;
            } else {
                if (c == '?') n++;
                i++;
            }
        }
        return n;
    }

    /** Index after the closing quote; a doubled quote inside is an escaped quote. */
    private static int skipQuoted(String sql, int start, char quote, boolean backslashEscapes) {
        int i = start + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\\' && backslashEscapes && i + 1 < sql.length()) {
                i += 2;
                continue;
            }
            if (c == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }
}
