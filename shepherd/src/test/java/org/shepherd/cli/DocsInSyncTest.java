package org.shepherd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The README and docs describe the commands and settings the code really has. */
class DocsInSyncTest {

    static Path repoRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("README.md"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("README.md above " + Path.of("").toAbsolutePath()).isNotNull();
        return dir;
    }

    static String read(String relativePath) throws IOException {
        return Files.readString(repoRoot().resolve(relativePath));
    }

    @Test
    void readmeAndOperationsListEveryCommand() throws IOException {
        String readme = read("README.md");
        String architecture = read("docs/architecture.md");
        CommandLine cli = ShepherdCli.newCommandLine();
        for (String command : cli.getSubcommands().keySet()) {
            if (command.equals("help")) {
                continue;
            }
            assertThat(readme).as("README command line section").contains("bin/shepherd " + command + " ");
            assertThat(architecture).as("docs/architecture.md product contract").contains("bin/shepherd " + command + " ");
        }
    }

    @Test
    void ciRunsExactlyTheReadmeTestCommand() throws IOException {
        String readme = read("README.md");
        String ci = read(".ci/run");
        assertThat(readme).contains("build/test.sh             # 2. runs the whole test suite");
        assertThat(ci.lines().filter(line -> !line.isBlank() && !line.startsWith("#")).toList())
                .endsWith("build/test.sh");
    }
}
