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

    @Override
    public String toString() {
        return "ReplicaSpec[" + name + " " + url + " user=" + user + " dialect=" + dialect + "]";
    }
}
