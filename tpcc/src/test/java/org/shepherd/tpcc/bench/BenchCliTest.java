package org.shepherd.tpcc.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
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
    void crashScenarioSaysItNeedsReplicaRecovery() {
        assertThat(bench("--scenario", "crash")).isEqualTo(TpccCli.EXIT_FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("needs replica recovery");
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
