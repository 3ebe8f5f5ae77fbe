package org.shepherd.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.config.EmbeddedDefault;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.server.ShepherdServer;

/** {@code metrics.listen}: the embedded default's state scraped over HTTP as Prometheus metrics. */
class MetricsEndpointTest {

    private static String get(InetSocketAddress at, String path) throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + at.getPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        return r.body();
    }

    private static double value(String scrape, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(scrape);
        assertThat(m.find()).as("%s in%n%s", series, scrape).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void theShepherdsStateIsScrapedAsPrometheusMetrics(@TempDir Path dir) throws Exception {
        ShepherdConfig config = EmbeddedDefault.config(dir.resolve("shepherd-data"), "127.0.0.1:0")
                .with("metrics.listen", "127.0.0.1:0");
        try (ShepherdServer server = ShepherdServer.create(config)) {
            server.start();
            InetSocketAddress metrics = server.metricsAddress();
            assertThat(metrics).isNotNull();
            double before = value(get(metrics, "/metrics"), "shepherd_commits_total");
            try (Connection c = DriverManager.getConnection(server.jdbcUrl("shepherd"), EmbeddedDefault.USER,
                    config.users().get(EmbeddedDefault.USER)); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE m (k INT PRIMARY KEY)");
                for (int i = 0; i < 5; i++) s.executeUpdate("INSERT INTO m VALUES (" + i + ")");
                String scrape = get(metrics, "/metrics");
                assertThat(value(scrape, "shepherd_commits_total")).isGreaterThanOrEqualTo(before + 6);
                assertThat(value(scrape, "shepherd_sessions")).isEqualTo(1);
                assertThat(value(scrape, "shepherd_replica_up{replica=\"r1\"}")).isEqualTo(1);
                assertThat(value(scrape, "shepherd_replica_primary{replica=\"r1\"}")).isEqualTo(1);
                assertThat(value(scrape, "shepherd_replica_primary{replica=\"r2\"}")).isZero();
                assertThat(value(scrape, "shepherd_replica_up{replica=\"r3\"}")).isEqualTo(1);
                assertThat(value(scrape, "shepherd_vote_aborts_total")).isZero();
                assertThat(value(scrape, "shepherd_divergences_total")).isZero();
                assertThat(value(scrape, "shepherd_view_changes_total")).isZero();
                assertThat(value(scrape, "shepherd_wal_bytes")).isPositive();
                assertThat(scrape).contains("shepherd_commit_seconds{quantile=\"0.99\"}")
                        .contains("shepherd_info{f=\"1\",mode=\"cbs\",primary=\"r1\"")
                        .contains("# TYPE shepherd_commits_total counter").contains("jvm_memory_used_bytes");
            }
            assertThat(get(metrics, "/-/healthy")).isNotBlank();
        }
    }

    @Test
    void anAddressInUseIsAClearStartError(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            ShepherdConfig config = EmbeddedDefault.config(dir.resolve("shepherd-data"), "127.0.0.1:0")
                    .with("metrics.listen", "127.0.0.1:" + taken.getLocalPort());
            try (ShepherdServer server = ShepherdServer.create(config)) {
                assertThatThrownBy(server::start).isInstanceOf(IOException.class).hasMessageContaining("metrics.listen");
            }
        }
    }
}
