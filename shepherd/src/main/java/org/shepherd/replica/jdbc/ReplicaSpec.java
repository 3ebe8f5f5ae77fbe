package org.shepherd.replica.jdbc;

import java.util.List;
import java.util.Locale;

/**
 * How to reach one replica database.
 *
 * @param name the replica's name in the configuration ({@code replica.<name>.url})
 * @param url its JDBC URL
 * @param user login user, or "" for none
 * @param password login password, or "" for none
 * @param dialect one of {@link #DIALECTS}
 */
public record ReplicaSpec(String name, String url, String user, String password, String dialect) {

    /** Dialect names as written in {@code replica.<name>.dialect}. */
    public static final List<String> DIALECTS = List.of("derby", "mariadb", "mysql", "hsqldb", "postgresql", "db2");

    public ReplicaSpec {
        if (name == null || name.isEmpty()) throw new IllegalArgumentException("replica name must not be empty");
        if (url == null || !url.startsWith("jdbc:")) throw new IllegalArgumentException("replica " + name + ": bad JDBC URL");
        if (user == null || password == null) throw new IllegalArgumentException("use \"\" for no user / password");
        if (!DIALECTS.contains(dialect)) {
            throw new IllegalArgumentException("replica " + name + ": dialect must be one of " + DIALECTS + ", was " + dialect);
        }
    }

    /** A spec whose dialect is inferred from the URL. */
    public static ReplicaSpec of(String name, String url, String user, String password) {
        String dialect = inferDialect(url);
        if (dialect == null) {
            throw new IllegalArgumentException("replica " + name + ": cannot infer the dialect from " + url
                    + "; set replica." + name + ".dialect to one of " + DIALECTS);
        }
        return new ReplicaSpec(name, url, user, password, dialect);
    }

    /** The dialect a JDBC URL implies, or null when the URL's subprotocol is not one we know. */
    public static String inferDialect(String url) {
        String u = url.toLowerCase(Locale.ROOT);
        if (u.startsWith("jdbc:derby:")) return "derby";
        if (u.startsWith("jdbc:mariadb:")) return "mariadb";
        if (u.startsWith("jdbc:mysql:")) return "mysql";
        if (u.startsWith("jdbc:hsqldb:")) return "hsqldb";
        if (u.startsWith("jdbc:postgresql:")) return "postgresql";
        if (u.startsWith("jdbc:db2:")) return "db2";
        return null;
    }

    /** Embedded Derby (in this JVM), as opposed to the Derby network client ({@code jdbc:derby://}). */
    public boolean isEmbeddedDerby() {
        return url.startsWith("jdbc:derby:") && !url.startsWith("jdbc:derby://");
    }

    /**
     * The database the URL names, for telling whether two replicas are one database: the URL without the attributes
     * Derby and HSQLDB write after a {@code ;} ({@code create=true}, {@code shutdown=true}), which name no other database.
     */
    public String database() {
        String u = url.strip();
        int attributes = u.indexOf(';');
        return attributes >= 0 && ("derby".equals(dialect) || "hsqldb".equals(dialect)) ? u.substring(0, attributes) : u;
    }

    private static final java.util.regex.Pattern PASSWORD_IN_URL =
            java.util.regex.Pattern.compile("(?i)(password=)[^;&]*");

    /** The URL as shown in messages and logs: a password written in it is masked. */
    public String location() {
        return PASSWORD_IN_URL.matcher(url).replaceAll("$1********");
    }

    @Override
    public String toString() {
        return "ReplicaSpec[" + name + " " + location() + " user=" + user + " dialect=" + dialect + "]";
    }
}
