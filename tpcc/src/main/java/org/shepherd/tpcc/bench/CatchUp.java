package org.shepherd.tpcc.bench;

import java.util.List;
import java.util.Locale;

/**
 * Figure 9's number from a crash run's timeline: how fast the restarted replica committed the transactions it missed
 * (its last committed barrier per second while the shepherd reported it {@code recovering}, up to the first sample
 * where it was {@code up} again), against the normal rate (the other replicas' barriers per second before the crash, or,
 * when they committed nothing before it, a cold start on a busy machine, from the catch-up to the end of the run).
 *
 * @param normalTps committed transactions per second before the crash (after the catch-up when none committed before
 *     it), or null when there were too few samples
 * @param catchUpTps the restarted replica's rate while it caught up, or null when it did not catch up
 * @param ratio {@code catchUpTps / normalTps}, or null
 * @param lowerBound true when the replica caught up between two samples: {@code catchUpTps} is then measured from the
 *     last sample where it was down and is only a lower bound
 * @param caughtUpAtS the first sample where it was up again, or null
 * @param note what happened, in words
 */
record CatchUp(Double normalTps, Double catchUpTps, Double ratio, boolean lowerBound, Double caughtUpAtS, String note) {

    static CatchUp of(List<CrashRun.Sample> samples, String replica, Double crashedAtS, Double restartedAtS) {
        if (crashedAtS == null) return new CatchUp(null, null, null, false, null, replica + " was never crashed");
        Double normal = normalRate(samples, replica, 0, crashedAtS);
        if (restartedAtS == null) return new CatchUp(normal, null, null, false, null, replica + " was not restarted");
        CrashRun.Sample firstRecovering = null;
        CrashRun.Sample lastDown = null;
        CrashRun.Sample up = null;
        for (CrashRun.Sample s : samples) {
            CrashRun.ReplicaState r = s.replicas().get(replica);
            if (r == null || s.atS() < restartedAtS) continue;
            if ("recovering".equals(r.state())) {
                if (firstRecovering == null) firstRecovering = s;
            } else if ("up".equals(r.state())) {
                up = s;
                break;
            } else if (firstRecovering == null) {
                lastDown = s;
            }
        }
        if (up == null) {
            return new CatchUp(normal, null, null, false, null, replica + " had not caught up when the run ended"
                + (firstRecovering != null ? " (it was replaying the transactions it missed)" : " (the shepherd never reached it)"));
        }
        CrashRun.Sample from = firstRecovering != null ? firstRecovering : lastDown;
        if (from == null) {
            return new CatchUp(normal, null, null, false, up.atS(), replica + " was up again at the first sample after its restart");
        }
        boolean lowerBound = firstRecovering == null;
        String normalWhen = "";
        if (normal == null || normal <= 0) {
            normal = normalRate(samples, replica, up.atS(), Double.MAX_VALUE);
            normalWhen = " after the catch-up (nothing committed before the crash)";
        }
        double dt = up.atS() - from.atS();
        double tps = (up.replicas().get(replica).lastCommittedBarrier() - from.replicas().get(replica).lastCommittedBarrier()) / dt;
        Double ratio = normal == null || normal <= 0 ? null : tps / normal;
        String against = ratio == null ? ""
            : String.format(Locale.ROOT, ", %s%.2fx the normal rate of %.1f/s%s", lowerBound ? "at least " : "", ratio, normal, normalWhen);
        String note = String.format(Locale.ROOT, "%s caught up at %.1fs at %s%.1f transactions/s%s", replica, up.atS(),
            lowerBound ? "at least " : "", tps, against);
        return new CatchUp(normal, tps, ratio, lowerBound, up.atS(), note);
    }

    /** The highest last committed barrier of the other replicas per second, over the samples in {@code [fromS, beforeS)}. */
    private static Double normalRate(List<CrashRun.Sample> samples, String replica, double fromS, double beforeS) {
        CrashRun.Sample first = null;
        CrashRun.Sample last = null;
        for (CrashRun.Sample s : samples) {
            if (s.atS() < fromS || s.atS() >= beforeS || s.replicas().isEmpty()) continue;
            if (first == null) first = s;
            last = s;
        }
        if (first == null || last == first) return null;
        return (highestOthers(last, replica) - highestOthers(first, replica)) / (last.atS() - first.atS());
    }

    private static long highestOthers(CrashRun.Sample s, String replica) {
        long max = -1;
        for (var e : s.replicas().entrySet()) {
            if (!e.getKey().equals(replica)) max = Math.max(max, e.getValue().lastCommittedBarrier());
        }
        return max;
    }
}
