package org.shepherd.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;
import org.shepherd.admin.AdminView;
import org.shepherd.admin.MetricsEndpoint;
import org.shepherd.admin.ShepherdMetrics;
import org.shepherd.config.ConfigException;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.coordinator.Coordinator;
import org.shepherd.coordinator.StatementThreads;
import org.shepherd.coordinator.cbs.CbsCoordinator;
import org.shepherd.coordinator.passthrough.PassthroughCoordinator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shepherd's network frontend: accepts driver connections (protocol v1, optional TLS), authenticates them
 * and runs their requests on a bounded worker pool against a {@link Coordinator}.
 *
 * <pre>
 *   ShepherdServer server = ShepherdServer.create(config);   // opens the coordinator for config.mode()
 *   InetSocketAddress bound = server.start();                // listening; port 0 picks a free port
 *   ...
 *   server.close();                                          // graceful, bounded by shutdown.timeout.ms
 * </pre>
 */
public final class ShepherdServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ShepherdServer.class);

    /** The shepherd's version, as reported to clients. */
    public static final String VERSION = version();

    private static final long EVENT_LOOP_SHUTDOWN_TIMEOUT_MS = 5_000;
    private static final long WORKER_IDLE_KEEPALIVE_MS = 60_000;
    private static final int WRITE_BUFFER_LOW_BYTES = 256 * 1024;
    private static final int WRITE_BUFFER_HIGH_BYTES = 1024 * 1024;
    private static final int ACCEPT_BACKLOG = 128;

    private final ShepherdConfig config;
    private final Coordinator coordinator;
    private final Authenticator authenticator;
    private final SecureRandom random = new SecureRandom();
    private final Map<Long, ClientSession> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final ChannelGroup channels = new DefaultChannelGroup("shepherd-clients", GlobalEventExecutor.INSTANCE);
    private final ThreadPoolExecutor workers;
    private EventLoopGroup acceptGroup;
    private EventLoopGroup ioGroup;
    private Channel serverChannel;
    private volatile InetSocketAddress boundAddress;
    private MetricsEndpoint metrics;
    private volatile boolean closing;
    private boolean closed;

    /**
     * A server in front of {@code coordinator}, which it closes on {@link #close()}. Not listening until
     * {@link #start()}.
     */
    public ShepherdServer(ShepherdConfig config, Coordinator coordinator) {
        this.config = config;
        this.coordinator = coordinator;
        this.authenticator = new Authenticator(config.users());
        int workersMax = config.workersMax();
        this.workers = new ThreadPoolExecutor(workersMax, workersMax, WORKER_IDLE_KEEPALIVE_MS, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(2 * config.sessionsMax() + workersMax),
                new DefaultThreadFactory("shepherd-worker", true) {
                    @Override
                    protected Thread newThread(Runnable r, String name) {
                        // the stack every thread that parses or runs a statement has (StatementThreads)
                        return new FastThreadLocalThread(threadGroup, r, name, StatementThreads.STACK_BYTES);
                    }
                });
    }

    /** A server with the coordinator {@code config.mode()} calls for. */
    public static ShepherdServer create(ShepherdConfig config) throws ConfigException, SQLException {
        Coordinator coordinator = openCoordinator(config);
        return new ShepherdServer(config, coordinator);
    }

    /** The coordinator for the configured mode; modes not built yet are refused with what to use instead. */
    public static Coordinator openCoordinator(ShepherdConfig config) throws ConfigException, SQLException {
        switch (config.mode()) {
            case PASSTHROUGH:
                return PassthroughCoordinator.open(config);
            case CBS:
            case SS:
            case SERIAL:
                return CbsCoordinator.open(config);
            default:
                throw new ConfigException("mode=" + config.mode().configName()
                        + " is not available in this build yet; use mode=passthrough");
        }
    }

    /**
     * Binds {@code listen} and starts accepting connections.
     *
     * @return the address actually bound (its port is the real one when {@code listen} asked for port 0)
     * @throws IOException when the address cannot be bound or the TLS files cannot be used
     */
    public synchronized InetSocketAddress start() throws IOException {
        if (serverChannel != null || closed) throw new IllegalStateException("start() may be called once");
        SslContext ssl = config.tlsEnabled() ? sslContext() : null;
        if (config.metricsListen() != null && coordinator instanceof AdminView view) {
            metrics = MetricsEndpoint.start(config.metricsListen(),
                    new ShepherdMetrics(view, this::openSessions, this::openConnections, VERSION));
            LOG.info("metrics at http://{}:{}/metrics", metrics.address().getAddress().getHostAddress(),
                    metrics.address().getPort());
        }
        acceptGroup = new NioEventLoopGroup(1, new DefaultThreadFactory("shepherd-accept"));
        ioGroup = new NioEventLoopGroup(config.ioThreads(), new DefaultThreadFactory("shepherd-io"));
        ServerBootstrap b = new ServerBootstrap()
                .group(acceptGroup, ioGroup)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, ACCEPT_BACKLOG)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(WRITE_BUFFER_LOW_BYTES, WRITE_BUFFER_HIGH_BYTES))
                .childHandler(new ShepherdChannelInitializer(this, ssl));
        InetSocketAddress listen = config.listen().resolve();
        try {
            serverChannel = b.bind(listen).sync().channel();
        } catch (Exception e) {
            shutDownEventLoops();
            if (metrics != null) metrics.close();
            metrics = null;
            throw new IOException("cannot listen on " + config.listen() + ": " + e.getMessage()
                    + " (change listen=host:port)", e);
        }
        boundAddress = (InetSocketAddress) serverChannel.localAddress();
        LOG.info("shepherd {} listening on {} (mode={}, tls={})", VERSION, boundAddress, config.mode().configName(),
                ssl != null);
        return boundAddress;
    }

    /** The address of the metrics endpoint ({@code metrics.listen}), or null when there is none. */
    public InetSocketAddress metricsAddress() {
        return metrics == null ? null : metrics.address();
    }

    /** The address bound by {@link #start()}, or null before. */
    public InetSocketAddress boundAddress() {
        return boundAddress;
    }

    /** {@code jdbc:shepherd://host:port/database} for the bound address. */
    public String jdbcUrl(String database) {
        InetSocketAddress a = boundAddress;
        if (a == null) throw new IllegalStateException("not started");
        String host = a.getAddress().getHostAddress();
        return "jdbc:shepherd://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/" + database;
    }

    public ShepherdConfig config() {
        return config;
    }

    public Coordinator coordinator() {
        return coordinator;
    }

    /** Authenticated client sessions open now. */
    public int openSessions() {
        return sessions.size();
    }

    /** Client connections open now (authenticated or not). */
    public int openConnections() {
        return connections.get();
    }

    /**
     * Stops accepting connections, lets running requests finish (at most {@code shutdown.timeout.ms}), then
     * closes every client connection, rolls back what is still open, closes the coordinator and stops every
     * thread the server started. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        closing = true;
        if (serverChannel != null) serverChannel.close().syncUninterruptibly();
        if (metrics != null) metrics.close();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.shutdownTimeoutMs());
        while (System.nanoTime() < deadline && !sessions.values().stream().allMatch(ClientSession::idle)) {
            sleepMs(10);
        }
        for (ClientSession s : sessions.values()) runOnWorker(s::cancel);
        channels.close().awaitUninterruptibly(EVENT_LOOP_SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        long releaseDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.shutdownTimeoutMs());
        while (!sessions.isEmpty() && System.nanoTime() < releaseDeadline) sleepMs(10);
        if (!sessions.isEmpty()) LOG.warn("{} session(s) did not close within shutdown.timeout.ms", sessions.size());
        workers.shutdown();
        try {
            if (!workers.awaitTermination(config.shutdownTimeoutMs(), TimeUnit.MILLISECONDS)) workers.shutdownNow();
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
        try {
            coordinator.close();
        } catch (RuntimeException e) {
            LOG.warn("closing the coordinator failed", e);
        }
        shutDownEventLoops();
        LOG.info("shepherd stopped");
    }

    // ---------------------------------------------------------------- for the connection handlers

    Authenticator authenticator() {
        return authenticator;
    }

    ExecutorService workers() {
        return workers;
    }

    /** Counts a new connection; false when {@code sessions.max} are open or the server is closing. */
    boolean admit(Channel ch) {
        if (closing || connections.incrementAndGet() > config.sessionsMax()) {
            connections.decrementAndGet();
            return false;
        }
        channels.add(ch);
        return true;
    }

    void release(Channel ch) {
        connections.decrementAndGet();
    }

    ClientSession register(Channel ch, int clientMaxFrameBytes) {
        while (true) {
            long id = random.nextLong() & Long.MAX_VALUE;
            ClientSession s = new ClientSession(this, ch, id, random.nextLong(), clientMaxFrameBytes);
            if (sessions.putIfAbsent(id, s) == null) return s;
        }
    }

    void unregister(ClientSession s) {
        sessions.remove(s.sessionId, s);
    }

    /** A Cancel from another connection: cancels the session's running statement when the key matches. */
    void cancel(long sessionId, long cancelKey) {
        ClientSession s = sessions.get(sessionId);
        if (s == null || !MessageDigest.isEqual(longBytes(s.cancelKey), longBytes(cancelKey))) {
            LOG.info("ignored a cancel request for an unknown session or with a wrong key");
            return;
        }
        runOnWorker(s::cancel);
    }

    void runOnWorker(Runnable task) {
        try {
            workers.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.warn("background task failed", e);
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.debug("worker pool refused a task (shutting down or full)");
        }
    }

    private SslContext sslContext() throws IOException {
        try {
            return SslContextBuilder.forServer(config.tlsCert().toFile(), config.tlsKey().toFile()).build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IOException("cannot use tls.cert=" + config.tlsCert() + " / tls.key=" + config.tlsKey() + ": "
                    + e.getMessage() + " (PEM certificate chain and unencrypted PKCS#8 key expected)", e);
        }
    }

    private void shutDownEventLoops() {
        for (EventLoopGroup g : new EventLoopGroup[] {acceptGroup, ioGroup}) {
            if (g != null) {
                g.shutdownGracefully(0, EVENT_LOOP_SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                        .awaitUninterruptibly(2 * EVENT_LOOP_SHUTDOWN_TIMEOUT_MS);
            }
        }
    }

    private static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
        return b;
    }

    private static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String version() {
        String v = ShepherdServer.class.getPackage().getImplementationVersion();
        return v != null ? v : "0.1.0-SNAPSHOT";
    }
}
