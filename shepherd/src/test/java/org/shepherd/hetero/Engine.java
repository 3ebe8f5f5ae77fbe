package org.shepherd.hetero;

import java.sql.Connection;
import java.sql.SQLException;
import org.shepherd.replica.jdbc.JdbcValues;
import org.shepherd.translator.dialect.Dialect;

/**
 * One running engine the corpus runs on: a connection with the vendor setup applied (manual commit,
 * SERIALIZABLE), its translator dialect and the value reader the replica managers use.
 */
final class Engine implements AutoCloseable {
    private final String name;
    private final String dialectName;
    private final Dialect dialect;
    private final Connection connection;
    private final JdbcValues values;
    private final Runnable onClose;
    private final Opener opener;

    /** Opens another connection to the same database, with the vendor setup applied. */
    interface Opener {
        Connection open() throws SQLException;
    }

    Engine(String name, String dialectName, Opener opener, Runnable onClose) throws SQLException {
        this.name = name;
        this.dialectName = dialectName;
        this.dialect = Dialect.forName(dialectName);
        this.opener = opener;
        this.connection = opener.open();
        this.values = JdbcValues.forDialect(dialectName);
        this.onClose = onClose;
    }

    String name() {
        return name;
    }

    /** As in {@code replica.<name>.dialect}. */
    String dialectName() {
        return dialectName;
    }

    Dialect dialect() {
        return dialect;
    }

    Connection connection() {
        return connection;
    }

    /** A further connection (the caller closes it), prepared like {@link #connection()}. */
    Connection openAnother() throws SQLException {
        return opener.open();
    }

    JdbcValues values() {
        return values;
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            // the server goes away next anyway
        }
        onClose.run();
    }

    @Override
    public String toString() {
        return name;
    }
}
