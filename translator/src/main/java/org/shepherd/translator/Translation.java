package org.shepherd.translator;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.alter.Alter;
import net.sf.jsqlparser.statement.alter.AlterExpression;
import net.sf.jsqlparser.statement.alter.AlterOperation;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.table.Index;
import net.sf.jsqlparser.statement.create.view.CreateView;
import net.sf.jsqlparser.statement.drop.Drop;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.truncate.Truncate;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.upsert.Upsert;
import net.sf.jsqlparser.statement.upsert.UpsertType;

import org.shepherd.translator.dialect.Dialect;

/**
 * One client statement, parsed and classified once; rendered lazily per target dialect and cached. Thread-safe.
 * Obtained from {@link Translator#translate(String)}.
 */
public final class Translation {

    /**
     * Which existence clause a DDL statement carried. An ALTER TABLE's {@code IF EXISTS} may name the table
     * ({@code ALTER TABLE IF EXISTS t ...}: {@link #IF_TABLE_EXISTS}), the object a change drops ({@code DROP COLUMN IF
     * EXISTS c}: {@link #IF_PART_EXISTS}), or both ({@link #IF_EXISTS}, as for DROP TABLE and DROP INDEX).
     */
    public enum Existence { NONE, IF_NOT_EXISTS, IF_EXISTS, IF_TABLE_EXISTS, IF_PART_EXISTS }

    /** An index (or a UNIQUE constraint, which has one) that a DDL statement names: its table and its name, as written. */
    public record NamedIndex(String table, String name) { }

    /** A column an {@code INSERT ... RETURNING} returns: its name as written, and the label the client reads it by. */
    public record Returned(String column, String label) { }

    private final String clientSql;
    private final Dialect client;
    private final StatementKind kind;
    private final Statement ast;
    private final TransactionControl control;
    private final String savepointName;
    private final int parameterCount;
    private final List<PinnedSlot> pinned;
    private final int[] orderKeyColumns;
    /** The table a WRITE changes ({@link #changedTable()}), or null. */
    private final String changedTable;
    /** Per client marker (from 1), the fractional digits of seconds it keeps ({@link StoredTime}); null: six each. */
    private final int[] fractionDigits;
    private final Existence existence;
    private final boolean dropsCascade;
    private final List<String> identityColumns;
    private final String insertTable;
    private final String insertSelectSql;
    /** An INSERT's column list as written (with the clock-default columns added), else empty. */
    private final List<String> insertColumns;
    /** The VALUES rows of an {@code INSERT INTO t (columns) VALUES ...}, else 0. */
    private final int insertValuesRows;
    private volatile Translation insertSelectQuery;
    private final boolean upsert;
    private final List<Returned> returning;
    private final List<NamedIndex> namedIndexes;
    private final boolean upsertKeysPinnable;
    private final boolean readsCatalog;
    private final List<DdlRenderer.IdentityOptions> identityOptions;
    private final Renderer.Pins pins;
    private final SchemaCatalog catalog;
    /** When an ALTER TABLE adding a column with a clock DEFAULT was translated ({@link Translator#withDdlClock}), or null. */
    private final java.time.LocalDateTime addedAt;
    /** An ALTER TABLE's changes one per statement ({@link DdlRenderer#changes}); null: not an ALTER, or refused. */
    private final List<Alter> alterParts;
    /** Why an ALTER TABLE's changes cannot be made one by one, or null. */
    private final TranslationException alterPartsRefused;
    /**
     * The column each of {@link #alterParts} changes, as the catalog knew it at translation ({@link DdlRenderer#alteredColumn};
     * the catalog forgets the table once the statement ran); null elements where it is none or not known.
     */
    private final List<SchemaCatalog.ColumnType> alteredColumns;
    /** ALTER TABLE's changes as the client wrote them, for engines of its family ({@link DdlRenderer#alter}), or null. */
    private final String alterChangesAsWritten;
    /** The schema a connection of the primary starts in, taken off the names of OTHER statements sent as written. */
    private final String defaultSchema;
    private final boolean mixedPadding;
    private final ConcurrentHashMap<Dialect, Object> renderings = new ConcurrentHashMap<>();
    /** Per dialect, the client markers that stand alone in a select list ({@link Renderer#selectListMarkers()}). */
    private final ConcurrentHashMap<Dialect, BitSet> selectListMarkers = new ConcurrentHashMap<>();
    /** {@link #renderedGeneratingKeys} by dialect and key column, where it differs (no parameter bound to NULL there). */
    private final ConcurrentHashMap<String, SqlText.Rendered> generatingKeys = new ConcurrentHashMap<>();
    /** {@link #keyParameters} per key column (an empty array: none). */
    private final ConcurrentHashMap<String, int[]> keyParameters = new ConcurrentHashMap<>();

    Translation(Builder b) {
        this.clientSql = b.clientSql;
        this.client = b.client;
        this.kind = b.kind;
        this.ast = b.ast;
        this.control = b.control;
        this.savepointName = b.savepointName;
        this.orderKeyColumns = b.orderKeyColumns;
        this.fractionDigits = b.kind == StatementKind.WRITE ? StoredTime.digits(b.ast, b.catalog) : null;
        this.changedTable = b.kind == StatementKind.WRITE ? changedTable(b.ast) : null;
        this.existence = b.existence;
        this.dropsCascade = b.ast instanceof Drop drop && DdlRenderer.dropsCascade(drop);
        this.namedIndexes = namedIndexes(b.ast);
        this.identityColumns = List.copyOf(b.identityColumns);
        this.insertTable = b.insertTable;
        this.insertSelectSql = insertSelectSql(b.ast, b.upsert);
        ExpressionList<Column> columns = insertColumnsOf(b.ast);
        this.insertColumns = columns != null ? columns.stream().map(Column::getColumnName).toList() : List.of();
        this.insertValuesRows = columns != null && insertValuesOf(b.ast) != null ? rows(b.ast).size() : 0;
        this.upsert = b.upsert;
        this.returning = b.returning == null ? null : List.copyOf(b.returning);
        this.upsertKeysPinnable = b.upsert && insertValuesRows >= 1;
        this.readsCatalog = b.readsCatalog;
        this.identityOptions = List.copyOf(b.identityOptions);
        this.pins = new Renderer.Pins();
        this.catalog = b.catalog;
        List<Alter> parts = null;
        TranslationException partsRefused = null;
        if (b.ast instanceof Alter alter) {
            try {
                parts = DdlRenderer.changes(alter);
            } catch (TranslationException e) {
                partsRefused = e;
            }
        }
        this.alterParts = parts;
        this.alterPartsRefused = partsRefused;
        this.alteredColumns = parts == null ? List.of()
                : parts.stream().map(part -> DdlRenderer.alteredColumn(part, b.client, b.catalog)).toList();
        this.alterChangesAsWritten = b.alterChangesAsWritten;
        this.addedAt = b.addedAt;
        this.defaultSchema = b.defaultSchema;
        this.mixedPadding = b.mixedPadding;
        // The client dialect's rendering discovers pinned slots and markers; every later rendering reuses them.
        // Transaction and session statements have no parameters; a session statement renders for no dialect.
        int count = 0;
        if (b.kind != StatementKind.TRANSACTION && b.kind != StatementKind.SESSION) {
            SqlText.Rendered first = renderNow(client);
            renderings.put(client, first);
            for (int m : first.markers()) {
                count = Math.max(count, m);
            }
        }
        pins.freeze();
        this.pinned = pins.slots();
        this.parameterCount = b.passthroughParameters >= 0 ? b.passthroughParameters : count;
    }

    /** Mutable state of {@link Translator}'s analysis, consumed by the constructor. */
    static final class Builder {
        String clientSql;
        Dialect client;
        StatementKind kind;
        Statement ast;
        TransactionControl control;
        String savepointName;
        int[] orderKeyColumns;
        Existence existence = Existence.NONE;
        List<String> identityColumns = List.of();
        String insertTable;
        boolean upsert;
        List<Returned> returning;
        /** A READ of the catalog ({@link Translator#readsCatalog}), decided by the translator. */
        boolean readsCatalog;
        List<DdlRenderer.IdentityOptions> identityOptions = List.of();
        int passthroughParameters = -1;
        SchemaCatalog catalog;
        /** The replicas mix engines that compare strings PAD SPACE and NO PAD. */
        boolean mixedPadding;
        /** ALTER TABLE's changes as the client wrote them ({@link DdlRenderer#changesAsWritten}), or null. */
        String alterChangesAsWritten;
        /** The schema a connection of the primary starts in, as stored ({@link Translator#withDefaultSchema}), or null. */
        String defaultSchema;
        /** When an ALTER TABLE adding a column with a clock DEFAULT was translated, or null. */
        java.time.LocalDateTime addedAt;
    }

    /** For DDL: records its effect on column types in {@code into}. */
    void learnInto(SchemaCatalog into) {
        if (ast != null) {
            into.learn(ast, client);
        }
    }

    public String clientSql() {
        return clientSql;
    }

    public Dialect clientDialect() {
        return client;
    }

    public StatementKind kind() {
        return kind;
    }

    /** For {@link StatementKind#TRANSACTION}: the verb; otherwise null. */
    public TransactionControl transactionControl() {
        return control;
    }

    /** For SAVEPOINT, ROLLBACK TO SAVEPOINT and RELEASE SAVEPOINT: the name as written; otherwise null. */
    public String savepointName() {
        return savepointName;
    }

    /**
     * The table this statement changes, as the client named it (qualified if it was), without quotes: an INSERT's,
     * REPLACE's, UPDATE's, DELETE's or MERGE's target; null for other statements (and for a DELETE of several tables).
     */
    public String changedTable() {
        return changedTable;
    }

    private static String changedTable(Statement st) {
        net.sf.jsqlparser.schema.Table table = st instanceof Insert insert ? insert.getTable()
                : st instanceof net.sf.jsqlparser.statement.upsert.Upsert upsert ? upsert.getTable()
                : st instanceof net.sf.jsqlparser.statement.update.Update update ? update.getTable()
                : st instanceof net.sf.jsqlparser.statement.delete.Delete delete
                        && (delete.getTables() == null || delete.getTables().isEmpty()) ? delete.getTable()
                : st instanceof net.sf.jsqlparser.statement.merge.Merge merge ? merge.getTable()
                : null;
        return table == null || table.getName() == null ? null : SchemaCatalog.unquoted(table.getFullyQualifiedName());
    }

    /** Number of '?' markers in the client's statement. */
    public int parameterCount() {
        return parameterCount;
    }

    /**
     * The fractional digits of seconds a TIMESTAMP or TIME value bound to client marker {@code marker} (from 1) must
     * keep, the same on every replica: fewer than 6 where this statement stores the marker alone into a TIMESTAMP(p)
     * column of such a precision p, or into a TIME column (0); else 6, the finest any replica but Derby stores. Engines
     * cut the other digits each their own way (PostgreSQL and MySQL round, MariaDB truncates, Derby keeps nanoseconds),
     * so whoever binds the value cuts it first ({@link org.shepherd.translator.dialect.Dialect#roundsFractionalSeconds}).
     */
    public int fractionDigits(int marker) {
        int[] d = fractionDigits;
        return d == null || marker <= 0 || marker >= d.length ? StoredTime.MICROSECONDS : d[marker];
    }

    /** The per-replica values this statement contained, replaced by markers; filled by {@link #bind}. */
    public List<PinnedSlot> nondeterministic() {
        return pinned;
    }

    /**
     * 1-based select-list positions the top-level ORDER BY sorts by, in ORDER BY order, when every key resolves to a
     * select-list column; null when there is no ORDER BY or a key does not resolve. A copy.
     */
    public int[] orderKeyColumns() {
        return orderKeyColumns == null ? null : orderKeyColumns.clone();
    }

    /** For CREATE TABLE: the identity (auto-increment) columns it declares, as written. Empty otherwise. */
    public List<String> identityColumns() {
        return identityColumns;
    }

    /** For INSERT: the target table as written; otherwise null. */
    public String insertTable() {
        return insertTable;
    }

    /** Whether the statement changes rows or the schema (DML, DDL; a locking {@code SELECT ... FOR UPDATE} does not). */
    public boolean changesData() {
        return kind == StatementKind.DDL || kind == StatementKind.WRITE && !(ast instanceof Select);
    }

    /**
     * Whether this is MySQL's {@code INSERT ... ON DUPLICATE KEY UPDATE} or {@code REPLACE INTO}: rendered only for
     * MySQL-family replicas (the other engines have no statement with its effect and update counts), so it runs only on
     * replica sets of that family.
     */
    public boolean upsert() {
        return upsert;
    }

    /**
     * The indexes this DDL statement makes under a name of its own: CREATE [UNIQUE] INDEX, and the named KEYs, INDEXes,
     * UNIQUE constraints and keys of a CREATE TABLE or an ALTER TABLE ... ADD (MySQL names them per table, the other
     * engines per schema). Empty for anything else.
     */
    public List<NamedIndex> namedIndexes() {
        return namedIndexes;
    }

    private static List<NamedIndex> namedIndexes(Statement ast) {
        List<NamedIndex> out = new ArrayList<>();
        if (ast instanceof CreateIndex ci && ci.getIndex() != null && ci.getIndex().getName() != null) {
            out.add(new NamedIndex(ci.getTable().getFullyQualifiedName(), ci.getIndex().getName()));
        } else if (ast instanceof CreateTable ct && ct.getIndexes() != null) {
            for (Index i : ct.getIndexes()) {
                if (isNamedIndex(i)) out.add(new NamedIndex(ct.getTable().getFullyQualifiedName(), i.getName()));
            }
        } else if (ast instanceof Alter alter && alter.getAlterExpressions() != null) {
            for (AlterExpression e : alter.getAlterExpressions()) {
                if (e.getOperation() != AlterOperation.ADD) continue;
                if (isNamedIndex(e.getIndex())) out.add(new NamedIndex(alter.getTable().getFullyQualifiedName(), e.getIndex().getName()));
                if (e.getUkName() != null) out.add(new NamedIndex(alter.getTable().getFullyQualifiedName(), e.getUkName()));
            }
        }
        return List.copyOf(out);
    }

    private static boolean isNamedIndex(Index i) {
        return i != null && i.getName() != null && (DdlRenderer.isPlainKey(i)
                || i.getType() != null && i.getType().toUpperCase(java.util.Locale.ROOT).startsWith("UNIQUE"));
    }

    /**
     * For {@code INSERT ... RETURNING c [AS label], ...} (MariaDB, PostgreSQL): the columns returned, in order; the
     * statement renders without the clause on every engine (most lack it), and the caller answers them. Otherwise null.
     */
    public List<Returned> returning() {
        return returning;
    }

    /**
     * Whether this upsert's generated keys can be pinned on the secondaries: an INSERT INTO t (columns) VALUES ... ON
     * DUPLICATE KEY UPDATE. The primary runs it one VALUES row at a time (when it has several), each reporting the key
     * of the row it inserted (counted 1), which the secondaries insert too; where it updated a row instead (counted 2 or
     * 0), the secondaries, holding the same rows, update the same one and get no key (NULL) for that row. And a
     * {@code REPLACE INTO t (columns) VALUES ...}, which inserts every row (after deleting those it replaces), each
     * reporting its key. An upsert from a SELECT cannot be pinned.
     */
    public boolean upsertKeysPinnable() {
        return upsertKeysPinnable;
    }

    /**
     * Whether a row of this statement that the primary counted {@code count} inserted a row: always for an INSERT or a
     * REPLACE (1, or 2 and more when it replaced rows), only when counted 1 for an INSERT ... ON DUPLICATE KEY UPDATE (2:
     * it updated a row; 0: it left one as it was).
     */
    public boolean rowInserted(long count) {
        return ast instanceof Insert insert && insert.isUseDuplicate() ? count == 1 : count >= 1;
    }

    /** Whether this is a query of the catalog ({@link Translator#readsCatalog}), decided once per statement text. */
    public boolean readsCatalog() {
        return readsCatalog;
    }

    /**
     * True when the statement said IF [NOT] EXISTS and {@code d} has no such clause: the rendering omits it, and the
     * coordinator treats an error for which {@link #isIgnorableError} holds as success (update count 0).
     */
    public boolean existenceCheckEmulated(Dialect d) {
        switch (existence) {
            case IF_NOT_EXISTS:
                return ast instanceof CreateIndex ? !d.supportsCreateIndexIfNotExists() : !d.supportsCreateTableIfNotExists();
            case IF_EXISTS, IF_TABLE_EXISTS, IF_PART_EXISTS:
                if (ast instanceof Alter) {
                    return !d.supportsAlterIfExists();
                }
                boolean index = ast instanceof Drop && "INDEX".equalsIgnoreCase(((Drop) ast).getType());
                return index ? !d.supportsDropIndexIfExists() : !d.supportsDropTableIfExists();
            default:
                return false;
        }
    }

    /**
     * Whether it is {@code DROP TABLE t CASCADE}. Every engine then runs a plain DROP TABLE, after the foreign keys of
     * other tables that reference t were dropped there (each replica reads them from its own catalog), so that every
     * engine does the same: PostgreSQL's and HSQLDB's own CASCADE would drop the views that read t too, which Derby's
     * and MySQL's DROP TABLE refuse.
     */
    public boolean dropsCascade() {
        return dropsCascade;
    }

    /** The existence clause of a DDL statement ({@code IF NOT EXISTS}, {@code IF EXISTS}), or NONE. */
    public Existence existence() {
        return existence;
    }

    /**
     * Whether {@code e}, raised by an engine of dialect {@code d} for this statement, may mean "already done": for an
     * ALTER TABLE whose clause names only the table or only a change's object, the replica then asks its catalog whether
     * the table is there ({@link #existence}).
     */
    public boolean isIgnorableError(Dialect d, SQLException e) {
        if (!existenceCheckEmulated(d)) {
            return false;
        }
        return existence == Existence.IF_NOT_EXISTS ? d.isAlreadyExistsError(e) : d.isDoesNotExistError(e);
    }

    /**
     * Whether a {@code ?} bound to a number is given the number's type on {@code d} ({@link Bound}): the client's engine
     * types a marker from the value bound to it (MySQL, MariaDB, PostgreSQL), {@code d} from its place in the statement
     * ({@link Dialect#parameterTakesOperandType}: Derby, HSQLDB, Db2).
     */
    boolean typesBoundNumbers(Dialect d) {
        return !client.parameterTakesOperandType() && d.parameterTakesOperandType();
    }

    /** No markers (never changed). */
    private static final BitSet NO_MARKERS = new BitSet();

    /** The client markers of {@link #sqlFor}{@code (d)} that stand alone in a select list (empty when none; read only). */
    BitSet selectListMarkers(Dialect d) {
        return selectListMarkers.getOrDefault(d, NO_MARKERS);
    }

    /**
     * Whether a {@code ?} bound to a double is given the type DOUBLE on {@code d} ({@link Bound}): for such a client, on
     * the engines of {@link #typesBoundNumbers} and on MySQL and MariaDB, whose drivers send a double as a decimal
     * literal (a DECIMAL there).
     */
    boolean typesBoundDoubles(Dialect d) {
        return !client.parameterTakesOperandType() && (d.parameterTakesOperandType() || d.family() == Dialect.Family.MYSQL);
    }

    /** The statement for an engine of dialect {@code d}, with '?' markers; throws SQLState 0A000 if it cannot be expressed. */
    public String sqlFor(Dialect d) throws SQLException {
        return rendered(d).sql();
    }

    /** Fills client parameters and pinned values into one list per dialect, in that dialect's marker order. */
    public Bound bind(List<?> clientParams, DeterminismSource source) throws SQLException {
        return bind(clientParams, source, UnaryOperator.identity());
    }

    /**
     * As {@link #bind(List, DeterminismSource)}, for client parameters that wrap their values (the shepherd's, which carry
     * a JDBC type too): {@code valueOf} gives the value a parameter holds, which decides how a marker bound to a number is
     * typed ({@link Bound}) and whether one in an identity column is NULL. The wrappers are what the bound statement's
     * parameters hold.
     */
    public Bound bind(List<?> clientParams, DeterminismSource source, UnaryOperator<Object> valueOf) throws SQLException {
        int given = clientParams == null ? 0 : clientParams.size();
        if (given != parameterCount) {
            throw new SQLException("Statement has " + parameterCount + " parameter markers but " + given + " values were bound",
                    "07001");
        }
        Object[] values = new Object[pinned.size()];
        Instant now = null;
        for (int i = 0; i < values.length; i++) {
            PinnedSlot.Kind k = pinned.get(i).kind();
            if (k.readsClock() && now == null) {
                now = source.now().truncatedTo(ChronoUnit.MICROS);
            }
            switch (k) {
                case TIMESTAMP:
                    values[i] = java.sql.Timestamp.valueOf(LocalDateTime.ofInstant(cut(now, pinned.get(i)), source.zone()));
                    break;
                case UTC_TIMESTAMP:
                    values[i] = java.sql.Timestamp.valueOf(LocalDateTime.ofInstant(cut(now, pinned.get(i)), ZoneOffset.UTC));
                    break;
                case DATE: values[i] = java.sql.Date.valueOf(LocalDateTime.ofInstant(now, source.zone()).toLocalDate()); break;
                case TIME:
                    values[i] = java.sql.Time.valueOf(LocalDateTime.ofInstant(now, source.zone()).toLocalTime().withNano(0));
                    break;
                case UTC_DATE: values[i] = java.sql.Date.valueOf(LocalDateTime.ofInstant(now, ZoneOffset.UTC).toLocalDate()); break;
                case UTC_TIME:
                    values[i] = java.sql.Time.valueOf(LocalDateTime.ofInstant(now, ZoneOffset.UTC).toLocalTime().withNano(0));
                    break;
                case EPOCH_SECOND: values[i] = now.getEpochSecond(); break;
                case EPOCH_MILLI: values[i] = now.toEpochMilli(); break;
                case RANDOM: values[i] = source.random(); break;
                case UUID: values[i] = source.uuid().toString(); break;
                case SEQUENCE: values[i] = source.nextValue(pinned.get(i).source()); break;
                case USER: values[i] = userAsShown(source.sessionUser()); break;
                case LAST_INSERT_ID: {
                    Long last = source.lastInsertId();
                    values[i] = last == null && client.family() == Dialect.Family.MYSQL ? Long.valueOf(0) : last;
                    break;
                }
                default: throw new IllegalStateException(k.name());
            }
        }
        return new Bound(this, clientParams == null ? List.of() : new ArrayList<>(clientParams), values, valueOf);
    }

    /** {@code now} with the fraction of its second cut to the slot's digits. */
    private static Instant cut(Instant now, PinnedSlot slot) {
        int step = (int) Math.pow(10, 9 - slot.fractionDigits());
        return now.minusNanos(now.getNano() % step);
    }

    SqlText.Rendered rendered(Dialect d) throws SQLException {
        Object r = renderings.get(d);
        if (r == null) {
            synchronized (this) {
                r = renderings.get(d);
                if (r == null) {
                    try {
                        r = renderNow(d);
                    } catch (TranslationException e) {
                        r = e;
                    } catch (RuntimeException e) {
                        r = new TranslationException("XX000", "Shepherd's translator failed on this statement for " + d.name()
                                + " (" + e + "); please report it with the statement");
                    }
                    renderings.put(d, r);
                }
            }
        }
        if (r instanceof TranslationException) {
            throw ((TranslationException) r).toSqlException();
        }
        return (SqlText.Rendered) r;
    }

    /**
     * For {@code INSERT INTO t (columns) SELECT ...} (not VALUES): the SELECT as SQL of the client's dialect, with the
     * session's schema and the clock defaults already in it; else null. Read from the tree once, when it was built.
     */
    public String insertSelectSql() {
        return insertSelectSql;
    }

    private static String insertSelectSql(Statement ast, boolean upsert) {
        if (!(ast instanceof Insert insert) || insert.getColumns() == null || insert.getSelect() == null
                || insert.getSelect() instanceof Values || upsert) {
            return null;
        }
        return insert.getSelect().toString();
    }

    /** {@link Translator#insertSelect}'s query for this INSERT, once made (null before). */
    Translation insertSelectQuery() {
        return insertSelectQuery;
    }

    void insertSelectQuery(Translation query) {
        insertSelectQuery = query;
    }

    /** The column list of an INSERT as written (with the clock-default columns the translator added), else empty. */
    public List<String> insertColumns() {
        return insertColumns;
    }

    /** Where an INSERT's column list names {@code column} (quotes and case aside), -1 when it does not. */
    public int insertColumnIndex(String column) {
        String key = SchemaCatalog.key(column);
        for (int i = 0; i < insertColumns.size(); i++) {
            if (SchemaCatalog.key(insertColumns.get(i)).equals(key)) return i;
        }
        return -1;
    }

    /**
     * A user name as the client's engine shows its CURRENT_USER: MySQL and MariaDB as {@code name@host}, with the host
     * pattern {@code %} (the shepherd's users are not tied to hosts); the others as they store an unquoted identifier
     * (Derby, HSQLDB and Db2 upper-case it, PostgreSQL lower-cases it).
     */
    private String userAsShown(String user) {
        return client.family() == Dialect.Family.MYSQL ? user + "@%" : client.foldUnquotedIdentifier(user);
    }

    /** The number of VALUES rows of an {@code INSERT INTO t (columns) VALUES ...}, else 0. */
    public int insertValuesRows() {
        return insertValuesRows;
    }

    /**
     * The INSERT for {@code d} cut into one INSERT per VALUES row, in row order: for a primary whose driver reports the
     * generated key of a statement, not of each row (Derby), so that every row's key is known. Markers refer to the same
     * client parameters and pinned slots as the whole statement's. The identity column {@code keyColumn} (or null) is
     * written as {@link #renderedGeneratingKeys} writes it.
     */
    synchronized List<SqlText.Rendered> renderedRowByRow(Dialect d, String keyColumn, BitSet nullParameters) throws SQLException {
        return withKeysGenerated(d, keyColumn, nullParameters, () -> cutIntoRows(d));
    }

    /**
     * The INSERT for {@code d} as {@link #rendered} has it, except where {@code d} generates a key for only one of DEFAULT
     * and NULL in the identity column {@code keyColumn} ({@link Dialect#defaultGeneratesKey}, {@link
     * Dialect#nullGeneratesKey}): a row's DEFAULT is written NULL there, or, for a client whose engine generates a key
     * for NULL (MySQL, HSQLDB: a Derby client's NULL is refused there as on Derby), its NULL (written, or a client
     * parameter in {@code nullParameters}, numbered from 1, bound to NULL) DEFAULT. Its markers are the statement's but
     * such parameters.
     */
    SqlText.Rendered renderedGeneratingKeys(Dialect d, String keyColumn, BitSet nullParameters) throws SQLException {
        SqlText.Rendered plain = rendered(d);
        boolean nullsAsDefault = client.nullGeneratesKey() && !d.nullGeneratesKey();
        if (keyColumn == null || d.defaultGeneratesKey() && !nullsAsDefault) return plain;
        if (nullsAsDefault && !nullParameters.isEmpty()) {
            // not cached (the parameters bound to NULL differ from one execution to the next); such a parameter written
            // DEFAULT is no marker of this rendering
            synchronized (this) {
                return withKeysGenerated(d, keyColumn, nullParameters, () -> render(d, false));
            }
        }
        String cacheKey = d.name() + '\0' + SchemaCatalog.key(keyColumn);
        SqlText.Rendered cached = generatingKeys.get(cacheKey);
        if (cached != null) return cached;
        synchronized (this) {
            SqlText.Rendered r = withKeysGenerated(d, keyColumn, new BitSet(), () -> render(d));
            generatingKeys.put(cacheKey, r);
            return r;
        }
    }

    private interface RenderWork<T> {
        T render() throws SQLException, TranslationException;
    }

    /** {@code work} run with the INSERT's values in {@code keyColumn} written as {@link #renderedGeneratingKeys} says. */
    private <T> T withKeysGenerated(Dialect d, String keyColumn, BitSet nullParameters, RenderWork<T> work) throws SQLException {
        int column = keyColumn == null || insertValuesOf(ast) == null ? -1 : insertColumnIndex(keyColumn);
        List<ExpressionList<Expression>> rows = column < 0 ? List.of() : rows(ast);
        List<Expression> replaced = new ArrayList<>();
        for (ExpressionList<Expression> row : rows) {
            Expression value = row.get(column);
            Expression written = value;
            if (isDefault(value) && !d.defaultGeneratesKey()) {
                written = new NullValue();
            } else if (client.nullGeneratesKey() && !d.nullGeneratesKey() && (value instanceof NullValue
                    || value instanceof JdbcParameter p && p.getIndex() != null && nullParameters.get(p.getIndex()))) {
                written = new Column("DEFAULT");
            }
            replaced.add(written == value ? null : value);
            if (written != value) row.set(column, written);
        }
        try {
            return work.render();
        } catch (TranslationException e) {
            throw e.toSqlException();
        } finally {
            for (int i = 0; i < rows.size(); i++) {
                if (replaced.get(i) != null) rows.get(i).set(column, replaced.get(i));
            }
        }
    }

    private static boolean isDefault(Expression value) {
        return value instanceof Column c && "DEFAULT".equalsIgnoreCase(c.getColumnName()) && c.getTable() == null;
    }

    private List<SqlText.Rendered> cutIntoRows(Dialect d) throws SQLException {
        if (insertValuesRows() == 0) throw new SQLException("Only INSERT INTO t (columns) VALUES ... is cut into rows", "0A000");
        Values values = insertValuesOf(ast);
        @SuppressWarnings("unchecked")
        ExpressionList<Expression> all = (ExpressionList<Expression>) values.getExpressions();
        List<SqlText.Rendered> out = new ArrayList<>();
        try {
            for (ExpressionList<Expression> row : rows(ast)) {
                values.setExpressions(new ParenthesedExpressionList<>(row));
                out.add(render(d, false));
            }
        } catch (TranslationException e) {
            throw e.toSqlException();
        } finally {
            values.setExpressions(all);
        }
        return out;
    }

    /** The INSERT for {@code d} with the identity column receiving explicit values, one per VALUES row. */
    synchronized String sqlWithExplicitKeys(Dialect d, String keyColumn, List<?> keyValuesPerRow) throws SQLException {
        SqlText.Rendered plain = rendered(d);
        if (!(ast instanceof Insert) && !(ast instanceof Upsert)) {
            throw new SQLException("Only INSERT and REPLACE statements take explicit keys", "0A000");
        }
        ExpressionList<Column> columns = insertColumnsOf(ast);
        if (columns == null || insertValuesOf(ast) == null) {
            throw new SQLException("Shepherd pins generated keys only for INSERT INTO t (columns) VALUES (...) and, leaving the"
                    + " identity column out, INSERT INTO t (columns) SELECT ...; name the columns (an INSERT ... SELECT that"
                    + " names the identity column may still have keys generated for its NULLs or zeros)", "0A000");
        }
        List<ExpressionList<Expression>> rows = rows(ast);
        if (rows.size() != keyValuesPerRow.size()) {
            throw new SQLException("INSERT has " + rows.size() + " rows but " + keyValuesPerRow.size() + " keys were given", "0A000");
        }
        int present = insertColumnIndex(keyColumn);
        if (present >= 0) {
            return withKeysInPlace(d, plain, rows, present, keyValuesPerRow);
        }
        columns.add(0, new Column(keyColumn));
        for (int i = 0; i < rows.size(); i++) {
            rows.get(i).add(0, literal(keyValuesPerRow.get(i)));
        }
        try {
            SqlText.Rendered withKeys = render(d);
            if (!Arrays.equals(withKeys.markers(), plain.markers())) {
                throw new IllegalStateException("explicit keys changed the marker order of " + clientSql);
            }
            return withKeys.sql();
        } catch (TranslationException e) {
            throw e.toSqlException();
        } finally {
            columns.remove(0);
            for (ExpressionList<Expression> row : rows) {
                row.remove(0);
            }
        }
    }

    /**
     * For each VALUES row of this INSERT, whether it leaves {@code keyColumn} to be generated (DEFAULT or NULL there);
     * null when every row does: the column left out, or a statement that is not such an INSERT.
     */
    public synchronized boolean[] rowsGeneratingKey(String keyColumn) {
        int column = insertValuesOf(ast) == null ? -1 : insertColumnIndex(keyColumn);
        if (column < 0) return null;
        List<ExpressionList<Expression>> rows = rows(ast);
        boolean[] generating = new boolean[rows.size()];
        for (int i = 0; i < generating.length; i++) {
            Expression value = rows.get(i).get(column);
            generating[i] = value instanceof NullValue || isDefault(value);
        }
        return generating;
    }

    /**
     * For each VALUES row of this INSERT, the client parameter ({@code ?}, numbered from 1) that gives {@code keyColumn}
     * its value, 0 where something else does; null when no row takes the column from a parameter (the column left out, or
     * a statement that is not such an INSERT). A parameter bound to NULL there leaves the key to the engine, as a NULL
     * written in the statement does ({@link Bound#rowsGeneratingKey}).
     */
    public int[] keyParameters(String keyColumn) {
        // asked once per secondary for every INSERT into an identity table that names the key: read without the lock
        int[] found = keyParameters.computeIfAbsent(SchemaCatalog.key(keyColumn), k -> {
            int[] of = keyParametersOf(keyColumn);
            return of == null ? new int[0] : of;
        });
        return found.length == 0 ? null : found.clone();
    }

    private synchronized int[] keyParametersOf(String keyColumn) {
        int column = insertValuesOf(ast) == null ? -1 : insertColumnIndex(keyColumn);
        if (column < 0) return null;
        List<ExpressionList<Expression>> rows = rows(ast);
        int[] parameters = new int[rows.size()];
        boolean any = false;
        for (int i = 0; i < parameters.length; i++) {
            if (rows.get(i).get(column) instanceof JdbcParameter p && p.getIndex() != null) {
                parameters[i] = p.getIndex();
                any = true;
            }
        }
        return any ? parameters : null;
    }

    /** The client named the key column: rows that said DEFAULT (or NULL) get the primary's key, the others keep theirs. */
    private String withKeysInPlace(Dialect d, SqlText.Rendered plain, List<ExpressionList<Expression>> rows, int column,
            List<?> keys) throws SQLException {
        List<Expression> replaced = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Expression value = rows.get(i).get(column);
            boolean generated = value instanceof NullValue || isDefault(value);
            replaced.add(generated ? value : null);
            if (generated) {
                rows.get(i).set(column, literal(keys.get(i)));
            }
        }
        if (replaced.stream().allMatch(v -> v == null)) {
            return plain.sql();
        }
        try {
            return render(d).sql();
        } catch (TranslationException e) {
            throw e.toSqlException();
        } finally {
            for (int i = 0; i < rows.size(); i++) {
                if (replaced.get(i) != null) {
                    rows.get(i).set(column, replaced.get(i));
                }
            }
        }
    }

    private static List<ExpressionList<Expression>> rows(Statement ast) {
        return ClockDefaults.rows(insertValuesOf(ast));
    }

    /** The column list of an INSERT or a REPLACE ({@code INSERT INTO t (columns) ...}), else null. */
    @SuppressWarnings("unchecked")
    private static ExpressionList<Column> insertColumnsOf(Statement ast) {
        if (ast instanceof Insert insert) return insert.getColumns();
        if (ast instanceof Upsert replace && replace.getUpsertType() == UpsertType.REPLACE) return replace.getColumns();
        return null;
    }

    /** The VALUES rows of an INSERT or a REPLACE ({@code ... VALUES (...), ...}), else null. */
    private static Values insertValuesOf(Statement ast) {
        if (ast instanceof Insert insert) return insert.getSelect() instanceof Values values ? values : null;
        if (ast instanceof Upsert replace && replace.getUpsertType() == UpsertType.REPLACE) {
            return replace.getSelect() instanceof Values values ? values : null;
        }
        return null;
    }

    private static Expression literal(Object key) throws SQLException {
        if (key == null) return new NullValue(); // an upserted row the primary updated: no key was generated
        if (key instanceof Long || key instanceof Integer || key instanceof Short || key instanceof BigInteger) {
            return new LongValue(key.toString());
        }
        if (key instanceof BigDecimal) {
            return new LongValue(((BigDecimal) key).toBigIntegerExact().toString());
        }
        if (key instanceof String) {
            return new StringValue((String) key);
        }
        throw new SQLException("Generated key of type " + (key == null ? "null" : key.getClass().getName()) + " cannot be pinned",
                "0A000");
    }


    /**
     * The statement for {@code d}; a DDL statement's names that {@code d} reserves quoted for the time
     * ({@link ReservedNames}; {@link #render(Dialect, boolean, Statement)} quotes those of the others).
     */
    private SqlText.Rendered renderNow(Dialect d) {
        List<Runnable> unquote = kind != StatementKind.DDL ? List.of()
                : ReservedNames.quote(alterParts == null ? ast : java.util.Arrays.asList(ast, alterParts), client, d);
        try {
            return renderQuoted(d);
        } finally {
            unquoteAll(unquote);
        }
    }

    private static void unquoteAll(List<Runnable> unquote) {
        for (int i = unquote.size() - 1; i >= 0; i--) unquote.get(i).run();
    }

    private SqlText.Rendered renderQuoted(Dialect d) {
        switch (kind) {
            case TRANSACTION:
                return new SqlText.Rendered(transactionSql(d), new int[0]);
            case SESSION:
                // replica connections are pooled per transaction: a setting would outlive it (see SessionSetting)
                throw TranslationException.unsupported("'" + clientSql + "' is a session statement, which the shepherd"
                        + " answers or refuses itself and never sends to a replica; configure session settings in the"
                        + " replica setup");
            case OTHER:
                if (d.family() != client.family()) {
                    throw TranslationException.unsupported("'" + clientSql + "' is specific to " + client.name()
                            + " and cannot be sent to a " + d.name() + " replica");
                }
                // sent as the client wrote it to engines of its family: nothing in it may be evaluated per replica; a
                // name qualified with the primary's own schema (which the parser may have left in a statement it does
                // not know, ALTER ONLINE TABLE db.t) names each replica's
                if (ast == null) {
                    SqlText.refuseEvaluatedPerReplica(clientSql, client.backslashEscapesInStrings());
                    return new SqlText.Rendered(clientSql, new int[0]);
                }
                String rendered = new Renderer(client, d, pins, catalog, mixedPadding).render(ast);
                if (defaultSchema != null) rendered = SqlText.withoutSchemaQualifier(rendered, defaultSchema, client);
                return SqlText.finish(rendered, client, d, true);
            case DDL:
                if (ast instanceof CreateTable ct) {
                    // a clock DEFAULT is the one place a clock may stay (INSERTs name such a column: ClockDefaults)
                    SqlText.finish(DdlRenderer.createTable(ct, client, d, identityOptions, false), client, d, true);
                    return SqlText.finish(DdlRenderer.createTable(ct, client, d, identityOptions, true), client, d, false);
                }
                if (ast instanceof Alter alter) return alter(alter, d);
                return SqlText.finish(ddl(d), client, d, true);
            default:
                if (ast instanceof Values && !d.supportsValuesStatement()) {
                    throw TranslationException.unsupported("MySQL spells a VALUES statement VALUES ROW(...); write SELECT ... instead");
                }
                if (upsert && d.family() != Dialect.Family.MYSQL) {
                    throw TranslationException.unsupported((ast instanceof Upsert ? "REPLACE" : "INSERT ... ON DUPLICATE KEY"
                            + " UPDATE") + " runs only when every replica is MySQL or MariaDB (a " + d.name() + " replica has"
                            + " no statement with its effect and update counts); use UPDATE, then INSERT when no row changed");
                }
                if (ast instanceof Merge && !d.supportsMerge()) {
                    throw TranslationException.unsupported("MERGE does not exist on MySQL/MariaDB; write UPDATE, then INSERT for "
                            + "the rows the UPDATE did not change");
                }
                if (d.family() != Dialect.Family.MYSQL && ast instanceof Delete del && del.getJoins() != null) {
                    return render(d, true, MultiTableWrite.deleteAsExists(del));
                }
                if (d.family() != Dialect.Family.MYSQL && ast instanceof Update up && up.getStartJoins() != null
                        && !up.getStartJoins().isEmpty()) {
                    return render(d, true, MultiTableWrite.updateAsExists(up));
                }
                return render(d);
        }
    }

    private SqlText.Rendered render(Dialect d) {
        return render(d, true);
    }

    /** Text Derby is given beyond which, grown that much from the client's, it may refuse the plan (42ZA0). */
    private static final int DERBY_TEXT_MAX = 16_384;
    private static final int DERBY_GROWTH_MAX = 50;

    /**
     * Derby's emulations render their operands several times (SUBSTR's clamps, LEFT/RIGHT, a MySQL client's start of a
     * SUBSTRING), so nesting them grows the text geometrically, and Derby refuses a statement whose generated code is
     * too large (42ZA0 "Statement too complex", found by the generated corpus: two nested MIDs, 101 characters, became
     * 36,003). Refused up front instead, before the primary runs it; a long statement that is long as written (a
     * multi-row INSERT) is not.
     */
    private void refuseTooComplexForDerby(Dialect d, String rendered) {
        if (d.family() == Dialect.Family.DERBY && rendered.length() > DERBY_TEXT_MAX
                && rendered.length() > (long) DERBY_GROWTH_MAX * clientSql.length()) {
            throw TranslationException.unsupported("this statement written for derby, one of the replicas' engines, is "
                    + rendered.length() + " characters long (" + clientSql.length() + " as written): too complex for Derby;"
                    + " nest fewer SUBSTRING/MID/LEFT/RIGHT calls, or compute the value in the application");
        }
    }

    /** {@code everyMarker}: the rendering must hold every client marker (false for one row of a multi-row INSERT). */
    private SqlText.Rendered render(Dialect d, boolean everyMarker) {
        return render(d, everyMarker, ast);
    }

    /** {@code statement}: this one's AST, or one made of its nodes for {@code d}. */
    private SqlText.Rendered render(Dialect d, boolean everyMarker, Statement statement) {
        List<SelectItem<?>> labelled = labelUnaliasedExpressions();
        List<Runnable> unquote = ReservedNames.quote(statement, client, d); // after the labels, which are the client's text
        try {
            Renderer renderer = new Renderer(client, d, pins, catalog, mixedPadding);
            SqlText.Rendered r = SqlText.finish(renderer.render(statement), client, d, true);
            refuseTooComplexForDerby(d, r.sql());
            if (!renderer.selectListMarkers().isEmpty()) selectListMarkers.put(d, renderer.selectListMarkers());
            BitSet seen = renderer.clientMarkers();
            if (everyMarker && seen.cardinality() != Math.max(0, seen.length() - 1)) {
                throw new IllegalStateException("parameter markers lost while rendering " + clientSql);
            }
            return r;
        } finally {
            unquoteAll(unquote);
            labelled.forEach(item -> item.setAlias(null));
        }
    }

    /** Longest label given to an unaliased expression (PostgreSQL cuts identifiers at 63 bytes). */
    static final int EXPRESSION_LABEL_LENGTH_MAX = 63;

    /**
     * Engines label an unaliased expression of the select list each their own way ({@code 1}, {@code C1},
     * {@code ?column?}, {@code a + 1}) and the voter compares labels; so every one gets an explicit label for the
     * time of rendering: its text as the client wrote it (as MySQL labels it; for a PostgreSQL client the label
     * PostgreSQL gives it, {@link ResultLabels}), or {@code EXPR<position>} when that text is longer than {@value
     * #EXPRESSION_LABEL_LENGTH_MAX} characters or holds a quote or marker. Only for a
     * top-level query. In a UNION/INTERSECT/EXCEPT every branch gets the first branch's labels (Derby names a column
     * of a set operation by position unless all branches name it alike). Returns the items to restore.
     */
    private List<SelectItem<?>> labelUnaliasedExpressions() {
        List<SelectItem<?>> labelled = new ArrayList<>();
        if (kind != StatementKind.READ && kind != StatementKind.WRITE || !(ast instanceof Select)) {
            return labelled;
        }
        List<PlainSelect> branches = new ArrayList<>();
        if (ast instanceof PlainSelect) {
            branches.add((PlainSelect) ast);
        } else if (ast instanceof SetOperationList) {
            for (Select branch : ((SetOperationList) ast).getSelects()) {
                if (!(branch instanceof PlainSelect)) {
                    return labelled;
                }
                branches.add((PlainSelect) branch);
            }
        } else {
            return labelled;
        }
        List<SelectItem<?>> first = branches.get(0).getSelectItems();
        for (int i = 0; i < first.size(); i++) {
            String label = labelOf(first.get(i), i);
            if (label == null) {
                return labelled;
            }
            for (PlainSelect branch : branches) {
                List<SelectItem<?>> items = branch.getSelectItems();
                if (items.size() != first.size()) {
                    return labelled;
                }
                SelectItem<?> item = items.get(i);
                if (item.getAlias() != null && item.getAlias().getName().equals(label) || item.getExpression() instanceof Column
                        && ((Column) item.getExpression()).getColumnName().equals(label)) {
                    continue;
                }
                item.setAlias(new Alias(label, true));
                labelled.add(item);
            }
        }
        return labelled;
    }

    /**
     * The label of a select item as an alias (a name as written, or a quoted expression text, also for a name that is
     * pinned, such as HSQLDB's {@code NOW}); null for {@code *}.
     */
    private String labelOf(SelectItem<?> item, int index) {
        Expression e = item.getExpression();
        if (e instanceof AllColumns) {
            return null;
        }
        if (item.getAlias() != null) {
            return item.getAlias().getName();
        }
        if (e instanceof Column c && Renderer.pinnedName(c, client) == null) {
            return c.getColumnName();
        }
        String label = client.family() == Dialect.Family.POSTGRESQL ? ResultLabels.postgresql(e) : e.toString();
        if (label.length() > EXPRESSION_LABEL_LENGTH_MAX || label.contains("\"") || label.contains("`")
                || label.contains("?") && !label.equals(ResultLabels.UNNAMED) || label.contains("'")) {
            label = "EXPR" + (index + 1);
        }
        return "\"" + label + "\"";
    }

    /**
     * An ALTER TABLE for {@code d}: as one statement where it makes one change, or where {@code d} is of the client's family
     * and takes several ({@link Dialect#takesSeveralAlterChanges}, the changes as written: all or none); else one
     * statement per change ({@link DdlRenderer#changes}), joined by {@link Dialect#THEN}, which the replica runs one after
     * the other. A column added with a clock DEFAULT among others is always added on its own (its rows get the time read at
     * translation, {@link DdlRenderer#alter}).
     */
    private SqlText.Rendered alter(Alter alter, Dialect d) {
        String asWritten = d.family() == client.family() ? alterChangesAsWritten : null;
        boolean clock = alterParts != null ? alterParts.stream().anyMatch(part -> DdlRenderer.setsClockDefault(part, client))
                : DdlRenderer.addsClockColumn(alter, client);
        if (alterParts == null && (asWritten == null || clock)) throw alterPartsRefused;
        if (alterParts == null || alterParts.size() == 1 && alterParts.get(0) == alter
                || asWritten != null && d.takesSeveralAlterChanges() && !clock) {
            // a clock DEFAULT set on a column stays; the statement names nothing else but a table and a column
            SchemaCatalog.ColumnType altered = alteredColumns.isEmpty() ? null : alteredColumns.get(0);
            return SqlText.finish(DdlRenderer.alter(alter, client, d, altered, asWritten, addedAt), client, d,
                    !DdlRenderer.setsClockDefault(alter, client));
        }
        List<String> statements = new ArrayList<>();
        for (int i = 0; i < alterParts.size(); i++) {
            Alter part = alterParts.get(i);
            if (part.getAlterExpressions().get(0).isUsingIfExists() && !d.supportsAlterIfExists()) {
                throw TranslationException.unsupported(d.name() + " has no IF EXISTS in ALTER TABLE, which Shepherd then"
                        + " emulates for a statement of one change; make " + part.getAlterExpressions().get(0)
                        + " an ALTER TABLE of its own");
            }
            String sql = DdlRenderer.alter(part, client, d, alteredColumns.get(i), null, addedAt);
            statements.add(SqlText.finish(sql, client, d, !DdlRenderer.setsClockDefault(part, client)).sql());
        }
        return new SqlText.Rendered(String.join(Dialect.THEN, statements), new int[0]);
    }

    private String ddl(Dialect d) {
        if (ast instanceof CreateTable) {
            return DdlRenderer.createTable((CreateTable) ast, client, d, identityOptions, true);
        }
        if (ast instanceof CreateIndex) {
            return DdlRenderer.createIndex((CreateIndex) ast, d);
        }
        if (ast instanceof Drop) {
            return DdlRenderer.drop((Drop) ast, client, d);
        }
        if (ast instanceof Truncate) {
            return DdlRenderer.truncate((Truncate) ast, d);
        }
        if (ast instanceof CreateView) {
            CreateView view = (CreateView) ast;
            return DdlRenderer.createView(view, new Renderer(client, d, pins, catalog, mixedPadding).render(view.getSelect()));
        }
        throw TranslationException.unsupported("Shepherd cannot translate this DDL (" + ast.getClass().getSimpleName()
                + "); supported: CREATE TABLE, CREATE [UNIQUE] INDEX, CREATE VIEW, ALTER TABLE, DROP TABLE/VIEW/INDEX, TRUNCATE");
    }

    private String transactionSql(Dialect d) {
        switch (control) {
            case BEGIN:
                if (!d.supportsBeginStatement()) {
                    throw TranslationException.unsupported(d.name() + " has no BEGIN statement; start a transaction with "
                            + "Connection.setAutoCommit(false)");
                }
                return "START TRANSACTION";
            case COMMIT:
            case ROLLBACK:
                if (!d.supportsCommitStatement()) {
                    throw TranslationException.unsupported(d.name() + " has no " + control + " statement over JDBC; call Connection."
                            + (control == TransactionControl.COMMIT ? "commit()" : "rollback()"));
                }
                return control.name();
            case SAVEPOINT:
                return "SAVEPOINT " + savepointName + d.savepointClause();
            case ROLLBACK_TO_SAVEPOINT: return "ROLLBACK TO SAVEPOINT " + savepointName;
            case RELEASE_SAVEPOINT: return "RELEASE SAVEPOINT " + savepointName;
            default: throw new IllegalStateException(control.name());
        }
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT) + ": " + clientSql;
    }
}
