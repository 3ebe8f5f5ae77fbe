package org.shepherd.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TcpProxyTest {
    private static final int QUIET_READ_TIMEOUT_MS = 300;
    private static final int ANSWER_READ_TIMEOUT_MS = 30_000;

    private ServerSocket echoServer;
    private Thread echoThread;

    @BeforeAll
    void startEchoServer() throws IOException {
        echoServer = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        echoThread = new Thread(() -> {
            while (!echoServer.isClosed()) {
                try {
                    Socket s = echoServer.accept();
                    Thread t = new Thread(() -> echo(s), "echo");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }, "echo-accept");
        echoThread.setDaemon(true);
        echoThread.start();
    }

    @AfterAll
    void stopEchoServer() throws Exception {
        echoServer.close();
        echoThread.join(5_000);
    }

    private static void echo(Socket s) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException ignored) {
            // client went away
        }
    }

    @Test
    void forwardsBothWays() throws IOException {
        try (TcpProxy proxy = TcpProxy.forward(echoServer.getLocalPort()); Socket client = connect(proxy)) {
            send(client, "hello");
            assertThat(receive(client, 5, ANSWER_READ_TIMEOUT_MS)).isEqualTo("hello");
            assertThat(proxy.connectionsAccepted()).isEqualTo(1);
        }
    }

    @Test
    void latencyHoldsTheAnswerBackUntilItIsDue() throws IOException {
        try (TcpProxy proxy = TcpProxy.forward(echoServer.getLocalPort()); Socket client = connect(proxy)) {
            proxy.setLatencyMs(0, 3_000);
            send(client, "slow");
            assertThatThrownBy(() -> receive(client, 4, QUIET_READ_TIMEOUT_MS)).isInstanceOf(SocketTimeoutException.class);
            assertThat(receive(client, 4, ANSWER_READ_TIMEOUT_MS)).isEqualTo("slow");
        }
    }

    @Test
    void partitionHoldsTrafficAndHealDeliversIt() throws IOException {
        try (TcpProxy proxy = TcpProxy.forward(echoServer.getLocalPort()); Socket client = connect(proxy)) {
            send(client, "a");
            assertThat(receive(client, 1, ANSWER_READ_TIMEOUT_MS)).isEqualTo("a");
            proxy.partition();
            send(client, "b");
            assertThatThrownBy(() -> receive(client, 1, QUIET_READ_TIMEOUT_MS)).isInstanceOf(SocketTimeoutException.class);
            proxy.heal();
            assertThat(receive(client, 1, ANSWER_READ_TIMEOUT_MS)).isEqualTo("b");
        }
    }

    @Test
    void blackholeDropsBytes() throws IOException {
        try (TcpProxy proxy = TcpProxy.forward(echoServer.getLocalPort()); Socket client = connect(proxy)) {
            proxy.setBlackhole(true);
            send(client, "lost");
            assertThatThrownBy(() -> receive(client, 4, QUIET_READ_TIMEOUT_MS)).isInstanceOf(SocketTimeoutException.class);
            proxy.setBlackhole(false);
            send(client, "kept");
            assertThat(receive(client, 4, ANSWER_READ_TIMEOUT_MS)).isEqualTo("kept");
        }
    }

    @Test
    void cutAllResetsOpenConnectionsAndStillAcceptsNewOnes() throws Exception {
        try (HsqldbServer db = new HsqldbServer()) {
            db.start();
            try (TcpProxy proxy = TcpProxy.inFrontOf(db)) {
                Connection c = db.connect(db.jdbcUrl(proxy.port()));
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE t_proxy (id INT PRIMARY KEY)");
                    proxy.cutAll();
                    assertThatThrownBy(() -> s.executeUpdate("INSERT INTO t_proxy VALUES (1)")).isInstanceOf(SQLException.class);
                } finally {
                    ServerFixtureContract.closeBroken(c);
                }
                try (Connection again = db.connect(db.jdbcUrl(proxy.port())); Statement s = again.createStatement()) {
                    assertThat(s.executeUpdate("INSERT INTO t_proxy VALUES (2)")).isEqualTo(1);
                }
                assertThat(proxy.connectionsAccepted()).isGreaterThanOrEqualTo(2);
            }
        }
    }

    private static Socket connect(TcpProxy proxy) throws IOException {
        Socket s = new Socket("127.0.0.1", proxy.port());
        s.setTcpNoDelay(true);
        return s;
    }

    private static void send(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
    }

    private static String receive(Socket s, int length, int timeoutMs) throws IOException {
        s.setSoTimeout(timeoutMs);
        byte[] buffer = new byte[length];
        int read = 0;
        while (read < length) {
            int n = s.getInputStream().read(buffer, read, length - read);
            if (n < 0) {
                throw new IOException("closed after " + read + " bytes");
            }
            read += n;
        }
        return new String(buffer, StandardCharsets.US_ASCII);
    }
}
