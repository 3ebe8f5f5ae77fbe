package org.shepherd.replica.setup;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class EmbeddedDerbySetupTest extends LockingReplicaSetupContract {
    private String url;
    private Path dir;

    @Override
    protected String startServer() throws Exception {
        dir = Files.createTempDirectory("shepherd-derby-setup-");
        url = "jdbc:derby:" + dir.resolve("db") + ";create=true";
        return "derby";
    }

    @Override
    protected void stopServer() {
        shutdownAndDelete(dir);
    }

    private static void shutdownAndDelete(Path dir) {
        try {
            DriverManager.getConnection("jdbc:derby:" + dir.resolve("db") + ";shutdown=true");
        } catch (SQLException expected) {
            // Derby reports a successful shutdown as an exception (08006)
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected Connection open() throws SQLException {
        return DriverManager.getConnection(url);
    }

    @Override
    protected boolean padSpaceAfterSetup() {
        return true;
    }

    @Test
    void databaseWithoutTheLockSettingsIsRefused() throws Exception {
        Path other = Files.createTempDirectory("shepherd-derby-unprepared-");
        try (Connection c = DriverManager.getConnection("jdbc:derby:" + other.resolve("db") + ";create=true")) {
            setup.prepareConnection(c);
            assertThatThrownBy(() -> setup.verify(c)).isInstanceOf(ReplicaRefusedException.class)
                    .hasMessageContaining("derby.locks.waitTimeout");
        } finally {
            shutdownAndDelete(other);
        }
    }
}
