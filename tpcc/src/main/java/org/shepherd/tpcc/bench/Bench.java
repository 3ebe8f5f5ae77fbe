package org.shepherd.tpcc.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.shepherd.replica.setup.ReplicaSetup;
import org.shepherd.tpcc.Dialect;
import org.shepherd.tpcc.Jdbc;
import org.shepherd.tpcc.Loader;
import org.shepherd.tpcc.Report;
import org.shepherd.tpcc.RunResult;
import org.shepherd.tpcc.Runner;
import org.shepherd.tpcc.Scale;
import org.shepherd.tpcc.TpccCli;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/bench}: the same seeded TPC-C against the database directly and through shepherds in several modes,
 * every database in its own server process (with the same CPU quota when cgroup v1 allows), configurations
 * interleaved and repeated, the data restored from a loaded copy before every run.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, version = "bench 0.1",
    description = "Side-by-side TPC-C: direct vs shepherd passthrough/cbs/ss/serial (the HRDB paper's Figure 7).")
public final class Bench implements Callable<Integer> {

    @Option(names = "--configs", split = ",", defaultValue = "direct,passthrough,cbs,ss,serial",
        description = "configurations to compare (default: ${DEFAULT-VALUE}); MODE@NAME is a variant of a shepherd mode"
            + " (see --variant)")
    List<String> configs;
    @Option(names = "--variant", paramLabel = "NAME:KEY=VALUE",
        description = "defines variant NAME for an A/B of shepherd settings run side by side, e.g. --variant"
            + " pool8:replica.pool.size.max=8 with --configs cbs,cbs@pool8; the key java-opts sets the shepherd's JAVA_OPTS"
            + " (repeatable)")
    List<String> variants = new ArrayList<>();
    @Option(names = "--warehouses", defaultValue = "4", description = "warehouses (default: ${DEFAULT-VALUE})")
    int warehouses;
    @Option(names = "--small", negatable = true, defaultValue = "true", fallbackValue = "true",
        description = "1/6-size warehouses as in the paper (default: ${DEFAULT-VALUE}; --no-small for full size)")
    boolean small;
    @Option(names = "--terminals", split = ",", defaultValue = "1,2,4,8",
        description = "client counts, each a separate run (default: ${DEFAULT-VALUE})")
    List<Integer> terminals;
    @Option(names = "--duration", defaultValue = "30", description = "measured seconds per run (default: ${DEFAULT-VALUE})")
    double durationS;
    @Option(names = "--warmup", defaultValue = "30",
        description = "unmeasured seconds before each run; every run starts fresh JVMs that compile for about that long"
            + " (default: ${DEFAULT-VALUE})")
    double warmupS;
    @Option(names = "--repeats", defaultValue = "3", description = "repeats of every run (default: ${DEFAULT-VALUE})")
    int repeats;
    @Option(names = "--think-ms", defaultValue = "0",
        description = "pause between a client's transactions, MIN-MAX ms (the paper: 180-220; default: none)")
    String thinkMs;
    @Option(names = "--seed", defaultValue = "1", description = "random seed (default: ${DEFAULT-VALUE})")
    long seed;
    @Option(names = "--engine", defaultValue = "derby",
        description = "database server for the baseline and every replica: derby|mariadb|hsqldb (default: ${DEFAULT-VALUE})")
    String engine;
    @Option(names = "--mariadb-thread-handling", defaultValue = Engines.POOL_OF_THREADS,
        description = "--engine mariadb: how every MariaDB server (the baseline's and each replica's) serves its"
            + " connections: pool-of-threads or one-thread-per-connection (default: ${DEFAULT-VALUE})")
    String mariadbThreadHandling;
    @Option(names = "--cpu-percent", defaultValue = "25",
        description = "CPU quota of each database process in %% of one CPU, via cgroup v1 cpu; 0: none (default: ${DEFAULT-VALUE})")
    int cpuPercent;
    @Option(names = "--cpu-period-ms", defaultValue = "100",
        description = "CFS period of the quota, 1-1000 ms: a database at its quota stops for the rest of each period"
            + " (default: ${DEFAULT-VALUE})")
    int cpuPeriodMs;
    @Option(names = "--json", defaultValue = "bench-results/bench.json", description = "results file (default: ${DEFAULT-VALUE})")
    Path json;
    @Option(names = "--svg", description = "chart file (default: the JSON file with .svg)")
    Path svg;
    @Option(names = "--work-dir", description = "where database copies live during the runs (default: a temporary directory)")
    Path workDir;
    @Option(names = "--shepherd", description = "the shepherd launcher (default: bin/shepherd of this checkout)")
    Path shepherdLauncher;
    @Option(names = "--shepherd-java-opts", description = "JAVA_OPTS for the shepherd process")
    String shepherdJavaOpts;

    @Option(names = "--shepherd-set", paramLabel = "KEY=VALUE",
            description = "a shepherd config key for every shepherd run, e.g. replica.pool.size.max=8 (repeatable)")
    Map<String, String> shepherdSettings = new LinkedHashMap<>();
    @Option(names = "--scenario", defaultValue = "throughput",
        description = "throughput (Figure 7), crash (Figure 9: one replica crashes and restarts, its catch-up rate is"
            + " measured; a crashed primary is replaced by a view change) or shepherd-crash (the shepherd is killed and"
            + " restarted under load; every New-Order it acknowledged must be on every replica)")
    String scenario;
    @Option(names = "--crash-at", defaultValue = "10",
        description = "crash scenarios: seconds into the measured window when the replica or the shepherd is killed"
            + " (default: ${DEFAULT-VALUE})")
    double crashAtS;
    @Option(names = "--crash-for",
        description = "crash scenarios: seconds until it is started again (default: 10 for crash, 2 for shepherd-crash)")
    Double crashForS;
    @Option(names = "--lag-for", defaultValue = "1",
        description = "shepherd-crash: seconds before the kill during which the last replica (a secondary) is paused"
            + " (SIGSTOP), so that the restarted shepherd must replay what it lacks from its log; 0: none"
            + " (default: ${DEFAULT-VALUE})")
    double lagForS;
    @Option(names = "--crash-replica", paramLabel = "NAME",
        description = "crash scenario: the replica to crash, r1 (the primary: the shepherd changes the view), r2 or r3"
            + " (default: r3)")
    String crashReplica;

    PrintStream out = System.out;
    PrintStream err = System.err;

    public static void main(String[] args) {
        System.exit(execute(System.out, System.err, args));
    }

    public static int execute(PrintStream out, PrintStream err, String... args) {
        Bench bench = new Bench();
        bench.out = out;
        bench.err = err;
        CommandLine cli = new CommandLine(bench);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        cli.setExecutionExceptionHandler((e, command, parseResult) -> {
            err.println("bench: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return e instanceof IllegalArgumentException ? TpccCli.EXIT_USAGE : TpccCli.EXIT_FAILED;
        });
        return cli.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        List<Setup> chosen = Setup.parse(configs, variants);
        if (terminals.isEmpty() || terminals.stream().anyMatch(t -> t < 1)) {
            throw new IllegalArgumentException("--terminals must list client counts of at least 1");
        }
        if (repeats < 1) throw new IllegalArgumentException("--repeats must be at least 1");
        if (cpuPeriodMs < 1 || cpuPeriodMs > 1000) throw new IllegalArgumentException("--cpu-period-ms must be 1-1000");
        if (cpuPercent > 0 && cpuPeriodMs * 10L * cpuPercent < 1000) {
            throw new IllegalArgumentException("--cpu-percent of --cpu-period-ms must be at least 1 ms (the kernel's"
                + " smallest quota)");
        }
        ShepherdProcess.checkSettings(shepherdSettings);
        Scale scale = new Scale(warehouses, small);
        if (crashReplica != null && !"crash".equals(scenario)) {
            throw new IllegalArgumentException("--crash-replica applies to --scenario crash only");
        }
        if ("crash".equals(scenario)) return crashScenario(scale);
        if ("shepherd-crash".equals(scenario)) return shepherdCrashScenario(scale);
        if (!"throughput".equals(scenario)) {
            throw new IllegalArgumentException("--scenario must be throughput, crash or shepherd-crash");
        }
        BenchDatabase.Engine db = Engines.forName(engine, mariadbThreadHandling);
        Path launcher = launcher();
        Path svgFile = svgFile();

        boolean ownWorkDir = workDir == null;
        Path work = ownWorkDir ? Files.createTempDirectory("shepherd-bench-") : Files.createDirectories(workDir);
        List<String> labels = chosen.stream().map(Setup::label).toList();
        List<Integer> clientCounts = terminals.stream().distinct().sorted().toList();
        BenchResults results = new BenchResults(labels, clientCounts);
        try {
            Path golden = loadGoldenCopy(db, scale, work);
            for (int repeat = 0; repeat < repeats; repeat++) {
                for (int t : clientCounts) {
                    for (int i = 0; i < chosen.size(); i++) {
                        Setup config = chosen.get((i + repeat) % chosen.size());
                        if (results.failed(config.label())) continue;
                        err.printf(Locale.ROOT, "== repeat %d/%d, %d clients, %s%n", repeat + 1, repeats, t, config.label());
                        try {
                            Map<String, CpuMeter.Usage> cpu = new LinkedHashMap<>();
                            RunResult r = runOnce(db, config, scale, t, golden, work.resolve("run"), launcher, cpu,
                                RunHooks.NONE);
                            RunResult.TypeSummary newOrder = r.byType().get(0);
                            BenchResults.Run run = new BenchResults.Run(config.label(), t, repeat, r.tps(), r.tpmC(),
                                r.transactions(), r.errors(), r.retries(), newOrder.p90Ms(), cpu);
                            results.add(run);
                            err.printf(Locale.ROOT, "   %s, %d clients: %.1f tx/s, tpmC %.0f, %d errors, %d retries; CPU ms/tx%s%n",
                                config.label(), t, r.tps(), r.tpmC(), r.errors(), r.retries(), cpuSummary(run));
                            if (!r.firstErrors().isEmpty()) err.println("   first error: " + r.firstErrors().get(0));
                        } catch (Exception e) {
                            String why = e.getMessage() == null ? e.toString() : e.getMessage();
                            err.println("bench: " + config.label() + " failed, skipping its other runs: " + why);
                            results.fail(config.label(), why);
                        }
                    }
                }
            }
        } finally {
            if (ownWorkDir) deleteRecursively(work);
        }
        Report.writeJson(json, results.toJson(settings(clientCounts)));
        writeSvg(svgFile, SvgChart.render(results, chartTitle("")));
        out.print(results.markdown());
        out.println();
        out.println("JSON: " + json + "   chart: " + svgFile);
        return results.failures().isEmpty() ? TpccCli.EXIT_OK : TpccCli.EXIT_FAILED;
    }

    private boolean quotaApplied;

    private Map<String, Object> settings(List<Integer> clientCounts) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("benchmark", "tpcc");
        settings.put("engine", engine);
        if (Engines.MARIADB.equals(Engines.forName(engine, mariadbThreadHandling).name())) {
            settings.put("mariadb_thread_handling", mariadbThreadHandling);
        }
        settings.put("warehouses", warehouses);
        settings.put("small", small);
        settings.put("terminals", clientCounts);
        settings.put("duration_s", durationS);
        settings.put("warmup_s", warmupS);
        settings.put("repeats", repeats);
        settings.put("think_ms", thinkMs);
        settings.put("seed", seed);
        settings.put("cpu_percent_per_database", cpuPercent);
        settings.put("cpu_period_ms", cpuPeriodMs);
        settings.put("cpu_quota_applied", quotaApplied);
        settings.put("measured_at", Instant.now().toString());
        return settings;
    }

    private String chartTitle(String prefix) {
        return String.format(Locale.ROOT, "%sTPC-C, %d%s warehouses, %s", prefix, warehouses, small ? " small" : "", engine);
    }

    private Path launcher() {
        return shepherdLauncher != null ? shepherdLauncher
            : Path.of(System.getProperty("shepherd.root", ".")).resolve("bin/shepherd");
    }

    private Path svgFile() {
        return svg != null ? svg : json.resolveSibling(json.getFileName().toString().replaceFirst("\\.json$", "") + ".svg");
    }

    private static void writeSvg(Path svgFile, String svgText) throws IOException {
        Path svgParent = svgFile.toAbsolutePath().getParent();
        if (svgParent != null) Files.createDirectories(svgParent);
        Files.writeString(svgFile, svgText);
    }

    private static String cpuSummary(BenchResults.Run run) {
        StringBuilder sb = new StringBuilder();
        for (String role : BenchResults.CPU_ROLES) {
            run.cpuMsPerTransaction(role).ifPresent(ms -> sb.append(String.format(Locale.ROOT, " %s %.2f (%.2f cores)",
                role, ms, run.cpu().get(role).cores())));
        }
        StringBuilder each = new StringBuilder();
        run.cpu().keySet().stream().filter(role -> role.startsWith(BenchResults.DATABASE_ROLE_PREFIX)).sorted()
            .forEach(role -> run.cpuMsPerTransaction(role).ifPresent(ms -> each.append(each.length() == 0 ? "" : ", ")
                .append(role.substring(BenchResults.DATABASE_ROLE_PREFIX.length()))
                .append(String.format(Locale.ROOT, " %.2f", ms))));
        if (each.length() > 0) sb.append(" [").append(each).append(']');
        return sb.length() == 0 ? " not measured" : sb.toString();
    }

    /**
     * Figure 9's harness: one cbs run with the first --terminals value, one secondary crashed and restarted during the
     * measured window, every replica's progress sampled five times a second. Exits 0 when the replica caught up and its
     * catch-up rate was measured, else 1.
     */
    private int crashScenario(Scale scale) throws Exception {
        List<String> replicas = cbsReplicaNames();
        CrashRun.Plan plan = CrashRun.Plan.of(crashReplica != null ? crashReplica : replicas.get(replicas.size() - 1),
            crashAtS, crashForS != null ? crashForS : 10, durationS, replicas);
        parseThink();
        int clients = terminals.get(0);
        CrashRun crash = new CrashRun(plan, err);
        RunResult r = runScenario(scale, crash, String.format(Locale.ROOT,
            "== crash scenario: cbs, %d clients, %s crashed at %.0fs for %.0fs of the %.0fs measured", clients, plan.replica(),
            plan.crashAtS(), plan.crashForS(), durationS));
        Map<String, Object> settings = settings(List.of(clients));
        settings.remove("repeats");
        Report.writeJson(json, crash.toJson(settings, r, warmupS));
        Path svgFile = svgFile();
        writeSvg(svgFile, SvgChart.renderTimeline(chartTitle("Crash of " + plan.replica() + ", cbs, "),
            "Seconds into the measured window", "Last committed barrier", crash.barrierSeries(), crash.marks()));
        out.print(crash.table(r, warmupS));
        out.println();
        out.printf(Locale.ROOT, "client: %.1f tx/s, %d transactions, %d errors, %d retries%n", r.tps(), r.transactions(),
            r.errors(), r.retries());
        out.println("crashed " + plan.replica() + (crash.crashedAtS() == null ? ": never (see the errors above)"
            : String.format(Locale.ROOT, " at %.1fs", crash.crashedAtS())) + "; " + crash.restartNote());
        out.println(crash.comeBackNote());
        CrashRun.ViewChange vc = crash.viewChange();
        if (vc != null) {
            out.printf(Locale.ROOT, "view change: %s is the primary instead of %s, seen %.1fs after the crash%n", vc.after(),
                vc.before(), vc.atS() - crash.crashedAtS());
        }
        if (crash.failure() != null) out.println("harness problem: " + crash.failure());
        out.println("JSON: " + json + "   chart: " + svgFile);
        CatchUp c = crash.catchUp();
        out.println("catch-up: " + c.note());
        return c.ratio() != null && crash.failure() == null ? TpccCli.EXIT_OK : TpccCli.EXIT_FAILED;
    }

    /**
     * One cbs run with the first --terminals value, the shepherd killed with SIGKILL during the measured window and started
     * again on the same configuration and data (it replays its write-ahead log), the clients reconnecting; then every
     * replica is read directly. Exits 0 when every New-Order the clients were told committed is on every replica, the
     * consistency conditions hold there and the replicas' digests are equal, else 1.
     */
    private int shepherdCrashScenario(Scale scale) throws Exception {
        ShepherdCrashRun.Plan plan = ShepherdCrashRun.Plan.of(crashAtS, crashForS != null ? crashForS : 2, lagForS, durationS);
        parseThink();
        int clients = terminals.get(0);
        Path shepherdLog = json.resolveSibling(json.getFileName().toString().replaceFirst("\\.json$", "") + ".shepherd.log");
        ShepherdCrashRun crash = new ShepherdCrashRun(plan, cbsReplicaNames(), scale, durationS, err, shepherdLog);
        String pause = plan.lagForS() == 0 ? ""
            : String.format(Locale.ROOT, ", %s paused for the %.1fs before", crash.lagging(), plan.lagForS());
        RunResult r = runScenario(scale, crash, String.format(Locale.ROOT,
            "== shepherd crash scenario: cbs, %d clients, the shepherd killed at %.0fs for %.0fs of the %.0fs measured%s",
            clients, plan.crashAtS(), plan.crashForS(), durationS, pause));
        Map<String, Object> settings = settings(List.of(clients));
        settings.remove("repeats");
        Report.writeJson(json, crash.toJson(settings, r));
        out.print(crash.table());
        out.println();
        out.print(crash.summary(r));
        out.println("JSON: " + json + "   the shepherd's log (both runs): " + shepherdLog);
        return crash.problems().isEmpty() ? TpccCli.EXIT_OK : TpccCli.EXIT_FAILED;
    }

    /** Loads the golden copy into a work directory and makes one cbs run with the first --terminals value and {@code hooks}. */
    private RunResult runScenario(Scale scale, RunHooks hooks, String banner) throws Exception {
        BenchDatabase.Engine db = Engines.forName(engine, mariadbThreadHandling);
        boolean ownWorkDir = workDir == null;
        Path work = ownWorkDir ? Files.createTempDirectory("shepherd-bench-") : Files.createDirectories(workDir);
        try {
            Path golden = loadGoldenCopy(db, scale, work);
            err.println(banner);
            return runOnce(db, new Setup(BenchConfig.CBS, null, Map.of(), null), scale, terminals.get(0), golden,
                work.resolve("run"), launcher(), new LinkedHashMap<>(), hooks);
        } finally {
            if (ownWorkDir) deleteRecursively(work);
        }
    }

    private static String replicaName(BenchConfig config, int index) {
        return config.databases() == 1 ? "db" : "r" + index;
    }

    /** r1, r2, r3: the replicas of a cbs run; r1 is the primary. */
    private static List<String> cbsReplicaNames() {
        List<String> replicas = new ArrayList<>();
        for (int i = 1; i <= BenchConfig.CBS.databases(); i++) replicas.add(replicaName(BenchConfig.CBS, i));
        return replicas;
    }

    /** Loads TPC-C once into a database server, stops it, and keeps its data directory as the copy to restore. */
    private Path loadGoldenCopy(BenchDatabase.Engine db, Scale scale, Path work) throws Exception {
        Path root = work.resolve("golden");
        err.println("loading " + scale.warehouses() + (scale.small() ? " small" : "") + " warehouses into a "
            + db.name() + " server (once; every run starts from a copy)");
        try (BenchDatabase server = db.start("golden", root)) {
            Loader.Options options = new Loader.Options(scale, seed, Dialect.parse(server.dialect()),
                Loader.DEFAULT_BATCH_ROWS, 1, Clock.systemUTC());
            new Loader(server.jdbc(), options, err, false).load();
            server.stop();
        }
        return db.dataDir(root);
    }

    private RunResult runOnce(BenchDatabase.Engine db, Setup setup, Scale scale, int clients, Path golden, Path dir,
                              Path launcher, Map<String, CpuMeter.Usage> cpuOut, RunHooks hooks) throws Exception {
        deleteRecursively(dir);
        BenchConfig config = setup.kind();
        List<BenchDatabase> servers = new ArrayList<>();
        List<CpuQuota> quotas = new ArrayList<>();
        ShepherdProcess shepherd = null;
        try {
            for (int i = 1; i <= config.databases(); i++) {
                String name = replicaName(config, i);
                Path root = dir.resolve(name);
                copyRecursively(golden, db.dataDir(root));
                BenchDatabase server = db.start(name, root);
                servers.add(server);
                Optional<CpuQuota> quota = CpuQuota.create(CpuQuota.CPU_ROOT, "shepherd-bench-" + ProcessHandle.current().pid()
                    + "-" + name, cpuPercent, cpuPeriodMs, err);
                if (quota.isPresent()) {
                    quota.get().add(server.pid());
                    quotas.add(quota.get());
                    quotaApplied = true;
                }
            }
            Jdbc target;
            if (config.viaShepherd()) {
                Map<String, String> settings = new LinkedHashMap<>(shepherdSettings);
                settings.putAll(setup.settings());
                shepherd = ShepherdProcess.start(launcher.toAbsolutePath(), dir.resolve("shepherd"), setup.label(), config,
                    servers, setup.javaOpts() != null ? setup.javaOpts() : shepherdJavaOpts, settings);
                target = shepherd.jdbc();
            } else {
                target = directBaseline(servers.get(0));
            }
            int[] think = parseThink();
            Runner.Options options = new Runner.Options(scale, clients, durationS, warmupS, seed, think[0], think[1], 10,
                hooks.progressIntervalS(durationS), 0, hooks.reconnectS(), Clock.systemUTC());
            Map<String, List<ProcessHandle>> roles = new LinkedHashMap<>();
            roles.put("client", List.of(ProcessHandle.current()));
            if (shepherd != null) roles.put("shepherd", List.of(shepherd.process()));
            List<ProcessHandle> databases = new ArrayList<>();
            for (BenchDatabase s : servers) ProcessHandle.of(s.pid()).ifPresent(databases::add);
            roles.put("databases", databases);
            if (servers.size() > 1) {
                for (int i = 0; i < servers.size(); i++) {
                    String role = BenchResults.DATABASE_ROLE_PREFIX + replicaName(config, i + 1);
                    ProcessHandle.of(servers.get(i).pid()).ifPresent(h -> roles.put(role, List.of(h)));
                }
            }
            CpuMeter meter = new CpuMeter(roles);
            ShepherdProcess started = shepherd;
            Runner runner = new Runner(target, options, err, hooks.recorder());
            RunResult result = runner.run(new Runner.WindowListener() {
                @Override
                public void measureStarted() {
                    meter.start();
                    hooks.measureStarted(servers, started, target);
                }

                @Override
                public void measureEnded() {
                    meter.stop();
                    hooks.measureEnded();
                }
            });
            cpuOut.putAll(meter.usage());
            if (shepherd != null) err.println("   shepherd: " + shepherd.counters());
            if (result.errors() > 0 && shepherd != null) {
                err.println("   the shepherd's log ends with:\n" + shepherd.logTail());
            }
            hooks.afterRun(servers, shepherd, target);
            return result;
        } finally {
            if (shepherd != null) shepherd.close();
            for (BenchDatabase s : servers) s.close();
            for (CpuQuota q : quotas) q.close();
            deleteRecursively(dir);
        }
    }

    /**
     * The single database of {@code direct}, set up exactly as a shepherd sets up each replica (isolation
     * SERIALIZABLE, lock and deadlock timeouts: {@link ReplicaSetup}), so that the comparison measures the
     * middleware and not different database settings.
     */
    static Jdbc directBaseline(BenchDatabase db) throws SQLException {
        ReplicaSetup setup = ReplicaSetup.forDialect(db.dialect());
        try (Connection c = db.jdbc().connect()) {
            setup.prepareDatabase(c);
            setup.prepareConnection(c);
            setup.verify(c);
        }
        return new Jdbc(db.jdbcUrl(), db.user(), db.password(), setup::prepareConnection);
    }

    private int[] parseThink() {
        String[] parts = thinkMs.trim().split("-", -1);
        try {
            int min = Integer.parseInt(parts[0].trim());
            int max = parts.length > 1 ? Integer.parseInt(parts[1].trim()) : min;
            return new int[] {min, max};
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--think-ms must look like 180-220, was '" + thinkMs + "'", e);
        }
    }

    static void copyRecursively(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) return;
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
