package org.shepherd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.server.ShepherdServer;
import org.shepherd.testkit.PostgresServer;

/**
 * A replica that cannot take its role stops {@code shepherd serve} with exit code 2 and the reason. PostgreSQL is
 * the real case: it may not be the primary; as a secondary it starts, behind the commit gate (docs/replicas.md).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a serve that was not refused would block forever
class ReplicaRefusalTest {
    private PostgresServer postgres;

    @BeforeAll
    void start() throws IOException {
        postgres = new PostgresServer();
        postgres.start();
    }

    @AfterAll
    void stop() {
        if (postgres != null) postgres.close();
    }

    private Path config(Path dir, String mode, String primary) throws IOException {
        Path config = dir.resolve("shepherd.properties");
        Files.writeString(config, String.join("\n",
                "listen=127.0.0.1:0",
                "f=1",
                "mode=" + mode,
                "primary=" + primary,
                "data.dir=" + dir.resolve("data"),
                "replica.a.url=jdbc:derby:memory:refusal-a;create=true",
                "replica.a.dialect=derby",
                "replica.b.url=jdbc:derby:memory:refusal-b;create=true",
                "replica.b.dialect=derby",
                "replica.pg.url=" + postgres.jdbcUrl(),
                "replica.pg.user=" + postgres.user(),
                "replica.pg.dialect=postgresql",
                ""));
        return config;
    }

    @Test
    void postgresqlSecondaryStarts(@TempDir Path dir) throws IOException {
        ServeCommand serve = new ServeCommand();
        serve.config = config(dir, "cbs", "a");
        ServeCommand.Running running = serve.start();
        try (ShepherdServer server = running.server()) {
            assertThat(running.readyLine()).startsWith("Shepherd ready: jdbc:shepherd://127.0.0.1:");
        }
    }

    @Test
    void postgresqlPrimaryIsRefusedWithTheReason(@TempDir Path dir) throws IOException {
        CliRun run = CliRun.of("serve", "--config", config(dir, "cbs", "pg").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("replica pg (postgresql)", "cannot be the primary");
    }

    @Test
    void postgresqlAloneInPassthroughIsRefusedAsPrimary(@TempDir Path dir) throws IOException {
        CliRun run = CliRun.of("serve", "--config", config(dir, "passthrough", "pg").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("replica pg (postgresql)", "cannot be the primary");
    }
}
