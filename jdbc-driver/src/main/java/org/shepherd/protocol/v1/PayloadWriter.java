package org.shepherd.protocol.v1;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.shepherd.protocol.ValueEncoding;

/** Big-endian writer of one frame into a growable array; the frame header is patched in by {@link #finish()}. */
final class PayloadWriter implements ValueEncoding.Output<RuntimeException> {

    private byte[] buf;
    private int pos;

    PayloadWriter(MessageType type, int initialBytes) {
        buf = new byte[Math.max(initialBytes, 64)];
        pos = 4; // length, patched by finish()
        writeByte(type.code());
    }

    private void ensure(int more) {
        if (pos + more > buf.length) {
            long wanted = Math.max((long) buf.length * 2, (long) pos + more);
            if (wanted > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("message too large to encode: " + wanted + " bytes");
            }
            buf = Arrays.copyOf(buf, (int) wanted);
        }
    }

    @Override
    public void writeByte(int b) {
        ensure(1);
        buf[pos++] = (byte) b;
    }

    @Override
    public void writeBoolean(boolean b) {
        writeByte(b ? 1 : 0);
    }

    @Override
    public void writeInt(int v) {
        ensure(4);
        buf[pos++] = (byte) (v >>> 24);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
    }

    @Override
    public void writeLong(long v) {
        writeInt((int) (v >>> 32));
        writeInt((int) v);
    }

    @Override
    public void writeBytes(byte[] b) {
        writeInt(b.length);
        ensure(b.length);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
    }

    @Override
    public void writeString(String s) {
        if (s == null) throw new IllegalArgumentException("null in a string field that is not nullable (use \"\")");
        writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    /** A string that may be null: a presence byte, then the string. */
    void writeNullableString(String s) {
        writeBoolean(s != null);
        if (s != null) writeString(s);
    }

    void writeValue(Object value) {
        ValueEncoding.write(this, value);
    }

    /** The whole frame, length field filled in. */
    byte[] finish() {
        int length = pos - 4;
        buf[0] = (byte) (length >>> 24);
        buf[1] = (byte) (length >>> 16);
        buf[2] = (byte) (length >>> 8);
        buf[3] = (byte) length;
        return buf.length == pos ? buf : Arrays.copyOf(buf, pos);
    }
}
