package org.shepherd.tpcc.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.tpcc.TpccCli;

class BenchCliTest {

    private final BenchTestSupport run = new BenchTestSupport();

    @TempDir
    Path dir;

    private int bench(String... args) {
        return run.bench(args);
    }

    @Test
    void crashScenarioRefusesUnknownReplicasAndBadTimesBeforeStartingAnything() {
        assertThat(bench("--scenario", "crash", "--crash-replica", "r9", "--work-dir", dir.resolve("w").toString()))
            .isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--scenario", "crash", "--crash-at", "-1")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--scenario", "crash", "--crash-for", "-0.5")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--scenario", "crash", "--crash-at", "30", "--duration", "30")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(run.stderr()).contains("--crash-at must not be negative",
            "--crash-for must not be negative", "--crash-at must fall inside the measured window", "must be one of [r1, r2, r3]");
        assertThat(dir.resolve("w")).doesNotExist();
    }

    /**
     * A real cbs shepherd process over three Derby servers; {@code replica} is killed 2 s into the run and restarted
     * 2 s later; the shepherd probes it every second, replays what it missed, and it serves again before the run ends
     * (12 s: slack for a busy CI machine; 3 s of warm-up, as the first transactions on cold Derby servers took over 3 s
     * there once). Returns the JSON document; the run must have exited 0 (the replica caught up).
     */
    private JsonNode crashRun(String replica) throws Exception {
        Path launcher = BenchTestSupport.shepherdLauncher(dir);
        Path json = dir.resolve("crash.json");
        int exit = bench("--scenario", "crash", "--crash-replica", replica, "--warehouses", "1", "--terminals", "1", "--warmup",
            "3", "--duration", "12", "--crash-at", "2", "--crash-for", "2", "--cpu-percent", "0", "--work-dir",
            dir.resolve("work").toString(), "--json", json.toString(), "--shepherd", launcher.toString(), "--shepherd-set",
            "replica.probe.max.ms=1000");

        String stdout = run.stdout();
        assertThat(exit).as(stdout + run.stderr()).isEqualTo(TpccCli.EXIT_OK);
        assertThat(stdout).contains("catch-up: " + replica + " caught up at", replica + " is up in the shepherd at the end of the run");
        return new ObjectMapper().readTree(json.toFile());
    }

    @Test
    void crashScenarioKillsASecondaryThatCatchesUpAfterItsRestart() throws Exception {
        JsonNode doc = crashRun("r3");
        assertThat(doc.get("view_change")).as("the primary stayed").isNull();
        assertThat(doc.get("catch_up_rate").asDouble()).isPositive();
        assertThat(doc.get("normal_tps").asDouble()).isPositive();
        assertThat(doc.get("crashed_replica_back").asBoolean()).isTrue();
        assertThat(doc.get("restart").asText()).contains("started again");
        double crashedAt = doc.get("crashed_at_s").asDouble();
        double caughtUpAt = doc.get("caught_up_at_s").asDouble();
        assertThat(caughtUpAt).isGreaterThan(doc.get("restarted_at_s").asDouble());
        List<JsonNode> timeline = new ArrayList<>();
        doc.get("timeline").forEach(timeline::add);
        JsonNode beforeCrash = timeline.stream().filter(row -> row.get("t_s").asDouble() < crashedAt)
            .reduce((a, b) -> b).orElseThrow();
        JsonNode last = timeline.get(timeline.size() - 1);
        for (String replica : List.of("r1", "r2", "r3")) {
            assertThat(last.at("/replicas/" + replica + "/state").asText()).isEqualTo("up");
            assertThat(last.at("/replicas/" + replica + "/last_committed_barrier").asLong())
                .isGreaterThan(beforeCrash.at("/replicas/" + replica + "/last_committed_barrier").asLong());
        }
        assertThat(timeline).as("r3 was seen down after the crash")
            .anyMatch(row -> "down".equals(row.at("/replicas/r3/state").asText()) && row.get("t_s").asDouble() >= crashedAt);
        assertThat(Files.readString(dir.resolve("crash.svg"))).contains("<polyline", "r1", "r2", "r3", "crash r3", "restart r3");
    }

    /** The primary's server is killed: the shepherd makes r2 or r3 the primary, the clients retry, r1 returns as a secondary. */
    @Test
    void crashScenarioKillsThePrimaryAndTheShepherdChangesTheView() throws Exception {
        JsonNode doc = crashRun("r1");
        String stdout = run.stdout();
        assertThat(stdout).contains("view change: ");
        assertThat(doc.at("/view_change/primary_before").asText()).isEqualTo("r1");
        assertThat(doc.at("/view_change/primary_after").asText()).isIn("r2", "r3");
        assertThat(doc.at("/view_change/seconds_after_crash").isNumber()).isTrue();
        assertThat(doc.at("/view_change/seen_at_s").isNumber()).as("the view change was seen").isTrue();
        List<JsonNode> timeline = new ArrayList<>();
        doc.get("timeline").forEach(timeline::add);
        JsonNode last = timeline.get(timeline.size() - 1);
        assertThat(last.at("/replicas/r1/state").asText()).isEqualTo("up");
        assertThat(last.at("/replicas/r1/role").asText()).as("r1 came back as a secondary").isEqualTo("secondary");
        assertThat(doc.at("/client/transactions").asLong()).isPositive();
        assertThat(Files.readString(dir.resolve("crash.svg"))).contains("crash r1", "restart r1", " primary");
    }

    @Test
    void catchUpRateIsTheRecoveringSlopeOverTheNormalSlope() {
        // 10 tx/s before the crash at 2 s; r3 stuck at 20 while down, recovering from 5 s, up at 6 s with barrier 60
        List<CrashRun.Sample> samples = r1AndR3(
            new double[][] {{0, 0, 0}, {1, 10, 10}, {2.1, 21, 20}, {3, 30, 20}, {4, 40, 20}, {5, 50, 30}, {6, 60, 60}, {7, 70, 70}},
            new String[] {"up", "up", "down", "down", "down", "recovering", "up", "up"});
        CatchUp c = CatchUp.of(samples, "r3", 2.0, 4.5);
        assertThat(c.normalTps()).isEqualTo(10.0);
        assertThat(c.catchUpTps()).isEqualTo(30.0);
        assertThat(c.ratio()).isEqualTo(3.0);
        assertThat(c.lowerBound()).isFalse();
        assertThat(c.caughtUpAtS()).isEqualTo(6.0);
        // caught up between two samples: measured from the last down sample, a lower bound
        samples.set(5, new CrashRun.Sample(5, Map.of("r1", new CrashRun.ReplicaState("up", null, 50, 0, true),
            "r3", new CrashRun.ReplicaState("down", null, 20, 0, false)), null));
        CatchUp bound = CatchUp.of(samples, "r3", 2.0, 4.5);
        assertThat(bound.lowerBound()).isTrue();
        assertThat(bound.catchUpTps()).isEqualTo(40.0);
        assertThat(bound.note()).contains("at least");
        assertThat(CatchUp.of(samples.subList(0, 5), "r3", 2.0, 4.5).ratio()).as("never up again").isNull();
        assertThat(CatchUp.of(samples, "r3", null, null).note()).contains("never crashed");
    }

    /** Samples of r1 (up, the primary) and r3: each row is seconds, r1's barrier, r3's barrier; r3's states beside. */
    private static List<CrashRun.Sample> r1AndR3(double[][] rows, String[] r3States) {
        List<CrashRun.Sample> samples = new ArrayList<>();
        for (int i = 0; i < rows.length; i++) {
            samples.add(new CrashRun.Sample(rows[i][0], Map.of(
                "r1", new CrashRun.ReplicaState("up", null, (long) rows[i][1], 0, true),
                "r3", new CrashRun.ReplicaState(r3States[i], null, (long) rows[i][2], 0, false)), null));
        }
        return samples;
    }

    @Test
    void withNoCommitBeforeTheCrashTheNormalRateIsTheOthersSlopeAfterTheCatchUp() {
        // a cold start: nothing committed before the crash at 2 s; r3 recovering from 5 s, up at 6 s; r1 at 8/s afterwards
        List<CrashRun.Sample> samples = r1AndR3(
            new double[][] {{0, -1, -1}, {1, -1, -1}, {2.1, 0, -1}, {3, 4, -1}, {5, 20, 0}, {6, 28, 28}, {7, 36, 36}, {8, 44, 44}},
            new String[] {"up", "up", "down", "down", "recovering", "up", "up", "up"});
        CatchUp c = CatchUp.of(samples, "r3", 2.0, 4.5);
        assertThat(c.normalTps()).isEqualTo(8.0);
        assertThat(c.catchUpTps()).isEqualTo(28.0);
        assertThat(c.ratio()).isEqualTo(3.5);
        assertThat(c.note()).contains("3.50x the normal rate of 8.0/s after the catch-up (nothing committed before the crash)");
    }

    @Test
    void replicaStateSplitsTheShepherdsReasonFromUpOrDown() {
        assertThat(CrashRun.ReplicaState.parse("up", 5, 0, true)).isEqualTo(new CrashRun.ReplicaState("up", null, 5, 0, true));
        assertThat(CrashRun.ReplicaState.parse("down: connection reset: by peer", 7, 3, false))
            .isEqualTo(new CrashRun.ReplicaState("down", "connection reset: by peer", 7, 3, false));
    }

    @Test
    void aViewChangeIsTheFirstSampleAfterTheCrashThatNamesAnotherPrimary() {
        List<CrashRun.Sample> samples = new ArrayList<>();
        String[] primaries = {"r1", "r1", "r1", null, "r2", "r2"};
        for (int i = 0; i < primaries.length; i++) {
            Map<String, CrashRun.ReplicaState> replicas = new java.util.TreeMap<>();
            for (String r : List.of("r1", "r2", "r3")) {
                replicas.put(r, new CrashRun.ReplicaState(i >= 2 && r.equals("r1") ? "down" : "up", null, i, 0, r.equals(primaries[i])));
            }
            samples.add(new CrashRun.Sample(i, replicas, null));
        }
        assertThat(CrashRun.ViewChange.of(samples, 1.5)).isEqualTo(new CrashRun.ViewChange("r1", "r2", 4.0));
        assertThat(CrashRun.ViewChange.of(samples.subList(0, 4), 1.5)).as("no other primary yet").isNull();
        assertThat(CrashRun.ViewChange.of(samples, null)).as("no crash").isNull();
    }

    @Test
    void badUsageExitsTwo() {
        assertThat(bench("--configs", "direct,turbo")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(run.stderr()).contains("turbo");
        assertThat(bench("--terminals", "0")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--no-such-option")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--help")).isEqualTo(TpccCli.EXIT_OK);
        assertThat(run.stdout()).contains("--configs", "--cpu-percent");
    }

    @Test
    void shepherdSettingsMayNotChangeWhatBenchConfiguresItself() {
        assertThat(bench("--shepherd-set", "mode=serial")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(run.stderr()).contains("--shepherd-set mode");
        assertThat(bench("--shepherd-set", "replica.r1.url=jdbc:derby:x")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--shepherd-set", "user.bench.password=x")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--shepherd-set", "no-equals-sign")).isEqualTo(TpccCli.EXIT_USAGE);
        ShepherdProcess.checkSettings(Map.of("replica.pool.size.max", "10", "fetch.size.default", "16"));
    }

    @Test
    void variantsAreShepherdSettingsOfANamedCopyOfAConfiguration() {
        List<Setup> setups = Setup.parse(List.of("direct", "cbs", "cbs@pool8", "ss@pool8"),
            List.of("pool8:replica.pool.size.max=8", "pool8:java-opts=-Xmx1g -Dx=y"));
        assertThat(setups).extracting(Setup::label).containsExactly("direct", "cbs", "cbs@pool8", "ss@pool8");
        assertThat(setups.get(2).kind()).isEqualTo(BenchConfig.CBS);
        assertThat(setups.get(2).settings()).containsExactly(Map.entry("replica.pool.size.max", "8"));
        assertThat(setups.get(2).javaOpts()).isEqualTo("-Xmx1g -Dx=y");
        assertThat(setups.get(1).settings()).isEmpty();
        assertThat(setups.get(1).javaOpts()).isNull();

        assertThat(bench("--configs", "cbs@nope")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(run.stderr()).contains("no --variant nope");
        assertThat(bench("--configs", "direct@a", "--variant", "a:fetch.size.default=16")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(run.stderr()).contains("only shepherd configurations have variants");
        assertThat(bench("--configs", "cbs@a", "--variant", "a:mode=serial")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--configs", "cbs", "--variant", "unused:fetch.size.default=16")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(run.stderr()).contains("no configuration uses it");
        assertThat(bench("--configs", "cbs@a", "--variant", "a=b")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(run.stderr()).contains("NAME:KEY=VALUE");
    }

    @Test
    void aCpuPeriodOutOfRangeOrAQuotaBelowOneMillisecondIsRefused() {
        assertThat(bench("--cpu-period-ms", "0")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--cpu-period-ms", "2000")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--cpu-period-ms", "2", "--cpu-percent", "25")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(run.stderr()).contains("--cpu-period-ms must be 1-1000", "at least 1 ms");
    }

    @Test
    void anUnknownMariaDbThreadHandlingIsRefused() {
        assertThat(bench("--engine", "mariadb", "--mariadb-thread-handling", "no-threads")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(run.stderr()).contains("--mariadb-thread-handling must be pool-of-threads or one-thread-per-connection");
    }

    @Test
    void cpuQuotaWritesPeriodQuotaAndPidsAndRemovesItsGroup() throws Exception {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        Optional<CpuQuota> quota = CpuQuota.create(dir, "g1", 50, 10, quiet);
        assertThat(quota).isPresent();
        Path group = quota.get().dir();
        assertThat(Files.readString(group.resolve("cpu.cfs_period_us"))).isEqualTo("10000");
        assertThat(Files.readString(group.resolve("cpu.cfs_quota_us"))).isEqualTo("5000");
        quota.get().add(ProcessHandle.current().pid());
        assertThat(Files.readString(group.resolve("cgroup.procs"))).contains(Long.toString(ProcessHandle.current().pid()));
        Files.delete(group.resolve("cpu.cfs_period_us"));
        Files.delete(group.resolve("cpu.cfs_quota_us"));
        Files.delete(group.resolve("cgroup.procs"));
        quota.get().close();
        assertThat(group).doesNotExist();
    }

    @Test
    void noQuotaWhereTheHierarchyIsNotWritable() throws Exception {
        Path file = Files.writeString(dir.resolve("not-a-directory"), "x");
        ByteArrayOutputStream note = new ByteArrayOutputStream();
        assertThat(CpuQuota.create(file, "g", 50, 100, new PrintStream(note, true, StandardCharsets.UTF_8))).isEmpty();
        assertThat(note.toString(StandardCharsets.UTF_8)).contains("no CPU quota");
        assertThat(CpuQuota.create(dir, "g", 0, 100, System.err)).isEmpty();
    }
}
