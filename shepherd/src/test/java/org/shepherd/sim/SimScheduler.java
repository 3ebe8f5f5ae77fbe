package org.shepherd.sim;

import java.util.PriorityQueue;
import org.shepherd.time.Clock;
import org.shepherd.time.Scheduler;

/** A discrete-event scheduler: simulated milliseconds, events ordered by (time, submission order). */
final class SimScheduler implements Scheduler {

    private static final class Event implements Comparable<Event> {
        final long at;
        final long seq;
        final Runnable task;
        boolean cancelled;

        Event(long at, long seq, Runnable task) {
            this.at = at;
            this.seq = seq;
            this.task = task;
        }

        @Override
        public int compareTo(Event o) {
            return at != o.at ? Long.compare(at, o.at) : Long.compare(seq, o.seq);
        }
    }

    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private long now;
    private long seq;
    private long steps;

    @Override
    public void execute(Runnable task) {
        queue.add(new Event(now, seq++, task));
    }

    @Override
    public Timer schedule(long delayMs, Runnable task) {
        Event e = new Event(now + Math.max(0, delayMs), seq++, task);
        queue.add(e);
        return () -> e.cancelled = true;
    }

    @Override
    public Clock clock() {
        return () -> now;
    }

    long now() {
        return now;
    }

    long steps() {
        return steps;
    }

    /** Runs the next event; false when none is left. */
    boolean step() {
        while (true) {
            Event e = queue.poll();
            if (e == null) return false;
            if (e.cancelled) continue;
            now = e.at;
            steps++;
            e.task.run();
            return true;
        }
    }
}
