package org.shepherd.server;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Runs one session's tasks one at a time, in submission order, on the shared worker pool. At most
 * {@code queuedMax} tasks wait; while paused (the client does not read its answers) nothing new starts.
 */
final class SerialExecutor {

    private final Executor pool;
    private final int queuedMax;
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private boolean running;
    private boolean paused;
    private boolean draining;

    SerialExecutor(Executor pool, int queuedMax) {
        this.pool = pool;
        this.queuedMax = queuedMax;
    }

    /** False when {@code queuedMax} tasks already wait (the task is not taken). */
    synchronized boolean submit(Runnable task) {
        if (tasks.size() >= queuedMax) return false;
        tasks.add(task);
        schedule();
        return true;
    }

    /** Queues a task even beyond the bound (the session's opening, before any request). */
    synchronized void submitUnbounded(Runnable task) {
        tasks.add(task);
        schedule();
    }

    /** Queues a task even beyond the bound and while paused (used for the final clean-up). */
    synchronized void submitLast(Runnable task) {
        tasks.add(task);
        draining = true;
        paused = false;
        schedule();
    }

    /** Ignored once {@link #submitLast} was called: the clean-up must run whatever the connection's state. */
    synchronized void pause() {
        if (!draining) paused = true;
    }

    synchronized void resume() {
        paused = false;
        schedule();
    }

    /** Nothing running and nothing waiting. */
    synchronized boolean idle() {
        return !running && tasks.isEmpty();
    }

    private void schedule() {
        if (running || paused || tasks.isEmpty()) return;
        running = true;
        try {
            pool.execute(this::runNext);
        } catch (RejectedExecutionException e) {
            running = false;
            throw e;
        }
    }

    private void runNext() {
        Runnable task;
        synchronized (this) {
            task = tasks.poll();
        }
        try {
            if (task != null) task.run();
        } finally {
            synchronized (this) {
                running = false;
                schedule();
            }
        }
    }
}
