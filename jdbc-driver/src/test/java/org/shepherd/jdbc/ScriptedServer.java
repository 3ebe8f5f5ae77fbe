package org.shepherd.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.shepherd.protocol.auth.Scram;
import org.shepherd.protocol.auth.ScramCredential;
import org.shepherd.protocol.auth.ScramException;
import org.shepherd.protocol.v1.FrameReader;
import org.shepherd.protocol.v1.Message;
import org.shepherd.protocol.v1.MessageCodec;
import org.shepherd.protocol.v1.Protocol;

/**
 * A tiny protocol v1 server for driver tests: real loopback socket, real handshake and SCRAM, and scripted answers
 * to requests. Records every request it receives and every Cancel.
 */
final class ScriptedServer implements AutoCloseable {

    /** Answers one request; the returned frames are sent in order. Returning null closes the connection. */
    interface Handler {
        List<Message> answer(Message request, Conn conn) throws Exception;
    }

    static final String USER = "alice";
    static final String PASSWORD = "s3cret";

    final List<Message> requests = new CopyOnWriteArrayList<>();
    final BlockingQueue<Message.Cancel> cancels = new LinkedBlockingQueue<>();
    final List<Conn> conns = new CopyOnWriteArrayList<>();
    private final ServerSocket server;
    private final Thread acceptor;
    private final ScramCredential credential = ScramCredential.fromPassword(PASSWORD, Scram.newSalt(), 4096);
    private final Random random = new Random(42);
    private final AtomicLong sessionIds = new AtomicLong(100);
    private volatile Handler handler;
    volatile String dialect = "derby";

    ScriptedServer(Handler handler) throws IOException {
        this(handler, null);
    }

    /** With TLS from the first byte when {@code tls} is not null. */
    ScriptedServer(Handler handler, javax.net.ssl.SSLContext tls) throws IOException {
        this.handler = handler;
        server = tls == null ? new ServerSocket(0, 50, InetAddress.getLoopbackAddress())
                : tls.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::acceptLoop, "scripted-server-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    void handler(Handler h) {
        this.handler = h;
    }

    int port() {
        return server.getLocalPort();
    }

    String url() {
        return "jdbc:shepherd://127.0.0.1:" + port() + "/db?user=" + USER + "&password=" + PASSWORD;
    }

    /** Requests of the given type received so far. */
    <T extends Message> List<T> received(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (Message m : requests) {
            if (type.isInstance(m)) out.add(type.cast(m));
        }
        return out;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Conn c = new Conn(s);
                conns.add(c);
                Thread t = new Thread(c::run, "scripted-server-conn");
                t.setDaemon(true);
                c.thread = t;
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws Exception {
        server.close();
        acceptor.join(5000);
        for (Conn c : conns) {
            c.close();
            if (c.thread != null) c.thread.join(5000);
        }
    }

    /** One client connection. */
    final class Conn {
        final Socket socket;
        final InputStream in;
        final OutputStream out;
        final FrameReader reader = new FrameReader(Protocol.DEFAULT_MAX_FRAME_BYTES);
        Thread thread;
        long sessionId;
        long cancelKey;

        Conn(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
        }

        Message read() throws IOException {
            byte[] buf = new byte[4096];
            while (true) {
                Message m = reader.next();
                if (m != null) return m;
                int n = in.read(buf);
                if (n < 0) return null;
                reader.feed(buf, 0, n);
            }
        }

        void send(Message m) throws IOException {
            out.write(MessageCodec.encodeFrame(m));
            out.flush();
        }

        void sendRaw(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }

        void run() {
            try {
                Message first = read();
                if (first instanceof Message.Cancel c) {
                    cancels.add(c);
                    return;
                }
                Message.Startup startup = (Message.Startup) first;
                send(new Message.AuthRequest(1, 0, List.of(Protocol.SCRAM_SHA_256)));
                Scram.Server scram = new Scram.Server(credential);
                Message.ScramClientFirst cf = (Message.ScramClientFirst) read();
                send(new Message.ScramServerFirst(scram.serverFirstMessage(cf.message())));
                Message.ScramClientFinal fin = (Message.ScramClientFinal) read();
                String serverFinal;
                try {
                    if (!startup.user().equals(USER)) throw new ScramException("password authentication failed");
                    serverFinal = scram.serverFinalMessage(fin.message());
                } catch (ScramException e) {
                    send(new Message.Error("28P01", 0, "password authentication failed for user " + startup.user()));
                    return;
                }
                send(new Message.ScramServerFinal(serverFinal));
                sessionId = sessionIds.incrementAndGet();
                cancelKey = random.nextLong();
                send(new Message.Ready(sessionId, cancelKey, "0.1.0", dialect, "\"", "Apache Derby", "10.16.1.1"));
                while (true) {
                    Message req = read();
                    if (req == null || req instanceof Message.Terminate) return;
                    requests.add(req);
                    List<Message> answers = handler.answer(req, this);
                    if (answers == null) return;
                    for (Message a : answers) send(a);
                }
            } catch (Exception e) {
                // the client went away or the test closed the server
            } finally {
                close();
            }
        }
    }

    static List<Message> one(Message m) {
        return Collections.singletonList(m);
    }
}
