package org.shepherd.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConfigurationDocTest {

    private static final String BEGIN = "<!-- config-table:begin (generated from ConfigKey; edit the enum, not this table) -->\n";
    private static final String END = "<!-- config-table:end -->";

    @Test
    void docsConfigurationMdListsExactlyTheKeysOfConfigKey() throws IOException {
        Path doc = Path.of("..", "docs", "configuration.md");
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        assertThat(begin).as("docs/configuration.md must contain the marker " + BEGIN.trim()).isGreaterThanOrEqualTo(0);
        assertThat(end).as("docs/configuration.md must contain the marker " + END).isGreaterThan(begin);
        String table = text.substring(begin + BEGIN.length(), end);
        String expected = ConfigKey.markdownTable();
        if (!table.equals(expected)) {
            Files.createDirectories(Path.of("target"));
            Files.writeString(Path.of("target", "configuration-table.md"), BEGIN + expected + END + "\n");
        }
        assertThat(table).as("docs/configuration.md is out of date; the expected table is in "
                + "shepherd/target/configuration-table.md").isEqualTo(expected);
    }
}
