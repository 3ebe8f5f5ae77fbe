package org.shepherd.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class HsqldbServerTest extends ServerFixtureContract {
    @Override
    protected DatabaseServer newServer() {
        return new HsqldbServer();
    }

    @Override
    protected String expectedDialect() {
        return "hsqldb";
    }

    @Test
    void givenDirectoryIsKeptAndANewFixtureOpensItsData() throws Exception {
        Path dir = Files.createTempDirectory("shepherd-hsqldb-given-");
        try {
            try (HsqldbServer first = new HsqldbServer("given", dir, "db")) {
                first.start();
                try (Connection c = first.connect(); Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE t_given (id INT PRIMARY KEY, v VARCHAR(20))");
                    s.executeUpdate("INSERT INTO t_given VALUES (1, 'kept')");
                }
            }
            assertThat(dir.resolve("data")).isDirectory();
            try (HsqldbServer second = new HsqldbServer("given", dir, "db")) {
                second.start();
                try (Connection c = second.connect()) {
                    assertThat(rows(c, "t_given")).containsExactly("1=kept");
                }
            }
        } finally {
            DatabaseServer.deleteRecursively(dir);
        }
    }
}
