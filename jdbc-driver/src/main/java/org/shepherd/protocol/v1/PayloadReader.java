package org.shepherd.protocol.v1;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.shepherd.protocol.ValueEncoding;

/**
 * Strict big-endian reader of one payload. Every length is checked against the bytes actually present before
 * anything is allocated, so a garbled length can never cause an OutOfMemoryError.
 */
final class PayloadReader implements ValueEncoding.Input<ProtocolException> {

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

    @Override
    public boolean readBoolean() throws ProtocolException {
        int b = readByte();
        if (b > 1) throw new ProtocolException("boolean byte must be 0 or 1, got " + b);
        return b == 1;
    }

    @Override
    public int readInt() throws ProtocolException {
        need(4, "int32");
        return in.getInt();
    }

    @Override
    public long readLong() throws ProtocolException {
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

    @Override
    public byte[] readBytes() throws ProtocolException {
        int n = readCount("byte", 1);
        byte[] b = new byte[n];
        in.get(b);
        return b;
    }

    @Override
    public String readString() throws ProtocolException {
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
        return ValueEncoding.read(this);
    }

    @Override
    public int readUnsignedByte() throws ProtocolException {
        return readByte();
    }

    @Override
    public ProtocolException invalid(String message, Throwable cause) {
        return new ProtocolException(message, cause);
    }
}
