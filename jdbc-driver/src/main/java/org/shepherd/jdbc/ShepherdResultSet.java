package org.shepherd.jdbc;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.shepherd.client.Cursor;
import org.shepherd.protocol.ColumnInfo;

/**
 * A read-only result. Forward-only (the default), rows arrive in batches of the fetch size as they are read; if the
 * connection runs another statement while this result is open, the rest of it is read into client memory first (one
 * cursor per session on the shepherd), and this result set stays usable. {@link #TYPE_SCROLL_INSENSITIVE} reads the
 * whole result into client memory when it is created (as pgjdbc does without a cursor), so that it can be navigated
 * in any direction.
 */
public class ShepherdResultSet extends AbstractUnsupportedResultSet {

    private final ShepherdStatement statement;
    private final Cursor cursor;
    private final List<ColumnInfo> columns;
    private Map<String, Integer> labelIndex;
    private Object[] row;
    private long rowNumber;
    private boolean afterLast;
    private boolean wasNull;
    private boolean closed;
    private int fetchSize;
    private SQLWarning warnings;
    /** Every row, for a scroll-insensitive result; null for a forward-only one. */
    private final List<Object[]> rows;
    /** In {@link #rows}: 0 before the first row, 1..n on a row, n + 1 after the last. */
    private int position;

    /** A forward-only result. */
    ShepherdResultSet(ShepherdStatement statement, Cursor cursor) {
        this(statement, cursor, (List<Object[]>) null);
    }

    /** {@code rows}: every row, read already (scroll-insensitive), or null (forward-only, read as it goes). */
    private ShepherdResultSet(ShepherdStatement statement, Cursor cursor, List<Object[]> rows) {
        this.statement = statement;
        this.cursor = cursor;
        this.columns = cursor.columns();
        this.rows = rows;
        this.warnings = Warnings.append(null, cursor.warnings());
    }

    /** A result of {@code type}: TYPE_FORWARD_ONLY, or TYPE_SCROLL_INSENSITIVE (read whole now). */
    static ShepherdResultSet of(ShepherdStatement statement, Cursor cursor, int type) throws SQLException {
        if (type == TYPE_FORWARD_ONLY) return new ShepherdResultSet(statement, cursor);
        List<Object[]> rows = new ArrayList<>();
        for (Object[] r = cursor.next(); r != null; r = cursor.next()) rows.add(r);
        cursor.close();
        return new ShepherdResultSet(statement, cursor, rows);
    }

    private void checkOpen() throws SQLException {
        if (closed) throw new SQLException("the result set is closed", "HY010");
    }

    // ---------------------------------------------------------------- navigation

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        if (rows != null) return moveTo(position + 1);
        if (afterLast) return false;
        row = cursor.next();
        if (row == null) {
            afterLast = true;
            return false;
        }
        rowNumber++;
        return true;
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        if (rows != null) return position == 0 && !rows.isEmpty();
        return rowNumber == 0 && !afterLast && cursor.hasNext();
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        if (rows != null) return position > rows.size() && !rows.isEmpty();
        return afterLast && rowNumber > 0;
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        if (rows != null) return position == 1 && !rows.isEmpty();
        return rowNumber == 1 && !afterLast;
    }

    @Override
    public boolean isLast() throws SQLException {
        checkOpen();
        if (rows != null) return position == rows.size() && !rows.isEmpty();
        return row != null && !afterLast && !cursor.hasNext();
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        if (rows != null) return row == null ? 0 : position;
        return afterLast || rowNumber > Integer.MAX_VALUE ? 0 : (int) rowNumber;
    }

    // scrolling: a scroll-insensitive result only

    /** Puts the result on row {@code to} of its rows (0: before the first, past the last: after it). */
    private boolean moveTo(long to) {
        position = (int) Math.max(0, Math.min(to, rows.size() + 1L));
        boolean on = position >= 1 && position <= rows.size();
        row = on ? rows.get(position - 1) : null;
        afterLast = position > rows.size();
        return on;
    }

    private List<Object[]> scrollable(String method) throws SQLException {
        checkOpen();
        if (rows == null) {
            throw new SQLException("ResultSet." + method + ": the result set is TYPE_FORWARD_ONLY; create the statement with"
                    + " TYPE_SCROLL_INSENSITIVE to move in it", "24000");
        }
        return rows;
    }

    @Override
    public boolean absolute(int to) throws SQLException {
        List<Object[]> all = scrollable("absolute");
        return moveTo(to >= 0 ? to : all.size() + 1L + to);
    }

    @Override
    public boolean relative(int by) throws SQLException {
        scrollable("relative");
        return moveTo((long) position + by);
    }

    @Override
    public boolean previous() throws SQLException {
        scrollable("previous");
        return moveTo(position - 1L);
    }

    @Override
    public boolean first() throws SQLException {
        scrollable("first");
        return moveTo(1);
    }

    @Override
    public boolean last() throws SQLException {
        return moveTo(scrollable("last").size());
    }

    @Override
    public void beforeFirst() throws SQLException {
        scrollable("beforeFirst");
        moveTo(0);
    }

    @Override
    public void afterLast() throws SQLException {
        moveTo(scrollable("afterLast").size() + 1L);
    }

    @Override
    public int getType() throws SQLException {
        checkOpen();
        return rows == null ? TYPE_FORWARD_ONLY : TYPE_SCROLL_INSENSITIVE;
    }

    @Override
    public int getConcurrency() throws SQLException {
        checkOpen();
        return CONCUR_READ_ONLY;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return FETCH_FORWARD;
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (rows != null && (direction == FETCH_REVERSE || direction == FETCH_UNKNOWN)) return; // a hint: all rows are here
        if (direction != FETCH_FORWARD) {
            throw new SQLFeatureNotSupportedException("ResultSet.setFetchDirection: only FETCH_FORWARD is supported by"
                    + " Shepherd");
        }
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) throw new SQLException("fetchSize must be >= 0", "22023");
        fetchSize = rows;
        if (rows > 0) cursor.setFetchSize(rows);
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public void close() throws SQLException {
        if (closed) return;
        closeFromStatement();
        if (statement != null) statement.resultSetClosed(this);
    }

    void closeFromStatement() throws SQLException {
        if (closed) return;
        closed = true;
        row = null;
        cursor.close();
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return warnings;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        warnings = null;
    }

    List<ColumnInfo> columns() {
        return columns;
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return new ShepherdResultSetMetaData(columns);
    }

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        checkOpen();
        if (labelIndex == null) {
            labelIndex = new HashMap<>();
            for (int i = columns.size() - 1; i >= 0; i--) {
                labelIndex.put(columns.get(i).label().toLowerCase(Locale.ROOT), i + 1);
            }
        }
        Integer i = columnLabel == null ? null : labelIndex.get(columnLabel.toLowerCase(Locale.ROOT));
        if (i == null) throw new SQLException("no column labelled '" + columnLabel + "' in this result", "42S22");
        return i;
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return wasNull;
    }

    private Object value(int columnIndex) throws SQLException {
        checkOpen();
        if (row == null) {
            throw new SQLException(afterLast ? "the result set is after its last row" : "call next() before reading a"
                    + " row", "24000");
        }
        if (columnIndex < 1 || columnIndex > row.length) {
            throw new SQLException("column index " + columnIndex + " is out of range (1.." + row.length + ")", "07009");
        }
        Object v = row[columnIndex - 1];
        wasNull = v == null;
        return v;
    }

    // ---------------------------------------------------------------- getters by index

    @Override
    public String getString(int columnIndex) throws SQLException {
        return Conversions.toStringValue(value(columnIndex));
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return getString(columnIndex);
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        return Conversions.toBoolean(value(columnIndex));
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        return (byte) Conversions.toLong(value(columnIndex), Byte.MIN_VALUE, Byte.MAX_VALUE, "byte");
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        return (short) Conversions.toLong(value(columnIndex), Short.MIN_VALUE, Short.MAX_VALUE, "short");
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        return (int) Conversions.toLong(value(columnIndex), Integer.MIN_VALUE, Integer.MAX_VALUE, "int");
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        return Conversions.toLong(value(columnIndex), Long.MIN_VALUE, Long.MAX_VALUE, "long");
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        return (float) Conversions.toDouble(value(columnIndex), "float");
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        return Conversions.toDouble(value(columnIndex), "double");
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        return Conversions.toBigDecimal(value(columnIndex));
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        BigDecimal d = getBigDecimal(columnIndex);
        return d == null ? null : d.setScale(scale, RoundingMode.HALF_UP);
    }

    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        return Conversions.toBytes(value(columnIndex));
    }

    @Override
    public Date getDate(int columnIndex) throws SQLException {
        return Conversions.toDate(value(columnIndex), null);
    }

    @Override
    public Date getDate(int columnIndex, Calendar cal) throws SQLException {
        return Conversions.toDate(value(columnIndex), cal);
    }

    @Override
    public Time getTime(int columnIndex) throws SQLException {
        return Conversions.toTime(value(columnIndex), null);
    }

    @Override
    public Time getTime(int columnIndex, Calendar cal) throws SQLException {
        return Conversions.toTime(value(columnIndex), cal);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        return Conversions.toTimestamp(value(columnIndex), null);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        return Conversions.toTimestamp(value(columnIndex), cal);
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return Conversions.toDefaultObject(v, columns.get(columnIndex - 1).jdbcType());
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        return Conversions.toObject(value(columnIndex), type);
    }

    @Override
    public InputStream getBinaryStream(int columnIndex) throws SQLException {
        byte[] b = getBytes(columnIndex);
        return b == null ? null : new ByteArrayInputStream(b);
    }

    @Override
    public InputStream getAsciiStream(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new ByteArrayInputStream(s.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public Reader getCharacterStream(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new StringReader(s);
    }

    @Override
    public Reader getNCharacterStream(int columnIndex) throws SQLException {
        return getCharacterStream(columnIndex);
    }

    /** An in-memory copy of the value (the whole value travelled with the row). */
    @Override
    public Blob getBlob(int columnIndex) throws SQLException {
        byte[] b = getBytes(columnIndex);
        return b == null ? null : new ShepherdBlob(b);
    }

    /** An in-memory copy of the value (the whole value travelled with the row). */
    @Override
    public Clob getClob(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new ShepherdClob(s);
    }

    /** An in-memory copy of the value; text is Unicode whatever the column's character set. */
    @Override
    public NClob getNClob(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new ShepherdClob(s);
    }

    // ---------------------------------------------------------------- getters by label

    @Override
    public String getString(String columnLabel) throws SQLException {
        return getString(findColumn(columnLabel));
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        return getString(findColumn(columnLabel));
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        return getBoolean(findColumn(columnLabel));
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        return getByte(findColumn(columnLabel));
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        return getShort(findColumn(columnLabel));
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        return getInt(findColumn(columnLabel));
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        return getLong(findColumn(columnLabel));
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        return getFloat(findColumn(columnLabel));
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        return getDouble(findColumn(columnLabel));
    }

    @Override
    public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        return getBigDecimal(findColumn(columnLabel));
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
        return getBigDecimal(findColumn(columnLabel), scale);
    }

    @Override
    public byte[] getBytes(String columnLabel) throws SQLException {
        return getBytes(findColumn(columnLabel));
    }

    @Override
    public Date getDate(String columnLabel) throws SQLException {
        return getDate(findColumn(columnLabel));
    }

    @Override
    public Date getDate(String columnLabel, Calendar cal) throws SQLException {
        return getDate(findColumn(columnLabel), cal);
    }

    @Override
    public Time getTime(String columnLabel) throws SQLException {
        return getTime(findColumn(columnLabel));
    }

    @Override
    public Time getTime(String columnLabel, Calendar cal) throws SQLException {
        return getTime(findColumn(columnLabel), cal);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel) throws SQLException {
        return getTimestamp(findColumn(columnLabel));
    }

    @Override
    public Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        return getTimestamp(findColumn(columnLabel), cal);
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return getObject(findColumn(columnLabel));
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return getObject(findColumn(columnLabel), type);
    }

    @Override
    public InputStream getBinaryStream(String columnLabel) throws SQLException {
        return getBinaryStream(findColumn(columnLabel));
    }

    @Override
    public InputStream getAsciiStream(String columnLabel) throws SQLException {
        return getAsciiStream(findColumn(columnLabel));
    }

    @Override
    public Reader getCharacterStream(String columnLabel) throws SQLException {
        return getCharacterStream(findColumn(columnLabel));
    }

    @Override
    public Reader getNCharacterStream(String columnLabel) throws SQLException {
        return getCharacterStream(findColumn(columnLabel));
    }

    @Override
    public Blob getBlob(String columnLabel) throws SQLException {
        return getBlob(findColumn(columnLabel));
    }

    @Override
    public Clob getClob(String columnLabel) throws SQLException {
        return getClob(findColumn(columnLabel));
    }

    @Override
    public NClob getNClob(String columnLabel) throws SQLException {
        return getNClob(findColumn(columnLabel));
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) return iface.cast(this);
        throw new SQLException("not a wrapper for " + iface.getName(), "22023");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
