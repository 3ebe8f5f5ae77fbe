package org.shepherd.cli;

import static org.assertj.core.api.Assertions.assertThat;

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

    @ParameterizedTest
    @ValueSource(strings = {"status", "divergences"})
    void adminCommandsFailLoudlyUntilTheAdminEndpointExists(String command) {
        CliRun run = CliRun.of(command);

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("not available yet: needs the admin endpoint");
    }
}
