package org.shepherd.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** A {@link SqlClient} on a JDBC connection. */
final class JdbcSqlClient implements SqlClient {
    private final Connection connection;

    JdbcSqlClient(Connection connection) {
        this.connection = connection;
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        connection.setAutoCommit(autoCommit);
    }

    @Override
    public long update(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(sql, params)) {
            return ps.executeLargeUpdate();
        }
    }

    @Override
    public List<Object[]> query(String sql, Object... params) throws SQLException {
        List<Object[]> out = new ArrayList<>();
        try (PreparedStatement ps = prepare(sql, params); ResultSet rs = ps.executeQuery()) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                Object[] row = new Object[columns];
                for (int i = 0; i < columns; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                out.add(row);
            }
        }
        return out;
    }

    private PreparedStatement prepare(String sql, Object... params) throws SQLException {
        PreparedStatement ps = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    @Override
    public void commit() throws SQLException {
        connection.commit();
    }

    @Override
    public void rollback() throws SQLException {
        // JDBC refuses rollback() in autocommit mode; a session takes it as a no-op
        if (!connection.getAutoCommit()) connection.rollback();
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
