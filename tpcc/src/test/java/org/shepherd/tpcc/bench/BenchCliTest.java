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

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    private int bench(String... args) {
        return Bench.execute(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    @Test
    void crashScenarioRefusesThePrimaryUnknownReplicasAndBadTimesBeforeStartingAnything() {
        assertThat(bench("--scenario", "crash", "--crash-replica", "r1", "--work-dir", dir.resolve("w").toString()))
            .isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("r1 is the primary");
        assertThat(bench("--scenario", "crash", "--crash-replica", "r2", "--shepherd-set", "primary=r2"))
            .isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--scenario", "crash", "--crash-replica", "r9")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--scenario", "crash", "--crash-at", "-1")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--scenario", "crash", "--crash-for", "-0.5")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--scenario", "crash", "--crash-at", "30", "--duration", "30")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--crash-at must not be negative",
            "--crash-for must not be negative", "--crash-at must fall inside the measured window", "must be one of [r1, r2, r3]");
        assertThat(dir.resolve("w")).doesNotExist();
    }

    /** A real cbs shepherd process over three Derby servers; r3 is killed 2 s into the run and restarted 2 s later. */
    @Test
    void crashScenarioKillsASecondaryWhileTheOthersKeepCommittingAndSaysTheCatchUpRateNeedsRecovery() throws Exception {
        Path launcher = dir.resolve("shepherd-launcher");
        Files.writeString(launcher, "#!/usr/bin/env bash\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
            + "' -cp '" + System.getProperty("java.class.path") + "' org.shepherd.cli.ShepherdCli \"$@\"\n");
        assertThat(launcher.toFile().setExecutable(true)).isTrue();
        Path json = dir.resolve("crash.json");
        int exit = bench("--scenario", "crash", "--warehouses", "1", "--terminals", "1", "--warmup", "1", "--duration", "6",
            "--crash-at", "2", "--crash-for", "2", "--cpu-percent", "0", "--work-dir", dir.resolve("work").toString(),
            "--json", json.toString(), "--shepherd", launcher.toString());

        String stdout = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(stdout + err.toString(StandardCharsets.UTF_8)).isEqualTo(TpccCli.EXIT_FAILED);
        assertThat(stdout).contains("catch-up rate: not measured: " + Bench.CRASH_SCENARIO_MISSING, "r3 is still down");
        JsonNode doc = new ObjectMapper().readTree(json.toFile());
        assertThat(doc.get("catch_up_rate").isNull()).isTrue();
        assertThat(doc.get("catch_up_unavailable").asText()).isEqualTo(Bench.CRASH_SCENARIO_MISSING);
        assertThat(doc.get("crashed_replica_back").asBoolean()).isFalse();
        assertThat(doc.get("restart").asText()).contains("started again");
        double crashedAt = doc.get("crashed_at_s").asDouble();
        List<JsonNode> timeline = new ArrayList<>();
        doc.get("timeline").forEach(timeline::add);
        JsonNode beforeCrash = timeline.stream().filter(row -> row.get("t_s").asDouble() < crashedAt)
            .reduce((a, b) -> b).orElseThrow();
        JsonNode last = timeline.get(timeline.size() - 1);
        assertThat(last.at("/replicas/r3/state").asText()).isEqualTo("down");
        assertThat(last.at("/replicas/r3/down_reason").asText()).isNotEmpty();
        for (String alive : List.of("r1", "r2")) {
            assertThat(last.at("/replicas/" + alive + "/state").asText()).isEqualTo("up");
            assertThat(last.at("/replicas/" + alive + "/last_committed_barrier").asLong())
                .isGreaterThan(beforeCrash.at("/replicas/" + alive + "/last_committed_barrier").asLong());
        }
        boolean down = false;
        for (JsonNode row : timeline) {
            boolean nowDown = "down".equals(row.at("/replicas/r3/state").asText());
            assertThat(!down || nowDown).as("r3 never comes back: " + row).isTrue();
            if (nowDown) assertThat(row.get("t_s").asDouble()).isGreaterThanOrEqualTo(beforeCrash.get("t_s").asDouble());
            down = nowDown;
        }
        assertThat(Files.readString(dir.resolve("crash.svg"))).contains("<polyline", "r1", "r2", "r3", "crash r3");
    }

    @Test
    void replicaStateSplitsTheShepherdsReasonFromUpOrDown() {
        assertThat(CrashRun.ReplicaState.parse("up", 5, 0)).isEqualTo(new CrashRun.ReplicaState("up", null, 5, 0));
        assertThat(CrashRun.ReplicaState.parse("down: connection reset: by peer", 7, 3))
            .isEqualTo(new CrashRun.ReplicaState("down", "connection reset: by peer", 7, 3));
    }

    @Test
    void badUsageExitsTwo() {
        assertThat(bench("--configs", "direct,turbo")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("turbo");
        assertThat(bench("--terminals", "0")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--no-such-option")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--help")).isEqualTo(TpccCli.EXIT_OK);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("--configs", "--cpu-percent");
    }

    @Test
    void shepherdSettingsMayNotChangeWhatBenchConfiguresItself() {
        assertThat(bench("--shepherd-set", "mode=serial")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--shepherd-set mode");
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
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("no --variant nope");
        assertThat(bench("--configs", "direct@a", "--variant", "a:fetch.size.default=16")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("only shepherd configurations have variants");
        assertThat(bench("--configs", "cbs@a", "--variant", "a:mode=serial")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(bench("--configs", "cbs", "--variant", "unused:fetch.size.default=16")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("no configuration uses it");
        assertThat(bench("--configs", "cbs@a", "--variant", "a=b")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("NAME:KEY=VALUE");
    }

    @Test
    void cpuQuotaWritesPeriodQuotaAndPidsAndRemovesItsGroup() throws Exception {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        Optional<CpuQuota> quota = CpuQuota.create(dir, "g1", 50, quiet);
        assertThat(quota).isPresent();
        Path group = quota.get().dir();
        assertThat(Files.readString(group.resolve("cpu.cfs_period_us"))).isEqualTo("100000");
        assertThat(Files.readString(group.resolve("cpu.cfs_quota_us"))).isEqualTo("50000");
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
        assertThat(CpuQuota.create(file, "g", 50, new PrintStream(note, true, StandardCharsets.UTF_8))).isEmpty();
        assertThat(note.toString(StandardCharsets.UTF_8)).contains("no CPU quota");
        assertThat(CpuQuota.create(dir, "g", 0, System.err)).isEmpty();
    }
}
