package org.shepherd.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process TCP proxy on 127.0.0.1 between clients and one server, for network faults without netem:
 * per-direction latency ({@link #setLatencyMs}), a partition that holds all traffic until healed
 * ({@link #partition()}/{@link #heal()}), a blackhole that silently drops bytes ({@link #setBlackhole}),
 * and cutting every open connection ({@link #cutAll()}).
 *
 * <p>Each connection uses four threads (a reader and a writer per direction); a bounded queue of chunks between
 * them holds the in-flight data, and when it is full the reader stops reading so TCP pushes back on the sender.
 */
public final class TcpProxy implements AutoCloseable {
    private static final int CHUNK_BYTES_MAX = 16 * 1024;
    private static final int IN_FLIGHT_CHUNKS_MAX = 256;
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final long PARTITION_POLL_MS = 10;

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Thread acceptor;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connectionsAccepted = new AtomicInteger();
    private volatile long upstreamLatencyMs;
    private volatile long downstreamLatencyMs;
    private volatile boolean partitioned;
    private volatile boolean blackhole;
    private volatile boolean closed;

    private TcpProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getByName(DatabaseServer.LOOPBACK));
        this.acceptor = new Thread(this::acceptLoop, "tcp-proxy-accept-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy on a free loopback port that forwards to {@code 127.0.0.1:targetPort}. */
    public static TcpProxy forward(int targetPort) throws IOException {
        return new TcpProxy(new InetSocketAddress(DatabaseServer.LOOPBACK, targetPort));
    }

    /** A proxy in front of a running server; connect with {@code server.jdbcUrl(proxy.port())}. */
    public static TcpProxy inFrontOf(DatabaseServer server) throws IOException {
        return forward(server.port());
    }

    public int port() {
        return listener.getLocalPort();
    }

    public int connectionsAccepted() {
        return connectionsAccepted.get();
    }

    public int openConnections() {
        return links.size();
    }

    /** Delay added to every chunk: client→server ({@code upstreamMs}) and server→client ({@code downstreamMs}). */
    public void setLatencyMs(long upstreamMs, long downstreamMs) {
        if (upstreamMs < 0 || downstreamMs < 0) {
            throw new IllegalArgumentException("latency must be >= 0");
        }
        this.upstreamLatencyMs = upstreamMs;
        this.downstreamLatencyMs = downstreamMs;
    }

    /**
     * Stops forwarding in both directions, as a network partition does: bytes wait (TCP retransmits), new connections
     * are accepted but not connected onward. Nothing is lost; {@link #heal()} delivers what was held.
     */
    public void partition() {
        partitioned = true;
    }

    public void heal() {
        partitioned = false;
    }

    /** While on, bytes in both directions are read and dropped: the stream is corrupt after this. */
    public void setBlackhole(boolean on) {
        blackhole = on;
    }

    /** Closes every open connection with a TCP reset; the proxy keeps accepting new ones. */
    public void cutAll() {
        for (Link link : links) {
            link.close(true);
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        cutAll();
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                connectionsAccepted.incrementAndGet();
                Thread opener = new Thread(() -> open(client), "tcp-proxy-open-" + client.getPort());
                opener.setDaemon(true);
                opener.start();
            } catch (IOException e) {
                if (!closed) {
                    sleepQuietly(PARTITION_POLL_MS);
                }
            }
        }
    }

    private void open(Socket client) {
        while (partitioned && !closed && !client.isClosed()) {
            sleepQuietly(PARTITION_POLL_MS);
        }
        Socket server = new Socket();
        try {
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
            server.connect(target, CONNECT_TIMEOUT_MS);
        } catch (IOException e) {
            closeQuietly(client, true);
            closeQuietly(server, true);
            return;
        }
        Link link = new Link(client, server);
        links.add(link);
        if (closed) {
            link.close(true);
            return;
        }
        link.start();
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Socket socket, boolean reset) {
        try {
            if (reset && !socket.isClosed()) {
                socket.setSoLinger(true, 0);
            }
        } catch (SocketException ignored) {
            // already broken: plain close below
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing left to do
        }
    }

    private record Chunk(byte[] bytes, long dueNanos) {
        static final Chunk END = new Chunk(new byte[0], 0);
    }

    private final class Link {
        private final Socket client;
        private final Socket server;
        private final AtomicInteger directionsEnded = new AtomicInteger();
        private volatile boolean linkClosed;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            pipe(client, server, true);
            pipe(server, client, false);
        }

        private void pipe(Socket from, Socket to, boolean upstream) {
            BlockingQueue<Chunk> queue = new ArrayBlockingQueue<>(IN_FLIGHT_CHUNKS_MAX);
            String direction = upstream ? "up" : "down";
            Thread reader = new Thread(() -> readLoop(from, queue, upstream), "tcp-proxy-" + direction + "-read");
            Thread writer = new Thread(() -> writeLoop(to, queue), "tcp-proxy-" + direction + "-write");
            reader.setDaemon(true);
            writer.setDaemon(true);
            reader.start();
            writer.start();
        }

        private void readLoop(Socket from, BlockingQueue<Chunk> queue, boolean upstream) {
            byte[] buffer = new byte[CHUNK_BYTES_MAX];
            try (InputStream in = from.getInputStream()) {
                while (!linkClosed) {
                    while (partitioned && !linkClosed) {
                        sleepQuietly(PARTITION_POLL_MS);
                    }
                    int n = in.read(buffer);
                    if (n < 0) {
                        break;
                    }
                    if (blackhole) {
                        continue;
                    }
                    long latencyMs = upstream ? upstreamLatencyMs : downstreamLatencyMs;
                    queue.put(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(latencyMs)));
                }
                queue.put(Chunk.END);
            } catch (IOException e) {
                close(false);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close(true);
            }
        }

        private void writeLoop(Socket to, BlockingQueue<Chunk> queue) {
            try {
                OutputStream out = to.getOutputStream();
                while (!linkClosed) {
                    Chunk chunk = queue.poll(PARTITION_POLL_MS, TimeUnit.MILLISECONDS);
                    if (chunk == null) {
                        continue;
                    }
                    if (chunk == Chunk.END) {
                        to.shutdownOutput();
                        if (directionsEnded.incrementAndGet() == 2) {
                            close(false);
                        }
                        return;
                    }
                    long waitNanos = chunk.dueNanos() - System.nanoTime();
                    if (waitNanos > 0) {
                        TimeUnit.NANOSECONDS.sleep(waitNanos);
                    }
                    while (partitioned && !linkClosed) {
                        sleepQuietly(PARTITION_POLL_MS);
                    }
                    out.write(chunk.bytes());
                    out.flush();
                }
            } catch (IOException e) {
                close(false);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close(true);
            }
        }

        void close(boolean reset) {
            linkClosed = true;
            closeQuietly(client, reset);
            closeQuietly(server, reset);
            links.remove(this);
        }
    }
}
