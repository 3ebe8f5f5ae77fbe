package org.shepherd.time;

import java.util.ArrayDeque;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production {@link Scheduler}: events run one at a time in submission order, wall-clock timers.
 *
 * <p>An event runs on the thread that submits it when no other event is running, and otherwise is queued for the
 * thread that is running events: a statement's trip through the core then costs no thread hand-off (a client's
 * request and a replica's answer are handled by the thread that brings them). A thread runs at most
 * {@link #INLINE_EVENTS_MAX} events in a row before it passes the rest of the queue to the scheduler's own thread,
 * so that no client or replica worker is held up for long by others' events. Timers fire on that thread too.
 */
public final class ExecutorScheduler implements Scheduler, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ExecutorScheduler.class);
    /** Events one submitting thread runs in a row at most before it hands the queue to the scheduler thread. */
    static final int INLINE_EVENTS_MAX = 64;

    private final ScheduledExecutorService executor;
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private boolean running;
    private boolean closed;

    public ExecutorScheduler(String threadName) {
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void execute(Runnable task) {
        synchronized (queue) {
            if (closed) throw new RejectedExecutionException("the scheduler is closed");
            queue.add(task);
            if (running) return;
            running = true;
        }
        drain(INLINE_EVENTS_MAX);
    }

    /** Runs queued events until the queue is empty or {@code budget} ran; then hands the rest to the own thread. */
    private void drain(int budget) {
        for (int ran = 0; ; ran++) {
            Runnable next;
            synchronized (queue) {
                next = queue.poll();
                if (next == null || closed) {
                    running = false;
                    return;
                }
                if (ran == budget) {
                    queue.addFirst(next);
                    try {
                        executor.execute(() -> drain(Integer.MAX_VALUE));
                    } catch (RejectedExecutionException e) {
                        running = false;
                    }
                    return;
                }
            }
            runGuarded(next);
        }
    }

    @Override
    public Timer schedule(long delayMs, Runnable task) {
        ScheduledFuture<?> f = executor.schedule(() -> {
            try {
                execute(task);
            } catch (RejectedExecutionException closing) {
                // the scheduler closed between the timer firing and its event: nothing is waiting for it
            }
        }, delayMs, TimeUnit.MILLISECONDS);
        return () -> f.cancel(false);
    }

    @Override
    public Clock clock() {
        return Clock.SYSTEM;
    }

    private static void runGuarded(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | AssertionError e) {
            LOG.error("core event failed", e);
        }
    }

    @Override
    public void close() {
        synchronized (queue) {
            closed = true;
            queue.clear();
        }
        executor.shutdownNow();
    }
}
