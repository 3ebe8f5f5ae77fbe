package org.shepherd.testing;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.ResultCursor;
import org.shepherd.coordinator.Session;
import org.shepherd.protocol.Param;

/** A {@link SqlClient} on a coordinator session. */
final class SessionSqlClient implements SqlClient {
    private static final int FETCH_ROWS = 100;

    private final Session session;

    SessionSqlClient(Session session) {
        this.session = session;
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        session.setAutoCommit(autoCommit);
    }

    @Override
    public long update(String sql, Object... params) throws SQLException {
        return ((Answer.Update) session.execute(sql, params(params), ExecOptions.DEFAULT)).count();
    }

    @Override
    public List<Object[]> query(String sql, Object... params) throws SQLException {
        Answer.Rows rows = (Answer.Rows) session.execute(sql, params(params), ExecOptions.DEFAULT);
        List<Object[]> out = new ArrayList<>();
        try (ResultCursor c = rows.cursor()) {
            while (!c.exhausted()) {
                out.addAll(c.fetch(FETCH_ROWS));
            }
        }
        return out;
    }

    private static List<Param> params(Object... values) {
        List<Param> out = new ArrayList<>();
        for (Object v : values) {
            if (v == null) {
                out.add(new Param(Types.INTEGER, null));
            } else if (v instanceof Long l) {
                out.add(new Param(Types.BIGINT, l));
            } else if (v instanceof Integer i) {
                out.add(new Param(Types.INTEGER, i.longValue()));
            } else if (v instanceof BigDecimal d) {
                out.add(new Param(Types.DECIMAL, d));
            } else if (v instanceof java.time.LocalDateTime t) {
                out.add(new Param(Types.TIMESTAMP, t));
            } else if (v instanceof java.time.LocalTime t) {
                out.add(new Param(Types.TIME, t));
            } else {
                out.add(new Param(Types.VARCHAR, v));
            }
        }
        return out;
    }

    @Override
    public void commit() throws SQLException {
        session.commit();
    }

    @Override
    public void rollback() throws SQLException {
        session.rollback();
    }

    @Override
    public void close() {
        session.close();
    }
}
