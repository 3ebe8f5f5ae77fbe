package org.shepherd.tpcc.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time used by the processes of one run, grouped by role (client, shepherd, databases), between
 * {@link #start()} and {@link #stop()}: tells whether a configuration was limited by the databases' quota or by
 * the middleware's own CPU. A process's own time only: the benchmark's JVM is the parent of everything else.
 */
final class CpuMeter {

    /** CPU used by one role in the measured window. */
    record Usage(double cpuSeconds, double cores) {
    }

    private final Map<String, List<ProcessHandle>> roles;
    private final Map<String, Long> startNanos = new LinkedHashMap<>();
    private long wallStartNanos;
    private final Map<String, Usage> usage = new LinkedHashMap<>();

    CpuMeter(Map<String, List<ProcessHandle>> roles) {
        this.roles = roles;
    }

    synchronized void start() {
        wallStartNanos = System.nanoTime();
        roles.forEach((role, processes) -> startNanos.put(role, cpuNanos(processes)));
    }

    synchronized void stop() {
        if (startNanos.isEmpty()) return; // the window never started (the run ended early)
        double wallS = (System.nanoTime() - wallStartNanos) / 1e9;
        roles.forEach((role, processes) -> {
            double cpuS = (cpuNanos(processes) - startNanos.get(role)) / 1e9;
            usage.put(role, new Usage(cpuS, wallS > 0 ? cpuS / wallS : 0));
        });
    }

    synchronized Map<String, Usage> usage() {
        return new LinkedHashMap<>(usage);
    }

    private static long cpuNanos(List<ProcessHandle> processes) {
        long total = 0;
        for (ProcessHandle p : processes) total += cpuNanos(p);
        return total;
    }

    private static long cpuNanos(ProcessHandle p) {
        return p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }
}
