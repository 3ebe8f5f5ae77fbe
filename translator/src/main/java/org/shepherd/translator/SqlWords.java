package org.shepherd.translator;

/**
 * The words of SQL text as a client wrote it, outside string literals and comments: for checks that must see every
 * name a statement holds even when the parser cannot read it. Quoted text ({@code "..."}, {@code `...`}) is handed on
 * apart, since it is a name in one dialect and a string in another (MySQL's double quotes).
 */
public final class SqlWords {

    /** What {@link #scan} hands on. */
    public interface Visitor {
        /** An unquoted word: {@code sql.substring(start, end)}, letters, digits, {@code _} and {@code $}. */
        void word(String sql, int start, int end);

        /** The text between a pair of double quotes or backticks, quotes excluded (a doubled quote left doubled). */
        default void quoted(String sql, int start, int end) {
        }

        /** An {@code @} outside literals, quotes and comments. */
        default void at(String sql, int index) {
        }
    }

    private SqlWords() {
    }

    /**
     * Hands every word, quoted text and {@code @} of {@code sql} to {@code v}, in order; skips string literals
     * ({@code '...'} with doubled quotes, and backslash escapes when {@code backslashEscapes}), comments ({@code --},
     * {@code /* ... *}{@code /}, and {@code #} when {@code backslashEscapes}: MySQL) and numbers.
     */
    public static void scan(String sql, boolean backslashEscapes, Visitor v) {
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'') {
                i = endOfQuoted(sql, i, '\'', backslashEscapes);
            } else if (c == '"' || c == '`') {
                int end = endOfQuoted(sql, i, c, false);
                v.quoted(sql, i + 1, Math.max(i + 1, end - 1));
                i = end;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-' || c == '#' && backslashEscapes) {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (Character.isDigit(c)) {
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '.')) {
                    j++;
                }
                i = j;
            } else if (isWordPart(c)) {
                int j = i + 1;
                while (j < n && isWordPart(sql.charAt(j))) {
                    j++;
                }
                v.word(sql, i, j);
                i = j;
            } else {
                if (c == '@') {
                    v.at(sql, i);
                }
                i++;
            }
        }
    }

    private static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /** The index after the quoted text that opens at {@code open}. */
    private static int endOfQuoted(String sql, int open, char quote, boolean backslashEscapes) {
        int n = sql.length();
        int i = open + 1;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\\' && backslashEscapes) {
                i += 2;
            } else if (c == quote) {
                if (i + 1 < n && sql.charAt(i + 1) == quote) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return n;
    }
}
