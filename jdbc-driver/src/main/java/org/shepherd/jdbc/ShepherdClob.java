package org.shepherd.jdbc;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Clob;
import java.sql.NClob;
import java.sql.SQLException;

/**
 * A {@link Clob} (and {@link NClob}: the protocol carries all text as Unicode) held in memory: what
 * {@code ResultSet.getClob} returns and what {@code Connection.createClob} makes for a parameter. Positions are 1-based
 * and count chars (UTF-16 code units, as {@code String} does); writing past the end grows it. Bound as a parameter, its
 * text is copied at that moment. Not thread-safe, like the rest of a connection.
 */
final class ShepherdClob implements NClob {

    private StringBuilder text;
    private boolean freed;

    ShepherdClob(String content) {
        this.text = new StringBuilder(content);
    }

    @Override
    public long length() throws SQLException {
        checkLive();
        return text.length();
    }

    @Override
    public String getSubString(long pos, int len) throws SQLException {
        checkLive();
        int from = index(pos);
        if (len < 0) throw Lobs.invalid("length " + len + " is negative");
        return text.substring(from, from + Math.min(len, text.length() - from));
    }

    @Override
    public Reader getCharacterStream() throws SQLException {
        checkLive();
        return new StringReader(text.toString());
    }

    @Override
    public Reader getCharacterStream(long pos, long len) throws SQLException {
        checkLive();
        int from = index(pos);
        if (len < 0 || from + len > text.length()) {
            throw Lobs.invalid(len + " chars from position " + pos + " go past the end (length " + text.length() + ")");
        }
        return new StringReader(text.substring(from, from + (int) len));
    }

    /** The text as US-ASCII bytes; a char outside ASCII reads as {@code ?}. */
    @Override
    public InputStream getAsciiStream() throws SQLException {
        checkLive();
        return new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public long position(String pattern, long start) throws SQLException {
        checkLive();
        if (start < 1) throw Lobs.invalid("position " + start + " is before the first char (1)");
        if (start > text.length() + 1L) return -1;
        int i = text.indexOf(pattern, (int) (start - 1));
        return i < 0 ? -1 : i + 1L;
    }

    @Override
    public long position(Clob pattern, long start) throws SQLException {
        return position(pattern.getSubString(1, Lobs.intLength(pattern.length())), start);
    }

    @Override
    public int setString(long pos, String str) throws SQLException {
        return setString(pos, str, 0, str.length());
    }

    @Override
    public int setString(long pos, String str, int offset, int len) throws SQLException {
        checkLive();
        int at = index(pos);
        if (offset < 0 || len < 0 || offset + len > str.length()) {
            throw Lobs.invalid("offset " + offset + " and length " + len + " do not fit a string of " + str.length());
        }
        Lobs.intLength((long) at + len);
        int overwritten = Math.min(len, text.length() - at);
        text.replace(at, at + overwritten, str.substring(offset, offset + len));
        return len;
    }

    /** Writes US-ASCII bytes as chars from {@code pos} on. */
    @Override
    public OutputStream setAsciiStream(long pos) throws SQLException {
        checkLive();
        Writer w = setCharacterStream(pos);
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                w.write(b & 0x7f);
            }
        };
    }

    @Override
    public Writer setCharacterStream(long pos) throws SQLException {
        checkLive();
        int[] at = {index(pos)};
        return new Writer() {
            @Override
            public void write(char[] cbuf, int off, int len) throws IOException {
                try {
                    at[0] += setString(at[0] + 1L, new String(cbuf, off, len));
                } catch (SQLException e) {
                    throw new IOException(e.getMessage(), e);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public void truncate(long len) throws SQLException {
        checkLive();
        if (len < 0 || len > text.length()) throw Lobs.invalid("cannot truncate " + text.length() + " chars to " + len);
        text.setLength((int) len);
    }

    @Override
    public void free() {
        freed = true;
        text = new StringBuilder();
    }

    /** The content, copied (a parameter keeps its value even if the Clob changes afterwards). */
    String toText() throws SQLException {
        checkLive();
        return text.toString();
    }

    private void checkLive() throws SQLException {
        if (freed) throw Lobs.freed("Clob");
    }

    /** The index of 1-based {@code pos}, which may be one past the end (an empty read, an append). */
    private int index(long pos) throws SQLException {
        if (pos < 1 || pos > text.length() + 1L) throw Lobs.invalid("position " + pos + " is outside 1.." + (text.length() + 1L));
        return (int) (pos - 1);
    }
}
