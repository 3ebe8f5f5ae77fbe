package org.shepherd.translator;

import java.sql.Connection;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.shepherd.translator.dialect.Dialect;

/**
 * A session statement ({@code SET ...}, {@code USE ...}, {@code RESET ...}) as the shepherd sees it. Replica connections
 * are taken per transaction, so no setting can live on one; the shepherd answers the settings whose effect it already
 * guarantees, the same way in every dialect's spelling, and refuses the rest:
 * <ul>
 *   <li>{@link Kind#ISOLATION}: every transaction runs SERIALIZABLE. Asking for SERIALIZABLE changes nothing; asking
 *   for a weaker level gets SERIALIZABLE, which gives every guarantee the weaker level gives, with a warning (as
 *   {@code Connection.setTransactionIsolation} does).</li>
 *   <li>{@link Kind#CHARACTER_SET}: UTF-8. The Shepherd protocol carries text as Unicode, so a client asking for
 *   UTF-8 gets what it already has; another character set or a collation is refused.</li>
 *   <li>{@link Kind#SCHEMA}: the session's default schema ({@code SET [CURRENT] SCHEMA s}, MySQL's {@code USE db},
 *   PostgreSQL's {@code SET search_path TO s} with one schema), kept by the shepherd's session, which names it in the
 *   statements it sends ({@link Translator#translate(String, String)}); {@code SET SCHEMA DEFAULT} goes back to the
 *   replicas' default.</li>
 *   <li>{@link Kind#OTHER}: any other setting, and SQL-level PREPARE / EXECUTE / DEALLOCATE, LISTEN, DISCARD, whose
 *   effect would stay with one pooled connection: refused with SQLState 0A000 (settings belong in the replica
 *   setup).</li>
 *   <li>{@link Kind#TEMPORARY_OBJECT}: a temporary table, view or sequence, whose rows or definition belong to one
 *   database session: refused with SQLState 0A000, like a setting.</li>
 *   <li>{@link Kind#CONNECTION_LOCK}: MySQL's {@code LOCK TABLES}, whose locks belong to the connection, not to the
 *   transaction: refused with SQLState 0A000.</li>
 *   <li>{@link Kind#NO_EFFECT}: PostgreSQL's {@code client_min_messages} and {@code application_name} (Hibernate sets
 *   the first before its DDL): answered with warning 01000 that they have no effect through Shepherd.</li>
 *   <li>{@link Kind#TIME_ZONE}: the session's time zone (MySQL's {@code time_zone}, PostgreSQL's and HSQLDB's
 *   {@code TIME ZONE}): the shepherd reads the clock for every session in its own zone, so the zone it already uses is
 *   answered and another refused.</li>
 * </ul>
 *
 * @param kind which of the kinds above
 * @param isolation for {@link Kind#ISOLATION}, the level asked for in JDBC terms
 *                  ({@link java.sql.Connection#TRANSACTION_SERIALIZABLE} etc.), or -1 for a reset to the default
 * @param schema for {@link Kind#SCHEMA}, the schema as SQL names it (a plain identifier as written, or quoted with
 *               double quotes), or null for the replicas' default
 */
public record SessionSetting(Kind kind, int isolation, String schema, ZoneId zone) {

    public SessionSetting(Kind kind, int isolation) {
        this(kind, isolation, null, null);
    }

    public SessionSetting(Kind kind, int isolation, String schema) {
        this(kind, isolation, schema, null);
    }

    /** For {@link Kind#TIME_ZONE}: the zone asked for, or null for the shepherd's own (SYSTEM, LOCAL, DEFAULT). */
    static SessionSetting timeZone(ZoneId zone) {
        return new SessionSetting(Kind.TIME_ZONE, -1, null, zone);
    }

    /** What a session statement asks for. */
    public enum Kind {
        ISOLATION, CHARACTER_SET, OTHER,
        /** The session's default schema. */
        SCHEMA,
        /** A temporary table (or view, sequence): it would live on one pooled replica connection. Refused. */
        TEMPORARY_OBJECT,
        /** MySQL's LOCK TABLES / UNLOCK TABLES: locks held by the connection, past the transaction. Refused. */
        CONNECTION_LOCK,
        /**
         * PostgreSQL's {@code client_min_messages} and {@code application_name}: what the database sends a client beside
         * its answers, and the name it shows for the connection. No replica's notices reach a Shepherd client, and a
         * replica connection serves many clients: answered with a warning that the setting has no effect.
         */
        NO_EFFECT,
        /**
         * MySQL's session variables that Shepherd keeps at one value on every replica ({@link #KEPT_VARIABLES}) set to
         * that value (a tool restoring what it read): answered, nothing to do.
         */
        ALREADY_SO,
        /** One of those variables set to another value: refused, naming the value kept. */
        KEPT_VARIABLE,
        /**
         * The session's time zone, {@link #zone()}: what the clock functions read (the shepherd pins them). The
         * shepherd's own zone is answered; another is refused.
         */
        TIME_ZONE,
        /**
         * A time zone the shepherd cannot read as the client's engine would (a name no zone has, PostgreSQL's POSIX
         * offsets such as {@code '+02:00'}, which it reads west of UTC): refused.
         */
        UNKNOWN_TIME_ZONE
    }

    /**
     * MySQL and MariaDB session variables whose value every replica connection has (the replica setup sets them) and
     * that clients read and set back (Flyway: {@code SELECT @@foreign_key_checks}, then {@code SET foreign_key_checks=?,
     * sql_safe_updates=?}): a read is answered with the value, a SET to it does nothing, a SET to another is refused.
     */
    public static final Map<String, String> KEPT_VARIABLES = Map.of("foreign_key_checks", "1", "sql_safe_updates", "0",
            "unique_checks", "1");

    private static final Pattern KEPT_ASSIGNMENT = Pattern.compile("(?is)\\s*(?:SESSION\\s+|@@SESSION\\.|@@LOCAL\\.|@@)?"
            + "([a-z_]+)\\s*(?:=|:=|TO)\\s*'?([A-Za-z0-9]+)'?\\s*");

    private static final String LEVEL = "(READ\\s+UNCOMMITTED|READ\\s+COMMITTED|REPEATABLE\\s+READ|SERIALIZABLE)";
    /** Standard SQL, MySQL/MariaDB (SESSION), PostgreSQL (for the current transaction). */
    private static final Pattern SET_TRANSACTION =
            Pattern.compile("(?is)SET\\s+(?:SESSION\\s+)?TRANSACTION\\s+ISOLATION\\s+LEVEL\\s+" + LEVEL);
    /** PostgreSQL and HSQLDB: the session's default. */
    private static final Pattern SET_CHARACTERISTICS = Pattern.compile(
            "(?is)SET\\s+SESSION\\s+CHARACTERISTICS\\s+AS\\s+TRANSACTION\\s+ISOLATION\\s+LEVEL\\s+" + LEVEL);
    /** Derby and Db2, whose RR (repeatable read) is SQL's SERIALIZABLE and RS (read stability) SQL's REPEATABLE READ. */
    private static final Pattern SET_ISOLATION = Pattern.compile("(?is)SET\\s+(?:CURRENT\\s+)?ISOLATION\\s*(?:=\\s*)?"
            + "(UR|DIRTY\\s+READ|READ\\s+UNCOMMITTED|CS|READ\\s+COMMITTED|CURSOR\\s+STABILITY|RS|RR|REPEATABLE\\s+READ"
            + "|SERIALIZABLE|RESET)");
    /** MySQL and MariaDB system variables (not GLOBAL: that would be the server's). */
    private static final Pattern SET_ISOLATION_VARIABLE = Pattern.compile("(?is)SET\\s+(?:SESSION\\s+|@@SESSION\\.|@@)?"
            + "(?:tx_isolation|transaction_isolation)\\s*(?:=|TO)\\s*'(READ-UNCOMMITTED|READ-COMMITTED|REPEATABLE-READ|SERIALIZABLE)'");
    private static final String UTF8 = "'?(?:utf8mb4|utf8mb3|utf8|utf-8|unicode)'?";
    /** MySQL/MariaDB and PostgreSQL; SET NAMES ... COLLATE is not matched (a collation changes comparisons). */
    private static final Pattern SET_NAMES = Pattern.compile("(?is)SET\\s+(?:NAMES|CHARACTER\\s+SET|CHARSET)\\s+" + UTF8);
    /** Derby/Db2 DECLARE GLOBAL TEMPORARY TABLE, HSQLDB DECLARE LOCAL TEMPORARY TABLE, CREATE [GLOBAL|LOCAL] TEMP[ORARY] ... */
    private static final Pattern TEMPORARY_OBJECT = Pattern.compile("(?is)(?:DECLARE\\s+(?:GLOBAL|LOCAL)\\s+TEMPORARY\\s+TABLE"
            + "|CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:GLOBAL\\s+|LOCAL\\s+)?(?:TEMPORARY|TEMP)\\s+(?:TABLE|VIEW|SEQUENCE))\\b");
    /**
     * Statements whose effect stays with the database session: SQL-level prepared statements (MySQL, PostgreSQL; and
     * PostgreSQL's PREPARE TRANSACTION, a two-phase commit the shepherd would not drive), PostgreSQL's LISTEN/UNLISTEN
     * and DISCARD.
     */
    private static final List<String> SESSION_STATE_VERBS = List.of("PREPARE", "EXECUTE", "DEALLOCATE", "LISTEN", "UNLISTEN",
            "DISCARD");
    /** MySQL's LOCK TABLE[S] t READ|WRITE, not the transaction-scoped LOCK TABLE t IN ... MODE of the others. */
    private static final Pattern CONNECTION_LOCK = Pattern.compile("(?is)(?:UNLOCK\\s+TABLES?\\s*"
            + "|LOCK\\s+TABLES?\\s+(?!.*\\bIN\\s+.*\\bMODE\\b).*\\b(?:READ|WRITE)\\b.*)");
    /** A schema's name: plain, or quoted with double quotes, backquotes or (PostgreSQL's search_path) single quotes. */
    private static final String NAME = "([A-Za-z_][A-Za-z0-9_$]*|\"(?:[^\"]|\"\")+\"|`(?:[^`]|``)+`|'(?:[^']|'')+')";
    /** Derby, Db2, HSQLDB, PostgreSQL ({@code SET SCHEMA 's'}); {@code DEFAULT}: back to the replicas' default. */
    private static final Pattern SET_SCHEMA = Pattern.compile("(?is)SET\\s+(?:CURRENT\\s+)?SCHEMA\\s*(?:=\\s*)?" + NAME);
    private static final Pattern USE = Pattern.compile("(?is)USE\\s+" + NAME);
    private static final Pattern SET_SEARCH_PATH = Pattern.compile("(?is)SET\\s+(?:SESSION\\s+)?search_path\\s*(?:=|TO)\\s*"
            + NAME);
    private static final Pattern SET_NO_EFFECT = Pattern.compile("(?is)SET\\s+(?:SESSION\\s+)?"
            + "(?:client_min_messages|application_name)\\s*(?:=|TO)\\s*(?:[A-Za-z0-9_]+|'(?:[^']|'')*')");
    /** MySQL and MariaDB: {@code SET time_zone = 'SYSTEM' | '+hh:mm' | 'Europe/Paris'}. */
    private static final Pattern SET_TIME_ZONE_VARIABLE = Pattern.compile("(?is)SET\\s+(?:SESSION\\s+|@@SESSION\\.|@@LOCAL\\.|@@)?"
            + "time_zone\\s*(?:=|:=|TO)\\s*(?:'([^']*)'|\"([^\"]*)\")");
    /** PostgreSQL ({@code SET TIME ZONE x}, {@code SET timezone TO x}) and HSQLDB ({@code SET TIME ZONE INTERVAL ...}). */
    private static final Pattern SET_TIME_ZONE = Pattern.compile("(?is)SET\\s+(?:SESSION\\s+)?(?:TIME\\s+ZONE\\s+|timezone\\s*(?:=|TO)\\s*)"
            + "(.+?)");
    private static final Pattern ZONE_INTERVAL = Pattern.compile("(?is)INTERVAL\\s*'([+-]?)(\\d{1,2}):(\\d{2})'\\s*HOUR\\s+TO\\s+MINUTE");
    private static final Pattern ZONE_HOURS = Pattern.compile("([+-]?\\d{1,2}(?:\\.\\d+)?)");
    private static final Pattern ISO_OFFSET = Pattern.compile("([+-])(\\d{1,2}):(\\d{2})");
    private static final Pattern SET_CLIENT_ENCODING =
            Pattern.compile("(?is)SET\\s+(?:SESSION\\s+)?client_encoding\\s*(?:=|TO)\\s*" + UTF8);

    /**
     * The session statement {@code sql} is, or null when it is none (a query, an update, DDL other than a temporary
     * object, transaction control).
     */
    public static SessionSetting of(String sql) {
        if (!mayBeSession(sql)) return null;
        String s = Translator.withoutLeadingComments(Translator.stripTerminator(sql));
        if (startsWithWord(s, "LOCK") || startsWithWord(s, "UNLOCK")) {
            return CONNECTION_LOCK.matcher(s).matches() ? new SessionSetting(Kind.CONNECTION_LOCK, -1) : null;
        }
        if (startsWithWord(s, "DECLARE") || startsWithWord(s, "CREATE")) {
            return TEMPORARY_OBJECT.matcher(s).lookingAt() ? new SessionSetting(Kind.TEMPORARY_OBJECT, -1) : null;
        }
        for (String verb : SESSION_STATE_VERBS) {
            if (startsWithWord(s, verb)) return new SessionSetting(Kind.OTHER, -1);
        }
        if (!startsWithWord(s, "SET") && !startsWithWord(s, "USE") && !startsWithWord(s, "RESET")) return null;
        Matcher m;
        if ((m = SET_TRANSACTION.matcher(s)).matches() || (m = SET_CHARACTERISTICS.matcher(s)).matches()
                || (m = SET_ISOLATION.matcher(s)).matches() || (m = SET_ISOLATION_VARIABLE.matcher(s)).matches()) {
            return new SessionSetting(Kind.ISOLATION, isolationLevel(m.group(1)));
        }
        if (SET_NAMES.matcher(s).matches() || SET_CLIENT_ENCODING.matcher(s).matches()) {
            return new SessionSetting(Kind.CHARACTER_SET, -1);
        }
        if (SET_NO_EFFECT.matcher(s).matches()) {
            return new SessionSetting(Kind.NO_EFFECT, -1);
        }
        if ((m = SET_TIME_ZONE_VARIABLE.matcher(s)).matches()) {
            return mySqlTimeZone(m.group(1) != null ? m.group(1) : m.group(2));
        }
        if ((m = SET_TIME_ZONE.matcher(s)).matches()) return sqlTimeZone(m.group(1).strip());
        Kind kept = keptVariables(s.substring(3));
        if (kept != null) return new SessionSetting(kept, -1);
        if ((m = SET_SCHEMA.matcher(s)).matches() || (m = USE.matcher(s)).matches() || (m = SET_SEARCH_PATH.matcher(s)).matches()) {
            String name = m.group(1);
            if (name.equalsIgnoreCase("DEFAULT")) return new SessionSetting(Kind.SCHEMA, -1, null);
            return new SessionSetting(Kind.SCHEMA, -1, asIdentifier(name));
        }
        return new SessionSetting(Kind.OTHER, -1); // SET TRANSACTION READ ONLY, SET search_path TO a, b, SET sql_mode...
    }

    /** MySQL's time_zone value: SYSTEM, an offset ({@code +hh:mm}, east of UTC) or a named zone. */
    private static SessionSetting mySqlTimeZone(String value) {
        String v = value.strip();
        if (v.equalsIgnoreCase("SYSTEM")) return timeZone(null);
        Matcher m = ISO_OFFSET.matcher(v);
        if (m.matches()) return offset(m.group(1), m.group(2), m.group(3));
        return named(v);
    }

    /**
     * PostgreSQL's and HSQLDB's: LOCAL or DEFAULT, {@code INTERVAL '+hh:mm' HOUR TO MINUTE}, a number of hours (east of
     * UTC) or a zone's name. A string offset ({@code '+02:00'}, {@code 'UTC+2'}) is not taken: PostgreSQL reads it the
     * POSIX way, west of UTC, where Java reads it east: UNKNOWN_TIME_ZONE, as for a name no zone has.
     */
    private static SessionSetting sqlTimeZone(String value) {
        if (value.equalsIgnoreCase("LOCAL") || value.equalsIgnoreCase("DEFAULT")) return timeZone(null);
        Matcher m = ZONE_INTERVAL.matcher(value);
        if (m.matches()) return offset(m.group(1), m.group(2), m.group(3));
        m = ZONE_HOURS.matcher(value);
        if (m.matches()) {
            double hours = Double.parseDouble(m.group(1));
            if (Math.abs(hours) > 18) return unknownZone();
            return timeZone(ZoneOffset.ofTotalSeconds((int) Math.round(hours * 3600)));
        }
        if (value.length() < 2 || value.charAt(0) != '\'' || value.charAt(value.length() - 1) != '\'') {
            return unknownZone();
        }
        return named(value.substring(1, value.length() - 1));
    }

    private static SessionSetting offset(String sign, String hours, String minutes) {
        try {
            int total = (Integer.parseInt(hours) * 60 + Integer.parseInt(minutes)) * 60;
            return timeZone(ZoneOffset.ofTotalSeconds("-".equals(sign) ? -total : total));
        } catch (java.time.DateTimeException e) {
            return unknownZone();
        }
    }

    /** A zone by its IANA name (or UTC, GMT); an offset spelled as a name ({@code UTC+2}) is not one. */
    private static SessionSetting named(String name) {
        if (name.equalsIgnoreCase("UTC") || name.equalsIgnoreCase("GMT") || name.equalsIgnoreCase("Z")) {
            return timeZone(ZoneOffset.UTC);
        }
        try {
            ZoneId zone = ZoneId.of(name);
            return zone instanceof ZoneOffset || !zone.getId().equals(name) && !zone.getId().equalsIgnoreCase(name)
                    ? unknownZone() : timeZone(zone);
        } catch (java.time.DateTimeException e) {
            return unknownZone();
        }
    }

    private static SessionSetting unknownZone() {
        return new SessionSetting(Kind.UNKNOWN_TIME_ZONE, -1);
    }

    /** Whether {@code asked} reads the clock as {@code zone} does, now and always (the same rules). */
    public static boolean sameZone(ZoneId asked, ZoneId zone) {
        return asked.normalized().equals(zone.normalized()) || asked.getRules().equals(zone.getRules());
    }

    /**
     * {@code SET a = x, b = y} where every variable is one of {@link #KEPT_VARIABLES}: ALREADY_SO when every value is the
     * one kept (ON/OFF/TRUE/FALSE read as 1/0), else KEPT_VARIABLE; null when another variable is set.
     */
    private static Kind keptVariables(String assignments) {
        boolean same = true;
        for (String a : assignments.split(",", -1)) {
            Matcher m = KEPT_ASSIGNMENT.matcher(a);
            if (!m.matches()) return null;
            String kept = KEPT_VARIABLES.get(m.group(1).toLowerCase(Locale.ROOT));
            if (kept == null) return null;
            String v = m.group(2).toUpperCase(Locale.ROOT);
            v = v.equals("ON") || v.equals("TRUE") ? "1" : v.equals("OFF") || v.equals("FALSE") ? "0" : v;
            same &= v.equals(kept);
        }
        return same ? Kind.ALREADY_SO : Kind.KEPT_VARIABLE;
    }

    /**
     * {@code sql} with each read of a {@link #KEPT_VARIABLES} variable ({@code @@name}, {@code @@session.name}) as its
     * value; outside literals, quotes and comments. Other variables are left (and refused later).
     */
    static String keptVariablesAsValues(String sql, boolean backslashEscapes) {
        StringBuilder out = new StringBuilder();
        int[] copied = {0};
        SqlWords.scan(sql, backslashEscapes, new SqlWords.Visitor() {
            @Override
            public void word(String text, int start, int end) {
            }

            @Override
            public void at(String text, int index) {
                if (index < copied[0] || !text.startsWith("@@", index)) return;
                int i = index + 2;
                if (text.regionMatches(true, i, "session.", 0, "session.".length())) {
                    i += "session.".length();
                } else if (text.regionMatches(true, i, "local.", 0, "local.".length())) {
                    i += "local.".length();
                }
                int end = i;
                while (end < text.length() && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) end++;
                String value = KEPT_VARIABLES.get(text.substring(i, end).toLowerCase(Locale.ROOT));
                if (value == null) return;
                out.append(text, copied[0], index).append(value);
                copied[0] = end;
            }
        });
        if (copied[0] == 0) return sql;
        return out.append(sql.substring(copied[0])).toString();
    }

    /**
     * A session statement with parameters ({@code SET foreign_key_checks=?}) as text: each {@code ?} outside string
     * literals replaced by its value (a number or boolean as written, anything else as a string literal), so that
     * {@link #of} can read it. {@code sql} unchanged when it has no parameters or is no SET.
     */
    public static String withValues(String sql, List<?> values) {
        if (values.isEmpty() || !mayBeSession(sql) || !startsWithWord(Translator.withoutLeadingComments(sql), "SET")) {
            return sql;
        }
        StringBuilder out = new StringBuilder();
        int next = 0;
        boolean inLiteral = false;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'') inLiteral = !inLiteral;
            if (c == '?' && !inLiteral && next < values.size()) {
                Object v = values.get(next++);
                out.append(v instanceof Number || v instanceof Boolean ? String.valueOf(v)
                        : "'" + String.valueOf(v).replace("'", "''") + "'");
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** A schema's name as an SQL identifier: a plain one as written, a quoted one (any quote) in double quotes. */
    private static String asIdentifier(String name) {
        char q = name.charAt(0);
        if (q != '"' && q != '`' && q != '\'') return name;
        String inner = name.substring(1, name.length() - 1).replace(String.valueOf(q) + q, String.valueOf(q));
        return '"' + inner.replace("\"", "\"\"") + '"';
    }

    /**
     * The name a schema {@code identifier} (as {@link #schema()} spells it) stands for, as {@code client}'s engine stores
     * it: a quoted one as written, a plain one folded (upper case, lower case on PostgreSQL, as written on MySQL).
     */
    public static String storedName(String identifier, Dialect client) {
        List<String> parts = storedParts(identifier, client);
        return parts == null || parts.size() != 1 ? client.foldUnquotedIdentifier(identifier) : parts.get(0);
    }

    /**
     * The parts of a name as a statement in dialect {@code d} writes it ({@code [schema.]name}, each part plain or quoted
     * in double quotes or d's own quote), each as d's engine stores it: a quoted one as written, a plain one folded
     * ({@link Dialect#foldUnquotedIdentifier}). Null when {@code name} is more than a name.
     */
    public static List<String> storedParts(String name, Dialect d) {
        char q = d.identifierQuote();
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (true) {
            if (i < name.length() && (name.charAt(i) == '"' || name.charAt(i) == q)) {
                char open = name.charAt(i);
                StringBuilder part = new StringBuilder();
                boolean closed = false;
                for (i++; i < name.length() && !closed; i++) {
                    char ch = name.charAt(i);
                    if (ch == open && i + 1 < name.length() && name.charAt(i + 1) == open) {
                        part.append(open);
                        i++;
                    } else if (ch == open) {
                        closed = true;
                    } else {
                        part.append(ch);
                    }
                }
                if (!closed) return null;
                parts.add(part.toString());
            } else {
                int start = i;
                while (i < name.length() && (Character.isLetterOrDigit(name.charAt(i)) || name.charAt(i) == '_'
                        || name.charAt(i) == '$')) {
                    i++;
                }
                if (i == start) return null;
                parts.add(d.foldUnquotedIdentifier(name.substring(start, i)));
            }
            if (i < name.length() && name.charAt(i) == '.') {
                i++;
            } else {
                return i == name.length() ? parts : null;
            }
        }
    }

    /** False when the first character rules a session statement out: no copy of the text for most statements. */
    private static boolean mayBeSession(String sql) {
        for (int i = 0; i < sql.length(); i++) {
            char ch = sql.charAt(i);
            if (Character.isWhitespace(ch)) continue;
            return "SsUuRrDdCcLlPpEe-/".indexOf(ch) >= 0;
        }
        return false;
    }

    private static boolean startsWithWord(String s, String word) {
        return s.regionMatches(true, 0, word, 0, word.length())
                && (s.length() == word.length() || !Character.isLetterOrDigit(s.charAt(word.length()))
                        && s.charAt(word.length()) != '_');
    }

    /** True for a level weaker than SERIALIZABLE: the session runs SERIALIZABLE instead and says so in a warning. */
    public boolean upgradesIsolation() {
        return kind == Kind.ISOLATION && isolation != -1 && isolation != Connection.TRANSACTION_SERIALIZABLE;
    }

    private static int isolationLevel(String spelled) {
        String level = spelled.toUpperCase(Locale.ROOT).replaceAll("[\\s-]+", " ");
        switch (level) {
            case "UR":
            case "DIRTY READ":
            case "READ UNCOMMITTED":
                return Connection.TRANSACTION_READ_UNCOMMITTED;
            case "CS":
            case "CURSOR STABILITY":
            case "READ COMMITTED":
                return Connection.TRANSACTION_READ_COMMITTED;
            case "RS":
            case "REPEATABLE READ":
                return Connection.TRANSACTION_REPEATABLE_READ;
            case "RESET":
                return -1;
            default: // RR, SERIALIZABLE
                return Connection.TRANSACTION_SERIALIZABLE;
        }
    }
}
