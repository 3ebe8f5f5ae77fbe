package org.shepherd.tpcc.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A cgroup v1 {@code cpu} group that limits the processes in it to {@code percent} of one CPU (CFS quota), so that
 * every database process of a benchmark gets the same share of a small machine. A group that used its quota stops
 * until the period ends: the shorter the period, the shorter and more frequent the stops. Removed on {@link #close()}.
 */
final class CpuQuota implements AutoCloseable {

    static final Path CPU_ROOT = Path.of("/sys/fs/cgroup/cpu");

    private final Path dir;
    private final Path root;

    private CpuQuota(Path root, Path dir) {
        this.root = root;
        this.dir = dir;
    }

    /**
     * Creates the group under {@code root}, or returns empty (and says why on {@code log}) when cgroup v1 cpu is
     * not writable here; the benchmark then runs without quotas.
     */
    static Optional<CpuQuota> create(Path root, String name, int percent, int periodMs, PrintStream log) {
        if (percent <= 0) return Optional.empty();
        Path dir = root.resolve(name);
        try {
            Files.createDirectories(dir);
            long periodUs = periodMs * 1000L;
            write(dir.resolve("cpu.cfs_period_us"), Long.toString(periodUs));
            write(dir.resolve("cpu.cfs_quota_us"), Long.toString(periodUs * percent / 100));
            return Optional.of(new CpuQuota(root, dir));
        } catch (IOException | RuntimeException e) {
            log.println("note: no CPU quota for " + name + " (" + root + " not writable: " + e.getMessage()
                + "); processes share the CPUs freely");
            try {
                Files.deleteIfExists(dir);
            } catch (IOException ignored) {
                // nothing was created
            }
            return Optional.empty();
        }
    }

    Path dir() {
        return dir;
    }

    /** Moves a process and all its descendants (e.g. a server forked by a wrapper) into the group. */
    void add(long pid) throws IOException {
        List<Long> pids = Stream.concat(Stream.of(pid), ProcessHandle.of(pid).stream()
            .flatMap(ProcessHandle::descendants).map(ProcessHandle::pid)).collect(Collectors.toList());
        for (long p : pids) write(dir.resolve("cgroup.procs"), Long.toString(p));
    }

    /** Moves what is left back to the parent group and removes the group. */
    @Override
    public void close() {
        try {
            Path procs = dir.resolve("cgroup.procs");
            if (Files.exists(procs)) {
                for (String pid : Files.readAllLines(procs, StandardCharsets.US_ASCII)) {
                    if (!pid.isBlank()) write(root.resolve("cgroup.procs"), pid.trim());
                }
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            System.err.println("note: could not remove cgroup " + dir + ": " + e.getMessage());
        }
    }

    private static void write(Path file, String value) throws IOException {
        Files.writeString(file, value, StandardCharsets.US_ASCII);
    }
}
