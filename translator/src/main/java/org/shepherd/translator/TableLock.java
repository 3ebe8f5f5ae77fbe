package org.shepherd.translator;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.shepherd.translator.dialect.Dialect;

/**
 * A lock on a table until the transaction ends: {@code LOCK TABLE t IN SHARE|EXCLUSIVE MODE} (Derby, Db2, PostgreSQL)
 * or HSQLDB's {@code LOCK TABLE t READ|WRITE}, which the parser does not read. Written for each replica's engine in its
 * own spelling (Flyway locks its history table so), the table named as the statement resolves it: in the session's
 * schema when it names none, in each replica's default schema when it names the client engine's (see
 * {@link SchemaQualifier#withoutDefaultSchema}). MySQL's {@code LOCK TABLES}, whose locks outlive the transaction, is
 * not one.
 *
 * @param schema the table's schema as the client's engine stores its name, or null
 * @param table the table's name as the client's engine stores it
 * @param exclusive EXCLUSIVE (HSQLDB: WRITE), else SHARE (READ)
 */
public record TableLock(String schema, String table, boolean exclusive) {

    private static final Pattern MODE = Pattern.compile("(?is)^\\s*LOCK\\s+TABLE\\s+(.+?)\\s+IN\\s+(.+?)\\s+MODE\\s*;?\\s*$");
    private static final Pattern READ_WRITE = Pattern.compile("(?is)^\\s*LOCK\\s+TABLE\\s+(.+?)\\s+(READ|WRITE)\\s*;?\\s*$");

    /** The table lock {@code sql} is in {@code client}'s dialect, or null when it is none (cheap for other statements). */
    public static TableLock of(String sql, Dialect client) throws SQLException {
        if (client.family() == Dialect.Family.MYSQL || !sql.stripLeading().regionMatches(true, 0, "LOCK", 0, 4)) return null;
        Matcher m = MODE.matcher(sql);
        boolean exclusive;
        String name;
        if (m.matches()) {
            name = m.group(1);
            exclusive = m.group(2).toUpperCase(Locale.ROOT).contains("EXCLUSIVE");
        } else {
            m = READ_WRITE.matcher(sql);
            if (client != Dialect.HSQLDB || !m.matches()) return null;
            name = m.group(1);
            exclusive = m.group(2).equalsIgnoreCase("WRITE");
        }
        List<String> parts = SessionSetting.storedParts(name.strip(), client);
        if (parts == null || parts.isEmpty() || parts.size() > 2) {
            throw new SQLFeatureNotSupportedException("Shepherd locks one table per LOCK TABLE statement, named [schema.]table:"
                    + " " + sql.strip(), "0A000");
        }
        return new TableLock(parts.size() == 2 ? parts.get(0) : null, parts.get(parts.size() - 1), exclusive);
    }

    /**
     * The statement for a replica of dialect {@code d}. {@code sessionSchema}: the session's schema as its engine stores
     * the name (null: none); {@code defaultSchema}: the schema a connection of the client's engine starts in, as stored
     * (null: unknown).
     */
    public String render(Dialect d, String sessionSchema, String defaultSchema) throws SQLException {
        String s = schema == null ? sessionSchema : schema.equals(defaultSchema) ? null : schema;
        String name = (s == null ? "" : quoted(s) + ".") + quoted(table);
        if (d.family() == Dialect.Family.MYSQL) {
            throw new SQLFeatureNotSupportedException("LOCK TABLE " + table + ": a replica is " + d.name() + ", whose table"
                    + " locks belong to a connection and outlive the transaction; lock rows with SELECT ... FOR UPDATE"
                    + " instead", "0A000");
        }
        if (d == Dialect.HSQLDB) return "LOCK TABLE " + name + (exclusive ? " WRITE" : " READ");
        return "LOCK TABLE " + name + (exclusive ? " IN EXCLUSIVE MODE" : " IN SHARE MODE");
    }

    private static String quoted(String stored) {
        return '"' + stored.replace("\"", "\"\"") + '"';
    }
}
