package org.shepherd.translator;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.shepherd.translator.dialect.Dialect;

/**
 * {@code CREATE SEQUENCE} and {@code DROP SEQUENCE}, which the shepherd answers itself: it keeps the sequences, so that
 * {@code NEXT VALUE FOR s} is one value drawn once (a pinned slot, {@link PinnedSlot.Kind#SEQUENCE}) and bound on every
 * replica, whatever the order in which the replicas run their transactions. A replica's own sequence would be advanced
 * outside any transaction's order, by every replica for itself.
 *
 * @param create CREATE (else DROP)
 * @param name the sequence's name as the client's engine stores it (folded unless quoted), without its schema:
 *     sequences are one namespace
 * @param start the first value (CREATE; default 1)
 * @param increment the step (CREATE; default 1, not 0)
 * @param ifExists DROP ... IF EXISTS
 */
public record SequenceStatement(boolean create, String name, long start, long increment, boolean ifExists) {

    private static final Pattern SEQUENCE_DDL = Pattern.compile("^\\s*(CREATE|DROP|ALTER)\\s+SEQUENCE\\b",
            Pattern.CASE_INSENSITIVE);

    private static final Pattern CALL_NEXT_VALUE = Pattern.compile("^\\s*CALL\\s+(?=NEXT\\s+VALUE\\s+FOR\\b)",
            Pattern.CASE_INSENSITIVE);

    /**
     * HSQLDB's {@code CALL NEXT VALUE FOR s} (how Hibernate draws there), which the parser reads as a procedure call, as
     * {@code VALUES NEXT VALUE FOR s}, which the translator runs as a one-row SELECT like any VALUES statement.
     */
    static String callAsValues(String sql) {
        return CALL_NEXT_VALUE.matcher(sql).replaceFirst("VALUES ");
    }

    /** The sequence statement {@code sql} is, or null when it is none (cheap for other statements). */
    public static SequenceStatement of(String sql, Dialect client) throws SQLException {
        if (!SEQUENCE_DDL.matcher(sql).lookingAt()) return null;
        if (sql.strip().regionMatches(true, 0, "ALTER", 0, 5)) {
            throw new SQLException("ALTER SEQUENCE is not supported: Shepherd keeps sequences itself; DROP SEQUENCE, then"
                    + " CREATE SEQUENCE ... START WITH the next value", "0A000");
        }
        List<String> t = tokens(sql);
        boolean create = t.get(0).equalsIgnoreCase("CREATE");
        int at = 2; // after CREATE|DROP SEQUENCE
        boolean ifExists = false;
        if (at + 1 < t.size() && t.get(at).equalsIgnoreCase("IF")) {
            if (create && at + 2 < t.size() && t.get(at + 1).equalsIgnoreCase("NOT") && t.get(at + 2).equalsIgnoreCase("EXISTS")) {
                throw new SQLException("CREATE SEQUENCE IF NOT EXISTS is not supported; CREATE SEQUENCE, or DROP SEQUENCE IF"
                        + " EXISTS first", "0A000");
            }
            if (!create && t.get(at + 1).equalsIgnoreCase("EXISTS")) {
                ifExists = true;
                at += 2;
            }
        }
        if (at >= t.size()) throw unreadable(sql);
        String name = stored(t.get(at++), client);
        if (!create) {
            if (at < t.size() && t.get(at).equalsIgnoreCase("RESTRICT")) at++;
            if (at != t.size()) throw unreadable(sql);
            return new SequenceStatement(false, name, 0, 0, ifExists);
        }
        long start = 1;
        long increment = 1;
        while (at < t.size()) {
            String word = t.get(at).toUpperCase(Locale.ROOT);
            String next = at + 1 < t.size() ? t.get(at + 1).toUpperCase(Locale.ROOT) : "";
            if (word.equals("AS") && (next.equals("BIGINT") || next.equals("INTEGER") || next.equals("INT") || next.equals("SMALLINT"))) {
                at += 2;
            } else if (word.equals("START") && next.equals("WITH") && at + 2 < t.size()) {
                start = number(t.get(at + 2), sql);
                at += 3;
            } else if (word.equals("INCREMENT") && next.equals("BY") && at + 2 < t.size()) {
                increment = number(t.get(at + 2), sql);
                at += 3;
            } else if (word.equals("NOCYCLE") || word.equals("NOCACHE") || word.equals("NOMAXVALUE") || word.equals("NOMINVALUE")) {
                at++;
            } else if (word.equals("NO") && (next.equals("CYCLE") || next.equals("CACHE") || next.equals("MAXVALUE")
                    || next.equals("MINVALUE"))) {
                at += 2;
            } else if (word.equals("CACHE") && at + 1 < t.size()) {
                at += 2;
            } else {
                throw new SQLException("CREATE SEQUENCE ... " + t.get(at) + " is not supported: Shepherd keeps sequences"
                        + " itself, with START WITH and INCREMENT BY only (no bounds, no cycle)", "0A000");
            }
        }
        if (increment == 0) throw new SQLException("a sequence's INCREMENT BY must not be 0", "42000");
        return new SequenceStatement(true, name, start, increment, false);
    }

    private static SQLException unreadable(String sql) {
        return new SQLException("Shepherd cannot read this sequence statement (write CREATE SEQUENCE name [START WITH n]"
                + " [INCREMENT BY m], or DROP SEQUENCE [IF EXISTS] name): " + sql.strip(), "42000");
    }

    private static long number(String token, String sql) throws SQLException {
        try {
            return Long.parseLong(token);
        } catch (NumberFormatException e) {
            throw unreadable(sql);
        }
    }

    /** Words, numbers (with their sign) and quoted names of {@code sql}, without a final semicolon. */
    private static List<String> tokens(String sql) {
        List<String> out = new ArrayList<>();
        String text = sql.strip();
        if (text.endsWith(";")) text = text.substring(0, text.length() - 1);
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            int start = i;
            char open = 0;
            while (i < text.length() && (open != 0 || !Character.isWhitespace(text.charAt(i)))) {
                char ch = text.charAt(i);
                if (open == 0 && (ch == '"' || ch == '`')) {
                    open = ch;
                } else if (ch == open) {
                    open = 0;
                }
                i++;
            }
            out.add(text.substring(start, i));
        }
        return out;
    }

    /** A sequence name as written in a statement, as the client's engine stores it (its schema part left out). */
    public static String stored(String name, Dialect client) {
        List<String> parts = SessionSetting.storedParts(name.strip(), client);
        return parts == null ? client.foldUnquotedIdentifier(name.strip()) : parts.get(parts.size() - 1);
    }
}
