package org.shepherd.tpcc;

import java.util.Locale;

/**
 * The SQL family the DDL is written for. DML is the same portable SQL for every dialect (see {@link TpccSql}).
 * {@link #PORTABLE} is used for {@code jdbc:shepherd:} URLs: the shepherd's translator renders it per replica.
 */
public enum Dialect {
    PORTABLE("TIMESTAMP", ""),
    DERBY("TIMESTAMP", ""),
    HSQLDB("TIMESTAMP", ""),
    POSTGRESQL("TIMESTAMP", ""),
    MARIADB("DATETIME", " ENGINE=InnoDB"),
    MYSQL("DATETIME", " ENGINE=InnoDB");

    private final String timestampType;
    private final String tableSuffix;

    Dialect(String timestampType, String tableSuffix) {
        this.timestampType = timestampType;
        this.tableSuffix = tableSuffix;
    }

    /** Column type for a point in time (MySQL's TIMESTAMP converts time zones and ends in 2038). */
    public String timestampType() {
        return timestampType;
    }

    /** Text appended after the closing parenthesis of CREATE TABLE. */
    public String tableSuffix() {
        return tableSuffix;
    }

    /** The dialect a JDBC URL speaks, or an IllegalArgumentException naming {@code --dialect} as the fix. */
    public static Dialect fromUrl(String jdbcUrl) {
        String url = jdbcUrl.toLowerCase(Locale.ROOT);
        if (url.startsWith("jdbc:shepherd:")) return PORTABLE;
        if (url.startsWith("jdbc:derby:")) return DERBY;
        if (url.startsWith("jdbc:hsqldb:")) return HSQLDB;
        if (url.startsWith("jdbc:postgresql:")) return POSTGRESQL;
        if (url.startsWith("jdbc:mariadb:")) return MARIADB;
        if (url.startsWith("jdbc:mysql:")) return MYSQL;
        throw new IllegalArgumentException("cannot tell the SQL dialect of " + jdbcUrl
            + "; pass --dialect portable|derby|hsqldb|postgresql|mariadb|mysql");
    }

    /** Parses a {@code --dialect} value, case-insensitively. */
    public static Dialect parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown dialect '" + name
                + "'; use portable|derby|hsqldb|postgresql|mariadb|mysql", e);
        }
    }
}
