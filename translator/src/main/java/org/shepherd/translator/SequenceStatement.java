package org.shepherd.translator;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.shepherd.translator.dialect.Dialect;
import org.shepherd.translator.dialect.SequenceDefaults;

/**
 * {@code CREATE}, {@code ALTER} and {@code DROP SEQUENCE}, which the shepherd answers itself: it keeps the sequences,
 * so that {@code NEXT VALUE FOR s} is one value drawn once (a pinned slot, {@link PinnedSlot.Kind#SEQUENCE}) and bound
 * on every replica, whatever the order in which the replicas run their transactions. A replica's own sequence would be
 * advanced outside any transaction's order, by every replica for itself.
 *
 * @param kind CREATE, ALTER or DROP
 * @param name the sequence's name as the client's engine stores it (folded unless quoted), without its schema:
 *     sequences are one namespace
 * @param ifExists {@code IF NOT EXISTS} for CREATE, {@code IF EXISTS} for ALTER and DROP
 * @param options what the statement says about the sequence (CREATE, ALTER)
 * @param defaults what the client's engine assumes for what a CREATE leaves out
 */
public record SequenceStatement(Kind kind, String name, boolean ifExists, Options options, SequenceDefaults defaults) {

    /** What the statement does. */
    public enum Kind { CREATE, ALTER, DROP }

    /**
     * The clauses of a CREATE or ALTER SEQUENCE, null (or false) where the statement does not have them.
     *
     * @param type {@code AS type} (CREATE)
     * @param start {@code START WITH n}
     * @param increment {@code INCREMENT BY n}
     * @param min {@code MINVALUE n}
     * @param max {@code MAXVALUE n}
     * @param noMin {@code NO MINVALUE}: the default for the type and direction
     * @param noMax {@code NO MAXVALUE}
     * @param cycle {@code CYCLE} (true) or {@code NO CYCLE} (false)
     * @param restart {@code RESTART [WITH n]} (ALTER)
     * @param restartWith the n of {@code RESTART WITH n}; null for the sequence's START WITH
     */
    public record Options(String type, Long start, Long increment, Long min, Long max, boolean noMin, boolean noMax,
                          Boolean cycle, boolean restart, Long restartWith) {
        static final Options NONE = new Options(null, null, null, null, null, false, false, null, false, null);
    }

    /**
     * What an ALTER SEQUENCE leaves.
     *
     * @param definition the sequence's new definition
     * @param restartAt the value the next draw gives, or null to go on from where the sequence is
     */
    public record Alteration(SequenceDefinition definition, Long restartAt) {
    }

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
        List<String> t = tokens(sql);
        Kind kind = Kind.valueOf(t.get(0).toUpperCase(Locale.ROOT));
        int at = 2; // after CREATE|ALTER|DROP SEQUENCE
        boolean ifExists = false;
        if (kind == Kind.CREATE && at + 3 < t.size() && t.get(at).equalsIgnoreCase("IF") && t.get(at + 1).equalsIgnoreCase("NOT")
                && t.get(at + 2).equalsIgnoreCase("EXISTS")) {
            ifExists = true;
            at += 3;
        } else if (kind != Kind.CREATE && at + 2 < t.size() && t.get(at).equalsIgnoreCase("IF")
                && t.get(at + 1).equalsIgnoreCase("EXISTS")) {
            ifExists = true;
            at += 2;
        }
        if (at >= t.size()) throw unreadable(sql);
        String name = stored(t.get(at++), client);
        if (kind == Kind.DROP) {
            if (at < t.size() && t.get(at).equalsIgnoreCase("RESTRICT")) at++;
            if (at != t.size()) throw unreadable(sql);
            return new SequenceStatement(kind, name, ifExists, Options.NONE, client.sequenceDefaults());
        }
        SequenceStatement st = new SequenceStatement(kind, name, ifExists, options(t, at, kind, sql), client.sequenceDefaults());
        if (kind == Kind.CREATE) st.definition(); // a CREATE whose values do not fit fails here, as on an engine
        return st;
    }

    private static Options options(List<String> t, int at, Kind kind, String sql) throws SQLException {
        String type = null;
        Long start = null;
        Long increment = null;
        Long min = null;
        Long max = null;
        boolean noMin = false;
        boolean noMax = false;
        Boolean cycle = null;
        boolean restart = false;
        Long restartWith = null;
        while (at < t.size()) {
            String word = t.get(at++).toUpperCase(Locale.ROOT);
            String next = at < t.size() ? t.get(at).toUpperCase(Locale.ROOT) : "";
            switch (word) {
                case "AS":
                    if (kind != Kind.CREATE || next.isEmpty()) throw unsupported(word, sql);
                    type = SequenceDefinition.typeNamed(next);
                    at++;
                    break;
                case "START":
                    at = skip(t, at, "WITH");
                    start = number(t, at++, sql);
                    break;
                case "INCREMENT":
                    at = skip(t, at, "BY");
                    increment = number(t, at++, sql);
                    break;
                case "MINVALUE":
                    at = skip(t, at, "=");
                    min = number(t, at++, sql);
                    break;
                case "MAXVALUE":
                    at = skip(t, at, "=");
                    max = number(t, at++, sql);
                    break;
                case "CYCLE":
                    cycle = true;
                    break;
                case "NOCYCLE":
                    cycle = false;
                    break;
                case "NOMINVALUE":
                    noMin = true;
                    break;
                case "NOMAXVALUE":
                    noMax = true;
                    break;
                case "NO":
                    at++;
                    switch (next) {
                        case "CYCLE": cycle = false; break;
                        case "MINVALUE": noMin = true; break;
                        case "MAXVALUE": noMax = true; break;
                        case "CACHE": case "ORDER": break;
                        default: throw unsupported(word + " " + next, sql);
                    }
                    break;
                case "CACHE":
                    at = skip(t, at, "=");
                    number(t, at++, sql); // every draw is the shepherd's: an engine's cache has no meaning here
                    break;
                case "NOCACHE": case "ORDER": case "NOORDER":
                    break;
                case "RESTART":
                    if (kind != Kind.ALTER) throw unsupported(word, sql);
                    restart = true;
                    if (at < t.size()) {
                        int value = skip(t, at, "WITH");
                        if (value > at || isNumber(t.get(at))) {
                            restartWith = number(t, value, sql);
                            at = value + 1;
                        }
                    }
                    break;
                default:
                    throw unsupported(t.get(at - 1), sql);
            }
        }
        if ((min != null && noMin) || (max != null && noMax)) throw unreadable(sql);
        return new Options(type, start, increment, min, max, noMin, noMax, cycle, restart, restartWith);
    }

    /** The definition a CREATE SEQUENCE gives, the client engine's defaults filling in what it leaves out. */
    public SequenceDefinition definition() throws SQLException {
        if (kind != Kind.CREATE) throw new IllegalStateException("not a CREATE SEQUENCE: " + kind);
        String type = options.type() != null ? options.type() : defaults.type();
        long increment = options.increment() != null ? options.increment() : 1;
        long min = options.min() != null ? options.min() : defaultMin(type, increment);
        long max = options.max() != null ? options.max() : defaultMax(type, increment);
        long start = options.start() != null ? options.start() : defaults.startAtZero() ? 0 : increment > 0 ? min : max;
        boolean cycle = options.cycle() != null && options.cycle();
        return new SequenceDefinition(type, start, increment, min, max, cycle).checked();
    }

    /** What this ALTER SEQUENCE makes of a sequence defined as {@code current}. */
    public Alteration alter(SequenceDefinition current) throws SQLException {
        if (kind != Kind.ALTER) throw new IllegalStateException("not an ALTER SEQUENCE: " + kind);
        long increment = options.increment() != null ? options.increment() : current.increment();
        long min = options.noMin() ? defaultMin(current.type(), increment) : options.min() != null ? options.min() : current.min();
        long max = options.noMax() ? defaultMax(current.type(), increment) : options.max() != null ? options.max() : current.max();
        long start = options.start() != null ? options.start() : current.start();
        boolean cycle = options.cycle() != null ? options.cycle() : current.cycle();
        SequenceDefinition altered = new SequenceDefinition(current.type(), start, increment, min, max, cycle).checked();
        Long restartAt = null;
        if (options.restart()) {
            restartAt = options.restartWith() != null ? options.restartWith() : start;
            if (!altered.holds(restartAt)) {
                throw new SQLException("RESTART WITH " + restartAt + " must lie between MINVALUE " + min + " and MAXVALUE "
                        + max, "42000");
            }
        }
        return new Alteration(altered, restartAt);
    }

    private long defaultMin(String type, long increment) throws SQLException {
        return defaults.typeRangeBounds() || increment < 0 ? SequenceDefinition.typeMin(type) : 1;
    }

    private long defaultMax(String type, long increment) throws SQLException {
        return defaults.typeRangeBounds() || increment > 0 ? SequenceDefinition.typeMax(type) : -1;
    }

    /** The position after an optional noise word ({@code WITH}, {@code BY}) or {@code =} at {@code at}. */
    private static int skip(List<String> t, int at, String noise) {
        if (at < t.size() && (t.get(at).equalsIgnoreCase(noise) || t.get(at).equals("="))) return at + 1;
        return at;
    }

    private static boolean isNumber(String token) {
        return token.matches("[+-]?\\d+");
    }

    private static SQLException unsupported(String clause, String sql) {
        return new SQLException("sequence clause " + clause + " is not supported: Shepherd keeps sequences itself, with AS,"
                + " START WITH, INCREMENT BY, [NO] MINVALUE, [NO] MAXVALUE, [NO] CYCLE, CACHE (ignored) and, in ALTER,"
                + " RESTART [WITH n]: " + sql.strip(), "0A000");
    }

    private static SQLException unreadable(String sql) {
        return new SQLException("Shepherd cannot read this sequence statement (write CREATE SEQUENCE [IF NOT EXISTS] name"
                + " [AS type] [START WITH n] [INCREMENT BY m] [MINVALUE a] [MAXVALUE b] [[NO] CYCLE], ALTER SEQUENCE name"
                + " ... [RESTART [WITH n]], or DROP SEQUENCE [IF EXISTS] name): " + sql.strip(), "42000");
    }

    private static long number(List<String> t, int at, String sql) throws SQLException {
        if (at >= t.size()) throw unreadable(sql);
        try {
            return Long.parseLong(t.get(at));
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
