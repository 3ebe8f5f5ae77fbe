package org.shepherd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShepherdCliTest {

    @ParameterizedTest
    @ValueSource(strings = {"serve", "sql", "status", "divergences"})
    void everyCommandHasHelp(String command) {
        CliRun run = CliRun.of(command, "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("Usage: shepherd " + command).contains("--help");
    }

    @Test
    void topLevelHelpListsTheCommandsAndExitCodes() {
        CliRun run = CliRun.of("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("serve", "sql", "status", "divergences", "Exit codes:");
    }

    @Test
    void versionPrintsTheProductName() {
        CliRun run = CliRun.of("--version");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("shepherd ");
    }

    @Test
    void missingCommandIsAUsageError() {
        CliRun run = CliRun.of();

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("missing command").contains("Usage: shepherd");
    }

    @Test
    void unknownOptionIsAUsageError() {
        CliRun run = CliRun.of("sql", "--no-such-option");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--no-such-option'");
    }

    @Test
    void serveWithMissingConfigFileExitsTwoAndSaysWhatToFix(@TempDir Path dir) {
        CliRun run = CliRun.of("serve", "--config", dir.resolve("nope.properties").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("nope.properties does not exist");
    }

    @Test
    void serveWithAnUnknownConfigKeyExitsTwoNamingIt(@TempDir Path dir) throws IOException {
        Path config = dir.resolve("shepherd.properties");
        Files.writeString(config, "mode=passthrough\nreplica.a.url=jdbc:derby:memory:unused;create=true\nlisten.port=7654\n");

        CliRun run = CliRun.of("serve", "--config", config.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("listen.port");
    }

    @Test
    void serveWithTooFewReplicasForCbsExitsTwo(@TempDir Path dir) throws IOException {
        Path config = dir.resolve("shepherd.properties");
        Files.writeString(config, "f=1\nreplica.a.url=jdbc:derby:memory:unused;create=true\n");

        CliRun run = CliRun.of("serve", "--config", config.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("2f+1");
    }

    @Test
    void embeddedDefaultOptionsWithAConfigFileAreAUsageError(@TempDir Path dir) throws IOException {
        Path config = dir.resolve("shepherd.properties");
        Files.writeString(config, "mode=passthrough\n");

        CliRun run = CliRun.of("serve", "--config", config.toString(), "--listen", "127.0.0.1:0");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--data-dir, --listen and --metrics apply to the embedded default only");
        CliRun metrics = CliRun.of("serve", "--config", config.toString(), "--metrics", "127.0.0.1:0");
        assertThat(metrics.exitCode()).isEqualTo(2);
        assertThat(metrics.err()).contains("metrics.listen");
    }

    @ParameterizedTest
    @ValueSource(strings = {"status", "divergences"})
    void adminCommandsExitOneWhenTheShepherdCannotBeReached(String command) throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        CliRun run = CliRun.of(command, "--url", "jdbc:shepherd://127.0.0.1:" + port + "/db?user=u&password=secret");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("cannot reach the shepherd at jdbc:shepherd://127.0.0.1:" + port)
                .contains("password=***").doesNotContain("secret");
    }

    @ParameterizedTest
    @ValueSource(strings = {"status", "divergences"})
    void adminCommandsExitTwoWithoutAShepherdUrl(String command, @TempDir Path dir) {
        CliRun noCredentials = CliRun.of(command, "--data-dir", dir.toString());
        assertThat(noCredentials.exitCode()).isEqualTo(2);
        assertThat(noCredentials.err()).contains("credentials.properties does not exist");

        CliRun otherDatabase = CliRun.of(command, "--url", "jdbc:derby:memory:x");
        assertThat(otherDatabase.exitCode()).isEqualTo(2);
        assertThat(otherDatabase.err()).contains("must be a jdbc:shepherd:// URL");
    }
}
