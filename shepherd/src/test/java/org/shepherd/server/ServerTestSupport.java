package org.shepherd.server;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.shepherd.config.ConfigException;
import org.shepherd.config.ShepherdConfig;

/** Servers over an in-memory Derby replica, and bounded waits. */
final class ServerTestSupport {

    static final String USER = "app";
    static final String PASSWORD = "s3cret-pw";
    static final long WAIT_MS = 20_000;

    private static final AtomicInteger DB = new AtomicInteger();

    private ServerTestSupport() {
    }

    /** Passthrough over a fresh in-memory Derby database, listening on a free loopback port. */
    static Map<String, String> configMap() {
        Map<String, String> m = new TreeMap<>();
        m.put("mode", "passthrough");
        m.put("listen", "127.0.0.1:0");
        m.put("user." + USER + ".password", PASSWORD);
        m.put("replica.r1.url", "jdbc:derby:memory:server" + DB.incrementAndGet() + ";create=true");
        m.put("workers.max", "4");
        m.put("io.threads", "2");
        m.put("replica.pool.size.max", "8");
        m.put("shutdown.timeout.ms", "2000");
        return m;
    }

    static ShepherdConfig config(Map<String, String> overrides) throws ConfigException {
        Map<String, String> m = configMap();
        m.putAll(overrides);
        return ShepherdConfig.fromMap(m);
    }

    /** Waits until the condition holds, at most {@link #WAIT_MS}; returns whether it held. */
    static boolean await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT_MS * 1_000_000L;
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) return true;
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return condition.getAsBoolean();
    }

    static int liveThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).count();
    }
}
