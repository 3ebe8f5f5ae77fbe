package org.shepherd.jdbc;

import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.NClob;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLXML;
import java.sql.Struct;
import java.util.Map;
import java.util.Properties;

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
    public Blob createBlob() throws SQLException {
        throw unsupported("createBlob");
    }

    @Override
    public Clob createClob() throws SQLException {
        throw unsupported("createClob");
    }

    @Override
    public NClob createNClob() throws SQLException {
        throw unsupported("createNClob");
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
    public void setCatalog(String arg0) throws SQLException {
        throw unsupported("setCatalog");
    }

    @Override
    public void setClientInfo(String arg0, String arg1) throws SQLClientInfoException {
        throw new SQLClientInfoException("Connection.setClientInfo is not supported by Shepherd", null);
    }

    @Override
    public void setClientInfo(Properties arg0) throws SQLClientInfoException {
        throw new SQLClientInfoException("Connection.setClientInfo is not supported by Shepherd", null);
    }

    @Override
    public void setSchema(String arg0) throws SQLException {
        throw unsupported("setSchema");
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> arg0) throws SQLException {
        throw unsupported("setTypeMap");
    }
}
