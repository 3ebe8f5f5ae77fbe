package org.shepherd.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.shepherd.divergence.Divergence;
import org.shepherd.schedule.OrderingRules;
import org.shepherd.sim.SimReplica.Faults;
import org.shepherd.sim.Simulation.Result;
import org.shepherd.sim.Simulation.Scenario;

/**
 * A secondary whose reads take no locks (READ COMMITTED, like PostgreSQL) is correct under CBS only with the commit
 * gate: a statement is sent to it after every transaction ordered before it has committed there. r1 is the primary,
 * r2 the read-committed secondary. {@code -Dsim.seed=N} replays one seed; {@code -Dsim.seeds=FROM:COUNT} runs others.
 */
class ReadCommittedSecondarySimulationTest {

    private static final Faults OK = Faults.NONE;
    private static final int SEEDS = 300;
    private static final Scenario GATED = Scenario.random(List.of(OK, OK.readCommittedNoReadLocks(), OK));

    /** Seeds 0 to 299; {@code -Dsim.seed=N} only N; {@code -Dsim.seeds=FROM:COUNT} COUNT seeds from FROM (exploration). */
    private static long[] seeds() {
        String one = System.getProperty("sim.seed");
        if (one != null && !one.isBlank()) return new long[] {Long.parseLong(one.trim())};
        String range = System.getProperty("sim.seeds");
        long from = 0;
        int count = SEEDS;
        if (range != null && !range.isBlank()) {
            String[] parts = range.trim().split(":", 2);
            from = Long.parseLong(parts[0].trim());
            if (parts.length > 1) count = Integer.parseInt(parts[1].trim());
        }
        long[] out = new long[count];
        for (int s = 0; s < count; s++) out[s] = from + s;
        return out;
    }

    private static List<Divergence> divergencesOf(Result r, String replica) {
        return r.divergences().snapshot().stream().filter(d -> d.replica().equals(replica)).toList();
    }

    @Test
    @DisplayName("300 seeds: a read-committed secondary behind the commit gate keeps every invariant and is never reported")
    void gatedReadCommittedSecondaryIsCorrect() {
        long commits = 0;
        long gatedStatements = 0;
        for (long seed : seeds()) {
            Result r = Simulation.run(seed, GATED);
            assertThat(r.violation()).as("invariant violated; replay with -Dsim.seed=%d", seed).isNull();
            assertThat(divergencesOf(r, "r2")).as("seed %d: the correct read-committed replica was reported", seed).isEmpty();
            assertThat(r.replicas().get(1).data()).as("seed %d", seed).isEqualTo(r.reference());
            commits += r.stats().commits();
            gatedStatements += r.replicas().get(1).history().size();
        }
        assertThat(commits).isPositive();
        assertThat(gatedStatements).isPositive();
    }

    @Test
    @DisplayName("the gate holds even without the transaction-ordering rule")
    void gateDoesNotDependOnTransactionOrdering() {
        Scenario s = GATED.withRules(OrderingRules.ALL.withoutTransactionOrdering());
        for (long seed = 0; seed < 100; seed++) {
            Result r = Simulation.run(seed, s);
            assertThat(r.violation()).as("invariant violated; replay with -Dsim.seed=%d", seed).isNull();
            assertThat(divergencesOf(r, "r2")).as("seed %d", seed).isEmpty();
        }
    }

    @Test
    @DisplayName("with only the paper's gate (queries executed), the read-committed secondary reads stale data: caught")
    void withoutCommitGateTheReplicaGoesWrong() {
        Scenario ungated = Scenario.random(List.of(OK, OK.readCommittedNoReadLocks().withoutCommitGate(), OK));
        String firstViolation = null;
        for (long seed = 0; seed < SEEDS && firstViolation == null; seed++) {
            Result r = Simulation.run(seed, ungated);
            if (!r.ok()) {
                firstViolation = r.violation();
            } else if (!divergencesOf(r, "r2").isEmpty()) {
                firstViolation = "seed " + seed + ": correct replica r2 reported divergent: " + divergencesOf(r, "r2").get(0);
            }
        }
        System.out.println("without the commit gate: " + firstViolation);
        assertThat(firstViolation).as("no invariant violated in %d seeds without the commit gate", SEEDS).isNotNull();
        assertThat(firstViolation).contains("r2");
    }
}
