package org.shepherd.coordinator.cbs;

import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.protocol.Param;
import org.shepherd.translator.Bound;
import org.shepherd.translator.Translation;
import org.shepherd.translator.dialect.Dialect;

/**
 * A client statement as every replica runs it: the translation bound once (parameters and pinned values such as
 * NOW() or RAND() are the same for every replica), rendered per replica dialect. Without a translation the
 * client's SQL goes to every replica unchanged.
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
        this.primaryKeys = List.copyOf(keys);
    }

    /** The SQL the primary runs. */
    public String sqlFor(Dialect d) throws SQLException {
        return bound == null ? sql : bound.sqlFor(d);
    }

    /** The SQL a secondary runs: with the primary's generated keys as explicit values when they are pinned. */
    public String secondarySqlFor(Dialect d) throws SQLException {
        List<Object> keys = primaryKeys;
        if (pinnedKeyColumn == null || keys == null) return sqlFor(d);
        return bound.sqlWithExplicitKeys(d, pinnedKeyColumn, keys);
    }

    /** The parameters for {@link #sqlFor} of the same dialect. */
    public List<Param> paramsFor(Dialect d) throws SQLException {
        if (bound == null) return params;
        List<Param> out = new ArrayList<>();
        for (Object v : bound.parameters(d)) out.add(toParam(v));
        return out;
    }

    private static Param toParam(Object v) throws SQLException {
        if (v instanceof Param p) return p;
        if (v instanceof java.sql.Timestamp t) return new Param(Types.TIMESTAMP, t.toLocalDateTime());
        if (v instanceof java.sql.Date d) return new Param(Types.DATE, d.toLocalDate());
        if (v instanceof java.sql.Time t) return new Param(Types.TIME, t.toLocalTime());
        if (v instanceof Double d) return new Param(Types.DOUBLE, d);
        if (v instanceof String s) return new Param(Types.VARCHAR, s);
        throw new SQLException("cannot bind a pinned value of type " + (v == null ? "null" : v.getClass().getName()), "XX000");
    }

    @Override
    public String toString() {
        return sql;
    }
}
