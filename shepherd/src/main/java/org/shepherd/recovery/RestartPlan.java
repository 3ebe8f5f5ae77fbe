package org.shepherd.recovery;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * How a shepherd starts again after an earlier run: from what its write-ahead log kept and what each replica's
 * transaction log ({@code shepherd_txlog}) holds, which replicas serve at once, which must first replay committed
 * transactions from the log, which are lost, and which replica is the primary. A pure function, so that every case is
 * tested without databases.
 *
 * <p>The log's floor F: every committed transaction with a barrier up to F was committed at every replica that was not
 * lost when F was released (the log recorded F before it deleted anything). So replicas that are not lost hold the same
 * barriers up to F, and a replica holding fewer lacks a transaction the log no longer has: it is lost. Above F, the log
 * holds every committed transaction that wrote; a replica that lacks some of them replays them. A barrier above F that
 * the log does not hold belonged to a transaction that wrote nothing, or to none (nothing to replay).
 *
 * <p>Without a log history (first start with a log, or its directory was removed) only the replicas' logs are known:
 * the floor is then the highest barrier any replica holds ({@link #floorToRead}), so a replica holding fewer barriers
 * than another is lost, and nothing is replayed.
 *
 * <p>A replica that cannot be read at start ({@link Start#UNREACHABLE}) is probed like one that went down; when it
 * answers it must hold as many barriers up to the floor as the others did (else it is lost), then it replays what it
 * lacks. Transaction ids and barriers continue after the highest found in the log and the replicas read.
 */
public final class RestartPlan {

    /** How one replica starts. */
    public enum Start {
        /** It holds every committed transaction: it serves at once. */
        UP,
        /** It lacks committed transactions the log holds: they are replayed on it first. */
        REPLAY,
        /** It could not be read: probed until it answers, then checked ({@link ReplicaStart#expectedUpToCursor}) and replayed. */
        UNREACHABLE,
        /** It lacks committed transactions nobody can replay: it stays out until restored from a copy. */
        LOST
    }

    /**
     * What a replica's transaction log holds (the transactions that wrote).
     *
     * @param lastTxId its highest transaction id, -1 for none
     * @param lastBarrier its highest barrier, -1 for none
     * @param committedUpToFloor how many barriers up to the floor it holds (0 when the floor is -1)
     * @param aboveFloor the barriers above the floor it holds, ascending
     * @param unreachable why it could not be read, or null when it was
     */
    public record ReplicaLog(String name, boolean canBePrimary, long lastTxId, long lastBarrier, long committedUpToFloor,
            long[] aboveFloor, String unreachable) {

        public ReplicaLog(String name, boolean canBePrimary, long lastTxId, long lastBarrier, long committedUpToFloor,
                long[] aboveFloor) {
            this(name, canBePrimary, lastTxId, lastBarrier, committedUpToFloor, aboveFloor, null);
        }

        /** A replica whose log could not be read at start. */
        public static ReplicaLog unreachable(String name, boolean canBePrimary, String why) {
            return new ReplicaLog(name, canBePrimary, -1, -1, 0, new long[0], why);
        }

        public boolean reachable() {
            return unreachable == null;
        }
    }

    /**
     * What the write-ahead log kept.
     *
     * @param history whether it existed before this start (false: new, or removed)
     * @param floor its released floor, -1 for none
     * @param barriers the barriers of the committed transactions it holds, ascending
     * @param lastTxId the highest transaction id it holds, -1 for none
     */
    public record LogState(boolean history, long floor, long[] barriers, long lastTxId) {
    }

    /**
     * One replica's start.
     *
     * @param lastCommittedBarrier the highest barrier it holds (-1 when unknown)
     * @param replayCursor for {@link Start#REPLAY} and {@link Start#UNREACHABLE}: every committed transaction up to here
     *     is applied there
     * @param expectedUpToCursor for {@link Start#UNREACHABLE}: how many barriers up to the cursor it must hold when it
     *     answers (fewer: lost); -1 for no check
     * @param reason why it replays, is unreachable or is lost (for the log and the status), empty when up
     */
    public record ReplicaStart(Start start, long lastCommittedBarrier, long replayCursor, long expectedUpToCursor,
            String reason) {

        public ReplicaStart(Start start, long lastCommittedBarrier, long replayCursor, String reason) {
            this(start, lastCommittedBarrier, replayCursor, -1, reason);
        }

        /**
         * Whether the replica holds every committed transaction up to the floor the plan was read against (up, or lacking
         * only some above it): its transaction log may be truncated up to that floor before it serves.
         */
        public boolean holdsFloor() {
            return start == Start.UP || start == Start.REPLAY;
        }
    }

    /**
     * The plan.
     *
     * @param lastTxId transaction ids continue after it
     * @param nextBarrier the next commit barrier
     * @param primary the primary's index
     * @param primaryNote why the primary is not the configured one, or empty
     */
    public record Plan(long lastTxId, long nextBarrier, int primary, List<ReplicaStart> replicas, String primaryNote) {
    }

    /** No replica can take the primary's role. */
    public static final class NoPrimaryException extends Exception {
        NoPrimaryException(String message) {
            super(message);
        }
    }

    private RestartPlan() {
    }

    /**
     * The floor to read the replicas' logs against: the log's, or without log history the highest barrier the replicas
     * that could be read hold ({@code lastBarriers}, -1 each for none).
     */
    public static long floorToRead(LogState log, long... lastBarriers) {
        if (log.history()) return log.floor();
        long max = -1;
        for (long b : lastBarriers) max = Math.max(max, b);
        return max;
    }

    /**
     * @param replicas each replica's log, read against {@link #floorToRead}
     * @param configuredPrimary the index of the configured primary
     * @param viewChange whether another replica may be primary when the configured one cannot serve at once
     */
    public static Plan plan(LogState log, List<ReplicaLog> replicas, int configuredPrimary, boolean viewChange)
            throws NoPrimaryException {
        long lastTxId = log.lastTxId();
        long lastBarrier = log.barriers().length == 0 ? -1 : log.barriers()[log.barriers().length - 1];
        long[] lastBarriers = new long[replicas.size()];
        for (int i = 0; i < replicas.size(); i++) {
            lastTxId = Math.max(lastTxId, replicas.get(i).lastTxId());
            lastBarrier = Math.max(lastBarrier, replicas.get(i).lastBarrier());
            lastBarriers[i] = replicas.get(i).lastBarrier();
        }
        long floor = floorToRead(log, lastBarriers);
        // Barriers up to the released floor are settled, used or not (a transaction decided there and then lost with the
        // crash left none in the log): a new barrier at or below it would be taken for one every replica already holds,
        // and a replica that replays from the floor would skip it.
        lastBarrier = Math.max(lastBarrier, floor);
        List<ReplicaStart> starts = starts(log, floor, replicas);
        int primary = choosePrimary(replicas, starts, configuredPrimary, viewChange);
        String note = primary == configuredPrimary ? ""
                : "the configured primary " + replicas.get(configuredPrimary).name() + " "
                        + switch (starts.get(configuredPrimary).start()) {
                            case LOST -> "is lost";
                            case UNREACHABLE -> "is not reachable";
                            default -> "must replay transactions first";
                        }
                        + ": " + replicas.get(primary).name() + " is the primary (view change at start)";
        return new Plan(lastTxId, lastBarrier + 1, primary, starts, note);
    }

    private static List<ReplicaStart> starts(LogState log, long floor, List<ReplicaLog> replicas) {
        long full = 0;
        for (ReplicaLog r : replicas) full = Math.max(full, r.committedUpToFloor());
        TreeSet<Long> logged = new TreeSet<>();
        for (long b : log.barriers()) {
            if (b > floor) logged.add(b);
        }
        List<ReplicaStart> out = new ArrayList<>();
        for (ReplicaLog r : replicas) {
            if (!r.reachable()) {
                out.add(new ReplicaStart(Start.UNREACHABLE, -1, floor, full, "not reachable at start (" + r.unreachable()
                        + "): probed until it answers; it must then hold the " + full + " committed transactions up to barrier "
                        + floor + " the others hold, and replays what it lacks"));
            } else if (r.committedUpToFloor() < full) {
                out.add(new ReplicaStart(Start.LOST, r.lastBarrier(), -1, "its transaction log holds " + r.committedUpToFloor()
                        + " committed transactions up to barrier " + floor + " where other replicas hold " + full + ": it missed"
                        + " transactions " + (log.history() ? "the shepherd's write-ahead log no longer holds"
                        : "of an earlier run that the shepherd has no write-ahead log of") + "; restore it from a copy of an"
                        + " up-to-date replica"));
            } else {
                TreeSet<Long> missing = new TreeSet<>(logged);
                for (long b : r.aboveFloor()) missing.remove(b);
                if (missing.isEmpty()) {
                    out.add(new ReplicaStart(Start.UP, r.lastBarrier(), -1, ""));
                } else {
                    out.add(new ReplicaStart(Start.REPLAY, r.lastBarrier(), floor, "it lacks " + missing.size()
                            + " committed transaction" + (missing.size() == 1 ? "" : "s") + " of an earlier run (barriers "
                            + missing.first() + (missing.size() == 1 ? "" : " to " + missing.last())
                            + "): replaying them from the write-ahead log"));
                }
            }
        }
        return out;
    }

    /**
     * The configured primary if it serves at once; else, with view changes, the first that serves at once and may be
     * primary; else the configured one if it only replays first; else, with view changes, the first such one. Never one
     * that is lost or could not be read.
     */
    private static int choosePrimary(List<ReplicaLog> replicas, List<ReplicaStart> starts, int configured, boolean viewChange)
            throws NoPrimaryException {
        for (Start wanted : List.of(Start.UP, Start.REPLAY)) {
            if (starts.get(configured).start() == wanted) return configured;
            if (!viewChange) continue;
            for (int i = 0; i < replicas.size(); i++) {
                if (starts.get(i).start() == wanted && replicas.get(i).canBePrimary()) return i;
            }
        }
        StringBuilder why = new StringBuilder();
        for (int i = 0; i < replicas.size(); i++) {
            why.append(i == 0 ? "" : "; ").append(replicas.get(i).name()).append(": ").append(starts.get(i).start()
                    .name().toLowerCase(java.util.Locale.ROOT)).append(starts.get(i).reason().isEmpty() ? "" : " (" + starts.get(i)
                    .reason() + ")");
        }
        String configuredName = replicas.get(configured).name();
        boolean unreachable = starts.get(configured).start() == Start.UNREACHABLE;
        throw new NoPrimaryException("no replica can be the primary: the configured primary " + configuredName + " is "
                + (unreachable ? "not reachable" : "lost")
                + (viewChange ? " and no other replica that may be primary is usable" : " and view.change is false") + " [" + why
                + "]; " + (viewChange ? "" : "choose an up-to-date replica as primary= or ")
                + (unreachable ? "start " + configuredName : "restore " + configuredName + " from a copy of an up-to-date replica"));
    }
}
