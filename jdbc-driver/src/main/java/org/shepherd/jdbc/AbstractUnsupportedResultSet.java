package org.shepherd.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.util.Map;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;

/**
 * The {@link ResultSet} methods Shepherd does not support, out of the way of the real class: each throws
 * {@link SQLFeatureNotSupportedException} naming itself.
 */
abstract class AbstractUnsupportedResultSet implements ResultSet {

    static SQLFeatureNotSupportedException unsupported(String method) {
        return new SQLFeatureNotSupportedException("ResultSet." + method + " is not supported by Shepherd");
    }

    @Override
    public void cancelRowUpdates() throws SQLException {
        throw unsupported("cancelRowUpdates");
    }

    @Override
    public void deleteRow() throws SQLException {
        throw unsupported("deleteRow");
    }

    @Override
    public Array getArray(String arg0) throws SQLException {
        throw unsupported("getArray");
    }

    @Override
    public Array getArray(int arg0) throws SQLException {
        throw unsupported("getArray");
    }

    @Override
    public String getCursorName() throws SQLException {
        throw unsupported("getCursorName");
    }

    @Override
    public Ref getRef(String arg0) throws SQLException {
        throw unsupported("getRef");
    }

    @Override
    public Ref getRef(int arg0) throws SQLException {
        throw unsupported("getRef");
    }

    @Override
    public RowId getRowId(String arg0) throws SQLException {
        throw unsupported("getRowId");
    }

    @Override
    public RowId getRowId(int arg0) throws SQLException {
        throw unsupported("getRowId");
    }

    @Override
    public SQLXML getSQLXML(String arg0) throws SQLException {
        throw unsupported("getSQLXML");
    }

    @Override
    public SQLXML getSQLXML(int arg0) throws SQLException {
        throw unsupported("getSQLXML");
    }

    @Override
    public URL getURL(String arg0) throws SQLException {
        throw unsupported("getURL");
    }

    @Override
    public URL getURL(int arg0) throws SQLException {
        throw unsupported("getURL");
    }

    @Override
    public InputStream getUnicodeStream(String arg0) throws SQLException {
        throw unsupported("getUnicodeStream");
    }

    @Override
    public InputStream getUnicodeStream(int arg0) throws SQLException {
        throw unsupported("getUnicodeStream");
    }

    @Override
    public void insertRow() throws SQLException {
        throw unsupported("insertRow");
    }

    @Override
    public void moveToCurrentRow() throws SQLException {
        throw unsupported("moveToCurrentRow");
    }

    @Override
    public void moveToInsertRow() throws SQLException {
        throw unsupported("moveToInsertRow");
    }

    @Override
    public void refreshRow() throws SQLException {
        throw unsupported("refreshRow");
    }

    @Override
    public boolean rowDeleted() throws SQLException {
        throw unsupported("rowDeleted");
    }

    @Override
    public boolean rowInserted() throws SQLException {
        throw unsupported("rowInserted");
    }

    @Override
    public boolean rowUpdated() throws SQLException {
        throw unsupported("rowUpdated");
    }

    @Override
    public void updateArray(String arg0, Array arg1) throws SQLException {
        throw unsupported("updateArray");
    }

    @Override
    public void updateArray(int arg0, Array arg1) throws SQLException {
        throw unsupported("updateArray");
    }

    @Override
    public void updateAsciiStream(String arg0, InputStream arg1, int arg2) throws SQLException {
        throw unsupported("updateAsciiStream");
    }

    @Override
    public void updateAsciiStream(String arg0, InputStream arg1, long arg2) throws SQLException {
        throw unsupported("updateAsciiStream");
    }

    @Override
    public void updateAsciiStream(String arg0, InputStream arg1) throws SQLException {
        throw unsupported("updateAsciiStream");
    }

    @Override
    public void updateAsciiStream(int arg0, InputStream arg1, int arg2) throws SQLException {
        throw unsupported("updateAsciiStream");
    }

    @Override
    public void updateAsciiStream(int arg0, InputStream arg1, long arg2) throws SQLException {
        throw unsupported("updateAsciiStream");
    }

    @Override
    public void updateAsciiStream(int arg0, InputStream arg1) throws SQLException {
        throw unsupported("updateAsciiStream");
    }

    @Override
    public void updateBigDecimal(String arg0, BigDecimal arg1) throws SQLException {
        throw unsupported("updateBigDecimal");
    }

    @Override
    public void updateBigDecimal(int arg0, BigDecimal arg1) throws SQLException {
        throw unsupported("updateBigDecimal");
    }

    @Override
    public void updateBinaryStream(String arg0, InputStream arg1, int arg2) throws SQLException {
        throw unsupported("updateBinaryStream");
    }

    @Override
    public void updateBinaryStream(String arg0, InputStream arg1, long arg2) throws SQLException {
        throw unsupported("updateBinaryStream");
    }

    @Override
    public void updateBinaryStream(String arg0, InputStream arg1) throws SQLException {
        throw unsupported("updateBinaryStream");
    }

    @Override
    public void updateBinaryStream(int arg0, InputStream arg1, int arg2) throws SQLException {
        throw unsupported("updateBinaryStream");
    }

    @Override
    public void updateBinaryStream(int arg0, InputStream arg1, long arg2) throws SQLException {
        throw unsupported("updateBinaryStream");
    }

    @Override
    public void updateBinaryStream(int arg0, InputStream arg1) throws SQLException {
        throw unsupported("updateBinaryStream");
    }

    @Override
    public void updateBlob(String arg0, InputStream arg1, long arg2) throws SQLException {
        throw unsupported("updateBlob");
    }

    @Override
    public void updateBlob(String arg0, InputStream arg1) throws SQLException {
        throw unsupported("updateBlob");
    }

    @Override
    public void updateBlob(String arg0, Blob arg1) throws SQLException {
        throw unsupported("updateBlob");
    }

    @Override
    public void updateBlob(int arg0, InputStream arg1, long arg2) throws SQLException {
        throw unsupported("updateBlob");
    }

    @Override
    public void updateBlob(int arg0, InputStream arg1) throws SQLException {
        throw unsupported("updateBlob");
    }

    @Override
    public void updateBlob(int arg0, Blob arg1) throws SQLException {
        throw unsupported("updateBlob");
    }

    @Override
    public void updateBoolean(String arg0, boolean arg1) throws SQLException {
        throw unsupported("updateBoolean");
    }

    @Override
    public void updateBoolean(int arg0, boolean arg1) throws SQLException {
        throw unsupported("updateBoolean");
    }

    @Override
    public void updateByte(String arg0, byte arg1) throws SQLException {
        throw unsupported("updateByte");
    }

    @Override
    public void updateByte(int arg0, byte arg1) throws SQLException {
        throw unsupported("updateByte");
    }

    @Override
    public void updateBytes(String arg0, byte[] arg1) throws SQLException {
        throw unsupported("updateBytes");
    }

    @Override
    public void updateBytes(int arg0, byte[] arg1) throws SQLException {
        throw unsupported("updateBytes");
    }

    @Override
    public void updateCharacterStream(String arg0, Reader arg1, int arg2) throws SQLException {
        throw unsupported("updateCharacterStream");
    }

    @Override
    public void updateCharacterStream(String arg0, Reader arg1, long arg2) throws SQLException {
        throw unsupported("updateCharacterStream");
    }

    @Override
    public void updateCharacterStream(String arg0, Reader arg1) throws SQLException {
        throw unsupported("updateCharacterStream");
    }

    @Override
    public void updateCharacterStream(int arg0, Reader arg1, int arg2) throws SQLException {
        throw unsupported("updateCharacterStream");
    }

    @Override
    public void updateCharacterStream(int arg0, Reader arg1, long arg2) throws SQLException {
        throw unsupported("updateCharacterStream");
    }

    @Override
    public void updateCharacterStream(int arg0, Reader arg1) throws SQLException {
        throw unsupported("updateCharacterStream");
    }

    @Override
    public void updateClob(String arg0, Reader arg1, long arg2) throws SQLException {
        throw unsupported("updateClob");
    }

    @Override
    public void updateClob(String arg0, Reader arg1) throws SQLException {
        throw unsupported("updateClob");
    }

    @Override
    public void updateClob(String arg0, Clob arg1) throws SQLException {
        throw unsupported("updateClob");
    }

    @Override
    public void updateClob(int arg0, Reader arg1, long arg2) throws SQLException {
        throw unsupported("updateClob");
    }

    @Override
    public void updateClob(int arg0, Reader arg1) throws SQLException {
        throw unsupported("updateClob");
    }

    @Override
    public void updateClob(int arg0, Clob arg1) throws SQLException {
        throw unsupported("updateClob");
    }

    @Override
    public void updateDate(String arg0, Date arg1) throws SQLException {
        throw unsupported("updateDate");
    }

    @Override
    public void updateDate(int arg0, Date arg1) throws SQLException {
        throw unsupported("updateDate");
    }

    @Override
    public void updateDouble(String arg0, double arg1) throws SQLException {
        throw unsupported("updateDouble");
    }

    @Override
    public void updateDouble(int arg0, double arg1) throws SQLException {
        throw unsupported("updateDouble");
    }

    @Override
    public void updateFloat(String arg0, float arg1) throws SQLException {
        throw unsupported("updateFloat");
    }

    @Override
    public void updateFloat(int arg0, float arg1) throws SQLException {
        throw unsupported("updateFloat");
    }

    @Override
    public void updateInt(String arg0, int arg1) throws SQLException {
        throw unsupported("updateInt");
    }

    @Override
    public void updateInt(int arg0, int arg1) throws SQLException {
        throw unsupported("updateInt");
    }

    @Override
    public void updateLong(String arg0, long arg1) throws SQLException {
        throw unsupported("updateLong");
    }

    @Override
    public void updateLong(int arg0, long arg1) throws SQLException {
        throw unsupported("updateLong");
    }

    @Override
    public void updateNCharacterStream(String arg0, Reader arg1, long arg2) throws SQLException {
        throw unsupported("updateNCharacterStream");
    }

    @Override
    public void updateNCharacterStream(String arg0, Reader arg1) throws SQLException {
        throw unsupported("updateNCharacterStream");
    }

    @Override
    public void updateNCharacterStream(int arg0, Reader arg1, long arg2) throws SQLException {
        throw unsupported("updateNCharacterStream");
    }

    @Override
    public void updateNCharacterStream(int arg0, Reader arg1) throws SQLException {
        throw unsupported("updateNCharacterStream");
    }

    @Override
    public void updateNClob(String arg0, Reader arg1, long arg2) throws SQLException {
        throw unsupported("updateNClob");
    }

    @Override
    public void updateNClob(String arg0, Reader arg1) throws SQLException {
        throw unsupported("updateNClob");
    }

    @Override
    public void updateNClob(String arg0, NClob arg1) throws SQLException {
        throw unsupported("updateNClob");
    }

    @Override
    public void updateNClob(int arg0, Reader arg1, long arg2) throws SQLException {
        throw unsupported("updateNClob");
    }

    @Override
    public void updateNClob(int arg0, Reader arg1) throws SQLException {
        throw unsupported("updateNClob");
    }

    @Override
    public void updateNClob(int arg0, NClob arg1) throws SQLException {
        throw unsupported("updateNClob");
    }

    @Override
    public void updateNString(String arg0, String arg1) throws SQLException {
        throw unsupported("updateNString");
    }

    @Override
    public void updateNString(int arg0, String arg1) throws SQLException {
        throw unsupported("updateNString");
    }

    @Override
    public void updateNull(String arg0) throws SQLException {
        throw unsupported("updateNull");
    }

    @Override
    public void updateNull(int arg0) throws SQLException {
        throw unsupported("updateNull");
    }

    @Override
    public void updateObject(String arg0, Object arg1, int arg2) throws SQLException {
        throw unsupported("updateObject");
    }

    @Override
    public void updateObject(String arg0, Object arg1) throws SQLException {
        throw unsupported("updateObject");
    }

    @Override
    public void updateObject(int arg0, Object arg1, int arg2) throws SQLException {
        throw unsupported("updateObject");
    }

    @Override
    public void updateObject(int arg0, Object arg1) throws SQLException {
        throw unsupported("updateObject");
    }

    @Override
    public void updateRef(String arg0, Ref arg1) throws SQLException {
        throw unsupported("updateRef");
    }

    @Override
    public void updateRef(int arg0, Ref arg1) throws SQLException {
        throw unsupported("updateRef");
    }

    @Override
    public void updateRow() throws SQLException {
        throw unsupported("updateRow");
    }

    @Override
    public void updateRowId(String arg0, RowId arg1) throws SQLException {
        throw unsupported("updateRowId");
    }

    @Override
    public void updateRowId(int arg0, RowId arg1) throws SQLException {
        throw unsupported("updateRowId");
    }

    @Override
    public void updateSQLXML(String arg0, SQLXML arg1) throws SQLException {
        throw unsupported("updateSQLXML");
    }

    @Override
    public void updateSQLXML(int arg0, SQLXML arg1) throws SQLException {
        throw unsupported("updateSQLXML");
    }

    @Override
    public void updateShort(String arg0, short arg1) throws SQLException {
        throw unsupported("updateShort");
    }

    @Override
    public void updateShort(int arg0, short arg1) throws SQLException {
        throw unsupported("updateShort");
    }

    @Override
    public void updateString(String arg0, String arg1) throws SQLException {
        throw unsupported("updateString");
    }

    @Override
    public void updateString(int arg0, String arg1) throws SQLException {
        throw unsupported("updateString");
    }

    @Override
    public void updateTime(String arg0, Time arg1) throws SQLException {
        throw unsupported("updateTime");
    }

    @Override
    public void updateTime(int arg0, Time arg1) throws SQLException {
        throw unsupported("updateTime");
    }

    @Override
    public void updateTimestamp(String arg0, Timestamp arg1) throws SQLException {
        throw unsupported("updateTimestamp");
    }

    @Override
    public void updateTimestamp(int arg0, Timestamp arg1) throws SQLException {
        throw unsupported("updateTimestamp");
    }

    @Override
    public Object getObject(int arg0, Map<String, Class<?>> arg1) throws SQLException {
        throw unsupported("getObject(int, Map)");
    }

    @Override
    public Object getObject(String arg0, Map<String, Class<?>> arg1) throws SQLException {
        throw unsupported("getObject(String, Map)");
    }
}
