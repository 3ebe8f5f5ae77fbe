package org.shepherd.jdbc;

import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;

/** Parameter metadata: the count always; the types only where the shepherd could tell (else unsupported). */
final class ShepherdParameterMetaData implements ParameterMetaData {

    private final int count;
    private final int[] types;

    ShepherdParameterMetaData(int count, int[] types) {
        this.count = count;
        this.types = types == null || types.length != count ? null : types.clone();
    }

    private int type(int param, String method) throws SQLException {
        if (param < 1 || param > count) {
            throw new SQLException("parameter index " + param + " is out of range (1.." + count + ")", "07009");
        }
        if (types == null) {
            throw new SQLFeatureNotSupportedException("ParameterMetaData." + method + " is not supported by Shepherd for"
                    + " this statement: the server did not report parameter types");
        }
        return types[param - 1];
    }

    @Override
    public int getParameterCount() {
        return count;
    }

    @Override
    public int isNullable(int param) throws SQLException {
        type(param, "isNullable");
        return parameterNullableUnknown;
    }

    @Override
    public boolean isSigned(int param) throws SQLException {
        return ShepherdResultSetMetaData.isSignedType(type(param, "isSigned"));
    }

    @Override
    public int getPrecision(int param) throws SQLException {
        type(param, "getPrecision");
        return 0;
    }

    @Override
    public int getScale(int param) throws SQLException {
        type(param, "getScale");
        return 0;
    }

    @Override
    public int getParameterType(int param) throws SQLException {
        return type(param, "getParameterType");
    }

    @Override
    public String getParameterTypeName(int param) throws SQLException {
        int t = type(param, "getParameterTypeName");
        try {
            return java.sql.JDBCType.valueOf(t).getName();
        } catch (IllegalArgumentException e) {
            return "OTHER";
        }
    }

    @Override
    public String getParameterClassName(int param) throws SQLException {
        return ShepherdResultSetMetaData.className(type(param, "getParameterClassName"));
    }

    @Override
    public int getParameterMode(int param) throws SQLException {
        if (param < 1 || param > count) {
            throw new SQLException("parameter index " + param + " is out of range (1.." + count + ")", "07009");
        }
        return parameterModeIn;
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
