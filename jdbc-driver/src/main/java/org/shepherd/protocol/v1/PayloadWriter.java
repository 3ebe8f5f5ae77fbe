package org.shepherd.protocol.v1;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.Arrays;
import org.shepherd.protocol.ValueType;

/** Big-endian writer of one frame into a growable array; the frame header is patched in by {@link #finish()}. */
final class PayloadWriter {

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

    void writeByte(int b) {
        ensure(1);
        buf[pos++] = (byte) b;
    }

    void writeBoolean(boolean b) {
        writeByte(b ? 1 : 0);
    }

    void writeInt(int v) {
        ensure(4);
        buf[pos++] = (byte) (v >>> 24);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
    }

    void writeLong(long v) {
        writeInt((int) (v >>> 32));
        writeInt((int) v);
    }

    void writeBytes(byte[] b) {
        writeInt(b.length);
        ensure(b.length);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
    }

    void writeString(String s) {
        if (s == null) throw new IllegalArgumentException("null in a string field that is not nullable (use \"\")");
        writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    /** A string that may be null: a presence byte, then the string. */
    void writeNullableString(String s) {
        writeBoolean(s != null);
        if (s != null) writeString(s);
    }

    void writeValue(Object value) {
        ValueType t = ValueType.of(value);
        writeByte(t.tag());
        switch (t) {
            case NULL:
                break;
            case BOOLEAN:
                writeBoolean((Boolean) value);
                break;
            case LONG:
                writeLong((Long) value);
                break;
            case DECIMAL: {
                BigDecimal d = (BigDecimal) value;
                writeInt(d.scale());
                writeBytes(d.unscaledValue().toByteArray());
                break;
            }
            case DOUBLE:
                writeLong(Double.doubleToRawLongBits((Double) value));
                break;
            case STRING:
                writeString((String) value);
                break;
            case BYTES:
                writeBytes((byte[]) value);
                break;
            case DATE:
                writeLong(((LocalDate) value).toEpochDay());
                break;
            case TIME:
                writeLong(((LocalTime) value).toNanoOfDay());
                break;
            case TIMESTAMP: {
                LocalDateTime ts = (LocalDateTime) value;
                writeLong(ts.toLocalDate().toEpochDay());
                writeLong(ts.toLocalTime().toNanoOfDay());
                break;
            }
            case TIMESTAMP_TZ: {
                OffsetDateTime ts = (OffsetDateTime) value;
                writeLong(ts.toLocalDate().toEpochDay());
                writeLong(ts.toLocalTime().toNanoOfDay());
                writeInt(ts.getOffset().getTotalSeconds());
                break;
            }
            default:
                throw new IllegalStateException("no encoding for " + t);
        }
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
