package org.shepherd.jdbc;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code SET [CURRENT] SCHEMA s}, {@code USE db}, {@code SET search_path TO s} written as SQL: once the shepherd has
 * accepted one, the connection's {@link java.sql.Connection#getSchema} says the schema it set, as
 * {@link java.sql.Connection#setSchema} would have.
 */
final class SchemaStatement {

    /** The schema an accepted statement set: {@code name} as stored, or null for the replicas' default. */
    record Chosen(String name) {
    }

    private static final String NAME = "([A-Za-z_][A-Za-z0-9_$]*|\"(?:[^\"]|\"\")+\"|`(?:[^`]|``)+`|'(?:[^']|'')+')";
    private static final Pattern SCHEMA = Pattern.compile("\\s*(?:SET\\s+(?:CURRENT\\s+)?SCHEMA\\s*(?:=\\s*)?|USE\\s+"
            + "|SET\\s+(?:SESSION\\s+)?search_path\\s*(?:=|TO)\\s*)" + NAME + "\\s*;?\\s*", Pattern.CASE_INSENSITIVE);

    private SchemaStatement() {
    }

    /**
     * The schema {@code sql} sets, or null when it is no such statement. A plain name is folded as {@code dialect}
     * stores names (upper case on Derby, HSQLDB and Db2, lower case on PostgreSQL, as written on MySQL and MariaDB);
     * a quoted one is kept as written; {@code DEFAULT} is the replicas' default (a null name).
     */
    static Chosen parse(String sql, String dialect) {
        if (sql.length() > 256) return null;
        Matcher m = SCHEMA.matcher(sql);
        if (!m.matches()) return null;
        String name = m.group(1);
        char q = name.charAt(0);
        if (q == '"' || q == '`' || q == '\'') {
            return new Chosen(name.substring(1, name.length() - 1).replace(String.valueOf(q) + q, String.valueOf(q)));
        }
        if (name.equalsIgnoreCase("DEFAULT")) return new Chosen(null);
        switch (dialect) {
            case "derby":
            case "hsqldb":
            case "db2":
                return new Chosen(name.toUpperCase(Locale.ROOT));
            case "postgresql":
                return new Chosen(name.toLowerCase(Locale.ROOT));
            default:
                return new Chosen(name);
        }
    }
}
