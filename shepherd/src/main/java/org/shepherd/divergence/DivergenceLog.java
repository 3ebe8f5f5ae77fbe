package org.shepherd.divergence;

import java.util.ArrayDeque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every replica answer that differed from the accepted one, masked or not: a bounded in-memory list (oldest
 * dropped first) plus one WARN line per report. Thread-safe.
 */
public final class DivergenceLog {

    private static final Logger LOG = LoggerFactory.getLogger(DivergenceLog.class);
    public static final int DEFAULT_CAPACITY = 1000;

    private final int capacity;
    private final ArrayDeque<Divergence> entries = new ArrayDeque<>();
    private long total;

    public DivergenceLog() {
        this(DEFAULT_CAPACITY);
    }

    public DivergenceLog(int capacity) {
        if (capacity < 1) throw new IllegalArgumentException("capacity must be >= 1");
        this.capacity = capacity;
    }

    public void report(Divergence d) {
        LOG.warn("divergence: replica {} answered [{}] where [{}] was accepted; tx {} statement {} ({}){}", d.replica(),
                d.actual(), d.accepted(), d.txId(), d.statementIndex(), d.statement(), d.masked() ? "; masked" : "");
        synchronized (this) {
            if (entries.size() == capacity) entries.removeFirst();
            entries.addLast(d);
            total++;
        }
    }

    /** The retained reports, oldest first. */
    public synchronized List<Divergence> snapshot() {
        return List.copyOf(entries);
    }

    /** How many reports were made since start (including those no longer retained). */
    public synchronized long total() {
        return total;
    }
}
