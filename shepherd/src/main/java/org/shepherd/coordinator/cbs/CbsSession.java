package org.shepherd.coordinator.cbs;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.shepherd.admin.AdminQueries;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.BatchAnswer;
import org.shepherd.coordinator.BufferedCursor;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.MetadataRequest;
import org.shepherd.coordinator.ResultCursor;
import org.shepherd.coordinator.Session;
import org.shepherd.coordinator.SessionSettings;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;
import org.shepherd.replica.jdbc.JdbcExecution;
import org.shepherd.schedule.TxState;
import org.shepherd.schedule.Txn;
import org.shepherd.translator.Bound;
import org.shepherd.translator.NamedLockCall;
import org.shepherd.translator.SchemaCatalog;
import org.shepherd.translator.SequenceStatement;
import org.shepherd.translator.SessionSetting;
import org.shepherd.translator.StatementKind;
import org.shepherd.translator.TableLock;
import org.shepherd.translator.TransactionControl;
import org.shepherd.translator.Translation;
import org.shepherd.translator.Translator;
import org.shepherd.translator.dialect.Dialect;
import org.shepherd.wal.IgnorableError;
import org.shepherd.wal.LoggedStatement;
import org.shepherd.wal.Rendering;

/**
 * One client session over the {@link CbsCore}: inside a transaction each answer is the primary's (tentative until
 * COMMIT); in autocommit mode each statement is a one-statement transaction answered only after its vote.
 */
final class CbsSession implements Session {

    private static final AtomicLong IDS = new AtomicLong();
    private static final int NO_NULLS = java.sql.ResultSetMetaData.columnNoNulls;
    /** This session's number, which IS_USED_LOCK names a lock's holder by. */
    private final long id = IDS.incrementAndGet();
    private final SessionDeterminism determinism;
    private final CbsCoordinator coordinator;
    private final CbsCore<JdbcStatement> core;
    private volatile Txn<JdbcStatement> current;
    private boolean autoCommit = true;
    private boolean autoCommitAfterExplicit;
    private boolean readOnly;
    private volatile CompletableFuture<?> waiting;
    private volatile long runningTxId = -1;
    private ResultCursor openCursor;
    /** The savepoints the primary holds in the current transaction, oldest first (names upper-cased). */
    private final List<String> savepoints = new ArrayList<>();
    /** The open transaction (the client's, or a statement's or batch's own) that may have changed the schema, or null. */
    private Txn<JdbcStatement> schemaChangedIn;
    /**
     * That transaction ran DDL or a statement as written that is not a listing (SHOW, DESCRIBE, EXPLAIN): the catalog
     * forgets what it learned or loaded meanwhile when it ends ({@link #transactionEnded}).
     */
    private boolean changedSchema;
    /** The session's default schema as SQL names it ({@code SET SCHEMA}), or null for the replicas' own default. */
    private String schema;
    private volatile boolean closed;

    CbsSession(CbsCoordinator coordinator, String user) {
        this.coordinator = coordinator;
        this.core = coordinator.core();
        this.determinism = new SessionDeterminism(coordinator.determinism(), user);
    }

    @Override
    public Answer execute(String sql, List<Param> params, ExecOptions options) throws SQLException {
        checkOpen();
        return coordinator.onBehalfOf(this, () -> executeStatement(sql, params, options));
    }

    private Answer executeStatement(String sql, List<Param> params, ExecOptions options) throws SQLException {
        TableLock lock = TableLock.of(sql, coordinator.clientDialect());
        if (lock != null) return lockTable(lock);
        List<Object> values = valuesOf(params);
        NamedLockCall named = NamedLockCall.of(sql, coordinator.clientDialect(), values);
        if (named != null) return namedLock(named);
        String settingSql = params.isEmpty() ? sql : SessionSetting.withValues(sql, values);
        SessionSetting setting = SessionSetting.of(settingSql);
        if (setting != null && setting.kind() == SessionSetting.Kind.SCHEMA) return setSchema(setting.schema());
        if (setting != null) return SessionSettings.answer(setting, settingSql, determinism.zone());
        SequenceStatement sequence = SequenceStatement.of(sql, coordinator.clientDialect());
        if (sequence != null) {
            if (readOnly) {
                throw new SQLException("The connection is read-only (Connection.setReadOnly(true)): a statement that changes"
                        + " the schema is refused; call setReadOnly(false) first", "25006");
            }
            coordinator.applySequence(sequence);
            return new Answer.Update(0, List.of(), List.of(), List.of());
        }
        Translation tr = coordinator.translate(sql, schema);
        if (readOnly) refuseChangeWhenReadOnly(tr, sql);
        if (tr != null) {
            switch (tr.kind()) {
                case TRANSACTION:
                    if (!tr.transactionControl().insideTransaction()) return transactionControl(tr);
                    return savepointStatement(tr, sql, options);
                case OTHER:
                    if (!coordinator.homogeneous()) {
                        throw new SQLFeatureNotSupportedException("Shepherd cannot run this statement on replicas of"
                                + " different SQL dialects: " + sql.strip(), "0A000");
                    }
                    break;
                default:
                    break;
            }
        }
        closeOpenCursor();
        boolean ddl = tr != null && tr.kind() == StatementKind.DDL;
        if (ddl) coordinator.refuseIndexNameOfAnotherTable(tr);
        try {
            Answer a = tr != null && tr.readsCatalog() ? catalogQuery(tr, params) : runStatement(tr, sql, params, options);
            // only what may list tables is looked at: untranslated statements, reads, and the others (SHOW ...)
            boolean other = tr == null || tr.kind() == StatementKind.OTHER;
            if (!(a instanceof Answer.Rows) || !other && tr.kind() != StatementKind.READ) return a;
            if (other && ReservedTables.isTableListing(sql)) {
                openCursor = null; // read to its end here
                return ReservedTables.withoutReservedRows(a);
            }
            if (!(other ? Translator.readsCatalog(sql) : tr.readsCatalog())) return a;
            Answer filtered = ReservedTables.withoutReservedCatalogRows(a);
            if (filtered != a) openCursor = null; // read to its end here
            return filtered;
        } catch (SQLException e) {
            if (ddl) coordinator.forgetSchema(); // the catalog learned a change that did not happen
            throw e;
        }
    }

    /**
     * Notes that transaction {@code t} runs {@code stmt} (of translation {@code tr}, if any), which may change the
     * schema: DDL, and what the translator leaves to the engines as written (CREATE SCHEMA, a trigger, a procedure, ...;
     * also SHOW, for which reading the catalog in {@code t} does not matter, but which makes the catalog forget nothing).
     */
    private void mayChangeSchema(Txn<JdbcStatement> t, Translation tr, JdbcStatement stmt) {
        boolean ddl = tr != null && tr.kind() == StatementKind.DDL;
        boolean asWritten = tr == null || tr.kind() == StatementKind.OTHER;
        if (ddl || asWritten) schemaChangedIn = t;
        changedSchema |= ddl || asWritten && !SHOWS.matcher(stmt.sql()).matches();
    }

    /**
     * The open transaction of this session that may have changed the schema, or null: what the shepherd reads of the
     * primary's catalog for this session it reads in that transaction ({@link CbsCoordinator#readPrimaryCatalog}).
     */
    Txn<JdbcStatement> schemaChangedIn() {
        return schemaChangedIn;
    }

    /**
     * A query of the catalog: the primary's answer, or that of a secondary of the client's engine family when the primary
     * is of another ({@link CbsCoordinator#catalogReplica}).
     */
    private Answer catalogQuery(Translation tr, List<Param> params) throws SQLException {
        Bound bound = tr.bind(timesCut(params, tr), determinism, JdbcStatement::valueOf);
        JdbcReplicaEndpoint replica = coordinator.catalogReplica(); // this thread works for this session (execute)
        Dialect d = replica.dialect();
        List<Param> values = new ArrayList<>();
        for (Object v : bound.parameters(d)) values.add(JdbcStatement.toParam(v));
        try {
            return coordinator.catalogQuery(replica, bound.sqlFor(d), values);
        } catch (SQLException e) {
            Dialect.Family client = coordinator.clientDialect().family();
            if (d.family() == client) throw e;
            // after a view change to another engine: say why the client's catalog is not there
            throw new SQLException("a query of the client's catalog (" + lower(client) + "'s), answered by the primary "
                    + replica.name() + ", whose catalog is " + lower(d.family()) + "'s: no replica of the client's engine is up"
                    + " and caught up to answer it; it fails there: " + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
        }
    }

    /**
     * {@code params} with the fractional seconds of their time values cut alike for every replica ({@link
     * FractionalSeconds}), where the replicas are of several engines; replicas of one engine cut them alike themselves.
     */
    private List<Param> timesCut(List<Param> params, Translation tr) {
        return params.isEmpty() || coordinator.homogeneous() ? params : FractionalSeconds.cut(params, tr, coordinator.clientDialect());
    }

    private static String lower(Dialect.Family f) {
        return f.name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * {@code SET SCHEMA} and its spellings: the session names {@code identifier} (null: the replicas' default) in every
     * table its statements leave unqualified, from the next statement on. The schema must exist on the primary (3F000); the name of the
     * schema the primary starts in means each replica's own default (no session schema).
     */
    private Answer setSchema(String identifier) throws SQLException {
        if (identifier != null && coordinator.isDefaultSchema(identifier)) identifier = null;
        if (identifier != null) coordinator.checkSchemaExists(identifier);
        schema = identifier;
        return new Answer.Update(0, List.of(), List.of(), List.of());
    }

    /**
     * A table lock, written for each replica's engine ({@link TableLock}), held until the transaction ends (in autocommit
     * mode, released at once, as on the engines).
     */
    private Answer lockTable(TableLock lock) throws SQLException {
        if (readOnly) {
            throw new SQLException("The connection is read-only (Connection.setReadOnly(true)): LOCK TABLE is refused; call"
                    + " setReadOnly(false) first", "25006");
        }
        closeOpenCursor();
        String sessionSchema = schema == null ? null : SessionSetting.storedName(schema, coordinator.clientDialect());
        String defaultSchema = coordinator.databaseInfo().defaultSchema();
        List<Rendering> renderings = new ArrayList<>();
        for (JdbcReplicaEndpoint e : coordinator.endpoints()) {
            Dialect d = e.dialect();
            if (renderings.stream().noneMatch(r -> r.dialect().equals(d.name()))) {
                renderings.add(new Rendering(d.name(), lock.render(d, sessionSchema, defaultSchema), List.of(), IgnorableError.NONE));
            }
        }
        return runJdbc(null, JdbcStatement.logged(new LoggedStatement(renderings)));
    }

    /** The values of {@code params}, read only where asked (most statements never look). */
    private static List<Object> valuesOf(List<Param> params) {
        return new java.util.AbstractList<>() {
            @Override
            public Object get(int index) {
                return params.get(index).value();
            }

            @Override
            public int size() {
                return params.size();
            }
        };
    }

    /** MySQL's GET_LOCK and the others, answered from the shepherd's own named locks ({@link NamedLocks}). */
    private Answer namedLock(NamedLockCall call) throws SQLException {
        NamedLocks locks = coordinator.namedLocks();
        Long value;
        switch (call.function()) {
            case "GET_LOCK":
                try {
                    value = locks.get(this, id, call.name(), call.timeoutSeconds());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted while waiting for lock " + call.name(), "57014", e);
                }
                break;
            case "RELEASE_LOCK": value = locks.release(this, call.name()); break;
            case "IS_FREE_LOCK": value = locks.isFree(call.name()); break;
            case "IS_USED_LOCK": value = locks.holderOf(call.name()); break;
            default: value = locks.releaseAll(this); break;
        }
        ColumnInfo column = new ColumnInfo(call.label(), call.label(), java.sql.Types.BIGINT, "BIGINT", 19, 0,
                java.sql.ResultSetMetaData.columnNullable, "", false);
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {value});
        return new Answer.Rows(new BufferedCursor(List.of(column), rows), List.of());
    }

    private Answer runStatement(Translation tr, String sql, List<Param> params, ExecOptions options) throws SQLException {
        if (tr != null && tr.returning() != null) return insertReturning(tr, sql, params, options);
        if (insertSelectKeyColumn(tr) != null) return insertSelectWithPinnedKeys(tr, params, options);
        return runJdbc(tr, statement(tr, sql, params, options, !autoCommit));
    }

    /**
     * {@code INSERT INTO t (columns) VALUES ... RETURNING k} (MariaDB, PostgreSQL) where k is t's identity column: run
     * without the clause, the keys pinned as for {@link java.sql.Statement#getGeneratedKeys}, which are its answer, one
     * row per inserted row, labelled as the clause says. Returning anything else is refused before the INSERT runs: the
     * other engines have no RETURNING, and only the keys come back from every engine alike.
     */
    private Answer insertReturning(Translation tr, String sql, List<Param> params, ExecOptions options) throws SQLException {
        String keyColumn = coordinator.identityColumn(tr.insertTable()).orElse(null);
        String refused = keyColumn == null ? tr.insertTable() + " has no identity column"
                : tr.insertSelectSql() != null ? "its rows come from a SELECT"
                : tr.upsert() ? "it updates rows on a duplicate key" : null;
        for (Translation.Returned r : tr.returning()) {
            if (refused == null && !SchemaCatalog.key(r.column()).equals(SchemaCatalog.key(keyColumn))) {
                refused = r.column() + " is not " + tr.insertTable() + "'s identity column, " + keyColumn;
            }
        }
        if (refused != null) {
            throw new SQLFeatureNotSupportedException("INSERT ... RETURNING returns only the keys an INSERT INTO t (columns)"
                    + " VALUES ... generated in t's identity column (the other engines have no RETURNING), and here " + refused
                    + "; read other values with a SELECT", "0A000");
        }
        ExecOptions withKeys = new ExecOptions(options.maxRows(), options.fetchSize(), options.queryTimeoutSeconds(), true);
        Answer.Update u = (Answer.Update) runJdbc(tr, statement(tr, sql, params, withKeys, false));
        ColumnInfo key = u.keyColumns().isEmpty() ? null : u.keyColumns().get(0);
        List<ColumnInfo> columns = new ArrayList<>();
        for (Translation.Returned r : tr.returning()) {
            columns.add(key == null
                    ? new ColumnInfo(r.label(), r.label(), java.sql.Types.BIGINT, "BIGINT", 19, 0, NO_NULLS, "", true)
                    : new ColumnInfo(r.label(), r.label(), key.jdbcType(), key.typeName(), key.precision(), key.scale(), NO_NULLS,
                            key.tableName(), true));
        }
        List<Object[]> rows = new ArrayList<>();
        for (Object[] k : u.generatedKeys()) {
            Object[] row = new Object[columns.size()];
            java.util.Arrays.fill(row, k.length > 0 ? k[0] : null);
            rows.add(row);
        }
        return new Answer.Rows(new BufferedCursor(columns, rows), u.warnings());
    }

    /**
     * Runs {@code stmt} (of translation {@code tr}, if any) in the session's transaction, or in one of its own. DDL, when a
     * replica is MySQL, MariaDB or HSQLDB, is a transaction of its own on every replica, after the session's open
     * transaction is committed: what those engines do by themselves (their implicit commit), which a ROLLBACK on the
     * others would undo.
     */
    private Answer runJdbc(Translation tr, JdbcStatement stmt) throws SQLException {
        if (!autoCommit && !committedApart(tr, stmt)) {
            Txn<JdbcStatement> t = transaction();
            mayChangeSchema(t, tr, stmt);
            Answer a = run(t, stmt);
            if (a instanceof Answer.Rows rows && rows.cursor() instanceof StreamingCursor) openCursor = rows.cursor();
            return a;
        }
        return afterCommitting(autoCommit ? null : current, tr, stmt);
    }

    /**
     * Commits {@code open} (null: nothing to commit; when it is the session's open transaction, the session has none
     * afterwards), then runs {@code stmt} in a transaction of its own: DDL that commits the open transaction and itself
     * ({@link #committedApart}).
     */
    private Answer afterCommitting(Txn<JdbcStatement> open, Translation tr, JdbcStatement stmt) throws SQLException {
        if (open == current) current = null;
        if (open != null) commitOnCore(open);
        return inItsOwnTransaction(tr, stmt);
    }

    /**
     * Whether {@code stmt} (of translation {@code tr}, if any) is DDL that commits the open transaction and itself
     * ({@link CbsCoordinator#ddlCommitsTransaction}): translated DDL, or a statement sent as written to MySQL-family
     * replicas that they commit so ({@link Translator#commitsImplicitlyOnMySql}: a trigger, ALTER ONLINE TABLE, OPTIMIZE).
     */
    private boolean committedApart(Translation tr, JdbcStatement stmt) {
        if (coordinator.ddlCommitsTransaction() == null) return false;
        if (tr != null && tr.kind() != StatementKind.OTHER) return tr.kind() == StatementKind.DDL;
        return Translator.commitsImplicitlyOnMySql(stmt.sql());
    }

    /** Runs {@code stmt} in a transaction of its own, committed at once. */
    private Answer inItsOwnTransaction(Translation tr, JdbcStatement stmt) throws SQLException {
        Txn<JdbcStatement> t = begin();
        mayChangeSchema(t, tr, stmt);
        Answer answer;
        try {
            answer = run(t, stmt);
        } catch (SQLException e) {
            rollbackOnCore(t);
            throw e;
        }
        try {
            commitOnCore(t);
        } catch (SQLException e) {
            if (answer instanceof Answer.Rows rows) closeQuietly(rows.cursor());
            throw e;
        }
        return answer;
    }

    /**
     * Rows one INSERT ... VALUES of an INSERT ... SELECT into an identity table carries: engines bound a statement's rows
     * and markers (PostgreSQL 32,767 markers). More rows are inserted in slices of this size.
     */
    static final int INSERT_SELECT_ROWS_MAX = 1_000;
    static final int INSERT_SELECT_MARKERS_MAX = 32_767;

    /** Rows an INSERT ... SELECT into an identity table may insert: the shepherd holds them in memory between the two. */
    static final int INSERT_SELECT_ROWS_TOTAL_MAX = 100_000;

    /**
     * The identity column of the table an {@code INSERT INTO t (columns) SELECT ...} fills when the column list leaves it
     * out (its keys are generated, and must be pinned), else null.
     */
    private String insertSelectKeyColumn(Translation tr) throws SQLException {
        if (tr == null || tr.kind() != StatementKind.WRITE || tr.insertTable() == null || tr.insertSelectSql() == null) {
            return null;
        }
        String keyColumn = coordinator.identityColumn(tr.insertTable()).orElse(null);
        if (keyColumn == null) return null;
        // the SELECT gives the keys: refused as before (checkKeysCanBePinned)
        return tr.insertColumnIndex(keyColumn) >= 0 ? null : keyColumn;
    }

    /**
     * {@code INSERT INTO t (columns) SELECT ...} into a table whose keys are generated: which key each row gets depends on
     * the order each engine produces the rows in, so the statement cannot run as it is on every replica. The session runs
     * the SELECT as a statement of the transaction (voted like any read), then inserts its rows with
     * {@code INSERT INTO t (columns) VALUES ...} statements of at most {@link #INSERT_SELECT_ROWS_MAX} rows each, whose
     * keys the primary generates and the secondaries are given (at most {@link #INSERT_SELECT_ROWS_TOTAL_MAX} rows in
     * all: 54000 beyond, before any is inserted). The answer is the INSERTs': the rows inserted (and their keys when
     * asked). The statement stays all or nothing: in autocommit mode its slices are one transaction; in the client's
     * transaction, a slice that fails after others ran rolls the transaction back (40000), since the slices before it
     * cannot be undone alone.
     */
    private Answer insertSelectWithPinnedKeys(Translation tr, List<Param> params, ExecOptions options) throws SQLException {
        Translation select = coordinator.insertSelect(tr, schema);
        Txn<JdbcStatement> t = autoCommit ? begin() : transaction();
        try {
            ExecOptions read = new ExecOptions(0, options.fetchSize(), options.queryTimeoutSeconds(), false);
            List<ColumnInfo> columns;
            List<Object[]> rows = new ArrayList<>();
            try (ResultCursor cursor = ((Answer.Rows) run(t, statement(select, select.clientSql(), params, read, false))).cursor()) {
                columns = cursor.columns();
                while (!cursor.exhausted()) {
                    rows.addAll(cursor.fetch(INSERT_SELECT_ROWS_MAX));
                    if (rows.size() > INSERT_SELECT_ROWS_TOTAL_MAX) {
                        throw new SQLException("INSERT ... SELECT into " + tr.insertTable() + ", whose keys are generated, of more"
                                + " than " + INSERT_SELECT_ROWS_TOTAL_MAX + " rows: Shepherd holds the SELECT's rows to give each"
                                + " its key on every replica; insert in slices (a WHERE on a key range)", "54000");
                    }
                }
            }
            Answer answer = insertSlices(t, tr, columns, rows, options);
            if (autoCommit) commitOnCore(t);
            return answer;
        } catch (SQLException | RuntimeException e) {
            if (autoCommit) rollbackOnCore(t);
            throw e;
        }
    }

    /** The rows of an INSERT ... SELECT, inserted by INSERT ... VALUES statements of at most a slice's rows each. */
    private Answer insertSlices(Txn<JdbcStatement> t, Translation tr, List<ColumnInfo> columns, List<Object[]> rows,
                                ExecOptions options) throws SQLException {
        int slice = Math.min(INSERT_SELECT_ROWS_MAX, INSERT_SELECT_MARKERS_MAX / Math.max(1, columns.size()));
        long count = 0;
        List<ColumnInfo> keyColumns = List.of();
        List<Object[]> keys = new ArrayList<>();
        List<java.sql.SQLWarning> warnings = new ArrayList<>();
        Long firstKey = null;
        for (int from = 0; from < rows.size(); from += slice) {
            List<Object[]> part = rows.subList(from, Math.min(rows.size(), from + slice));
            String sql = insertValuesSql(tr, columns.size(), part.size());
            List<Param> values = new ArrayList<>();
            for (Object[] row : part) {
                for (int i = 0; i < row.length; i++) values.add(new Param(columns.get(i).jdbcType(), row[i]));
            }
            Answer.Update a;
            try {
                a = (Answer.Update) run(t, statement(coordinator.translate(sql, schema), sql, values, options, false));
            } catch (SQLException e) {
                if (from == 0 || autoCommit) throw e;
                rollbackOnCore(t);
                throw new java.sql.SQLTransactionRollbackException("INSERT ... SELECT into " + tr.insertTable() + " failed after"
                        + " inserting " + from + " of its " + rows.size() + " rows (Shepherd inserts them in slices of " + slice
                        + " to give each its key on every replica); the transaction was rolled back so that the statement"
                        + " leaves nothing: " + e.getMessage(), "40000", e);
            }
            if (from == 0) firstKey = determinism.lastInsertId();
            count += a.count();
            if (!a.keyColumns().isEmpty()) keyColumns = a.keyColumns();
            keys.addAll(a.generatedKeys());
            warnings.addAll(a.warnings());
        }
        determinism.inserted(firstKey); // LAST_INSERT_ID() is the statement's first key, not its last slice's
        return new Answer.Update(count, keyColumns, keys, warnings);
    }

    /** {@code INSERT INTO t (columns) VALUES (?, ...), ...} of {@code rows} rows, in the client's dialect. */
    private static String insertValuesSql(Translation tr, int width, int rows) throws SQLException {
        if (width != tr.insertColumns().size()) {
            throw new SQLException("INSERT ... SELECT: the SELECT gives " + width + " columns for " + tr.insertColumns().size()
                    + " named", "21S01");
        }
        String row = "(" + String.join(", ", java.util.Collections.nCopies(width, "?")) + ")";
        return "INSERT INTO " + tr.insertTable() + " (" + String.join(", ", tr.insertColumns()) + ") VALUES "
                + String.join(", ", java.util.Collections.nCopies(rows, row));
    }

    private static void closeQuietly(ResultCursor cursor) {
        try {
            cursor.close();
        } catch (SQLException e) {
            // a held result: nothing can fail that matters to a statement already failed
        }
    }

    private JdbcStatement statement(Translation tr, String sql, List<Param> clientParams, ExecOptions options, boolean stream)
            throws SQLException {
        List<Param> params = timesCut(clientParams, tr);
        if (tr == null) return new JdbcStatement(coordinator.asWritten(sql), params, options, null, null, stream);
        if (tr.kind() == StatementKind.DDL) coordinator.forgetIdentityColumns();
        Bound bound = tr.bind(params, determinism, JdbcStatement::valueOf);
        String keyColumn = null;
        if (tr.kind() == StatementKind.WRITE && tr.insertTable() != null) {
            keyColumn = coordinator.identityColumn(tr.insertTable()).orElse(null);
            if (keyColumn != null && tr.upsert() && !tr.upsertKeysPinnable()) {
                throw new SQLFeatureNotSupportedException("REPLACE, or INSERT ... SELECT ... ON DUPLICATE KEY UPDATE, into "
                        + tr.insertTable() + ", which has an AUTO_INCREMENT column (" + keyColumn + "), is not supported: the"
                        + " keys the primary generates cannot be given to the other replicas; upsert with INSERT INTO t"
                        + " (columns) VALUES ... ON DUPLICATE KEY UPDATE", "0A000");
            }
            if (keyColumn != null) checkKeysCanBePinned(bound, keyColumn);
            Dialect primary = coordinator.primary().dialect();
            if (keyColumn != null && !primary.reportsGeneratedKeysOfEveryRow() && !primary.nestsSavepoints()
                    && !savepoints.isEmpty() && tr.insertValuesRows() > 1) {
                // the primary learns each row's key by running the rows one by one inside a savepoint of its own
                throw new SQLFeatureNotSupportedException("An INSERT of several VALUES rows into " + tr.insertTable()
                        + ", which has an identity column (" + keyColumn + "), while savepoint " + savepoints.get(0)
                        + " is open: the " + primary.name() + " primary holds one savepoint at a time; insert one row per"
                        + " statement, or release the savepoint first", "0A000");
            }
        }
        return new JdbcStatement(sql, params, options, bound, keyColumn, stream);
    }

    /** An INSERT into an identity table that cannot carry explicit keys is refused before it runs anywhere. */
    private void checkKeysCanBePinned(Bound bound, String keyColumn) throws SQLException {
        try {
            bound.sqlWithExplicitKeys(coordinator.primary().dialect(), keyColumn, List.of());
        } catch (SQLException e) {
            if (e.getMessage() != null && e.getMessage().contains("keys were given")) return;
            throw e;
        }
    }

    private Answer transactionControl(Translation tr) throws SQLException {
        switch (tr.transactionControl()) {
            case COMMIT:
                commit();
                if (autoCommitAfterExplicit) restoreAutoCommit();
                break;
            case ROLLBACK:
                rollback();
                if (autoCommitAfterExplicit) restoreAutoCommit();
                break;
            case BEGIN:
                if (autoCommit) {
                    autoCommit = false;
                    autoCommitAfterExplicit = true;
                }
                break;
            default:
                throw new IllegalStateException("not a transaction boundary: " + tr.transactionControl());
        }
        return new Answer.Update(0, List.of(), List.of(), List.of());
    }

    /**
     * SAVEPOINT, ROLLBACK TO SAVEPOINT, RELEASE SAVEPOINT: statements of the transaction like any other (the primary
     * runs it, then every secondary, in order; it is voted and logged). The session mirrors the savepoints the primary
     * accepted, so that a replica set with a Derby replica refuses a second one, the same way for every replica, and
     * so that a name set again is replaced on a PostgreSQL replica as elsewhere.
     */
    private Answer savepointStatement(Translation tr, String sql, ExecOptions options) throws SQLException {
        if (autoCommit) {
            throw new SQLException("no transaction is open for " + sql.strip() + ": savepoints need autocommit off (or BEGIN"
                    + " first)", "25000");
        }
        String name = tr.savepointName().toUpperCase(Locale.ROOT);
        Dialect single = coordinator.oneSavepointAtATime();
        if (tr.transactionControl() == TransactionControl.SAVEPOINT && single != null && !savepoints.isEmpty()) {
            throw new SQLException("savepoint " + savepoints.get(savepoints.size() - 1) + " is still set and a "
                    + single.name() + " replica allows one savepoint at a time: release it first", "3B002");
        }
        closeOpenCursor();
        int at = savepoints.indexOf(name);
        Dialect keeps = coordinator.keepsReplacedSavepoints();
        if (tr.transactionControl() == TransactionControl.SAVEPOINT && at >= 0 && keeps != null) {
            // the standard replaces the older savepoint of that name; PostgreSQL keeps it, reachable again once the
            // newer one is released. Releasing it first is the same on every engine, but releases the savepoints set
            // after it too, so it is exact only when it is the newest
            if (at < savepoints.size() - 1) {
                throw new SQLFeatureNotSupportedException("savepoint " + tr.savepointName() + " is set again while "
                        + savepoints.get(savepoints.size() - 1) + ", set after it, is still set: a " + keeps.name()
                        + " replica would keep the older one as well; release it first or use another name", "0A000");
            }
            String release = "RELEASE SAVEPOINT " + tr.savepointName();
            runStatement(coordinator.translate(release, schema), release, List.of(), options);
            savepoints.remove(at);
            at = -1;
        }
        Answer a = runStatement(tr, sql, List.of(), options);
        switch (tr.transactionControl()) {
            case SAVEPOINT:
                if (at >= 0) savepoints.remove(at); // SQL: a savepoint of the same name replaces the old one
                savepoints.add(name);
                break;
            case ROLLBACK_TO_SAVEPOINT:
                if (at >= 0) savepoints.subList(at + 1, savepoints.size()).clear();
                break;
            default:
                if (at >= 0) savepoints.subList(at, savepoints.size()).clear();
                break;
        }
        return a;
    }

    private void restoreAutoCommit() {
        autoCommit = true;
        autoCommitAfterExplicit = false;
    }

    @Override
    public BatchAnswer executeBatch(String sql, List<List<Param>> parameterSets, List<String> statements,
            ExecOptions options) throws SQLException {
        checkOpen();
        return coordinator.onBehalfOf(this, () -> runBatch(sql, parameterSets, statements, options));
    }

    private BatchAnswer runBatch(String sql, List<List<Param>> parameterSets, List<String> statements,
            ExecOptions options) throws SQLException {
        SessionSettings.refuseInBatch(sql, statements);
        closeOpenCursor();
        int n = sql != null ? parameterSets.size() : statements.size();
        BatchAnswer.Builder answer = new BatchAnswer.Builder(n, options.returnGeneratedKeys(),
                JdbcExecution.GENERATED_KEY_ROWS_MAX);
        Txn<JdbcStatement> t = autoCommit ? begin() : transaction();
        try {
            for (int i = 0; i < n; i++) {
                String text = sql != null ? sql : statements.get(i);
                List<Param> ps = sql != null ? parameterSets.get(i) : List.of();
                Translation tr = coordinator.translate(text, schema);
                if (readOnly) refuseChangeWhenReadOnly(tr, text);
                if (tr != null && tr.returning() != null) {
                    throw new SQLException("batch element " + (i + 1) + " returns rows (INSERT ... RETURNING)", "0A000");
                }
                JdbcStatement stmt = statement(tr, text, ps, options, false);
                Answer a;
                if (committedApart(tr, stmt)) { // as runJdbc: what went before is committed, the DDL apart, then a new transaction
                    a = afterCommitting(t, tr, stmt);
                    t = autoCommit ? begin() : transaction();
                } else {
                    mayChangeSchema(t, tr, stmt);
                    a = run(t, stmt);
                }
                if (!(a instanceof Answer.Update u)) {
                    throw new SQLException("batch element " + (i + 1) + " returned a result set", "0A000");
                }
                answer.add(i, u.count(), u.keyColumns(), u.generatedKeys());
            }
        } catch (SQLException e) {
            if (autoCommit) rollbackOnCore(t);
            throw e;
        }
        if (autoCommit) commitOnCore(t);
        return answer.build();
    }

    @Override
    public Answer metadata(MetadataRequest request) throws SQLException {
        checkOpen();
        if (AdminQueries.reserved(request)) return AdminQueries.answer(coordinator, request);
        String database = schema == null ? null : SessionSetting.storedName(schema, coordinator.clientDialect());
        return coordinator.onBehalfOf(this, () -> coordinator.metadata(request, database));
    }

    @Override
    public void setAutoCommit(boolean on) throws SQLException {
        checkOpen();
        if (on && !autoCommit && current != null) commit();
        autoCommit = on;
        autoCommitAfterExplicit = false;
    }

    @Override
    public boolean autoCommit() {
        return autoCommit;
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        this.readOnly = readOnly;
    }

    /** Statements of kind OTHER that only show things: a read-only session may run them, and they change no schema. */
    private static final java.util.regex.Pattern SHOWS = java.util.regex.Pattern.compile(
            "\\s*(?:SHOW|DESCRIBE|DESC|EXPLAIN(?!\\s+ANALY[SZ]E))\\b.*", java.util.regex.Pattern.CASE_INSENSITIVE
                    | java.util.regex.Pattern.DOTALL);

    /**
     * A read-only session ({@code Connection.setReadOnly(true)}) refuses what changes rows or the schema with 25006, as
     * PostgreSQL, MySQL and Derby do on a read-only connection; a statement the translator could not read runs only if
     * it shows things (SHOW, DESCRIBE, EXPLAIN).
     */
    private static void refuseChangeWhenReadOnly(Translation tr, String sql) throws SQLException {
        boolean unknown = tr == null || tr.kind() == StatementKind.OTHER;
        if (unknown ? SHOWS.matcher(sql).matches() : !tr.changesData()) return;
        throw new SQLException("The connection is read-only (Connection.setReadOnly(true)): "
                + (unknown ? "Shepherd cannot tell that this statement changes nothing" : "a statement that changes data or"
                + " the schema is refused") + "; call setReadOnly(false) first", "25006");
    }

    boolean readOnly() {
        return readOnly;
    }

    @Override
    public boolean inTransaction() {
        return current != null;
    }

    @Override
    public void commit() throws SQLException {
        checkOpen();
        closeOpenCursor();
        Txn<JdbcStatement> t = current;
        current = null;
        if (t != null) commitOnCore(t);
    }

    @Override
    public void rollback() throws SQLException {
        checkOpen();
        closeOpenCursor();
        Txn<JdbcStatement> t = current;
        current = null;
        if (t != null) rollbackOnCore(t);
    }

    /**
     * A transaction ended. If it may have changed the schema, the catalog forgets what it learned or loaded meanwhile:
     * changes that did not happen (a rollback), or the old columns of a table, read from the primary between the DDL's
     * translation (when the catalog forgot the table) and its run there; kept, an INSERT after a DDL that set a clock
     * DEFAULT would miss it and go unpinned, each replica taking its own time.
     */
    private void transactionEnded() {
        savepoints.clear();
        if (changedSchema) coordinator.forgetSchema();
        schemaChangedIn = null;
        changedSchema = false;
    }

    @Override
    public void cancel() {
        CompletableFuture<?> w = waiting;
        if (w != null) w.completeExceptionally(new SQLException("statement cancelled", "57014"));
        long tx = runningTxId;
        if (tx >= 0) coordinator.primary().cancel(tx); // the primary's call may run on this session's own thread
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        closeOpenCursor();
        Txn<JdbcStatement> t = current;
        current = null;
        try {
            if (t != null) rollbackOnCore(t);
        } catch (SQLException e) {
            // the coordinator is going away; the transaction is rolled back with it
        }
        coordinator.namedLocks().releaseAll(this);
        coordinator.sessionClosed(this);
    }

    /** A streaming result still open is read to its end for the vote before the session does anything else. */
    private void closeOpenCursor() {
        ResultCursor c = openCursor;
        openCursor = null;
        if (c == null) return;
        try {
            c.close();
        } catch (SQLException e) {
            // the failure reached the core as the statement's answer; the transaction cannot commit with it
        }
    }

    /** Runs a statement the shepherd made (not the client's SQL) in the transaction in progress (autocommit off). */
    Answer executeOwn(JdbcStatement stmt) throws SQLException {
        checkOpen();
        if (autoCommit) throw new IllegalStateException("the shepherd's own statements run inside a transaction");
        closeOpenCursor();
        return run(transaction(), stmt);
    }

    /** The id of the transaction in progress, -1 when there is none. */
    long transactionId() {
        Txn<JdbcStatement> t = current;
        return t == null ? -1 : t.id();
    }

    private void checkOpen() throws SQLException {
        if (closed) throw new SQLException("the session is closed", "08003");
    }

    private Txn<JdbcStatement> transaction() throws SQLException {
        if (current == null) {
            current = begin();
            savepoints.clear();
        }
        return current;
    }

    private Txn<JdbcStatement> begin() throws SQLException {
        return coordinator.onCore(f -> f.complete(core.begin()));
    }

    private Answer run(Txn<JdbcStatement> t, JdbcStatement stmt) throws SQLException {
        CompletableFuture<Object> f = new CompletableFuture<>();
        waiting = f;
        runningTxId = t.id();
        try {
            Object a = coordinator.await(f, () -> core.execute(t, stmt, stmt.sql(), new CbsCore.StatementCallback() {
                @Override
                public void answered(Object clientAnswer) {
                    f.complete(clientAnswer);
                }

                @Override
                public void failed(SQLException e) {
                    f.completeExceptionally(e);
                }
            }), "the primary replica", t.id());
            determinism.inserted(stmt.firstGeneratedKey());
            return (Answer) a;
        } catch (SQLException e) {
            if ("57014".equals(e.getSQLState())) rollbackOnCore(t);
            throw e;
        } finally {
            waiting = null;
            runningTxId = -1;
        }
    }

    private void commitOnCore(Txn<JdbcStatement> t) throws SQLException {
        try {
            awaitCommit(t);
        } finally {
            transactionEnded();
        }
    }

    private void awaitCommit(Txn<JdbcStatement> t) throws SQLException {
        CompletableFuture<Void> f = new CompletableFuture<>();
        coordinator.await(f, () -> core.commit(t, new CbsCore.CommitCallback() {
            @Override
            public void committed() {
                f.complete(null);
            }

            @Override
            public void failed(SQLException e) {
                f.completeExceptionally(e);
            }
        }), "the commit vote");
    }

    private void rollbackOnCore(Txn<JdbcStatement> t) throws SQLException {
        if (t == current) current = null;
        transactionEnded();
        coordinator.onCore(f -> {
            if (t.state() != TxState.ABORTED && !t.committed()) core.rollback(t);
            f.complete(null);
        });
    }
}
