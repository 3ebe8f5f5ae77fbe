package org.shepherd.tpcc.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.tpcc.Digest;
import org.shepherd.tpcc.TpccCli;

/** {@code bin/bench --scenario shepherd-crash}: the shepherd is killed with SIGKILL under TPC-C and started again. */
class ShepherdCrashScenarioTest {

    @TempDir
    Path dir;

    private final BenchTestSupport run = new BenchTestSupport();

    /**
     * Tier 3: a cbs shepherd process over three Derby servers, two clients, 16 s measured; r3 is paused for the last second
     * before the shepherd is killed, 3 s into the measured window, and the shepherd is started again 2 s later on the same
     * data directory, which leaves its new JVM about 11 s to listen and commit. It must replay on r3 what r3 lacks; every
     * New-Order whose COMMIT returned must be on every replica (read directly), the consistency conditions must hold there
     * and the digests must be equal.
     */
    @Test
    void everyAcknowledgedNewOrderSurvivesASigkilledShepherd() throws Exception {
        Path json = dir.resolve("shepherd-crash.json");
        int exit = run.bench("--scenario", "shepherd-crash", "--warehouses", "1", "--small", "--terminals", "2", "--warmup", "4",
            "--duration", "16", "--crash-at", "3", "--crash-for", "2", "--lag-for", "1", "--cpu-percent", "0", "--work-dir",
            dir.resolve("work").toString(), "--json", json.toString(), "--shepherd",
            BenchTestSupport.shepherdLauncher(dir).toString());

        String stdout = run.stdout();
        assertThat(exit).as(stdout + run.stderr()).isEqualTo(TpccCli.EXIT_OK);
        assertThat(stdout).contains("SIGKILL at", "PASSED: every acknowledged New-Order is on every replica");
        JsonNode doc = new ObjectMapper().readTree(json.toFile());
        assertThat(doc.get("passed").asBoolean()).isTrue();
        assertThat(doc.path("killed_at_s").isNumber()).as("the shepherd was killed").isTrue();
        assertThat(doc.path("listening_at_s").isNumber()).as("the restarted shepherd listened").isTrue();
        assertThat(doc.at("/client/connection_losses").asLong()).as("the clients saw the shepherd die").isPositive();
        assertThat(doc.at("/client/gap_s").asDouble()).isPositive();
        assertThat(doc.at("/replay/lacked/r3").asLong()).as("r3 missed what was acknowledged while it was paused").isPositive();
        assertThat(doc.at("/replay/replayed_when_caught_up/r3").asLong()).as("the restarted shepherd replayed it from its log")
            .isGreaterThanOrEqualTo(doc.at("/replay/lacked/r3").asLong());
        long acknowledged = doc.at("/new_orders/acknowledged").asLong();
        assertThat(acknowledged).isPositive();
        assertThat(doc.at("/new_orders/lost_max").asLong()).isZero();
        assertThat(doc.get("digests_equal").asBoolean()).isTrue();
        for (String replica : List.of("r1", "r2", "r3")) {
            JsonNode r = doc.at("/replicas/" + replica);
            assertThat(r.at("/orders/lost").asLong()).as(replica).isZero();
            assertThat(r.at("/orders/acknowledgedFound").asLong()).as(replica).isEqualTo(acknowledged);
            assertThat(r.get("consistency_passed").asBoolean()).as(replica).isTrue();
        }
    }

    @Test
    void refusesTimesOutsideTheWindowAndAReplicaToCrash() {
        assertThat(run.bench("--scenario", "shepherd-crash", "--crash-at", "8", "--crash-for", "2", "--duration", "10"))
            .isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(run.bench("--scenario", "shepherd-crash", "--crash-for", "-1")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(run.bench("--scenario", "shepherd-crash", "--crash-at", "1", "--lag-for", "2")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(run.bench("--scenario", "shepherd-crash", "--crash-replica", "r2")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(run.bench("--scenario", "nope")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(run.stderr()).contains("--crash-at + --crash-for must fall inside the measured window",
            "--crash-for must not be negative", "--lag-for must be between 0 and --crash-at",
            "--crash-replica applies to --scenario crash only", "shepherd-crash");
    }

    @Test
    void theReplayIsReadFromTheRestartedShepherdsLog() {
        String log = String.join("\n",
            "12:00:01.000 INFO  [main] o.s.c.c.CbsCore - replica r2: it lacks 3 committed transactions of an earlier run"
                + " (barriers 40 to 42): replaying them from the write-ahead log",
            "[main] INFO org.shepherd.coordinator.cbs.CbsCore - replica r3: it lacks 1 committed transaction of an earlier run"
                + " (barriers 42): replaying them from the write-ahead log",
            "12:00:01.200 INFO  [cbs-core] o.s.c.c.CbsCore - replica r2 caught up at barrier 42 (3 transactions replayed since"
                + " start) and serves again");
        ShepherdCrashRun.Replay replay = ShepherdCrashRun.Replay.parse(log);
        assertThat(replay.lacked()).isEqualTo(Map.of("r2", 3L, "r3", 1L));
        assertThat(replay.replayed()).isEqualTo(Map.of("r2", 3L));
        assertThat(replay.summary(List.of("r1", "r2", "r3"))).isEqualTo("r1 0, r2 3, r3 1 (not caught up)");
        assertThat(ShepherdCrashRun.Replay.parse(log.replace("(3 transactions replayed", "(5 transactions replayed"))
            .summary(List.of("r2"))).isEqualTo("r2 3 (caught up after 5, new commits included)");
        assertThat(ShepherdCrashRun.Replay.parse("x\nWARN replica r1 is left out: its transaction log ends at barrier 3")
            .leftOut()).containsEntry("r1", "its transaction log ends at barrier 3");
    }

    @Test
    void digestsAreComparedAmongTheReplicasThatWereRead() {
        List<Digest.TableDigest> a = List.of(new Digest.TableDigest("ORDERS", 3, "a"), new Digest.TableDigest("STOCK", 5, "s"));
        List<Digest.TableDigest> b = List.of(new Digest.TableDigest("ORDERS", 3, "b"), new Digest.TableDigest("STOCK", 5, "s"));
        ShepherdCrashRun.ReplicaCheck unread = new ShepherdCrashRun.ReplicaCheck("r1", null, List.of(), List.of(), "refused");
        ShepherdCrashRun.ReplicaCheck r2 = new ShepherdCrashRun.ReplicaCheck("r2", null, List.of(), a, null);
        ShepherdCrashRun.ReplicaCheck r3 = new ShepherdCrashRun.ReplicaCheck("r3", null, List.of(), a, null);
        ShepherdCrashRun.ReplicaCheck r3b = new ShepherdCrashRun.ReplicaCheck("r3", null, List.of(), b, null);
        assertThat(ShepherdCrashRun.digestDifferences(List.of(unread, r2, r3))).isEmpty();
        assertThat(ShepherdCrashRun.digestDifferences(List.of(r2, unread, r3b))).containsExactly("r3 differs from r2 in [ORDERS]");
        assertThat(ShepherdCrashRun.digestDifferences(List.of(unread))).isEmpty();
    }
}
