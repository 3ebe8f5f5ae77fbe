package org.shepherd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.shepherd.config.ConfigKey;
import org.shepherd.jdbc.DriverProperty;
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
    void readmeDriverPropertiesTableIsGeneratedFromTheEnum() throws IOException {
        assertThat(section(read("README.md"), "driver-properties")).isEqualTo(DriverProperty.markdownTable());
    }

    @Test
    void readmeConfigurationKeysExistWithTheirDefaults() throws IOException {
        List<String> rows = section(read("README.md"), "config-keys").lines().filter(line -> line.startsWith("| `")).toList();
        assertThat(rows).hasSizeGreaterThanOrEqualTo(5);
        for (String row : rows) {
            String[] cells = row.split("\\|");
            String key = cells[1].strip().replace("`", "");
            ConfigKey configKey = Arrays.stream(ConfigKey.values()).filter(k -> k.key().equals(key)).findFirst().orElse(null);
            assertThat(configKey).as("README key " + key + " in ConfigKey").isNotNull();
            String expectedDefault = configKey.defaultValue() == null ? "(none)"
                    : configKey.defaultValue().isEmpty() ? "(empty)" : "`" + configKey.defaultValue() + "`";
            assertThat(cells[2].strip()).as("README default of " + key).isEqualTo(expectedDefault);
        }
    }

    /** The lines between {@code <!-- NAME:begin ... -->} and {@code <!-- NAME:end -->}. */
    static String section(String text, String name) {
        int begin = text.indexOf("<!-- " + name + ":begin");
        int end = text.indexOf("<!-- " + name + ":end -->");
        assertThat(begin).as("marker <!-- " + name + ":begin").isNotNegative();
        assertThat(end).as("marker <!-- " + name + ":end -->").isGreaterThan(begin);
        return text.substring(text.indexOf('\n', begin) + 1, end);
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
