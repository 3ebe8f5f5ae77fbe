package org.shepherd.wal;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The write-ahead log is damaged in a way that may have lost commits acknowledged to clients (not merely the unfinished
 * write a crash leaves at its end), so {@link WriteAheadLog#open} refuses it: an operator must restore or remove it
 * knowingly.
 */
public final class WalDamagedException extends IOException {

    private static final long serialVersionUID = 1L;

    private final Path file;
    private final long offsetBytes;

    WalDamagedException(Path file, long offsetBytes, String problem) {
        super("the write-ahead log is damaged: " + file + " at byte offset " + offsetBytes + ": " + problem
                + ". Commits acknowledged to clients may be lost, so the shepherd does not start on this log: restore the"
                + " directory " + file.getParent() + " from a backup, or set the damaged file aside knowingly"
                + " (docs/wal-format.md, \"When the log is damaged\")");
        this.file = file;
        this.offsetBytes = offsetBytes;
    }

    /** The damaged segment file. */
    public Path file() {
        return file;
    }

    /** Where in {@link #file()} the damage starts. */
    public long offsetBytes() {
        return offsetBytes;
    }
}
