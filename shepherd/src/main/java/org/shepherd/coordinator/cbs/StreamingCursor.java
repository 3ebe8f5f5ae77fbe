package org.shepherd.coordinator.cbs;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.shepherd.coordinator.ResultCursor;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.replica.Outcome;
import org.shepherd.replica.jdbc.JdbcValues;
import org.shepherd.replica.setup.ReplicaSetup;
import org.shepherd.vote.AnswerDigest;

/**
 * The primary's result inside an explicit transaction: rows go to the client batch by batch while the digest is
 * computed; closing the cursor before the end drains the rest into the digest. The complete answer's ballot is
 * reported to the core when the last row was read (then Q.b is set and the secondaries may run Q).
 */
final class StreamingCursor implements ResultCursor {

    /** Gets the statement back once its result is closed: true if it may be used again, false if it failed. */
    interface StatementFinisher {
        void finish(Statement statement, boolean reusable);
    }

    private final Statement statement;
    private final StatementFinisher finisher;
    private final ResultSet resultSet;
    private final JdbcValues values;
    private final List<ColumnInfo> columns;
    private final AnswerDigest digest;
    private final ReplicaSetup setup;
    private final Consumer<Outcome> done;
    private boolean exhausted;
    private boolean reported;

    StreamingCursor(Statement statement, StatementFinisher finisher, ResultSet resultSet, JdbcValues values,
            List<ColumnInfo> columns, AnswerDigest digest, ReplicaSetup setup, Consumer<Outcome> done) {
        this.setup = setup;
        this.statement = statement;
        this.finisher = finisher;
        this.resultSet = resultSet;
        this.values = values;
        this.columns = List.copyOf(columns);
        this.digest = digest;
        this.done = done;
    }

    @Override
    public List<ColumnInfo> columns() {
        return columns;
    }

    @Override
    public synchronized List<Object[]> fetch(int maxRows) throws SQLException {
        if (maxRows < 1) throw new IllegalArgumentException("maxRows must be >= 1, was " + maxRows);
        if (reported && !exhausted) throw new SQLException("the result set is closed", "24000");
        List<Object[]> rows = new ArrayList<>(Math.min(maxRows, 1024));
        try {
            while (!exhausted && rows.size() < maxRows) {
                if (resultSet.next()) {
                    Object[] row = values.readRow(resultSet, columns);
                    digest.addRow(row);
                    rows.add(row);
                } else {
                    exhausted = true;
                }
            }
        } catch (SQLException e) {
            fail(e);
            throw e;
        }
        if (exhausted) report();
        return rows;
    }

    @Override
    public synchronized boolean exhausted() {
        return exhausted;
    }

    /** Reads what the client did not, for the vote, and reports the answer. Idempotent. */
    @Override
    public synchronized void close() throws SQLException {
        if (reported) return;
        try {
            while (resultSet.next()) digest.addRow(values.readRow(resultSet, columns));
            exhausted = true;
        } catch (SQLException e) {
            fail(e);
            throw e;
        }
        report();
    }

    private void report() {
        if (reported) return;
        reported = true;
        finishStatement(true);
        done.accept(Outcome.answer(digest.finish(), null));
    }

    private void fail(SQLException e) {
        if (reported) return;
        reported = true;
        finishStatement(false);
        done.accept(JdbcReplicaEndpoint.errorOutcome(e, setup));
    }

    private void finishStatement(boolean reusable) {
        boolean closed = true;
        try {
            resultSet.close();
        } catch (SQLException ignored) {
            closed = false; // a statement whose result would not close is not used again
        }
        finisher.finish(statement, reusable && closed);
    }
}
