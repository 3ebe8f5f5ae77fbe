package org.shepherd.replica.setup;

/**
 * When a secondary replica may run a statement Q of the commit-barrier schedule (seed 001 §3.3), given the
 * transactions T that committed at the primary with T.b &lt;= Q.b.
 */
public enum StatementGate {
    /**
     * The paper's rule: every statement of those transactions is <em>executed</em> at this replica. Correct for
     * strict two-phase locking replicas, whose locks make Q wait for anything it conflicts with.
     */
    PREDECESSORS_EXECUTED,
    /**
     * Those transactions are <em>committed</em> at this replica. Needed by replicas whose reads do not block on
     * uncommitted writes (PostgreSQL): Q then reads a snapshot that holds every write ordered before it.
     */
    PREDECESSORS_COMMITTED
}
