package org.shepherd.testing;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.shepherd.coordinator.Coordinator;
import org.shepherd.coordinator.Session;

/**
 * The few calls a test workload makes, over a coordinator {@link Session} or a JDBC {@link Connection}, so one
 * workload runs both below the server and through the driver. Parameters are {@code Integer}, {@code Long},
 * {@code BigDecimal}, {@code String} or null (an INTEGER NULL below the server).
 */
public interface SqlClient extends AutoCloseable {

    /** Opens one client (one thread uses it). */
    @FunctionalInterface
    interface Factory {
        SqlClient open() throws SQLException;
    }

    static SqlClient of(Session session) {
        return new SessionSqlClient(session);
    }

    static SqlClient of(Connection connection) {
        return new JdbcSqlClient(connection);
    }

    /** Sessions of {@code coordinator} as user {@code app} on database {@code db}. */
    static Factory sessions(Coordinator coordinator) {
        return () -> of(coordinator.openSession("app", "db"));
    }

    void setAutoCommit(boolean autoCommit) throws SQLException;

    long update(String sql, Object... params) throws SQLException;

    /** Every row of the answer. */
    List<Object[]> query(String sql, Object... params) throws SQLException;

    void commit() throws SQLException;

    void rollback() throws SQLException;

    @Override
    void close() throws SQLException;
}
