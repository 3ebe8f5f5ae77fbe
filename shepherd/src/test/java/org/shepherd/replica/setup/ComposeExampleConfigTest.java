package org.shepherd.replica.setup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.replica.jdbc.ReplicaSpec;

/** docker-compose.yml cannot run here; its configuration file must at least be one the shepherd accepts. */
class ComposeExampleConfigTest {
    private static final Path ROOT = Path.of(System.getProperty("maven.multiModuleProjectDirectory", ".."));
    private static final Path EXAMPLE = ROOT.resolve("docs/examples/compose-shepherd.properties");

    @Test
    void composeConfigIsValidAndItsPrimaryCanBePrimary() throws Exception {
        ShepherdConfig config = ShepherdConfig.load(EXAMPLE);
        Map<String, String> dialects = config.replicas().stream()
                .collect(Collectors.toMap(ReplicaSpec::name, ReplicaSpec::dialect));
        assertThat(dialects).containsOnly(Map.entry("mariadb", "mariadb"), Map.entry("derby", "derby"),
                Map.entry("postgres", "postgresql"));
        assertThat(config.replicas()).hasSize(2 * config.f() + 1);
        ReplicaSetup primary = ReplicaSetup.forDialect(config.primary().dialect());
        assertThat(primary.canBePrimary()).isTrue();
        assertThat(config.users()).isNotEmpty();
    }

    @Test
    void composeFileMountsTheExampleAndServesItsCommand() throws Exception {
        String compose = Files.readString(ROOT.resolve("docker-compose.yml"));
        assertThat(compose).contains("./docs/examples/compose-shepherd.properties:/etc/shepherd/shepherd.properties:ro")
                .contains("\"bin/shepherd\", \"serve\", \"--config\", \"/etc/shepherd/shepherd.properties\"");
        for (String host : new String[] {"mariadb:", "postgres:", "derby:"}) {
            assertThat(compose).contains("  " + host);
        }
    }
}
