package org.shepherd.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import org.apache.derby.drda.NetworkServerControl;

/**
 * Apache Derby's network server in a JVM of its own ({@code derby.system.home} = {@link #dataDir()}), reached through
 * the Derby client driver. The database is created by the first connection ({@code create=true}).
 */
public final class DerbyNetworkServer extends DatabaseServer {
    public static final String DEFAULT_DATABASE = "shepherd";

    private final String database;

    public DerbyNetworkServer() {
        this("derby", null, DEFAULT_DATABASE);
    }

    public DerbyNetworkServer(String name, Path rootDir, String database) {
        super(name, rootDir);
        this.database = database;
    }

    public String database() {
        return database;
    }

    @Override
    public String dialect() {
        return "derby";
    }

    @Override
    public String jdbcUrl(String host, int port) {
        return "jdbc:derby://" + host + ":" + port + "/" + database + ";create=true";
    }

    @Override
    public String user() {
        return "shepherd";
    }

    @Override
    public String password() {
        return "shepherd";
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
        throw new IllegalStateException("Derby creates its database on the first connection");
    }

    @Override
    protected ProcessBuilder command() {
        String classPath = JavaProcess.classPathOf(
                "org.apache.derby.drda.NetworkServerControl",
                "org.apache.derby.iapi.db.Database",
                "org.apache.derby.jdbc.EmbeddedDriver",
                "org.apache.derby.shared.common.error.StandardException");
        List<String> command = JavaProcess.command(classPath,
                List.of("-Dderby.system.home=" + dataDir().toAbsolutePath(), "-Dderby.drda.logConnections=false"),
                "org.apache.derby.drda.NetworkServerControl",
                "start", "-h", LOOPBACK, "-p", Integer.toString(port()), "-noSecurityManager");
        return new ProcessBuilder(command).directory(rootDir().toFile());
    }

    @Override
    protected void requestShutdown(Process running) throws IOException {
        try {
            new NetworkServerControl(InetAddress.getByName(LOOPBACK), port(), user(), password()).shutdown();
        } catch (Exception e) {
            running.destroy();
        }
    }
}
