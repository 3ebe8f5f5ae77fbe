package org.shepherd.sim;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.shepherd.coordinator.cbs.CbsCore;
import org.shepherd.divergence.DivergenceLog;
import org.shepherd.replica.ReplicaManager;
import org.shepherd.schedule.ExecutionMode;
import org.shepherd.schedule.OrderingRules;
import org.shepherd.schedule.Stmt;
import org.shepherd.schedule.Txn;
import org.shepherd.vote.Ballot;

/**
 * One seeded run of the coordinator and its managers against simulated replicas. Every event is followed by an
 * invariant check; the first violation stops the run and is returned with the seed that replays it.
 *
 * <p>Invariants: (1) correct replicas commit equivalent serial orders: every transaction a correct replica commits
 * was committed by the coordinator, exactly once, and the answers of its final attempt equal those of the
 * reference serial execution in barrier order; at the end every live correct replica holds the reference state;
 * (2) no client receives a committed answer not backed by f+1 replicas ready to commit, and every committed answer
 * equals the reference; (3) every transaction ends within {@link Scenario#txnLifetimeBoundMs} and the run within
 * {@link #STEP_BOUND} events.
 */
final class Simulation {

    static final long STEP_BOUND = 2_000_000;

    /** A scripted transaction: its operations and whether the client commits (else rolls back). */
    record Script(List<SimOp> ops, boolean commit) {
    }

    /**
     * What to simulate.
     *
     * @param faults per replica (index 0 is the primary)
     * @param latencies per replica, or null for the default (1-4 ms)
     * @param scripts per client, the transactions it runs in order; null: random workload
     */
    record Scenario(ExecutionMode mode, OrderingRules rules, List<SimReplica.Faults> faults, List<SimReplica.Latency> latencies,
            int clients, int txnsPerClient, int keys, List<List<Script>> scripts, long txnLifetimeBoundMs,
            CbsCore.Recovery recovery) {

        /** Recovery in simulated time: probes every 50 ms at first, at most every 400 ms. */
        static final CbsCore.Recovery RECOVERY = new CbsCore.Recovery(50, 400, 100_000);

        static Scenario random(List<SimReplica.Faults> faults) {
            return new Scenario(ExecutionMode.CBS, OrderingRules.ALL, faults, null, 4, 6, 5, null, 60_000, RECOVERY);
        }

        Scenario withMode(ExecutionMode m) {
            return new Scenario(m, rules, faults, latencies, clients, txnsPerClient, keys, scripts, txnLifetimeBoundMs, recovery);
        }

        Scenario withRules(OrderingRules r) {
            return new Scenario(mode, r, faults, latencies, clients, txnsPerClient, keys, scripts, txnLifetimeBoundMs, recovery);
        }

        Scenario withWorkload(int clientCount, int txns, int keyCount) {
            return new Scenario(mode, rules, faults, latencies, clientCount, txns, keyCount, scripts, txnLifetimeBoundMs, recovery);
        }

        Scenario withRecovery(CbsCore.Recovery r) {
            return new Scenario(mode, rules, faults, latencies, clients, txnsPerClient, keys, scripts, txnLifetimeBoundMs, r);
        }

        static Scenario scripted(List<SimReplica.Faults> faults, List<SimReplica.Latency> latencies, List<List<Script>> scripts) {
            return new Scenario(ExecutionMode.CBS, OrderingRules.ALL, faults, latencies, scripts.size(), 0, 0, scripts, 60_000,
                    RECOVERY);
        }
    }

    /** How one transaction ended for its client. */
    record ClientOutcome(long txId, List<SimOp> ops, List<String> answers, boolean committed, String error) {
    }

    /** The result of a run. */
    record Result(long seed, String violation, List<ClientOutcome> outcomes, CbsCore.Stats stats, DivergenceLog divergences,
            List<SimReplica> replicas, Map<Integer, Long> reference, long steps, long simulatedMs, CbsCore<SimOp> core) {

        boolean ok() {
            return violation == null;
        }
    }

    static final int F = 1;

    private final long seed;
    private final Scenario scenario;
    private final SimScheduler scheduler = new SimScheduler();
    private final List<SimReplica> replicas = new ArrayList<>();
    private final CbsCore<SimOp> core;
    private final DivergenceLog divergences = new DivergenceLog(10_000);
    private final TreeMap<Integer, Long> reference = new TreeMap<>();
    private final Map<Long, List<String>> referenceAnswers = new HashMap<>();
    private final Map<Long, List<SimOp>> referenceOps = new HashMap<>();
    private int clientsDone;
    private final Map<Long, Long> referenceBarrier = new HashMap<>();
    private final Map<Long, Long> openSince = new LinkedHashMap<>();
    private final List<ClientOutcome> outcomes = new ArrayList<>();
    private final Map<SimReplica, Integer> checkedHistory = new HashMap<>();
    private String violation;

    Simulation(long seed, Scenario scenario) {
        this.seed = seed;
        this.scenario = scenario;
        Random master = new Random(seed);
        for (int i = 0; i < scenario.faults().size(); i++) {
            SimReplica.Latency latency = scenario.latencies() == null ? null : scenario.latencies().get(i);
            replicas.add(new SimReplica("r" + (i + 1), scheduler, new Random(master.nextLong()), scenario.faults().get(i), latency,
                    this::checkReplicaCommits));
        }
        CbsCore.Settings settings = new CbsCore.Settings(F, scenario.mode(), scenario.rules(), 5_000, 100, 25)
                .withRecovery(scenario.recovery());
        core = new CbsCore<>(replicas, 0, settings, scheduler, divergences);
        for (int c = 0; c < scenario.clients(); c++) {
            Random rnd = new Random(master.nextLong());
            List<Script> scripts = scenario.scripts() != null ? scenario.scripts().get(c) : randomScripts(rnd);
            int client = c;
            scheduler.schedule(scenario.scripts() != null ? 0 : rnd.nextInt(3), () -> runTxn(client, scripts, 0, rnd));
        }
    }

    static Result run(long seed, Scenario scenario) {
        return new Simulation(seed, scenario).run();
    }

    private List<Script> randomScripts(Random rnd) {
        List<Script> out = new ArrayList<>();
        for (int t = 0; t < scenario.txnsPerClient(); t++) {
            List<SimOp> ops = new ArrayList<>();
            int n = 1 + rnd.nextInt(4);
            for (int i = 0; i < n; i++) {
                int k = rnd.nextInt(scenario.keys());
                int kind = rnd.nextInt(10);
                ops.add(kind < 4 ? SimOp.read(k) : kind < 8 ? SimOp.increment(k) : SimOp.write(k, rnd.nextInt(100)));
            }
            out.add(new Script(ops, rnd.nextInt(20) != 0));
        }
        return out;
    }

    // ---------------------------------------------------------------- clients

    private void runTxn(int client, List<Script> scripts, int n, Random rnd) {
        if (n >= scripts.size()) {
            clientsDone++;
            return;
        }
        Script script = scripts.get(n);
        Txn<SimOp> t = core.begin();
        openSince.put(t.id(), scheduler.now());
        List<String> answers = new ArrayList<>();
        nextOp(client, scripts, n, rnd, t, script, answers, 0);
    }

    private void nextOp(int client, List<Script> scripts, int n, Random rnd, Txn<SimOp> t, Script script, List<String> answers,
            int i) {
        if (i == script.ops().size()) {
            if (!script.commit()) {
                core.rollback(t);
                finish(client, scripts, n, rnd, t, script, answers, false, "rolled back by client");
                return;
            }
            core.commit(t, new CbsCore.CommitCallback() {
                @Override
                public void committed() {
                    checkCommittedAnswers(t, answers);
                    scheduler.execute(() -> finish(client, scripts, n, rnd, t, script, answers, true, null));
                }

                @Override
                public void failed(SQLException e) {
                    scheduler.execute(() -> finish(client, scripts, n, rnd, t, script, answers, false, e.getSQLState() + " "
                            + e.getMessage()));
                }
            });
            return;
        }
        SimOp op = script.ops().get(i);
        core.execute(t, op, op.toString(), new CbsCore.StatementCallback() {
            @Override
            public void answered(Object clientAnswer) {
                answers.add((String) clientAnswer);
                scheduler.schedule(rnd.nextInt(3), () -> nextOp(client, scripts, n, rnd, t, script, answers, i + 1));
            }

            @Override
            public void failed(SQLException e) {
                scheduler.execute(() -> {
                    core.rollback(t);
                    finish(client, scripts, n, rnd, t, script, answers, false, e.getSQLState() + " " + e.getMessage());
                });
            }
        });
    }

    private void finish(int client, List<Script> scripts, int n, Random rnd, Txn<SimOp> t, Script script, List<String> answers,
            boolean committed, String error) {
        openSince.remove(t.id());
        outcomes.add(new ClientOutcome(t.id(), script.ops(), List.copyOf(answers), committed, error));
        scheduler.schedule(rnd.nextInt(4), () -> runTxn(client, scripts, n + 1, rnd));
    }

    // ---------------------------------------------------------------- invariants

    private boolean correct(SimReplica r) {
        return !r.faults().byzantine();
    }

    private void violate(String what) {
        if (violation == null) violation = what;
    }

    /** Runs at the commit decision, which the core makes in barrier order: extends the reference serial execution. */
    private void checkCommittedAnswers(Txn<SimOp> t, List<String> answers) {
        List<String> expected = new ArrayList<>();
        for (Stmt<SimOp> q : t.stmts()) {
            SimOp op = q.payload();
            long current = reference.getOrDefault(op.key(), 0L);
            switch (op.kind()) {
                case READ:
                    expected.add("v=" + current);
                    break;
                case WRITE:
                    reference.put(op.key(), op.value());
                    expected.add("count=1");
                    break;
                default:
                    reference.put(op.key(), current + 1);
                    expected.add("v=" + (current + 1));
            }
        }
        referenceAnswers.put(t.id(), expected);
        List<SimOp> tops = new ArrayList<>();
        for (Stmt<SimOp> q : t.stmts()) tops.add(q.payload());
        referenceOps.put(t.id(), tops);
        referenceBarrier.put(t.id(), t.barrier());
        if (!answers.equals(expected)) {
            violate("client received committed answers " + answers + " for T" + t.id() + " " + ops(t) + " but the serial order"
                    + " (barrier " + t.barrier() + ") gives " + expected);
        }
        for (Stmt<SimOp> q : t.stmts()) {
            Ballot given = q.vote(t.primary());
            int backers = 0;
            for (int r = 0; r < replicas.size(); r++) {
                if (core.readyToCommit(r, t) && given.agreesWith(q.vote(r))) backers++;
            }
            if (backers < F + 1) {
                violate("T" + t.id() + " committed with answer " + given + " to " + q.text() + " backed by " + backers
                        + " ready replicas, fewer than f+1 = " + (F + 1));
            }
        }
    }

    private static String ops(Txn<SimOp> t) {
        List<String> s = new ArrayList<>();
        for (Stmt<SimOp> q : t.stmts()) s.add(q.text());
        return s.toString();
    }

    /** Runs whenever a replica commits: its final answers must be the reference's. */
    private void checkReplicaCommits(SimReplica r) {
        if (!r.anomalies().isEmpty()) violate(r.name() + ": " + r.anomalies());
        if (!correct(r)) return;
        List<SimReplica.CommitRecord> h = r.history();
        int from = checkedHistory.getOrDefault(r, 0);
        for (int i = from; i < h.size(); i++) {
            SimReplica.CommitRecord c = h.get(i);
            List<String> expected = referenceAnswers.get(c.txId());
            if (expected != null && !c.ops().equals(referenceOps.get(c.txId()))) {
                // replayed while catching up: the reads were skipped, the rest are the transaction's own operations
                List<SimOp> all = referenceOps.get(c.txId());
                List<String> writes = new ArrayList<>();
                List<SimOp> writeOps = new ArrayList<>();
                for (int k = 0; k < all.size(); k++) {
                    if (all.get(k).kind() == SimOp.Kind.READ) continue;
                    writeOps.add(all.get(k));
                    writes.add(expected.get(k));
                }
                if (writeOps.equals(c.ops())) expected = writes; // else the answers differ: reported below
            }
            if (expected == null) {
                violate(r.name() + " committed T" + c.txId() + " which the coordinator did not commit");
            } else if (!expected.equals(c.answers())) {
                violate("correct replica " + r.name() + " committed T" + c.txId() + " (barrier " + c.barrier() + ") with answers "
                        + c.answers() + " but the serial order in barrier order gives " + expected
                        + ": its serial order is not equivalent");
            }
        }
        checkedHistory.put(r, h.size());
    }

    private void checkStep() {
        long now = scheduler.now();
        for (Map.Entry<Long, Long> e : openSince.entrySet()) {
            if (now - e.getValue() > scenario.txnLifetimeBoundMs()) {
                violate("T" + e.getKey() + " did not end within " + scenario.txnLifetimeBoundMs() + " simulated ms (liveness)");
                return;
            }
        }
    }

    private void checkEnd() {
        if (!openSince.isEmpty()) violate("transactions never ended: " + openSince.keySet());
        if (!core.idle()) violate("the coordinator still has live transactions at the end: " + core.liveTransactions());
        for (SimReplica r : replicas) {
            if (!correct(r) || r.crashed()) continue;
            boolean down = core.replicas().stream().anyMatch(m -> m.name().equals(r.name()) && m.down());
            if (down) continue;
            if (!r.data().equals(reference)) {
                violate("correct replica " + r.name() + " ends with " + r.data() + " but the serial execution gives " + reference);
            }
            if (r.history().size() != referenceAnswers.size()) {
                violate("correct replica " + r.name() + " committed " + r.history().size() + " transactions, the coordinator "
                        + referenceAnswers.size());
            }
        }
    }

    /** Clients are done, the core is idle, and no replica that will come back is still on its way. */
    private boolean settled() {
        if (clientsDone < scenario.clients() || !core.idle()) return false;
        for (int i = 0; i < replicas.size(); i++) {
            ReplicaManager.Phase phase = core.replicas().get(i).phase();
            boolean returns = replicas.get(i).faults().restartAtMs() >= 0;
            if (phase == ReplicaManager.Phase.RECOVERING) return false;
            if (returns && (phase == ReplicaManager.Phase.DOWN || scheduler.now() < replicas.get(i).faults().restartAtMs())) {
                return false;
            }
        }
        return true;
    }

    Result run() {
        while (violation == null && !settled() && scheduler.step()) {
            checkStep();
            if (scheduler.steps() > STEP_BOUND) violate("more than " + STEP_BOUND + " events (liveness)");
        }
        if (violation == null) checkEnd();
        String v = violation == null ? null : "seed " + seed + ": " + violation + " (replay: -Dsim.seed=" + seed + ")";
        return new Result(seed, v, outcomes, core.stats(), divergences, replicas, reference, scheduler.steps(), scheduler.now(),
                core);
    }
}
