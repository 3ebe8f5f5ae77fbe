package org.shepherd.admin;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.shepherd.config.HostPort;

/**
 * The HTTP endpoint of {@code metrics.listen}: {@code /metrics} in Prometheus' text formats (the shepherd's
 * {@link ShepherdMetrics} and the JVM's memory, GC and threads), {@code /-/healthy} for a liveness probe. One thread
 * serves it; its registry is its own, not the process-wide default.
 */
public final class MetricsEndpoint implements AutoCloseable {

    private final HTTPServer server;
    private final ExecutorService thread;
    private final InetSocketAddress address;

    private MetricsEndpoint(HTTPServer server, ExecutorService thread, InetSocketAddress address) {
        this.server = server;
        this.thread = thread;
        this.address = address;
    }

    /** Binds {@code listen} (port 0: any free port) and serves {@code metrics} there. */
    public static MetricsEndpoint start(HostPort listen, ShepherdMetrics metrics) throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(metrics);
        JvmMetrics.builder().register(registry);
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "shepherd-metrics");
            t.setDaemon(true);
            return t;
        });
        InetSocketAddress bind = listen.resolve();
        try {
            HTTPServer server = HTTPServer.builder().inetAddress(bind.getAddress()).port(bind.getPort()).registry(registry)
                    .executorService(thread).buildAndStart();
            return new MetricsEndpoint(server, thread, new InetSocketAddress(bind.getAddress(), server.getPort()));
        } catch (IOException | RuntimeException e) {
            thread.shutdownNow();
            throw new IOException("cannot serve metrics on " + listen + ": " + e.getMessage() + " (change metrics.listen)", e);
        }
    }

    /** The address bound (its port is the real one when port 0 was asked for). */
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public void close() {
        server.close();
        thread.shutdownNow();
    }
}
