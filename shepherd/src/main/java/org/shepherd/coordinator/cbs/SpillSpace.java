package org.shepherd.coordinator.cbs;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The directory where held autocommit results spill, with the disk bound shared by every result
 * ({@code result.spill.bytes.max}). Files left by a shepherd that crashed are deleted when the space opens; files
 * of results still held are deleted when it closes. A temporary space (a coordinator built without a configuration)
 * creates its directory only when a result first spills, and removes it when it closes.
 */
final class SpillSpace implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SpillSpace.class);
    static final String SUFFIX = ".spill";

    /** Null until a temporary space's first spill. */
    private volatile Path dir;
    private final long bytesMax;
    private final boolean temporary;
    private final AtomicLong reserved = new AtomicLong();
    private final Set<SpillingRows> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * @param dir created if missing; leftover {@code *.spill} files in it are deleted
     * @param bytesMax disk bytes all spilled results may take together
     */
    SpillSpace(Path dir, long bytesMax) throws IOException {
        this(bytesMax, false);
        this.dir = Files.createDirectories(dir);
        for (Path leftover : spillFiles()) Files.deleteIfExists(leftover);
    }

    private SpillSpace(long bytesMax, boolean temporary) {
        if (bytesMax < 0) throw new IllegalArgumentException("bytesMax must be >= 0, was " + bytesMax);
        this.bytesMax = bytesMax;
        this.temporary = temporary;
    }

    /**
     * A space in a new temporary directory, created at the first spill and removed on close (for coordinators built
     * without a configuration).
     */
    static SpillSpace temporary(long bytesMax) {
        return new SpillSpace(bytesMax, true);
    }

    /** The directory, or null while a temporary space has spilled nothing. */
    Path dir() {
        return dir;
    }

    private Path createdDir() throws IOException {
        Path d = dir;
        if (d != null) return d;
        synchronized (this) {
            if (dir == null) dir = Files.createTempDirectory("shepherd-spill");
            return dir;
        }
    }

    long bytesMax() {
        return bytesMax;
    }

    /** Bytes reserved by results held now. */
    long reservedBytes() {
        return reserved.get();
    }

    /** Reserves {@code bytes} more disk, or fails with 54000 when the bound would be passed. */
    void reserve(long bytes) throws SQLException {
        while (true) {
            long now = reserved.get();
            if (now + bytes > bytesMax) {
                throw new SQLException("an autocommit result needs more than the " + bytesMax + " bytes of disk that held "
                        + "results may take (result.spill.bytes.max; other sessions' held results count too): raise it, add a"
                        + " WHERE/FETCH FIRST, or read the result inside a transaction (results stream there)", "54000");
            }
            if (reserved.compareAndSet(now, now + bytes)) return;
        }
    }

    void release(long bytes) {
        reserved.addAndGet(-bytes);
    }

    Path newFile() throws IOException {
        if (closed) throw new IOException("the shepherd is shutting down");
        return Files.createTempFile(createdDir(), "result-", SUFFIX);
    }

    void opened(SpillingRows rows) {
        open.add(rows);
    }

    void closed(SpillingRows rows) {
        open.remove(rows);
    }

    /** The spill files present now (for tests and diagnostics). */
    List<Path> spillFiles() throws IOException {
        Path d = dir;
        if (d == null) return List.of();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(d, "*" + SUFFIX)) {
            List<Path> out = new java.util.ArrayList<>();
            files.forEach(out::add);
            return out;
        }
    }

    /** Deletes every held result's file; later reads of those results fail. */
    @Override
    public void close() {
        closed = true;
        for (SpillingRows r : List.copyOf(open)) r.close();
        try {
            for (Path leftover : spillFiles()) Files.deleteIfExists(leftover);
            Path d = dir;
            if (temporary && d != null) Files.deleteIfExists(d);
        } catch (IOException e) {
            LOG.warn("cannot clean the spill directory {}: {}", dir, e.getMessage());
        }
    }
}
