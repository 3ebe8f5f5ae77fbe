package org.shepherd.testkit;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Database binaries unpacked from a jar once per machine, under {@code java.io.tmpdir/shepherd-testkit/}, shared by
 * every test JVM: a file lock serializes unpacking, a marker file says it finished.
 */
final class BinaryCache {
    interface Unpacker {
        void unpackInto(Path dir) throws IOException;
    }

    private static final String DONE_MARKER = ".unpacked";

    private BinaryCache() {
    }

    static Path root() throws IOException {
        Path root = Path.of(System.getProperty("java.io.tmpdir"), "shepherd-testkit");
        Files.createDirectories(root);
        // servers that run as an unprivileged user (PostgreSQL under root) must reach their binaries
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        return root;
    }

    /** Synchronized: a JVM may not hold two locks on one file (OverlappingFileLockException). */
    static synchronized Path get(String key, Unpacker unpacker) throws IOException {
        Path dir = root().resolve(key);
        Path lockFile = root().resolve(key + ".lock");
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = channel.lock()) {
            if (Files.exists(dir.resolve(DONE_MARKER))) {
                return dir;
            }
            DatabaseServer.deleteRecursively(dir);
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            unpacker.unpackInto(dir);
            Files.createFile(dir.resolve(DONE_MARKER));
            return dir;
        }
    }
}
