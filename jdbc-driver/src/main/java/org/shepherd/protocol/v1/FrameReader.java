package org.shepherd.protocol.v1;

import java.nio.ByteBuffer;

/**
 * Incremental frame decoder: feed it byte chunks of any size as they arrive, take complete messages out.
 * A length field that is negative, zero or over the maximum is rejected as soon as its four bytes are in,
 * before anything is buffered for it, so memory stays bounded by the maximum frame size. Not thread-safe.
 */
public final class FrameReader {

    private static final int INITIAL_BYTES = 8192;
    /** {@link #trim()} gives memory back only above this, so that steady streaming does not reallocate. */
    private static final int KEEP_BYTES = 1024 * 1024;

    private final int maxFrameBytes;
    private byte[] buf = new byte[INITIAL_BYTES];
    private int start;
    private int end;

    public FrameReader(int maxFrameBytes) {
        if (maxFrameBytes < 1) throw new IllegalArgumentException("maxFrameBytes must be >= 1");
        this.maxFrameBytes = maxFrameBytes;
    }

    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /** Appends {@code len} bytes of {@code chunk}. */
    public void feed(byte[] chunk, int off, int len) {
        makeRoom(len);
        System.arraycopy(chunk, off, buf, end, len);
        end += len;
    }

    /** Appends every remaining byte of {@code chunk} (its position moves to its limit). */
    public void feed(ByteBuffer chunk) {
        int len = chunk.remaining();
        makeRoom(len);
        chunk.get(buf, end, len);
        end += len;
    }

    /** Bytes received but not yet returned as messages. */
    public int buffered() {
        return end - start;
    }

    /**
     * The next complete message, or null when more bytes are needed.
     *
     * @throws ProtocolException for a bad length, an unknown type or a payload that does not parse; the stream
     *     cannot be resynchronised afterwards
     */
    public Message next() throws ProtocolException {
        int avail = end - start;
        if (avail < 4) return null;
        int length = ((buf[start] & 0xff) << 24) | ((buf[start + 1] & 0xff) << 16) | ((buf[start + 2] & 0xff) << 8)
                | (buf[start + 3] & 0xff);
        MessageCodec.checkLength(length, maxFrameBytes);
        if (avail - 4 < length) return null;
        int type = buf[start + 4] & 0xff;
        ByteBuffer payload = ByteBuffer.wrap(buf, start + 5, length - 1);
        start += 4 + length;
        if (start == end) {
            start = 0;
            end = 0;
        }
        return MessageCodec.decode(type, payload);
    }

    private void makeRoom(int len) {
        if (end + len <= buf.length) return;
        int live = end - start;
        if (live + len <= buf.length && start > 0) {
            System.arraycopy(buf, start, buf, 0, live);
        } else {
            long wanted = Math.max((long) buf.length * 2, (long) live + len);
            if (wanted > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("chunk too large");
            byte[] bigger = new byte[(int) wanted];
            System.arraycopy(buf, start, bigger, 0, live);
            buf = bigger;
        }
        start = 0;
        end = live;
    }

    /** Gives back memory held for a large frame (over 1 MiB) once the buffer is empty. */
    public void trim() {
        if (start == end && buf.length > KEEP_BYTES) {
            buf = new byte[INITIAL_BYTES];
            start = 0;
            end = 0;
        }
    }
}
