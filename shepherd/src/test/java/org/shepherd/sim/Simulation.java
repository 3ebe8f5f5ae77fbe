package org.shepherd.sim;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.shepherd.coordinator.cbs.CbsCore;
import org.shepherd.divergence.DivergenceLog;
import org.shepherd.recovery.RestartPlan;
import org.shepherd.replica.ReplicaManager;
import org.shepherd.schedule.ExecutionMode;
import org.shepherd.schedule.OrderingRules;
import org.shepherd.schedule.Stmt;
import org.shepherd.schedule.Txn;
import org.shepherd.vote.Ballot;
import org.shepherd.wal.CommitLog;

/**
 * One seeded run of the coordinator and its managers against simulated replicas. Every event is followed by an
 * invariant check; the first violation stops the run and is returned with the seed that replays it.
 *
 * <p>Invariants: (1) correct replicas commit equivalent serial orders: every transaction a correct replica commits
 * was committed by the coordinator (and made durable), exactly once, at its barrier, and the answers of its final attempt
 * equal those of the reference serial execution; at the end every live correct replica holds the reference state and
 * committed exactly the reference's transactions; (2) at each commit decision every answer the client received is backed
 * by f+1 replicas ready to commit, and when the client is acknowledged its answers equal the reference's; (3) every
 * transaction ends within {@link Scenario#txnLifetimeBoundMs} and the run within {@link #STEP_BOUND} events.
 *
 * <p>The reference serial execution is extended when a transaction becomes durable: with a write-ahead log
 * ({@link SimCommitLog}) when its force covers the transaction, for a transaction that wrote nothing (or without a log) at
 * its decision. Durability order is a serial order: a transaction that wrote nothing and was acknowledged before an
 * earlier writer became durable cannot have read that writer's data (strict 2PL held it back until the writer committed,
 * which comes after durability).
 *
 * <p>The shepherd may crash ({@link Shepherd}): its core is abandoned (nothing of it runs any more), every replica loses its
 * connections, clients in a transaction get an error, and after a while a new core starts on the same replicas and log from
 * a {@link RestartPlan}. (4) At each restart, every durable transaction that wrote is held by every replica that is not
 * lost, or by the log for replay ("commit lost" otherwise), and a replica is declared lost only if it lacks such a
 * transaction the log no longer holds. A transaction decided but not durable at the crash is committed nowhere.
 */
final class Simulation {

    static final long STEP_BOUND = 2_000_000;

    /** A scripted transaction: its operations and whether the client commits (else rolls back). */
    record Script(List<SimOp> ops, boolean commit) {
    }

    /**
     * The shepherd's write-ahead log.
     *
     * @param forceDelayMinMs a force runs this..{@code forceDelayMaxMs} simulated ms after the append that asked for it
     * @param failsAtMs the log fails at this time (-1: never); a restarted shepherd opens it again
     * @param fault how the log misbehaves
     */
    record Log(int forceDelayMinMs, int forceDelayMaxMs, long failsAtMs, SimCommitLog.Fault fault) {
    }

    /**
     * When the shepherd crashes.
     *
     * @param atMs it crashes this long after the start (or after its previous restart) plus a seeded random part up to
     *     {@code windowMs}
     * @param times how many times it crashes (0: never)
     * @param restartAfterMs a new shepherd process starts this long after a crash
     * @param atDurable crash right after the n-th record became durable instead (0: by time); {@code beforeAck}: before the
     *     core hears of it, else right after it acknowledged it (its COMMITs still on their way)
     */
    record Crash(long atMs, int windowMs, int times, long restartAfterMs, int atDurable, boolean beforeAck) {
        static final Crash NEVER = new Crash(-1, 0, 0, 0, 0, false);
    }

    /**
     * The shepherd process.
     *
     * @param log its write-ahead log, null for none ({@link CommitLog#none()}: a commit is durable at its decision)
     */
    record Shepherd(Log log, Crash crash) {


        /** No log, no crash. */
        static final Shepherd NO_LOG = new Shepherd(null, Crash.NEVER);

        /** A log whose forces take 0..{@code forceDelayMaxMs}. */
        static Shepherd withLog(int forceDelayMaxMs) {
            return withLog(0, forceDelayMaxMs);
        }

        /** A log whose forces take {@code minMs}..{@code maxMs}. */
        static Shepherd withLog(int minMs, int maxMs) {
            return new Shepherd(new Log(minMs, maxMs, -1, SimCommitLog.Fault.NONE), Crash.NEVER);
        }

        /** Crashes {@code times} times, each {@code atMs} + 0..{@code windowMs} after the start or the previous restart. */
        Shepherd crashing(long atMs, int windowMs, int times, long restartAfter) {
            return new Shepherd(log, new Crash(atMs, windowMs, times, restartAfter, 0, false));
        }

        /** Crashes once, right after the n-th record became durable. */
        Shepherd crashingAtDurable(int n, boolean beforeTheAck, long restartAfter) {
            return new Shepherd(log, new Crash(-1, 0, 1, restartAfter, n, beforeTheAck));
        }

        Shepherd logFailingAt(long ms) {
            return new Shepherd(new Log(log.forceDelayMinMs(), log.forceDelayMaxMs(), ms, log.fault()), crash);
        }

        Shepherd withLogFault(SimCommitLog.Fault f) {
            return new Shepherd(new Log(log.forceDelayMinMs(), log.forceDelayMaxMs(), log.failsAtMs(), f), crash);
        }
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
            CbsCore.Recovery recovery, Shepherd shepherd) {

        /** Recovery in simulated time: probes every 50 ms at first, at most every 400 ms. */
        /** Replicas' transaction logs are truncated every few barriers, so that restarts count across truncations. */
        static final CbsCore.Recovery RECOVERY = new CbsCore.Recovery(50, 400, 100_000).withTxlogTruncateBarriers(4);

        static Scenario random(List<SimReplica.Faults> faults) {
            return new Scenario(ExecutionMode.CBS, OrderingRules.ALL, faults, null, 4, 6, 5, null, 60_000, RECOVERY, Shepherd.NO_LOG);
        }

        Scenario withMode(ExecutionMode m) {
            return new Scenario(m, rules, faults, latencies, clients, txnsPerClient, keys, scripts, txnLifetimeBoundMs, recovery,
                    shepherd);
        }

        Scenario withRules(OrderingRules r) {
            return new Scenario(mode, r, faults, latencies, clients, txnsPerClient, keys, scripts, txnLifetimeBoundMs, recovery,
                    shepherd);
        }

        Scenario withWorkload(int clientCount, int txns, int keyCount) {
            return new Scenario(mode, rules, faults, latencies, clientCount, txns, keyCount, scripts, txnLifetimeBoundMs, recovery,
                    shepherd);
        }

        Scenario withRecovery(CbsCore.Recovery r) {
            return new Scenario(mode, rules, faults, latencies, clients, txnsPerClient, keys, scripts, txnLifetimeBoundMs, r,
                    shepherd);
        }

        Scenario withFaults(List<SimReplica.Faults> f) {
            return new Scenario(mode, rules, f, latencies, clients, txnsPerClient, keys, scripts, txnLifetimeBoundMs, recovery,
                    shepherd);
        }

        Scenario withLatencies(List<SimReplica.Latency> l) {
            return new Scenario(mode, rules, faults, l, clients, txnsPerClient, keys, scripts, txnLifetimeBoundMs, recovery,
                    shepherd);
        }

        Scenario withShepherd(Shepherd s) {
            return new Scenario(mode, rules, faults, latencies, clients, txnsPerClient, keys, scripts, txnLifetimeBoundMs, recovery,
                    s);
        }

        static Scenario scripted(List<SimReplica.Faults> faults, List<SimReplica.Latency> latencies, List<List<Script>> scripts) {
            return new Scenario(ExecutionMode.CBS, OrderingRules.ALL, faults, latencies, scripts.size(), 0, 0, scripts, 60_000,
                    RECOVERY, Shepherd.NO_LOG);
        }
    }

    /** How one transaction ended for its client, and when. */
    record ClientOutcome(long txId, List<SimOp> ops, List<String> answers, boolean committed, String error, long endedAtMs) {
    }

    /**
     * What the shepherd's crashes hit.
     *
     * @param durableInDoubt transactions durable at a crash whose client was not told yet (it got an error: in doubt)
     * @param decidedNotDurable transactions decided but not durable at a crash (lost: committed nowhere)
     * @param replayedAfterRestart transactions replayed on replicas by the cores started after a crash
     */
    record Crashes(int durableInDoubt, int decidedNotDurable, long replayedAfterRestart) {
    }

    /**
     * The result of a run.
     *
     * @param core the last shepherd process's core
     * @param restarts the plan of each restart of the shepherd, in order
     * @param log the write-ahead log, null without one
     */
    record Result(long seed, String violation, List<ClientOutcome> outcomes, CbsCore.Stats stats, DivergenceLog divergences,
            List<SimReplica> replicas, Map<Integer, Long> reference, long steps, long simulatedMs, CbsCore<SimOp> core,
            List<RestartPlan.Plan> restarts, SimCommitLog log, Crashes crashes) {

        boolean ok() {
            return violation == null;
        }
    }

    static final int F = 1;

    /** A client: runs its scripts in order, one transaction at a time. */
    private static final class Client {
        final List<Script> scripts;
        final Random rnd;
        int next;

        Client(List<Script> scripts, Random rnd) {
            this.scripts = scripts;
            this.rnd = rnd;
        }
    }

    /** One transaction of a client, against one shepherd process's core. */
    private static final class ClientTxn {
        final Client client;
        final CbsCore<SimOp> core;
        final Txn<SimOp> t;
        final Script script;
        final List<String> answers = new ArrayList<>();
        /** The core told the client how it ended (its end is on its way to the client). */
        boolean outcomeKnown;
        boolean commitAsked;
        boolean ended;

        ClientTxn(Client client, CbsCore<SimOp> core, Txn<SimOp> t, Script script) {
            this.client = client;
            this.core = core;
            this.t = t;
            this.script = script;
        }
    }

    private final long seed;
    private final Scenario scenario;
    private final SimScheduler scheduler = new SimScheduler();
    private final List<SimReplica> replicas = new ArrayList<>();
    private final SimCommitLog log;
    private final Random shepherdRnd;
    private FencedScheduler process;
    private CbsCore<SimOp> core;
    private final List<CbsCore<SimOp>> crashedCores = new ArrayList<>();
    private boolean shepherdDown;
    /** Restarted, but its primary replays the log first: like production, clients are served once it serves. */
    private boolean awaitingPrimary;
    private int crashesDone;
    private int durableInDoubt;
    private int decidedNotDurable;
    private boolean crashDue;
    private final List<RestartPlan.Plan> restarts = new ArrayList<>();
    private final List<Client> waitingForRestart = new ArrayList<>();
    private final DivergenceLog divergences = new DivergenceLog(10_000);
    private final TreeMap<Integer, Long> reference = new TreeMap<>();
    private final TreeMap<Long, List<String>> referenceAnswers = new TreeMap<>();
    private final Map<Long, List<SimOp>> referenceOps = new TreeMap<>();
    private final Map<Long, Long> referenceBarrier = new TreeMap<>();
    /** Reference transactions whose client was told they committed. */
    private final Set<Long> acknowledged = new LinkedHashSet<>();
    /** Transactions the core appended to the log (so their acknowledgement is not their decision). */
    private final Set<Txn<SimOp>> appended = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Decided, never durable: lost with a crash. */
    private final Set<Long> notDurableAtCrash = new TreeSet<>();
    /** Decided, never durable: the log failed. */
    private final Set<Long> failedInLog = new LinkedHashSet<>();
    /** Replicas unreachable at a restart that lacked what nobody can replay: they must not serve again. */
    private final Map<String, String> mustBeLostWhenBack = new LinkedHashMap<>();
    /** Those transactions by barrier: a record that reached the disk though its force failed is committed at a restart. */
    private final TreeMap<Long, Txn<SimOp>> failedInLogTxns = new TreeMap<>();
    private int clientsDone;
    private final Map<ClientTxn, Long> openSince = new LinkedHashMap<>();
    private final List<ClientOutcome> outcomes = new ArrayList<>();
    private final Map<SimReplica, Integer> checkedHistory = new LinkedHashMap<>();
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
        Log spec = scenario.shepherd().log();
        shepherdRnd = new Random(~seed);
        log = spec == null ? null : new SimCommitLog(scheduler, new Random(shepherdRnd.nextLong()), spec.forceDelayMinMs(),
                spec.forceDelayMaxMs(), 1 + shepherdRnd.nextInt(4), spec.fault(), new LogListener());
        startCore(0);
        for (int i = 0; i < scenario.faults().size(); i++) {
            SimReplica.Faults f = scenario.faults().get(i);
            int index = i;
            if (f.restoredAtMs() >= 0) scheduler.schedule(f.restoredAtMs(), () -> restoreReplica(index, f.restoredFrom()));
        }
        if (log != null) {
            log.started();
            if (spec.failsAtMs() >= 0) scheduler.schedule(spec.failsAtMs(), log::fail);
        }
        scheduleCrash(0);
        for (int c = 0; c < scenario.clients(); c++) {
            Random rnd = new Random(master.nextLong());
            Client client = new Client(scenario.scripts() != null ? scenario.scripts().get(c) : randomScripts(rnd), rnd);
            scheduler.schedule(scenario.scripts() != null ? 0 : rnd.nextInt(3), () -> runTxn(client));
        }
    }

    static Result run(long seed, Scenario scenario) {
        return new Simulation(seed, scenario).run();
    }

    private void startCore(int primary) {
        CbsCore.Settings settings = new CbsCore.Settings(F, scenario.mode(), scenario.rules(), 5_000, 100, 25)
                .withRecovery(scenario.recovery());
        process = new FencedScheduler(scheduler);
        core = new CbsCore<>(replicas, primary, settings, process, divergences, log != null ? log : CommitLog.none());
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

    private void runTxn(Client client) {
        if (client.next >= client.scripts.size()) {
            clientsDone++;
            return;
        }
        if (shepherdDown || awaitingPrimary) {
            waitingForRestart.add(client); // starts once the shepherd serves again
            return;
        }
        ClientTxn x = new ClientTxn(client, core, core.begin(), client.scripts.get(client.next));
        openSince.put(x, scheduler.now());
        nextOp(x, 0);
    }

    private void nextOp(ClientTxn x, int i) {
        if (x.ended) return; // the shepherd crashed meanwhile
        Txn<SimOp> t = x.t;
        if (i == x.script.ops().size()) {
            if (!x.script.commit()) {
                x.core.rollback(t);
                finish(x, false, "rolled back by client");
                return;
            }
            x.commitAsked = true;
            x.core.commit(t, new CbsCore.CommitCallback() {
                @Override
                public void committed() {
                    x.outcomeKnown = true;
                    acknowledgedCommit(x);
                    scheduler.execute(() -> finish(x, true, null));
                }

                @Override
                public void failed(SQLException e) {
                    x.outcomeKnown = true;
                    scheduler.execute(() -> finish(x, false, e.getSQLState() + " " + e.getMessage()));
                }
            });
            return;
        }
        SimOp op = x.script.ops().get(i);
        x.core.execute(t, op, op.toString(), new CbsCore.StatementCallback() {
            @Override
            public void answered(Object clientAnswer) {
                x.answers.add((String) clientAnswer);
                scheduler.schedule(x.client.rnd.nextInt(3), () -> nextOp(x, i + 1));
            }

            @Override
            public void failed(SQLException e) {
                x.outcomeKnown = true;
                scheduler.execute(() -> {
                    if (x.core == core && !shepherdDown) x.core.rollback(t);
                    finish(x, false, e.getSQLState() + " " + e.getMessage());
                });
            }
        });
    }

    private void finish(ClientTxn x, boolean committed, String error) {
        if (x.ended) return;
        x.ended = true;
        trace("T" + x.t.id() + " " + x.script.ops() + " " + x.answers + (committed ? " committed" : " ended: " + error));
        openSince.remove(x);
        outcomes.add(new ClientOutcome(x.t.id(), x.script.ops(), List.copyOf(x.answers), committed, error, scheduler.now()));
        x.client.next++;
        scheduler.schedule(x.client.rnd.nextInt(4), () -> runTxn(x.client));
    }

    // ---------------------------------------------------------------- the shepherd process: log, crash, restart

    /** What the log tells the simulation. */
    private final class LogListener implements SimCommitLog.Listener {
        @Override
        public void decided(Txn<SimOp> t) {
            trace("T" + t.id() + " decided at barrier " + t.barrier() + ", appended to the log");
            appended.add(t);
            checkBacking(t);
        }

        @Override
        public void durable(Txn<SimOp> t) {
            trace("T" + t.id() + " durable");
            extendReference(t);
            Crash c = scenario.shepherd().crash();
            if (c.atDurable() > 0 && crashesDone == 0 && log.durableRecords() == c.atDurable()) crashDue = true;
        }

        @Override
        public void forced() {
            if (!crashDue || !scenario.shepherd().crash().beforeAck()) return;
            crashDue = false;
            crashShepherd();
        }

        @Override
        public void reported() {
            if (!crashDue) return;
            crashDue = false;
            scheduler.execute(Simulation.this::crashShepherd); // after the core's events for these callbacks: acknowledged
        }

        @Override
        public void failed(Txn<SimOp> t) {
            failedInLog.add(t.id());
            failedInLogTxns.put(t.barrier(), t);
        }
    }

    private void scheduleCrash(long sinceMs) {
        Crash c = scenario.shepherd().crash();
        if (crashesDone >= c.times() || c.atMs() < 0) return;
        long at = sinceMs + c.atMs() + shepherdRnd.nextInt(c.windowMs() + 1);
        scheduler.schedule(at - scheduler.now(), this::crashShepherd);
    }

    /** Whether the scenario still has a crash (and restart) to come. */
    private boolean crashPending() {
        return shepherdDown || awaitingPrimary || crashesDone < scenario.shepherd().crash().times();
    }

    private void crashShepherd() {
        if (shepherdDown) return;
        shepherdDown = true;
        crashesDone++;
        trace("the shepherd crashes");
        process.fence();
        crashedCores.add(core);
        if (log != null) {
            for (Txn<SimOp> t : log.crash()) {
                notDurableAtCrash.add(t.id());
                decidedNotDurable++;
            }
        }
        for (SimReplica r : replicas) r.shepherdCrashed();
        for (ClientTxn x : new ArrayList<>(openSince.keySet())) {
            if (x.outcomeKnown) continue;
            Long durableAt = referenceBarrier.get(x.t.id());
            if (x.t.committed() && durableAt != null && durableAt == x.t.barrier()) durableInDoubt++;
            finish(x, false, "shepherd crashed" + (x.commitAsked ? ": its commit is in doubt" : ""));
        }
        scheduler.schedule(scenario.shepherd().crash().restartAfterMs(), this::restartShepherd);
    }

    private void restartShepherd() {
        RestartPlan.LogState state = log != null ? log.state() : new RestartPlan.LogState(false, -1, new long[0], -1);
        // like the production start-up: a replica that does not answer starts down, to be checked and caught up later
        long[] lastBarriers = new long[replicas.size()];
        for (int i = 0; i < replicas.size(); i++) {
            lastBarriers[i] = replicas.get(i).crashed() ? -1 : replicas.get(i).replicaLog(-1).lastBarrier();
        }
        long floor = RestartPlan.floorToRead(state, lastBarriers);
        List<RestartPlan.ReplicaLog> logs = new ArrayList<>();
        for (SimReplica r : replicas) {
            logs.add(r.crashed() ? RestartPlan.ReplicaLog.unreachable(r.name(), r.canBePrimary(), r.name() + " crashed")
                    : r.replicaLog(floor));
        }
        RestartPlan.Plan plan;
        try {
            plan = RestartPlan.plan(state, logs, 0, scenario.recovery().viewChange());
        } catch (RestartPlan.NoPrimaryException e) {
            violate("the shepherd cannot restart: " + e.getMessage());
            return;
        }
        restarts.add(plan);
        trace("the shepherd restarts: " + plan);
        checkRestartPlan(plan);
        if (log != null && !state.history() && floor >= 0) log.recordFloor(floor);
        if (scenario.recovery().txlogTruncateBarriers() > 0 && floor >= 0) {
            for (int i = 0; i < replicas.size(); i++) {
                if (plan.replicas().get(i).holdsFloor()) replicas.get(i).truncateTxlogThrough(floor);
            }
        }
        // their clients were told the outcome is unknown (08007): what the disk kept is committed now, in barrier order
        for (Txn<SimOp> t : failedInLogTxns.values()) {
            if (log != null && log.holds(t.barrier())) extendReference(t);
        }
        failedInLogTxns.clear();
        List<Txn<SimOp>> logged = log != null ? log.logged(replicas.size()) : List.of();
        // as the production log at open: the newest replica.recovery.log.max in memory, the older read back when needed
        int keep = scenario.recovery().logTransactionsMax();
        long onDiskThrough = logged.size() > keep ? logged.get(logged.size() - keep - 1).barrier() : -1;
        if (logged.size() > keep) logged = List.copyOf(logged.subList(logged.size() - keep, logged.size()));
        startCore(plan.primary());
        core.resume(plan.lastTxId(), plan.nextBarrier(), logged, onDiskThrough, plan.replicas());
        if (log != null) log.started();
        shepherdDown = false;
        scheduleCrash(scheduler.now());
        awaitingPrimary = true;
        servingOnceThePrimaryIs(process);
    }

    /** Like the production start-up, clients are served once the primary serves (it may replay the log first). */
    private void servingOnceThePrimaryIs(FencedScheduler of) {
        if (of != process) return;
        if (core.replicas().get(core.primaryIndex()).phase() != ReplicaManager.Phase.UP) {
            scheduler.schedule(1, () -> servingOnceThePrimaryIs(of));
            return;
        }
        awaitingPrimary = false;
        for (Client c : waitingForRestart) scheduler.execute(() -> runTxn(c));
        waitingForRestart.clear();
    }

    // ---------------------------------------------------------------- invariants

    /** With {@code -Dsim.trace=true}: what clients, the log and the shepherd do, to follow a failing seed. */
    private static final boolean TRACE = Boolean.getBoolean("sim.trace");

    private void trace(String what) {
        if (TRACE) System.out.println(scheduler.now() + " ms: " + what);
    }

    private boolean correct(SimReplica r) {
        return !r.faults().byzantine();
    }

    private void violate(String what) {
        if (violation == null) violation = what;
    }

    private static boolean wrote(List<SimOp> ops) {
        return ops.stream().anyMatch(op -> op.kind() != SimOp.Kind.READ);
    }

    /** The client was told T committed: at its decision (durable at once) or once the log made it durable. */
    private void acknowledgedCommit(ClientTxn x) {
        Txn<SimOp> t = x.t;
        boolean decidedNow = !appended.contains(t);
        if (decidedNow) {
            extendReference(t);
        } else if (!referenceBarrier.containsKey(t.id()) || referenceBarrier.get(t.id()) != t.barrier()) {
            violate("T" + t.id() + " " + ops(t) + " was acknowledged to its client before it was durable");
            return;
        }
        acknowledged.add(t.id());
        List<String> expected = referenceAnswers.get(t.id());
        if (!x.answers.equals(expected)) {
            violate("client received committed answers " + x.answers + " for T" + t.id() + " " + ops(t) + " but the serial order"
                    + " (barrier " + t.barrier() + ") gives " + expected);
        }
        if (decidedNow) checkBacking(t);
    }

    /** At the commit decision: every answer the client got is backed by f+1 replicas ready to commit T. */
    private void checkBacking(Txn<SimOp> t) {
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

    /** T is durable: the reference serial execution runs it next. */
    private void extendReference(Txn<SimOp> t) {
        List<String> expected = new ArrayList<>();
        List<SimOp> tops = new ArrayList<>();
        for (Stmt<SimOp> q : t.stmts()) {
            SimOp op = q.payload();
            tops.add(op);
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
        // a transaction id of a crashed core that no replica committed and no log kept may be used again
        acknowledged.remove(t.id());
        notDurableAtCrash.remove(t.id());
        failedInLog.remove(t.id());
        referenceAnswers.put(t.id(), expected);
        referenceOps.put(t.id(), tops);
        referenceBarrier.put(t.id(), t.barrier());
    }

    private static String ops(Txn<SimOp> t) {
        List<String> s = new ArrayList<>();
        for (Stmt<SimOp> q : t.stmts()) s.add(q.text());
        return s.toString();
    }

    /**
     * The operator restores replica {@code i} in three steps: asks the shepherd to keep the log for it (taking it out of
     * service first when it is not lost, {@link CbsCore#restore}); {@link #RESTORE_COPY_MS} later replaces its database
     * with a consistent copy of replica {@code from}'s (-1: leaves it as it is) and tells the shepherd
     * ({@link CbsCore#restoreCopied}).
     */
    private void restoreReplica(int i, int from) {
        SimReplica r = replicas.get(i);
        if (shepherdDown) {
            r.restoreOutcome = "the shepherd is down";
            return;
        }
        trace("the operator starts restoring " + r.name());
        // a replica that is not lost is taken out of service first
        core.restore(r.name(), true, e -> {
            r.restoreOutcome = e == null ? "waiting for its copy" : e.getMessage();
            if (e == null) scheduler.schedule(RESTORE_COPY_MS, () -> installCopy(i, from));
        });
    }

    /** Time between the operator's first and last restore step, while the copy is taken and installed. */
    static final long RESTORE_COPY_MS = 10;

    private void installCopy(int i, int from) {
        SimReplica r = replicas.get(i);
        if (shepherdDown || !core.replicas().get(i).awaitingCopy()) {
            r.restoreOutcome = "no longer waiting for its copy"; // an operator does not overwrite a replica in service
            return;
        }
        if (from >= 0) {
            r.restoreFrom(replicas.get(from));
            checkedHistory.put(r, r.history().size()); // checked on the source
        }
        trace("the operator installs on " + r.name() + (from >= 0 ? " a copy of " + replicas.get(from).name() : " nothing"));
        core.restoreCopied(r.name(), e -> r.restoreOutcome = e == null ? "probing" : e.getMessage());
    }

    /** Runs whenever a replica commits: its final answers must be the reference's. */
    private void checkReplicaCommits(SimReplica r) {
        if (!r.anomalies().isEmpty()) violate(r.name() + ": " + r.anomalies());
        List<SimReplica.CommitRecord> h = r.history();
        int from = checkedHistory.getOrDefault(r, 0);
        for (int i = from; i < h.size(); i++) {
            SimReplica.CommitRecord c = h.get(i);
            trace(r.name() + " committed " + c);
            List<String> expected = referenceAnswers.get(c.txId());
            if (expected == null) {
                violate(r.name() + " committed T" + c.txId() + " which the coordinator did not commit" + whyNotCommitted(c.txId()));
                continue;
            }
            // a transaction that wrote nothing commits without a log row (barrier -1); one that wrote, with its barrier
            long expectedLogBarrier = wrote(referenceOps.get(c.txId())) ? referenceBarrier.get(c.txId()) : -1;
            if (expectedLogBarrier != c.barrier()) {
                violate(r.name() + " committed T" + c.txId() + " with log barrier " + c.barrier() + ", the coordinator at "
                        + expectedLogBarrier);
            }
            if (!correct(r)) continue;
            if (!c.ops().equals(referenceOps.get(c.txId()))) {
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
            if (!expected.equals(c.answers())) {
                violate("correct replica " + r.name() + " committed T" + c.txId() + " (barrier " + c.barrier() + ") with answers "
                        + c.answers() + " but the serial order in barrier order gives " + expected
                        + ": its serial order is not equivalent");
            }
        }
        checkedHistory.put(r, h.size());
    }

    private String whyNotCommitted(long txId) {
        if (notDurableAtCrash.contains(txId)) return " (decided, but not durable when the shepherd crashed)";
        if (failedInLog.contains(txId)) return " (decided, but the write-ahead log failed to make it durable)";
        return "";
    }

    private String lostCommit(long txId) {
        return (acknowledged.contains(txId) ? "acknowledged commit lost: T" + txId + " (acknowledged to its client"
                : "durable commit lost: T" + txId + " (durable, never acknowledged") + ", barrier " + referenceBarrier.get(txId)
                + ", " + referenceOps.get(txId) + ")";
    }

    /**
     * At a restart: every durable transaction that wrote is at every replica that is not lost, or in the log for replay;
     * a replica is lost only if it lacks such a transaction the log no longer holds.
     */
    private void checkRestartPlan(RestartPlan.Plan plan) {
        for (int i = 0; i < replicas.size(); i++) {
            SimReplica r = replicas.get(i);
            RestartPlan.ReplicaStart start = plan.replicas().get(i);
            String unrecoverable = null;
            for (Map.Entry<Long, List<SimOp>> e : referenceOps.entrySet()) {
                long txId = e.getKey();
                if (!wrote(e.getValue()) || r.holds(txId)) continue;
                long b = referenceBarrier.get(txId);
                if (log != null && log.holds(b)) {
                    if (start.start() == RestartPlan.Start.UP) {
                        violate("restart plan: " + r.name() + " serves at once but lacks T" + txId + " (barrier " + b
                                + ") which the log holds");
                    }
                } else if (log != null && log.keeps(b) && start.start() != RestartPlan.Start.UNREACHABLE) {
                    violate(lostCommit(txId) + " at the shepherd's restart: " + r.name() + " (" + start.start() + ") lacks it,"
                            + " and the write-ahead log still holds its record but at or below the log's floor " + log.floor()
                            + ", so it is not replayed");
                } else if (unrecoverable == null) {
                    unrecoverable = lostCommit(txId);
                }
            }
            if (start.start() == RestartPlan.Start.UNREACHABLE) {
                // not read at start: checked when it answers; one that lacks what nobody can replay must be found lost then
                if (unrecoverable != null) mustBeLostWhenBack.put(r.name(), unrecoverable);
            } else if (start.start() == RestartPlan.Start.LOST) {
                if (unrecoverable == null) {
                    violate("restart plan: " + r.name() + " is declared lost (" + start.reason() + ") but it lacks no committed"
                            + " transaction that wrote and that the write-ahead log cannot replay");
                }
            } else if (unrecoverable != null) {
                violate(unrecoverable + " at the shepherd's restart: " + r.name() + " (" + start.start()
                        + ") never committed it and the write-ahead log does not hold it");
            }
        }
    }

    private void checkStep() {
        long now = scheduler.now();
        for (Map.Entry<ClientTxn, Long> e : openSince.entrySet()) {
            if (now - e.getValue() > scenario.txnLifetimeBoundMs()) {
                violate("T" + e.getKey().t.id() + " did not end within " + scenario.txnLifetimeBoundMs()
                        + " simulated ms (liveness)");
                return;
            }
        }
    }

    private void checkEnd() {
        if (!openSince.isEmpty()) {
            violate("transactions never ended: " + openSince.keySet().stream().map(x -> x.t.id()).toList());
        }
        if (!core.idle()) violate("the coordinator still has live transactions at the end: " + core.liveTransactions());
        for (SimReplica r : replicas) {
            if (!correct(r) || r.crashed()) continue;
            boolean down = core.replicas().stream().anyMatch(m -> m.name().equals(r.name()) && m.down());
            if (!down && mustBeLostWhenBack.containsKey(r.name())) {
                violate(r.name() + " serves again after it was unreachable at a restart, though it lacked what nobody can"
                        + " replay: " + mustBeLostWhenBack.get(r.name()));
            }
            if (down) continue;
            for (long txId : referenceAnswers.keySet()) {
                // one that wrote nothing changes nothing and leaves no log row: its commit there proves nothing
                if (!wrote(referenceOps.get(txId))) continue;
                if (!r.holds(txId)) {
                    violate(lostCommit(txId) + ": correct replica " + r.name() + " never committed it");
                }
            }
            if (!r.data().equals(reference)) {
                violate("correct replica " + r.name() + " ends with " + r.data() + " but the serial execution gives " + reference);
            }
        }
    }

    /** Clients are done, the shepherd is up for good, the core is idle, and no replica that will come back is on its way. */
    private boolean settled() {
        if (clientsDone < scenario.clients() || crashPending() || !core.idle()) return false;
        for (int i = 0; i < replicas.size(); i++) {
            ReplicaManager.Phase phase = core.replicas().get(i).phase();
            boolean returns = replicas.get(i).faults().restartAtMs() >= 0;
            if (phase == ReplicaManager.Phase.RECOVERING) return false;
            if (returns && (phase == ReplicaManager.Phase.DOWN || scheduler.now() < replicas.get(i).faults().restartAtMs())) {
                return false;
            }
            // after a restart, a replica that must replay first is probed at once and comes back
            if (!restarts.isEmpty() && phase == ReplicaManager.Phase.DOWN && !replicas.get(i).crashed()) return false;
        }
        return true;
    }

    private Crashes crashes() {
        long replayed = 0;
        List<CbsCore<SimOp>> restarted = new ArrayList<>(crashedCores.subList(Math.min(1, crashedCores.size()), crashedCores.size()));
        if (!crashedCores.isEmpty()) restarted.add(core);
        for (CbsCore<SimOp> c : restarted) {
            for (ReplicaManager<SimOp> m : c.replicas()) replayed += m.replayed();
        }
        return new Crashes(durableInDoubt, decidedNotDurable, replayed);
    }

    private CbsCore.Stats stats() {
        long commits = 0;
        long aborts = 0;
        long voteAborts = 0;
        long reruns = 0;
        List<CbsCore<SimOp>> all = new ArrayList<>(crashedCores);
        all.add(core);
        for (CbsCore<SimOp> c : all) {
            CbsCore.Stats s = c.stats();
            commits += s.commits();
            aborts += s.aborts();
            voteAborts += s.voteAborts();
            reruns += s.replicaReruns();
        }
        CbsCore.Stats now = core.stats(); // latencies of the running core only: they restart with it
        return new CbsCore.Stats(commits, aborts, voteAborts, reruns, now.live(), now.commitWait(), now.commitLatency());
    }

    Result run() {
        while (violation == null && !settled() && scheduler.step()) {
            checkStep();
            if (scheduler.steps() > STEP_BOUND) violate("more than " + STEP_BOUND + " events (liveness)");
        }
        if (violation == null && crashPending()) violate("the run ended before the shepherd crashed and restarted");
        if (violation == null) checkEnd();
        String v = violation == null ? null : "seed " + seed + ": " + violation + " (replay: -Dsim.seed=" + seed + ")";
        return new Result(seed, v, outcomes, stats(), divergences, replicas, reference, scheduler.steps(), scheduler.now(), core,
                List.copyOf(restarts), log, crashes());
    }
}
