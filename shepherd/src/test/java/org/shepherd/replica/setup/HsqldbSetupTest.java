package org.shepherd.replica.setup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.shepherd.testkit.HsqldbServer;

class HsqldbSetupTest extends LockingReplicaSetupContract {
    private HsqldbServer server;

    @Override
    protected String startServer() throws Exception {
        server = new HsqldbServer();
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
    void mvccDatabaseIsRefusedWithTheReason() throws Exception {
        try (Connection c = open(); Statement s = c.createStatement()) {
            s.execute("SET DATABASE TRANSACTION CONTROL MVCC");
            setup.prepareConnection(c);
            assertThatThrownBy(() -> setup.verify(c)).isInstanceOf(ReplicaRefusedException.class)
                    .hasMessageContaining("MVCC").hasMessageContaining("LOCKS");
            c.rollback();
            c.setAutoCommit(true);
            setup.prepareDatabase(c);
            setup.prepareConnection(c);
            setup.verify(c);
        }
    }

    @Test
    void delayedLogWritesAreRefused() throws Exception {
        try (Connection c = open(); Statement s = c.createStatement()) {
            s.execute("SET FILES WRITE DELAY 500 MILLIS");
            try {
                setup.prepareConnection(c);
                assertThatThrownBy(() -> setup.verify(c)).isInstanceOf(ReplicaRefusedException.class)
                        .hasMessageContaining("500");
            } finally {
                c.rollback();
                s.execute("SET FILES WRITE DELAY FALSE");
                c.commit();
            }
        }
        try (Connection c = prepared()) {
            setup.verify(c);
            assertThat(c.isValid(5)).isTrue();
        }
    }
}
