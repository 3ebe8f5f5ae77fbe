package org.shepherd.tpcc.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.shepherd.tpcc.Checker;
import org.shepherd.tpcc.Digest;
import org.shepherd.tpcc.Jdbc;
import org.shepherd.tpcc.NewOrderLedger;
import org.shepherd.tpcc.RunResult;
import org.shepherd.tpcc.Runner;
import org.shepherd.tpcc.Scale;

/**
 * The shepherd-crash scenario's side of one cbs run: during the measured window it SIGKILLs the shepherd process and
 * starts it again on the same configuration, port and data directory, so that it replays its write-ahead log, while
 * the clients reconnect. Once the clients stopped it reads every replica's database server directly: every New-Order
 * whose COMMIT returned must be there, the TPC-C consistency conditions must hold, and the replicas' digests must be
 * equal.
 *
 * <p>Secondaries keep up closely on an idle machine, so a shepherd killed at a random moment rarely owes any replica a
 * commit, and the log would not be put to the test. So the last replica (a secondary) is paused with SIGSTOP for the
 * last {@code lagForS} seconds before the kill and resumed right after it: the others commit without it (f+1 suffice),
 * and at the kill it lacks every transaction acknowledged meanwhile, which only the log still holds.
 */
final class ShepherdCrashRun implements RunHooks, Runner.Recorder {

    /** How long a client tries to reconnect: the restarted shepherd listens only once it has replayed what it must. */
    static final double RECONNECT_S = 60;
    /** Resolution of the clients' timeline. */
    static final long BUCKET_MS = 100;
    private static final long SYNC_TIMEOUT_MS = 120_000;
    private static final long SYNC_POLL_MS = 200;
    private static final long FAULTS_JOIN_TIMEOUT_MS = 300_000;
    private static final Pattern REPLAY_PLANNED =
        Pattern.compile("replica (\\S+): it lacks (\\d+) committed transactions? of an earlier run");
    private static final Pattern CAUGHT_UP =
        Pattern.compile("replica (\\S+) caught up at barrier (\\d+) \\((\\d+) transactions replayed since start\\)");
    private static final Pattern LEFT_OUT = Pattern.compile("replica (\\S+) is left out: (.*)");

    /**
     * When to kill the shepherd and for how long, in seconds into the measured window, and how long before the kill the
     * lagging secondary is paused (0: not at all).
     */
    record Plan(double crashAtS, double crashForS, double lagForS) {

        /** Usage errors (IllegalArgumentException) for times the run cannot honour. */
        static Plan of(double crashAtS, double crashForS, double lagForS, double durationS) {
            if (crashAtS < 0) throw new IllegalArgumentException("--crash-at must not be negative");
            if (crashForS < 0) throw new IllegalArgumentException("--crash-for must not be negative");
            if (lagForS < 0 || lagForS > crashAtS) {
                throw new IllegalArgumentException("--lag-for must be between 0 and --crash-at (" + crashAtS + " s)");
            }
            if (crashAtS + crashForS >= durationS) {
                throw new IllegalArgumentException("--crash-at + --crash-for must fall inside the measured window (--duration "
                    + durationS + " s), so that the clients see the shepherd come back");
            }
            return new Plan(crashAtS, crashForS, lagForS);
        }
    }

    /**
     * What one replica's database holds, read directly after the run: the ledger's orders, the consistency conditions that
     * failed (condition 11 is not checked) and the table digests; {@code error} when it could not be read.
     */
    record ReplicaCheck(String replica, NewOrderLedger.Audit orders, List<Checker.Condition> failedConditions,
                        List<Digest.TableDigest> digest, String error) {
    }

    /**
     * What the restarted shepherd's log says: per replica the logged transactions it lacked at the restart, the
     * transactions it had replayed when it caught up (more than it lacked when others committed meanwhile), and the
     * replicas left out, with the reason.
     */
    record Replay(Map<String, Long> lacked, Map<String, Long> replayed, Map<String, String> leftOut) {

        static Replay parse(String log) {
            Map<String, Long> lacked = new TreeMap<>();
            Map<String, Long> replayed = new TreeMap<>();
            Map<String, String> leftOut = new TreeMap<>();
            for (String line : log.split("\n")) {
                Matcher m = REPLAY_PLANNED.matcher(line);
                if (m.find()) lacked.put(m.group(1), Long.parseLong(m.group(2)));
                m = CAUGHT_UP.matcher(line);
                if (m.find()) replayed.put(m.group(1), Long.parseLong(m.group(3)));
                m = LEFT_OUT.matcher(line);
                if (m.find()) leftOut.put(m.group(1), m.group(2).strip());
            }
            return new Replay(lacked, replayed, leftOut);
        }

        /**
         * "r1 0, r2 0, r3 50 (caught up after 62)" over {@code replicas}: what each lacked at the restart and, when that
         * differs or it never caught up, how many it had replayed when it did.
         */
        String summary(List<String> replicas) {
            StringBuilder sb = new StringBuilder();
            for (String r : replicas) {
                sb.append(sb.length() == 0 ? "" : ", ").append(r).append(' ');
                if (leftOut.containsKey(r)) {
                    sb.append("left out");
                } else if (!lacked.containsKey(r)) {
                    sb.append('0');
                } else {
                    sb.append(lacked.get(r));
                    Long done = replayed.get(r);
                    if (done == null) {
                        sb.append(" (not caught up)");
                    } else if (!done.equals(lacked.get(r))) {
                        sb.append(" (caught up after ").append(done).append(", new commits included)");
                    }
                }
            }
            return sb.toString();
        }
    }

    private final Plan plan;
    private final List<String> replicas;
    private final String lagging;
    private final Scale scale;
    private final double durationS;
    private final PrintStream log;
    private final Path keptLog;
    private final NewOrderLedger ledger = new NewOrderLedger();
    private final AtomicLongArray completions;
    private final AtomicLongArray losses;
    private final AtomicLong firstLossNanos = new AtomicLong();
    private final AtomicLong lastLossNanos = new AtomicLong();
    private final AtomicLong firstCompletionAfterRestartNanos = new AtomicLong();
    private volatile boolean started;
    private volatile long originNanos;
    private volatile Long pausedNanos;
    private volatile Long resumedNanos;
    private volatile Long killedNanos;
    private volatile Long launchedNanos;
    private volatile Long readyNanos;
    private volatile long logOffset;
    private volatile String failure;
    private Thread faults;
    private boolean synced;
    private String syncNote = "not checked";
    private Replay replay = new Replay(Map.of(), Map.of(), Map.of());
    private final List<ReplicaCheck> checks = new ArrayList<>();

    /**
     * {@code replicas}: the run's replicas by name, the primary first; the last is the one paused. {@code keptLog}: where
     * the shepherd's output (both runs) is copied before the run's directory is deleted.
     */
    ShepherdCrashRun(Plan plan, List<String> replicas, Scale scale, double durationS, PrintStream log, Path keptLog) {
        this.plan = plan;
        this.replicas = List.copyOf(replicas);
        this.lagging = replicas.get(replicas.size() - 1);
        this.scale = scale;
        this.durationS = durationS;
        this.log = log;
        this.keptLog = keptLog;
        int buckets = (int) Math.ceil(durationS * 1000 / BUCKET_MS) + 1;
        this.completions = new AtomicLongArray(buckets);
        this.losses = new AtomicLongArray(buckets);
    }

    /** The replica paused before the kill (when --lag-for is above 0). */
    String lagging() {
        return lagging;
    }

    @Override
    public double reconnectS() {
        return RECONNECT_S;
    }

    @Override
    public Runner.Recorder recorder() {
        return this;
    }

    // ---------------------------------------------------------------- what the clients saw

    @Override
    public void newOrderCommitted(Runner.PlacedOrder order) {
        ledger.newOrderCommitted(order);
    }

    @Override
    public void newOrderInDoubt(Runner.PlacedOrder order) {
        ledger.newOrderInDoubt(order);
    }

    @Override
    public void completed(long nanos) {
        count(completions, nanos);
        Long launched = launchedNanos;
        if (launched != null && nanos - launched > 0) earliest(firstCompletionAfterRestartNanos, nanos);
    }

    @Override
    public void connectionLost(long nanos) {
        count(losses, nanos);
        earliest(firstLossNanos, nanos);
        lastLossNanos.accumulateAndGet(nanos, (a, b) -> a == 0 || b - a > 0 ? b : a);
    }

    /** Keeps the earlier of two System.nanoTime() values; 0 stands for none yet. */
    private static void earliest(AtomicLong holder, long nanos) {
        holder.accumulateAndGet(nanos, (a, b) -> a == 0 || b - a < 0 ? b : a);
    }

    private void count(AtomicLongArray buckets, long nanos) {
        if (!started) return;
        long ms = TimeUnit.NANOSECONDS.toMillis(nanos - originNanos);
        if (ms >= 0 && ms / BUCKET_MS < buckets.length()) buckets.incrementAndGet((int) (ms / BUCKET_MS));
    }

    // ---------------------------------------------------------------- the crash

    /** Starts the thread that kills the shepherd at --crash-at and starts it again --crash-for seconds later. */
    @Override
    public void measureStarted(List<BenchDatabase> servers, ShepherdProcess shepherd, Jdbc target) {
        originNanos = System.nanoTime();
        started = true;
        BenchDatabase paused = servers.stream().filter(s -> s.name().equals(lagging)).findFirst()
            .orElseThrow(() -> new IllegalStateException("no replica " + lagging + " in this run"));
        faults = new Thread(() -> crashAndRestart(shepherd, paused), "bench-shepherd-crash");
        faults.setDaemon(true);
        faults.start();
    }

    private void crashAndRestart(ShepherdProcess shepherd, BenchDatabase paused) {
        try {
            if (plan.lagForS() > 0) {
                sleepUntil(originNanos + seconds(plan.crashAtS() - plan.lagForS()));
                paused.pause();
                pausedNanos = System.nanoTime();
                log.printf(Locale.ROOT, "   [%5.1fs] paused %s (SIGSTOP to its server)%n", atS(pausedNanos), paused.name());
            }
            sleepUntil(originNanos + seconds(plan.crashAtS()));
            long pid = shepherd.pid();
            killedNanos = System.nanoTime();
            try {
                shepherd.kill();
            } finally {
                if (pausedNanos != null) {
                    paused.resume();
                    resumedNanos = System.nanoTime();
                }
            }
            log.printf(Locale.ROOT, "   [%5.1fs] SIGKILL to the shepherd (pid %d)%s%n", atS(killedNanos), pid,
                pausedNanos == null ? "" : ", then resumed " + paused.name());
            sleepUntil(killedNanos + seconds(plan.crashForS()));
            logOffset = Files.size(shepherd.logFile());
            launchedNanos = System.nanoTime();
            shepherd.restart();
            readyNanos = System.nanoTime();
            log.printf(Locale.ROOT, "   [%5.1fs] the shepherd, started again at %.1fs on the same configuration and data,"
                + " listens (pid %d)%n", atS(readyNanos), atS(launchedNanos), shepherd.pid());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted before the shepherd was killed and started again";
            if (pausedNanos != null && resumedNanos == null) paused.resume();
        } catch (IOException | RuntimeException e) {
            failure = (launchedNanos == null ? "could not kill the shepherd: " : "the shepherd did not start again: ")
                + e.getMessage();
            log.println("bench: " + failure);
        }
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long waitNanos = nanos - System.nanoTime();
        if (waitNanos > 0) TimeUnit.NANOSECONDS.sleep(waitNanos);
    }

    private static long seconds(double s) {
        return (long) (s * 1e9);
    }

    /** Seconds into the measured window. */
    private double atS(long nanos) {
        return (nanos - originNanos) / 1e9;
    }

    private Double atS(Long nanos) {
        return nanos == null ? null : atS((long) nanos);
    }

    private Double atS(AtomicLong nanos) {
        return nanos.get() == 0 ? null : atS(nanos.get());
    }

    /** Waits for the crash thread: the restart may still be under way when the last client stops. */
    @Override
    public void measureEnded() {
        if (faults == null) return;
        try {
            faults.join(FAULTS_JOIN_TIMEOUT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (faults.isAlive() && failure == null) {
            failure = "the shepherd's restart did not end within " + FAULTS_JOIN_TIMEOUT_MS + " ms";
        }
    }

    // ---------------------------------------------------------------- the checks

    /**
     * Waits until every replica committed the same transactions, reads what the restarted shepherd logged about its replay,
     * stops it cleanly, then checks every replica's database directly.
     */
    @Override
    public void afterRun(List<BenchDatabase> servers, ShepherdProcess shepherd, Jdbc target) throws Exception {
        awaitReplicasInStep(target);
        if (launchedNanos != null) replay = Replay.parse(logSince(shepherd.logFile(), logOffset));
        shepherd.close();
        Path parent = keptLog.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        Files.copy(shepherd.logFile(), keptLog, StandardCopyOption.REPLACE_EXISTING);
        for (BenchDatabase server : servers) {
            log.println("   checking " + server.name() + " directly");
            checks.add(check(server));
        }
    }

    /**
     * Waits until the shepherd on {@code shepherd} says every replica is up at the same barrier, or one is lost (it will
     * not come back). One connection polls; it is opened again only when it fails.
     */
    private void awaitReplicasInStep(Jdbc shepherd) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SYNC_TIMEOUT_MS);
        String last = "the shepherd did not answer";
        Connection c = null;
        try {
            while (System.nanoTime() < deadline) {
                try {
                    if (c == null) c = shepherd.connect();
                    Map<String, CrashRun.ReplicaState> states = CrashRun.readStatus(c);
                    StringBuilder sb = new StringBuilder();
                    states.forEach((name, r) -> sb.append(sb.length() == 0 ? "" : ", ").append(name).append(' ')
                        .append(r.state()).append(" at barrier ").append(r.lastCommittedBarrier()));
                    last = sb.toString();
                    boolean allUp = states.values().stream().allMatch(s -> "up".equals(s.state()) && s.lagBarriers() == 0);
                    // lag 0 everywhere does not prove one barrier: the shepherd clamps lag_barriers at 0 and reads its
                    // own barrier apart from the replicas'
                    long distinctBarriers = states.values().stream().mapToLong(CrashRun.ReplicaState::lastCommittedBarrier)
                        .distinct().count();
                    if (allUp && distinctBarriers == 1) {
                        synced = true;
                        syncNote = "every replica up at barrier " + states.values().iterator().next().lastCommittedBarrier();
                        return;
                    }
                    if (states.values().stream().anyMatch(s -> "lost".equals(s.state()))) {
                        syncNote = "not in step: " + last;
                        return;
                    }
                } catch (SQLException e) {
                    last = "the shepherd did not answer: " + e.getMessage();
                    Jdbc.closeQuietly(c);
                    c = null;
                }
                Thread.sleep(SYNC_POLL_MS);
            }
        } finally {
            Jdbc.closeQuietly(c);
        }
        syncNote = "the replicas were not in step within " + SYNC_TIMEOUT_MS + " ms: " + last;
        log.println("bench: " + syncNote);
    }

    private static String logSince(Path file, long offset) throws IOException {
        byte[] all = Files.readAllBytes(file);
        int from = (int) Math.min(offset, all.length);
        return new String(all, from, all.length - from, StandardCharsets.UTF_8);
    }

    private ReplicaCheck check(BenchDatabase server) {
        try (Connection c = server.jdbc().connect()) {
            NewOrderLedger.Audit orders = ledger.audit(c);
            List<Checker.Condition> failed = new Checker(c, scale).checkAll(false).stream()
                .filter(x -> x.status() == Checker.Status.FAIL).toList();
            return new ReplicaCheck(server.name(), orders, failed, Digest.ofTables(c), null);
        } catch (SQLException e) {
            return new ReplicaCheck(server.name(), null, List.of(), List.of(), e.getMessage() + " (SQLState " + e.getSQLState()
                + ")");
        }
    }

    // ---------------------------------------------------------------- the verdict

    /** The checks of the replicas that could be read. */
    private static List<ReplicaCheck> read(List<ReplicaCheck> checks) {
        return checks.stream().filter(c -> c.error() == null).toList();
    }

    /** Whether the replicas that could be read have equal digests (false when none could). */
    boolean digestsEqual() {
        return !read(checks).isEmpty() && digestDifferences(checks).isEmpty();
    }

    /** Why the run failed, or an empty list when it passed. */
    List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (failure != null) problems.add(failure);
        if (killedNanos == null) problems.add("the shepherd was never killed");
        if (readyNanos == null) problems.add("the shepherd did not serve again");
        if (ledger.acknowledgedCount() == 0) problems.add("no New-Order was acknowledged: nothing to check");
        replay.leftOut().forEach((r, why) -> problems.add("the restarted shepherd left " + r + " out: " + why));
        for (ReplicaCheck c : checks) {
            if (c.error() != null) {
                problems.add(c.replica() + " could not be read: " + c.error());
                continue;
            }
            if (c.orders().lost() > 0) {
                problems.add(c.replica() + " lacks " + c.orders().lost() + " acknowledged New-Order(s), e.g. "
                    + String.join("; ", c.orders().lostExamples()));
            }
            for (Checker.Condition x : c.failedConditions()) {
                problems.add(c.replica() + " fails consistency condition " + x.number() + ": " + x.detail());
            }
        }
        if (checks.isEmpty()) problems.add("no replica was checked");
        List<String> differences = digestDifferences(checks);
        if (!differences.isEmpty()) problems.add("the replicas' digests differ: " + String.join("; ", differences));
        return problems;
    }

    /**
     * "r3 differs from r1 in [ORDERS]" for every replica read whose digest is not the first read replica's; a replica that
     * could not be read is left out (its read error is reported apart).
     */
    static List<String> digestDifferences(List<ReplicaCheck> checks) {
        List<ReplicaCheck> read = read(checks);
        List<String> out = new ArrayList<>();
        if (read.isEmpty()) return out;
        ReplicaCheck first = read.get(0);
        for (ReplicaCheck c : read.subList(1, read.size())) {
            List<String> tables = new ArrayList<>();
            for (int i = 0; i < Math.min(c.digest().size(), first.digest().size()); i++) {
                if (!c.digest().get(i).equals(first.digest().get(i))) tables.add(c.digest().get(i).table());
            }
            if (!tables.isEmpty() || c.digest().size() != first.digest().size()) {
                out.add(c.replica() + " differs from " + first.replica() + " in " + tables);
            }
        }
        return out;
    }

    /** Transactions per second the clients completed between two times (seconds into the window), or null. */
    Double tps(Double fromS, Double toS) {
        if (fromS == null || toS == null || toS - fromS < BUCKET_MS / 1000.0) return null;
        int from = (int) Math.ceil(fromS * 1000 / BUCKET_MS);
        int to = (int) Math.min(completions.length(), Math.floor(toS * 1000 / BUCKET_MS));
        if (to <= from) return null;
        long n = 0;
        for (int i = from; i < to; i++) n += completions.get(i);
        return n / ((to - from) * BUCKET_MS / 1000.0);
    }

    private Double tpsBeforeCrash() {
        return tps(0.0, atS(killedNanos));
    }

    private Double tpsAfterRestart() {
        return tps(atS(readyNanos), durationS);
    }

    /** Seconds from the SIGKILL to the first transaction completed on the restarted shepherd, or null. */
    Double gapS() {
        Double killed = atS(killedNanos);
        Double back = atS(firstCompletionAfterRestartNanos);
        return killed == null || back == null ? null : back - killed;
    }

    // ---------------------------------------------------------------- output

    /** One row per second of the measured window: transactions, connection errors, the shepherd's state and events. */
    String table() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%7s %11s %17s  %-9s %s%n", "t (s)", "client tx/s", "connection errors",
            "shepherd", "events"));
        int perSecond = (int) (1000 / BUCKET_MS);
        int seconds = (int) Math.ceil(durationS);
        for (int s = 0; s < seconds; s++) {
            long tx = 0;
            long lost = 0;
            for (int i = s * perSecond; i < Math.min(completions.length(), (s + 1) * perSecond); i++) {
                tx += completions.get(i);
                lost += losses.get(i);
            }
            sb.append(String.format(Locale.ROOT, "%7d %11d %17d  %-9s %s%n", s, tx, lost, stateAt(s + 1.0),
                eventsIn(s, s + 1.0)).stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    private String stateAt(double s) {
        if (atS(killedNanos) == null || s < atS(killedNanos)) return "up";
        if (atS(launchedNanos) == null || s < atS(launchedNanos)) return "down";
        if (atS(readyNanos) == null || s < atS(readyNanos)) return "starting";
        return "up";
    }

    private String eventsIn(double from, double to) {
        List<String> events = new ArrayList<>();
        addEvent(events, "secondary paused", atS(pausedNanos), from, to);
        addEvent(events, "SIGKILL", atS(killedNanos), from, to);
        addEvent(events, "started again", atS(launchedNanos), from, to);
        addEvent(events, "listening", atS(readyNanos), from, to);
        addEvent(events, "first commit after the restart", atS(firstCompletionAfterRestartNanos), from, to);
        return String.join(", ", events);
    }

    private static void addEvent(List<String> events, String name, Double atS, double from, double to) {
        if (atS != null && atS >= from && atS < to) events.add(String.format(Locale.ROOT, "%s at %.2fs", name, atS));
    }

    /** The lines after the table: the crash, the gap, the replay, the checks per replica, the verdict. */
    String summary(RunResult r) {
        StringBuilder sb = new StringBuilder();
        if (pausedNanos != null) {
            sb.append(String.format(Locale.ROOT, "%s (a secondary) paused from %s to %s, so that it lacks what the shepherd"
                + " acknowledged meanwhile%n", lagging, fmt(atS(pausedNanos)), fmt(atS(resumedNanos))));
        }
        sb.append(String.format(Locale.ROOT, "shepherd: SIGKILL at %s, started again at %s on the same configuration, port"
            + " and data.dir, listening at %s%n", fmt(atS(killedNanos)), fmt(atS(launchedNanos)), fmt(atS(readyNanos))));
        sb.append("replayed from its write-ahead log (transactions each replica lacked): ")
            .append(launchedNanos == null ? "-" : replay.summary(replicas)).append('\n');
        sb.append(String.format(Locale.ROOT, "clients: %s tx/s before the crash, %s tx/s after the restart (%.1f tx/s, %d"
            + " transactions over the window)%n", fmt1(tpsBeforeCrash()), fmt1(tpsAfterRestart()), r.tps(), r.transactions()));
        sb.append(String.format(Locale.ROOT, "gap: connection errors from %s to %s, first commit after the restart at %s:"
            + " %s without a commit%n", fmt(atS(firstLossNanos)), fmt(atS(lastLossNanos)),
            fmt(atS(firstCompletionAfterRestartNanos)), fmt(gapS())));
        sb.append(String.format(Locale.ROOT, "     connections lost %d, retries %d (re-runs after a lost connection included),"
            + " in doubt %d, errors %d%n", r.connectionLosses(), r.retries(), r.inDoubt(), r.errors()));
        sb.append(String.format(Locale.ROOT, "New-Orders acknowledged: %d (warm-up included), in doubt: %d; replicas: %s%n",
            ledger.acknowledgedCount(), ledger.inDoubtCount(), syncNote));
        sb.append(String.format(Locale.ROOT, "%-8s %20s %6s %15s  %-14s %s%n", "replica", "acknowledged found", "lost",
            "in doubt found", "consistency", "digest"));
        List<ReplicaCheck> read = read(checks);
        for (ReplicaCheck c : checks) {
            if (c.error() != null) {
                sb.append(String.format(Locale.ROOT, "%-8s not read: %s%n", c.replica(), c.error()));
                continue;
            }
            NewOrderLedger.Audit a = c.orders();
            sb.append(String.format(Locale.ROOT, "%-8s %20s %6d %15s  %-14s %s%n", c.replica(),
                a.acknowledgedFound() + "/" + a.acknowledged(), a.lost(), a.inDoubtFound() + "/" + a.inDoubt(),
                c.failedConditions().isEmpty() ? "passed" : "FAILED " + c.failedConditions().size(),
                c.digest().equals(read.get(0).digest()) ? "= " + read.get(0).replica() : "DIFFERS"));
        }
        List<String> problems = problems();
        if (problems.isEmpty()) {
            sb.append("PASSED: every acknowledged New-Order is on every replica, the consistency conditions (1-10, 12) hold,"
                + " the replicas' digests are equal\n");
        } else {
            sb.append("FAILED:\n");
            for (String p : problems) sb.append("  ").append(p).append('\n');
        }
        return sb.toString();
    }

    private static String fmt(Double s) {
        return s == null ? "-" : String.format(Locale.ROOT, "%.2fs", s);
    }

    private static String fmt1(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    /** The JSON document: settings, the crash, the clients, the replay, every replica's checks and the verdict. */
    Map<String, Object> toJson(Map<String, Object> settings, RunResult r) {
        Map<String, Object> root = new LinkedHashMap<>(settings);
        root.put("scenario", "shepherd-crash");
        root.put("config", BenchConfig.CBS.label());
        root.put("crash_at_s", plan.crashAtS());
        root.put("crash_for_s", plan.crashForS());
        root.put("lag_for_s", plan.lagForS());
        root.put("paused_at_s", CrashRun.round2(atS(pausedNanos)));
        root.put("resumed_at_s", CrashRun.round2(atS(resumedNanos)));
        root.put("killed_at_s", CrashRun.round2(atS(killedNanos)));
        root.put("restarted_at_s", CrashRun.round2(atS(launchedNanos)));
        root.put("listening_at_s", CrashRun.round2(atS(readyNanos)));
        Map<String, Object> replayJson = new LinkedHashMap<>();
        replayJson.put("lacked", replay.lacked());
        replayJson.put("replayed_when_caught_up", replay.replayed());
        replayJson.put("left_out", replay.leftOut());
        root.put("replay", replayJson);
        root.put("shepherd_log", keptLog.toString());
        Map<String, Object> client = new LinkedHashMap<>();
        client.put("throughput_tps", r.tps());
        client.put("tps_before_crash", CrashRun.round2(tpsBeforeCrash()));
        client.put("tps_after_restart", CrashRun.round2(tpsAfterRestart()));
        client.put("transactions", r.transactions());
        client.put("errors", r.errors());
        client.put("retries", r.retries());
        client.put("connection_losses", r.connectionLosses());
        client.put("in_doubt", r.inDoubt());
        client.put("first_connection_error_at_s", CrashRun.round2(atS(firstLossNanos)));
        client.put("last_connection_error_at_s", CrashRun.round2(atS(lastLossNanos)));
        client.put("first_commit_after_restart_at_s", CrashRun.round2(atS(firstCompletionAfterRestartNanos)));
        client.put("gap_s", CrashRun.round2(gapS()));
        client.put("first_errors", r.firstErrors());
        root.put("client", client);
        Map<String, Object> orders = new LinkedHashMap<>();
        orders.put("acknowledged", ledger.acknowledgedCount());
        orders.put("in_doubt", ledger.inDoubtCount());
        orders.put("lost_max", checks.stream().filter(c -> c.orders() != null).mapToLong(c -> c.orders().lost()).max().orElse(0));
        root.put("new_orders", orders);
        root.put("replicas_in_step", synced);
        root.put("replicas_in_step_note", syncNote);
        Map<String, Object> perReplica = new LinkedHashMap<>();
        for (ReplicaCheck c : checks) {
            Map<String, Object> one = new LinkedHashMap<>();
            if (c.error() != null) one.put("error", c.error());
            one.put("orders", c.orders());
            one.put("consistency_passed", c.error() == null && c.failedConditions().isEmpty());
            one.put("failed_conditions", c.failedConditions());
            one.put("digest", c.digest());
            perReplica.put(c.replica(), one);
        }
        root.put("replicas", perReplica);
        root.put("digests_equal", digestsEqual());
        List<String> problems = problems();
        root.put("passed", problems.isEmpty());
        root.put("problems", problems);
        if (failure != null) root.put("failure", failure);
        return root;
    }
}
