package org.shepherd.replica.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.Set;
import org.shepherd.coordinator.MetadataRequest;

/**
 * Answers a client's {@link DatabaseMetaData} call by invoking the same method on a replica's metadata. Only
 * the methods returning a {@link ResultSet} are allowed (a fixed list); arguments must match the declared
 * parameter types ({@code String}, {@code Integer} for int, {@code Boolean} for boolean, {@code String[]},
 * {@code int[]}, or null for reference types).
 */
public final class MetadataCalls {

    /** The DatabaseMetaData methods returning a ResultSet, as of JDBC 4.3. */
    public static final Set<String> ALLOWED = Set.of(
            "getAttributes", "getBestRowIdentifier", "getCatalogs", "getClientInfoProperties", "getColumnPrivileges",
            "getColumns", "getCrossReference", "getExportedKeys", "getFunctionColumns", "getFunctions",
            "getImportedKeys", "getIndexInfo", "getPrimaryKeys", "getProcedureColumns", "getProcedures",
            "getPseudoColumns", "getSchemas", "getSuperTables", "getSuperTypes", "getTablePrivileges", "getTableTypes",
            "getTables", "getTypeInfo", "getUDTs", "getVersionColumns");

    private MetadataCalls() {
    }

    /** Methods without a catalog argument first (the others take it first; getCrossReference fourth too). */
    private static final Set<String> WITHOUT_CATALOG = Set.of("getCatalogs", "getClientInfoProperties", "getTableTypes",
            "getTypeInfo");

    /**
     * {@code request} with a null catalog argument replaced by {@code database}: on a MySQL-family replica, whose
     * databases are JDBC catalogs, a null catalog would list every database's tables (the server's own {@code mysql},
     * {@code sys}, {@code performance_schema} ... among them); a shepherd session works in one database, its URL's
     * or the one it chose with {@code USE}, as {@code SHOW TABLES} does.
     */
    public static MetadataRequest inDatabase(MetadataRequest request, String database) {
        List<Object> args = request.arguments();
        if (database == null || WITHOUT_CATALOG.contains(request.method()) || args.isEmpty()) return request;
        List<Object> narrowed = new java.util.ArrayList<>(args);
        if (narrowed.get(0) == null) narrowed.set(0, database);
        if (request.method().equals("getCrossReference") && narrowed.size() > 3 && narrowed.get(3) == null) {
            narrowed.set(3, database);
        }
        return new MetadataRequest(request.method(), narrowed);
    }

    public static ResultSet invoke(DatabaseMetaData md, MetadataRequest request) throws SQLException {
        String name = request.method();
        if (!ALLOWED.contains(name)) {
            throw new SQLFeatureNotSupportedException("DatabaseMetaData." + name
                    + " is not forwarded by Shepherd (only methods returning a ResultSet are)", "0A000");
        }
        List<Object> args = request.arguments();
        Method method = find(name, args);
        try {
            return (ResultSet) method.invoke(md, args.toArray());
        } catch (InvocationTargetException e) {
            throw JdbcExecution.toSqlException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new SQLException("cannot call DatabaseMetaData." + name, "XX000", e);
        }
    }

    private static Method find(String name, List<Object> args) throws SQLException {
        for (Method m : DatabaseMetaData.class.getMethods()) {
            if (m.getName().equals(name) && m.getReturnType() == ResultSet.class && fits(m.getParameterTypes(), args)) {
                return m;
            }
        }
        throw new SQLException("DatabaseMetaData." + name + " has no overload taking " + describe(args), "07001");
    }

    private static boolean fits(Class<?>[] types, List<Object> args) {
        if (types.length != args.size()) return false;
        for (int i = 0; i < types.length; i++) {
            Object a = args.get(i);
            Class<?> t = types[i];
            if (a == null) {
                if (t.isPrimitive()) return false;
            } else if (t == int.class) {
                if (!(a instanceof Integer)) return false;
            } else if (t == boolean.class) {
                if (!(a instanceof Boolean)) return false;
            } else if (!t.isInstance(a)) {
                return false;
            }
        }
        return true;
    }

    private static String describe(List<Object> args) {
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < args.size(); i++) {
            if (i > 0) b.append(", ");
            Object a = args.get(i);
            b.append(a == null ? "null" : a.getClass().getSimpleName());
        }
        return b.append(')').toString();
    }
}
