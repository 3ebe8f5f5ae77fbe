package org.shepherd.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.shepherd.server.ServerTestSupport.PASSWORD;
import static org.shepherd.server.ServerTestSupport.USER;
import static org.shepherd.server.ServerTestSupport.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.shepherd.protocol.v1.Message;
import org.shepherd.protocol.v1.StatementOptions;

/** The server's bounds: connections, handshake time, idle sessions, requests sent ahead. */
class ServerLimitsTest {

    @Test
    void connectionsBeyondSessionsMaxAreRefusedWith53300() throws Exception {
        try (ShepherdServer server = ShepherdServer.create(ServerTestSupport.config(Map.of("sessions.max", "2")))) {
            server.start();
            try (RawClient a = new RawClient(server.boundAddress()); RawClient b = new RawClient(server.boundAddress())) {
                assertThat(a.login(USER, PASSWORD)).isInstanceOf(Message.Ready.class);
                assertThat(b.login(USER, PASSWORD)).isInstanceOf(Message.Ready.class);
                try (RawClient c = new RawClient(server.boundAddress())) {
                    Message m = c.read();
                    assertThat(((Message.Error) m).sqlState()).isEqualTo("53300");
                    assertThat(c.closedByServer()).isTrue();
                }
            }
            assertThat(await(() -> server.openConnections() == 0)).isTrue();
            try (RawClient d = new RawClient(server.boundAddress())) {
                assertThat(d.login(USER, PASSWORD)).isInstanceOf(Message.Ready.class);
            }
        }
    }

    @Test
    void withoutConfiguredUsersAnyUserLogsInWithAnEmptyPasswordOnly() throws Exception {
        Map<String, String> m = ServerTestSupport.configMap();
        m.remove("user." + USER + ".password");
        try (ShepherdServer server = ShepherdServer.create(org.shepherd.config.ShepherdConfig.fromMap(m))) {
            server.start();
            try (RawClient c = new RawClient(server.boundAddress())) {
                assertThat(c.login("anyone", "")).isInstanceOf(Message.Ready.class);
            }
            try (RawClient c = new RawClient(server.boundAddress())) {
                assertThat(((Message.Error) c.login("anyone", "guess")).sqlState()).isEqualTo("28P01");
            }
        }
    }

    @Test
    void aConnectionThatNeverAuthenticatesIsClosed() throws Exception {
        try (ShepherdServer server = ShepherdServer.create(ServerTestSupport.config(Map.of("handshake.timeout.ms", "200")))) {
            server.start();
            try (RawClient silent = new RawClient(server.boundAddress())) {
                Message m = silent.read();
                assertThat(((Message.Error) m).message()).contains("handshake.timeout.ms");
                assertThat(silent.closedByServer()).isTrue();
            }
            assertThat(await(() -> server.openConnections() == 0)).isTrue();
        }
    }

    @Test
    void anIdleSessionIsClosedWhenSessionIdleTimeoutIsSet() throws Exception {
        try (ShepherdServer server = ShepherdServer.create(ServerTestSupport.config(Map.of("session.idle.timeout.ms", "300")))) {
            server.start();
            try (RawClient c = new RawClient(server.boundAddress())) {
                assertThat(c.login(USER, PASSWORD)).isInstanceOf(Message.Ready.class);
                Message m = c.read();
                assertThat(((Message.Error) m).sqlState()).isEqualTo("57P05");
                assertThat(c.closedByServer()).isTrue();
            }
            assertThat(await(() -> server.openSessions() == 0)).isTrue();
        }
    }

    /**
     * A transaction left open and idle is rolled back with its connection (25P03 to the client) and its row lock is
     * released; a connection idle outside a transaction, and one whose transaction keeps working, stay open.
     */
    @Test
    void aTransactionLeftIdleIsRolledBackWithItsConnection() throws Exception {
        try (ShepherdServer server = ShepherdServer.create(ServerTestSupport.config(
                Map.of("transaction.idle.timeout.ms", "2000")))) {
            server.start();
            String url = server.jdbcUrl("db") + "?user=" + USER + "&password=" + PASSWORD;
            try (Connection idleOutside = DriverManager.getConnection(url); Connection forgetful = DriverManager.getConnection(url);
                    Connection busy = DriverManager.getConnection(url)) {
                try (Statement s = idleOutside.createStatement()) {
                    s.executeUpdate("CREATE TABLE held (id INT PRIMARY KEY)");
                }
                forgetful.setAutoCommit(false);
                try (Statement s = forgetful.createStatement()) {
                    s.executeUpdate("INSERT INTO held VALUES (1)");
                }
                busy.setAutoCommit(false);
                // the busy transaction sends a request every 100 ms until the forgetful one is gone: a margin of 1.9 s, so that
                // a stalled test machine does not time the busy one out too
                assertThat(await(() -> {
                    try (Statement s = busy.createStatement(); ResultSet rs = s.executeQuery("VALUES 1")) {
                        Thread.sleep(100);
                        return server.openSessions() == 2;
                    } catch (SQLException | InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                })).as("the idle transaction's connection was closed").isTrue();
                assertThatThrownBy(() -> forgetful.createStatement().executeUpdate("INSERT INTO held VALUES (2)"))
                        .isInstanceOf(SQLException.class);
                try (Statement s = busy.createStatement()) {
                    assertThat(s.executeUpdate("INSERT INTO held VALUES (1)")).as("the lock on key 1 was released").isEqualTo(1);
                }
                busy.commit();
                try (Statement s = idleOutside.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM held")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).as("only the busy transaction's row").isEqualTo(1);
                }
            }
        }
    }

    @Test
    void aClientSendingTooManyRequestsAheadIsDisconnectedOthersAreNot() throws Exception {
        try (ShepherdServer server = ShepherdServer.create(ServerTestSupport.config(
                Map.of("session.queued.requests.max", "2")))) {
            server.start();
            try (RawClient bystander = new RawClient(server.boundAddress());
                 RawClient flood = new RawClient(server.boundAddress())) {
                assertThat(bystander.login(USER, PASSWORD)).isInstanceOf(Message.Ready.class);
                assertThat(flood.login(USER, PASSWORD)).isInstanceOf(Message.Ready.class);
                byte[] one = org.shepherd.protocol.v1.MessageCodec.encodeFrame(new Message.Execute(
                        "SELECT COUNT(*) FROM SYS.SYSCOLUMNS a, SYS.SYSCOLUMNS b", List.of(), StatementOptions.DEFAULT));
                java.io.ByteArrayOutputStream burst = new java.io.ByteArrayOutputStream();
                for (int i = 0; i < 200; i++) burst.write(one);
                flood.sendBytes(burst.toByteArray());
                assertThat(await(() -> {
                    try {
                        Message m = flood.read();
                        return m instanceof Message.Error e && e.message().contains("session.queued.requests.max");
                    } catch (java.io.IOException e) {
                        return true; // closed before the error could be read: also a disconnect
                    }
                })).isTrue();
                assertThat(bystander.request(new Message.Ping())).isInstanceOf(Message.Pong.class);
            }
            assertThat(await(() -> server.openSessions() == 0)).isTrue();
        }
    }
}
