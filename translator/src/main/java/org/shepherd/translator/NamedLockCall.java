package org.shepherd.translator;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.shepherd.translator.dialect.Dialect;

/**
 * MySQL's named locks asked alone: {@code SELECT GET_LOCK(name, timeout)}, {@code RELEASE_LOCK(name)},
 * {@code IS_FREE_LOCK(name)}, {@code IS_USED_LOCK(name)}, {@code RELEASE_ALL_LOCKS()} (Flyway takes one around its
 * migrations). Each replica's lock would belong to one pooled connection; the shepherd keeps them itself, one set for
 * all its sessions, held by the session until it releases them or ends (as MySQL holds them by connection).
 *
 * @param function GET_LOCK, RELEASE_LOCK, IS_FREE_LOCK, IS_USED_LOCK or RELEASE_ALL_LOCKS
 * @param name the lock's name (MySQL compares them without case), null for RELEASE_ALL_LOCKS
 * @param timeoutSeconds GET_LOCK's wait (negative: no limit)
 * @param label the result column's label: the expression as written
 */
public record NamedLockCall(String function, String name, double timeoutSeconds, String label) {

    private static final Pattern CALL = Pattern.compile("(?is)^\\s*SELECT\\s+((GET_LOCK|RELEASE_LOCK|IS_FREE_LOCK|IS_USED_LOCK"
            + "|RELEASE_ALL_LOCKS)\\s*\\((.*?)\\))\\s*(?:AS\\s+(\\S+))?\\s*;?\\s*$");

    /**
     * The named-lock call {@code sql} is for a client of dialect {@code client} (MySQL, MariaDB), with {@code params}
     * for its markers; null when it is none (cheap for other statements).
     */
    public static NamedLockCall of(String sql, Dialect client, List<?> params) throws SQLException {
        if (client.family() != Dialect.Family.MYSQL || !mentionsLock(sql)) return null; // most statements: no matcher
        Matcher m = CALL.matcher(sql);
        if (!m.matches()) return null;
        String function = m.group(2).toUpperCase(Locale.ROOT);
        List<Object> args = new ArrayList<>();
        int param = 0;
        for (String a : splitArguments(m.group(3))) {
            if (a.equals("?")) {
                if (param >= params.size()) throw new SQLException(function + ": a parameter has no value", "07001");
                args.add(params.get(param++));
            } else if (a.length() >= 2 && (a.startsWith("'") && a.endsWith("'") || a.startsWith("\"") && a.endsWith("\""))) {
                args.add(a.substring(1, a.length() - 1).replace(a.substring(0, 1) + a.charAt(0), a.substring(0, 1)));
            } else if (a.matches("[+-]?\\d+(\\.\\d+)?")) {
                args.add(Double.valueOf(a));
            } else {
                throw new SQLFeatureNotSupportedException(function + " with an argument that is not a value (" + a + ") is not"
                        + " supported: Shepherd keeps named locks itself; give the name and timeout as literals or parameters",
                        "0A000");
            }
        }
        int wanted = function.equals("GET_LOCK") ? 2 : function.equals("RELEASE_ALL_LOCKS") ? 0 : 1;
        if (args.size() != wanted) {
            throw new SQLException(function + " takes " + wanted + " argument(s), got " + args.size(), "42000");
        }
        String name = wanted == 0 ? null : String.valueOf(args.get(0));
        double timeout = 0;
        if (wanted == 2) {
            Object t = args.get(1);
            try {
                timeout = t instanceof Number n ? n.doubleValue() : Double.parseDouble(String.valueOf(t));
            } catch (NumberFormatException e) {
                throw new SQLException("GET_LOCK's timeout must be a number of seconds, got " + t, "22018");
            }
        }
        return new NamedLockCall(function, name, timeout, m.group(4) != null ? m.group(4).replaceAll("^[`'\"]|[`'\"]$", "")
                : m.group(1));
    }

    /** Whether {@code sql} holds "_LOCK" in any case: every named-lock function's name does. */
    private static boolean mentionsLock(String sql) {
        for (int i = sql.indexOf('_'); i >= 0; i = sql.indexOf('_', i + 1)) {
            if (sql.regionMatches(true, i, "_LOCK", 0, 5)) return true;
        }
        return false;
    }

    /** The arguments between the parentheses, split at commas outside quotes, each stripped. */
    private static List<String> splitArguments(String inside) {
        List<String> out = new ArrayList<>();
        if (inside.isBlank()) return out;
        StringBuilder cur = new StringBuilder();
        char quote = 0;
        for (char c : inside.toCharArray()) {
            if (quote == 0 && (c == '\'' || c == '"')) {
                quote = c;
            } else if (c == quote) {
                quote = 0;
            } else if (quote == 0 && c == ',') {
                out.add(cur.toString().strip());
                cur.setLength(0);
                continue;
            }
            cur.append(c);
        }
        out.add(cur.toString().strip());
        return out;
    }
}
