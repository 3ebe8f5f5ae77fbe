package org.shepherd.schedule;

import org.shepherd.vote.Ballot;

/**
 * One statement Q of a transaction: its payload (what each replica runs), its barrier Q.b (set when the
 * primary's answer is complete) and the ballots of the replicas (a replica's last vote replaces earlier ones).
 *
 * @param <S> the statement payload type the replica endpoints understand
 */
public final class Stmt<S> {

    private final int index;
    private final S payload;
    private final String text;
    private long barrier = -1;
    private boolean failedAtPrimary;
    private final Ballot[] votes;

    Stmt(int index, S payload, String text, int replicaCount) {
        this.index = index;
        this.payload = payload;
        this.text = text;
        this.votes = new Ballot[replicaCount];
    }

    public int index() {
        return index;
    }

    public S payload() {
        return payload;
    }

    /** The statement as text, for messages. */
    public String text() {
        return text;
    }

    /** Q.b, or -1 while the primary has not answered. */
    public long barrier() {
        return barrier;
    }

    public boolean answeredByPrimary() {
        return barrier >= 0;
    }

    public void setBarrier(long b) {
        if (barrier >= 0) throw new IllegalStateException("Q.b already set for statement " + index);
        barrier = b;
    }

    /** The ballot of {@code replica}, or null (no vote yet, or no such replica: -1 for a transaction with no primary). */
    public Ballot vote(int replica) {
        return replica < 0 ? null : votes[replica];
    }

    /** The primary answered with an error: the statement changed nothing (a replica catching up need not run it). */
    public boolean failedAtPrimary() {
        return failedAtPrimary;
    }

    public void markFailedAtPrimary() {
        failedAtPrimary = true;
    }

    public void recordVote(int replica, Ballot ballot) {
        votes[replica] = ballot;
    }
}
