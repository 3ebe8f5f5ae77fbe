package org.shepherd.replica.jdbc;

import java.math.BigDecimal;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;
import org.shepherd.protocol.ValueType;

/**
 * Converts between a replica's JDBC values and the protocol's {@link ValueType} representation.
 *
 * <p>LOBs (CLOB, BLOB) are read fully into memory; one row, LOBs included, must fit in a protocol frame
 * ({@code protocol.max.frame.bytes}), and a LOB longer than {@link #LOB_CHARS_MAX} fails with SQLState 22001.
 */
public final class JdbcValues {

    /** Longest CLOB (chars) or BLOB (bytes) read; beyond that the row cannot be sent in one frame anyway. */
    public static final long LOB_CHARS_MAX = 256L * 1024 * 1024;

    private final boolean javaTime;
    private final boolean typedNulls;

    private JdbcValues(boolean javaTime, boolean typedNulls) {
        this.javaTime = javaTime;
        this.typedNulls = typedNulls;
    }

    /**
     * Derby and DB2 do not accept java.time values ({@code getObject(i, LocalDate.class)} fails), so dates and
     * times go through java.sql.Date/Time/Timestamp in the JVM's time zone, which round-trips exactly.
     */
    public static JdbcValues forDialect(String dialect) {
        boolean derbyOrDb2 = "derby".equals(dialect) || "db2".equals(dialect);
        return new JdbcValues(!derbyOrDb2, derbyOrDb2);
    }

    /** Column metadata as the protocol describes it. */
    public static List<ColumnInfo> columns(ResultSetMetaData md) throws SQLException {
        int n = md.getColumnCount();
        List<ColumnInfo> cols = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            String label = nonNull(md.getColumnLabel(i));
            String name = nonNull(md.getColumnName(i));
            cols.add(new ColumnInfo(label, name.isEmpty() ? label : name, md.getColumnType(i),
                    nonNull(md.getColumnTypeName(i)), safePrecision(md, i), safeScale(md, i), md.isNullable(i),
                    safeTableName(md, i), md.isAutoIncrement(i)));
        }
        return cols;
    }

    /** The current row of {@code rs}, one value per column, in {@link ValueType} representation. */
    public Object[] readRow(ResultSet rs, List<ColumnInfo> columns) throws SQLException {
        Object[] row = new Object[columns.size()];
        for (int i = 0; i < row.length; i++) row[i] = read(rs, i + 1, columns.get(i));
        return row;
    }

    /** One column of the current row in {@link ValueType} representation (null for SQL NULL). */
    public Object read(ResultSet rs, int index, ColumnInfo column) throws SQLException {
        int jdbcType = column.jdbcType();
        switch (column.valueType()) {
            case NULL:
                return null;
            case BOOLEAN: {
                boolean v = rs.getBoolean(index);
                return rs.wasNull() ? null : v;
            }
            case LONG: {
                long v = rs.getLong(index);
                return rs.wasNull() ? null : v;
            }
            case DECIMAL:
                return rs.getBigDecimal(index);
            case DOUBLE: {
                double v = rs.getDouble(index);
                return rs.wasNull() ? null : v;
            }
            case BYTES:
                return jdbcType == Types.BLOB ? readBlob(rs.getBlob(index)) : rs.getBytes(index);
            case DATE:
                return readDate(rs, index);
            case TIME:
                return readTime(rs, index);
            case TIMESTAMP:
                return readTimestamp(rs, index);
            case TIMESTAMP_TZ:
                return rs.getObject(index, OffsetDateTime.class);
            case STRING:
                return jdbcType == Types.CLOB || jdbcType == Types.NCLOB ? readClob(rs.getClob(index)) : rs.getString(index);
            default:
                throw new SQLException("unhandled value type " + column.valueType());
        }
    }

    /** Binds one parameter ({@code index} from 1). */
    public void bind(PreparedStatement ps, int index, Param param) throws SQLException {
        Object v = param.value();
        switch (ValueType.of(v)) {
            case NULL:
                bindNull(ps, index, param.jdbcType());
                break;
            case BOOLEAN:
                ps.setBoolean(index, (Boolean) v);
                break;
            case LONG:
                ps.setLong(index, (Long) v);
                break;
            case DECIMAL:
                ps.setBigDecimal(index, (BigDecimal) v);
                break;
            case DOUBLE:
                if (param.jdbcType() == Types.REAL) ps.setFloat(index, ((Double) v).floatValue());
                else ps.setDouble(index, (Double) v);
                break;
            case STRING:
                ps.setString(index, (String) v);
                break;
            case BYTES:
                ps.setBytes(index, (byte[]) v);
                break;
            case DATE:
                if (javaTime) ps.setObject(index, v, Types.DATE);
                else ps.setDate(index, Date.valueOf((LocalDate) v));
                break;
            case TIME:
                if (javaTime) ps.setObject(index, v, Types.TIME);
                else ps.setTime(index, Time.valueOf((LocalTime) v));
                break;
            case TIMESTAMP:
                if (javaTime) ps.setObject(index, v, Types.TIMESTAMP);
                else ps.setTimestamp(index, Timestamp.valueOf((LocalDateTime) v));
                break;
            case TIMESTAMP_TZ:
                ps.setObject(index, v, Types.TIMESTAMP_WITH_TIMEZONE);
                break;
            default:
                throw new SQLException("unhandled value type " + ValueType.of(v));
        }
    }

    /** Binds every parameter in order. */
    public void bindAll(PreparedStatement ps, List<Param> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) bind(ps, i + 1, params.get(i));
    }

    private void bindNull(PreparedStatement ps, int index, int jdbcType) throws SQLException {
        if (typedNulls) {
            // Derby refuses an untyped NULL, and one of another type than the parameter's (setBinaryStream(i, null)
            // is LONGVARBINARY, a BLOB column's parameter BLOB): use the parameter's declared type.
            ps.setNull(index, ps.getParameterMetaData().getParameterType(index));
        } else {
            ps.setNull(index, jdbcType);
        }
    }

    private Object readDate(ResultSet rs, int index) throws SQLException {
        if (javaTime) return rs.getObject(index, LocalDate.class);
        Date d = rs.getDate(index);
        return d == null ? null : d.toLocalDate();
    }

    private Object readTime(ResultSet rs, int index) throws SQLException {
        if (javaTime) return rs.getObject(index, LocalTime.class);
        Time t = rs.getTime(index);
        return t == null ? null : t.toLocalTime();
    }

    private Object readTimestamp(ResultSet rs, int index) throws SQLException {
        if (javaTime) return rs.getObject(index, LocalDateTime.class);
        Timestamp t = rs.getTimestamp(index);
        return t == null ? null : t.toLocalDateTime();
    }

    private static byte[] readBlob(Blob b) throws SQLException {
        if (b == null) return null;
        try {
            long n = b.length();
            if (n > LOB_CHARS_MAX) throw new SQLException("BLOB of " + n + " bytes exceeds " + LOB_CHARS_MAX, "22001");
            return b.getBytes(1, (int) n);
        } finally {
            b.free();
        }
    }

    private static String readClob(Clob c) throws SQLException {
        if (c == null) return null;
        try {
            long n = c.length();
            if (n > LOB_CHARS_MAX) throw new SQLException("CLOB of " + n + " chars exceeds " + LOB_CHARS_MAX, "22001");
            return c.getSubString(1, (int) n);
        } finally {
            c.free();
        }
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }

    private static int safePrecision(ResultSetMetaData md, int i) {
        try {
            return md.getPrecision(i);
        } catch (SQLException | RuntimeException e) {
            return 0; // some drivers throw for types without a precision
        }
    }

    private static int safeScale(ResultSetMetaData md, int i) {
        try {
            return md.getScale(i);
        } catch (SQLException | RuntimeException e) {
            return 0;
        }
    }

    private static String safeTableName(ResultSetMetaData md, int i) {
        try {
            return nonNull(md.getTableName(i));
        } catch (SQLException | RuntimeException e) {
            return "";
        }
    }
}
