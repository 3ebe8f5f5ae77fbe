package org.shepherd.hetero;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.shepherd.replica.jdbc.ConnectionPreparer;

/**
 * The vendor setup the shepherd applies to a replica connection, applied to the corpus engines' connections.
 * Interim: mirrors the settings of {@code org.shepherd.replica.setup.ReplicaSetup} (being written) until it is on
 * main; then this class only delegates to it.
 */
final class EngineSetup {

    private EngineSetup() {
    }

    /** Database settings, then connection settings: what a replica pool does before handing out a connection. */
    static void apply(String dialect, Connection c) throws SQLException {
        ConnectionPreparer preparer = ConnectionPreparer.defaults(dialect);
        switch (dialect) {
            case "mariadb":
                execute(c, "ALTER DATABASE CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin");
                preparer.prepareConnection(c);
                execute(c, "SET NAMES utf8mb4 COLLATE utf8mb4_nopad_bin");
                execute(c, "SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,"
                        + "NO_ENGINE_SUBSTITUTION,ONLY_FULL_GROUP_BY,NO_AUTO_VALUE_ON_ZERO', innodb_lock_wait_timeout = 10, "
                        + "time_zone = '+00:00'");
                break;
            case "hsqldb":
                execute(c, "SET DATABASE TRANSACTION CONTROL LOCKS");
                execute(c, "SET DATABASE DEFAULT ISOLATION LEVEL SERIALIZABLE");
                execute(c, "SET DATABASE TRANSACTION ROLLBACK ON CONFLICT TRUE");
                execute(c, "SET DATABASE COLLATION SQL_TEXT NO PAD");
                preparer.prepareConnection(c);
                execute(c, "SET TIME ZONE INTERVAL '+00:00' HOUR TO MINUTE");
                break;
            case "postgresql":
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                execute(c, "SET SESSION TIME ZONE 'UTC'");
                break;
            default:
                preparer.prepareDatabase(c);
                preparer.prepareConnection(c);
        }
        c.commit();
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
