package org.shepherd.tpcc.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.shepherd.jdbc.ShepherdConnection;
import org.shepherd.testkit.DatabaseServer;
import org.shepherd.tpcc.Jdbc;

/**
 * A shepherd started as its own process with {@code bin/shepherd serve --config FILE}, listening on a free loopback
 * port, in front of the given replicas. It can be killed with SIGKILL and started again on the same configuration, port
 * and data directory.
 */
final class ShepherdProcess implements AutoCloseable {

    static final String USER = "bench";
    private static final String LOOPBACK = "127.0.0.1";
    private static final long START_TIMEOUT_MS = 120_000;
    private static final long STOP_TIMEOUT_MS = 30_000;
    private static final long POLL_MS = 200;
    private static final int CONNECT_TIMEOUT_MS = 1_000;
    private static final int LOG_TAIL_LINES = 30;

    private final ProcessBuilder builder;
    private final int port;
    private final String password;
    private final Path logFile;
    private volatile Process process;

    private ShepherdProcess(ProcessBuilder builder, int port, String password, Path logFile) throws IOException {
        this.builder = builder;
        this.port = port;
        this.password = password;
        this.logFile = logFile;
        this.process = builder.start();
    }

    /** Config keys every run sets itself ({@code --shepherd-set} may not change them). */
    private static final List<String> KEYS_SET_BY_BENCH = List.of("listen", "mode", "f", "data.dir");

    /** Refuses extra settings that would change what bench itself configures: the address, mode, replicas, users. */
    static void checkSettings(Map<String, String> settings) {
        for (String key : settings.keySet()) {
            boolean replicaSpec = key.startsWith("replica.") && key.chars().filter(ch -> ch == '.').count() >= 2
                && (key.endsWith(".url") || key.endsWith(".user") || key.endsWith(".password") || key.endsWith(".dialect"));
            if (KEYS_SET_BY_BENCH.contains(key) || key.startsWith("user.") || replicaSpec) {
                throw new IllegalArgumentException("--shepherd-set " + key + ": bench sets this key itself for every run");
            }
        }
    }

    /** Writes the config file into {@code dir}, starts the shepherd and waits until it accepts connections. */
    static ShepherdProcess start(Path launcher, Path dir, String label, BenchConfig config, List<BenchDatabase> replicas,
                                 String javaOpts, Map<String, String> settings) throws IOException, InterruptedException {
        if (!Files.isExecutable(launcher)) {
            throw new IOException("cannot run the shepherd: " + launcher + " is missing or not executable;"
                + " pass --shepherd PATH to bin/shepherd");
        }
        int port = DatabaseServer.freePort();
        String password = "bench-" + Long.toHexString(System.nanoTime());
        Properties p = new Properties();
        p.setProperty("listen", LOOPBACK + ":" + port);
        p.setProperty("mode", config.mode());
        p.setProperty("f", Integer.toString(config.f()));
        p.setProperty("data.dir", dir.resolve("shepherd-data").toString());
        p.setProperty("user." + USER + ".password", password);
        for (BenchDatabase r : replicas) {
            p.setProperty("replica." + r.name() + ".url", r.jdbcUrl());
            p.setProperty("replica." + r.name() + ".user", r.user());
            p.setProperty("replica." + r.name() + ".password", r.password());
            p.setProperty("replica." + r.name() + ".dialect", r.dialect());
        }
        settings.forEach(p::setProperty);
        Files.createDirectories(dir);
        Path configFile = dir.resolve("shepherd.properties");
        try (var out = Files.newBufferedWriter(configFile, StandardCharsets.UTF_8)) {
            p.store(out, "written by bin/bench for configuration " + label);
        }
        Path log = dir.resolve("shepherd.log");
        List<String> command = new ArrayList<>(List.of(launcher.toString(), "serve", "--config", configFile.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        if (javaOpts != null) builder.environment().put("JAVA_OPTS", javaOpts);
        ShepherdProcess shepherd = new ShepherdProcess(builder, port, password, log);
        try {
            shepherd.awaitListening();
        } catch (IOException | InterruptedException | RuntimeException e) {
            shepherd.close();
            throw e;
        }
        return shepherd;
    }

    String jdbcUrl() {
        return "jdbc:shepherd://" + LOOPBACK + ":" + port + "/tpcc";
    }

    /** Connections to the shepherd as {@link #USER}; the same after a {@link #restart()}. */
    Jdbc jdbc() {
        return new Jdbc(jdbcUrl(), USER, password);
    }

    /** The shepherd's commit latency since start, or nothing when it measured none (or is too old to report it). */
    private static String commitLatency(ResultSet view) {
        try {
            if (view.getLong("commit_p50_ms") < 0) return "";
            return "; COMMIT to answer p50/p99 " + view.getLong("commit_p50_ms") + "/" + view.getLong("commit_p99_ms")
                + " ms, waiting for the vote p50/p99 " + view.getLong("commit_wait_p50_ms") + "/"
                + view.getLong("commit_wait_p99_ms") + " ms (since start, warm-up included)";
        } catch (SQLException noSuchColumn) {
            return "";
        }
    }

    /**
     * One line from the shepherd's own counters ({@code shepherd.view} and {@code shepherd.status}): commits, aborts
     * and, per replica, the transactions it rolled back and ran again; or why they could not be read.
     */
    String counters() {
        try (Connection c = jdbc().connect()) {
            ShepherdConnection sc = c.unwrap(ShepherdConnection.class);
            StringBuilder sb = new StringBuilder();
            try (ResultSet view = sc.adminView()) {
                if (view.next()) {
                    sb.append(view.getLong("commits")).append(" commits, ").append(view.getLong("aborts")).append(" aborts (")
                        .append(view.getLong("vote_aborts")).append(" by vote)");
                    sb.append(commitLatency(view));
                }
            }
            StringBuilder reruns = new StringBuilder();
            try (ResultSet status = sc.adminStatus()) {
                while (status.next()) {
                    reruns.append(reruns.length() == 0 ? "" : ", ").append(status.getString("replica")).append(' ')
                        .append(status.getLong("reruns"));
                }
            }
            return sb.append("; re-runs per replica: ").append(reruns).toString();
        } catch (SQLException e) {
            return "counters not read: " + e.getMessage();
        }
    }

    long pid() {
        return process.pid();
    }

    /** SIGKILL to the shepherd and its children (a crash: no shutdown hook runs); returns once they have exited. */
    void kill() {
        org.shepherd.testkit.Processes.killTree(process.toHandle(), STOP_TIMEOUT_MS);
    }

    /**
     * Starts the shepherd again with the same command, configuration and data directory (after {@link #kill()}), and
     * returns once it accepts connections on the same port: it listens only when it is ready to serve.
     */
    void restart() throws IOException, InterruptedException {
        if (process.isAlive()) throw new IllegalStateException("the shepherd still runs (pid " + process.pid() + ")");
        process = builder.start();
        awaitListening();
    }

    /** The shepherd's output (both of its runs, when it was restarted). */
    Path logFile() {
        return logFile;
    }

    ProcessHandle process() {
        return process.toHandle();
    }

    private void awaitListening() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("the shepherd exited with " + process.exitValue() + " while starting:\n" + logTail());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(LOOPBACK, port), CONNECT_TIMEOUT_MS);
                return;
            } catch (IOException notYet) {
                Thread.sleep(POLL_MS);
            }
        }
        throw new IOException("the shepherd did not listen on port " + port + " within " + START_TIMEOUT_MS + " ms:\n"
            + logTail());
    }

    String logTail() {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** SIGTERM, then SIGKILL to the whole process tree if it does not exit in time. */
    @Override
    public void close() {
        Process current = process;
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(current.toHandle());
        current.descendants().forEach(tree::add);
        current.destroy();
        try {
            if (!current.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) tree.forEach(ProcessHandle::destroyForcibly);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            tree.forEach(ProcessHandle::destroyForcibly);
        }
        tree.forEach(ProcessHandle::destroyForcibly);
    }

}
