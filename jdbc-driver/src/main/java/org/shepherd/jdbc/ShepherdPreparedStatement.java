package org.shepherd.jdbc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.JDBCType;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLType;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;
import org.shepherd.protocol.v1.Message;

/**
 * A prepared statement. Each execution sends the SQL text with its typed parameters ({@code Execute}); the
 * shepherd keeps nothing per statement between executions. {@code Prepare} is used only to answer
 * {@link #getParameterMetaData()} and {@link #getMetaData()} before the first execution.
 */
public class ShepherdPreparedStatement extends AbstractUnsupportedPreparedStatement {

    private final String sql;
    private final boolean returnKeys;
    private final Param[] params;
    private final List<List<Param>> batch = new ArrayList<>();
    private Message.PrepareOk prepared;
    private List<ColumnInfo> lastColumns;

    ShepherdPreparedStatement(ShepherdConnection connection, String sql, boolean returnKeys) throws SQLException {
        this(connection, sql, returnKeys, java.sql.ResultSet.TYPE_FORWARD_ONLY);
    }

    ShepherdPreparedStatement(ShepherdConnection connection, String sql, boolean returnKeys, int resultSetType)
            throws SQLException {
        super(connection, resultSetType);
        if (sql == null) throw new SQLException("SQL must not be null", "22023");
        this.sql = sql;
        this.returnKeys = returnKeys;
        this.params = new Param[SqlPlaceholders.count(sql, connection.backslashEscapes())];
    }

    // ---------------------------------------------------------------- execution

    @Override
    public ResultSet executeQuery() throws SQLException {
        if (!execute()) throw new SQLException("the statement did not return a result set", "02000");
        return getResultSet();
    }

    @Override
    public int executeUpdate() throws SQLException {
        return toInt(executeLargeUpdate());
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        if (execute()) {
            getResultSet().close();
            throw new SQLException("the statement returned a result set; use executeQuery or execute", "0100D");
        }
        return getLargeUpdateCount();
    }

    @Override
    public boolean execute() throws SQLException {
        checkOpen();
        boolean rows = run(sql, boundParams(), returnKeys);
        if (rows) lastColumns = ((ShepherdResultSet) getResultSet()).columns();
        return rows;
    }

    private List<Param> boundParams() throws SQLException {
        for (int i = 0; i < params.length; i++) {
            if (params[i] == null) throw new SQLException("no value specified for parameter " + (i + 1), "07001");
        }
        return Arrays.asList(params.clone());
    }

    @Override
    public void addBatch() throws SQLException {
        checkOpen();
        batch.add(boundParams());
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch.clear();
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        closeCurrentResults();
        List<List<Param>> sets = List.copyOf(batch);
        batch.clear();
        if (sets.isEmpty()) return new long[0];
        return runBatch(sql, sets, List.of(), returnKeys);
    }

    @Override
    public int[] executeBatch() throws SQLException {
        return toInts(executeLargeBatch());
    }

    // ---------------------------------------------------------------- metadata

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        if (lastColumns != null) return new ShepherdResultSetMetaData(lastColumns);
        Message.PrepareOk ok = prepare();
        return ok == null || ok.columns() == null ? null : new ShepherdResultSetMetaData(ok.columns());
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        Message.PrepareOk ok = prepare();
        int count = ok != null && ok.parameterCount() >= 0 ? ok.parameterCount() : params.length;
        int[] types = ok == null ? null : ok.parameterTypes();
        return new ShepherdParameterMetaData(count, types);
    }

    /** Asks the shepherd once; null when the shepherd cannot prepare statements (SQLState class 0A). */
    private Message.PrepareOk prepare() throws SQLException {
        if (prepared != null) return prepared;
        try {
            Message.PrepareOk ok = connection.executor().prepare(sql);
            connection.executor().closePrepared(ok.statementId());
            prepared = ok;
            return ok;
        } catch (SQLFeatureNotSupportedException e) {
            return null;
        }
    }

    // ---------------------------------------------------------------- parameters

    private void set(int index, Param p) throws SQLException {
        checkOpen();
        if (index < 1 || index > params.length) {
            throw new SQLException("parameter index " + index + " is out of range (the statement has " + params.length
                    + " parameters)", "07009");
        }
        params[index - 1] = p;
    }

    private void set(int index, int jdbcType, Object valueOrNull) throws SQLException {
        set(index, valueOrNull == null ? Param.nullOf(jdbcType) : new Param(jdbcType, valueOrNull));
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
        Arrays.fill(params, null);
    }

    @Override
    public void setNull(int parameterIndex, int sqlType) throws SQLException {
        set(parameterIndex, Param.nullOf(sqlType));
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        setNull(parameterIndex, sqlType);
    }

    @Override
    public void setBoolean(int parameterIndex, boolean x) throws SQLException {
        set(parameterIndex, Types.BOOLEAN, x);
    }

    @Override
    public void setByte(int parameterIndex, byte x) throws SQLException {
        set(parameterIndex, Types.TINYINT, (long) x);
    }

    @Override
    public void setShort(int parameterIndex, short x) throws SQLException {
        set(parameterIndex, Types.SMALLINT, (long) x);
    }

    @Override
    public void setInt(int parameterIndex, int x) throws SQLException {
        set(parameterIndex, Types.INTEGER, (long) x);
    }

    @Override
    public void setLong(int parameterIndex, long x) throws SQLException {
        set(parameterIndex, Types.BIGINT, x);
    }

    @Override
    public void setFloat(int parameterIndex, float x) throws SQLException {
        set(parameterIndex, Types.REAL, (double) x);
    }

    @Override
    public void setDouble(int parameterIndex, double x) throws SQLException {
        set(parameterIndex, Types.DOUBLE, x);
    }

    @Override
    public void setBigDecimal(int parameterIndex, BigDecimal x) throws SQLException {
        set(parameterIndex, Types.DECIMAL, x);
    }

    @Override
    public void setString(int parameterIndex, String x) throws SQLException {
        set(parameterIndex, Types.VARCHAR, x);
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        set(parameterIndex, Types.NVARCHAR, value);
    }

    @Override
    public void setBytes(int parameterIndex, byte[] x) throws SQLException {
        set(parameterIndex, Types.VARBINARY, x == null ? null : x.clone());
    }

    @Override
    public void setDate(int parameterIndex, Date x) throws SQLException {
        set(parameterIndex, Types.DATE, x == null ? null : x.toLocalDate());
    }

    @Override
    public void setDate(int parameterIndex, Date x, Calendar cal) throws SQLException {
        if (x == null || cal == null) {
            setDate(parameterIndex, x);
            return;
        }
        LocalDate d = x.toInstant().atZone(cal.getTimeZone().toZoneId()).toLocalDate();
        set(parameterIndex, Types.DATE, d);
    }

    @Override
    public void setTime(int parameterIndex, Time x) throws SQLException {
        set(parameterIndex, Types.TIME, x == null ? null : Conversions.toLocalTime(x, null));
    }

    @Override
    public void setTime(int parameterIndex, Time x, Calendar cal) throws SQLException {
        set(parameterIndex, Types.TIME, x == null ? null : Conversions.toLocalTime(x, cal));
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x) throws SQLException {
        set(parameterIndex, Types.TIMESTAMP, x == null ? null : x.toLocalDateTime());
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x, Calendar cal) throws SQLException {
        if (x == null || cal == null) {
            setTimestamp(parameterIndex, x);
            return;
        }
        LocalDateTime ldt = x.toInstant().atZone(cal.getTimeZone().toZoneId()).toLocalDateTime().withNano(x.getNanos());
        set(parameterIndex, Types.TIMESTAMP, ldt);
    }

    @Override
    public void setObject(int parameterIndex, Object x) throws SQLException {
        Object v = Conversions.fromJava(x);
        set(parameterIndex, v == null ? Types.NULL : jdbcTypeOf(x, v), v);
    }

    private static int jdbcTypeOf(Object original, Object v) {
        if (original instanceof Integer) return Types.INTEGER;
        if (original instanceof Short) return Types.SMALLINT;
        if (original instanceof Byte) return Types.TINYINT;
        if (original instanceof Float) return Types.REAL;
        if (original instanceof java.math.BigInteger) return Types.NUMERIC;
        if (original instanceof Character) return Types.CHAR;
        switch (org.shepherd.protocol.ValueType.of(v)) {
            case BOOLEAN:
                return Types.BOOLEAN;
            case LONG:
                return Types.BIGINT;
            case DECIMAL:
                return Types.DECIMAL;
            case DOUBLE:
                return Types.DOUBLE;
            case BYTES:
                return Types.VARBINARY;
            case DATE:
                return Types.DATE;
            case TIME:
                return Types.TIME;
            case TIMESTAMP:
                return Types.TIMESTAMP;
            case TIMESTAMP_TZ:
                return Types.TIMESTAMP_WITH_TIMEZONE;
            case STRING:
                return Types.VARCHAR;
            default:
                return Types.NULL;
        }
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        if (x == null) {
            setNull(parameterIndex, targetSqlType);
            return;
        }
        set(parameterIndex, targetSqlType, Conversions.toTarget(Conversions.fromJava(x), targetSqlType));
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        if (x != null && (targetSqlType == Types.DECIMAL || targetSqlType == Types.NUMERIC)) {
            BigDecimal d = Conversions.toBigDecimal(Conversions.fromJava(x));
            set(parameterIndex, targetSqlType, d.setScale(scaleOrLength, RoundingMode.HALF_UP));
            return;
        }
        setObject(parameterIndex, x, targetSqlType);
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType) throws SQLException {
        setObject(parameterIndex, x, vendorNumber(targetSqlType));
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        setObject(parameterIndex, x, vendorNumber(targetSqlType), scaleOrLength);
    }

    private static int vendorNumber(SQLType type) throws SQLException {
        if (type instanceof JDBCType j) return j.getVendorTypeNumber();
        throw new SQLFeatureNotSupportedException("PreparedStatement.setObject: SQLType " + type
                + " is not supported by Shepherd (use java.sql.JDBCType)");
    }

    // ---------------------------------------------------------------- streams (read fully, bounded by maxFrameBytes)

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x) throws SQLException {
        setBinaryStream(parameterIndex, x, -1L);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, int length) throws SQLException {
        setBinaryStream(parameterIndex, x, (long) length);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, long length) throws SQLException {
        set(parameterIndex, Types.LONGVARBINARY, x == null ? null : readAll(x, length));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x) throws SQLException {
        setAsciiStream(parameterIndex, x, -1L);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, int length) throws SQLException {
        setAsciiStream(parameterIndex, x, (long) length);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, long length) throws SQLException {
        set(parameterIndex, Types.LONGVARCHAR, x == null ? null : new String(readAll(x, length), StandardCharsets.US_ASCII));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        setCharacterStream(parameterIndex, reader, -1L);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, int length) throws SQLException {
        setCharacterStream(parameterIndex, reader, (long) length);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        set(parameterIndex, Types.LONGVARCHAR, reader == null ? null : readAll(reader, length));
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value) throws SQLException {
        setCharacterStream(parameterIndex, value, -1L);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value, long length) throws SQLException {
        setCharacterStream(parameterIndex, value, length);
    }

    // ---------------------------------------------------------------- large objects (their content, copied now)

    @Override
    public void setBlob(int parameterIndex, Blob x) throws SQLException {
        set(parameterIndex, Types.LONGVARBINARY, x == null ? null : Conversions.blobBytes(x));
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream) throws SQLException {
        setBinaryStream(parameterIndex, inputStream, -1L);
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream, long length) throws SQLException {
        setBinaryStream(parameterIndex, inputStream, length);
    }

    @Override
    public void setClob(int parameterIndex, Clob x) throws SQLException {
        set(parameterIndex, Types.LONGVARCHAR, x == null ? null : Conversions.clobText(x));
    }

    @Override
    public void setClob(int parameterIndex, Reader reader) throws SQLException {
        setCharacterStream(parameterIndex, reader, -1L);
    }

    @Override
    public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        setCharacterStream(parameterIndex, reader, length);
    }

    @Override
    public void setNClob(int parameterIndex, NClob value) throws SQLException {
        setClob(parameterIndex, value);
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader) throws SQLException {
        setCharacterStream(parameterIndex, reader, -1L);
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        setCharacterStream(parameterIndex, reader, length);
    }

    private long streamLimit() throws SQLException {
        return DriverProperty.MAX_FRAME_BYTES.getInt(connection.parsedUrl().properties());
    }

    private byte[] readAll(InputStream in, long length) throws SQLException {
        long limit = length >= 0 ? length : streamLimit();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            long total = 0;
            int n;
            while (total < limit && (n = in.read(buf, 0, (int) Math.min(buf.length, limit - total))) > 0) {
                out.write(buf, 0, n);
                total += n;
            }
            if (length < 0 && in.read() >= 0) throw tooLong(limit);
        } catch (IOException e) {
            throw new SQLException("reading the parameter stream failed: " + e.getMessage(), "HY000", e);
        }
        return out.toByteArray();
    }

    private String readAll(Reader in, long length) throws SQLException {
        long limit = length >= 0 ? length : streamLimit();
        StringBuilder sb = new StringBuilder();
        char[] buf = new char[8192];
        try {
            long total = 0;
            int n;
            while (total < limit && (n = in.read(buf, 0, (int) Math.min(buf.length, limit - total))) > 0) {
                sb.append(buf, 0, n);
                total += n;
            }
            if (length < 0 && in.read() >= 0) throw tooLong(limit);
        } catch (IOException e) {
            throw new SQLException("reading the parameter stream failed: " + e.getMessage(), "HY000", e);
        }
        return sb.toString();
    }

    private static SQLException tooLong(long limit) {
        return new SQLDataException("stream parameter longer than maxFrameBytes (" + limit + ")", "22001");
    }

    // ---------------------------------------------------------------- string-SQL methods do not apply

    private static SQLException notOnPrepared() {
        return new SQLException("methods that take an SQL string cannot be called on a PreparedStatement", "42809");
    }

    @Override
    public ResultSet executeQuery(String ignored) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public int executeUpdate(String ignored) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public boolean execute(String ignored) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public void addBatch(String ignored) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public long executeLargeUpdate(String ignored) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public long executeLargeUpdate(String ignored, int autoGeneratedKeys) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public long executeLargeUpdate(String ignored, int[] columnIndexes) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public long executeLargeUpdate(String ignored, String[] columnNames) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public int executeUpdate(String ignored, int autoGeneratedKeys) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public int executeUpdate(String ignored, int[] columnIndexes) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public int executeUpdate(String ignored, String[] columnNames) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public boolean execute(String ignored, int autoGeneratedKeys) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public boolean execute(String ignored, int[] columnIndexes) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public boolean execute(String ignored, String[] columnNames) throws SQLException {
        throw notOnPrepared();
    }

    @Override
    public String toString() {
        return sql;
    }
}
