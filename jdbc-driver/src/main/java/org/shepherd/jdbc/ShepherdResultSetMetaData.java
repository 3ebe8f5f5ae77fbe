package org.shepherd.jdbc;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.ValueType;

/** Result metadata from the columns the shepherd reported (as the primary replica described them). */
final class ShepherdResultSetMetaData implements ResultSetMetaData {

    private final List<ColumnInfo> columns;

    ShepherdResultSetMetaData(List<ColumnInfo> columns) {
        this.columns = columns;
    }

    private ColumnInfo col(int column) throws SQLException {
        if (column < 1 || column > columns.size()) {
            throw new SQLException("column index " + column + " is out of range (1.." + columns.size() + ")", "07009");
        }
        return columns.get(column - 1);
    }

    @Override
    public int getColumnCount() {
        return columns.size();
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        return col(column).autoIncrement();
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        switch (col(column).jdbcType()) {
            case Types.CHAR:
            case Types.VARCHAR:
            case Types.LONGVARCHAR:
            case Types.NCHAR:
            case Types.NVARCHAR:
            case Types.LONGNVARCHAR:
            case Types.CLOB:
            case Types.NCLOB:
                return true;
            default:
                return false;
        }
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        col(column);
        return true;
    }

    @Override
    public boolean isCurrency(int column) throws SQLException {
        col(column);
        return false;
    }

    @Override
    public int isNullable(int column) throws SQLException {
        return col(column).nullable();
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        return isSignedType(col(column).jdbcType());
    }

    static boolean isSignedType(int jdbcType) {
        switch (jdbcType) {
            case Types.TINYINT:
            case Types.SMALLINT:
            case Types.INTEGER:
            case Types.BIGINT:
            case Types.DECIMAL:
            case Types.NUMERIC:
            case Types.REAL:
            case Types.FLOAT:
            case Types.DOUBLE:
                return true;
            default:
                return false;
        }
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        ColumnInfo c = col(column);
        int p = c.precision();
        return p > 0 ? Math.min(p + (isSigned(column) ? 2 : 0), Integer.MAX_VALUE) : 20;
    }

    @Override
    public String getColumnLabel(int column) throws SQLException {
        return col(column).label();
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        return col(column).name();
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        col(column);
        return "";
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        return col(column).precision();
    }

    @Override
    public int getScale(int column) throws SQLException {
        return col(column).scale();
    }

    @Override
    public String getTableName(int column) throws SQLException {
        return col(column).tableName();
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        col(column);
        return "";
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return col(column).jdbcType();
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        return col(column).typeName();
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        col(column);
        return true;
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        col(column);
        return false;
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        col(column);
        return false;
    }

    /** The class {@link java.sql.ResultSet#getObject(int)} returns for this column. */
    @Override
    public String getColumnClassName(int column) throws SQLException {
        return className(col(column).jdbcType());
    }

    static String className(int jdbcType) {
        switch (jdbcType) {
            case Types.TINYINT:
            case Types.SMALLINT:
            case Types.INTEGER:
                return Integer.class.getName();
            case Types.REAL:
                return Float.class.getName();
            default:
                break;
        }
        switch (ValueType.forJdbcType(jdbcType)) {
            case BOOLEAN:
                return Boolean.class.getName();
            case LONG:
                return Long.class.getName();
            case DECIMAL:
                return java.math.BigDecimal.class.getName();
            case DOUBLE:
                return Double.class.getName();
            case BYTES:
                return byte[].class.getName();
            case DATE:
                return java.sql.Date.class.getName();
            case TIME:
                return java.sql.Time.class.getName();
            case TIMESTAMP:
                return java.sql.Timestamp.class.getName();
            case TIMESTAMP_TZ:
                return java.time.OffsetDateTime.class.getName();
            default:
                return String.class.getName();
        }
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
