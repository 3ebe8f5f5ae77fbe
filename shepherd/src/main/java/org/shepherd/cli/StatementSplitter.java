package org.shepherd.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits shell input into SQL statements at {@code ;} outside quotes and comments.
 *
 * <p>Hand-written rather than JSqlParser: the shell must pass every dialect's SQL through untouched, including
 * statements no parser knows; only the statement boundaries matter here. Understands {@code '...'} (with
 * {@code ''}), {@code "..."}, {@code `...`}, {@code -- line} and {@code /* block *&#47;} comments.
 */
public final class StatementSplitter {

    /** The statements found, and whether the text ended inside an unterminated statement. */
    public record Split(List<String> statements, String remainder) {
        public boolean complete() {
            return remainder.isBlank() || isOnlyComments(remainder);
        }
    }

    private StatementSplitter() {
    }

    /** Splits the whole text; a final statement without {@code ;} is returned as a statement as well. */
    public static List<String> splitAll(String text) {
        Split split = split(text);
        List<String> statements = new ArrayList<>(split.statements());
        String last = stripComments(split.remainder()).strip();
        if (!last.isEmpty()) {
            statements.add(split.remainder().strip());
        }
        return statements;
    }

    /** Splits at terminating semicolons; text after the last one is returned as the remainder. */
    public static Split split(String text) {
        List<String> statements = new ArrayList<>();
        int start = 0;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(text, i, c);
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                i = skipLineComment(text, i);
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                i = skipBlockComment(text, i);
            } else if (c == ';') {
                String statement = text.substring(start, i).strip();
                if (!stripComments(statement).isBlank()) {
                    statements.add(statement);
                }
                i++;
                start = i;
            } else {
                i++;
            }
        }
        return new Split(statements, text.substring(start));
    }

    static boolean isOnlyComments(String text) {
        return stripComments(text).isBlank();
    }

    /** Removes comments (outside quotes); used only to decide whether text holds anything to run. */
    static String stripComments(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = skipQuoted(text, i, c);
                out.append(text, i, end);
                i = end;
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                i = skipLineComment(text, i);
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                i = skipBlockComment(text, i);
                out.append(' ');
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** Returns the index just after the closing quote, or the text length if the quote is not closed. */
    private static int skipQuoted(String text, int open, char quote) {
        int i = open + 1;
        while (i < text.length()) {
            if (text.charAt(i) == quote) {
                if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return text.length();
    }

    private static int skipLineComment(String text, int start) {
        int end = text.indexOf('\n', start);
        return end < 0 ? text.length() : end + 1;
    }

    private static int skipBlockComment(String text, int start) {
        int end = text.indexOf("*/", start + 2);
        return end < 0 ? text.length() : end + 2;
    }
}
