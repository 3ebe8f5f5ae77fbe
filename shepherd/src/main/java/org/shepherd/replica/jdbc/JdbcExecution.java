package org.shepherd.replica.jdbc;

import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.BatchAnswer;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.StatementDescription;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;

/**
 * Running one client statement on one replica connection, the same way for every mode: create a forward-only,
 * read-only statement with the client's options, bind, execute, then either stream the result set
 * ({@link JdbcCursor}) or read the update count, generated keys and warnings.
 */
public final class JdbcExecution {

    /** Warnings passed on per statement at most. */
    public static final int WARNINGS_MAX = 100;
    /** Generated-key rows returned per statement at most; more fail the statement (SQLState 54000). */
    public static final int GENERATED_KEY_ROWS_MAX = 100_000;

    private JdbcExecution() {
    }

    /**
     * A statement configured with the client's options, not executed yet (register it for cancel first).
     * A {@link PreparedStatement} when {@code prepared}, else a plain {@link Statement}.
     */
    public static Statement create(Connection c, String sql, boolean prepared, ExecOptions options, int fetchSize)
            throws SQLException {
        Statement st;
        if (prepared) {
            st = options.returnGeneratedKeys()
                    ? c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)
                    : c.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
        } else {
            st = c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
        }
        try {
            st.setFetchSize(fetchSize);
            if (options.maxRows() > 0) st.setMaxRows(options.maxRows());
            if (options.queryTimeoutSeconds() > 0) st.setQueryTimeout(options.queryTimeoutSeconds());
            return st;
        } catch (SQLException | RuntimeException e) {
            st.close();
            throw e;
        }
    }

    /** Executes a statement from {@link #create}; true when it produced a result set. */
    public static boolean execute(Statement st, String sql, List<Param> params, JdbcValues values, ExecOptions options)
            throws SQLException {
        if (st instanceof PreparedStatement) {
            PreparedStatement ps = (PreparedStatement) st;
            values.bindAll(ps, params);
            return ps.execute();
        }
        if (!params.isEmpty()) throw new SQLException("parameters given for a plain statement", "07001");
        return options.returnGeneratedKeys() ? st.execute(sql, Statement.RETURN_GENERATED_KEYS) : st.execute(sql);
    }

    /** The update count, generated keys (when asked) and warnings of an executed statement without a result set. */
    public static Answer.Update update(Statement st, ExecOptions options, JdbcValues values) throws SQLException {
        long count = updateCount(st);
        if (!options.returnGeneratedKeys()) return new Answer.Update(count, List.of(), List.of(), warnings(st));
        BatchAnswer keys = generatedKeys(st, new long[] {count}, values);
        return new Answer.Update(count, keys.keyColumns(), keys.generatedKeys(), warnings(st));
    }

    /** {@code counts} with the keys {@code st} generated (at most {@value #GENERATED_KEY_ROWS_MAX} rows). */
    private static BatchAnswer generatedKeys(Statement st, long[] counts, JdbcValues values) throws SQLException {
        try (ResultSet rs = st.getGeneratedKeys()) {
            if (rs == null) return BatchAnswer.counts(counts);
            List<ColumnInfo> keyColumns = List.copyOf(JdbcValues.columns(rs.getMetaData()));
            List<Object[]> rows = new ArrayList<>();
            while (rs.next()) {
                if (rows.size() == GENERATED_KEY_ROWS_MAX) {
                    throw new SQLException("more than " + GENERATED_KEY_ROWS_MAX
                            + " generated keys in one statement; do not ask for generated keys here", "54000");
                }
                rows.add(values.readRow(rs, keyColumns));
            }
            return new BatchAnswer(counts, keyColumns, rows);
        }
    }

    /** Runs a batch; one update count per element, and the keys the engine reports for it when they are asked for. */
    public static BatchAnswer executeBatch(Connection c, String sql, List<List<Param>> parameterSets, List<String> statements,
            JdbcValues values, ExecOptions options, Consumer<Statement> running) throws SQLException {
        if (sql != null) {
            boolean keys = options.returnGeneratedKeys();
            try (PreparedStatement ps = keys ? c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS) : c.prepareStatement(sql)) {
                if (options.queryTimeoutSeconds() > 0) ps.setQueryTimeout(options.queryTimeoutSeconds());
                running.accept(ps);
                for (List<Param> set : parameterSets) {
                    values.bindAll(ps, set);
                    ps.addBatch();
                }
                long[] counts = batch(ps);
                return keys ? generatedKeys(ps, counts, values) : BatchAnswer.counts(counts);
            } finally {
                running.accept(null);
            }
        }
        try (Statement st = c.createStatement()) {
            if (options.queryTimeoutSeconds() > 0) st.setQueryTimeout(options.queryTimeoutSeconds());
            running.accept(st);
            for (String s : statements) st.addBatch(s);
            return BatchAnswer.counts(batch(st));
        } finally {
            running.accept(null);
        }
    }

    /**
     * Parameter types and result columns of {@code sql}, read from the replica's prepared statement; parts the
     * replica cannot tell are left unknown. Fails only when the statement does not prepare.
     */
    public static StatementDescription describe(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int count = -1;
            int[] types = null;
            try {
                ParameterMetaData pmd = ps.getParameterMetaData();
                count = pmd.getParameterCount();
                types = new int[count];
                for (int i = 0; i < count; i++) types[i] = pmd.getParameterType(i + 1);
            } catch (SQLException | RuntimeException e) {
                types = null; // count known or not, types are not
            }
            List<ColumnInfo> columns = null;
            try {
                ResultSetMetaData md = ps.getMetaData();
                if (md != null) columns = JdbcValues.columns(md);
            } catch (SQLException | RuntimeException e) {
                columns = null;
            }
            return new StatementDescription(count, types, columns);
        }
    }

    /** MySQL/MariaDB's warning "Division by 0" (ER_DIVISION_BY_ZERO). */
    public static final int MYSQL_DIVISION_BY_ZERO_WARNING = 1365;
    /** MySQL/MariaDB's warning "Truncated incorrect ... value" / "Incorrect datetime value" (ER_TRUNCATED_WRONG_VALUE). */
    public static final int MYSQL_WRONG_VALUE_WARNING = 1292;

    /**
     * Raises the error a statement's warnings stand for. In a query MariaDB and MySQL answer a division by zero with
     * NULL and warning 1365, and a string that is no number or date (CAST('abc' AS INTEGER), '2026-02-30') with 0 or
     * NULL and warning 1292, where every other engine fails the statement (SQLState 22012, 22018/22007); as the same
     * error class on every engine the answers compare equal. Call after the update count or the last row was read.
     */
    public static void throwIfWarningIsAnError(Statement st) throws SQLException {
        for (SQLWarning w = st.getWarnings(); w != null; w = w.getNextWarning()) {
            if (w.getErrorCode() == MYSQL_DIVISION_BY_ZERO_WARNING) {
                throw new SQLException("Division by zero (" + w.getMessage() + ")", "22012", MYSQL_DIVISION_BY_ZERO_WARNING);
            }
            if (w.getErrorCode() == MYSQL_WRONG_VALUE_WARNING) {
                throw new SQLException("Invalid value for the conversion (" + w.getMessage() + ")", "22018",
                        MYSQL_WRONG_VALUE_WARNING);
            }
        }
    }

    /** The statement's warning chain, at most {@link #WARNINGS_MAX}. */
    public static List<SQLWarning> warnings(Statement st) throws SQLException {
        List<SQLWarning> out = new ArrayList<>();
        for (SQLWarning w = st.getWarnings(); w != null && out.size() < WARNINGS_MAX; w = w.getNextWarning()) {
            out.add(new SQLWarning(w.getMessage(), w.getSQLState(), w.getErrorCode()));
        }
        return out;
    }

    /**
     * An exception the client may see: the replica's SQLException as is (SQLState and vendor code preserved),
     * anything else wrapped with SQLState XX000.
     */
    public static SQLException toSqlException(Throwable t) {
        if (t instanceof SQLException) return (SQLException) t;
        return new SQLException("internal error: " + t, "XX000", t);
    }

    private static long updateCount(Statement st) throws SQLException {
        try {
            return st.getLargeUpdateCount();
        } catch (SQLFeatureNotSupportedException | UnsupportedOperationException e) {
            return st.getUpdateCount();
        }
    }

    private static long[] batch(Statement st) throws SQLException {
        try {
            return st.executeLargeBatch();
        } catch (SQLFeatureNotSupportedException | UnsupportedOperationException e) {
            int[] counts = st.executeBatch();
            long[] out = new long[counts.length];
            for (int i = 0; i < counts.length; i++) out[i] = counts[i];
            return out;
        }
    }
}
