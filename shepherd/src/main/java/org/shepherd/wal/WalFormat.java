package org.shepherd.wal;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.shepherd.protocol.Param;

/**
 * The bytes of the write-ahead log (docs/wal-format.md): segment names, the segment header, frames and the record
 * payload. Big-endian throughout.
 *
 * <pre>
 *  segment  = "SHWAL" 0x00 u16 version, then frames
 *  frame    = u32 payload length | u32 CRC32C(payload) | u32 CRC32C(the 8 bytes before) | payload
 *  payload  = u8 type (1 = committed transaction) | i64 txId | i64 barrier | u32 statement count | statements
 * </pre>
 */
final class WalFormat {

    static final int VERSION = 1;
    static final int SEGMENT_HEADER_BYTES = 8;
    static final int FRAME_HEADER_BYTES = 12;
    /** A record's payload may take at most this many bytes. */
    static final int PAYLOAD_BYTES_MAX = 256 << 20;
    static final int RECORD_TYPE_COMMITTED = 1;
    static final String SUFFIX = ".wal";

    private static final byte[] SEGMENT_HEADER = {'S', 'H', 'W', 'A', 'L', 0, 0, VERSION};
    private static final int MAGIC_BYTES = 6;
    private static final int DIALECT_BYTES_MAX = 0xffff;
    /** Set in a rendering's ignorable-error byte: drop the foreign keys referencing the dropped table first. */
    private static final int DROPS_REFERENCING_KEYS = 0x80;
    private static final int RENDERINGS_MAX = 0xffff;
    private static final Pattern SEGMENT_NAME = Pattern.compile("[0-9]{20}\\.wal");

    private WalFormat() {
    }

    /** {@code <barrier, 20 digits>.wal}: the name of the segment whose first record has this barrier. */
    static String segmentName(long firstBarrier) {
        return String.format("%020d%s", firstBarrier, SUFFIX);
    }

    /** The first barrier a segment file name stands for, or -1 when the name is not a segment's. */
    static long firstBarrierOf(String fileName) {
        if (!SEGMENT_NAME.matcher(fileName).matches()) return -1;
        try {
            return Long.parseLong(fileName.substring(0, 20));
        } catch (NumberFormatException tooBig) {
            return -1;
        }
    }

    static byte[] segmentHeader() {
        return SEGMENT_HEADER.clone();
    }

    /** Why {@code header} (8 bytes) does not start a segment this code can read, or null when it does. */
    static String headerProblem(byte[] header) {
        if (!Arrays.equals(header, 0, MAGIC_BYTES, SEGMENT_HEADER, 0, MAGIC_BYTES)) {
            return "not a write-ahead log segment (the file does not start with \"SHWAL\\0\")";
        }
        int version = ((header[6] & 0xff) << 8) | (header[7] & 0xff);
        if (version != VERSION) return "segment format version " + version + " is unknown (this shepherd reads " + VERSION + ")";
        return null;
    }

    /** Whether {@code bytes} could be the start of a segment header whose writing was cut off (or zeros). */
    static boolean isCutOffHeader(byte[] bytes) {
        boolean zeros = true;
        for (byte b : bytes) zeros &= b == 0;
        return zeros || Arrays.equals(bytes, 0, bytes.length, SEGMENT_HEADER, 0, bytes.length);
    }

    /** Forces {@code dir}'s entries (a file created, renamed or deleted in it) to disk. */
    static void forceDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    static int crc32c(byte[] b, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(b, offset, length);
        return (int) crc.getValue();
    }

    /** The whole frame of {@code r}; IllegalArgumentException when it cannot be written (too big, too many renderings). */
    static byte[] frame(WalRecord r) {
        if (payloadBytesAtLeast(r) > PAYLOAD_BYTES_MAX) throw tooBig();
        FrameBuffer buffer = new FrameBuffer();
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.write(new byte[FRAME_HEADER_BYTES]);
            writePayload(out, r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot happen: the buffer is in memory", e);
        }
        byte[] frame = buffer.toByteArray();
        int payloadBytes = frame.length - FRAME_HEADER_BYTES;
        ByteBuffer header = ByteBuffer.wrap(frame);
        header.putInt(0, payloadBytes);
        header.putInt(4, crc32c(frame, FRAME_HEADER_BYTES, payloadBytes));
        header.putInt(8, crc32c(frame, 0, 8));
        return frame;
    }

    /**
     * No more than the payload of {@code r} takes, counted without encoding it: its SQL texts, strings and byte arrays
     * (a UTF-8 string takes at least one byte per UTF-16 char). A record this bound already puts over
     * {@link #PAYLOAD_BYTES_MAX} is refused before any buffer grows towards that size.
     */
    static long payloadBytesAtLeast(WalRecord r) {
        long bytes = 0;
        for (LoggedStatement s : r.statements()) {
            for (Rendering rendering : s.renderings()) {
                bytes += rendering.dialect().length() + rendering.sql().length();
                for (Param p : rendering.params()) {
                    if (p.value() instanceof byte[] b) {
                        bytes += b.length;
                    } else if (p.value() instanceof String str) {
                        bytes += str.length();
                    }
                }
            }
        }
        return bytes;
    }

    private static IllegalArgumentException tooBig() {
        return new IllegalArgumentException("the record takes more than " + PAYLOAD_BYTES_MAX + " bytes ("
                + (PAYLOAD_BYTES_MAX >> 20) + " MiB), the most one write-ahead log record may take");
    }

    private static void writePayload(DataOutputStream out, WalRecord r) throws IOException {
        out.writeByte(RECORD_TYPE_COMMITTED);
        out.writeLong(r.txId());
        out.writeLong(r.barrier());
        out.writeInt(r.statements().size());
        for (LoggedStatement s : r.statements()) {
            if (s.renderings().size() > RENDERINGS_MAX) {
                throw new IllegalArgumentException("a statement has " + s.renderings().size() + " renderings, at most "
                        + RENDERINGS_MAX + " fit a write-ahead log record");
            }
            out.writeShort(s.renderings().size());
            for (Rendering rendering : s.renderings()) writeRendering(out, rendering);
        }
    }

    private static void writeRendering(DataOutputStream out, Rendering r) throws IOException {
        byte[] dialect = r.dialect().getBytes(StandardCharsets.UTF_8);
        if (dialect.length > DIALECT_BYTES_MAX) {
            throw new IllegalArgumentException("a dialect name takes " + dialect.length + " bytes, at most " + DIALECT_BYTES_MAX);
        }
        out.writeShort(dialect.length);
        out.write(dialect);
        byte[] sql = r.sql().getBytes(StandardCharsets.UTF_8);
        out.writeInt(sql.length);
        out.write(sql);
        out.writeByte(r.ignorable().code() | (r.dropsReferencingKeys() ? DROPS_REFERENCING_KEYS : 0));
        out.writeInt(r.params().size());
        for (Param p : r.params()) {
            out.writeInt(p.jdbcType());
            ValueCodec.writeValue(out, p.value());
        }
    }

    /** The barrier of the record in {@code payload}, without decoding the rest (type byte, txId, then the barrier). */
    static long barrierOf(byte[] payload) {
        return ByteBuffer.wrap(payload).getLong(1 + Long.BYTES);
    }

    /** The record in a frame's payload (whose CRC matched); IOException when the bytes are not a record. */
    static WalRecord decode(byte[] payload) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
        try {
            int type = in.readUnsignedByte();
            if (type != RECORD_TYPE_COMMITTED) throw new IOException("unknown record type " + type);
            long txId = in.readLong();
            long barrier = in.readLong();
            int statementCount = count(in.readInt(), payload.length);
            List<LoggedStatement> statements = new ArrayList<>(statementCount);
            for (int i = 0; i < statementCount; i++) {
                int renderingCount = in.readUnsignedShort();
                List<Rendering> renderings = new ArrayList<>(renderingCount);
                for (int j = 0; j < renderingCount; j++) renderings.add(readRendering(in, payload.length));
                statements.add(new LoggedStatement(renderings));
            }
            if (in.available() > 0) throw new IOException(in.available() + " bytes follow the record in its frame");
            return new WalRecord(txId, barrier, statements);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private static Rendering readRendering(DataInputStream in, int payloadBytes) throws IOException {
        String dialect = new String(readFully(in, in.readUnsignedShort()), StandardCharsets.UTF_8);
        String sql = new String(readFully(in, count(in.readInt(), payloadBytes)), StandardCharsets.UTF_8);
        int flags = in.readUnsignedByte();
        IgnorableError ignorable = IgnorableError.ofCode(flags & ~DROPS_REFERENCING_KEYS);
        int paramCount = count(in.readInt(), payloadBytes);
        List<Param> params = new ArrayList<>(paramCount);
        for (int i = 0; i < paramCount; i++) {
            int jdbcType = in.readInt();
            params.add(new Param(jdbcType, ValueCodec.readValue(in)));
        }
        return new Rendering(dialect, sql, params, ignorable, (flags & DROPS_REFERENCING_KEYS) != 0);
    }

    private static byte[] readFully(DataInputStream in, int length) throws IOException {
        byte[] b = new byte[length];
        in.readFully(b);
        return b;
    }

    /** A count or length read from a payload; it cannot exceed the payload's size. */
    private static int count(int value, int payloadBytes) throws IOException {
        if (value < 0 || value > payloadBytes) {
            throw new IOException("count " + Integer.toUnsignedString(value) + " is impossible in " + payloadBytes + " bytes");
        }
        return value;
    }

    /** A growing byte array that refuses to grow past one frame of {@link #PAYLOAD_BYTES_MAX} payload bytes. */
    private static final class FrameBuffer extends OutputStream {
        private static final int FRAME_BYTES_MAX = FRAME_HEADER_BYTES + PAYLOAD_BYTES_MAX;
        private static final int INITIAL_BYTES = 512;

        private byte[] bytes = new byte[INITIAL_BYTES];
        private int count;

        @Override
        public void write(int b) {
            ensureRoom(1);
            bytes[count++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensureRoom(len);
            System.arraycopy(b, off, bytes, count, len);
            count += len;
        }

        private void ensureRoom(int more) {
            long needed = (long) count + more;
            if (needed > FRAME_BYTES_MAX) throw tooBig();
            if (needed > bytes.length) {
                bytes = Arrays.copyOf(bytes, (int) Math.min(FRAME_BYTES_MAX, Math.max(needed, 2L * bytes.length)));
            }
        }

        byte[] toByteArray() {
            return Arrays.copyOf(bytes, count);
        }
    }
}
