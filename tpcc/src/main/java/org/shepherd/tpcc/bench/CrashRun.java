package org.shepherd.tpcc.bench;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.shepherd.jdbc.ShepherdConnection;
import org.shepherd.tpcc.Jdbc;
import org.shepherd.tpcc.RunResult;

/**
 * The crash scenario's side of one cbs run (the paper's Figure 9): during the measured window it SIGKILLs one
 * replica's database server, starts it again later on the same data and port, and five times a second reads every
 * replica's role, state and last committed barrier from the shepherd ({@code shepherd.status}). When the crashed
 * replica is the primary, the shepherd's view change shows as another replica's role becoming primary.
 */
final class CrashRun implements RunHooks {

    /** The clients' progress interval during a crash run: the table matches each sample with the nearest one. */
    static final long SAMPLE_INTERVAL_MS = 1_000;
    /** How often the shepherd's status is sampled: a replica may catch up within a second. */
    static final long STATUS_INTERVAL_MS = 200;
    private static final long STOP_TIMEOUT_MS = 30_000;
    private static final double CLIENT_SAMPLE_MATCH_S = 0.75;

    /** What to crash and when, in seconds into the measured window. */
    record Plan(String replica, double crashAtS, double crashForS) {

        /** Usage errors (IllegalArgumentException) for what the shepherd or the run cannot do. */
        static Plan of(String replica, double crashAtS, double crashForS, double durationS, List<String> replicas) {
            if (crashAtS < 0) throw new IllegalArgumentException("--crash-at must not be negative");
            if (crashForS < 0) throw new IllegalArgumentException("--crash-for must not be negative");
            if (crashAtS >= durationS) {
                throw new IllegalArgumentException("--crash-at must fall inside the measured window (--duration "
                    + durationS + " s)");
            }
            if (!replicas.contains(replica)) {
                throw new IllegalArgumentException("--crash-replica must be one of " + replicas + ", was '" + replica + "'");
            }
            return new Plan(replica, crashAtS, crashForS);
        }
    }

    /**
     * {@code state} is "up", "down", "recovering" or "lost"; what the shepherd says after the colon is kept apart.
     * {@code primary}: the shepherd named it the primary.
     */
    record ReplicaState(String state, String downReason, long lastCommittedBarrier, long lagBarriers, boolean primary) {

        /** From the shepherd's state column: "up", or "down: " and the reason. */
        static ReplicaState parse(String stateColumn, long lastCommittedBarrier, long lagBarriers, boolean primary) {
            int colon = stateColumn.indexOf(':');
            String state = colon < 0 ? stateColumn.trim() : stateColumn.substring(0, colon).trim();
            String reason = colon < 0 ? null : stateColumn.substring(colon + 1).trim();
            return new ReplicaState(state, reason, lastCommittedBarrier, lagBarriers, primary);
        }
    }

    /** The shepherd's answer at {@code atS} seconds into the measured window, or why it gave none. */
    record Sample(double atS, Map<String, ReplicaState> replicas, String error) {

        /** The replica the shepherd named primary, or null. */
        String primary() {
            for (var e : replicas.entrySet()) {
                if (e.getValue().primary()) return e.getKey();
            }
            return null;
        }
    }

    /**
     * A view change seen in the samples: the primary before the crash, the first sample after it that names another
     * primary, and that sample's time.
     */
    record ViewChange(String before, String after, double atS) {

        /** The first change of primary after a crash at {@code crashedAtS}, or null (no crash, or the primary stayed). */
        static ViewChange of(List<Sample> samples, Double crashedAtS) {
            if (crashedAtS == null) return null;
            String before = null;
            for (Sample s : samples) {
                String p = s.primary();
                if (p == null) continue;
                if (s.atS() < crashedAtS) {
                    before = p;
                } else if (before != null && !p.equals(before)) {
                    return new ViewChange(before, p, s.atS());
                }
            }
            return null;
        }
    }

    private final Plan plan;
    private final PrintStream log;
    private final List<Sample> samples = Collections.synchronizedList(new ArrayList<>());
    private volatile long startNanos;
    private volatile Double crashedAtS;
    private volatile Double restartedAtS;
    private volatile String restartNote = "not restarted: the measured window ended before --crash-at + --crash-for";
    private volatile String failure;
    private ScheduledThreadPoolExecutor scheduler;
    private Connection status;

    CrashRun(Plan plan, PrintStream log) {
        this.plan = plan;
        this.log = log;
    }

    Plan plan() {
        return plan;
    }

    @Override
    public double progressIntervalS(double durationS) {
        return SAMPLE_INTERVAL_MS / 1000.0;
    }

    /** Schedules the crash, the restart and the sampling. */
    @Override
    public void measureStarted(List<BenchDatabase> servers, ShepherdProcess process, Jdbc shepherd) {
        startNanos = System.nanoTime();
        BenchDatabase victim = servers.stream().filter(s -> s.name().equals(plan.replica())).findFirst()
            .orElseThrow(() -> new IllegalStateException("no replica " + plan.replica() + " in this run"));
        scheduler = new ScheduledThreadPoolExecutor(2, r -> {
            Thread t = new Thread(r, "bench-crash");
            t.setDaemon(true);
            return t;
        });
        scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        try {
            status = shepherd.connect();
        } catch (SQLException e) {
            failure = "cannot connect to the shepherd for shepherd.status: " + e.getMessage();
            log.println("bench: " + failure);
        }
        scheduler.scheduleAtFixedRate(this::sample, 0, STATUS_INTERVAL_MS, TimeUnit.MILLISECONDS);
        scheduler.schedule(() -> crash(victim), millis(plan.crashAtS()), TimeUnit.MILLISECONDS);
        scheduler.schedule(() -> restart(victim), millis(plan.crashAtS() + plan.crashForS()), TimeUnit.MILLISECONDS);
    }

    /** Stops the schedule, takes one last sample and closes the connection. */
    @Override
    public void measureEnded() {
        if (scheduler == null) return;
        scheduler.shutdown();
        try {
            if (!scheduler.awaitTermination(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) scheduler.shutdownNow();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            scheduler.shutdownNow();
        }
        sample();
        Jdbc.closeQuietly(status);
    }

    private static long millis(double seconds) {
        return Math.round(seconds * 1000);
    }

    private double elapsedS() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private void crash(BenchDatabase victim) {
        try {
            victim.kill();
            crashedAtS = elapsedS();
            log.printf(Locale.ROOT, "   [%5.1fs] crashed %s (SIGKILL to its %s server)%n", crashedAtS, plan.replica(),
                victim.dialect());
        } catch (RuntimeException e) {
            failure = "could not crash " + plan.replica() + ": " + e.getMessage();
            log.println("bench: " + failure);
        }
    }

    private void restart(BenchDatabase victim) {
        if (crashedAtS == null) {
            restartNote = "not restarted: it was never crashed";
            return;
        }
        try {
            victim.restart();
            restartedAtS = elapsedS();
            restartNote = "its server was started again on the same data and port";
            log.printf(Locale.ROOT, "   [%5.1fs] restarted %s's server on the same data and port%n", restartedAtS,
                plan.replica());
        } catch (Exception e) {
            restartNote = "not restarted: the server did not start again: " + e.getMessage();
            log.println("bench: " + restartNote);
        }
    }

    private void sample() {
        double at = elapsedS();
        if (status == null) {
            samples.add(new Sample(at, Map.of(), failure));
            return;
        }
        try {
            samples.add(new Sample(at, readStatus(status), null));
        } catch (SQLException e) {
            samples.add(new Sample(at, Map.of(), "shepherd.status failed: " + e.getMessage()));
        }
    }

    /** Every replica's state as the shepherd on {@code shepherd} says ({@code shepherd.status}), by name. */
    static Map<String, ReplicaState> readStatus(Connection shepherd) throws SQLException {
        try (ResultSet rs = shepherd.unwrap(ShepherdConnection.class).adminStatus()) {
            Map<String, ReplicaState> replicas = new TreeMap<>();
            while (rs.next()) {
                replicas.put(rs.getString("replica"), ReplicaState.parse(rs.getString("state"),
                    rs.getLong("last_committed_barrier"), rs.getLong("lag_barriers"), "primary".equals(rs.getString("role"))));
            }
            return replicas;
        }
    }

    List<Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    Double crashedAtS() {
        return crashedAtS;
    }

    Double restartedAtS() {
        return restartedAtS;
    }

    String restartNote() {
        return restartNote;
    }

    String failure() {
        return failure;
    }

    List<String> replicaNames() {
        TreeSet<String> names = new TreeSet<>();
        for (Sample s : samples()) names.addAll(s.replicas().keySet());
        return List.copyOf(names);
    }

    /** The crashed replica in the last sample (taken after the run), or null when the shepherd never answered. */
    ReplicaState finalStateOfCrashed() {
        List<Sample> all = samples();
        for (int i = all.size() - 1; i >= 0; i--) {
            ReplicaState r = all.get(i).replicas().get(plan.replica());
            if (r != null) return r;
        }
        return null;
    }

    /** Whether the shepherd saw the crashed replica up again at the end. */
    String comeBackNote() {
        ReplicaState last = finalStateOfCrashed();
        if (last == null) return "the shepherd never reported " + plan.replica() + "'s state";
        if ("up".equals(last.state())) return plan.replica() + " is up in the shepherd at the end of the run";
        return plan.replica() + " is still " + last.state() + " in the shepherd at the end of the run"
            + (last.downReason() != null ? " (" + last.downReason() + ")" : "");
    }

    /** The first change of primary after the crash, or null when the primary stayed (or no crash happened). */
    ViewChange viewChange() {
        return ViewChange.of(samples(), crashedAtS);
    }

    /** The catch-up rate against the normal rate, from the samples. */
    CatchUp catchUp() {
        return CatchUp.of(samples(), plan.replica(), crashedAtS, restartedAtS);
    }

    /** The client's committed transactions per second in the interval that ended nearest {@code atS}, if one did. */
    static Double clientTps(RunResult result, double warmupS, double atS) {
        RunResult.ProgressSample best = null;
        for (RunResult.ProgressSample p : result.progress()) {
            double measured = p.elapsedS() - warmupS;
            if (Math.abs(measured - atS) <= CLIENT_SAMPLE_MATCH_S
                && (best == null || Math.abs(measured - atS) < Math.abs(best.elapsedS() - warmupS - atS))) {
                best = p;
            }
        }
        return best == null ? null : best.intervalTps();
    }

    /** The JSON document: settings, the plan and what happened, the timeline, the client's totals, the catch-up rate. */
    Map<String, Object> toJson(Map<String, Object> settings, RunResult result, double warmupS) {
        Map<String, Object> root = new LinkedHashMap<>(settings);
        root.put("scenario", "crash");
        root.put("config", BenchConfig.CBS.label());
        root.put("crash_replica", plan.replica());
        root.put("crash_at_s", plan.crashAtS());
        root.put("crash_for_s", plan.crashForS());
        root.put("crashed_at_s", round2(crashedAtS));
        root.put("restarted_at_s", round2(restartedAtS));
        root.put("restart", restartNote);
        ReplicaState last = finalStateOfCrashed();
        root.put("crashed_replica_final_state", last == null ? null : last.state());
        root.put("crashed_replica_back", last != null && "up".equals(last.state()));
        ViewChange vc = viewChange();
        if (vc != null) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("primary_before", vc.before());
            view.put("primary_after", vc.after());
            view.put("seen_at_s", round2(vc.atS()));
            view.put("seconds_after_crash", round2(vc.atS() - crashedAtS));
            root.put("view_change", view);
        }
        if (failure != null) root.put("failure", failure);
        Map<String, Object> client = new LinkedHashMap<>();
        client.put("throughput_tps", result.tps());
        client.put("transactions", result.transactions());
        client.put("errors", result.errors());
        client.put("retries", result.retries());
        root.put("client", client);
        List<Map<String, Object>> timeline = new ArrayList<>();
        for (Sample s : samples()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("t_s", round1(s.atS()));
            row.put("client_tps", clientTps(result, warmupS, s.atS()));
            Map<String, Object> replicas = new LinkedHashMap<>();
            s.replicas().forEach((name, r) -> {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("state", r.state());
                one.put("role", r.primary() ? "primary" : "secondary");
                if (r.downReason() != null) one.put("down_reason", r.downReason());
                one.put("last_committed_barrier", r.lastCommittedBarrier());
                one.put("lag_barriers", r.lagBarriers());
                replicas.put(name, one);
            });
            row.put("replicas", replicas);
            if (s.error() != null) row.put("error", s.error());
            timeline.add(row);
        }
        root.put("timeline", timeline);
        CatchUp c = catchUp();
        root.put("normal_tps", c.normalTps());
        root.put("catch_up_tps", c.catchUpTps());
        root.put("catch_up_rate", c.ratio());
        root.put("catch_up_rate_is_lower_bound", c.lowerBound());
        root.put("caught_up_at_s", c.caughtUpAtS());
        root.put("catch_up", c.note());
        return root;
    }

    /**
     * The timeline as a plain-text table: seconds, client tx/s, then each replica's last committed barrier and state,
     * the primary's marked with a star.
     */
    String table(RunResult result, double warmupS) {
        List<String> names = replicaNames();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%7s %11s", "t (s)", "client tx/s"));
        for (String n : names) sb.append(String.format(Locale.ROOT, " %16s", n + " barrier/state"));
        sb.append('\n');
        for (Sample s : samples()) {
            Double tps = clientTps(result, warmupS, s.atS());
            sb.append(String.format(Locale.ROOT, "%7.1f %11s", s.atS(), tps == null ? "-" : String.format(Locale.ROOT, "%.1f", tps)));
            for (String n : names) {
                ReplicaState r = s.replicas().get(n);
                sb.append(String.format(Locale.ROOT, " %16s", r == null ? "-"
                    : r.lastCommittedBarrier() + " " + r.state() + (r.primary() ? "*" : "")));
            }
            if (s.error() != null) sb.append("  ").append(s.error());
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Each replica's last committed barrier over time, for {@link SvgChart#renderTimeline}. */
    Map<String, List<double[]>> barrierSeries() {
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (String n : replicaNames()) series.put(n, new ArrayList<>());
        for (Sample s : samples()) {
            s.replicas().forEach((name, r) -> series.get(name).add(new double[] {s.atS(), r.lastCommittedBarrier()}));
        }
        return series;
    }

    /** Vertical marks for the chart: when the replica was crashed and restarted. */
    Map<String, Double> marks() {
        Map<String, Double> marks = new LinkedHashMap<>();
        if (crashedAtS != null) marks.put("crash " + plan.replica(), crashedAtS);
        if (restartedAtS != null) marks.put("restart " + plan.replica(), restartedAtS);
        ViewChange vc = viewChange();
        if (vc != null) marks.put(vc.after() + " primary", vc.atS());
        return marks;
    }

    private static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }

    /** {@code v} rounded to two decimals; null stays null. */
    static Double round2(Double v) {
        return v == null ? null : Math.round(v * 100) / 100.0;
    }
}
