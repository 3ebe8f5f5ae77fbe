package org.shepherd.schedule;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A transaction T as the coordinator sees it: its statements in order (the statement log used for re-runs),
 * its state and its barrier T.b (set at the commit decision).
 *
 * @param <S> the statement payload type
 */
public final class Txn<S> {

    private final long id;
    private final int replicaCount;
    private final List<Stmt<S>> stmts = new ArrayList<>();
    private TxState state = TxState.ACTIVE;
    private long barrier = -1;
    private boolean admitted;
    private boolean durable;
    private boolean wroteNothing;
    private int primary = -1;

    public Txn(long id, int replicaCount) {
        this.id = id;
        this.replicaCount = replicaCount;
    }

    public long id() {
        return id;
    }

    public List<Stmt<S>> stmts() {
        return Collections.unmodifiableList(stmts);
    }

    public Stmt<S> append(S payload, String text) {
        if (state != TxState.ACTIVE) throw new IllegalStateException("transaction " + id + " is " + state);
        Stmt<S> q = new Stmt<>(stmts.size(), payload, text, replicaCount);
        stmts.add(q);
        return q;
    }

    public TxState state() {
        return state;
    }

    public void setState(TxState s) {
        state = s;
    }

    /** T.b, or -1 while not committed. */
    public long barrier() {
        return barrier;
    }

    /** The commit decision: T.b is {@code b}. T is not durable yet ({@link #markDurable}). */
    public void commitAt(long b) {
        barrier = b;
        state = TxState.COMMITTED;
    }

    public boolean committed() {
        return state == TxState.COMMITTED;
    }

    /**
     * Committed and safe from a crash of the shepherd (in its write-ahead log, or nothing to log): only now may the
     * client be told and may a replica be sent its COMMIT.
     */
    public boolean durable() {
        return durable;
    }

    /**
     * Decided at the commit: every statement only read, or failed at the primary. Such a transaction is not logged and
     * commits at the replicas without a {@code shepherd_txlog} row: the replicas' logs hold exactly the transactions
     * that wrote, which is what a restart compares.
     */
    public boolean wroteNothing() {
        return wroteNothing;
    }

    public void markWroteNothing() {
        wroteNothing = true;
    }

    /** T.b as the replicas' transaction log gets it: -1 (no row) for a transaction that wrote nothing. */
    public long logBarrier() {
        return wroteNothing ? -1 : barrier;
    }

    public void markDurable() {
        if (state != TxState.COMMITTED) throw new IllegalStateException("durable but not committed: " + this);
        durable = true;
    }

    /**
     * A committed transaction read back from the shepherd's write-ahead log after a restart: its writes in order (what a
     * replica that lacks it must run), durable, with no answers.
     */
    public static <S> Txn<S> logged(long id, long barrier, List<S> writes, int replicaCount) {
        Txn<S> t = new Txn<>(id, replicaCount);
        for (S w : writes) t.append(w, String.valueOf(w));
        t.admit();
        t.commitAt(barrier);
        t.markDurable();
        return t;
    }

    /** The replica that was primary when T ran its first statement: the client got its answers; -1 if not set. */
    public int primary() {
        return primary;
    }

    public void setPrimary(int replica) {
        primary = replica;
    }

    /** Whether the mode's admission gate let the transaction run (always true in CBS). */
    public boolean admitted() {
        return admitted;
    }

    public void admit() {
        admitted = true;
    }

    @Override
    public String toString() {
        return "T" + id + "(" + state + (barrier >= 0 ? ", b=" + barrier : "") + ")";
    }
}
