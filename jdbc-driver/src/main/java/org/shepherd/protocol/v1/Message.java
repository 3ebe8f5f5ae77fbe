package org.shepherd.protocol.v1;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;
import org.shepherd.protocol.ValueType;

/**
 * Every message of protocol v1. The encoding of each is in {@link MessageCodec}; the field-by-field layout and the
 * session flow are drawn in docs/protocol.md. Rows and generated keys hold values in {@link ValueType}
 * representation. Lists are never null; the fields documented as nullable are.
 */
public sealed interface Message {

    MessageType type();

    // ---------------------------------------------------------------- handshake and authentication

    /** The first frame of a session connection. The payload opens with {@link Protocol#MAGIC}. */
    record Startup(int protocolMajor, int protocolMinor, String user, String database, Map<String, String> properties)
            implements Message {
        public Startup {
            properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        }

        @Override
        public MessageType type() {
            return MessageType.STARTUP;
        }
    }

    /** The server accepted the version (it names the one it speaks) and asks for one of these mechanisms. */
    record AuthRequest(int protocolMajor, int protocolMinor, List<String> mechanisms) implements Message {
        public AuthRequest {
            mechanisms = List.copyOf(mechanisms);
        }

        @Override
        public MessageType type() {
            return MessageType.AUTH_REQUEST;
        }
    }

    /** RFC 5802 client-first-message (gs2 header included). */
    record ScramClientFirst(String mechanism, String message) implements Message {
        @Override
        public MessageType type() {
            return MessageType.SCRAM_CLIENT_FIRST;
        }
    }

    /** RFC 5802 server-first-message. */
    record ScramServerFirst(String message) implements Message {
        @Override
        public MessageType type() {
            return MessageType.SCRAM_SERVER_FIRST;
        }
    }

    /** RFC 5802 client-final-message (carries the proof, never the password). */
    record ScramClientFinal(String message) implements Message {
        @Override
        public MessageType type() {
            return MessageType.SCRAM_CLIENT_FINAL;
        }
    }

    /** RFC 5802 server-final-message; the client checks the server signature before trusting {@link Ready}. */
    record ScramServerFinal(String message) implements Message {
        @Override
        public MessageType type() {
            return MessageType.SCRAM_SERVER_FINAL;
        }
    }

    /**
     * The session is open.
     *
     * @param sessionId with {@code cancelKey}, what a {@link Cancel} on another connection must present
     * @param serverVersion the shepherd's version
     * @param sqlDialect the dialect of the SQL clients write (e.g. "derby")
     * @param identifierQuote {@link java.sql.DatabaseMetaData#getIdentifierQuoteString()}
     * @param productName the primary's database product name
     * @param productVersion the primary's database product version
     */
    record Ready(long sessionId, long cancelKey, String serverVersion, String sqlDialect, String identifierQuote,
                 String productName, String productVersion) implements Message {
        @Override
        public MessageType type() {
            return MessageType.READY;
        }
    }

    /** Sent as the only frame of a NEW connection: asks the server to cancel what the session runs now. */
    record Cancel(long sessionId, long cancelKey) implements Message {
        @Override
        public MessageType type() {
            return MessageType.CANCEL;
        }
    }

    // ---------------------------------------------------------------- statements

    /** Runs one statement; answered by ResultHeader + RowBatch, UpdateResult, or Error. */
    record Execute(String sql, List<Param> params, StatementOptions options) implements Message {
        public Execute {
            params = List.copyOf(params);
        }

        @Override
        public MessageType type() {
            return MessageType.EXECUTE;
        }
    }

    /** Prepares a statement; answered by PrepareOk or Error. */
    record Prepare(String sql) implements Message {
        @Override
        public MessageType type() {
            return MessageType.PREPARE;
        }
    }

    /**
     * @param parameterCount -1 when the server does not know
     * @param parameterTypes {@link java.sql.Types} per parameter, or null when unknown
     * @param columns the result's columns, or null when unknown (or the statement returns no rows)
     */
    record PrepareOk(int statementId, int parameterCount, int[] parameterTypes, List<ColumnInfo> columns)
            implements Message {
        public PrepareOk {
            columns = columns == null ? null : List.copyOf(columns);
        }

        @Override
        public MessageType type() {
            return MessageType.PREPARE_OK;
        }
    }

    record ExecutePrepared(int statementId, List<Param> params, StatementOptions options) implements Message {
        public ExecutePrepared {
            params = List.copyOf(params);
        }

        @Override
        public MessageType type() {
            return MessageType.EXECUTE_PREPARED;
        }
    }

    /** Answered by Ok. */
    record ClosePrepared(int statementId) implements Message {
        @Override
        public MessageType type() {
            return MessageType.CLOSE_PREPARED;
        }
    }

    /**
     * Either one statement ({@code sql} non-null) with many parameter sets, or many parameterless
     * {@code statements} ({@code sql} null). Answered by BatchResult, or Error with the counts done so far.
     */
    record ExecuteBatch(String sql, List<List<Param>> parameterSets, List<String> statements, StatementOptions options)
            implements Message {
        public ExecuteBatch {
            parameterSets = parameterSets.stream().map(List::copyOf).toList();
            statements = List.copyOf(statements);
        }

        @Override
        public MessageType type() {
            return MessageType.EXECUTE_BATCH;
        }
    }

    /**
     * The update count of each element of a batch, and the keys the elements generated when the batch asked for them
     * ({@code StatementOptions.returnGeneratedKeys}): every element's key rows, in element order. Sent as
     * {@code BatchResult} without keys, as {@code BatchResultWithKeys} with them (a driver that never asks never gets
     * the second).
     */
    record BatchResult(long[] counts, List<ColumnInfo> keyColumns, List<Object[]> keyRows, List<WarningInfo> warnings)
            implements Message {
        public BatchResult {
            keyColumns = List.copyOf(keyColumns);
            keyRows = List.copyOf(keyRows);
            warnings = List.copyOf(warnings);
        }

        public BatchResult(long[] counts, List<WarningInfo> warnings) {
            this(counts, List.of(), List.of(), warnings);
        }

        @Override
        public MessageType type() {
            return keyColumns.isEmpty() && keyRows.isEmpty() ? MessageType.BATCH_RESULT : MessageType.BATCH_RESULT_WITH_KEYS;
        }
    }

    /** Opens a result: the first RowBatch of the cursor follows at once. */
    record ResultHeader(int cursorId, List<ColumnInfo> columns, List<WarningInfo> warnings) implements Message {
        public ResultHeader {
            columns = List.copyOf(columns);
            warnings = List.copyOf(warnings);
        }

        @Override
        public MessageType type() {
            return MessageType.RESULT_HEADER;
        }
    }

    /**
     * Up to fetchSize rows of a cursor (fewer is legal, e.g. to stay below the peer's frame limit).
     * After {@code last} the cursor is closed on the server.
     */
    record RowBatch(int cursorId, List<Object[]> rows, boolean last) implements Message {
        public RowBatch {
            rows = List.copyOf(rows);
        }

        @Override
        public MessageType type() {
            return MessageType.ROW_BATCH;
        }
    }

    /** Asks for the next RowBatch of an open cursor. */
    record Fetch(int cursorId, int maxRows) implements Message {
        @Override
        public MessageType type() {
            return MessageType.FETCH;
        }
    }

    /** Closes a cursor before its last batch; answered by Ok. */
    record CloseCursor(int cursorId) implements Message {
        @Override
        public MessageType type() {
            return MessageType.CLOSE_CURSOR;
        }
    }

    /** @param keyColumns and {@code keyRows}: generated keys when asked for, else empty */
    record UpdateResult(long count, List<ColumnInfo> keyColumns, List<Object[]> keyRows, List<WarningInfo> warnings)
            implements Message {
        public UpdateResult {
            keyColumns = List.copyOf(keyColumns);
            keyRows = List.copyOf(keyRows);
            warnings = List.copyOf(warnings);
        }

        @Override
        public MessageType type() {
            return MessageType.UPDATE_RESULT;
        }
    }

    /**
     * A {@link java.sql.DatabaseMetaData} method returning a ResultSet, forwarded to the primary. Arguments are
     * {@code String}, {@code Integer}, {@code Boolean}, {@code String[]} or null, in declaration order.
     * Answered by ResultHeader + RowBatch.
     */
    record Metadata(String method, List<Object> arguments) implements Message {
        public Metadata {
            arguments = Collections.unmodifiableList(new ArrayList<>(arguments));
        }

        @Override
        public MessageType type() {
            return MessageType.METADATA;
        }
    }

    // ---------------------------------------------------------------- errors and session control

    /** @param batchCounts counts of the batch elements run before the failure; null when not a batch */
    record Error(String sqlState, int vendorCode, String message, long[] batchCounts) implements Message {
        public Error(String sqlState, int vendorCode, String message) {
            this(sqlState, vendorCode, message, null);
        }

        @Override
        public MessageType type() {
            return MessageType.ERROR;
        }
    }

    record Commit() implements Message {
        @Override
        public MessageType type() {
            return MessageType.COMMIT;
        }
    }

    record Rollback() implements Message {
        @Override
        public MessageType type() {
            return MessageType.ROLLBACK;
        }
    }

    record SetAutoCommit(boolean autoCommit) implements Message {
        @Override
        public MessageType type() {
            return MessageType.SET_AUTO_COMMIT;
        }
    }

    record SetReadOnly(boolean readOnly) implements Message {
        @Override
        public MessageType type() {
            return MessageType.SET_READ_ONLY;
        }
    }

    /** Success of Commit, Rollback, SetAutoCommit, SetReadOnly, ClosePrepared and CloseCursor. */
    record Ok(List<WarningInfo> warnings) implements Message {
        public Ok {
            warnings = List.copyOf(warnings);
        }

        public Ok() {
            this(List.of());
        }

        @Override
        public MessageType type() {
            return MessageType.OK;
        }
    }

    record Ping() implements Message {
        @Override
        public MessageType type() {
            return MessageType.PING;
        }
    }

    record Pong() implements Message {
        @Override
        public MessageType type() {
            return MessageType.PONG;
        }
    }

    /** The client is leaving; the server closes the session without answering. */
    record Terminate() implements Message {
        @Override
        public MessageType type() {
            return MessageType.TERMINATE;
        }
    }
}
