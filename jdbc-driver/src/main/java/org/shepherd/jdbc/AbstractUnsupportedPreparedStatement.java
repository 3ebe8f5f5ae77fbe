package org.shepherd.jdbc;

import java.io.InputStream;
import java.net.URL;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLXML;

/**
 * The {@link PreparedStatement} methods Shepherd does not support, out of the way of the real class: each throws
 * {@link SQLFeatureNotSupportedException} naming itself.
 */
abstract class AbstractUnsupportedPreparedStatement extends ShepherdStatement implements PreparedStatement {

    AbstractUnsupportedPreparedStatement(ShepherdConnection connection, int resultSetType) {
        super(connection, resultSetType);
    }

    static SQLFeatureNotSupportedException unsupported(String method) {
        return new SQLFeatureNotSupportedException("PreparedStatement." + method + " is not supported by Shepherd");
    }

    @Override
    public void setArray(int arg0, Array arg1) throws SQLException {
        throw unsupported("setArray");
    }

    @Override
    public void setRef(int arg0, Ref arg1) throws SQLException {
        throw unsupported("setRef");
    }

    @Override
    public void setRowId(int arg0, RowId arg1) throws SQLException {
        throw unsupported("setRowId");
    }

    @Override
    public void setSQLXML(int arg0, SQLXML arg1) throws SQLException {
        throw unsupported("setSQLXML");
    }

    @Override
    public void setURL(int arg0, URL arg1) throws SQLException {
        throw unsupported("setURL");
    }

    @Override
    public void setUnicodeStream(int arg0, InputStream arg1, int arg2) throws SQLException {
        throw unsupported("setUnicodeStream");
    }
}
