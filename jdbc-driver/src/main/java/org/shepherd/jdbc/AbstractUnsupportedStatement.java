package org.shepherd.jdbc;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;

/**
 * The {@link Statement} methods Shepherd does not support, out of the way of the real class: each throws
 * {@link SQLFeatureNotSupportedException} naming itself.
 */
abstract class AbstractUnsupportedStatement implements Statement {

    static SQLFeatureNotSupportedException unsupported(String method) {
        return new SQLFeatureNotSupportedException("Statement." + method + " is not supported by Shepherd");
    }

    @Override
    public void setCursorName(String arg0) throws SQLException {
        throw unsupported("setCursorName");
    }
}
