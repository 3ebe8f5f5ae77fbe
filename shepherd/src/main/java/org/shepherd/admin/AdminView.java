package org.shepherd.admin;

import java.sql.SQLException;
import java.util.List;
import org.shepherd.divergence.Divergence;

/**
 * What {@code shepherd status} and {@code shepherd divergences} show, implemented by each coordinator and served to
 * clients as ordinary result sets under the reserved metadata names of {@link AdminQueries}.
 */
public interface AdminView {

    /** The view as a whole: mode, f, barrier, primary, counters. */
    ViewStatus viewStatus() throws SQLException;

    /** One row per replica, in configuration order. */
    List<ReplicaRow> statusRows() throws SQLException;

    /** The retained divergence reports, oldest first. */
    List<Divergence> divergenceRows();

    /**
     * Brings back lost replica {@code replica} in two steps: first ({@link RestoreStep#BEGIN}, or
     * {@link RestoreStep#TAKE_OUT} for a secondary that serves) the log is kept for a copy of an up-to-date replica's
     * database that the operator takes from then on and installs on it; then ({@link RestoreStep#COPIED}) it is probed,
     * checked and caught up. Returns its state now; fails when it is not in the state the step needs, or
     * this mode has no replicas to restore.
     */
    default String restore(String replica, RestoreStep step) throws SQLException {
        throw new SQLException("restoring a replica needs mode cbs, ss or serial", "0A000");
    }

    /** The steps of {@link #restore}. */
    enum RestoreStep {
        /** A lost replica: keep the log for its copy. */
        BEGIN,
        /** As {@link #BEGIN}, for a secondary that is not lost: it is taken out of service first. */
        TAKE_OUT,
        /** Its copy is installed: probe, check and catch it up. */
        COPIED
    }

    /**
     * Compares every table ({@code table} null or empty) or one, on every replica, through the vote; one row per table.
     * Differences are reported as divergences too. With {@code repair}, the key ranges where a secondary differed are
     * rewritten there to the rows f+1 replicas agree on, and compared again. Fails when this mode has no replicas to
     * compare.
     */
    default List<VerifyRow> verify(String table, boolean repair) throws SQLException {
        throw new SQLException("comparing replicas needs mode cbs, ss or serial", "0A000");
    }

    /**
     * @param rows rows compared (read at the primary)
     * @param chunks transactions it took
     * @param differing the replicas whose answers differed, comma-separated, empty when none (with repair: as first
     *     compared)
     * @param result "equal", "DIFFERS on ..." or "not compared: ...", and the replicas that could not be compared (with
     *     repair: after it)
     * @param repaired with repair: the rows each repaired replica had deleted, updated and inserted; else empty
     */
    record VerifyRow(String table, long rows, long chunks, String differing, String result, String repaired) {
    }

    /**
     * @param barrier the next commit barrier (transactions committed since start)
     * @param divergencesTotal reports on record: since start, plus those the report files held at start
     * @param view view changes since start: 0 while the configured primary serves
     * @param walBytes bytes of the write-ahead log on disk, -1 when there is none (mode passthrough)
     * @param walSegments its segment files
     * @param walFloor its released floor: every replica committed every transaction up to this barrier, -1 for none
     * @param commitWaitP50Ms from a client's COMMIT to the decision (f+1 replicas ready and agreeing), median since
     *     start; -1 where nothing is measured (mode passthrough, or no commit yet); likewise the others
     * @param commitP99Ms from a client's COMMIT to its answer, 99th percentile since start
     * @param lastComparison when the last comparison of the replicas' tables ended (on demand or in the background) and
     *     what it found and repaired; empty when none ran since start
     */
    record ViewStatus(String mode, int f, long barrier, String primary, int replicas, long commits, long aborts,
            long voteAborts, long divergencesTotal, long view, long walBytes, int walSegments, long walFloor,
            long commitWaitP50Ms, long commitWaitP99Ms, long commitP50Ms, long commitP99Ms, long commitMaxMs,
            String lastViewChange, String lastComparison) {
    }

    /**
     * @param role "primary" or "secondary"
     * @param state "up", or "down: " and the reason
     * @param lastCommittedBarrier the highest barrier this replica committed, -1 for none
     * @param lagBarriers committed barriers this replica has not committed yet
     * @param poolSize transactions in the replica's pool now
     * @param reruns transactions this replica rolled back and ran again since start (it was a deadlock victim, or a
     *     committed transaction's statement waited there too long and the transactions in its way were restarted)
     * @param divergences retained divergence reports naming this replica
     * @param location where the shepherd reaches it: its JDBC URL, a password written in it masked (it changes when the
     *     replica is restored elsewhere)
     */
    record ReplicaRow(String replica, String role, String state, long lastCommittedBarrier, long lagBarriers, int poolSize,
            long reruns, long divergences, String location) {
    }
}
