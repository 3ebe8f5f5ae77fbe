package org.shepherd.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Map;
import org.shepherd.protocol.auth.Scram;
import org.shepherd.protocol.auth.ScramException;
import org.shepherd.protocol.v1.FrameReader;
import org.shepherd.protocol.v1.Message;
import org.shepherd.protocol.v1.MessageCodec;
import org.shepherd.protocol.v1.Protocol;

/** A protocol v1 client over a plain socket, byte-exact, for tests that misbehave on purpose. */
final class RawClient implements AutoCloseable {

    static final int READ_TIMEOUT_MS = 20_000;

    final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final FrameReader reader = new FrameReader(Protocol.DEFAULT_MAX_FRAME_BYTES);
    private final byte[] buffer = new byte[64 * 1024];

    RawClient(InetSocketAddress address) throws IOException {
        this(new Socket(address.getAddress(), address.getPort()));
    }

    RawClient(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(READ_TIMEOUT_MS);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** Startup + SCRAM; returns the Ready message, or the Error the server answered. */
    Message login(String user, String password) throws IOException {
        send(new Message.Startup(Protocol.MAJOR, Protocol.MINOR, user, "db", Map.of()));
        Message m = read();
        if (!(m instanceof Message.AuthRequest)) return m;
        Scram.Client scram = new Scram.Client(user, password);
        send(new Message.ScramClientFirst(Protocol.SCRAM_SHA_256, scram.clientFirstMessage()));
        m = read();
        if (!(m instanceof Message.ScramServerFirst first)) return m;
        try {
            send(new Message.ScramClientFinal(scram.clientFinalMessage(first.message())));
            m = read();
            if (!(m instanceof Message.ScramServerFinal fin)) return m;
            scram.verifyServerFinal(fin.message());
        } catch (ScramException e) {
            throw new IOException(e);
        }
        return read();
    }

    void send(Message m) throws IOException {
        sendBytes(MessageCodec.encodeFrame(m));
    }

    void sendBytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The next message; throws EOFException-like IOException when the server closed the connection. */
    Message read() throws IOException {
        while (true) {
            Message m = reader.next();
            if (m != null) return m;
            int n = in.read(buffer);
            if (n < 0) throw new java.io.EOFException("server closed the connection");
            reader.feed(buffer, 0, n);
        }
    }

    /** True when the server closed the connection (reads end of stream) within the read timeout. */
    boolean closedByServer() throws IOException {
        try {
            while (true) {
                if (in.read(buffer) < 0) return true;
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // connection reset
        }
    }

    Message request(Message m) throws IOException {
        send(m);
        return read();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
