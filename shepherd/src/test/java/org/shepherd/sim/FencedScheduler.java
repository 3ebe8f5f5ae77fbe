package org.shepherd.sim;

import org.shepherd.time.Clock;
import org.shepherd.time.Scheduler;

/**
 * One shepherd process's view of the simulation's scheduler: once {@link #fence() fenced} (the process crashed), none of
 * its tasks runs any more, including those already queued and its timers. Replicas and clients use the scheduler itself.
 */
final class FencedScheduler implements Scheduler {

    private final Scheduler inner;
    private boolean fenced;

    FencedScheduler(Scheduler inner) {
        this.inner = inner;
    }

    void fence() {
        fenced = true;
    }

    @Override
    public void execute(Runnable task) {
        inner.execute(() -> {
            if (!fenced) task.run();
        });
    }

    @Override
    public Timer schedule(long delayMs, Runnable task) {
        return inner.schedule(delayMs, () -> {
            if (!fenced) task.run();
        });
    }

    @Override
    public Clock clock() {
        return inner.clock();
    }
}
