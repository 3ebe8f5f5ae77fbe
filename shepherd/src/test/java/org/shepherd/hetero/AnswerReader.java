package org.shepherd.hetero;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.replica.jdbc.JdbcExecution;
import org.shepherd.translator.Bound;
import org.shepherd.translator.DeterminismSource;
import org.shepherd.translator.Translation;
import org.shepherd.vote.AnswerDigest;
import org.shepherd.vote.Ballot;
import org.shepherd.vote.CanonicalValues;

/**
 * Runs one translated statement on one engine and reduces the answer to the voter's ballot, the way a replica
 * manager does: values read through {@code JdbcValues}, rows digested by {@link AnswerDigest} (a multiset unless
 * the statement orders by select-list columns), errors by their {@link org.shepherd.vote.ErrorOutcome}.
 */
final class AnswerReader {
    static final int ROWS_SHOWN_MAX = 20;
    private static final long SEED = 20_261_121L;
    private static final ColumnInfo KEY_COLUMN =
            new ColumnInfo("KEY", "KEY", Types.BIGINT, "BIGINT", 19, 0, ResultSetMetaData.columnNoNulls, "", false);

    private AnswerReader() {
    }

    /** The coordinator's clock and random generator, fixed: every engine gets the same pinned values. */
    static DeterminismSource fixedSource() {
        Random random = new Random(SEED);
        return new DeterminismSource() {
            @Override
            public Instant now() {
                return Instant.parse("2026-03-04T05:06:07.123456789Z");
            }

            @Override
            public double random() {
                return random.nextDouble();
            }

            @Override
            public UUID uuid() {
                return new UUID(random.nextLong(), random.nextLong());
            }

            @Override
            public ZoneId zone() {
                return ZoneOffset.UTC;
            }
        };
    }

    /**
     * Executes {@code bound} on {@code engine} in the engine's open transaction (the caller commits or rolls back).
     *
     * @param keyColumn when not null, the generated keys are read and voted by value (labels differ per vendor)
     */
    static Observation run(Engine engine, Bound bound, String keyColumn) {
        String sql = null;
        try {
            sql = bound.sqlFor(engine.dialect());
            List<Object> params = bound.parameters(engine.dialect());
            Connection c = engine.connection();
            try (PreparedStatement ps = keyColumn == null ? c.prepareStatement(sql)
                    : c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
                for (int i = 0; i < params.size(); i++) {
                    ps.setObject(i + 1, params.get(i));
                }
                if (!ps.execute()) {
                    Observation o = update(engine, ps, keyColumn, sql);
                    JdbcExecution.throwIfWarningIsAnError(ps);
                    return o;
                }
                try (ResultSet rs = ps.getResultSet()) {
                    Observation o = rows(engine, rs, bound.translation(), sql);
                    JdbcExecution.throwIfWarningIsAnError(ps);
                    return o;
                }
            }
        } catch (SQLException e) {
            return new Observation(AnswerDigest.error(e), e, List.of(), sql == null ? "(not rendered)" : sql);
        }
    }

    private static Observation update(Engine engine, PreparedStatement ps, String keyColumn, String sql) throws SQLException {
        long count = ps.getLargeUpdateCount();
        if (keyColumn == null) {
            return new Observation(AnswerDigest.updateCount(count, List.of(), List.of()), null, List.of(), sql);
        }
        List<Object[]> keys = new ArrayList<>();
        List<List<String>> shown = new ArrayList<>();
        try (ResultSet rs = ps.getGeneratedKeys()) {
            List<ColumnInfo> cols = org.shepherd.replica.jdbc.JdbcValues.columns(rs.getMetaData());
            int keyIndex = 0;
            for (int i = 0; i < cols.size(); i++) {
                if (cols.get(i).label().equalsIgnoreCase(keyColumn)) {
                    keyIndex = i;
                }
            }
            while (rs.next()) {
                Object v = engine.values().read(rs, keyIndex + 1, cols.get(keyIndex));
                keys.add(new Object[] {v});
                shown.add(List.of(CanonicalValues.of(v, cols.get(keyIndex).jdbcType())));
            }
        }
        return new Observation(AnswerDigest.updateCount(count, List.of(KEY_COLUMN), keys), null, shown, sql);
    }

    private static Observation rows(Engine engine, ResultSet rs, Translation t, String sql) throws SQLException {
        List<ColumnInfo> cols = org.shepherd.replica.jdbc.JdbcValues.columns(rs.getMetaData());
        List<String> orderKeys = new ArrayList<>();
        int[] positions = t.orderKeyColumns();
        if (positions != null) {
            for (int p : positions) {
                if (p >= 1 && p <= cols.size()) {
                    orderKeys.add(cols.get(p - 1).label());
                }
            }
        }
        AnswerDigest digest = AnswerDigest.forRows(cols, orderKeys);
        List<List<String>> shown = new ArrayList<>();
        while (rs.next()) {
            Object[] row = engine.values().readRow(rs, cols);
            digest.addRow(row);
            if (shown.size() < ROWS_SHOWN_MAX) {
                List<String> r = new ArrayList<>();
                for (int i = 0; i < row.length; i++) {
                    r.add(CanonicalValues.of(row[i], cols.get(i).jdbcType()));
                }
                shown.add(r);
            }
        }
        Ballot b = digest.finish();
        StringBuilder labels = new StringBuilder();
        for (ColumnInfo c : cols) {
            labels.append(labels.length() == 0 ? "" : ",").append(c.label()).append(':').append(c.typeName());
        }
        return new Observation(b, null, shown, sql + "  -> columns " + labels);
    }
}
