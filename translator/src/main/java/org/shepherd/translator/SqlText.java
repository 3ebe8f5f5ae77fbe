package org.shepherd.translator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.shepherd.translator.dialect.Dialect;

/**
 * Lexical passes over SQL text: the ones the parser's AST cannot express (quote characters, string escapes,
 * parameter marker order) and a last safety net against per-replica values that no rewrite pinned.
 */
final class SqlText {

    /** Marker codes: k &gt; 0 is client parameter k (1-based); -(j + 1) is pinned slot j. */
    record Rendered(String sql, int[] markers) {
    }

    private static final String PER_REPLICA = " returns a different value on each replica";

    private static final String SESSION_LOCK = " takes or looks at a lock held by one database connection until it ends;"
            + " Shepherd runs a session's transactions on pooled connections of every replica, so the lock would outlive"
            + " the transaction on a connection other sessions borrow: use a row lock (SELECT ... FOR UPDATE) instead";

    private static final String TRY_LOCK = " answers whether another transaction holds the lock at that moment, which"
            + " differs on each replica; PG_ADVISORY_XACT_LOCK() (which waits) or a row lock orders transactions alike";

    private static final String VARIABLE = "User and system variables (@name, @@name) belong to one database connection;"
            + " Shepherd runs a session's transactions on pooled connections of every replica: pass the value as a"
            + " parameter instead";

    /** The standard's (and Derby's, HSQLDB's, Db2's, MariaDB's) NEXT VALUE FOR, and Db2's PREVIOUS VALUE FOR. */
    private static final java.util.regex.Pattern SEQUENCE_VALUE =
            java.util.regex.Pattern.compile("(?:NEXT|PREVIOUS)\\s+VALUE\\s+FOR\\b", java.util.regex.Pattern.CASE_INSENSITIVE);

    /** Words that must not survive rendering anywhere in DML or DDL (they would be evaluated by each replica). */
    private static final Map<String, String> FORBIDDEN_WORDS = Map.ofEntries(
            Map.entry("CURRENT_TIMESTAMP", "CURRENT_TIMESTAMP is evaluated by each replica here; Shepherd pins it only in"
                    + " expressions of queries and DML (e.g. INSERT ... VALUES (CURRENT_TIMESTAMP)) and as a column's DEFAULT"
                    + " in CREATE TABLE; elsewhere, write the value explicitly instead"),
            Map.entry("CURRENT_DATE", "CURRENT_DATE is evaluated by each replica here; insert the value explicitly instead"),
            Map.entry("CURRENT_TIME", "CURRENT_TIME is evaluated by each replica here; insert the value explicitly instead"),
            Map.entry("LOCALTIMESTAMP", "LOCALTIMESTAMP is evaluated by each replica here; insert the value explicitly instead"),
            Map.entry("LOCALTIME", "LOCALTIME is evaluated by each replica here; insert the value explicitly instead"),
            Map.entry("SYSTIMESTAMP", "SYSTIMESTAMP" + PER_REPLICA + "; use CURRENT_TIMESTAMP, which Shepherd pins"),
            Map.entry("CURRENT_USER", "CURRENT_USER" + PER_REPLICA + " (each replica has its own credentials)"),
            Map.entry("SESSION_USER", "SESSION_USER" + PER_REPLICA + " (each replica has its own credentials)"),
            Map.entry("SYSTEM_USER", "SYSTEM_USER" + PER_REPLICA + " (each replica has its own credentials)"),
            Map.entry("CURRENT_SCHEMA", "CURRENT_SCHEMA" + PER_REPLICA),
            Map.entry("CURRENT_ROLE", "CURRENT_ROLE" + PER_REPLICA + " (each replica has its own credentials)"),
            Map.entry("CURRENT_CATALOG", "CURRENT_CATALOG" + PER_REPLICA));

    /** Function names (followed by "(") that must not survive rendering. */
    private static final Map<String, String> FORBIDDEN_FUNCTIONS = Map.ofEntries(
            Map.entry("LAST_INSERT_ID", "LAST_INSERT_ID(expr) sets a value of each replica's connection; Shepherd answers"
                    + " LAST_INSERT_ID() without an argument itself (use Statement.getGeneratedKeys() otherwise)"),
            Map.entry("IDENTITY_VAL_LOCAL", "IDENTITY_VAL_LOCAL(...)" + PER_REPLICA + "; use Statement.getGeneratedKeys()"),
            Map.entry("SCOPE_IDENTITY", "SCOPE_IDENTITY()" + PER_REPLICA + "; use Statement.getGeneratedKeys()"),
            Map.entry("LASTVAL", "LASTVAL()" + PER_REPLICA + "; use Statement.getGeneratedKeys()"),
            Map.entry("CURRVAL", "CURRVAL()" + PER_REPLICA + "; use Statement.getGeneratedKeys()"),
            Map.entry("NEXTVAL", "NEXTVAL() draws from a per-replica sequence; use an identity column"),
            Map.entry("CONNECTION_ID", "CONNECTION_ID()" + PER_REPLICA),
            Map.entry("ROW_COUNT", "ROW_COUNT()" + PER_REPLICA + "; use the update count of the statement"),
            Map.entry("FOUND_ROWS", "FOUND_ROWS()" + PER_REPLICA),
            Map.entry("USER", "USER()" + PER_REPLICA + " (each replica has its own credentials)"),
            Map.entry("DATABASE", "DATABASE()" + PER_REPLICA),
            Map.entry("VERSION", "VERSION()" + PER_REPLICA),
            Map.entry("SLEEP", "SLEEP() makes replicas time-dependent"),
            Map.entry("GET_LOCK", "GET_LOCK()" + SESSION_LOCK),
            Map.entry("RELEASE_LOCK", "RELEASE_LOCK()" + SESSION_LOCK),
            Map.entry("RELEASE_ALL_LOCKS", "RELEASE_ALL_LOCKS()" + SESSION_LOCK),
            Map.entry("IS_FREE_LOCK", "IS_FREE_LOCK()" + SESSION_LOCK),
            Map.entry("IS_USED_LOCK", "IS_USED_LOCK()" + SESSION_LOCK),
            Map.entry("PG_ADVISORY_LOCK", "PG_ADVISORY_LOCK()" + SESSION_LOCK),
            Map.entry("PG_ADVISORY_LOCK_SHARED", "PG_ADVISORY_LOCK_SHARED()" + SESSION_LOCK),
            Map.entry("PG_ADVISORY_UNLOCK", "PG_ADVISORY_UNLOCK()" + SESSION_LOCK),
            Map.entry("PG_ADVISORY_UNLOCK_SHARED", "PG_ADVISORY_UNLOCK_SHARED()" + SESSION_LOCK),
            Map.entry("PG_ADVISORY_UNLOCK_ALL", "PG_ADVISORY_UNLOCK_ALL()" + SESSION_LOCK),
            Map.entry("PG_TRY_ADVISORY_LOCK", "PG_TRY_ADVISORY_LOCK()" + SESSION_LOCK),
            Map.entry("PG_TRY_ADVISORY_LOCK_SHARED", "PG_TRY_ADVISORY_LOCK_SHARED()" + SESSION_LOCK),
            Map.entry("PG_TRY_ADVISORY_XACT_LOCK", "PG_TRY_ADVISORY_XACT_LOCK()" + TRY_LOCK),
            Map.entry("PG_TRY_ADVISORY_XACT_LOCK_SHARED", "PG_TRY_ADVISORY_XACT_LOCK_SHARED()" + TRY_LOCK),
            Map.entry("SET_CONFIG", "SET_CONFIG() changes a setting of one database connection; Shepherd runs a session's"
                    + " transactions on pooled connections of every replica"),
            Map.entry("CURRENT_SETTING", "CURRENT_SETTING()" + PER_REPLICA),
            Map.entry("PG_BACKEND_PID", "PG_BACKEND_PID()" + PER_REPLICA),
            Map.entry("TXID_CURRENT", "TXID_CURRENT()" + PER_REPLICA),
            Map.entry("PG_CURRENT_XACT_ID", "PG_CURRENT_XACT_ID()" + PER_REPLICA),
            Map.entry("PG_SLEEP", "PG_SLEEP() makes replicas time-dependent"),
            Map.entry("BENCHMARK", "BENCHMARK() makes replicas time-dependent"),
            Map.entry("SETVAL", "SETVAL() moves a per-replica sequence; use an identity column"),
            Map.entry("UUID_SHORT", "UUID_SHORT()" + PER_REPLICA + "; use UUID(), which Shepherd pins"),
            Map.entry("SYS_GUID", "SYS_GUID()" + PER_REPLICA + "; use UUID(), which Shepherd pins"),
            Map.entry("NOW", "NOW() is evaluated by each replica here; Shepherd pins it only in queries and DML"),
            Map.entry("RAND", "RAND()" + PER_REPLICA),
            Map.entry("RANDOM", "RANDOM()" + PER_REPLICA),
            Map.entry("UUID", "UUID()" + PER_REPLICA),
            Map.entry("GEN_RANDOM_UUID", "GEN_RANDOM_UUID()" + PER_REPLICA),
            Map.entry("SYSDATE", "SYSDATE()" + PER_REPLICA),
            Map.entry("CURDATE", "CURDATE()" + PER_REPLICA),
            Map.entry("CURTIME", "CURTIME()" + PER_REPLICA),
            Map.entry("UTC_TIMESTAMP", "UTC_TIMESTAMP()" + PER_REPLICA),
            Map.entry("GETDATE", "GETDATE()" + PER_REPLICA),
            // the server, connection or transaction a replica has: MySQL's and MariaDB's, PostgreSQL's, HSQLDB's
            Map.entry("SCHEMA", "SCHEMA()" + PER_REPLICA),
            Map.entry("RANDOM_BYTES", "RANDOM_BYTES()" + PER_REPLICA),
            Map.entry("MASTER_POS_WAIT", "MASTER_POS_WAIT() waits for one server's replication"),
            Map.entry("MASTER_GTID_WAIT", "MASTER_GTID_WAIT() waits for one server's replication"),
            Map.entry("SOURCE_POS_WAIT", "SOURCE_POS_WAIT() waits for one server's replication"),
            Map.entry("TIMEOFDAY", "TIMEOFDAY()" + PER_REPLICA + "; use CURRENT_TIMESTAMP, which Shepherd pins"),
            Map.entry("SETSEED", "SETSEED() seeds one connection's generator; Shepherd pins RANDOM() instead"),
            Map.entry("UUID_GENERATE_V1", "UUID_GENERATE_V1()" + PER_REPLICA + "; use GEN_RANDOM_UUID(), which Shepherd pins"),
            Map.entry("UUID_GENERATE_V1MC", "UUID_GENERATE_V1MC()" + PER_REPLICA + "; use GEN_RANDOM_UUID(), which Shepherd pins"),
            Map.entry("CURRENT_DATABASE", "CURRENT_DATABASE()" + PER_REPLICA),
            Map.entry("CURRENT_QUERY", "CURRENT_QUERY()" + PER_REPLICA + " (each runs the statement as written for it)"),
            Map.entry("INET_CLIENT_ADDR", "INET_CLIENT_ADDR()" + PER_REPLICA),
            Map.entry("INET_CLIENT_PORT", "INET_CLIENT_PORT()" + PER_REPLICA),
            Map.entry("INET_SERVER_ADDR", "INET_SERVER_ADDR()" + PER_REPLICA),
            Map.entry("INET_SERVER_PORT", "INET_SERVER_PORT()" + PER_REPLICA),
            Map.entry("PG_POSTMASTER_START_TIME", "PG_POSTMASTER_START_TIME()" + PER_REPLICA),
            Map.entry("PG_CONF_LOAD_TIME", "PG_CONF_LOAD_TIME()" + PER_REPLICA),
            Map.entry("PG_CURRENT_SNAPSHOT", "PG_CURRENT_SNAPSHOT()" + PER_REPLICA),
            Map.entry("TXID_CURRENT_SNAPSHOT", "TXID_CURRENT_SNAPSHOT()" + PER_REPLICA),
            Map.entry("TXID_CURRENT_IF_ASSIGNED", "TXID_CURRENT_IF_ASSIGNED()" + PER_REPLICA),
            Map.entry("SESSION_ID", "SESSION_ID()" + PER_REPLICA),
            Map.entry("TRANSACTION_ID", "TRANSACTION_ID()" + PER_REPLICA),
            Map.entry("ACTION_ID", "ACTION_ID()" + PER_REPLICA),
            Map.entry("TRANSACTION_SIZE", "TRANSACTION_SIZE()" + PER_REPLICA),
            Map.entry("DATABASE_VERSION", "DATABASE_VERSION()" + PER_REPLICA),
            Map.entry("DATABASE_NAME", "DATABASE_NAME()" + PER_REPLICA),
            Map.entry("DATABASE_TIMEZONE", "DATABASE_TIMEZONE()" + PER_REPLICA),
            Map.entry("SESSION_TIMEZONE", "SESSION_TIMEZONE()" + PER_REPLICA),
            Map.entry("DATABASE_ISOLATION_LEVEL", "DATABASE_ISOLATION_LEVEL()" + PER_REPLICA),
            Map.entry("SESSION_ISOLATION_LEVEL", "SESSION_ISOLATION_LEVEL()" + PER_REPLICA),
            Map.entry("IS_AUTOCOMMIT", "IS_AUTOCOMMIT()" + PER_REPLICA + " (the shepherd runs each replica's own transactions)"),
            Map.entry("IS_READONLY_SESSION", "IS_READONLY_SESSION()" + PER_REPLICA),
            Map.entry("IS_READONLY_DATABASE", "IS_READONLY_DATABASE()" + PER_REPLICA));

    /** PostgreSQL's date and time strings that read the clock where they are converted: 'now', 'today', .... */
    private static final java.util.Set<String> CLOCK_STRINGS = java.util.Set.of("now", "today", "tomorrow", "yesterday");

    /**
     * Refuses {@code value} (a string's text) where it becomes a DATE, TIME or TIMESTAMP: PostgreSQL reads the clock for
     * 'now', 'today', 'tomorrow' and 'yesterday' there, each replica its own.
     */
    static void refuseClockString(String value) {
        if (value != null && CLOCK_STRINGS.contains(value.strip().toLowerCase(Locale.ROOT))) {
            throw TranslationException.unsupported("'" + value + "' as a date or time is read from each replica's own clock;"
                    + " write CURRENT_TIMESTAMP or CURRENT_DATE (and add an INTERVAL), which Shepherd pins");
        }
    }

    private SqlText() {
    }

    /**
     * Rewrites MySQL-style string literals ('it\'s', backslash escapes) to standard SQL literals ('it''s') so the parser
     * and every other engine read them the same way.
     */
    static String mysqlLiteralsToStandard(String sql) {
        if (sql.indexOf('\\') < 0) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 8);
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '`' || c == '"') {
                int end = skipQuoted(sql, i, c);
                out.append(sql, i, end);
                i = end;
            } else if (c == '\'') {
                out.append('\'');
                i++;
                while (i < n) {
                    char d = sql.charAt(i);
                    if (d == '\\' && i + 1 < n) {
                        char e = sql.charAt(i + 1);
                        switch (e) {
                            case 'n': out.append('\n'); break;
                            case 't': out.append('\t'); break;
                            case 'r': out.append('\r'); break;
                            case '0': out.append('\0'); break;
                            case 'Z': out.append('\u001a'); break;
                            case 'b': out.append('\b'); break;
                            case '\'': out.append("''"); break;
                            // MySQL keeps the backslash of \% and \_ so that LIKE still sees an escaped wildcard.
                            case '%': out.append("\\%"); break;
                            case '_': out.append("\\_"); break;
                            default: out.append(e); break;
                        }
                        i += 2;
                    } else if (d == '\'') {
                        if (i + 1 < n && sql.charAt(i + 1) == '\'') {
                            out.append("''");
                            i += 2;
                        } else {
                            out.append('\'');
                            i++;
                            break;
                        }
                    } else {
                        out.append(d);
                        i++;
                    }
                }
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static int skipQuoted(String sql, int start, char quote) {
        int i = start + 1;
        int n = sql.length();
        while (i < n) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < n && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return n;
    }

    /**
     * {@code sql} (as rendered: string literals with quotes doubled and backslashes, where they escape, doubled too;
     * identifiers in double quotes or backticks) with its k-th {@code ?} written {@code CAST(? AS types[k])} where
     * {@code types[k]} is not null.
     */
    static String castMarkers(String sql, String[] types) {
        StringBuilder out = new StringBuilder(sql.length() + 32 * types.length);
        int marker = 0;
        int n = sql.length();
        for (int i = 0; i < n; i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = skipQuoted(sql, i, c);
                out.append(sql, i, end);
                i = end - 1;
            } else if (c == '?' && marker < types.length && types[marker++] != null && !rowCount(sql, i)) {
                out.append("CAST(? AS ").append(types[marker - 1]).append(')');
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** A word before a {@code ?} that makes it a row count, which Derby takes only as a literal or a bare marker. */
    private static final java.util.regex.Pattern ROW_COUNT =
            java.util.regex.Pattern.compile("\\b(?:OFFSET|FIRST|NEXT|LIMIT|TOP)\\s*$", java.util.regex.Pattern.CASE_INSENSITIVE);

    /** Whether the {@code ?} at {@code at} is a LIMIT, OFFSET or FETCH row count. */
    private static boolean rowCount(String sql, int at) {
        return ROW_COUNT.matcher(sql.substring(Math.max(0, at - 16), at)).find();
    }

    /**
     * The last pass over deparsed text: re-quotes delimited identifiers with the target's quote character, re-escapes
     * string literals for the target, turns numbered markers ({@code ?3}, {@code ?n0}) into plain {@code ?} while
     * recording their order, and rejects words that would be evaluated per replica.
     */
    static Rendered finish(String text, Dialect client, Dialect target, boolean checkForbidden) {
        // MySQL's quoted identifiers follow the same case rules as unquoted ones; elsewhere quoting makes names exact.
        boolean foldQuoted = client.quotedIdentifiersIgnoreCase();
        StringBuilder out = new StringBuilder(text.length());
        List<Integer> markers = new ArrayList<>();
        int i = 0;
        int n = text.length();
        char quote = target.identifierQuote();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\'') {
                out.append('\'');
                i++;
                while (i < n) {
                    char d = text.charAt(i);
                    if (d == '\'') {
                        if (i + 1 < n && text.charAt(i + 1) == '\'') {
                            out.append("''");
                            i += 2;
                            continue;
                        }
                        out.append('\'');
                        i++;
                        break;
                    }
                    if (d == '\\' && target.backslashEscapesInStrings()) {
                        out.append("\\\\");
                    } else {
                        out.append(d);
                    }
                    i++;
                }
            } else if (c == '"' || c == '`') {
                int end = skipQuoted(text, i, c);
                String body = text.substring(i + 1, Math.max(i + 1, end - 1)).replace(String.valueOf(c) + c, String.valueOf(c));
                if (foldQuoted) {
                    body = target.foldUnquotedIdentifier(body);
                }
                out.append(quote).append(body.replace(String.valueOf(quote), String.valueOf(quote) + quote)).append(quote);
                i = end;
            } else if (c == '?') {
                int j = i + 1;
                boolean pinned = j < n && text.charAt(j) == 'n';
                if (pinned) {
                    j++;
                }
                int digitsStart = j;
                while (j < n && Character.isDigit(text.charAt(j))) {
                    j++;
                }
                if (j == digitsStart) {
                    throw new TranslationException("0A000",
                            "Shepherd cannot place a parameter marker in this construct; rewrite it without '?' here");
                }
                int number = Integer.parseInt(text.substring(digitsStart, j));
                markers.add(pinned ? -(number + 1) : number);
                out.append('?');
                i = j;
            } else if (Character.isLetter(c) || c == '_') {
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_' || text.charAt(j) == '$')) {
                    j++;
                }
                if (checkForbidden) {
                    checkWord(text, i, j);
                }
                if (c == '_' && !target.identifiersMayStartWithUnderscore()) {
                    out.append(quote).append(target.foldUnquotedIdentifier(text.substring(i, j))).append(quote);
                } else {
                    out.append(text, i, j);
                }
                i = j;
            } else if (Character.isDigit(c)) {
                int j = i + 1;
                while (j < n && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '.')) {
                    j++;
                }
                out.append(text, i, j);
                i = j;
            } else {
                if (c == '@' && checkForbidden && isVariable(text, i)) {
                    throw new TranslationException("0A000", VARIABLE);
                }
                out.append(c);
                i++;
            }
        }
        int[] order = new int[markers.size()];
        for (int k = 0; k < order.length; k++) {
            order[k] = markers.get(k);
        }
        return new Rendered(out.toString(), order);
    }

    /**
     * Refuses (0A000) a statement as the client wrote it, one the translator could not parse and that runs unchanged on
     * replicas of the client's dialect family, when it holds a word each replica would evaluate for itself (the same
     * words as {@link #finish}'s last pass: clock functions, per-connection and per-replica values, sequences, variables).
     * String literals, quoted identifiers and comments are skipped.
     */
    static void refuseEvaluatedPerReplica(String sql, boolean backslashEscapes) {
        SqlWords.scan(sql, backslashEscapes, new SqlWords.Visitor() {
            @Override
            public void word(String text, int start, int end) {
                checkWord(text, start, end);
            }

            @Override
            public void at(String text, int index) {
                if (isVariable(text, index)) {
                    throw new TranslationException("0A000", VARIABLE);
                }
            }
        });
    }

    /**
     * {@code sql} without the qualifier {@code schema.} wherever a name is qualified with {@code schema} (as the engine
     * of {@code client} stores it: {@link Dialect#foldUnquotedIdentifier}), outside literals and comments: for a
     * statement sent as the client wrote it, in which the primary's own schema (a MySQL database's name) stands for
     * each replica's, as an unqualified name does. A name after a dot ({@code catalog.schema.t}) is left.
     */
    static String withoutSchemaQualifier(String sql, String schema, Dialect client) {
        boolean mysql = client.backslashEscapesInStrings();
        List<int[]> cuts = new ArrayList<>();
        SqlWords.scan(sql, mysql, new SqlWords.Visitor() {
            @Override
            public void word(String text, int start, int end) {
                if (client.foldUnquotedIdentifier(text.substring(start, end)).equals(schema)) cut(text, start, end);
            }

            @Override
            public void quoted(String text, int start, int end) {
                char quote = text.charAt(start - 1);
                if (quote == '`' ? !mysql : mysql) return; // a string in MySQL's double quotes, a backtick elsewhere
                String q = String.valueOf(quote);
                if (text.substring(start, end).replace(q + q, q).equals(schema)) cut(text, start - 1, end + 1);
            }

            private void cut(String text, int start, int end) {
                int before = start - 1;
                while (before >= 0 && Character.isWhitespace(text.charAt(before))) before--;
                if (before >= 0 && text.charAt(before) == '.') return;
                int dot = end;
                while (dot < text.length() && Character.isWhitespace(text.charAt(dot))) dot++;
                if (dot >= text.length() || text.charAt(dot) != '.') return;
                int next = dot + 1;
                while (next < text.length() && Character.isWhitespace(text.charAt(next))) next++;
                if (next < text.length() && (Character.isLetter(text.charAt(next)) || "_$`\"".indexOf(text.charAt(next)) >= 0)) {
                    cuts.add(new int[] {start, next});
                }
            }
        });
        if (cuts.isEmpty()) return sql;
        StringBuilder out = new StringBuilder(sql.length());
        int from = 0;
        for (int[] cut : cuts) {
            out.append(sql, from, cut[0]);
            from = cut[1];
        }
        return out.append(sql, from, sql.length()).toString();
    }

    /**
     * Whether the {@code @} at {@code at} starts a MySQL user variable ({@code @x}, {@code @`x`}) or system variable
     * ({@code @@x}); PostgreSQL's operators {@code @}, {@code @>} and {@code @@} are followed by a blank or an operator.
     */
    private static boolean isVariable(String text, int at) {
        int k = at + 1;
        if (k < text.length() && text.charAt(k) == '@') {
            k++;
        }
        if (k >= text.length()) {
            return false;
        }
        char c = text.charAt(k);
        return Character.isLetter(c) || c == '_' || c == '`' || c == '"' || c == '\'';
    }

    /**
     * Words after which a name followed by {@code (} is a table's with its column list, not a call: MySQL's table
     * {@code user} in {@code INSERT INTO user (id) ...}, {@code CREATE TABLE user (...)}, {@code REFERENCES user (id)}.
     */
    private static final java.util.Set<String> TABLE_NAME_AFTER = java.util.Set.of("INTO", "TABLE", "EXISTS", "REFERENCES",
            "ON");

    /** The word (upper case) before {@code start}, blanks between; empty when a non-word character stands there. */
    private static String previousWord(String text, int start) {
        int end = start;
        while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) end--;
        int begin = end;
        while (begin > 0 && (Character.isLetterOrDigit(text.charAt(begin - 1)) || text.charAt(begin - 1) == '_')) begin--;
        return text.substring(begin, end).toUpperCase(Locale.ROOT);
    }

    private static void checkWord(String text, int start, int end) {
        if (start > 0 && text.charAt(start - 1) == '.') {
            return;
        }
        String word = text.substring(start, end).toUpperCase(Locale.ROOT);
        if ((word.equals("NEXT") || word.equals("PREVIOUS")) && SEQUENCE_VALUE.matcher(text).region(start, text.length())
                .lookingAt()) {
            throw new TranslationException("0A000", word + " VALUE FOR draws from a sequence of each replica, which no"
                    + " transaction orders (a rolled-back or concurrent transaction makes the replicas' values differ); use an"
                    + " identity column and Statement.getGeneratedKeys()");
        }
        String message = FORBIDDEN_WORDS.get(word);
        if (message == null) {
            int k = end;
            while (k < text.length() && text.charAt(k) == ' ') {
                k++;
            }
            if (k < text.length() && text.charAt(k) == '(' && !TABLE_NAME_AFTER.contains(previousWord(text, start))) {
                message = FORBIDDEN_FUNCTIONS.get(word);
            }
        }
        if (message != null) {
            throw new TranslationException("0A000", message);
        }
    }
}
