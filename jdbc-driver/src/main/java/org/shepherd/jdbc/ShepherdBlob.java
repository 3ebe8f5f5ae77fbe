package org.shepherd.jdbc;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.sql.Blob;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * A {@link Blob} held in memory: what {@code ResultSet.getBlob} returns (the whole value travelled with the row) and
 * what {@code Connection.createBlob} makes for a parameter. Positions are 1-based as JDBC says; writing past the end
 * grows it. Bound as a parameter, its bytes are copied at that moment. Not thread-safe, like the rest of a connection.
 */
final class ShepherdBlob implements Blob {

    private byte[] bytes;
    private int length;
    private boolean freed;

    ShepherdBlob(byte[] content) {
        this.bytes = content.clone();
        this.length = content.length;
    }

    @Override
    public long length() throws SQLException {
        checkLive();
        return length;
    }

    @Override
    public byte[] getBytes(long pos, int len) throws SQLException {
        checkLive();
        int from = index(pos);
        if (len < 0) throw Lobs.invalid("length " + len + " is negative");
        return Arrays.copyOfRange(bytes, from, from + Math.min(len, length - from));
    }

    @Override
    public InputStream getBinaryStream() throws SQLException {
        checkLive();
        return new ByteArrayInputStream(bytes, 0, length);
    }

    @Override
    public InputStream getBinaryStream(long pos, long len) throws SQLException {
        checkLive();
        int from = index(pos);
        if (len < 0 || from + len > length) {
            throw Lobs.invalid(len + " bytes from position " + pos + " go past the end (length " + length + ")");
        }
        return new ByteArrayInputStream(bytes, from, (int) len);
    }

    @Override
    public long position(byte[] pattern, long start) throws SQLException {
        checkLive();
        if (start < 1) throw Lobs.invalid("position " + start + " is before the first byte (1)");
        outer:
        for (int i = (int) Math.min(start - 1, length); i + pattern.length <= length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (bytes[i + j] != pattern[j]) continue outer;
            }
            return i + 1L;
        }
        return -1;
    }

    @Override
    public long position(Blob pattern, long start) throws SQLException {
        return position(pattern.getBytes(1, Lobs.intLength(pattern.length())), start);
    }

    @Override
    public int setBytes(long pos, byte[] src) throws SQLException {
        return setBytes(pos, src, 0, src.length);
    }

    @Override
    public int setBytes(long pos, byte[] src, int offset, int len) throws SQLException {
        checkLive();
        int at = index(pos);
        if (offset < 0 || len < 0 || offset + len > src.length) {
            throw Lobs.invalid("offset " + offset + " and length " + len + " do not fit an array of " + src.length);
        }
        ensure(Lobs.intLength((long) at + len));
        System.arraycopy(src, offset, bytes, at, len);
        length = Math.max(length, at + len);
        return len;
    }

    @Override
    public OutputStream setBinaryStream(long pos) throws SQLException {
        checkLive();
        int[] at = {index(pos)};
        return new OutputStream() {
            @Override
            public void write(int b) throws java.io.IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws java.io.IOException {
                try {
                    at[0] += setBytes(at[0] + 1L, b, off, len);
                } catch (SQLException e) {
                    throw new java.io.IOException(e.getMessage(), e);
                }
            }
        };
    }

    @Override
    public void truncate(long len) throws SQLException {
        checkLive();
        if (len < 0 || len > length) throw Lobs.invalid("cannot truncate " + length + " bytes to " + len);
        length = (int) len;
    }

    @Override
    public void free() {
        freed = true;
        bytes = new byte[0];
        length = 0;
    }

    /** The content, copied (a parameter keeps its value even if the Blob changes afterwards). */
    byte[] toBytes() throws SQLException {
        checkLive();
        return Arrays.copyOf(bytes, length);
    }

    private void ensure(int capacity) {
        if (capacity > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(capacity, Math.min(Lobs.MAX_LENGTH, 2 * bytes.length)));
    }

    private void checkLive() throws SQLException {
        if (freed) throw Lobs.freed("Blob");
    }

    /** The array index of 1-based {@code pos}, which may be one past the end (an empty read, an append). */
    private int index(long pos) throws SQLException {
        if (pos < 1 || pos > length + 1L) throw Lobs.invalid("position " + pos + " is outside 1.." + (length + 1L));
        return (int) (pos - 1);
    }
}
