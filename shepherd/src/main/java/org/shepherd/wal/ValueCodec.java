package org.shepherd.wal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.shepherd.protocol.ValueType;

/**
 * The on-disk encoding of one value: its {@link ValueType} tag (one byte) followed by a fixed binary form, big-endian.
 * Used by the write-ahead log (statement parameters) and by the files that held results spill to.
 *
 * <pre>
 *  NULL          (nothing)
 *  BOOLEAN       u8 0|1
 *  LONG          i64
 *  DECIMAL       i32 scale, u32 n, n bytes of the unscaled value (two's complement, BigInteger.toByteArray)
 *  DOUBLE        i64 raw IEEE 754 bits
 *  STRING        u32 n, n bytes of UTF-8
 *  BYTES         u32 n, n bytes
 *  DATE          i64 epoch day
 *  TIME          i64 nano of day
 *  TIMESTAMP     i64 epoch day, i64 nano of day
 *  TIMESTAMP_TZ  i64 epoch day, i64 nano of day, i32 offset seconds
 * </pre>
 */
public final class ValueCodec {

    private ValueCodec() {
    }

    /** Writes {@code value}, which must be in {@link ValueType} representation (IllegalArgumentException otherwise). */
    public static void writeValue(DataOutput out, Object value) throws IOException {
        ValueType t = ValueType.of(value);
        out.writeByte(t.tag());
        switch (t) {
            case NULL:
                break;
            case BOOLEAN:
                out.writeBoolean((Boolean) value);
                break;
            case LONG:
                out.writeLong((Long) value);
                break;
            case DECIMAL: {
                BigDecimal d = (BigDecimal) value;
                out.writeInt(d.scale());
                writeBytes(out, d.unscaledValue().toByteArray());
                break;
            }
            case DOUBLE:
                out.writeLong(Double.doubleToRawLongBits((Double) value));
                break;
            case STRING:
                writeBytes(out, ((String) value).getBytes(StandardCharsets.UTF_8));
                break;
            case BYTES:
                writeBytes(out, (byte[]) value);
                break;
            case DATE:
                out.writeLong(((LocalDate) value).toEpochDay());
                break;
            case TIME:
                out.writeLong(((LocalTime) value).toNanoOfDay());
                break;
            case TIMESTAMP: {
                LocalDateTime ts = (LocalDateTime) value;
                out.writeLong(ts.toLocalDate().toEpochDay());
                out.writeLong(ts.toLocalTime().toNanoOfDay());
                break;
            }
            case TIMESTAMP_TZ: {
                OffsetDateTime ts = (OffsetDateTime) value;
                out.writeLong(ts.toLocalDate().toEpochDay());
                out.writeLong(ts.toLocalTime().toNanoOfDay());
                out.writeInt(ts.getOffset().getTotalSeconds());
                break;
            }
            default:
                throw new IllegalStateException("no encoding for " + t);
        }
    }

    /** Reads one value written by {@link #writeValue}; IOException when the bytes are not one. */
    public static Object readValue(DataInput in) throws IOException {
        int tag = in.readUnsignedByte();
        try {
            return readValue(in, ValueType.ofTag(tag));
        } catch (IllegalArgumentException | DateTimeException e) {
            throw new IOException("not an encoded value (tag " + tag + "): " + e.getMessage(), e);
        }
    }

    private static Object readValue(DataInput in, ValueType t) throws IOException {
        switch (t) {
            case NULL:
                return null;
            case BOOLEAN:
                return in.readBoolean();
            case LONG:
                return in.readLong();
            case DECIMAL: {
                int scale = in.readInt();
                return new BigDecimal(new BigInteger(readBytes(in)), scale);
            }
            case DOUBLE:
                return Double.longBitsToDouble(in.readLong());
            case STRING:
                return new String(readBytes(in), StandardCharsets.UTF_8);
            case BYTES:
                return readBytes(in);
            case DATE:
                return LocalDate.ofEpochDay(in.readLong());
            case TIME:
                return LocalTime.ofNanoOfDay(in.readLong());
            case TIMESTAMP: {
                LocalDate d = LocalDate.ofEpochDay(in.readLong());
                return LocalDateTime.of(d, LocalTime.ofNanoOfDay(in.readLong()));
            }
            case TIMESTAMP_TZ: {
                LocalDate d = LocalDate.ofEpochDay(in.readLong());
                LocalTime time = LocalTime.ofNanoOfDay(in.readLong());
                return OffsetDateTime.of(d, time, ZoneOffset.ofTotalSeconds(in.readInt()));
            }
            default:
                throw new IllegalStateException("no decoding for " + t);
        }
    }

    private static void writeBytes(DataOutput out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static byte[] readBytes(DataInput in) throws IOException {
        int length = in.readInt();
        if (length < 0) throw new IOException("negative length " + length);
        byte[] b = new byte[length];
        in.readFully(b);
        return b;
    }
}
