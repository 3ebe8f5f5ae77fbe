package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.config.EmbeddedDefault;
import org.shepherd.config.Mode;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.server.ShepherdServer;

/** The embedded default (3 Derby replicas, f=1, mode=cbs) through the JDBC driver and the server. */
class CbsEmbeddedDefaultTest {

    @Test
    void embeddedDefaultRunsCbsOverThreeDerbyReplicas(@TempDir Path dir) throws Exception {
        ShepherdConfig config = EmbeddedDefault.config(dir.resolve("shepherd-data"), "127.0.0.1:0");
        assertThat(config.mode()).isEqualTo(Mode.CBS);
        try (ShepherdServer server = ShepherdServer.create(config)) {
            server.start();
            CbsCoordinator coordinator = (CbsCoordinator) server.coordinator();
            String password = config.users().get(EmbeddedDefault.USER);
            try (Connection c = DriverManager.getConnection(server.jdbcUrl("shepherd"), EmbeddedDefault.USER, password)) {
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("CREATE TABLE kv (k INT PRIMARY KEY, v VARCHAR(20))");
                }
                c.setAutoCommit(false);
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO kv VALUES (?, ?)")) {
                    for (int i = 0; i < 3; i++) {
                        ps.setInt(1, i);
                        ps.setString(2, "v" + i);
                        ps.executeUpdate();
                    }
                }
                c.commit();
                c.setAutoCommit(true);
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM kv")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(3);
                }
                assertThatThrownBy(() -> c.createStatement().executeUpdate("INSERT INTO kv VALUES (1, 'dup')"))
                        .isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("23"));
            }
            assertThat(coordinator.awaitIdle(10_000)).isTrue();
            for (JdbcReplicaEndpoint e : coordinator.endpoints()) {
                try (Connection c = e.pool().acquire(); Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM kv")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).as("rows on %s", e.name()).isEqualTo(3);
                    c.rollback();
                }
            }
            assertThat(coordinator.divergences().snapshot()).isEmpty();
        }
    }

    @Test
    void modeSelectsTheCoordinator(@TempDir Path dir) throws Exception {
        ShepherdConfig cbs = EmbeddedDefault.config(dir.resolve("d"), "127.0.0.1:0");
        for (Mode m : new Mode[] {Mode.SERIAL, Mode.PASSTHROUGH}) {
            try (org.shepherd.coordinator.Coordinator c = ShepherdServer.openCoordinator(cbs.with("mode", m.configName()))) {
                assertThat(c instanceof CbsCoordinator).as("mode %s", m).isEqualTo(m != Mode.PASSTHROUGH);
            }
        }
    }
}
