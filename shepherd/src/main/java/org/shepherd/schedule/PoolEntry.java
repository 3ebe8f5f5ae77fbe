package org.shepherd.schedule;

import java.util.BitSet;

/**
 * What one replica has done of one transaction in the current attempt. A re-run (after the replica aborted the
 * transaction locally) starts a new attempt from the statement log; completions of older attempts are ignored.
 */
public final class PoolEntry<S> {

    private final Txn<S> txn;
    private int attempt;
    private final BitSet sent = new BitSet();
    private final BitSet done = new BitSet();
    private boolean inFlight;
    private long inFlightSinceMs;
    private boolean commitSent;
    /** How long the replica took to commit, from the COMMIT sent to its answer; -1 until it did. */
    private long commitTookMs = -1;
    private boolean finished;
    private boolean rollbackSent;
    private boolean abortRequested;
    private long parkedBehindTx = -1;
    private long restartParkedBehind = -1;
    private int reruns;

    public PoolEntry(Txn<S> txn) {
        this.txn = txn;
    }

    public Txn<S> txn() {
        return txn;
    }

    public int attempt() {
        return attempt;
    }

    public boolean started() {
        return !sent.isEmpty();
    }

    public boolean isSent(int i) {
        return sent.get(i);
    }

    public boolean isDone(int i) {
        return done.get(i);
    }

    /** Number of statements done in this attempt. */
    public int doneCount() {
        return done.cardinality();
    }

    /** All statements the transaction has so far are done here. */
    public boolean allDone() {
        return done.cardinality() == txn.stmts().size();
    }

    public boolean inFlight() {
        return inFlight;
    }

    public long inFlightSinceMs() {
        return inFlightSinceMs;
    }

    public void markSent(int i, long nowMs) {
        sent.set(i);
        inFlight = true;
        inFlightSinceMs = nowMs;
    }

    public void markCommitSent(long nowMs) {
        commitSent = true;
        inFlight = true;
        inFlightSinceMs = nowMs;
    }

    public void markRollbackSent(long nowMs) {
        rollbackSent = true;
        inFlight = true;
        inFlightSinceMs = nowMs;
    }

    public void markDone(int i) {
        done.set(i);
        inFlight = false;
    }

    public void completed() {
        inFlight = false;
    }

    public boolean commitSent() {
        return commitSent;
    }

    /** The replica committed: finished, and how long its COMMIT took is kept ({@link #commitTookMs}). */
    public void markCommitted(long nowMs) {
        commitTookMs = Math.max(0, nowMs - inFlightSinceMs);
        markFinished();
    }

    /** How long the replica's COMMIT took, -1 unless it committed here ({@link #markCommitted}). */
    public long commitTookMs() {
        return commitTookMs;
    }

    public boolean rollbackSent() {
        return rollbackSent;
    }

    /** Committed or rolled back at the replica: nothing more to do here. */
    public boolean finished() {
        return finished;
    }

    public void markFinished() {
        finished = true;
        inFlight = false;
    }

    public boolean abortRequested() {
        return abortRequested;
    }

    /** Abort this attempt here (after the statement in flight, if any); the re-run waits behind {@code parkBehind}. */
    public void requestAbort(long parkBehind) {
        abortRequested = true;
        restartParkedBehind = parkBehind;
    }

    /** Forget this attempt's work (the replica rolled it back) and start over from the statement log. */
    public void restart() {
        attempt++;
        reruns++;
        sent.clear();
        done.clear();
        inFlight = false;
        rollbackSent = false;
        abortRequested = false;
        parkedBehindTx = restartParkedBehind;
        restartParkedBehind = -1;
    }

    public int reruns() {
        return reruns;
    }

    /** The committed transaction this re-run waits for (until its COMMIT was sent here), or -1. */
    public long parkedBehindTx() {
        return parkedBehindTx;
    }

    public void unpark() {
        parkedBehindTx = -1;
    }

    @Override
    public String toString() {
        return txn + "@" + attempt + " done=" + done + " sent=" + sent + (inFlight ? " inFlight" : "")
                + (commitSent ? " commitSent" : "") + (finished ? " finished" : "");
    }
}
