package org.shepherd.schedule;

import java.util.Locale;

/** How transactions are scheduled on the replicas (docs/cbs.md, "Modes"). */
public enum ExecutionMode {
    /** Commit barrier scheduling: secondaries run concurrent transactions as the primary allowed them. */
    CBS,
    /** A transaction reaches the secondaries only once its COMMIT was requested, one transaction at a time. */
    SS,
    /** One transaction at a time on all replicas. */
    SERIAL;

    public static ExecutionMode parse(String name) {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
    }
}
