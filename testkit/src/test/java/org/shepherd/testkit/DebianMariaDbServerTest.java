package org.shepherd.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class DebianMariaDbServerTest extends ServerFixtureContract {
    @Override
    protected DatabaseServer newServer() {
        Assumptions.assumeTrue(MariaDbServer.debianAvailable(),
                "Debian's mariadb-server is not installed (run .ci/install-deps.sh): MariaDB 10.11 tests skipped");
        return MariaDbServer.debian();
    }

    @Override
    protected String expectedDialect() {
        return "mariadb";
    }

    @Test
    void isMariaDb1011() throws Exception {
        try (Connection c = server.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT VERSION()")) {
            rs.next();
            assertThat(rs.getString(1)).startsWith("10.11.");
        }
    }
}
