package org.shepherd.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.server.ShepherdServer;
import org.shepherd.testkit.DatabaseServer;
import org.shepherd.testkit.DerbyNetworkServer;
import org.shepherd.testkit.ReplicaSet;

/**
 * Side-by-side latency of single statements from one client: Derby network server directly, a shepherd in
 * passthrough mode over one, and a shepherd in cbs mode over three. Not a test: run its {@code main} with the test
 * classpath (see docs/benchmarks.md, "Latency budget"). Arguments: {@code [statementsPerRound] [rounds] [configs]}.
 * The configurations are interleaved and their order rotated per round; compare ratios, not absolute times.
 */
public final class LatencyBench {

    private static final String USER = "bench";
    private static final String PASSWORD = "bench-pw";
    private static final int ROWS = 100;
    private static final long SEED = 42;

    private record Target(String name, String url, String user, String password) {
    }

    private LatencyBench() {
    }

    public static void main(String[] args) throws Exception {
        int perRound = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        List<String> configs = Arrays.asList((args.length > 2 ? args[2] : "direct,passthrough,cbs").split(","));
        System.out.println("load before: " + uptime());
        try (ReplicaSet derbies = ReplicaSet.start(new DerbyNetworkServer("d1", null, "unused"),
                new DerbyNetworkServer("d2", null, "unused"), new DerbyNetworkServer("d3", null, "unused"))) {
            List<AutoCloseable> closers = new ArrayList<>();
            Map<String, Target> targets = new LinkedHashMap<>();
            try {
                DatabaseServer d1 = derbies.get(0);
                if (configs.contains("direct")) {
                    targets.put("direct", new Target("direct", derbyUrl(d1, "direct"), d1.user(), d1.password()));
                }
                if (configs.contains("passthrough")) {
                    Map<String, String> m = base("passthrough");
                    replica(m, "r1", d1, "pt");
                    targets.put("passthrough", shepherd("passthrough", m, closers));
                }
                if (configs.contains("cbs")) {
                    Map<String, String> m = base("cbs");
                    m.put("f", "1");
                    for (int i = 0; i < 3; i++) replica(m, "r" + (i + 1), derbies.get(i), "cbs");
                    targets.put("cbs", shepherd("cbs", m, closers));
                }
                for (Target t : targets.values()) setUp(t);
                run(targets, perRound, rounds);
            } finally {
                for (AutoCloseable c : closers) c.close();
            }
        }
        System.out.println("load after: " + uptime());
    }

    private static Map<String, String> base(String mode) {
        Map<String, String> m = new TreeMap<>();
        m.put("mode", mode);
        m.put("listen", "127.0.0.1:0");
        m.put("user." + USER + ".password", PASSWORD);
        m.put("data.dir", System.getProperty("java.io.tmpdir") + "/latency-bench-" + ProcessHandle.current().pid());
        return m;
    }

    private static void replica(Map<String, String> m, String name, DatabaseServer s, String db) {
        m.put("replica." + name + ".url", derbyUrl(s, db));
        m.put("replica." + name + ".user", s.user());
        m.put("replica." + name + ".password", s.password());
    }

    private static String derbyUrl(DatabaseServer s, String db) {
        return "jdbc:derby://" + DatabaseServer.LOOPBACK + ":" + s.port() + "/" + db + ";create=true";
    }

    private static Target shepherd(String name, Map<String, String> m, List<AutoCloseable> closers) throws Exception {
        ShepherdServer server = ShepherdServer.create(ShepherdConfig.fromMap(m));
        closers.add(0, server);
        server.start();
        return new Target(name, server.jdbcUrl("bench"), USER, PASSWORD);
    }

    private static void setUp(Target t) throws SQLException {
        try (Connection c = DriverManager.getConnection(t.url, t.user, t.password); Statement st = c.createStatement()) {
            try {
                st.execute("DROP TABLE kv");
            } catch (SQLException e) {
                // not there yet
            }
            st.execute("CREATE TABLE kv (id INTEGER NOT NULL PRIMARY KEY, v INTEGER NOT NULL, note VARCHAR(100))");
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO kv (id, v, note) VALUES (?, ?, ?)")) {
                for (int i = 1; i <= ROWS; i++) {
                    ps.setInt(1, i);
                    ps.setInt(2, 0);
                    ps.setString(3, "row " + i);
                    ps.executeUpdate();
                }
            }
            c.commit();
        }
    }

    private static void run(Map<String, Target> targets, int perRound, int rounds) throws SQLException {
        List<String> names = new ArrayList<>(targets.keySet());
        Map<String, List<long[]>> selects = new LinkedHashMap<>();
        Map<String, List<long[]>> updates = new LinkedHashMap<>();
        for (String n : names) {
            selects.put(n, new ArrayList<>());
            updates.put(n, new ArrayList<>());
        }
        Map<String, Connection> conns = new LinkedHashMap<>();
        try {
            for (Target t : targets.values()) conns.put(t.name, DriverManager.getConnection(t.url, t.user, t.password));
            for (String n : names) { // warm-up
                selectLoop(conns.get(n), perRound, new Random(SEED));
                updateLoop(conns.get(n), perRound / 2, new Random(SEED));
            }
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < names.size(); k++) {
                    String n = names.get((k + r) % names.size());
                    selects.get(n).add(selectLoop(conns.get(n), perRound, new Random(SEED + r)));
                    updates.get(n).add(updateLoop(conns.get(n), perRound, new Random(SEED + r)));
                }
                System.out.println("round " + (r + 1) + "/" + rounds + " done, load " + uptime());
            }
        } finally {
            for (Connection c : conns.values()) c.close();
        }
        report("SELECT by primary key (autocommit)", selects, names);
        report("UPDATE by primary key + COMMIT", updates, names);
    }

    private static long[] selectLoop(Connection c, int n, Random rnd) throws SQLException {
        c.setAutoCommit(true);
        long[] ns = new long[n];
        try (PreparedStatement ps = c.prepareStatement("SELECT v, note FROM kv WHERE id = ?")) {
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                ps.setInt(1, 1 + rnd.nextInt(ROWS));
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) throw new IllegalStateException("row missing");
                }
                ns[i] = System.nanoTime() - t0;
            }
        }
        return ns;
    }

    private static long[] updateLoop(Connection c, int n, Random rnd) throws SQLException {
        c.setAutoCommit(false);
        long[] ns = new long[n];
        try (PreparedStatement ps = c.prepareStatement("UPDATE kv SET v = v + 1 WHERE id = ?")) {
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                ps.setInt(1, 1 + rnd.nextInt(ROWS));
                if (ps.executeUpdate() != 1) throw new IllegalStateException("row missing");
                c.commit();
                ns[i] = System.nanoTime() - t0;
            }
        }
        c.setAutoCommit(true);
        return ns;
    }

    private static void report(String title, Map<String, List<long[]>> samples, List<String> names) {
        System.out.println();
        System.out.println(title + " (microseconds)");
        System.out.printf("%-12s %9s %9s %9s %12s %11s%n", "config", "mean", "p50", "p99", "mean/direct", "p50/direct");
        Double directMean = null;
        Double directP50 = null;
        for (String n : names) {
            long[] all = samples.get(n).stream().flatMapToLong(Arrays::stream).sorted().toArray();
            double mean = Arrays.stream(all).average().orElse(0) / 1000.0;
            if (n.equals("direct")) directMean = mean;
            double p50 = all[all.length / 2] / 1000.0;
            if (n.equals("direct")) directP50 = p50;
            double p99 = all[Math.min(all.length - 1, (int) (all.length * 0.99))] / 1000.0;
            String ratio = directMean == null ? "-" : String.format("%.2f", mean / directMean);
            String ratio50 = directP50 == null ? "-" : String.format("%.2f", p50 / directP50);
            System.out.printf("%-12s %9.0f %9.0f %9.0f %12s %11s%n", n, mean, p50, p99, ratio, ratio50);
        }
    }

    private static String uptime() {
        try {
            return new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/loadavg"))).trim();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
