package org.shepherd.coordinator;

import java.sql.SQLException;
import java.util.List;
import org.shepherd.protocol.Param;

/**
 * One client connection's view of the replicated database.
 *
 * <p>Threading: every method but {@link #cancel()} is called by one worker thread at a time (the session's
 * requests are serialized by the frontend), never on a Netty event loop; methods may block on replicas.
 * {@link #cancel()} may be called from any thread at any time.
 *
 * <p>Errors: every failure is an {@link SQLException} carrying the SQLState the client must see (for example
 * {@code 40001} when the vote before COMMIT failed, {@code 08xxx} when the replicas cannot be reached,
 * {@code 0A000} for statements that cannot be made deterministic).
 */
public interface Session extends AutoCloseable {

    /**
     * Runs one statement. In autocommit mode it is a one-statement transaction and the answer is returned only
     * once it is committed; inside a transaction the answer is tentative until {@link #commit()}.
     * At most one cursor per session is open: executing a statement closes the previous cursor.
     */
    Answer execute(String sql, List<Param> params, ExecOptions options) throws SQLException;

    /**
     * Runs a batch: either one statement with several parameter sets ({@code sql != null}), or several
     * parameterless statements ({@code sql == null}, {@code statements} used). Returns one update count per
     * element, like {@link java.sql.Statement#executeBatch()}, and every element's generated keys when
     * {@code options} ask for them (like {@code getGeneratedKeys()} after a batch).
     */
    BatchAnswer executeBatch(String sql, List<List<Param>> parameterSets, List<String> statements, ExecOptions options)
            throws SQLException;

    /**
     * Parameter and result metadata of a statement about to be prepared, from the primary; nothing runs.
     * The default knows nothing ({@link StatementDescription#UNKNOWN}).
     */
    default StatementDescription describe(String sql) throws SQLException {
        return StatementDescription.UNKNOWN;
    }

    /** Answers a {@link java.sql.DatabaseMetaData} call from the primary's metadata (read-only, not voted). */
    Answer metadata(MetadataRequest request) throws SQLException;

    void setAutoCommit(boolean autoCommit) throws SQLException;

    boolean autoCommit();

    /**
     * Whether a transaction outside autocommit is open (it may hold locks). Called from the server's event loop while
     * a worker may run a request of this session: reads state without waiting for it.
     */
    default boolean inTransaction() {
        return false;
    }

    void setReadOnly(boolean readOnly) throws SQLException;

    /** Commits the current transaction; {@code 40001} when the replicas' answers did not agree. */
    void commit() throws SQLException;

    void rollback() throws SQLException;

    /** Asks the statement running now (if any) to stop; it then fails with SQLState {@code 57014}. */
    void cancel();

    /** Rolls back whatever is open and releases the session's replica connections. Idempotent. */
    @Override
    void close();
}
