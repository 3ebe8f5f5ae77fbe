package org.shepherd.coordinator.cbs;

/**
 * Lets a session thread run its own transaction's statement on the primary instead of handing it to a replica
 * worker and waiting: the session thread opens a slot for its transaction before it hands the statement to the
 * core; if the core (running on this same thread) sends the statement to the primary, the endpoint puts the JDBC
 * call into the slot and the session thread runs it once the core event is over. A statement whose core event ran
 * on another thread (or any other request) goes to the replica's workers as usual.
 */
final class InlineWork {

    private static final class Slot {
        final long txId;
        Runnable job;

        Slot(long txId) {
            this.txId = txId;
        }
    }

    private static final ThreadLocal<Slot> SLOT = new ThreadLocal<>();

    private InlineWork() {
    }

    static void open(long txId) {
        SLOT.set(new Slot(txId));
    }

    /** Takes {@code job} for the thread that opened a slot for {@code txId}, if this is that thread and it has none yet. */
    static boolean offer(long txId, Runnable job) {
        Slot s = SLOT.get();
        if (s == null || s.txId != txId || s.job != null) return false;
        s.job = job;
        return true;
    }

    /** Closes this thread's slot and returns the job put into it, if any. */
    static Runnable close() {
        Slot s = SLOT.get();
        SLOT.remove();
        return s == null ? null : s.job;
    }
}
