package org.shepherd.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.replica.jdbc.ReplicaSpec;

class EmbeddedDefaultTest {

    @Test
    void firstRunGeneratesOwnerOnlyCredentialsThatLaterRunsReuse(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("shepherd-data");
        ShepherdConfig c = EmbeddedDefault.config(data, EmbeddedDefault.LISTEN);
        Path file = data.resolve(EmbeddedDefault.CREDENTIALS_FILE);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        String password = c.users().get(EmbeddedDefault.USER);
        assertThat(password).hasSizeGreaterThanOrEqualTo(32).matches("[A-Za-z0-9_-]+");
        assertThat(EmbeddedDefault.config(data, EmbeddedDefault.LISTEN).users()).containsEntry(EmbeddedDefault.USER, password);
        assertThat(EmbeddedDefault.readCredentials(data).orElseThrow().url())
                .isEqualTo("jdbc:shepherd://127.0.0.1:7654/shepherd");

        assertThat(c.listen().toString()).isEqualTo("127.0.0.1:7654");
        assertThat(c.f()).isEqualTo(1);
        assertThat(c.mode()).isEqualTo(EmbeddedDefault.MODE);
        assertThat(c.replicas()).extracting(ReplicaSpec::name).containsExactly("r1", "r2", "r3");
        assertThat(c.replicas().get(0).url()).isEqualTo("jdbc:derby:" + data.toAbsolutePath().normalize().resolve("r1")
                + ";create=true");
        assertThat(c.primary().name()).isEqualTo("r1");

        String line = EmbeddedDefault.announce(data, new InetSocketAddress("127.0.0.1", 17654));
        assertThat(line).isEqualTo("Shepherd ready: jdbc:shepherd://127.0.0.1:17654/shepherd?user=shepherd&password="
                + password);
        assertThat(EmbeddedDefault.readCredentials(data).orElseThrow().url())
                .isEqualTo("jdbc:shepherd://127.0.0.1:17654/shepherd");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void differentDataDirectoriesGetDifferentPasswords(@TempDir Path dir) throws Exception {
        String a = EmbeddedDefault.config(dir.resolve("a"), "127.0.0.1:0").users().get("shepherd");
        String b = EmbeddedDefault.config(dir.resolve("b"), "127.0.0.1:0").users().get("shepherd");
        assertThat(a).isNotEqualTo(b);
    }
}
