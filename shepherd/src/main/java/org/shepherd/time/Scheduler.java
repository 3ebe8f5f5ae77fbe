package org.shepherd.time;

/**
 * Runs the core's events one at a time, in submission order, and its timers. The coordinator core is not
 * thread-safe: every call into it happens on this scheduler.
 */
public interface Scheduler {

    /**
     * Runs the task after every task submitted before it and never at the same time as another; possibly on the
     * calling thread before this method returns (or in the simulation's event order).
     */
    void execute(Runnable task);

    /** Runs the task after {@code delayMs}; the returned handle cancels it if it has not run yet. */
    Timer schedule(long delayMs, Runnable task);

    /** The clock this scheduler's timers follow. */
    Clock clock();

    /** A scheduled task. */
    interface Timer {
        void cancel();
    }
}
