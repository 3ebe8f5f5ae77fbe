package org.shepherd.wal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.shepherd.protocol.ValueEncoding;

/**
 * One value on disk, in {@link ValueEncoding}'s form (the wire protocol's): the write-ahead log (statement parameters)
 * and the files that held results spill to. This class only adapts Java's data streams to that encoding.
 */
public final class ValueCodec {

    private ValueCodec() {
    }

    /** Writes {@code value}, which must be in {@code ValueType} representation (IllegalArgumentException otherwise). */
    public static void writeValue(DataOutput out, Object value) throws IOException {
        ValueEncoding.write(new Out(out), value);
    }

    /** Reads one value written by {@link #writeValue}; IOException when the bytes are not one. */
    public static Object readValue(DataInput in) throws IOException {
        return ValueEncoding.read(new In(in));
    }

    private record Out(DataOutput out) implements ValueEncoding.Output<IOException> {
        @Override
        public void writeByte(int b) throws IOException {
            out.writeByte(b);
        }

        @Override
        public void writeBoolean(boolean b) throws IOException {
            out.writeBoolean(b);
        }

        @Override
        public void writeInt(int v) throws IOException {
            out.writeInt(v);
        }

        @Override
        public void writeLong(long v) throws IOException {
            out.writeLong(v);
        }

        @Override
        public void writeBytes(byte[] b) throws IOException {
            out.writeInt(b.length);
            out.write(b);
        }

        @Override
        public void writeString(String s) throws IOException {
            writeBytes(s.getBytes(StandardCharsets.UTF_8));
        }
    }

    private record In(DataInput in) implements ValueEncoding.Input<IOException> {
        @Override
        public int readUnsignedByte() throws IOException {
            return in.readUnsignedByte();
        }

        @Override
        public boolean readBoolean() throws IOException {
            int b = in.readUnsignedByte();
            if (b > 1) throw invalid("boolean byte must be 0 or 1, got " + b, null);
            return b == 1;
        }

        @Override
        public int readInt() throws IOException {
            return in.readInt();
        }

        @Override
        public long readLong() throws IOException {
            return in.readLong();
        }

        @Override
        public byte[] readBytes() throws IOException {
            int length = in.readInt();
            if (length < 0) throw invalid("negative length " + length, null);
            byte[] b = new byte[length];
            in.readFully(b);
            return b;
        }

        @Override
        public String readString() throws IOException {
            return new String(readBytes(), StandardCharsets.UTF_8);
        }

        @Override
        public IOException invalid(String message, Throwable cause) {
            return new IOException("not an encoded value: " + message, cause);
        }
    }
}
