package org.shepherd.jdbc;

import java.sql.Array;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLXML;
import java.sql.Struct;
import java.util.Map;

/**
 * The {@link Connection} methods Shepherd does not support, out of the way of the real class: each throws
 * {@link SQLFeatureNotSupportedException} naming itself.
 */
abstract class AbstractUnsupportedConnection implements Connection {

    static SQLFeatureNotSupportedException unsupported(String method) {
        return new SQLFeatureNotSupportedException("Connection." + method + " is not supported by Shepherd");
    }

    @Override
    public Array createArrayOf(String arg0, Object[] arg1) throws SQLException {
        throw unsupported("createArrayOf");
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        throw unsupported("createSQLXML");
    }

    @Override
    public Struct createStruct(String arg0, Object[] arg1) throws SQLException {
        throw unsupported("createStruct");
    }

    @Override
    public CallableStatement prepareCall(String arg0, int arg1, int arg2, int arg3) throws SQLException {
        throw unsupported("prepareCall");
    }

    @Override
    public CallableStatement prepareCall(String arg0, int arg1, int arg2) throws SQLException {
        throw unsupported("prepareCall");
    }

    @Override
    public CallableStatement prepareCall(String arg0) throws SQLException {
        throw unsupported("prepareCall");
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> arg0) throws SQLException {
        throw unsupported("setTypeMap");
    }
}
