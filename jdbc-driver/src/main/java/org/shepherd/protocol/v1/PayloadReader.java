package org.shepherd.protocol.v1;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.shepherd.protocol.ValueType;

/**
 * Strict big-endian reader of one payload. Every length is checked against the bytes actually present before
 * anything is allocated, so a garbled length can never cause an OutOfMemoryError.
 */
final class PayloadReader {

    private static final int MAX_DECIMAL_SCALE_ABS = 100_000;

    private final ByteBuffer in;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);

    PayloadReader(ByteBuffer in) {
        this.in = in;
    }

    int remaining() {
        return in.remaining();
    }

    private void need(long bytes, String what) throws ProtocolException {
        if (bytes > in.remaining()) {
            throw new ProtocolException("truncated payload: " + what + " needs " + bytes + " bytes, " + in.remaining()
                    + " left");
        }
    }

    int readByte() throws ProtocolException {
        need(1, "byte");
        return in.get() & 0xff;
    }

    boolean readBoolean() throws ProtocolException {
        int b = readByte();
        if (b > 1) throw new ProtocolException("boolean byte must be 0 or 1, got " + b);
        return b == 1;
    }

    int readInt() throws ProtocolException {
        need(4, "int32");
        return in.getInt();
    }

    long readLong() throws ProtocolException {
        need(8, "int64");
        return in.getLong();
    }

    /**
     * A count of elements that take at least {@code minBytesEach} bytes each: checked against what is left, so
     * callers may size collections from it.
     */
    int readCount(String what, int minBytesEach) throws ProtocolException {
        int n = readInt();
        if (n < 0) throw new ProtocolException("negative " + what + " count " + n);
        need((long) n * minBytesEach, n + " " + what);
        return n;
    }

    byte[] readBytes() throws ProtocolException {
        int n = readCount("byte", 1);
        byte[] b = new byte[n];
        in.get(b);
        return b;
    }

    String readString() throws ProtocolException {
        int n = readCount("string byte", 1);
        if (in.hasArray()) {
            int at = in.arrayOffset() + in.position();
            String fast = new String(in.array(), at, n, StandardCharsets.UTF_8);
            // lenient decoding marks bad bytes with U+FFFD: only then is the strict decoder needed to tell
            if (fast.indexOf('\uFFFD') < 0) {
                in.position(in.position() + n);
                return fast;
            }
        }
        ByteBuffer slice = in.slice();
        slice.limit(n);
        try {
            String s = utf8.decode(slice).toString();
            in.position(in.position() + n);
            return s;
        } catch (CharacterCodingException e) {
            throw new ProtocolException("string is not valid UTF-8", e);
        }
    }

    String readNullableString() throws ProtocolException {
        return readBoolean() ? readString() : null;
    }

    Object readValue() throws ProtocolException {
        int tag = readByte();
        ValueType t;
        try {
            t = ValueType.ofTag(tag);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("unknown value tag " + tag);
        }
        try {
            switch (t) {
                case NULL:
                    return null;
                case BOOLEAN:
                    return readBoolean();
                case LONG:
                    return readLong();
                case DECIMAL: {
                    int scale = readInt();
                    if (Math.abs((long) scale) > MAX_DECIMAL_SCALE_ABS) {
                        throw new ProtocolException("decimal scale out of range: " + scale);
                    }
                    byte[] unscaled = readBytes();
                    if (unscaled.length == 0) throw new ProtocolException("decimal with no digits");
                    return new BigDecimal(new BigInteger(unscaled), scale);
                }
                case DOUBLE:
                    return Double.longBitsToDouble(readLong());
                case STRING:
                    return readString();
                case BYTES:
                    return readBytes();
                case DATE:
                    return LocalDate.ofEpochDay(readLong());
                case TIME:
                    return LocalTime.ofNanoOfDay(readLong());
                case TIMESTAMP:
                    return LocalDateTime.of(LocalDate.ofEpochDay(readLong()), LocalTime.ofNanoOfDay(readLong()));
                case TIMESTAMP_TZ: {
                    LocalDate d = LocalDate.ofEpochDay(readLong());
                    LocalTime time = LocalTime.ofNanoOfDay(readLong());
                    return OffsetDateTime.of(d, time, ZoneOffset.ofTotalSeconds(readInt()));
                }
                default:
                    throw new ProtocolException("no decoding for value type " + t);
            }
        } catch (java.time.DateTimeException e) {
            throw new ProtocolException("invalid " + t + " value: " + e.getMessage(), e);
        }
    }
}
