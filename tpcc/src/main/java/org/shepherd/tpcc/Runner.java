package org.shepherd.tpcc;

import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * Runs the TPC-C mix: {@code terminals} threads, each with its own connection, home warehouse and random
 * stream (terminal i draws from seed + i), for a warm-up and then a measured duration.
 */
public final class Runner {

    private static final int STREAM_THINK = 2;
    private static final boolean DEBUG_RETRIES = Boolean.getBoolean("tpcc.debugRetries");
    /** The longest pause before re-running a transaction after a serialization failure. */
    static final long RETRY_PAUSE_MAX_MS = 200;
    private static final int MAX_ERRORS_KEPT = 10;
    private static final int HISTOGRAM_SIGNIFICANT_DIGITS = 3;
    private static final double MICROS_PER_MS = 1000.0;

    /**
     * How to run. Durations in seconds; think time 0..0 means none; {@code transactionsPerTerminal} > 0 ends each
     * terminal after that many transactions even before the duration is over (0: no limit). {@code reconnectS} > 0: a
     * terminal whose connection breaks (SQLState class 08) opens a new one, trying for up to that many seconds, and goes
     * on (0: the transaction is an error and the terminal reconnects once).
     */
    public record Options(Scale scale, int terminals, double durationS, double warmupS, long seed, int thinkMinMs,
                          int thinkMaxMs, int maxRetries, double progressIntervalS, long transactionsPerTerminal,
                          double reconnectS, Clock clock) {
        public Options {
            if (transactionsPerTerminal < 0) throw new IllegalArgumentException("--transactions must not be negative");
            if (reconnectS < 0) throw new IllegalArgumentException("--reconnect must not be negative");
            if (terminals < 1) throw new IllegalArgumentException("--terminals must be at least 1");
            if (durationS <= 0) throw new IllegalArgumentException("--duration must be positive");
            if (warmupS < 0) throw new IllegalArgumentException("--warmup must not be negative");
            if (thinkMinMs < 0 || thinkMaxMs < thinkMinMs) {
                throw new IllegalArgumentException("--think-ms must be MIN-MAX with 0 <= MIN <= MAX");
            }
            if (maxRetries < 0) throw new IllegalArgumentException("--max-retries must not be negative");
            if (progressIntervalS <= 0) throw new IllegalArgumentException("--progress-s must be positive");
        }
    }

    private final Jdbc jdbc;
    private final Options options;
    private final PrintStream log;
    private final Recorder recorder;
    private final Map<TxType, LongAdder> completed = new EnumMap<>(TxType.class);
    /** Transactions completed during the warm-up (not measured; for the progress lines). */
    private final LongAdder warmUpCompleted = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder connectionLosses = new LongAdder();
    private final LongAdder inDoubt = new LongAdder();
    private final List<String> firstErrors = Collections.synchronizedList(new ArrayList<>());
    private volatile long measureFromNanos;
    private volatile long deadlineNanos;

    /** Told when the measured window starts and when the last terminal has stopped (for side measurements). */
    public interface WindowListener {
        void measureStarted();

        void measureEnded();
    }

    private static final WindowListener NO_LISTENER = new WindowListener() {
        @Override
        public void measureStarted() {
        }

        @Override
        public void measureEnded() {
        }
    };

    /** A New-Order as its terminal ran it: the input and the order id it took. */
    public record PlacedOrder(TxInput.NewOrder input, int orderId) {
    }

    /**
     * Told, on the terminals' threads and for the warm-up too, what became of the transactions: for checks after the
     * run, such as whether every New-Order the database acknowledged is there. Every method does nothing by default.
     */
    public interface Recorder {
        /** Told nothing. */
        Recorder NONE = new Recorder() {
        };

        /** A New-Order's COMMIT returned: its order must be in the database. */
        default void newOrderCommitted(PlacedOrder order) {
        }

        /** A New-Order's COMMIT failed with a broken connection: it may or may not have committed. */
        default void newOrderInDoubt(PlacedOrder order) {
        }

        /** A transaction committed, or a New-Order rolled back as planned, at {@code nanos} ({@link System#nanoTime}). */
        default void completed(long nanos) {
        }

        /** A terminal's connection broke at {@code nanos} ({@link System#nanoTime}). */
        default void connectionLost(long nanos) {
        }
    }

    public Runner(Jdbc jdbc, Options options, PrintStream log) {
        this(jdbc, options, log, Recorder.NONE);
    }

    /** As above; {@code recorder} is told what became of each transaction. */
    public Runner(Jdbc jdbc, Options options, PrintStream log, Recorder recorder) {
        this.jdbc = jdbc;
        this.options = options;
        this.log = log;
        this.recorder = java.util.Objects.requireNonNull(recorder, "recorder");
        for (TxType t : TxType.ALL) completed.put(t, new LongAdder());
    }

    public RunResult run() throws SQLException, InterruptedException {
        return run(NO_LISTENER);
    }

    public RunResult run(WindowListener window) throws SQLException, InterruptedException {
        Scale scale = options.scale();
        List<Terminal> terminals = new ArrayList<>();
        try {
            for (int i = 0; i < options.terminals(); i++) {
                Transactions tx = new Transactions(jdbc.connect(), options.clock());
                terminals.add(new Terminal(i, tx));
            }
        } catch (SQLException e) {
            for (Terminal t : terminals) t.close();
            throw e;
        }
        log.printf(Locale.ROOT, "running %d terminals on %d%s warehouses for %.0fs (warm-up %.0fs), seed %d%n",
            options.terminals(), scale.warehouses(), scale.small() ? " small" : "", options.durationS(),
            options.warmupS(), options.seed());
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (Terminal t : terminals) {
            Thread thread = new Thread(() -> t.run(go), "tpcc-terminal-" + t.id);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        long start = System.nanoTime();
        measureFromNanos = start + (long) (options.warmupS() * 1e9);
        deadlineNanos = measureFromNanos + (long) (options.durationS() * 1e9);
        go.countDown();
        Thread windowStart = new Thread(() -> {
            try {
                long waitNanos = measureFromNanos - System.nanoTime();
                if (waitNanos > 0) Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
                window.measureStarted();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "tpcc-window");
        windowStart.setDaemon(true);
        windowStart.start();

        List<RunResult.ProgressSample> samples = new ArrayList<>();
        long intervalNanos = (long) (options.progressIntervalS() * 1e9);
        long lastCount = 0;
        long lastNewOrders = 0;
        long lastNanos = start;
        boolean warmingUp = measureFromNanos > start;
        for (long next = start + intervalNanos; next < deadlineNanos && anyAlive(threads); next += intervalNanos) {
            sleepUntil(next, threads);
            long now = System.nanoTime();
            if (warmingUp && now >= measureFromNanos) { // the measured window starts: its counts start from zero
                warmingUp = false;
                lastCount = 0;
                lastNewOrders = 0;
                lastNanos = measureFromNanos;
            }
            if (warmingUp) {
                long warm = warmUpCompleted.sum();
                log.printf(Locale.ROOT, "[%5.0fs] warm-up tx %,d  %.1f tx/s%n", (now - start) / 1e9, warm,
                        (warm - lastCount) / ((now - lastNanos) / 1e9));
                lastCount = warm;
                lastNanos = now;
                continue;
            }
            long count = totalCompleted();
            double intervalS = (now - lastNanos) / 1e9;
            long newOrders = completed.get(TxType.NEW_ORDER).sum();
            double tps = (count - lastCount) / intervalS;
            double tpmC = (newOrders - lastNewOrders) * 60 / intervalS;
            RunResult.ProgressSample sample = new RunResult.ProgressSample((now - start) / 1e9, count, tps, tpmC,
                errors.sum(), retries.sum());
            samples.add(sample);
            log.printf(Locale.ROOT, "[%5.0fs] tx %,d  %.1f tx/s  tpmC %.0f  retries %d  errors %d%n",
                sample.elapsedS(), count, tps, tpmC, sample.retries(), sample.errors());
            lastCount = count;
            lastNewOrders = newOrders;
            lastNanos = now;
        }
        for (Thread thread : threads) thread.join();
        long end = Math.min(System.nanoTime(), deadlineNanos);
        windowStart.join();
        window.measureEnded();
        for (Terminal t : terminals) t.close();
        return summarize(terminals, samples, Math.max(1e-9, (end - measureFromNanos) / 1e9));
    }

    private long totalCompleted() {
        return completed.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** Sleeps until {@code nanos} or until every terminal thread has ended. */
    private static void sleepUntil(long nanos, List<Thread> threads) throws InterruptedException {
        for (Thread t : threads) {
            long remainingMs = (nanos - System.nanoTime()) / 1_000_000;
            if (remainingMs <= 0) return;
            t.join(remainingMs);
        }
    }

    private static boolean anyAlive(List<Thread> threads) {
        return threads.stream().anyMatch(Thread::isAlive);
    }

    private RunResult summarize(List<Terminal> terminals, List<RunResult.ProgressSample> samples, double seconds) {
        List<RunResult.TypeSummary> byType = new ArrayList<>();
        long total = 0;
        long totalErrors = 0;
        long totalRetries = 0;
        long totalRollbacks = 0;
        long newOrders = 0;
        for (TxType type : TxType.ALL) {
            Histogram h = new Histogram(HISTOGRAM_SIGNIFICANT_DIGITS);
            long count = 0;
            long rollbacks = 0;
            long typeRetries = 0;
            long typeErrors = 0;
            for (Terminal t : terminals) {
                TypeStats s = t.stats.get(type);
                h.add(s.latencyMicros);
                count += s.count;
                rollbacks += s.rollbacks;
                typeRetries += s.retries;
                typeErrors += s.errors;
            }
            byType.add(new RunResult.TypeSummary(type.label(), count, rollbacks, typeRetries, typeErrors,
                count == 0 ? 0 : h.getMean() / MICROS_PER_MS, ms(h, 50), ms(h, 90), ms(h, 99),
                h.getMaxValue() / MICROS_PER_MS));
            total += count;
            totalErrors += typeErrors;
            totalRetries += typeRetries;
            totalRollbacks += rollbacks;
            if (type == TxType.NEW_ORDER) newOrders = count;
        }
        return new RunResult(jdbc.redactedUrl(), options.scale().warehouses(), options.scale().small(),
            options.terminals(), options.seed(), options.durationS(), options.warmupS(), options.thinkMinMs(),
            options.thinkMaxMs(), seconds, total, totalErrors, totalRetries, totalRollbacks, newOrders * 60 / seconds,
            total / seconds, total * 60 / seconds, connectionLosses.sum(), inDoubt.sum(), byType, samples,
            List.copyOf(firstErrors));
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / MICROS_PER_MS;
    }

    /** Counters of one transaction type at one terminal; only that terminal's thread writes them. */
    private static final class TypeStats {
        final Histogram latencyMicros = new Histogram(HISTOGRAM_SIGNIFICANT_DIGITS);
        long count;
        long rollbacks;
        long retries;
        long errors;
    }

    private final class Terminal {
        final int id;
        final Map<TxType, TypeStats> stats = new EnumMap<>(TxType.class);
        private Transactions tx;
        private final TpccRandom random;
        private final SplittableRandom thinkRandom;
        private final int homeWarehouse;
        private final int stockLevelDistrict;

        Terminal(int id, Transactions tx) {
            this.id = id;
            this.tx = tx;
            Scale scale = options.scale();
            this.random = new TpccRandom(options.seed() + id, NuRandConstants.forRun(options.seed()));
            this.thinkRandom = new SplittableRandom(TpccRandom.derive(options.seed(), STREAM_THINK, id));
            this.homeWarehouse = id % scale.warehouses() + 1;
            this.stockLevelDistrict = (id / scale.warehouses()) % Scale.DISTRICTS_PER_WAREHOUSE + 1;
            for (TxType t : TxType.ALL) stats.put(t, new TypeStats());
        }

        void run(CountDownLatch go) {
            try {
                go.await();
                long started = 0;
                long limit = options.transactionsPerTerminal();
                while (System.nanoTime() < deadlineNanos && tx != null && (limit == 0 || started < limit)) {
                    started++;
                    TxInput input = TxInput.draw(TxType.next(random), random, options.scale(), homeWarehouse,
                        stockLevelDistrict);
                    execute(input);
                    think();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void execute(TxInput input) {
            long start = System.nanoTime();
            int retryableFailures = 0;
            Transactions.Outcome outcome = null;
            int retriesHere = 0;
            SQLException failure = null;
            SQLException doubt = null;
            while (outcome == null && failure == null && doubt == null) {
                try {
                    outcome = tx.run(input);
                } catch (SQLException e) {
                    Jdbc.rollbackQuietly(tx.connection());
                    if (options.reconnectS() > 0 && Jdbc.isConnectionLoss(e)) {
                        connectionLosses.increment();
                        // a read-only transaction changed nothing whether its COMMIT took or not: it is run again
                        boolean atCommit = tx.failedAtCommit() && input.type().writes();
                        recorder.connectionLost(System.nanoTime());
                        if (atCommit && input instanceof TxInput.NewOrder in) {
                            recorder.newOrderInDoubt(new PlacedOrder(in, tx.lastOrderId()));
                        }
                        if (atCommit) doubt = e; // it may have committed: running it again could run it twice
                        long giveUpNanos = Math.min(System.nanoTime() + (long) (options.reconnectS() * 1e9), deadlineNanos);
                        if (!reconnect(e, giveUpNanos)) {
                            failure = e;
                        } else if (!atCommit) {
                            retriesHere++;
                            retries.increment();
                        }
                    } else if (Jdbc.isRetryable(e) && ++retryableFailures <= options.maxRetries()) {
                        retriesHere++;
                        retries.increment();
                        if (DEBUG_RETRIES) log.println("retry " + input.type().label() + ": " + e.getMessage());
                        if (!backOff(retryableFailures)) failure = e;
                    } else {
                        failure = e;
                    }
                }
            }
            long end = System.nanoTime();
            if (outcome != null) {
                if (outcome == Transactions.Outcome.COMMITTED && input instanceof TxInput.NewOrder in) {
                    recorder.newOrderCommitted(new PlacedOrder(in, tx.lastOrderId()));
                }
                recorder.completed(end);
            }
            if (failure != null && tx != null) reconnectIfBroken(failure);
            if (end < measureFromNanos && outcome != null && failure == null && doubt == null) warmUpCompleted.increment();
            if (end > deadlineNanos || end < measureFromNanos) return;
            TypeStats s = stats.get(input.type());
            s.retries += retriesHere;
            if (doubt != null) inDoubt.increment();
            if (failure != null) {
                s.errors++;
                errors.increment();
                noteError(input, failure);
            }
            if (doubt != null || failure != null) return;
            s.count++;
            if (outcome == Transactions.Outcome.ROLLED_BACK) s.rollbacks++;
            s.latencyMicros.recordValue(Math.max(0, (end - start) / 1000));
            completed.get(input.type()).increment();
        }

        /**
         * After a broken connection: closes it and opens a new one, trying again after 1, 2, 4 ... ms (at most
         * {@link #RETRY_PAUSE_MAX_MS}) until {@code giveUpNanos} ({@link System#nanoTime}; one attempt when it has passed).
         * False when it gave up: {@code tx} is then null and the terminal stops.
         */
        private boolean reconnect(SQLException cause, long giveUpNanos) {
            close();
            tx = null;
            SQLException last = cause;
            for (int attempt = 1; backOff(attempt); attempt++) {
                try {
                    tx = new Transactions(jdbc.connect(), options.clock());
                    return true;
                } catch (SQLException e) {
                    last = e;
                }
                if (System.nanoTime() >= giveUpNanos) break;
            }
            if (System.nanoTime() < deadlineNanos) {
                log.printf(Locale.ROOT, "error: terminal %d lost its connection and could not open another: %s%n", id,
                    last.getMessage());
            }
            return false;
        }

        /**
         * Waits before re-run number {@code attempt}: nothing before the first, then 1, 2, 4 ... ms, at most
         * {@link #RETRY_PAUSE_MAX_MS}, so that a cause that lasts a moment (a lock holder, a shepherd changing its
         * primary) is over before the retries are. False when interrupted.
         */
        private boolean backOff(int attempt) {
            if (attempt <= 1) return true;
            try {
                Thread.sleep(Math.min(RETRY_PAUSE_MAX_MS, 1L << Math.min(attempt - 2, 16)));
                return true;
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        private void noteError(TxInput input, SQLException e) {
            String message = input.type().label() + " at terminal " + id + ": " + e.getMessage()
                + " (SQLState " + e.getSQLState() + ")";
            synchronized (firstErrors) {
                if (firstErrors.size() < MAX_ERRORS_KEPT) {
                    firstErrors.add(message);
                    log.println("error: " + message);
                }
            }
        }

        private void reconnectIfBroken(SQLException e) {
            boolean broken = Jdbc.isConnectionLoss(e);
            try {
                broken |= tx.connection().isClosed();
            } catch (SQLException ignored) {
                broken = true;
            }
            if (broken) reconnect(e, System.nanoTime());
        }

        private void think() throws InterruptedException {
            if (options.thinkMaxMs() == 0) return;
            long pauseMs = thinkRandom.nextLong(options.thinkMinMs(), options.thinkMaxMs() + 1L);
            long untilDeadlineMs = (deadlineNanos - System.nanoTime()) / 1_000_000;
            Thread.sleep(Math.max(0, Math.min(pauseMs, untilDeadlineMs)));
        }

        void close() {
            if (tx == null) return;
            tx.close();
            Jdbc.closeQuietly(tx.connection());
        }
    }
}
