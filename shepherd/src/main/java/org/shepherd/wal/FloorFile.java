package org.shepherd.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The file {@value #NAME} in the log's directory: the released floor, recorded before any segment is deleted, so that a
 * restarted shepherd knows which barriers the log may no longer hold. Replaced whole (written beside, forced, renamed),
 * so a crash leaves the old floor or the new one.
 *
 * <pre>
 *  "SHFLR" 0x00 u16 version | i64 floor barrier | u32 CRC32C of the 16 bytes before      (20 bytes)
 * </pre>
 */
final class FloorFile {

    static final String NAME = "floor";
    static final String TEMPORARY_NAME = "floor.tmp";

    private static final byte[] MAGIC = {'S', 'H', 'F', 'L', 'R', 0, 0, WalFormat.VERSION};
    private static final int FILE_BYTES = 20;

    private FloorFile() {
    }

    /** The recorded floor, -1 when none was recorded. */
    static long read(Path dir) throws IOException {
        Path file = dir.resolve(NAME);
        if (!Files.exists(file)) return -1;
        byte[] bytes = Files.readAllBytes(file);
        if (bytes.length != FILE_BYTES || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new WalDamagedException(file, 0, "not a floor file of format version " + WalFormat.VERSION + " ("
                    + bytes.length + " bytes)");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (b.getInt(16) != WalFormat.crc32c(bytes, 0, 16)) throw new WalDamagedException(file, 8, "the floor fails its CRC");
        return b.getLong(8);
    }

    /** Records {@code floorBarrier}; forced (the file and the directory) when {@code sync}. */
    static void write(Path dir, long floorBarrier, boolean sync) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(FILE_BYTES);
        b.put(MAGIC).putLong(floorBarrier).putInt(WalFormat.crc32c(b.array(), 0, 16)).flip();
        Path temporary = dir.resolve(TEMPORARY_NAME);
        try (FileChannel ch = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            while (b.hasRemaining()) ch.write(b);
            if (sync) ch.force(true);
        }
        Files.move(temporary, dir.resolve(NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        if (sync) WalFormat.forceDirectory(dir);
    }
}
