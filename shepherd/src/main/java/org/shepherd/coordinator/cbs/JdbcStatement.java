package org.shepherd.coordinator.cbs;

import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.protocol.Param;
import org.shepherd.translator.Bound;
import org.shepherd.translator.StatementKind;
import org.shepherd.translator.Translation;
import org.shepherd.translator.dialect.Dialect;
import org.shepherd.wal.IgnorableError;
import org.shepherd.wal.LoggedStatement;
import org.shepherd.wal.Rendering;

/**
 * A client statement as every replica runs it: the translation bound once (parameters and pinned values such as
 * NOW() or RAND() are the same for every replica), rendered per replica dialect. Without a translation the
 * client's SQL goes to every replica unchanged. A statement read back from the write-ahead log carries its renderings
 * instead ({@link #logged}).
 */
public final class JdbcStatement {

    private final String sql;
    private final List<Param> params;
    private final ExecOptions options;
    private final Bound bound;
    private final int[] orderKeyPositions;
    private final String pinnedKeyColumn;
    private final boolean streamsToClient;
    private volatile List<Object> primaryKeys;
    /** For a statement read back from the write-ahead log: its renderings per dialect; else null. */
    private final LoggedStatement logged;
    /** For the repair step of compare-and-repair: what the replicas that differ change; else null. */
    private final RangeRepair repair;

    /** A statement sent unchanged to every replica; row order is not voted. */
    public JdbcStatement(String sql, List<Param> params, ExecOptions options) {
        this(sql, params, options, null);
    }

    /**
     * @param bound the translation bound to this execution's values, or null to send {@code sql} unchanged
     */
    public JdbcStatement(String sql, List<Param> params, ExecOptions options, Bound bound) {
        this(sql, params, options, bound, null);
    }

    /**
     * @param pinnedKeyColumn the identity column whose values the primary generates and the secondaries receive as
     *     explicit values (an INSERT into a table with an identity column), or null
     */
    public JdbcStatement(String sql, List<Param> params, ExecOptions options, Bound bound, String pinnedKeyColumn) {
        this(sql, params, options, bound, pinnedKeyColumn, false);
    }

    /**
     * @param streamsToClient the primary's rows stream to the client before the vote (inside an explicit
     *     transaction); otherwise they are held until the answer is complete
     */
    public JdbcStatement(String sql, List<Param> params, ExecOptions options, Bound bound, String pinnedKeyColumn,
            boolean streamsToClient) {
        this.streamsToClient = streamsToClient;
        if (pinnedKeyColumn != null && bound == null) throw new IllegalArgumentException("pinning keys needs a translation");
        this.pinnedKeyColumn = pinnedKeyColumn;
        this.sql = sql;
        this.params = List.copyOf(params);
        this.options = options;
        this.bound = bound;
        int[] keys = bound == null ? null : bound.translation().orderKeyColumns();
        this.orderKeyPositions = keys == null ? new int[0] : keys;
        this.logged = null;
        this.repair = null;
    }

    private JdbcStatement(LoggedStatement statement) {
        this(statement.renderings().isEmpty() ? "(a statement no replica dialect can express)"
                : statement.renderings().get(0).sql(), statement, null);
    }

    private JdbcStatement(RangeRepair repair) {
        this(repair.description(), null, repair);
    }

    /** A statement the shepherd runs as given: read back from the log, or a repair. */
    private JdbcStatement(String sql, LoggedStatement logged, RangeRepair repair) {
        this.logged = logged;
        this.repair = repair;
        this.sql = sql;
        this.params = List.of();
        this.options = ExecOptions.DEFAULT;
        this.bound = null;
        this.orderKeyPositions = new int[0];
        this.pinnedKeyColumn = null;
        this.streamsToClient = false;
    }

    /** The repair of a key range on the replicas that differ ({@link RangeRepair}); the others run nothing. */
    static JdbcStatement repair(RangeRepair repair) {
        return new JdbcStatement(repair);
    }

    /** The repair this statement stands for, or null for every other statement. */
    RangeRepair repair() {
        return repair;
    }

    /**
     * A statement already written for each dialect: a write of a committed transaction read back from the write-ahead
     * log, to replay on a replica that lacks it, or one the session wrote per engine itself (a LOCK TABLE).
     */
    public static JdbcStatement logged(LoggedStatement statement) {
        return new JdbcStatement(statement);
    }

    /**
     * This statement as the write-ahead log keeps it: what a secondary of each dialect runs (the primary's generated keys
     * pinned), with the error that means "already done" where an existence check is emulated.
     */
    public LoggedStatement toLogged(java.util.Collection<Dialect> dialects) {
        List<Rendering> out = new ArrayList<>();
        for (Dialect d : dialects) {
            try {
                Translation t = translation();
                out.add(new Rendering(d.name(), secondarySqlFor(d), secondaryParamsFor(d), ignorable(d), t != null && t.dropsCascade()));
            } catch (SQLException cannotExpress) {
                // replicas of this dialect failed it too: replaying it there fails the same way (no rendering)
            }
        }
        return new LoggedStatement(out);
    }

    /**
     * Whether it only reads (a translated query: it takes no write locks and changes nothing). A repair counts as one:
     * it changes only replicas that differ, so the write-ahead log has nothing to keep of it.
     */
    public boolean readOnly() {
        if (repair != null) return true;
        Translation t = translation();
        return t != null && t.kind() == StatementKind.READ;
    }

    /**
     * Whether it is DDL, whose update count means nothing and differs by engine (MariaDB counts the rows an ALTER TABLE
     * copied, the others answer 0): such a statement's count is 0 on every replica.
     */
    public boolean isDdl() {
        Translation t = translation();
        return t != null && t.kind() == StatementKind.DDL;
    }

    /**
     * Whether a replica of dialect {@code d} drops the foreign keys that reference the table this statement drops before
     * it runs it ({@code DROP TABLE ... CASCADE}, {@link Translation#dropsCascade}).
     */
    public boolean dropsReferencingKeys(Dialect d) {
        if (logged != null) {
            Rendering r = logged.rendering(d.name());
            return r != null && r.dropsReferencingKeys();
        }
        Translation t = translation();
        return t != null && t.dropsCascade();
    }

    /** Which error of a replica of dialect {@code d} means "already done" for this statement (an emulated clause). */
    public IgnorableError ignorable(Dialect d) {
        if (logged != null) {
            Rendering r = logged.rendering(d.name());
            return r == null ? IgnorableError.NONE : r.ignorable();
        }
        Translation t = translation();
        if (t == null || !t.existenceCheckEmulated(d)) return IgnorableError.NONE;
        return switch (t.existence()) {
            case IF_NOT_EXISTS -> IgnorableError.ALREADY_EXISTS;
            case IF_TABLE_EXISTS -> IgnorableError.TABLE_DOES_NOT_EXIST;
            case IF_PART_EXISTS -> IgnorableError.PART_DOES_NOT_EXIST;
            case IF_EXISTS, NONE -> IgnorableError.DOES_NOT_EXIST;
        };
    }

    /**
     * Whether {@code e}, raised by a replica of dialect {@code d} for this statement, may mean "already done": for
     * {@link IgnorableError#TABLE_DOES_NOT_EXIST} and {@link IgnorableError#PART_DOES_NOT_EXIST} the replica then asks
     * whether the table is there ({@link AlteredTable}).
     */
    public boolean isIgnorableError(Dialect d, SQLException e) {
        return switch (ignorable(d)) {
            case NONE -> false;
            case ALREADY_EXISTS -> d.isAlreadyExistsError(e);
            case DOES_NOT_EXIST, TABLE_DOES_NOT_EXIST, PART_DOES_NOT_EXIST -> d.isDoesNotExistError(e);
        };
    }

    private Rendering loggedFor(Dialect d) throws SQLException {
        Rendering r = logged.rendering(d.name());
        if (r == null) throw new SQLException("the logged statement [" + sql + "] has no rendering for " + d.name(), "0A000");
        return r;
    }

    /** The client's SQL text. */
    public String sql() {
        return sql;
    }

    public ExecOptions options() {
        return options;
    }

    public Translation translation() {
        return bound == null ? null : bound.translation();
    }

    /** 1-based positions of the select-list columns the query orders by (empty: row order is not voted). */
    public int[] orderKeyPositions() {
        return orderKeyPositions.clone();
    }

    public boolean streamsToClient() {
        return streamsToClient;
    }

    /** The identity column whose generated values are pinned on the secondaries, or null. */
    public String pinnedKeyColumn() {
        return pinnedKeyColumn;
    }

    /** Records the keys the primary generated, one per inserted row (before the statement reaches a secondary). */
    public void primaryGenerated(List<Object> keys) {
        this.primaryKeys = java.util.Collections.unmodifiableList(new ArrayList<>(keys)); // null: an upserted row updated
    }

    /**
     * The first key the primary generated for a row that left the identity column to it (a row that gave its key
     * explicitly generated none, whatever the driver reported for it), or null.
     */
    public Object firstGeneratedKey() {
        List<Object> keys = primaryKeys;
        if (keys == null || pinnedKeyColumn == null) return null;
        boolean[] generating = rowsGeneratingKey();
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i) != null && (generating == null || i >= generating.length || generating[i])) return keys.get(i);
        }
        return null;
    }

    /**
     * For each VALUES row, whether it leaves the identity column to the engine: DEFAULT or NULL written there, or a
     * parameter bound to NULL; null when every row does.
     */
    private boolean[] rowsGeneratingKey() {
        Translation t = bound.translation();
        boolean[] generating = t.rowsGeneratingKey(pinnedKeyColumn);
        int[] parameters = generating == null ? null : t.keyParameters(pinnedKeyColumn);
        if (parameters == null) return generating;
        for (int i = 0; i < generating.length; i++) {
            if (parameters[i] > 0 && params.get(parameters[i] - 1).value() == null) generating[i] = true;
        }
        return generating;
    }

    /** The SQL the primary runs. */
    public String sqlFor(Dialect d) throws SQLException {
        if (logged != null) return loggedFor(d).sql();
        if (bound == null) return sql;
        return pinnedKeyColumn == null ? bound.sqlFor(d) : bound.sqlGeneratingKeys(d, pinnedKeyColumn);
    }

    /** The SQL a secondary runs: with the primary's generated keys as explicit values when they are pinned. */
    public String secondarySqlFor(Dialect d) throws SQLException {
        List<Object> keys = primaryKeys;
        if (pinnedKeyColumn == null || keys == null) return sqlFor(d);
        return bound.sqlWithExplicitKeys(d, pinnedKeyColumn, keys);
    }

    /** The parameters for {@link #sqlFor} of the same dialect. */
    public List<Param> paramsFor(Dialect d) throws SQLException {
        if (logged != null) return loggedFor(d).params();
        if (bound == null) return params;
        return toParams(pinnedKeyColumn == null ? bound.parameters(d) : bound.parametersGeneratingKeys(d, pinnedKeyColumn));
    }

    /**
     * The parameters for {@link #secondarySqlFor} of the same dialect: {@link #paramsFor}, except that a parameter bound
     * to NULL in the identity column of a row the primary generated a key for carries that key.
     */
    public List<Param> secondaryParamsFor(Dialect d) throws SQLException {
        List<Object> keys = primaryKeys;
        if (pinnedKeyColumn == null || keys == null || logged != null) return paramsFor(d); // secondarySqlFor is sqlFor
        int[] parameters = bound.translation().keyParameters(pinnedKeyColumn);
        if (parameters == null) return explicitKeyParams(d);
        List<Param> withKeys = new ArrayList<>(params);
        boolean changed = false;
        for (int i = 0; i < parameters.length && i < keys.size(); i++) {
            int p = parameters[i] - 1;
            if (p < 0 || params.get(p).value() != null || keys.get(i) == null) continue;
            Object key = keys.get(i);
            withKeys.set(p, key instanceof Number n ? new Param(Types.BIGINT, n.longValue()) : toParam(key));
            changed = true;
        }
        return changed ? toParams(bound.withClientParameters(withKeys).parameters(d)) : explicitKeyParams(d);
    }

    /** The parameters of {@link #secondarySqlFor} when it gives the keys explicitly: those of the plain rendering. */
    private List<Param> explicitKeyParams(Dialect d) throws SQLException {
        return toParams(bound.parameters(d));
    }

    private static List<Param> toParams(List<Object> values) throws SQLException {
        List<Param> out = new ArrayList<>(values.size());
        for (Object v : values) out.add(toParam(v));
        return out;
    }

    /** VALUES rows of an {@code INSERT INTO t (columns) VALUES ...} the translator read, else 0. */
    public int insertValuesRows() {
        return bound == null || logged != null ? 0 : bound.translation().insertValuesRows();
    }

    /** The INSERT for dialect {@code d}, one statement per VALUES row (see {@link Bound#rowByRow}). */
    public List<Bound.Part> rowByRow(Dialect d) throws SQLException {
        return bound.rowByRow(d, pinnedKeyColumn);
    }

    /** The table this statement changes, as the client named it ({@link Translation#changedTable}); null if none or unknown. */
    String changedTable() {
        return bound == null ? null : bound.translation().changedTable();
    }

    /** The value a client parameter holds, as the translator reads it ({@link Translation#bind}). */
    static Object valueOf(Object parameter) {
        return parameter instanceof Param p ? p.value() : parameter;
    }

    static Param toParam(Object v) throws SQLException {
        if (v instanceof Param p) return p;
        if (v == null) return Param.nullOf(Types.BIGINT); // LAST_INSERT_ID() before any insert (not MySQL's), cast BIGINT
        if (v instanceof java.sql.Timestamp t) return new Param(Types.TIMESTAMP, t.toLocalDateTime());
        if (v instanceof java.sql.Date d) return new Param(Types.DATE, d.toLocalDate());
        if (v instanceof java.sql.Time t) return new Param(Types.TIME, t.toLocalTime());
        if (v instanceof Double d) return new Param(Types.DOUBLE, d);
        if (v instanceof Long l) return new Param(Types.BIGINT, l);
        if (v instanceof String s) return new Param(Types.VARCHAR, s);
        throw new SQLException("cannot bind a pinned value of type " + v.getClass().getName(), "XX000");
    }

    @Override
    public String toString() {
        return sql;
    }
}
