package org.shepherd.orm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.shepherd.server.ShepherdServer;

/**
 * A database that already has a sequence (made before the shepherd was put in front of it, and drawn from) goes on
 * drawing from where it was through the shepherd: the first draw from a sequence the shepherd does not keep looks for it
 * in the primary's catalog (Derby's SYS.SYSSEQUENCES, HSQLDB's INFORMATION_SCHEMA.SEQUENCES, a MariaDB sequence's own
 * row), takes its definition and the value its next draw gives, and keeps it from then on; its values land equal on
 * every replica, whatever engine. A sequence the primary does not have either is still refused.
 */
class SequencesMadeBeforeTheShepherdTest {

    @RegisterExtension
    static final ShepherdOverReplicas REPLICAS = new ShepherdOverReplicas("seq");

    @Test
    void onDerby() throws Exception {
        adopted(REPLICAS.derbyReplicas("r1"), "VALUES NEXT VALUE FOR %s", "NEXT VALUE FOR %s");
    }

    @Test
    void onHsqldb() throws Exception {
        adopted(REPLICAS.hsqldbPrimary(), "VALUES NEXT VALUE FOR %s", "NEXT VALUE FOR %s");
    }

    @Test
    void onMariaDb() throws Exception {
        adopted(REPLICAS.mariadbPrimary(), "SELECT NEXTVAL(%s)", "NEXTVAL(%s)");
    }

    /**
     * Makes sequence {@code ticket} on the primary (r1) directly, START WITH 10 INCREMENT BY 5, draws 10 there, then
     * draws through a shepherd ({@code draw}: the query, {@code inInsert}: the expression, with %s for the name).
     */
    private static void adopted(Map<String, String> set, String draw, String inInsert) throws Exception {
        String url = set.get("replica.r1.url");
        try (Connection c = DriverManager.getConnection(url, set.getOrDefault("replica.r1.user", null),
                set.getOrDefault("replica.r1.password", "")); Statement s = c.createStatement()) {
            s.execute("CREATE SEQUENCE ticket START WITH 10 INCREMENT BY 5");
            assertThat(first(s, String.format(draw, "ticket"))).isEqualTo(10);
            if (!c.getAutoCommit()) c.commit();
        }
        try (ShepherdServer server = REPLICAS.start(set);
                Connection c = ShepherdOverReplicas.dataSource(server).getConnection(); Statement s = c.createStatement()) {
            assertThat(first(s, String.format(draw, "ticket"))).as("where the primary's sequence was").isEqualTo(15);
            assertThat(first(s, String.format(draw, "ticket"))).isEqualTo(20);
            s.execute("CREATE TABLE ticket_sold (id INT PRIMARY KEY, buyer VARCHAR(20))");
            assertThat(s.executeUpdate("INSERT INTO ticket_sold (id, buyer) VALUES (" + String.format(inInsert, "ticket")
                    + ", 'ada')")).isEqualTo(1);
            assertThat(first(s, "SELECT id FROM ticket_sold")).isEqualTo(25);
            assertThatThrownBy(() -> first(s, String.format(draw, "nowhere"))).isInstanceOf(SQLException.class)
                    .hasMessageContaining("does not exist");
            ShepherdOverReplicas.assertReplicasEqual(server, "ticket_sold");
            assertThat(Files.readString(server.config().dataDir().resolve("sequences.properties")))
                    .as("kept by the shepherd from now on").containsIgnoringCase("ticket=");
        }
    }

    private static long first(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }
}
