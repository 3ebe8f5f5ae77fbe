package org.shepherd.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.shepherd.coordinator.cbs.CbsCore;
import org.shepherd.divergence.Divergence;
import org.shepherd.replica.ReplicaManager;
import org.shepherd.schedule.ExecutionMode;
import org.shepherd.schedule.OrderingRules;
import org.shepherd.sim.SimReplica.Faults;
import org.shepherd.sim.Simulation.Result;
import org.shepherd.sim.Simulation.Scenario;
import org.shepherd.sim.Simulation.Script;

/**
 * Tier 2: the coordinator and replica managers against simulated replicas (f=1, three replicas, r1 is the
 * primary). A failing seed is printed; {@code -Dsim.seed=N} replays one seed of the many-seed test.
 */
class CbsSimulationTest {

    private static final Faults OK = Faults.NONE;
    private static final int SEEDS = 1000;

    private record Profile(String name, Scenario scenario) {
    }

    private static final List<Profile> PROFILES = List.of(
            new Profile("three correct replicas", Scenario.random(List.of(OK, OK, OK))),
            new Profile("slow secondary", Scenario.random(List.of(OK, OK.slow(10), OK))),
            new Profile("secondary crashes", Scenario.random(List.of(OK, OK, OK.crashAt(30)))),
            new Profile("lying secondary", Scenario.random(List.of(OK, OK.lying(0.3), OK))),
            new Profile("lying primary", Scenario.random(List.of(OK.lying(0.3), OK, OK))),
            new Profile("insufficiently blocking secondary", Scenario.random(List.of(OK, OK, OK.coarseLocks(3)))),
            new Profile("primary ignores locks", Scenario.random(List.of(OK.ignoringLocks(), OK, OK))),
            new Profile("primary crashes", Scenario.random(List.of(OK.crashAt(40), OK, OK))),
            new Profile("secondary crashes and comes back", Scenario.random(List.of(OK, OK.crashAt(25).restartAt(60), OK))
                    .withWorkload(4, 12, 5)),
            new Profile("primary crashes and comes back", Scenario.random(List.of(OK.crashAt(30).restartAt(45), OK, OK))
                    .withWorkload(4, 12, 5)),
            new Profile("mode ss, lying secondary", Scenario.random(List.of(OK, OK.lying(0.3), OK)).withMode(ExecutionMode.SS)),
            new Profile("mode ss, primary crashes", Scenario.random(List.of(OK.crashAt(30), OK, OK)).withMode(ExecutionMode.SS)
                    .withWorkload(4, 12, 5)),
            new Profile("mode serial, primary crashes and comes back",
                    Scenario.random(List.of(OK.crashAt(30).restartAt(60), OK, OK)).withMode(ExecutionMode.SERIAL)
                            .withWorkload(4, 12, 5)),
            new Profile("mode serial, insufficiently blocking secondary",
                    Scenario.random(List.of(OK, OK.coarseLocks(3), OK)).withMode(ExecutionMode.SERIAL)));

    private static List<Long> seeds(int count) {
        String one = System.getProperty("sim.seed");
        List<Long> out = new ArrayList<>();
        if (one != null && !one.isBlank()) {
            out.add(Long.parseLong(one.trim()));
        } else {
            for (long s = 0; s < count; s++) out.add(s);
        }
        return out;
    }

    private static List<Result> runAll(Scenario scenario, int count) {
        List<Result> results = new ArrayList<>();
        for (long seed : seeds(count)) {
            Result r = Simulation.run(seed, scenario);
            assertThat(r.violation()).as("invariant violated; replay with -Dsim.seed=%d", seed).isNull();
            results.add(r);
        }
        return results;
    }

    @Test
    @DisplayName("1000 seeds, random workloads, at most f faulty replicas of each kind, three modes: every invariant holds at every step")
    void manySeeds() {
        long commits = 0;
        long aborts = 0;
        long steps = 0;
        for (long seed : seeds(SEEDS)) {
            Profile p = PROFILES.get((int) (seed % PROFILES.size()));
            Result r = Simulation.run(seed, p.scenario());
            assertThat(r.violation()).as("%s: invariant violated; replay with -Dsim.seed=%d", p.name(), seed).isNull();
            commits += r.stats().commits();
            aborts += r.stats().aborts();
            steps += r.steps();
        }
        assertThat(commits).isPositive();
        System.out.printf("simulation: %d commits, %d aborts, %d events%n", commits, aborts, steps);
    }

    private static Scenario figure5(OrderingRules rules) {
        // r2 runs T1 first and blocks T2; r3 runs T2 first and blocks T1 (seed section 3.3.2)
        LongFunction<SimReplica.Latency> first = favoured -> (tx, rnd) -> tx == favoured ? 1 : 5;
        List<List<Script>> scripts = List.of(
                List.of(new Script(List.of(SimOp.increment(0)), true)),
                List.of(new Script(List.of(SimOp.increment(0)), true)));
        return Scenario.scripted(List.of(OK.ignoringLocks(), OK, OK), List.of((tx, rnd) -> 1, first.apply(1), first.apply(2)),
                scripts).withRules(rules);
    }

    @Test
    @DisplayName("faulty primary returns A=1 to both increments (Figure 5): commit aborts, replicas converge")
    void figure5() {
        Result r = Simulation.run(5, figure5(OrderingRules.ALL));
        assertThat(r.violation()).isNull();
        List<Simulation.ClientOutcome> out = r.outcomes();
        assertThat(out).extracting(Simulation.ClientOutcome::answers).containsOnly(List.of("v=1"));
        assertThat(out).filteredOn(Simulation.ClientOutcome::committed).hasSize(1);
        Simulation.ClientOutcome aborted = out.stream().filter(o -> !o.committed()).findFirst().orElseThrow();
        assertThat(aborted.error()).startsWith("40001").contains("r1 disagreed").contains("v=2");
        assertThat(r.replicas().get(1).data()).isEqualTo(r.replicas().get(2).data()).isEqualTo(r.reference())
                .containsEntry(0, 1L);
        assertThat(r.stats().replicaReruns()).as("r3 aborted T2 locally to let T1 commit").isPositive();
        assertThat(r.divergences().snapshot()).extracting(Divergence::replica).contains("r1");
    }

    @Test
    @DisplayName("counting votes of replicas not ready to commit lets Figure 5 commit a wrong answer: the invariants catch it")
    void figure5WithoutReadiness() {
        Result r = Simulation.run(5, figure5(OrderingRules.ALL.countingUnreadyVotes()));
        assertThat(r.violation()).contains("client received committed answers [v=1]");
    }

    @Test
    @DisplayName("a lying secondary is outvoted: commits stay correct and every lie it told is reported as a masked divergence")
    void lyingSecondary() {
        List<Result> results = runAll(Scenario.random(List.of(OK, OK.lying(0.3), OK)), 50);
        List<Divergence> all = results.stream().flatMap(r -> r.divergences().snapshot().stream()).toList();
        assertThat(all).isNotEmpty().allMatch(d -> d.replica().equals("r2") && d.masked());
        assertThat(results.stream().mapToLong(r -> r.stats().voteAborts()).sum()).isZero();
    }

    @Test
    @DisplayName("a lying primary: the transaction that got a wrong tentative answer fails at COMMIT with 40001 naming the primary")
    void lyingPrimary() {
        List<Result> results = runAll(Scenario.random(List.of(OK.lying(0.3), OK, OK)), 50);
        List<Simulation.ClientOutcome> voteFailures = results.stream().flatMap(r -> r.outcomes().stream())
                .filter(o -> o.error() != null && o.error().contains("disagreed")).toList();
        assertThat(voteFailures).isNotEmpty().allMatch(o -> o.error().startsWith("40001") && o.error().contains("r1"));
        assertThat(results.stream().flatMap(r -> r.divergences().snapshot().stream())).allMatch(d -> d.replica().equals("r1"));
        assertThat(results.stream().mapToLong(r -> r.stats().commits()).sum()).isPositive();
    }

    @Test
    @DisplayName("view change on evidence: a lying primary outvoted by f+1 replicas is replaced, and lies on as a secondary, masked")
    void outvotedPrimaryIsReplaced() {
        List<Result> results = runAll(Scenario.random(List.of(OK.lying(0.3), OK, OK)).withWorkload(4, 30, 5), 100);
        List<Result> changed = results.stream().filter(r -> r.core().view() > 0).toList();
        assertThat(changed).as("seeds where r1 was caught lying and replaced").hasSizeGreaterThan(results.size() / 2);
        for (Result r : changed) {
            assertThat(r.core().primaryIndex()).as("seed %d", r.seed()).isIn(1, 2);
            assertThat(r.core().replicas().get(0).primary()).as("seed %d", r.seed()).isFalse();
            assertThat(r.replicas().get(1).data()).as("seed %d", r.seed()).isEqualTo(r.reference());
            assertThat(r.replicas().get(2).data()).as("seed %d", r.seed()).isEqualTo(r.reference());
            assertThat(r.divergences().snapshot()).as("seed %d", r.seed()).allMatch(d -> d.replica().equals("r1"));
        }
        assertThat(changed.stream().flatMap(r -> r.divergences().snapshot().stream()).filter(Divergence::masked))
                .as("r1's lies as a secondary, outvoted and reported").isNotEmpty();
    }

    @Test
    @DisplayName("with view.change.outvoted=0 a lying primary stays: its transactions keep failing at COMMIT with 40001")
    void outvotedPrimaryStaysWhenTurnedOff() {
        List<Result> results = runAll(Scenario.random(List.of(OK.lying(0.3), OK, OK)).withWorkload(4, 30, 5)
                .withRecovery(Simulation.Scenario.RECOVERY.withOutvotedMax(0)), 50);
        assertThat(results).allMatch(r -> r.core().view() == 0 && r.core().primaryIndex() == 0);
        assertThat(results.stream().mapToLong(r -> r.stats().voteAborts()).sum()).isPositive();
    }

    @Test
    @DisplayName("a secondary that crashes is marked down and the others go on with f+1 replicas")
    void crashedSecondary() {
        List<Result> results = runAll(Scenario.random(List.of(OK, OK, OK.crashAt(20))), 50);
        for (Result r : results) {
            assertThat(r.replicas().get(2).crashed()).isTrue();
            long committedAfterCrash = r.replicas().get(1).history().size() - r.replicas().get(2).history().size();
            assertThat(committedAfterCrash).as("seed %d", r.seed()).isPositive();
        }
    }

    @Test
    @DisplayName("a secondary that crashes and comes back replays what it missed (reads skipped) and serves again")
    void secondaryComesBack() {
        List<Result> results = runAll(Scenario.random(List.of(OK, OK, OK.crashAt(25).restartAt(60))).withWorkload(4, 12, 5), 200);
        long replayed = 0;
        for (Result r : results) {
            assertThat(r.core().replicas().get(2).phase()).as("seed %d", r.seed()).isEqualTo(ReplicaManager.Phase.UP);
            assertThat(r.replicas().get(2).data()).as("seed %d", r.seed()).isEqualTo(r.reference());
            assertThat(r.replicas().get(2).history()).as("seed %d", r.seed()).hasSize(r.replicas().get(1).history().size());
            replayed += r.core().replicas().get(2).replayed();
        }
        assertThat(replayed).as("transactions replayed over all seeds (their reads skipped: checked at every commit)").isPositive();
    }

    @Test
    @DisplayName("without view changes, a primary that crashes and comes back: statements fail while it is down, then it catches up"
            + " and serves")
    void primaryComesBack() {
        List<Result> results = runAll(Scenario.random(List.of(OK.crashAt(30).restartAt(45), OK, OK)).withWorkload(4, 30, 5)
                .withRecovery(Simulation.Scenario.RECOVERY.withViewChange(false)), 100);
        for (Result r : results) {
            assertThat(r.core().replicas().get(0).phase()).as("seed %d", r.seed()).isEqualTo(ReplicaManager.Phase.UP);
            assertThat(r.replicas().get(0).data()).as("seed %d", r.seed()).isEqualTo(r.reference());
        }
        assertThat(results.stream().flatMap(r -> r.outcomes().stream()).filter(o -> o.error() != null)
                .anyMatch(o -> o.error().startsWith("08006"))).as("some statement met the primary down").isTrue();
        assertThat(results.stream().flatMap(r -> r.outcomes().stream())
                .filter(o -> o.committed() && o.txId() > 60)).as("commits after the primary came back").isNotEmpty();
    }

    @Test
    @DisplayName("view change: a crashed primary is replaced by a secondary that first commits everything committed; clients"
            + " retry (40001) and go on")
    void primaryFailsOver() {
        List<Result> results = runAll(Scenario.random(List.of(OK.crashAt(30), OK, OK)).withWorkload(4, 30, 5), 200);
        for (Result r : results) {
            assertThat(r.core().view()).as("seed %d", r.seed()).isEqualTo(1);
            assertThat(r.core().primaryIndex()).as("seed %d", r.seed()).isIn(1, 2);
            assertThat(r.replicas().get(1).data()).as("seed %d", r.seed()).isEqualTo(r.reference());
            assertThat(r.replicas().get(2).data()).as("seed %d", r.seed()).isEqualTo(r.reference());
        }
        List<Simulation.ClientOutcome> all = results.stream().flatMap(r -> r.outcomes().stream()).toList();
        assertThat(all).filteredOn(o -> o.error() != null && o.error().startsWith("40001") && o.error().contains("view change"))
                .as("transactions met the view change").isNotEmpty();
        assertThat(all).filteredOn(o -> o.error() != null && o.error().startsWith("08006")).as("service never stopped").isEmpty();
        assertThat(all).filteredOn(o -> o.committed() && o.txId() > 60).as("commits under the new primary").isNotEmpty();
    }

    @Test
    @DisplayName("view change, then the old primary comes back: it replays what it missed and serves as a secondary")
    void oldPrimaryRejoinsAsSecondary() {
        List<Result> results = runAll(Scenario.random(List.of(OK.crashAt(30).restartAt(45), OK, OK)).withWorkload(4, 30, 5), 100);
        for (Result r : results) {
            ReplicaManager<?> old = r.core().replicas().get(0);
            assertThat(old.phase()).as("seed %d", r.seed()).isEqualTo(ReplicaManager.Phase.UP);
            // it may be back before a successor drained: then it simply serves on as the primary
            assertThat(old.primary()).as("seed %d", r.seed()).isEqualTo(r.core().view() == 0);
            assertThat(r.core().view()).as("seed %d", r.seed()).isLessThanOrEqualTo(1);
            assertThat(r.replicas().get(0).data()).as("seed %d", r.seed()).isEqualTo(r.reference());
        }
        assertThat(results).filteredOn(r -> r.core().view() == 1).as("seeds with a view change").isNotEmpty();
    }

    @Test
    @DisplayName("a replica that falls further behind than the shepherd keeps transactions is lost; the others go on")
    void replicaBeyondTheLogIsLost() {
        Scenario s = Scenario.random(List.of(OK, OK, OK.crashAt(10).restartAt(300))).withWorkload(4, 12, 5)
                .withRecovery(new CbsCore.Recovery(50, 400, 3));
        List<Result> results = runAll(s, 50);
        assertThat(results).allMatch(r -> r.core().replicas().get(2).phase() == ReplicaManager.Phase.LOST);
        assertThat(results).allMatch(r -> r.replicas().get(1).data().equals(r.reference()));
    }

    @Test
    @DisplayName("an insufficiently blocking secondary (coarser locks) re-runs transactions locally; none is lost or run twice")
    void insufficientlyBlockingSecondary() {
        List<Result> results = runAll(Scenario.random(List.of(OK, OK, OK.coarseLocks(5))), 100);
        assertThat(results.stream().mapToLong(r -> r.replicas().get(2).rollbacksByDatabase()).sum()).isPositive();
        assertThat(results.stream().mapToLong(r -> r.stats().replicaReruns()).sum()).isPositive();
    }

    @Test
    @DisplayName("a slow secondary does not hold commits back, and catches up to the same state")
    void slowSecondary() {
        List<Result> results = runAll(Scenario.random(List.of(OK, OK, OK.slow(20))), 50);
        assertThat(results).allMatch(r -> r.replicas().get(2).data().equals(r.reference()));
    }

    @Test
    @DisplayName("without the commit-ordering rule, correct secondaries commit non-equivalent orders: caught")
    void commitOrderingRuleIsNeeded() {
        // the primary that ignores locks stays primary (no view change on evidence), as in the paper's argument
        Scenario broken = Scenario.random(List.of(OK.ignoringLocks(), OK, OK)).withRules(OrderingRules.ALL.withoutCommitOrdering())
                .withRecovery(Simulation.Scenario.RECOVERY.withOutvotedMax(0));
        assertThat(firstViolation(broken, 200)).contains("serial order is not equivalent");
    }

    @Test
    @DisplayName("without the query-ordering rule, a transaction's statements run out of order at secondaries: caught")
    void queryOrderingRuleIsNeeded() {
        Scenario broken = Scenario.random(List.of(OK, OK, OK)).withRules(OrderingRules.ALL.withoutQueryOrdering());
        assertThat(firstViolation(broken, 200)).contains("not equivalent");
    }

    @Test
    @DisplayName("without the transaction-ordering rule secondaries deadlock and re-run; with it a correct primary causes none")
    void transactionOrderingRuleAvoidsSecondaryDeadlocks() {
        Scenario correct = Scenario.random(List.of(OK, OK, OK));
        long withRule = runAll(correct, 200).stream().mapToLong(r -> r.stats().replicaReruns()).sum();
        long without = runAll(correct.withRules(OrderingRules.ALL.withoutTransactionOrdering()), 200).stream()
                .mapToLong(r -> r.stats().replicaReruns()).sum();
        assertThat(withRule).isZero();
        assertThat(without).isPositive();
    }

    @Test
    @DisplayName("replicas with as many connections as there are clients: never more transactions open there, none starved")
    void replicasWithFewConnections() {
        int n = 4;
        Scenario few = Scenario.random(List.of(OK.withConnections(n), OK.slow(6).withConnections(n), OK.withConnections(n)))
                .withWorkload(n, 8, 20);
        List<Result> results = runAll(few, 200);
        for (int r = 0; r < 3; r++) {
            int replica = r;
            assertThat(results.stream().mapToInt(x -> x.replicas().get(replica).maxOpenTransactions()).max().orElse(0))
                    .as("r%d used all its connections", r + 1).isEqualTo(n);
        }
        assertThat(results.stream().mapToLong(r -> r.stats().replicaReruns()).sum())
                .as("committed transactions took connections from later ones at a secondary").isPositive();
        assertThat(results).allMatch(r -> r.replicas().get(1).data().equals(r.reference()));
        assertThat(results.stream().mapToLong(r -> r.stats().commits()).sum()).isPositive();
        for (int r = 0; r < 3; r++) {
            List<Faults> faults = new ArrayList<>(List.of(OK, OK.slow(6), OK));
            faults.set(r, faults.get(r).withConnections(-n));
            assertThat(firstViolation(Scenario.random(faults).withWorkload(n, 8, 20), 200))
                    .as("a coordinator that does not know r%d's limit opens too many transactions there", r + 1)
                    .contains("connections are taken");
        }
    }

    @Test
    @DisplayName("CBS runs transactions concurrently on secondaries; ss and serial run one at a time there")
    void modes() {
        Scenario s = Scenario.random(List.of(OK, OK, OK)).withWorkload(6, 6, 40);
        assertThat(runAll(s, 30).stream().mapToInt(r -> r.replicas().get(1).maxOpenTransactions()).max().orElse(0))
                .isGreaterThan(1);
        assertThat(runAll(s.withMode(ExecutionMode.SS), 30)).allMatch(r -> r.replicas().get(1).maxOpenTransactions() == 1
                && r.replicas().get(2).maxOpenTransactions() == 1);
        assertThat(runAll(s.withMode(ExecutionMode.SERIAL), 30)).allMatch(r -> r.replicas().get(0).maxOpenTransactions() == 1
                && r.replicas().get(1).maxOpenTransactions() == 1);
    }

    private static String firstViolation(Scenario s, int count) {
        for (long seed = 0; seed < count; seed++) {
            Result r = Simulation.run(seed, s);
            if (!r.ok()) return r.violation();
        }
        return "no violation in " + count + " seeds";
    }
}
