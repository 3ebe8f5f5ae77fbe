package org.shepherd.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.replica.QueryTimeouts;

/**
 * A statement that runs past its query timeout fails at the client with SQLState 57014, whatever the replica's
 * vendor calls it (Derby: XCL52). The query is a 10^10-row cross join, which never finishes on its own.
 */
class QueryTimeoutSqlStateTest {

    private static final String NEVER_ENDING = "SELECT COUNT(*) FROM digits a, digits b, digits c, digits d, digits e, "
            + "digits f, digits g, digits h, digits i, digits j";

    @Test
    void derbyQueryTimeoutIsRecognised() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:derby:memory:timeout-direct;create=true");
             Statement st = c.createStatement()) {
            createDigits(st);
            st.setQueryTimeout(1);
            assertThatThrownBy(() -> st.executeQuery(NEVER_ENDING).next()).isInstanceOfSatisfying(SQLException.class, e -> {
                assertThat(e.getSQLState()).isEqualTo("XCL52");
                assertThat(QueryTimeouts.isQueryTimeout(e)).isTrue();
                assertThat(QueryTimeouts.clientSqlState(e)).isEqualTo("57014");
            });
            SQLException other = new SQLException("syntax", "42X01");
            assertThat(QueryTimeouts.clientSqlState(other)).isEqualTo("42X01");
        }
    }

    @Test
    void passthroughReportsA57014() throws Exception {
        assertClientSees57014(ServerTestSupport.config(Map.of()));
    }

    @Test
    void cbsAutocommitReportsA57014(@TempDir Path dir) throws Exception {
        Map<String, String> m = new HashMap<>();
        m.put("mode", "cbs");
        m.put("f", "1");
        m.put("data.dir", dir.toString());
        for (String r : new String[] {"r1", "r2", "r3"}) {
            m.put("replica." + r + ".url", "jdbc:derby:memory:timeout-cbs-" + r + ";create=true");
        }
        assertClientSees57014(ServerTestSupport.config(m));
    }

    private static void assertClientSees57014(ShepherdConfig config) throws Exception {
        try (ShepherdServer server = ShepherdServer.create(config)) {
            int port = server.start().getPort();
            String url = "jdbc:shepherd://127.0.0.1:" + port + "/shepherd?user=" + ServerTestSupport.USER + "&password="
                    + ServerTestSupport.PASSWORD;
            try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
                createDigits(st);
                st.setQueryTimeout(1);
                assertThatThrownBy(() -> st.executeQuery(NEVER_ENDING).next()).isInstanceOfSatisfying(SQLException.class,
                        e -> assertThat(e.getSQLState()).as("%s", e.getMessage()).isEqualTo("57014"));
                st.setQueryTimeout(0);
                assertThat(st.executeQuery("SELECT COUNT(*) FROM digits").next()).as("session still usable").isTrue();
            }
        }
    }

    private static void createDigits(Statement st) throws SQLException {
        st.executeUpdate("CREATE TABLE digits (d INT)");
        st.executeUpdate("INSERT INTO digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)");
    }
}
