package org.shepherd.testkit;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * HSQLDB's server ({@code org.hsqldb.server.Server}) in a JVM of its own, serving one file database under
 * {@link #dataDir()}. Commits are written to disk before they return ({@code hsqldb.write_delay=false}), so a
 * killed server keeps every committed row. No lock file: after a SIGKILL, HSQLDB would refuse the stale one for about
 * ten seconds, and this directory belongs to this fixture alone.
 */
public final class HsqldbServer extends DatabaseServer {
    public static final String DEFAULT_DATABASE = "shepherd";

    private final String database;

    public HsqldbServer() {
        this("hsqldb", null, DEFAULT_DATABASE);
    }

    public HsqldbServer(String name, Path rootDir, String database) {
        super(name, rootDir);
        this.database = database;
    }

    public String database() {
        return database;
    }

    @Override
    public String dialect() {
        return "hsqldb";
    }

    @Override
    public String jdbcUrl(String host, int port) {
        return "jdbc:hsqldb:hsql://" + host + ":" + port + "/" + database;
    }

    @Override
    public String user() {
        return "SA";
    }

    @Override
    public String password() {
        return "";
    }

    @Override
    public boolean supportsNetworkTimeout() {
        return false;
    }

    @Override
    protected boolean isInitialized() {
        return true;
    }

    @Override
    protected void initialize() {
        throw new IllegalStateException("HSQLDB creates its database when the server opens it");
    }

    @Override
    protected ProcessBuilder command() {
        String files = "file:" + dataDir().toAbsolutePath().resolve("db") + ";hsqldb.write_delay=false;hsqldb.lock_file=false";
        List<String> command = JavaProcess.command(JavaProcess.classPathOf("org.hsqldb.server.Server"), List.of(),
                "org.hsqldb.server.Server",
                "--database.0", files, "--dbname.0", database,
                "--port", Integer.toString(port()), "--address", LOOPBACK,
                "--silent", "true", "--trace", "false", "--no_system_exit", "false");
        return new ProcessBuilder(command).directory(rootDir().toFile());
    }

    @Override
    protected void requestShutdown(Process running) {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        } catch (SQLException e) {
            running.destroy();
        }
    }
}
