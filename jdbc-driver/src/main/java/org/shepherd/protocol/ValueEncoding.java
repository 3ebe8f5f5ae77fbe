package org.shepherd.protocol;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The one binary form of a {@link ValueType} value: its tag (one byte), then a fixed form, big-endian. Wire protocol v1
 * carries parameters and rows in it, and the shepherd's write-ahead log and spill files store values in it, so the
 * three can never drift apart.
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
public final class ValueEncoding {

    /** Largest decimal scale (either sign) a reader accepts: no database keeps more, and a garbled one is refused. */
    public static final int MAX_DECIMAL_SCALE_ABS = 100_000;

    /**
     * Where values are written: a frame being built, a log record, a spill file.
     *
     * @param <E> what a write may throw
     */
    public interface Output<E extends Exception> {
        void writeByte(int b) throws E;

        void writeBoolean(boolean b) throws E;

        void writeInt(int v) throws E;

        void writeLong(long v) throws E;

        /** u32 n, then the n bytes. */
        void writeBytes(byte[] b) throws E;

        /** u32 n, then the n bytes of the string's UTF-8. */
        void writeString(String s) throws E;
    }

    /**
     * Where values are read from. Each reader checks what it must (a length against the bytes present, a boolean byte
     * being 0 or 1, UTF-8 being valid) and says how a value that is not one is reported.
     *
     * @param <E> what a read may throw, and what {@link #invalid} makes
     */
    public interface Input<E extends Exception> {
        int readUnsignedByte() throws E;

        boolean readBoolean() throws E;

        int readInt() throws E;

        long readLong() throws E;

        /** u32 n, then n bytes. */
        byte[] readBytes() throws E;

        /** u32 n, then n bytes of UTF-8. */
        String readString() throws E;

        /** The exception to throw for bytes that are not a value. */
        E invalid(String message, Throwable cause);
    }

    private ValueEncoding() {
    }

    /** Writes {@code value}, which must be in {@link ValueType} representation (IllegalArgumentException otherwise). */
    public static <E extends Exception> void write(Output<E> out, Object value) throws E {
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
                out.writeBytes(d.unscaledValue().toByteArray());
                break;
            }
            case DOUBLE:
                out.writeLong(Double.doubleToRawLongBits((Double) value));
                break;
            case STRING:
                out.writeString((String) value);
                break;
            case BYTES:
                out.writeBytes((byte[]) value);
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

    /** Reads one value written by {@link #write}; {@link Input#invalid} when the bytes are not one. */
    public static <E extends Exception> Object read(Input<E> in) throws E {
        int tag = in.readUnsignedByte();
        ValueType t;
        try {
            t = ValueType.ofTag(tag);
        } catch (IllegalArgumentException e) {
            throw in.invalid("unknown value tag " + tag, null);
        }
        try {
            switch (t) {
                case NULL:
                    return null;
                case BOOLEAN:
                    return in.readBoolean();
                case LONG:
                    return in.readLong();
                case DECIMAL: {
                    int scale = in.readInt();
                    if (Math.abs((long) scale) > MAX_DECIMAL_SCALE_ABS) throw in.invalid("decimal scale out of range: " + scale, null);
                    byte[] unscaled = in.readBytes();
                    if (unscaled.length == 0) throw in.invalid("decimal with no digits", null);
                    return new BigDecimal(new BigInteger(unscaled), scale);
                }
                case DOUBLE:
                    return Double.longBitsToDouble(in.readLong());
                case STRING:
                    return in.readString();
                case BYTES:
                    return in.readBytes();
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
        } catch (DateTimeException e) {
            throw in.invalid("invalid " + t + " value: " + e.getMessage(), e);
        }
    }
}
