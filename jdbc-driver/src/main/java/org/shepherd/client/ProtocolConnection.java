package org.shepherd.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.sql.SQLException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.shepherd.protocol.auth.Scram;
import org.shepherd.protocol.auth.ScramException;
import org.shepherd.protocol.v1.FrameReader;
import org.shepherd.protocol.v1.Message;
import org.shepherd.protocol.v1.MessageCodec;
import org.shepherd.protocol.v1.Protocol;
import org.shepherd.protocol.v1.ProtocolException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One socket to a shepherd speaking protocol v1: opening (TCP, optional TLS, Startup, SCRAM, Ready), sending and
 * receiving frames. Blocking; one request at a time (callers serialize). Any I/O or protocol error closes the
 * socket and surfaces as SQLState 08006.
 */
public final class ProtocolConnection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProtocolConnection.class);
    private static final int READ_CHUNK_BYTES = 64 * 1024;
    /** How long a cancel connection may take in total; the cancel is best-effort. */
    private static final int CANCEL_TIMEOUT_MS = 10_000;

    private final ClientConfig config;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final FrameReader reader;
    private final byte[] chunk = new byte[READ_CHUNK_BYTES];
    private volatile boolean closed;
    private Message.Ready ready;
    private int protocolMinor;

    private ProtocolConnection(ClientConfig config, Socket socket) throws IOException {
        this.config = config;
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.reader = new FrameReader(config.maxFrameBytes());
    }

    /** Opens a session: connect, TLS if configured, version handshake, SCRAM-SHA-256, Ready. */
    public static ProtocolConnection open(ClientConfig config) throws SQLException {
        long deadlineNanos = config.loginTimeoutMs() == 0 ? 0 : System.nanoTime() + config.loginTimeoutMs() * 1_000_000L;
        ProtocolConnection c;
        try {
            c = new ProtocolConnection(config, connectSocket(config, config.connectTimeoutMs()));
        } catch (IOException | GeneralSecurityException e) {
            throw new SQLNonTransientConnectionException("cannot connect to shepherd at " + config.host() + ":"
                    + config.port() + ": " + e.getMessage(), ServerErrors.UNABLE_TO_CONNECT, e);
        }
        try {
            c.handshake(deadlineNanos);
            c.socket.setSoTimeout(config.socketTimeoutMs());
            return c;
        } catch (SQLException e) {
            c.abort();
            throw e;
        } catch (SocketTimeoutException e) {
            c.abort();
            throw new SQLNonTransientConnectionException("login to shepherd at " + config.host() + ":" + config.port()
                    + " timed out after " + config.loginTimeoutMs() + " ms", ServerErrors.UNABLE_TO_CONNECT, e);
        } catch (IOException e) {
            c.abort();
            throw new SQLNonTransientConnectionException("connection to shepherd at " + config.host() + ":" + config.port()
                    + " failed during login: " + e.getMessage(), ServerErrors.UNABLE_TO_CONNECT, e);
        }
    }

    private static Socket connectSocket(ClientConfig config, int connectTimeoutMs)
            throws IOException, GeneralSecurityException {
        Socket plain = new Socket();
        try {
            plain.setTcpNoDelay(true);
            plain.setKeepAlive(true);
            plain.connect(new InetSocketAddress(config.host(), config.port()), connectTimeoutMs);
            if (!config.ssl()) return plain;
            SSLContext ctx = sslContext(config);
            SSLSocket ssl = (SSLSocket) ctx.getSocketFactory().createSocket(plain, config.host(), config.port(), true);
            if (config.hostnameVerification()) {
                SSLParameters params = ssl.getSSLParameters();
                params.setEndpointIdentificationAlgorithm("HTTPS");
                ssl.setSSLParameters(params);
            }
            ssl.setSoTimeout(connectTimeoutMs);
            ssl.startHandshake();
            return ssl;
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            plain.close();
            throw e;
        }
    }

    private static SSLContext sslContext(ClientConfig config) throws IOException, GeneralSecurityException {
        if (config.trustStorePath() == null || config.trustStorePath().isEmpty()) return SSLContext.getDefault();
        char[] pw = config.trustStorePassword() == null ? null : config.trustStorePassword().toCharArray();
        KeyStore ks;
        try (InputStream is = Files.newInputStream(Path.of(config.trustStorePath()))) {
            ks = KeyStore.getInstance(KeyStore.getDefaultType()); // PKCS12; JKS is read too by the keystore compat mode
            ks.load(is, pw);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }

    private void handshake(long deadlineNanos) throws IOException, SQLException {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("applicationName", config.applicationName());
        props.put("maxFrameBytes", Integer.toString(config.maxFrameBytes()));
        props.put("driverVersion", DriverVersion.VERSION);
        send(new Message.Startup(Protocol.MAJOR, Protocol.MINOR, config.user(), config.database(), props));
        Message.AuthRequest auth = expect(Message.AuthRequest.class, receiveBy(deadlineNanos));
        if (auth.protocolMajor() != Protocol.MAJOR) {
            throw new SQLNonTransientConnectionException("shepherd chose protocol " + auth.protocolMajor() + "."
                    + auth.protocolMinor() + ", this driver speaks " + Protocol.MAJOR + ".x", "08004");
        }
        protocolMinor = auth.protocolMinor();
        if (!auth.mechanisms().contains(Protocol.SCRAM_SHA_256)) {
            throw new SQLNonTransientConnectionException("shepherd offers no authentication this driver supports: "
                    + auth.mechanisms(), "08004");
        }
        Scram.Client scram = new Scram.Client(config.user(), config.password());
        send(new Message.ScramClientFirst(Protocol.SCRAM_SHA_256, scram.clientFirstMessage()));
        try {
            Message.ScramServerFirst first = expect(Message.ScramServerFirst.class, receiveBy(deadlineNanos));
            send(new Message.ScramClientFinal(scram.clientFinalMessage(first.message())));
            Message.ScramServerFinal fin = expect(Message.ScramServerFinal.class, receiveBy(deadlineNanos));
            scram.verifyServerFinal(fin.message());
        } catch (ScramException e) {
            throw new SQLInvalidAuthorizationSpecException("authentication failed: " + e.getMessage(), "28000", e);
        }
        ready = expect(Message.Ready.class, receiveBy(deadlineNanos));
        LOG.debug("session {} open on {}:{} (protocol 1.{}, server {})", ready.sessionId(), config.host(), config.port(),
                protocolMinor, ready.serverVersion());
    }

    private Message receiveBy(long deadlineNanos) throws IOException {
        if (deadlineNanos != 0) {
            long leftMs = (deadlineNanos - System.nanoTime()) / 1_000_000L;
            if (leftMs <= 0) throw new SocketTimeoutException("login timeout");
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, leftMs));
        }
        return receive();
    }

    /** The reply must be of this type; a server Error becomes its SQLException, anything else is a violation. */
    public static <T extends Message> T expect(Class<T> type, Message m) throws SQLException {
        if (type.isInstance(m)) return type.cast(m);
        if (m instanceof Message.Error e) throw ServerErrors.toException(e);
        throw new SQLNonTransientConnectionException("protocol violation: expected " + type.getSimpleName() + ", got "
                + m.type(), ServerErrors.CONNECTION_FAILURE);
    }

    public Message.Ready ready() {
        return ready;
    }

    public ClientConfig config() {
        return config;
    }

    public int protocolMinor() {
        return protocolMinor;
    }

    /**
     * Writes one frame. A request larger than {@code maxFrameBytes} is not sent: the shepherd (whose default limit is
     * the same) would close the connection on it, and the caller would lose the connection, not just the request.
     *
     * @throws OversizedRequestException before anything is written
     */
    public void send(Message m) throws IOException {
        byte[] frame = MessageCodec.encodeFrame(m);
        int length = frame.length - (Protocol.HEADER_BYTES - 1);
        if (length > config.maxFrameBytes()) throw new OversizedRequestException(m, length, config.maxFrameBytes());
        out.write(frame);
        out.flush();
    }

    /** Blocks until one complete message arrived. */
    public Message receive() throws IOException {
        while (true) {
            Message m = reader.next();
            if (m != null) {
                if (reader.buffered() == 0) reader.trim();
                return m;
            }
            int n = in.read(chunk);
            if (n < 0) throw new ProtocolException("shepherd closed the connection");
            reader.feed(chunk, 0, n);
        }
    }

    public void setSocketTimeout(int timeoutMs) throws SQLException {
        try {
            socket.setSoTimeout(timeoutMs);
        } catch (IOException e) {
            throw new SQLNonTransientConnectionException("cannot set the socket timeout: " + e.getMessage(),
                    ServerErrors.CONNECTION_FAILURE, e);
        }
    }

    public int socketTimeout() throws SQLException {
        try {
            return socket.getSoTimeout();
        } catch (IOException e) {
            throw new SQLNonTransientConnectionException("connection is broken", ServerErrors.CONNECTION_FAILURE, e);
        }
    }

    public boolean isClosed() {
        return closed;
    }

    /**
     * Asks the shepherd to cancel what this session runs now, over a new connection (the session's own connection
     * is busy waiting for the answer). Best-effort: returns once the shepherd closed the cancel connection.
     */
    public void cancel() throws SQLException {
        Message.Ready r = ready;
        if (r == null || closed) return;
        try (Socket s = connectSocket(config, Math.min(CANCEL_TIMEOUT_MS, nonZero(config.connectTimeoutMs())))) {
            s.setSoTimeout(CANCEL_TIMEOUT_MS);
            s.getOutputStream().write(MessageCodec.encodeFrame(new Message.Cancel(r.sessionId(), r.cancelKey())));
            s.getOutputStream().flush();
            awaitClose(s);
        } catch (IOException | GeneralSecurityException e) {
            throw new SQLNonTransientConnectionException("cannot send the cancel request: " + e.getMessage(),
                    ServerErrors.UNABLE_TO_CONNECT, e);
        }
    }

    /** The shepherd answers a Cancel with nothing and closes; waiting for that orders the cancel before our return. */
    private static void awaitClose(Socket s) {
        byte[] sink = new byte[64];
        try {
            while (s.getInputStream().read(sink) >= 0) {
                continue;
            }
        } catch (IOException e) {
            LOG.debug("cancel connection did not close cleanly: {}", e.toString());
        }
    }

    private static int nonZero(int timeoutMs) {
        return timeoutMs == 0 ? CANCEL_TIMEOUT_MS : timeoutMs;
    }

    /** Says goodbye (best-effort) and closes the socket. */
    @Override
    public void close() {
        if (closed) return;
        try {
            socket.setSoTimeout(1000);
            send(new Message.Terminate());
        } catch (IOException e) {
            LOG.debug("Terminate not sent: {}", e.toString());
        }
        abort();
    }

    /** Closes the socket at once, no goodbye. Safe from any thread. */
    public void abort() {
        closed = true;
        try {
            socket.close();
        } catch (IOException e) {
            LOG.debug("socket close failed: {}", e.toString());
        }
    }
}
