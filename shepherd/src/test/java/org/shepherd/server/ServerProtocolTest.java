package org.shepherd.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.shepherd.server.ServerTestSupport.PASSWORD;
import static org.shepherd.server.ServerTestSupport.USER;
import static org.shepherd.server.ServerTestSupport.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.sql.Types;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.shepherd.coordinator.passthrough.PassthroughCoordinator;
import org.shepherd.protocol.Param;
import org.shepherd.protocol.v1.Message;
import org.shepherd.protocol.v1.MessageCodec;
import org.shepherd.protocol.v1.Protocol;
import org.shepherd.protocol.v1.StatementOptions;

/** The server over raw protocol v1 frames: the normal flow, and every kind of bad input. */
class ServerProtocolTest {

    private ShepherdServer server;
    private InetSocketAddress address;

    @BeforeEach
    void start() throws Exception {
        server = ShepherdServer.create(ServerTestSupport.config(Map.of("handshake.timeout.ms", "5000")));
        address = server.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private RawClient loggedIn() throws IOException {
        RawClient c = new RawClient(address);
        Message ready = c.login(USER, PASSWORD);
        assertThat(ready).isInstanceOf(Message.Ready.class);
        return c;
    }

    private static Message.UpdateResult update(RawClient c, String sql, Param... params) throws IOException {
        Message m = c.request(new Message.Execute(sql, List.of(params), StatementOptions.DEFAULT));
        assertThat(m).as(String.valueOf(m)).isInstanceOf(Message.UpdateResult.class);
        return (Message.UpdateResult) m;
    }

    private static void assertServes(RawClient c) throws IOException {
        assertThat(c.request(new Message.Ping())).isInstanceOf(Message.Pong.class);
        Message header = c.request(new Message.Execute("VALUES 1", List.of(), StatementOptions.DEFAULT));
        assertThat(header).isInstanceOf(Message.ResultHeader.class);
        Message.RowBatch batch = (Message.RowBatch) c.read();
        assertThat(batch.rows().get(0)[0]).isEqualTo(1L);
    }

    private PassthroughCoordinator coordinator() {
        return (PassthroughCoordinator) server.coordinator();
    }

    @Test
    void readyReportsTheReplicaAndStatementsStreamInBatches() throws IOException {
        try (RawClient c = loggedIn()) {
            update(c, "CREATE TABLE t (i INT, s VARCHAR(20))");
            for (long i = 0; i < 25; i++) {
                update(c, "INSERT INTO t VALUES (?, ?)", new Param(Types.INTEGER, i), new Param(Types.VARCHAR, "row" + i));
            }
            Message h = c.request(new Message.Execute("SELECT i, s FROM t ORDER BY i", List.of(),
                    new StatementOptions(0, 10, 0, false)));
            assertThat(h).isInstanceOf(Message.ResultHeader.class);
            int cursor = ((Message.ResultHeader) h).cursorId();
            long expected = 0;
            Message.RowBatch b = (Message.RowBatch) c.read();
            while (true) {
                assertThat(b.rows().size()).isLessThanOrEqualTo(10);
                for (Object[] r : b.rows()) {
                    assertThat(r).containsExactly(expected, "row" + expected);
                    expected++;
                }
                if (b.last()) break;
                b = (Message.RowBatch) c.request(new Message.Fetch(cursor, 0));
            }
            assertThat(expected).isEqualTo(25);
            assertThat(coordinator().replica().activeConnections()).isZero();
        }
        assertThat(await(() -> server.openSessions() == 0)).isTrue();
    }

    @Test
    void readyNamesTheDialectAndProduct() throws IOException {
        try (RawClient c = new RawClient(address)) {
            Message.Ready r = (Message.Ready) c.login(USER, PASSWORD);
            assertThat(r.sqlDialect()).isEqualTo("derby");
            assertThat(r.productName()).isEqualTo("Apache Derby");
            assertThat(r.identifierQuote()).isEqualTo("\"");
        }
    }

    @Test
    void transactionsPreparedStatementsBatchesAndMetadataWork() throws IOException {
        try (RawClient c = loggedIn()) {
            update(c, "CREATE TABLE acct (id INT PRIMARY KEY, bal DECIMAL(10,2))");
            assertThat(c.request(new Message.SetAutoCommit(false))).isInstanceOf(Message.Ok.class);
            update(c, "INSERT INTO acct VALUES (1, 10.50)");
            assertThat(c.request(new Message.Rollback())).isInstanceOf(Message.Ok.class);
            Message.PrepareOk p = (Message.PrepareOk) c.request(new Message.Prepare("INSERT INTO acct VALUES (?, ?)"));
            Message m = c.request(new Message.ExecuteBatch("INSERT INTO acct VALUES (?, ?)", List.of(
                    List.of(new Param(Types.INTEGER, 2L), new Param(Types.DECIMAL, new java.math.BigDecimal("1.25"))),
                    List.of(new Param(Types.INTEGER, 3L), new Param(Types.DECIMAL, new java.math.BigDecimal("2.50")))),
                    List.of(), StatementOptions.DEFAULT));
            assertThat(((Message.BatchResult) m).counts()).containsExactly(1, 1);
            m = c.request(new Message.ExecutePrepared(p.statementId(), List.of(new Param(Types.INTEGER, 4L),
                    Param.nullOf(Types.DECIMAL)), StatementOptions.DEFAULT));
            assertThat(((Message.UpdateResult) m).count()).isEqualTo(1);
            assertThat(c.request(new Message.Commit())).isInstanceOf(Message.Ok.class);
            m = c.request(new Message.ExecuteBatch("INSERT INTO acct VALUES (?, ?)", List.of(
                    List.of(new Param(Types.INTEGER, 5L), Param.nullOf(Types.DECIMAL)),
                    List.of(new Param(Types.INTEGER, 2L), Param.nullOf(Types.DECIMAL))), List.of(), StatementOptions.DEFAULT));
            assertThat(m).isInstanceOf(Message.Error.class);
            assertThat(((Message.Error) m).sqlState()).isEqualTo("23505");
            assertThat(((Message.Error) m).batchCounts()).isNotNull();
            assertThat(c.request(new Message.Rollback())).isInstanceOf(Message.Ok.class);

            Message h = c.request(new Message.Metadata("getPrimaryKeys", java.util.Arrays.asList(null, null, "ACCT")));
            assertThat(h).as(String.valueOf(h)).isInstanceOf(Message.ResultHeader.class);
            Message.RowBatch b = (Message.RowBatch) c.read();
            assertThat(b.rows()).hasSize(1);
            assertThat(b.last()).isTrue();

            Message.Error e = (Message.Error) c.request(new Message.ExecutePrepared(999, List.of(), StatementOptions.DEFAULT));
            assertThat(e.sqlState()).isEqualTo("26000");
            e = (Message.Error) c.request(new Message.Fetch(12345, 0));
            assertThat(e.sqlState()).isEqualTo("24000");
            assertServes(c);
        }
    }

    @Test
    void wrongPasswordAndUnknownUserGet28P01AndAClosedConnection() throws IOException {
        try (RawClient c = new RawClient(address)) {
            Message m = c.login(USER, "wrong");
            assertThat(m).isInstanceOf(Message.Error.class);
            assertThat(((Message.Error) m).sqlState()).isEqualTo("28P01");
            assertThat(c.closedByServer()).isTrue();
        }
        try (RawClient c = new RawClient(address)) {
            Message m = c.login("nobody", PASSWORD);
            assertThat(((Message.Error) m).sqlState()).isEqualTo("28P01");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void badFramesGetAProtocolErrorAndCloseWhileOtherClientsKeepWorking() throws Exception {
        try (RawClient bystander = loggedIn()) {
            // unknown message type after login
            try (RawClient c = loggedIn()) {
                c.sendBytes(new byte[] {0, 0, 0, 1, 99});
                assertProtocolError(c);
            }
            // garbled payload: an Execute whose string length points past the frame
            try (RawClient c = loggedIn()) {
                c.sendBytes(new byte[] {0, 0, 0, 5, 10, 0x7f, 0, 0, 0});
                assertProtocolError(c);
            }
            // oversized: the length field alone exceeds protocol.max.frame.bytes
            try (RawClient c = loggedIn()) {
                c.sendBytes(ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array());
                assertProtocolError(c);
            }
            // negative length before any login
            try (RawClient c = new RawClient(address)) {
                c.sendBytes(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xf0, 1});
                assertProtocolError(c);
            }
            // zero length
            try (RawClient c = new RawClient(address)) {
                c.sendBytes(new byte[] {0, 0, 0, 0});
                assertProtocolError(c);
            }
            // a request before authentication
            try (RawClient c = new RawClient(address)) {
                c.send(new Message.Execute("VALUES 1", List.of(), StatementOptions.DEFAULT));
                assertProtocolError(c);
            }
            // a server message sent by a client
            try (RawClient c = loggedIn()) {
                c.send(new Message.Pong());
                assertProtocolError(c);
            }
            // bad magic in Startup
            try (RawClient c = new RawClient(address)) {
                byte[] frame = MessageCodec.encodeFrame(new Message.Startup(1, 0, USER, "db", Map.of()));
                frame[5] = 'X';
                c.sendBytes(frame);
                assertProtocolError(c);
            }
            // truncated frame, then the client goes away
            try (RawClient c = loggedIn()) {
                byte[] frame = MessageCodec.encodeFrame(new Message.Execute("VALUES 1", List.of(), StatementOptions.DEFAULT));
                c.sendBytes(java.util.Arrays.copyOf(frame, frame.length - 3));
            }
            // unsupported major version
            try (RawClient c = new RawClient(address)) {
                Message m = c.request(new Message.Startup(2, 0, USER, "db", Map.of()));
                assertThat(((Message.Error) m).sqlState()).isEqualTo("08004");
                assertThat(c.closedByServer()).isTrue();
            }
            assertServes(bystander);
            assertThat(await(() -> server.openSessions() == 1)).as("only the bystander's session is left").isTrue();
        }
        assertThat(await(() -> server.openSessions() == 0 && server.openConnections() == 0)).isTrue();
        assertThat(coordinator().replica().activeConnections()).isZero();
    }

    private static void assertProtocolError(RawClient c) throws IOException {
        Message m = c.read();
        assertThat(m).isInstanceOf(Message.Error.class);
        assertThat(((Message.Error) m).sqlState()).as(((Message.Error) m).message()).isEqualTo("08P01");
        assertThat(c.closedByServer()).isTrue();
    }

    @Test
    void aClientVanishingMidResultReleasesItsCursorTransactionAndReplicaConnection() throws Exception {
        try (RawClient setup = loggedIn()) {
            update(setup, "CREATE TABLE big (x INT)");
            update(setup, "INSERT INTO big VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)");
        }
        RawClient c = loggedIn();
        assertThat(c.request(new Message.SetAutoCommit(false))).isInstanceOf(Message.Ok.class);
        update(c, "INSERT INTO big VALUES (100)");
        Message h = c.request(new Message.Execute("SELECT a.x FROM big a, big b, big c, big d", List.of(),
                new StatementOptions(0, 10, 0, false)));
        assertThat(h).isInstanceOf(Message.ResultHeader.class);
        assertThat(((Message.RowBatch) c.read()).rows()).hasSize(10);
        assertThat(coordinator().replica().activeConnections()).isEqualTo(1);
        c.socket.setSoLinger(true, 0); // reset, like a crashed client
        c.close();
        assertThat(await(() -> server.openSessions() == 0)).isTrue();
        assertThat(await(() -> coordinator().replica().activeConnections() == 0)).isTrue();
        try (RawClient d = loggedIn()) {
            Message.ResultHeader hh = (Message.ResultHeader) d.request(new Message.Execute(
                    "SELECT COUNT(*) FROM big WHERE x = 100", List.of(), StatementOptions.DEFAULT));
            assertThat(hh.columns()).hasSize(1);
            assertThat(((Message.RowBatch) d.read()).rows().get(0)[0]).as("the open transaction was rolled back")
                    .isEqualTo(0L);
        }
    }

    @Test
    void cancelOnASeparateConnectionStopsTheRunningResult() throws Exception {
        try (RawClient c = new RawClient(address)) {
            Message.Ready ready = (Message.Ready) c.login(USER, PASSWORD);
            Message h = c.request(new Message.Execute("SELECT * FROM SYS.SYSCOLUMNS a, SYS.SYSCOLUMNS b", List.of(),
                    new StatementOptions(0, 5, 0, false)));
            int cursor = ((Message.ResultHeader) h).cursorId();
            assertThat(((Message.RowBatch) c.read()).last()).isFalse();
            try (RawClient wrongKey = new RawClient(address)) {
                wrongKey.send(new Message.Cancel(ready.sessionId(), ready.cancelKey() + 1));
                assertThat(wrongKey.closedByServer()).isTrue();
            }
            assertThat(c.request(new Message.Fetch(cursor, 0))).isInstanceOf(Message.RowBatch.class);
            try (RawClient canceller = new RawClient(address)) {
                canceller.send(new Message.Cancel(ready.sessionId(), ready.cancelKey()));
                assertThat(canceller.closedByServer()).isTrue();
            }
            assertThat(await(() -> {
                try {
                    Message m = c.request(new Message.Fetch(cursor, 0));
                    return m instanceof Message.Error e && "57014".equals(e.sqlState());
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            })).isTrue();
            assertServes(c);
        }
    }

    @Test
    void badClientsLeakNoThreadsSessionsOrReplicaConnections() throws Exception {
        try (RawClient setup = loggedIn()) {
            update(setup, "CREATE TABLE leak (x INT)");
            update(setup, "INSERT INTO leak VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)");
        }
        // warm up: as many concurrent sessions as workers, so every pool and event loop thread exists
        List<RawClient> warm = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) warm.add(loggedIn());
        for (RawClient c : warm) assertServes(c);
        for (RawClient c : warm) c.close();
        assertThat(await(() -> server.openSessions() == 0)).isTrue();
        int baseline = ServerTestSupport.liveThreads();

        for (int round = 0; round < 5; round++) {
            try (RawClient c = new RawClient(address)) {
                assertThat(c.login(USER, "nope")).isInstanceOf(Message.Error.class);
            }
            try (RawClient c = loggedIn()) {
                c.sendBytes(new byte[] {0, 0, 0, 3, 10, 1, 2});
                assertProtocolError(c);
            }
            RawClient vanishing = loggedIn();
            assertThat(vanishing.request(new Message.SetAutoCommit(false))).isInstanceOf(Message.Ok.class);
            vanishing.request(new Message.Execute("SELECT * FROM leak a, leak b, leak c", List.of(),
                    new StatementOptions(0, 3, 0, false)));
            vanishing.read();
            vanishing.socket.setSoLinger(true, 0);
            vanishing.close();
            RawClient halfFrame = loggedIn();
            halfFrame.sendBytes(new byte[] {0, 0, 0, 50, 10});
            halfFrame.close();
        }
        boolean clean = await(() -> server.openSessions() == 0 && server.openConnections() == 0
                && coordinator().replica().activeConnections() == 0 && ServerTestSupport.liveThreads() <= baseline);
        assertThat(clean).as("sessions=%d connections=%d replicaActive=%d threads=%d baseline=%d", server.openSessions(),
                server.openConnections(), coordinator().replica().activeConnections(), ServerTestSupport.liveThreads(),
                baseline).isTrue();
    }

    @Test
    void terminateClosesTheSession() throws Exception {
        RawClient c = loggedIn();
        c.send(new Message.Terminate());
        assertThat(c.closedByServer()).isTrue();
        c.close();
        assertThat(await(() -> server.openSessions() == 0)).isTrue();
    }

    @Test
    void closeIsGracefulAndIdempotent() throws Exception {
        RawClient c = loggedIn();
        update(c, "CREATE TABLE g (x INT)");
        server.close();
        assertThat(c.closedByServer()).isTrue();
        c.close();
        server.close();
        assertThat(server.openSessions()).isZero();
        assertThatThrownBy(() -> new RawClient(address)).isInstanceOf(IOException.class);
        assertThat(await(() -> Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .noneMatch(t -> t.getName().startsWith("shepherd-") || t.getName().startsWith("replica-r1"))))
                .as("every thread the server and its replica pool started has ended").isTrue();
    }

    @Test
    void aTooLargeAnswerIsSplitBelowTheClientsFrameLimit() throws Exception {
        try (RawClient c = new RawClient(address)) {
            c.send(new Message.Startup(Protocol.MAJOR, Protocol.MINOR, USER, "db", Map.of("maxFrameBytes", "2048")));
            assertThat(c.read()).isInstanceOf(Message.AuthRequest.class);
            org.shepherd.protocol.auth.Scram.Client scram = new org.shepherd.protocol.auth.Scram.Client(USER, PASSWORD);
            c.send(new Message.ScramClientFirst(Protocol.SCRAM_SHA_256, scram.clientFirstMessage()));
            Message.ScramServerFirst first = (Message.ScramServerFirst) c.read();
            c.send(new Message.ScramClientFinal(scram.clientFinalMessage(first.message())));
            assertThat(c.read()).isInstanceOf(Message.ScramServerFinal.class);
            assertThat(c.read()).isInstanceOf(Message.Ready.class);
            update(c, "CREATE TABLE wide (s VARCHAR(200))");
            for (int i = 0; i < 40; i++) {
                update(c, "INSERT INTO wide VALUES (?)", new Param(Types.VARCHAR, "x".repeat(190)));
            }
            Message.ResultHeader h = (Message.ResultHeader) c.request(new Message.Execute("SELECT s FROM wide", List.of(),
                    new StatementOptions(0, 40, 0, false)));
            int rows = 0;
            Message.RowBatch b = (Message.RowBatch) c.read();
            while (true) {
                assertThat(MessageCodec.encodeFrame(b).length - 4).isLessThanOrEqualTo(2048);
                rows += b.rows().size();
                if (b.last()) break;
                b = (Message.RowBatch) c.request(new Message.Fetch(h.cursorId(), 0));
            }
            assertThat(rows).isEqualTo(40);
        }
    }
}
