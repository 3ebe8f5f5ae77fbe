package org.shepherd.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * A real database server in its own OS process, listening on 127.0.0.1 at a random free port, with its data in a
 * directory of its own. It can be stopped cleanly, killed with SIGKILL, paused with SIGSTOP/SIGCONT and restarted
 * on the same data and the same port.
 *
 * <p>Layout under {@link #rootDir()}: {@code data/} (the engine's files) and {@code server.log} (the process output,
 * appended across restarts). A server created without a directory uses a temporary one and deletes it on
 * {@link #close()}.
 */
public abstract class DatabaseServer implements AutoCloseable {
    public static final String LOOPBACK = "127.0.0.1";

    private static final long START_TIMEOUT_MS = 120_000;
    private static final long STOP_TIMEOUT_MS = 60_000;
    private static final long KILL_TIMEOUT_MS = 30_000;
    private static final long SIGNAL_STATE_TIMEOUT_MS = 10_000;
    private static final long READY_POLL_MS = 100;
    private static final int READY_CONNECT_TIMEOUT_MS = 1_000;
    private static final int LOG_TAIL_LINES = 40;

    private final String name;
    private final Path rootDir;
    private final boolean ownsRootDir;
    private int port;
    private Process process;
    private boolean paused;
    private Thread killOnExit;

    protected DatabaseServer(String name, Path rootDir) {
        this.name = name;
        try {
            if (rootDir == null) {
                this.rootDir = Files.createTempDirectory("shepherd-" + name + "-");
                this.ownsRootDir = true;
            } else {
                this.rootDir = Files.createDirectories(rootDir);
                this.ownsRootDir = false;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the directory of " + name, e);
        }
    }

    /** derby | mariadb | hsqldb | postgresql: the names of the shepherd's {@code replica.<name>.dialect}. */
    public abstract String dialect();

    /** The JDBC URL for a client that reaches the server at {@code host:port} (e.g. through a {@link TcpProxy}). */
    public abstract String jdbcUrl(String host, int port);

    public abstract String user();

    public abstract String password();

    /** True once {@link #dataDir()} holds an initialized database (so start() must not initialize again). */
    protected abstract boolean isInitialized();

    /** Creates a fresh database in {@link #dataDir()}: runs only before the first start on an empty directory. */
    protected abstract void initialize() throws IOException;

    /** The server command; its output is sent to {@link #logFile()}. */
    protected abstract ProcessBuilder command();

    /** Asks the running process to shut down cleanly; {@link #stop()} then waits for it to exit. */
    protected void requestShutdown(Process running) throws IOException {
        running.destroy();
    }

    public final String name() {
        return name;
    }

    public final Path rootDir() {
        return rootDir;
    }

    public final Path dataDir() {
        return rootDir.resolve("data");
    }

    public final Path logFile() {
        return rootDir.resolve("server.log");
    }

    /** The port, chosen at the first start and kept across restarts; 0 before. */
    public final synchronized int port() {
        return port;
    }

    public final String jdbcUrl() {
        return jdbcUrl(LOOPBACK, port());
    }

    public final String jdbcUrl(int port) {
        return jdbcUrl(LOOPBACK, port);
    }

    public Connection connect() throws SQLException {
        return connect(jdbcUrl());
    }

    public Connection connect(String url) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", user());
        props.setProperty("password", password());
        return DriverManager.getConnection(url, props);
    }

    /**
     * A connection whose every network read gives up after {@code networkTimeoutMs} with an SQLException: a query
     * against a paused or partitioned server fails instead of hanging. Only where the driver implements
     * {@link Connection#setNetworkTimeout} ({@link #supportsNetworkTimeout()}); the Derby client and HSQLDB's driver
     * do not, so whoever talks to them must time statements out itself.
     */
    public Connection connect(int networkTimeoutMs) throws SQLException {
        Connection c = connect();
        Executor direct = Runnable::run;
        c.setNetworkTimeout(direct, networkTimeoutMs);
        return c;
    }

    /** Whether this server's JDBC driver implements {@link Connection#setNetworkTimeout}. */
    public boolean supportsNetworkTimeout() {
        return true;
    }

    public final synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    public final synchronized boolean isPaused() {
        return paused;
    }

    public final synchronized long pid() {
        requireRunning("pid");
        return process.pid();
    }

    /** Starts the server (initializing the data directory if it is empty) and returns once it accepts JDBC connections. */
    public final synchronized DatabaseServer start() throws IOException {
        if (isRunning()) {
            throw new IllegalStateException(name + " is already running (pid " + process.pid() + ")");
        }
        boolean choosingPort = port == 0;
        Files.createDirectories(dataDir());
        if (!isInitialized()) {
            initialize();
        }
        for (int attempt = 1; ; attempt++) {
            if (choosingPort) {
                port = freePort();
            }
            ProcessBuilder builder = command();
            builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()));
            process = builder.start();
            paused = false;
            registerKillOnExit();
            try {
                awaitReady();
                return this;
            } catch (IOException e) {
                // another process took the port between its choice and the server's bind: choose again
                boolean portTaken = !process.isAlive() && e.getMessage() != null
                        && e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("already in use");
                if (!choosingPort || !portTaken || attempt == PORT_ATTEMPTS_MAX) {
                    throw e;
                }
            }
        }
    }

    /** Starts on a port this class chose, when another process took it first, at most this many times. */
    private static final int PORT_ATTEMPTS_MAX = 3;

    /** Clean shutdown; waits for the process to exit. No-op when not running. */
    public final synchronized void stop() {
        if (!isRunning()) {
            return;
        }
        if (paused) {
            resume();
        }
        List<ProcessHandle> tree = Processes.tree(process.toHandle());
        try {
            requestShutdown(process);
            if (!process.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(name + " did not stop within " + STOP_TIMEOUT_MS + " ms:\n" + logTail());
            }
            // server processes that fork (PostgreSQL) must leave no child behind before a restart may reuse the data
            Processes.awaitExit(tree, STOP_TIMEOUT_MS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot ask " + name + " to shut down", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping " + name, e);
        }
    }

    /** SIGKILL to the server process and all its children (a crash: no clean shutdown, no flush). */
    public final synchronized void kill() {
        requireRunning("kill");
        Processes.killTree(process.toHandle(), KILL_TIMEOUT_MS);
        try {
            // a handle's exit completes when the process is a zombie; the Process's own wait reaps it, so that its pid
            // is gone when kill returns
            if (!process.waitFor(KILL_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(name + " (pid " + process.pid() + ") not reaped " + KILL_TIMEOUT_MS + " ms after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + name + " to die", e);
        }
        paused = false;
    }

    /** SIGSTOP to the server process tree: it keeps its sockets open but answers nothing until {@link #resume()}. */
    public final synchronized void pause() {
        requireRunning("pause");
        Processes.stopOrContinue(Processes.tree(process.toHandle()), true, SIGNAL_STATE_TIMEOUT_MS);
        paused = true;
    }

    public final synchronized void resume() {
        requireRunning("resume");
        Processes.stopOrContinue(Processes.tree(process.toHandle()), false, SIGNAL_STATE_TIMEOUT_MS);
        paused = false;
    }

    /** Starts again on the same data and port, after a {@link #kill()} or {@link #stop()}; stops first if running. */
    public final synchronized DatabaseServer restart() throws IOException {
        stop();
        return start();
    }

    /** Stops the server and deletes its directory if it was a temporary one. */
    @Override
    public synchronized void close() {
        try {
            if (isRunning()) {
                try {
                    stop();
                } catch (RuntimeException e) {
                    Processes.killTree(process.toHandle(), KILL_TIMEOUT_MS);
                }
            }
        } finally {
            unregisterKillOnExit();
            if (ownsRootDir) {
                deleteRecursively(rootDir);
            }
        }
    }

    public final String logTail() {
        return Processes.tail(logFile(), LOG_TAIL_LINES);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + " " + dialect() + " " + LOOPBACK + ":" + port + "]";
    }

    private void awaitReady() throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException(name + " exited with " + process.exitValue() + " while starting:\n" + logTail());
            }
            if (portAccepts()) {
                try (Connection c = connect()) {
                    return;
                } catch (SQLException e) {
                    last = e;
                }
            }
            sleep(READY_POLL_MS);
        }
        Processes.killTree(process.toHandle(), KILL_TIMEOUT_MS);
        IOException failure = new IOException(name + " not ready within " + START_TIMEOUT_MS + " ms:\n" + logTail());
        if (last != null) {
            failure.addSuppressed(last);
        }
        throw failure;
    }

    /** A test JVM that exits without closing its servers (failure, Ctrl-C, Surefire timeout) must not leave them running. */
    private void registerKillOnExit() {
        if (killOnExit != null) {
            return;
        }
        killOnExit = new Thread(() -> {
            Process running = process;
            if (running != null && running.isAlive()) {
                Processes.tree(running.toHandle()).forEach(ProcessHandle::destroyForcibly);
            }
        }, "kill-" + name + "-on-exit");
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    private void unregisterKillOnExit() {
        if (killOnExit == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException alreadyExiting) {
            // the hook runs anyway
        }
        killOnExit = null;
    }

    private boolean portAccepts() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(LOOPBACK, port), READY_CONNECT_TIMEOUT_MS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void requireRunning(String action) {
        if (!isRunning()) {
            throw new IllegalStateException("cannot " + action + " " + name + ": not running");
        }
    }

    /**
     * A port free on loopback now, below the kernel's ephemeral range (ip_local_port_range, from 32768 on Linux): a port
     * from that range may become the local port of some outgoing connection before the server binds it (seen in CI:
     * PostgreSQL's "Address already in use"). Tried at random from {@value #PORT_LOW} up; the kernel's own choice if
     * none is free.
     */
    public static int freePort() throws IOException {
        int high = Math.min(ephemeralLow(), 65_536) - 1;
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        for (int i = 0; i < 100 && high > PORT_LOW; i++) {
            int candidate = random.nextInt(PORT_LOW, high + 1);
            try (ServerSocket s = new ServerSocket(candidate, 1, InetAddress.getByName(LOOPBACK))) {
                return s.getLocalPort();
            } catch (IOException taken) {
                // try another
            }
        }
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return s.getLocalPort();
        }
    }

    /** The lowest port of the test servers' range. */
    static final int PORT_LOW = 20_000;

    /** The first port the kernel gives outgoing connections (32768 when it cannot be read). */
    private static int ephemeralLow() {
        // read a line: Files.readString trusts the size /proc reports, and gets a few bytes of it
        try (java.io.BufferedReader r = Files.newBufferedReader(java.nio.file.Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
            return Integer.parseInt(r.readLine().trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Deletes {@code root} and everything under it (nothing when it does not exist). */
    public static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }
}
