package org.shepherd.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.List;

/**
 * What every mode does with session statements, checked through the JDBC driver on two sessions of one shepherd whose
 * replicas are Derby: the settings the shepherd guarantees anyway are answered, the rest (and temporary tables) refused
 * with 0A000, and none reaches a pooled replica connection (where it would outlive the transaction and reach the other
 * session).
 */
public final class SessionSettingsContract {

    private SessionSettingsContract() {
    }

    /**
     * @param keepsSchema the mode keeps a session's schema (cbs, ss, serial: SET SCHEMA names it in the session's
     *     statements); else SET SCHEMA is refused like the other settings (passthrough)
     */
    public static void holds(Connection a, Connection b, boolean keepsSchema) throws SQLException {
        try (Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            sa.executeUpdate("CREATE TABLE session_kv (k INT PRIMARY KEY)");

            assertThat(sa.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")).isFalse();
            SQLWarning upgraded = sa.getWarnings();
            assertThat((Object) upgraded).as("a weaker isolation level is answered with a warning").isNotNull();
            assertThat(upgraded.getSQLState()).isEqualTo("01000");
            assertThat(upgraded.getMessage()).contains("SERIALIZABLE");
            sa.clearWarnings();
            for (String sql : List.of("SET ISOLATION = RR", "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE",
                    "SET NAMES utf8mb4", "SET client_encoding TO 'UTF8';")) {
                assertThat(sa.executeUpdate(sql)).as(sql).isZero();
                assertThat((Object) sa.getWarnings()).as(sql).isNull();
            }
            assertThat(sa.executeUpdate("set client_min_messages = WARNING")).isZero();
            assertThat(sa.getWarnings().getMessage()).as("PostgreSQL's notice level: no notices reach the client")
                    .contains("has no effect through Shepherd");
            sa.clearWarnings();
            try (PreparedStatement ps = a.prepareStatement("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")) {
                assertThat(ps.executeUpdate()).isZero();
                assertThat(ps.getWarnings().getSQLState()).isEqualTo("01000");
            }

            // the session's time zone: the shepherd reads the clock in its own zone (the JVM's) for every session
            java.time.ZoneId own = java.time.ZoneId.systemDefault();
            String other = own.getRules().getOffset(java.time.Instant.now()).getTotalSeconds() == 14 * 3600 ? "+13:00" : "+14:00";
            List<String> ownZone = List.of("SET time_zone = 'SYSTEM'", "SET TIME ZONE LOCAL", "SET timezone TO DEFAULT",
                    "SET time_zone = '" + own.getId() + "'");
            List<String> otherZone = List.of("SET time_zone = '" + other + "'", "SET TIME ZONE INTERVAL '" + other
                    + "' HOUR TO MINUTE", "SET TIME ZONE '+02:00'");
            for (String sql : keepsSchema ? ownZone : List.<String>of()) {
                assertThat(sa.executeUpdate(sql)).as(sql).isZero();
            }
            for (String sql : keepsSchema ? otherZone : ownZone) {
                assertThatThrownBy(() -> sa.execute(sql)).as(sql).isInstanceOf(SQLException.class)
                        .hasFieldOrPropertyWithValue("SQLState", "0A000").hasMessageContaining("time zone");
            }

            List<String> schemaSettings = List.of("SET SCHEMA SYS", "SET CURRENT SCHEMA = SYS", "USE SYS");
            List<String> refused = new java.util.ArrayList<>(List.of("SET NAMES latin1", "SET TRANSACTION READ ONLY",
                    "LOCK TABLES session_kv WRITE",
                    "DECLARE GLOBAL TEMPORARY TABLE SESSION.tmp (a INT) ON COMMIT PRESERVE ROWS NOT LOGGED"));
            if (!keepsSchema) refused.addAll(schemaSettings);
            for (String sql : refused) {
                assertThatThrownBy(() -> sa.execute(sql)).as(sql).isInstanceOf(SQLException.class)
                        .hasFieldOrPropertyWithValue("SQLState", "0A000");
            }
            // had SET SCHEMA reached a replica connection, one of the sessions would now look for SYS.SESSION_KV
            for (int i = 0; i < 3; i++) {
                assertThat(count(sa)).isZero();
                assertThat(count(sb)).isZero();
            }
            if (keepsSchema) {
                for (String sql : schemaSettings) {
                    assertThat(sa.executeUpdate(sql)).as(sql).isZero();
                    assertThatThrownBy(() -> count(sa)).as("SYS.SESSION_KV, after " + sql).isInstanceOf(SQLException.class);
                    assertThat(count(sb)).as("the other session keeps its schema").isZero();
                    sa.execute("SET SCHEMA DEFAULT");
                    assertThat(count(sa)).isZero();
                }
                assertThatThrownBy(() -> sa.execute("SET SCHEMA no_such_schema")).isInstanceOf(SQLException.class)
                        .hasFieldOrPropertyWithValue("SQLState", "3F000");
            }

            sa.addBatch("INSERT INTO session_kv VALUES (1)");
            sa.addBatch("SET SCHEMA SYS");
            assertThatThrownBy(sa::executeBatch).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
            assertThat(count(sb)).as("nothing of the refused batch ran").isZero();

            // SET autocommit as SQL is the driver's setAutoCommit: the connection's mode stays what it says
            assertThat(sa.executeUpdate("SET autocommit = 0")).isZero();
            assertThat(a.getAutoCommit()).isFalse();
            sa.executeUpdate("INSERT INTO session_kv VALUES (9)");
            a.rollback();
            assertThat(sa.execute("SET AUTOCOMMIT TRUE")).isFalse();
            assertThat(a.getAutoCommit()).isTrue();
            assertThat(count(sb)).as("rolled back").isZero();

            a.setAutoCommit(false);
            sa.executeUpdate("INSERT INTO session_kv VALUES (2)");
            sa.execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE"); // inside a transaction: changes nothing
            sa.executeUpdate("INSERT INTO session_kv VALUES (3)");
            a.commit();
            a.setAutoCommit(true);
            assertThat(count(sb)).isEqualTo(2);

            // a read-only connection reads and refuses changes (class 25), as the databases do; the other session writes
            a.setReadOnly(true);
            assertThat(a.isReadOnly()).isTrue();
            assertThat(count(sa)).isEqualTo(2);
            for (String change : List.of("INSERT INTO session_kv VALUES (4)", "DELETE FROM session_kv",
                    "CREATE TABLE session_kv2 (k INT)")) {
                assertThatThrownBy(() -> sa.executeUpdate(change)).as(change).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("25"));
            }
            sa.addBatch("INSERT INTO session_kv VALUES (5)");
            assertThatThrownBy(sa::executeBatch).isInstanceOf(SQLException.class);
            sa.clearBatch();
            assertThat(sb.executeUpdate("INSERT INTO session_kv VALUES (6)")).isEqualTo(1);
            a.setReadOnly(false);
            assertThat(sa.executeUpdate("DELETE FROM session_kv WHERE k = 6")).isEqualTo(1);
            assertThat(count(sb)).as("nothing the read-only session tried changed a row").isEqualTo(2);
        }
    }

    private static int count(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM session_kv")) {
            assertThat(rs.next()).isTrue();
            return rs.getInt(1);
        }
    }
}
