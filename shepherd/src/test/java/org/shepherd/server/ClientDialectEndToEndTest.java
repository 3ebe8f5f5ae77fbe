package org.shepherd.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.shepherd.server.ServerTestSupport.PASSWORD;
import static org.shepherd.server.ServerTestSupport.USER;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code client.dialect=postgresql} through the real driver and server, over three Derby replicas: the application writes
 * PostgreSQL's SQL and reads PostgreSQL's labels, and the driver describes that dialect.
 */
class ClientDialectEndToEndTest {

    @Test
    void anApplicationWritingPostgresqlRunsOverDerbyReplicas(@TempDir Path dir) throws Exception {
        Map<String, String> m = new HashMap<>();
        m.put("mode", "cbs");
        m.put("f", "1");
        m.put("data.dir", dir.resolve("data").toString());
        m.put("client.dialect", "postgresql");
        m.remove("replica.r1.url");
        try (ShepherdServer server = ShepherdServer.create(ServerTestSupport.config(withReplicas(m)))) {
            server.start();
            String url = server.jdbcUrl("shepherd") + "?user=" + USER + "&password=" + PASSWORD;
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                DatabaseMetaData md = c.getMetaData();
                assertThat(md.storesLowerCaseIdentifiers()).as("PostgreSQL's folding").isTrue();
                assertThat(md.getIdentifierQuoteString()).isEqualTo("\"");
                s.executeUpdate("CREATE TABLE pets (id INTEGER PRIMARY KEY, name VARCHAR(20), owner VARCHAR(20))");
                s.executeUpdate("INSERT INTO pets (id, name, owner) VALUES (1, 'Rex', NULL), (2, 'rita', 'Ann')");
                try (ResultSet rs = s.executeQuery("SELECT count(*), max(id) FROM pets")) {
                    assertThat(rs.getMetaData().getColumnLabel(1)).isEqualToIgnoringCase("count");
                    rs.next();
                    assertThat(rs.getLong("count")).isEqualTo(2);
                    assertThat(rs.getLong("max")).isEqualTo(2);
                }
                // a PostgreSQL application's table: SERIAL, TEXT, BOOLEAN, DEFAULT now(), RETURNING
                s.executeUpdate("CREATE TABLE todo (id SERIAL PRIMARY KEY, title TEXT NOT NULL, done BOOLEAN NOT NULL DEFAULT false,"
                        + " created TIMESTAMP NOT NULL DEFAULT now())");
                try (ResultSet rs = s.executeQuery("INSERT INTO todo (title) VALUES ('Walk Rex') RETURNING id")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(1);
                }
                s.executeUpdate("INSERT INTO todo (title, done) VALUES ('feed rita', true)");
                assertThat(s.executeUpdate("UPDATE todo SET done = NOT done WHERE title ILIKE 'walk%'")).isEqualTo(1);
                try (ResultSet rs = s.executeQuery("SELECT id, done, created <= now() FROM todo WHERE done ORDER BY id")) {
                    assertThat(rs.getMetaData().getColumnLabel(3)).isEqualTo("?column?");
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong("id")).isEqualTo(1);
                    assertThat(rs.getBoolean("done")).isTrue();
                    assertThat(rs.getBoolean(3)).isTrue();
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.next()).isFalse();
                }
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT CONCAT(name, ' of ', owner) AS who FROM pets WHERE name ILIKE ? ORDER BY id LIMIT 5")) {
                    ps.setString(1, "r%");
                    try (ResultSet rs = ps.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getString(1)).as("CONCAT skips the NULL").isEqualTo("Rex of ");
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getString(1)).isEqualTo("rita of Ann");
                        assertThat(rs.next()).isFalse();
                    }
                }
            }
        }
    }

    /** Three in-memory Derby replicas of their own. */
    private static Map<String, String> withReplicas(Map<String, String> m) {
        String base = "jdbc:derby:memory:clientdialect" + System.nanoTime();
        for (String r : new String[] {"r1", "r2", "r3"}) m.put("replica." + r + ".url", base + r + ";create=true");
        return m;
    }
}
