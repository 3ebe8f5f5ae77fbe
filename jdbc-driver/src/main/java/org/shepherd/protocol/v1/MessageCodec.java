package org.shepherd.protocol.v1;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;

/**
 * Encoding and decoding of protocol v1 messages. Stateless and thread-safe; works on plain byte arrays and
 * {@link ByteBuffer}s so that a blocking socket (the driver) and Netty (the server, through
 * {@code ByteBuf.nioBuffer()}) share it.
 *
 * <pre>
 *  frame:  +----------------+--------+---------------------------+
 *          | length: int32  | type:  | payload: length-1 bytes   |
 *          | (type+payload) | uint8  |                           |
 *          +----------------+--------+---------------------------+
 * </pre>
 * All integers are big-endian; strings are an int32 byte count followed by UTF-8.
 */
public final class MessageCodec {

    private static final int TAG_NULL = 0;
    private static final int TAG_STRING = 1;
    private static final int TAG_INTEGER = 2;
    private static final int TAG_BOOLEAN = 3;
    private static final int TAG_STRING_ARRAY = 4;

    private MessageCodec() {
    }

    /** The complete frame (header and payload) of a message. */
    public static byte[] encodeFrame(Message m) {
        PayloadWriter w = new PayloadWriter(m.type(), 128);
        writePayload(m, w);
        return w.finish();
    }

    /** Writes the complete frame of a message. */
    public static void encode(Message m, OutputStream out) throws IOException {
        out.write(encodeFrame(m));
    }

    /** Writes the complete frame at the buffer's position; {@link java.nio.BufferOverflowException} if it does not fit. */
    public static void encode(Message m, ByteBuffer out) {
        out.put(encodeFrame(m));
    }

    /**
     * Decodes one payload (the bytes after the type byte). The whole of {@code payload} from its position to its
     * limit must be exactly one message of this type.
     *
     * @throws ProtocolException for an unknown type or a payload that does not parse exactly
     */
    public static Message decode(int type, ByteBuffer payload) throws ProtocolException {
        MessageType t = MessageType.ofCode(type);
        if (t == null) throw new ProtocolException("unknown message type " + type);
        PayloadReader r = new PayloadReader(payload.slice());
        Message m;
        try {
            m = readPayload(t, r);
        } catch (ProtocolException e) {
            throw new ProtocolException(t + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new ProtocolException(t + ": invalid payload: " + e.getMessage(), e);
        }
        if (r.remaining() != 0) {
            throw new ProtocolException(t + ": " + r.remaining() + " unexpected bytes after the message");
        }
        return m;
    }

    /**
     * Decodes one complete frame held alone in {@code frame} (header included).
     *
     * @throws ProtocolException when the frame is truncated, longer than its length says, or over {@code maxFrameBytes}
     */
    public static Message decodeFrame(ByteBuffer frame, int maxFrameBytes) throws ProtocolException {
        if (frame.remaining() < Protocol.HEADER_BYTES) throw new ProtocolException("truncated frame header");
        ByteBuffer f = frame.slice();
        int length = f.getInt();
        checkLength(length, maxFrameBytes);
        if (f.remaining() != length) {
            throw new ProtocolException("frame length says " + length + " bytes, " + f.remaining() + " present");
        }
        int type = f.get() & 0xff;
        return decode(type, f);
    }

    static void checkLength(int length, int maxFrameBytes) throws ProtocolException {
        if (length < 1) throw new ProtocolException("invalid frame length " + length);
        if (length > maxFrameBytes) {
            throw new ProtocolException("frame of " + length + " bytes exceeds the maximum of " + maxFrameBytes + " bytes");
        }
    }

    // ---------------------------------------------------------------- encoding

    private static void writePayload(Message m, PayloadWriter w) {
        if (m instanceof Message.Startup s) {
            w.writeInt(Protocol.MAGIC);
            w.writeInt(s.protocolMajor());
            w.writeInt(s.protocolMinor());
            w.writeString(s.user());
            w.writeString(s.database());
            w.writeInt(s.properties().size());
            for (Map.Entry<String, String> e : s.properties().entrySet()) {
                w.writeString(e.getKey());
                w.writeString(e.getValue());
            }
        } else if (m instanceof Message.AuthRequest a) {
            w.writeInt(a.protocolMajor());
            w.writeInt(a.protocolMinor());
            writeStrings(a.mechanisms(), w);
        } else if (m instanceof Message.ScramClientFirst s) {
            w.writeString(s.mechanism());
            w.writeString(s.message());
        } else if (m instanceof Message.ScramServerFirst s) {
            w.writeString(s.message());
        } else if (m instanceof Message.ScramClientFinal s) {
            w.writeString(s.message());
        } else if (m instanceof Message.ScramServerFinal s) {
            w.writeString(s.message());
        } else if (m instanceof Message.Ready r) {
            w.writeLong(r.sessionId());
            w.writeLong(r.cancelKey());
            w.writeString(r.serverVersion());
            w.writeString(r.sqlDialect());
            w.writeString(r.identifierQuote());
            w.writeString(r.productName());
            w.writeString(r.productVersion());
        } else if (m instanceof Message.Cancel c) {
            w.writeLong(c.sessionId());
            w.writeLong(c.cancelKey());
        } else if (m instanceof Message.Execute e) {
            w.writeString(e.sql());
            writeParams(e.params(), w);
            writeOptions(e.options(), w);
        } else if (m instanceof Message.Prepare p) {
            w.writeString(p.sql());
        } else if (m instanceof Message.PrepareOk p) {
            w.writeInt(p.statementId());
            w.writeInt(p.parameterCount());
            if (p.parameterTypes() == null) {
                w.writeInt(-1);
            } else {
                w.writeInt(p.parameterTypes().length);
                for (int t : p.parameterTypes()) w.writeInt(t);
            }
            if (p.columns() == null) {
                w.writeInt(-1);
            } else {
                writeColumns(p.columns(), w);
            }
        } else if (m instanceof Message.ExecutePrepared e) {
            w.writeInt(e.statementId());
            writeParams(e.params(), w);
            writeOptions(e.options(), w);
        } else if (m instanceof Message.ClosePrepared c) {
            w.writeInt(c.statementId());
        } else if (m instanceof Message.ExecuteBatch b) {
            w.writeNullableString(b.sql());
            w.writeInt(b.parameterSets().size());
            for (List<Param> set : b.parameterSets()) writeParams(set, w);
            writeStrings(b.statements(), w);
            writeOptions(b.options(), w);
        } else if (m instanceof Message.BatchResult b) {
            writeLongs(b.counts(), w);
            if (b.type() == MessageType.BATCH_RESULT_WITH_KEYS) {
                writeColumns(b.keyColumns(), w);
                writeRows(b.keyRows(), w);
            }
            writeWarnings(b.warnings(), w);
        } else if (m instanceof Message.ResultHeader h) {
            w.writeInt(h.cursorId());
            writeColumns(h.columns(), w);
            writeWarnings(h.warnings(), w);
        } else if (m instanceof Message.RowBatch b) {
            w.writeInt(b.cursorId());
            writeRows(b.rows(), w);
            w.writeBoolean(b.last());
        } else if (m instanceof Message.Fetch f) {
            w.writeInt(f.cursorId());
            w.writeInt(f.maxRows());
        } else if (m instanceof Message.CloseCursor c) {
            w.writeInt(c.cursorId());
        } else if (m instanceof Message.UpdateResult u) {
            w.writeLong(u.count());
            writeColumns(u.keyColumns(), w);
            writeRows(u.keyRows(), w);
            writeWarnings(u.warnings(), w);
        } else if (m instanceof Message.Metadata md) {
            w.writeString(md.method());
            w.writeInt(md.arguments().size());
            for (Object a : md.arguments()) writeMetadataArgument(a, w);
        } else if (m instanceof Message.Error e) {
            w.writeString(e.sqlState());
            w.writeInt(e.vendorCode());
            w.writeString(e.message());
            w.writeBoolean(e.batchCounts() != null);
            if (e.batchCounts() != null) writeLongs(e.batchCounts(), w);
        } else if (m instanceof Message.SetAutoCommit s) {
            w.writeBoolean(s.autoCommit());
        } else if (m instanceof Message.SetReadOnly s) {
            w.writeBoolean(s.readOnly());
        } else if (m instanceof Message.Ok ok) {
            writeWarnings(ok.warnings(), w);
        } else if (m instanceof Message.Commit || m instanceof Message.Rollback || m instanceof Message.Ping
                || m instanceof Message.Pong || m instanceof Message.Terminate) {
            return; // empty payload
        } else {
            throw new IllegalArgumentException("no encoding for " + m.getClass().getName());
        }
    }

    private static void writeStrings(List<String> strings, PayloadWriter w) {
        w.writeInt(strings.size());
        for (String s : strings) w.writeString(s);
    }

    private static void writeLongs(long[] values, PayloadWriter w) {
        w.writeInt(values.length);
        for (long v : values) w.writeLong(v);
    }

    private static void writeParams(List<Param> params, PayloadWriter w) {
        w.writeInt(params.size());
        for (Param p : params) {
            w.writeInt(p.jdbcType());
            w.writeValue(p.value());
        }
    }

    private static void writeOptions(StatementOptions o, PayloadWriter w) {
        w.writeInt(o.maxRows());
        w.writeInt(o.fetchSize());
        w.writeInt(o.queryTimeoutSeconds());
        w.writeBoolean(o.returnGeneratedKeys());
    }

    private static void writeColumns(List<ColumnInfo> columns, PayloadWriter w) {
        w.writeInt(columns.size());
        for (ColumnInfo c : columns) {
            w.writeString(c.label());
            w.writeString(c.name());
            w.writeInt(c.jdbcType());
            w.writeString(c.typeName());
            w.writeInt(c.precision());
            w.writeInt(c.scale());
            w.writeInt(c.nullable());
            w.writeString(c.tableName());
            w.writeBoolean(c.autoIncrement());
        }
    }

    private static void writeRows(List<Object[]> rows, PayloadWriter w) {
        int width = rows.isEmpty() ? 0 : rows.get(0).length;
        w.writeInt(width);
        w.writeInt(rows.size());
        for (Object[] row : rows) {
            if (row.length != width) {
                throw new IllegalArgumentException("rows of one batch must have the same width: " + row.length + " != "
                        + width);
            }
            for (Object v : row) w.writeValue(v);
        }
    }

    private static void writeWarnings(List<WarningInfo> warnings, PayloadWriter w) {
        w.writeInt(warnings.size());
        for (WarningInfo x : warnings) {
            w.writeString(x.sqlState());
            w.writeInt(x.vendorCode());
            w.writeString(x.message());
        }
    }

    private static void writeMetadataArgument(Object a, PayloadWriter w) {
        if (a == null) {
            w.writeByte(TAG_NULL);
        } else if (a instanceof String s) {
            w.writeByte(TAG_STRING);
            w.writeString(s);
        } else if (a instanceof Integer i) {
            w.writeByte(TAG_INTEGER);
            w.writeInt(i);
        } else if (a instanceof Boolean b) {
            w.writeByte(TAG_BOOLEAN);
            w.writeBoolean(b);
        } else if (a instanceof String[] arr) {
            w.writeByte(TAG_STRING_ARRAY);
            writeStrings(List.of(arr), w);
        } else {
            throw new IllegalArgumentException("metadata argument must be String, Integer, Boolean, String[] or null: "
                    + a.getClass().getName());
        }
    }

    // ---------------------------------------------------------------- decoding

    private static Message readPayload(MessageType t, PayloadReader r) throws ProtocolException {
        switch (t) {
            case STARTUP: {
                int magic = r.readInt();
                if (magic != Protocol.MAGIC) {
                    throw new ProtocolException("bad magic 0x" + Integer.toHexString(magic) + ": not a Shepherd client");
                }
                int major = r.readInt();
                int minor = r.readInt();
                String user = r.readString();
                String database = r.readString();
                int n = r.readCount("property", 8);
                Map<String, String> props = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    String k = r.readString();
                    if (props.put(k, r.readString()) != null) throw new ProtocolException("duplicate property " + k);
                }
                return new Message.Startup(major, minor, user, database, props);
            }
            case AUTH_REQUEST:
                return new Message.AuthRequest(r.readInt(), r.readInt(), readStrings(r));
            case SCRAM_CLIENT_FIRST:
                return new Message.ScramClientFirst(r.readString(), r.readString());
            case SCRAM_SERVER_FIRST:
                return new Message.ScramServerFirst(r.readString());
            case SCRAM_CLIENT_FINAL:
                return new Message.ScramClientFinal(r.readString());
            case SCRAM_SERVER_FINAL:
                return new Message.ScramServerFinal(r.readString());
            case READY:
                return new Message.Ready(r.readLong(), r.readLong(), r.readString(), r.readString(), r.readString(),
                        r.readString(), r.readString());
            case CANCEL:
                return new Message.Cancel(r.readLong(), r.readLong());
            case EXECUTE:
                return new Message.Execute(r.readString(), readParams(r), readOptions(r));
            case PREPARE:
                return new Message.Prepare(r.readString());
            case PREPARE_OK: {
                int id = r.readInt();
                int count = r.readInt();
                if (count < -1) throw new ProtocolException("invalid parameter count " + count);
                int[] types = null;
                int n = r.readInt();
                if (n >= 0) {
                    if ((long) n * 4 > r.remaining()) throw new ProtocolException("truncated parameter types");
                    types = new int[n];
                    for (int i = 0; i < n; i++) types[i] = r.readInt();
                } else if (n != -1) {
                    throw new ProtocolException("invalid parameter type count " + n);
                }
                List<ColumnInfo> columns = readNullableColumns(r);
                return new Message.PrepareOk(id, count, types, columns);
            }
            case EXECUTE_PREPARED:
                return new Message.ExecutePrepared(r.readInt(), readParams(r), readOptions(r));
            case CLOSE_PREPARED:
                return new Message.ClosePrepared(r.readInt());
            case EXECUTE_BATCH: {
                String sql = r.readNullableString();
                int n = r.readCount("parameter set", 4);
                List<List<Param>> sets = new ArrayList<>(n);
                for (int i = 0; i < n; i++) sets.add(readParams(r));
                return new Message.ExecuteBatch(sql, sets, readStrings(r), readOptions(r));
            }
            case BATCH_RESULT:
                return new Message.BatchResult(readLongs(r), readWarnings(r));
            case BATCH_RESULT_WITH_KEYS:
                return new Message.BatchResult(readLongs(r), readColumns(r), readRows(r), readWarnings(r));
            case RESULT_HEADER:
                return new Message.ResultHeader(r.readInt(), readColumns(r), readWarnings(r));
            case ROW_BATCH:
                return new Message.RowBatch(r.readInt(), readRows(r), r.readBoolean());
            case FETCH:
                return new Message.Fetch(r.readInt(), nonNegative(r.readInt(), "maxRows"));
            case CLOSE_CURSOR:
                return new Message.CloseCursor(r.readInt());
            case UPDATE_RESULT:
                return new Message.UpdateResult(r.readLong(), readColumns(r), readRows(r), readWarnings(r));
            case METADATA: {
                String method = r.readString();
                int n = r.readCount("metadata argument", 1);
                List<Object> args = new ArrayList<>(n);
                for (int i = 0; i < n; i++) args.add(readMetadataArgument(r));
                return new Message.Metadata(method, args);
            }
            case ERROR: {
                String state = r.readString();
                int code = r.readInt();
                String message = r.readString();
                long[] counts = r.readBoolean() ? readLongs(r) : null;
                return new Message.Error(state, code, message, counts);
            }
            case COMMIT:
                return new Message.Commit();
            case ROLLBACK:
                return new Message.Rollback();
            case SET_AUTO_COMMIT:
                return new Message.SetAutoCommit(r.readBoolean());
            case SET_READ_ONLY:
                return new Message.SetReadOnly(r.readBoolean());
            case OK:
                return new Message.Ok(readWarnings(r));
            case PING:
                return new Message.Ping();
            case PONG:
                return new Message.Pong();
            case TERMINATE:
                return new Message.Terminate();
            default:
                throw new ProtocolException("no decoding for " + t);
        }
    }

    private static int nonNegative(int v, String what) throws ProtocolException {
        if (v < 0) throw new ProtocolException("negative " + what + " " + v);
        return v;
    }

    private static List<String> readStrings(PayloadReader r) throws ProtocolException {
        int n = r.readCount("string", 4);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(r.readString());
        return out;
    }

    private static long[] readLongs(PayloadReader r) throws ProtocolException {
        int n = r.readCount("int64", 8);
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = r.readLong();
        return out;
    }

    private static List<Param> readParams(PayloadReader r) throws ProtocolException {
        int n = r.readCount("parameter", 5);
        List<Param> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int jdbcType = r.readInt();
            out.add(new Param(jdbcType, r.readValue()));
        }
        return out;
    }

    private static StatementOptions readOptions(PayloadReader r) throws ProtocolException {
        int maxRows = nonNegative(r.readInt(), "maxRows");
        int fetchSize = nonNegative(r.readInt(), "fetchSize");
        int timeout = nonNegative(r.readInt(), "queryTimeoutSeconds");
        return new StatementOptions(maxRows, fetchSize, timeout, r.readBoolean());
    }

    private static List<ColumnInfo> readNullableColumns(PayloadReader r) throws ProtocolException {
        int n = r.readInt();
        if (n == -1) return null;
        if (n < 0) throw new ProtocolException("invalid column count " + n);
        return readColumns(r, n);
    }

    private static List<ColumnInfo> readColumns(PayloadReader r) throws ProtocolException {
        int n = r.readInt();
        if (n < 0) throw new ProtocolException("negative column count " + n);
        return readColumns(r, n);
    }

    private static List<ColumnInfo> readColumns(PayloadReader r, int n) throws ProtocolException {
        if ((long) n * 33 > r.remaining()) throw new ProtocolException("truncated payload: " + n + " columns");
        List<ColumnInfo> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new ColumnInfo(r.readString(), r.readString(), r.readInt(), r.readString(), r.readInt(), r.readInt(),
                    r.readInt(), r.readString(), r.readBoolean()));
        }
        return out;
    }

    private static List<Object[]> readRows(PayloadReader r) throws ProtocolException {
        int width = r.readCount("column", 0);
        int n = r.readInt();
        if (n < 0) throw new ProtocolException("negative row count " + n);
        if (n > 0 && width == 0) throw new ProtocolException(n + " rows without columns");
        if ((long) n * width > r.remaining()) throw new ProtocolException("truncated payload: " + n + " rows");
        List<Object[]> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Object[] row = new Object[width];
            for (int c = 0; c < width; c++) row[c] = r.readValue();
            rows.add(row);
        }
        return rows;
    }

    private static List<WarningInfo> readWarnings(PayloadReader r) throws ProtocolException {
        int n = r.readCount("warning", 12);
        List<WarningInfo> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(new WarningInfo(r.readString(), r.readInt(), r.readString()));
        return out;
    }

    private static Object readMetadataArgument(PayloadReader r) throws ProtocolException {
        int tag = r.readByte();
        switch (tag) {
            case TAG_NULL:
                return null;
            case TAG_STRING:
                return r.readString();
            case TAG_INTEGER:
                return r.readInt();
            case TAG_BOOLEAN:
                return r.readBoolean();
            case TAG_STRING_ARRAY:
                return readStrings(r).toArray(new String[0]);
            default:
                throw new ProtocolException("unknown metadata argument tag " + tag);
        }
    }
}
