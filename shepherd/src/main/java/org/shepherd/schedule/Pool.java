package org.shepherd.schedule;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The statement pool of one replica and the three ordering rules of CBS (seed section 3.3, Figure 3). The pool
 * only decides; its replica manager sends. For the primary every statement is ready at once.
 */
public final class Pool<S> {

    private boolean primary;
    private final OrderingRules rules;
    private final boolean commitGated;
    private final Map<Long, PoolEntry<S>> entries = new LinkedHashMap<>();

    public Pool(boolean primary, OrderingRules rules) {
        this(primary, rules, false);
    }

    /**
     * @param commitGated a statement is sent to this (secondary) replica only after every committed transaction with a
     *     smaller barrier has committed here, not just executed: the gate of replicas whose reads take no locks
     *     ({@code StatementGate.PREDECESSORS_COMMITTED}, see docs/cbs.md); it holds even without the
     *     transaction-ordering rule
     */
    public Pool(boolean primary, OrderingRules rules, boolean commitGated) {
        this.primary = primary;
        this.rules = rules;
        this.commitGated = commitGated;
    }

    public boolean commitGated() {
        return commitGated;
    }

    public boolean primary() {
        return primary;
    }

    /** The replica takes the other role (a view change); its pool must be {@link #drained()}. */
    public void setPrimary(boolean primary) {
        if (!drained()) throw new IllegalStateException("role change with unfinished transactions in the pool");
        this.primary = primary;
    }

    /** Every transaction in the pool has finished here (committed or rolled back, or never started and given up). */
    public boolean drained() {
        for (PoolEntry<S> e : entries.values()) {
            if (!e.finished()) return false;
        }
        return true;
    }

    public PoolEntry<S> entry(Txn<S> t) {
        return entries.get(t.id());
    }

    public PoolEntry<S> entryOrCreate(Txn<S> t) {
        return entries.computeIfAbsent(t.id(), id -> new PoolEntry<>(t));
    }

    public void remove(Txn<S> t) {
        entries.remove(t.id());
    }

    public Collection<PoolEntry<S>> entries() {
        return entries.values();
    }

    public void clear() {
        entries.clear();
    }

    /**
     * All queries of committed transaction {@code c} are done here (or it was already sent COMMIT here). A
     * committed transaction this replica never started counts as not done unless it has no statements.
     */
    public boolean queriesDone(Txn<S> c) {
        PoolEntry<S> e = entries.get(c.id());
        if (e == null) return c.stmts().isEmpty();
        return e.commitSent() || e.finished() || (e.allDone() && !e.rollbackSent() && !e.abortRequested());
    }

    /** Whether some committed transaction other than {@code t}, with barrier below {@code barrier}, is not done here. */
    private boolean committedBefore(long barrier, Txn<S> t, Collection<Txn<S>> live) {
        for (Txn<S> c : live) {
            if (c != t && c.committed() && c.barrier() < barrier && !queriesDone(c)) return true;
        }
        return false;
    }

    /**
     * Whether some committed transaction other than {@code t}, with barrier below {@code barrier}, has not committed
     * here yet. A transaction leaves {@code live} only once it finished at every replica.
     */
    private boolean committedBeforeNotCommittedHere(long barrier, Txn<S> t, Collection<Txn<S>> live) {
        for (Txn<S> c : live) {
            if (c == t || !c.committed() || c.barrier() >= barrier) continue;
            PoolEntry<S> e = entries.get(c.id());
            boolean committedHere = e == null ? c.stmts().isEmpty() : e.finished();
            if (!committedHere) return true;
        }
        return false;
    }

    /** The index of the statement of {@code e}'s transaction that may be sent now, or -1. */
    public int nextStatement(PoolEntry<S> e, Collection<Txn<S>> live) {
        Txn<S> t = e.txn();
        if (t.state() == TxState.ABORTED || e.inFlight() || e.commitSent() || e.finished() || e.abortRequested()
                || e.parkedBehindTx() >= 0) {
            return -1;
        }
        List<Stmt<S>> stmts = t.stmts();
        int candidate;
        if (primary) {
            candidate = e.doneCount();
            return candidate < stmts.size() && !e.isSent(candidate) ? candidate : -1;
        }
        if (rules.queryOrdering()) {
            candidate = e.doneCount();
            if (candidate >= stmts.size() || e.isSent(candidate)) return -1;
        } else {
            // deliberately broken rule for the simulation: latest answered statement first
            candidate = -1;
            for (int i = stmts.size() - 1; i >= 0; i--) {
                if (!e.isSent(i) && stmts.get(i).answeredByPrimary()) {
                    candidate = i;
                    break;
                }
            }
            if (candidate < 0) return -1;
        }
        Stmt<S> q = stmts.get(candidate);
        if (!q.answeredByPrimary()) return -1;
        if (commitGated) {
            if (committedBeforeNotCommittedHere(q.barrier(), t, live)) return -1;
        } else if (rules.transactionOrdering() && committedBefore(q.barrier(), t, live)) {
            return -1;
        }
        return candidate;
    }

    /**
     * Whether the COMMIT of committed transaction {@code t} may be sent here now: never before it is durable (a replica
     * must not commit what a restarted shepherd could not replay on the others).
     */
    public boolean commitReady(PoolEntry<S> e, Collection<Txn<S>> live) {
        Txn<S> t = e.txn();
        if (!t.committed() || !t.durable() || e.commitSent() || e.finished() || e.inFlight() || e.abortRequested()
                || e.parkedBehindTx() >= 0) {
            return false;
        }
        if (!e.allDone()) return false;
        if (primary) return true;
        return !rules.commitOrdering() || !committedBefore(t.barrier(), t, live);
    }

    /**
     * Ready to commit T (seed 3.3): all of T's queries are done here and all queries of every transaction
     * ordered before T (every committed one) too.
     */
    public boolean readyToCommit(Txn<S> t, Collection<Txn<S>> live) {
        PoolEntry<S> e = entries.get(t.id());
        if (e == null || e.inFlight() || e.abortRequested() || e.rollbackSent() || e.parkedBehindTx() >= 0) return false;
        if (!e.allDone()) return false;
        for (Txn<S> c : live) {
            if (c != t && c.committed() && !queriesDone(c)) return false;
        }
        return true;
    }

    /** Whether {@code e} holds a replica connection: it started here in this attempt and did not end here yet. */
    private static boolean holdsConnection(PoolEntry<?> e) {
        return e.started() && !e.finished();
    }

    /** Transactions holding a connection of this replica now. */
    public int connectionsHeld() {
        int n = 0;
        for (PoolEntry<S> e : entries.values()) {
            if (holdsConnection(e)) n++;
        }
        return n;
    }

    /** Transactions holding a connection that they are about to give back (being rolled back here). */
    public int connectionsBeingReleased() {
        int n = 0;
        for (PoolEntry<S> e : entries.values()) {
            if (holdsConnection(e) && (e.abortRequested() || e.rollbackSent() || e.txn().state() == TxState.ABORTED)) n++;
        }
        return n;
    }

    /**
     * The committed transaction with the lowest barrier whose next statement may be sent here now but that has not
     * started here (it needs a connection), or null.
     */
    public PoolEntry<S> firstCommittedToStart(Collection<Txn<S>> live) {
        PoolEntry<S> first = null;
        for (PoolEntry<S> e : entries.values()) {
            Txn<S> t = e.txn();
            if (!t.committed() || e.started() || (first != null && first.txn().barrier() <= t.barrier())) continue;
            if (nextStatement(e, live) >= 0) first = e;
        }
        return first;
    }

    /**
     * The transaction to roll back here so that committed transaction {@code t} gets its connection: one ordered
     * after {@code t} (not committed, or committed with a higher barrier) that holds a connection and whose COMMIT was
     * not sent; uncommitted ones first, then the latest; one without a statement in flight first. Null if none.
     */
    public PoolEntry<S> connectionVictim(Txn<S> t) {
        PoolEntry<S> best = null;
        for (PoolEntry<S> e : entries.values()) {
            Txn<S> v = e.txn();
            if (v == t || !holdsConnection(e) || e.commitSent() || e.abortRequested() || e.rollbackSent()
                    || v.state() == TxState.ABORTED || (v.committed() && v.barrier() < t.barrier())) {
                continue;
            }
            if (best == null || victimRank(e) > victimRank(best)) best = e;
        }
        return best;
    }

    private static long victimRank(PoolEntry<?> e) {
        Txn<?> t = e.txn();
        long order = t.committed() ? t.barrier() : Long.MAX_VALUE / 4 + t.id();
        return order * 2 + (e.inFlight() ? 0 : 1);
    }

    /** Committed transactions whose COMMIT has not been sent here yet, lowest barrier first. */
    public List<PoolEntry<S>> pendingCommits() {
        List<PoolEntry<S>> out = new ArrayList<>();
        for (PoolEntry<S> e : entries.values()) {
            if (e.txn().committed() && !e.commitSent() && !e.finished()) out.add(e);
        }
        out.sort((a, b) -> Long.compare(a.txn().barrier(), b.txn().barrier()));
        return out;
    }
}
