package org.shepherd.coordinator.cbs;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * MySQL's named locks (GET_LOCK and the others, {@link org.shepherd.translator.NamedLockCall}), kept by the shepherd for
 * all its sessions: a lock is held by a session, as often as it took it, until it releases it that often or ends.
 * Names are compared without case, as MySQL does.
 */
final class NamedLocks {

    private static final class Holder {
        final Object owner;
        final long ownerId;
        int count;

        Holder(Object owner, long ownerId) {
            this.owner = owner;
            this.ownerId = ownerId;
        }
    }

    private final Map<String, Holder> held = new HashMap<>();

    /** GET_LOCK: 1 once {@code owner} holds the lock, 0 when another holds it past {@code timeoutSeconds} (negative: no limit). */
    synchronized long get(Object owner, long ownerId, String name, double timeoutSeconds) throws InterruptedException {
        String key = name.toLowerCase(Locale.ROOT);
        long deadline = timeoutSeconds < 0 ? Long.MAX_VALUE : System.nanoTime() + (long) (timeoutSeconds * 1e9);
        while (true) {
            Holder h = held.get(key);
            if (h == null) {
                h = new Holder(owner, ownerId);
                held.put(key, h);
            }
            if (h.owner == owner) {
                h.count++;
                return 1;
            }
            long leftNanos = deadline - System.nanoTime();
            if (leftNanos <= 0) return 0;
            long ms = Math.max(1, Math.min(leftNanos / 1_000_000, 1_000));
            wait(ms);
        }
    }

    /** RELEASE_LOCK: 1 when {@code owner} held it, 0 when another does, null when nobody does. */
    synchronized Long release(Object owner, String name) {
        String key = name.toLowerCase(Locale.ROOT);
        Holder h = held.get(key);
        if (h == null) return null;
        if (h.owner != owner) return 0L;
        if (--h.count == 0) {
            held.remove(key);
            notifyAll();
        }
        return 1L;
    }

    /** IS_FREE_LOCK: 1 when nobody holds it, else 0. */
    synchronized long isFree(String name) {
        return held.containsKey(name.toLowerCase(Locale.ROOT)) ? 0 : 1;
    }

    /** IS_USED_LOCK: the holding session's id, or null. */
    synchronized Long holderOf(String name) {
        Holder h = held.get(name.toLowerCase(Locale.ROOT));
        return h == null ? null : h.ownerId;
    }

    /** RELEASE_ALL_LOCKS, and a session's end: the number of times {@code owner} held locks, all released. */
    synchronized long releaseAll(Object owner) {
        long released = 0;
        for (Iterator<Holder> it = held.values().iterator(); it.hasNext();) {
            Holder h = it.next();
            if (h.owner == owner) {
                released += h.count;
                it.remove();
            }
        }
        if (released > 0) notifyAll();
        return released;
    }
}
