package org.shepherd.time;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The production {@link Scheduler}: one daemon thread, wall-clock time. */
public final class ExecutorScheduler implements Scheduler, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ExecutorScheduler.class);

    private final ScheduledExecutorService executor;

    public ExecutorScheduler(String threadName) {
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void execute(Runnable task) {
        executor.execute(guarded(task));
    }

    @Override
    public Timer schedule(long delayMs, Runnable task) {
        ScheduledFuture<?> f = executor.schedule(guarded(task), delayMs, TimeUnit.MILLISECONDS);
        return () -> f.cancel(false);
    }

    @Override
    public Clock clock() {
        return Clock.SYSTEM;
    }

    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException | AssertionError e) {
                LOG.error("core event failed", e);
            }
        };
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
