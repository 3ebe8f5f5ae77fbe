package org.shepherd.jdbc;

import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.regex.Pattern;

/**
 * A savepoint of one {@link ShepherdConnection}. The shepherd runs {@code SAVEPOINT name} on every replica in the
 * transaction's order, in each replica's own syntax, so a name must be a plain SQL identifier; an unnamed savepoint
 * gets {@code SHEPHERD_SAVEPOINT_<id>}.
 */
final class ShepherdSavepoint implements Savepoint {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

    private final ShepherdConnection owner;
    private final int id;
    private final String name;

    private ShepherdSavepoint(ShepherdConnection owner, int id, String name) {
        this.owner = owner;
        this.id = id;
        this.name = name;
    }

    static ShepherdSavepoint unnamed(ShepherdConnection owner, int id) {
        return new ShepherdSavepoint(owner, id, null);
    }

    static ShepherdSavepoint named(ShepherdConnection owner, String name) throws SQLException {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new SQLException("invalid savepoint name " + (name == null ? "null" : "'" + name + "'")
                    + ": Shepherd needs a plain SQL identifier (a letter or _, then letters, digits or _; at most 128)",
                    "3B001");
        }
        return new ShepherdSavepoint(owner, 0, name);
    }

    /** The savepoint {@code sp} as one of {@code connection}'s, or a clear error. */
    static ShepherdSavepoint of(ShepherdConnection connection, Savepoint sp) throws SQLException {
        if (sp instanceof ShepherdSavepoint s && s.owner == connection) return s;
        throw new SQLException("the savepoint " + sp + " was not set on this connection", "3B001");
    }

    /** The identifier the SQL statements use. */
    String sqlName() {
        return name != null ? name : "SHEPHERD_SAVEPOINT_" + id;
    }

    @Override
    public int getSavepointId() throws SQLException {
        if (name != null) throw new SQLException("the savepoint '" + name + "' is named: call getSavepointName()", "3B001");
        return id;
    }

    @Override
    public String getSavepointName() throws SQLException {
        if (name == null) throw new SQLException("savepoint " + id + " is unnamed: call getSavepointId()", "3B001");
        return name;
    }

    @Override
    public String toString() {
        return sqlName();
    }
}
