package org.shepherd.jdbc;

import java.sql.Blob;
import java.sql.ClientInfoStatus;
import java.sql.Clob;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLWarning;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.shepherd.client.ClientConfig;
import org.shepherd.client.Cursor;
import org.shepherd.client.ProtocolConnection;
import org.shepherd.client.QueryExecutor;
import org.shepherd.client.ServerErrors;
import org.shepherd.protocol.v1.Message;

/**
 * A JDBC connection to a shepherd: one protocol session. The service is always serializable, so
 * {@link #getTransactionIsolation()} is {@code TRANSACTION_SERIALIZABLE}; asking for a weaker level is accepted
 * (a stronger guarantee than asked is always correct) and leaves a {@link SQLWarning} saying so.
 */
public class ShepherdConnection extends AbstractUnsupportedConnection {

    /** The client info names of JDBC 4 (Connection.setClientInfo's javadoc). */
    private static final List<String> CLIENT_INFO_NAMES = List.of("ApplicationName", "ClientUser", "ClientHostname");

    private final QueryExecutor executor;
    /** What {@link #setSchema} or a {@code SET SCHEMA} statement set last; null: the replicas' default. */
    private String schema;
    /** The session's SQL dialect, lower case (the shepherd's client dialect). */
    private final String dialect;
    /** A MySQL-family session's starting database, once asked ({@link #getCatalog}); "" when there is none. */
    private String defaultDatabase;
    private final Message.Ready ready;
    private final String url;
    private final ShepherdUrl parsedUrl;
    private final int defaultFetchSize;
    private final boolean backslashEscapes;
    private final Set<ShepherdStatement> statements = ConcurrentHashMap.newKeySet();
    private boolean autoCommit = true;
    private int savepointIds;
    private boolean readOnly;
    /** {@link #setClientInfo}'s properties; {@code ApplicationName} from the URL at first. */
    private final Properties clientInfo = new Properties();
    private SQLWarning warnings;
    private volatile boolean closed;

    ShepherdConnection(QueryExecutor executor, ShepherdUrl parsedUrl, String url, int defaultFetchSize) {
        this.executor = executor;
        this.ready = executor.connection().ready();
        this.parsedUrl = parsedUrl;
        this.url = url;
        this.defaultFetchSize = defaultFetchSize;
        this.dialect = ready.sqlDialect().toLowerCase(Locale.ROOT);
        this.backslashEscapes = dialect.equals("mysql") || dialect.equals("mariadb");
        String applicationName = DriverProperty.APPLICATION_NAME.get(parsedUrl.properties());
        if (applicationName != null) clientInfo.setProperty("ApplicationName", applicationName);
    }

    static ShepherdConnection open(ShepherdUrl u, String url) throws SQLException {
        Properties p = u.properties();
        if (DriverProperty.USER.get(p) == null || DriverProperty.USER.get(p).isEmpty()) {
            throw new SQLNonTransientConnectionException("no user given: add ?user=... to the URL or pass the user property",
                    ServerErrors.UNABLE_TO_CONNECT);
        }
        ClientConfig config = new ClientConfig(u.host(), u.port(), u.database(), DriverProperty.USER.get(p),
                DriverProperty.PASSWORD.get(p),
                DriverProperty.LOGIN_TIMEOUT.getInt(p) * 1000,
                DriverProperty.CONNECT_TIMEOUT.getInt(p) * 1000,
                DriverProperty.SOCKET_TIMEOUT.getInt(p) * 1000,
                DriverProperty.MAX_FRAME_BYTES.getInt(p),
                DriverProperty.SSL.getBoolean(p),
                DriverProperty.SSL_TRUST_STORE.get(p),
                DriverProperty.SSL_TRUST_STORE_PASSWORD.get(p),
                DriverProperty.SSL_HOSTNAME_VERIFICATION.getBoolean(p),
                DriverProperty.APPLICATION_NAME.get(p));
        int fetchSize = DriverProperty.FETCH_SIZE.getInt(p);
        ProtocolConnection conn = ProtocolConnection.open(config);
        return new ShepherdConnection(new QueryExecutor(conn, fetchSize), u, url, fetchSize);
    }

    QueryExecutor executor() {
        return executor;
    }

    Message.Ready ready() {
        return ready;
    }

    String url() {
        return url;
    }

    ShepherdUrl parsedUrl() {
        return parsedUrl;
    }

    int defaultFetchSize() {
        return defaultFetchSize;
    }

    /** Whether a backslash escapes the next character inside quoted SQL text (MySQL, MariaDB). */
    boolean backslashEscapes() {
        return backslashEscapes;
    }

    void checkOpen() throws SQLException {
        if (closed || executor.isClosed()) {
            closed = true;
            throw new SQLNonTransientConnectionException("the connection is closed", ServerErrors.CONNECTION_DOES_NOT_EXIST);
        }
    }

    void addWarnings(List<SQLWarning> list) {
        warnings = Warnings.append(warnings, list);
    }

    void statementClosed(ShepherdStatement s) {
        statements.remove(s);
    }

    // ---------------------------------------------------------------- statements

    @Override
    public Statement createStatement() throws SQLException {
        return createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        return createStatement(resultSetType, resultSetConcurrency, ResultSet.HOLD_CURSORS_OVER_COMMIT);
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        checkOpen();
        int type = resultSetKind("createStatement", resultSetType, resultSetConcurrency, resultSetHoldability);
        return register(new ShepherdStatement(this, type));
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        return prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        return prepareStatement(sql, resultSetType, resultSetConcurrency, ResultSet.HOLD_CURSORS_OVER_COMMIT);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
                                              int resultSetHoldability) throws SQLException {
        checkOpen();
        int type = resultSetKind("prepareStatement", resultSetType, resultSetConcurrency, resultSetHoldability);
        return register(new ShepherdPreparedStatement(this, sql, false, type));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        checkOpen();
        return register(new ShepherdPreparedStatement(this, sql, ShepherdStatement.keysFlag(autoGeneratedKeys)));
    }

    /** Returns the keys the database generates, whatever the indexes (see docs: the primary decides which columns). */
    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        checkOpen();
        return register(new ShepherdPreparedStatement(this, sql, true));
    }

    /**
     * Returns the keys the database generates (see docs: the primary decides which columns), labelled with
     * {@code columnNames} when it generated as many columns as are named.
     */
    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        checkOpen();
        ShepherdPreparedStatement ps = new ShepherdPreparedStatement(this, sql, true);
        ps.nameKeys(columnNames);
        return register(ps);
    }

    private <S extends ShepherdStatement> S register(S s) {
        statements.add(s);
        return s;
    }

    /**
     * The result set type statements made with these arguments get: TYPE_FORWARD_ONLY, or TYPE_SCROLL_INSENSITIVE (read
     * whole into client memory). As JDBC asks of a driver that cannot give what was asked, TYPE_SCROLL_SENSITIVE and
     * CONCUR_UPDATABLE are given as TYPE_SCROLL_INSENSITIVE and CONCUR_READ_ONLY, with a warning on this connection.
     */
    private int resultSetKind(String method, int type, int concurrency, int holdability) throws SQLException {
        if (type != ResultSet.TYPE_FORWARD_ONLY && type != ResultSet.TYPE_SCROLL_INSENSITIVE
                && type != ResultSet.TYPE_SCROLL_SENSITIVE) {
            throw new SQLException("Connection." + method + ": unknown result set type " + type, "HY024");
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY && concurrency != ResultSet.CONCUR_UPDATABLE) {
            throw new SQLException("Connection." + method + ": unknown result set concurrency " + concurrency, "HY024");
        }
        if (holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT) {
            throw new SQLFeatureNotSupportedException("Connection." + method + ": only HOLD_CURSORS_OVER_COMMIT is"
                    + " supported by Shepherd");
        }
        if (type == ResultSet.TYPE_SCROLL_SENSITIVE) {
            addWarnings(List.of(new SQLWarning("Shepherd's result sets do not see changes made after they were read:"
                    + " TYPE_SCROLL_SENSITIVE is given as TYPE_SCROLL_INSENSITIVE", "01000")));
            type = ResultSet.TYPE_SCROLL_INSENSITIVE;
        }
        if (concurrency == ResultSet.CONCUR_UPDATABLE) {
            addWarnings(List.of(new SQLWarning("Shepherd's result sets are read-only (a change must be a statement, so that"
                    + " every replica runs it): CONCUR_UPDATABLE is given as CONCUR_READ_ONLY; use UPDATE, INSERT or DELETE",
                    "01000")));
        }
        return type;
    }

    /** JDBC escape syntax is not translated: the SQL reaches the replicas as written. */
    @Override
    public String nativeSQL(String sql) throws SQLException {
        checkOpen();
        return sql;
    }

    // ---------------------------------------------------------------- transactions

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        checkOpen();
        if (autoCommit == this.autoCommit) return;
        addWarnings(executor.setAutoCommit(autoCommit));
        this.autoCommit = autoCommit;
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return autoCommit;
    }

    @Override
    public void commit() throws SQLException {
        checkOpen();
        if (autoCommit) throw new SQLException("commit is not allowed in autocommit mode", "25000");
        addWarnings(executor.commit());
    }

    @Override
    public void rollback() throws SQLException {
        checkOpen();
        if (autoCommit) throw new SQLException("rollback is not allowed in autocommit mode", "25000");
        addWarnings(executor.rollback());
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        Savepoint sp = savepoint(ShepherdSavepoint.unnamed(this, savepointIds + 1));
        savepointIds++; // ids count the savepoints set
        return sp;
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        return savepoint(ShepherdSavepoint.named(this, name));
    }

    private Savepoint savepoint(ShepherdSavepoint sp) throws SQLException {
        runInTransaction("SAVEPOINT " + sp.sqlName(), "set a savepoint");
        return sp;
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        runInTransaction("ROLLBACK TO SAVEPOINT " + ShepherdSavepoint.of(this, savepoint).sqlName(), "roll back to a savepoint");
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        runInTransaction("RELEASE SAVEPOINT " + ShepherdSavepoint.of(this, savepoint).sqlName(), "release a savepoint");
    }

    /** Savepoint statements: the shepherd runs them on every replica, inside the transaction, in its order. */
    private void runInTransaction(String sql, String what) throws SQLException {
        checkOpen();
        if (autoCommit) throw new SQLException("cannot " + what + " in autocommit mode", "25000");
        try (Statement s = createStatement()) {
            s.execute(sql);
        }
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        switch (level) {
            case TRANSACTION_SERIALIZABLE:
                return;
            case TRANSACTION_READ_UNCOMMITTED:
            case TRANSACTION_READ_COMMITTED:
            case TRANSACTION_REPEATABLE_READ:
                addWarnings(List.of(new SQLWarning("Shepherd always runs transactions SERIALIZABLE; the requested"
                        + " isolation level " + level + " is upgraded to TRANSACTION_SERIALIZABLE", "01000")));
                return;
            default:
                throw new SQLFeatureNotSupportedException("Connection.setTransactionIsolation(" + level
                        + ") is not supported by Shepherd: only TRANSACTION_SERIALIZABLE");
        }
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        return TRANSACTION_SERIALIZABLE;
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        if (readOnly == this.readOnly) return;
        addWarnings(executor.setReadOnly(readOnly));
        this.readOnly = readOnly;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return readOnly;
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        if (holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT) {
            throw new SQLFeatureNotSupportedException("Connection.setHoldability: only HOLD_CURSORS_OVER_COMMIT is"
                    + " supported by Shepherd");
        }
    }

    /** Open result sets survive commit: a result still open is read into memory before the next request. */
    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    // ---------------------------------------------------------------- session

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        return new ShepherdDatabaseMetaData(this);
    }

    @Override
    public boolean isValid(int timeoutSeconds) throws SQLException {
        if (timeoutSeconds < 0) throw new SQLException("isValid: timeout must be >= 0", "22023");
        if (closed || executor.isClosed()) return false;
        return executor.ping(timeoutSeconds * 1000);
    }

    @Override
    public void setNetworkTimeout(Executor ignoredExecutor, int milliseconds) throws SQLException {
        checkOpen();
        if (milliseconds < 0) throw new SQLException("setNetworkTimeout: milliseconds must be >= 0", "22023");
        executor.connection().setSocketTimeout(milliseconds);
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        checkOpen();
        return executor.connection().socketTimeout();
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return warnings;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        warnings = null;
    }

    /** Null: catalogs are not exposed (the database of the URL selects the replicated database). */
    @Override
    public String getCatalog() throws SQLException {
        checkOpen();
        if (!isMySqlFamily()) return null;
        if (schema != null) return schema;
        if (defaultDatabase == null) { // asked once: the database a session starts in, as the shepherd answers DATABASE()
            try (Statement s = createStatement(); ResultSet rs = s.executeQuery("SELECT DATABASE()")) {
                defaultDatabase = rs.next() && rs.getString(1) != null ? rs.getString(1) : "";
            }
        }
        return defaultDatabase.isEmpty() ? null : defaultDatabase;
    }

    /** MySQL and MariaDB call a database a catalog. */
    private boolean isMySqlFamily() {
        return "mysql".equals(dialect) || "mariadb".equals(dialect);
    }

    /**
     * The schema {@link #setSchema} or a {@code SET SCHEMA} / {@code USE} statement the shepherd accepted set last (its
     * name as stored), or null: the replicas' default schema applies.
     */
    @Override
    public String getSchema() throws SQLException {
        checkOpen();
        return schema;
    }

    /** The session's SQL dialect, lower case (e.g. {@code derby}): how plain names fold. */
    String dialect() {
        return dialect;
    }

    /** A {@code SET SCHEMA} statement the shepherd accepted set the session's schema. */
    void schemaSet(String schema) {
        this.schema = schema;
    }

    /**
     * Null, what {@link #getCatalog()} says, is accepted and changes nothing (a tool that saves and restores the catalog
     * works); another catalog is refused, as a session cannot leave the database of its URL.
     */
    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen();
        if (isMySqlFamily()) {
            setSchema(catalog); // a MySQL database is what MySQL's drivers call a catalog (Flyway sets it so)
            return;
        }
        if (catalog != null) {
            throw new SQLFeatureNotSupportedException("Connection.setCatalog(\"" + catalog + "\") is not supported by Shepherd:"
                    + " a session uses the database of its URL (getCatalog() is null); name another schema (a MySQL database)"
                    + " with setSchema", "0A000");
        }
    }

    /**
     * The session's default schema from now on (its name as stored, e.g. {@code APP} on Derby), as {@code SET SCHEMA}
     * sets it: the shepherd names it in every table the session's statements leave unqualified; null goes back to the
     * replicas' default. The schema must exist (3F000); mode passthrough refuses it (0A000).
     */
    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen();
        if (java.util.Objects.equals(schema, this.schema)) return;
        String sql = schema == null ? "SET SCHEMA DEFAULT" : "SET SCHEMA \"" + schema.replace("\"", "\"\"") + "\"";
        try (Statement s = createStatement()) {
            s.execute(sql);
        }
        this.schema = schema;
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        checkOpen();
        return Collections.emptyMap();
    }

    /**
     * Kept by the driver for {@link #getClientInfo}: the shepherd learns {@code ApplicationName} from the URL when the
     * connection opens and nothing later. Names other than the three JDBC lists are kept too, with a warning.
     */
    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        try {
            checkOpen();
        } catch (SQLException e) {
            throw new SQLClientInfoException(e.getMessage(), e.getSQLState(), Map.of(String.valueOf(name),
                    ClientInfoStatus.REASON_UNKNOWN), e);
        }
        if (name == null) throw new SQLClientInfoException("setClientInfo: the name is null", "22023", Map.of());
        if (!CLIENT_INFO_NAMES.contains(name)) {
            addWarnings(List.of(new SQLWarning("client info property " + name + " is not one Shepherd knows ("
                    + String.join(", ", CLIENT_INFO_NAMES) + "); it is kept by the driver only", "01000")));
        }
        if (value == null) {
            clientInfo.remove(name);
        } else {
            clientInfo.setProperty(name, value);
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        try {
            checkOpen();
        } catch (SQLException e) {
            Map<String, ClientInfoStatus> failed = new HashMap<>();
            for (String n : properties.stringPropertyNames()) failed.put(n, ClientInfoStatus.REASON_UNKNOWN);
            throw new SQLClientInfoException(e.getMessage(), e.getSQLState(), failed, e);
        }
        clientInfo.clear(); // JDBC: the properties given replace every property set before
        for (String n : properties.stringPropertyNames()) setClientInfo(n, properties.getProperty(n));
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkOpen();
        return clientInfo.getProperty(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        checkOpen();
        Properties p = new Properties();
        p.putAll(clientInfo);
        return p;
    }

    /** An empty Blob to fill ({@code setBytes}, {@code setBinaryStream}) and bind as a parameter. */
    @Override
    public Blob createBlob() throws SQLException {
        checkOpen();
        return new ShepherdBlob(new byte[0]);
    }

    /** An empty Clob to fill ({@code setString}, {@code setCharacterStream}) and bind as a parameter. */
    @Override
    public Clob createClob() throws SQLException {
        checkOpen();
        return new ShepherdClob("");
    }

    @Override
    public NClob createNClob() throws SQLException {
        checkOpen();
        return new ShepherdClob("");
    }

    @Override
    public boolean isClosed() {
        return closed || executor.isClosed();
    }

    /**
     * Rolls back what is open (the shepherd does so when the session ends) and closes the socket. When another
     * thread waits for an answer on this connection, the socket is closed at once instead of waiting for it.
     */
    @Override
    public void close() throws SQLException {
        if (closed) return;
        closed = true;
        if (executor.busy()) executor.connection().abort();
        for (ShepherdStatement s : List.copyOf(statements)) s.closeQuietly();
        executor.close();
    }

    @Override
    public void abort(Executor executorForClose) throws SQLException {
        if (executorForClose == null) throw new SQLException("abort: executor must not be null", "22023");
        if (closed) return;
        closed = true;
        executor.connection().abort();
        executorForClose.execute(() -> {
            for (ShepherdStatement s : List.copyOf(statements)) s.closeQuietly();
        });
    }

    /**
     * For tools ({@code shepherd status}): the view as one row (mode, f, barrier, primary, replicas, commits, aborts,
     * vote_aborts, divergences_total). Reach it with {@code connection.unwrap(ShepherdConnection.class)}.
     */
    public ResultSet adminView() throws SQLException {
        return adminQuery("shepherd.view");
    }

    /**
     * For tools: one row per replica (replica, role, state, last_committed_barrier, lag_barriers, pool_size,
     * reruns, divergences, location).
     */
    public ResultSet adminStatus() throws SQLException {
        return adminQuery("shepherd.status");
    }

    /** For tools: the divergence report (time, txid, statement_index, statement, replica, expected, got, masked). */
    public ResultSet adminDivergences() throws SQLException {
        return adminQuery("shepherd.divergences");
    }

    /**
     * For tools ({@code shepherd restore}): brings back lost replica {@code replica} in two steps. First
     * ({@code copied} false) the shepherd keeps its log for a copy of an up-to-date replica's database that the operator
     * takes after this and installs on it; then ({@code copied} true) it probes, checks and catches it up. One row
     * (replica, state); fails when the replica is not in the state the step needs.
     */
    public ResultSet adminRestore(String replica, boolean copied) throws SQLException {
        return adminQuery(copied ? "shepherd.restore.copied" : "shepherd.restore", replica);
    }

    /**
     * For tools ({@code shepherd restore --take-out}): the first step of {@link #adminRestore} for a secondary that is not
     * lost (its data differs): it is taken out of service first. Refused for the primary, and when fewer than f+1 other
     * replicas are up.
     */
    public ResultSet adminRestoreTakingOut(String replica) throws SQLException {
        return adminQuery("shepherd.restore.takeout", replica);
    }

    /**
     * For tools ({@code shepherd verify}): compares every table ({@code table} null) or one on every replica, through
     * the vote. One row per table (table, rows, chunks, differing, result); replicas that differ are also reported as
     * divergences.
     */
    public ResultSet adminVerify(String table) throws SQLException {
        return table == null ? adminQuery("shepherd.verify") : adminQuery("shepherd.verify", table);
    }

    /**
     * For tools ({@code shepherd verify --repair}): as {@link #adminVerify}, then each key range where a secondary
     * differed is rewritten there to the rows f+1 replicas agree on, and the table compared again. One row per table
     * (table, rows, chunks, differing, repaired, result).
     */
    public ResultSet adminVerifyAndRepair(String table) throws SQLException {
        return table == null ? adminQuery("shepherd.verify.repair") : adminQuery("shepherd.verify.repair", table);
    }

    private ResultSet adminQuery(String method, Object... arguments) throws SQLException {
        checkOpen();
        Cursor cursor = executor.metadata(method, List.of(arguments));
        return new ShepherdResultSet(null, cursor);
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) return iface.cast(this);
        throw new SQLException("not a wrapper for " + iface.getName(), "22023");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    @Override
    public String toString() {
        return "ShepherdConnection[" + ShepherdUrl.redact(url) + ", session " + ready.sessionId() + "]";
    }
}
