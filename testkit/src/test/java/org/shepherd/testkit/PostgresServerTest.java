package org.shepherd.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class PostgresServerTest extends ServerFixtureContract {
    @Override
    protected DatabaseServer newServer() throws Exception {
        return new PostgresServer();
    }

    @Override
    protected String expectedDialect() {
        return "postgresql";
    }

    @Test
    void runsAsAnUnprivilegedUserWithFsync() throws Exception {
        try (Connection c = server.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW fsync")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("on");
        }
        String owner = ProcessHandle.of(server.pid()).orElseThrow().info().user().orElse("?");
        assertThat(owner).isNotEqualTo("root");
    }
}
