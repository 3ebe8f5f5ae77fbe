package org.shepherd.replica.setup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.shepherd.testkit.MariaDbServer;

abstract class MariaDbSetupContract extends LockingReplicaSetupContract {
    private MariaDbServer server;

    protected abstract MariaDbServer newServer() throws Exception;

    @Override
    protected String startServer() throws Exception {
        server = newServer();
        server.start();
        return server.dialect();
    }

    @Override
    protected void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected Connection open() throws SQLException {
        return server.connect();
    }

    @Test
    void sessionGetsStrictModeLockTimeoutUtcAndNoPadCollation() throws Exception {
        try (Connection c = prepared(); Statement s = c.createStatement()) {
            try (var rs = s.executeQuery("SELECT @@SESSION.sql_mode, @@SESSION.innodb_lock_wait_timeout, @@SESSION.time_zone, "
                    + "@@SESSION.collation_connection, @@collation_database")) {
                rs.next();
                assertThat(rs.getString(1)).contains("STRICT_ALL_TABLES", "ONLY_FULL_GROUP_BY", "ERROR_FOR_DIVISION_BY_ZERO");
                assertThat(rs.getInt(2)).isEqualTo(ReplicaSetup.LOCK_WAIT_TIMEOUT_SECONDS);
                assertThat(rs.getString(3)).isEqualTo("+00:00");
                assertThat(rs.getString(4)).isEqualTo("utf8mb4_nopad_bin");
                assertThat(rs.getString(5)).isEqualTo("utf8mb4_nopad_bin");
            }
            s.execute("CREATE TABLE t_strict (v INT, s VARCHAR(3))");
            assertThatThrownBy(() -> s.executeUpdate("INSERT INTO t_strict VALUES (1 / 0, 'a')"))
                    .as("division by zero in a write").isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> s.executeUpdate("INSERT INTO t_strict VALUES (1, 'abcd')"))
                    .as("truncation").isInstanceOf(SQLException.class);
            c.rollback();
        }
    }

    @Test
    void lazyLogFlushIsRefused() throws Exception {
        try (Connection c = prepared(); Statement s = c.createStatement()) {
            s.execute("SET GLOBAL innodb_flush_log_at_trx_commit = 2");
            try {
                assertThatThrownBy(() -> setup.verify(c)).isInstanceOf(ReplicaRefusedException.class)
                        .hasMessageContaining("innodb_flush_log_at_trx_commit=2");
            } finally {
                s.execute("SET GLOBAL innodb_flush_log_at_trx_commit = 1");
            }
            c.rollback();
            setup.verify(c);
        }
    }

    @Test
    void nonTransactionalTableIsRefusedByName() throws Exception {
        try (Connection c = prepared(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t_myisam (id INT PRIMARY KEY) ENGINE=MyISAM");
            try {
                assertThatThrownBy(() -> setup.verify(c)).isInstanceOf(ReplicaRefusedException.class)
                        .hasMessageContaining("t_myisam (MyISAM)");
            } finally {
                s.execute("DROP TABLE t_myisam");
            }
            setup.verify(c);
        }
    }
}
