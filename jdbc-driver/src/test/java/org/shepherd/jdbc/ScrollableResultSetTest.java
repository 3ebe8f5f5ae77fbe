package org.shepherd.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * TYPE_SCROLL_INSENSITIVE result sets (read whole by the driver), over a real embedded Derby behind the protocol, with
 * a fetch size smaller than the result; and what JDBC asks of a driver given a type or concurrency it cannot give.
 */
class ScrollableResultSetTest {

    private static final String DERBY = "jdbc:derby:memory:scrollable;create=true";

    static {
        System.setProperty("derby.stream.error.file", "target/derby.log");
    }

    private DerbyBehindScriptedServer derby;
    private ScriptedServer server;
    private Connection c;

    @BeforeEach
    void start() throws Exception {
        derby = new DerbyBehindScriptedServer(DERBY);
        server = new ScriptedServer(derby);
        c = DriverManager.getConnection(server.url() + "&fetchSize=2");
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
            s.executeUpdate("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')");
        }
    }

    @AfterEach
    void stop() throws Exception {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("DROP TABLE t");
        } finally {
            c.close();
            server.close();
            derby.close();
        }
    }

    @Test
    void movesInEveryDirection() throws SQLException {
        try (Statement s = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY);
                ResultSet rs = s.executeQuery("SELECT id, v FROM t ORDER BY id")) {
            assertThat(s.getResultSetType()).isEqualTo(ResultSet.TYPE_SCROLL_INSENSITIVE);
            assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_SCROLL_INSENSITIVE);
            assertThat(rs.isBeforeFirst()).isTrue();
            assertThat(rs.last()).isTrue();
            assertThat(rs.getRow()).isEqualTo(5);
            assertThat(rs.isLast()).isTrue();
            assertThat(rs.getString("v")).isEqualTo("e");
            assertThat(rs.previous()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(4);
            assertThat(rs.absolute(2)).isTrue();
            assertThat(rs.getString(2)).isEqualTo("b");
            assertThat(rs.absolute(-1)).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(5);
            assertThat(rs.relative(-3)).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(2);
            assertThat(rs.relative(10)).isFalse();
            assertThat(rs.isAfterLast()).isTrue();
            assertThat(rs.getRow()).isZero();
            assertThatThrownBy(() -> rs.getInt(1)).isInstanceOf(SQLException.class);
            assertThat(rs.first()).isTrue();
            assertThat(rs.isFirst()).isTrue();
            assertThat(rs.previous()).isFalse();
            assertThat(rs.isBeforeFirst()).isTrue();
            int read = 0;
            while (rs.next()) read++;
            assertThat(read).isEqualTo(5);
            rs.beforeFirst();
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(1);
            rs.afterLast();
            assertThat(rs.previous()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(5);
            assertThat(rs.absolute(0)).isFalse();
            assertThat(rs.isBeforeFirst()).isTrue();
            assertThat(rs.absolute(-9)).isFalse();
            assertThat(rs.isBeforeFirst()).isTrue();
        }
    }

    @Test
    void aPreparedStatementsResultScrollsAndOtherStatementsRunMeanwhile() throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT v FROM t WHERE id > ? ORDER BY id", ResultSet.TYPE_SCROLL_INSENSITIVE,
                ResultSet.CONCUR_READ_ONLY)) {
            ps.setInt(1, 2);
            try (ResultSet rs = ps.executeQuery()) {
                try (Statement other = c.createStatement()) {
                    assertThat(other.executeUpdate("DELETE FROM t WHERE id = 5")).isEqualTo(1);
                }
                assertThat(rs.last()).isTrue();
                assertThat(rs.getString(1)).as("insensitive: read before the DELETE").isEqualTo("e");
                assertThat(rs.getRow()).isEqualTo(3);
            }
        }
        try (Statement s = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY);
                ResultSet empty = s.executeQuery("SELECT v FROM t WHERE id > 100")) {
            assertThat(empty.isBeforeFirst()).isFalse();
            assertThat(empty.last()).isFalse();
            assertThat(empty.first()).isFalse();
            assertThat(empty.isAfterLast()).isFalse();
        }
    }

    @Test
    void aForwardOnlyResultRefusesToScroll() throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM t ORDER BY id")) {
            assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
            assertThatThrownBy(rs::last).isInstanceOf(SQLException.class).hasMessageContaining("TYPE_SCROLL_INSENSITIVE")
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("24000");
            assertThatThrownBy(rs::previous).isInstanceOf(SQLException.class);
        }
    }

    @Test
    void whatCannotBeGivenIsDowngradedWithAWarning() throws SQLException {
        assertThat(c.getMetaData().supportsResultSetType(ResultSet.TYPE_SCROLL_INSENSITIVE)).isTrue();
        assertThat(c.getMetaData().supportsResultSetType(ResultSet.TYPE_SCROLL_SENSITIVE)).isFalse();
        assertThat(c.getMetaData().supportsResultSetConcurrency(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_UPDATABLE))
                .isFalse();
        c.clearWarnings();
        try (Statement s = c.createStatement(ResultSet.TYPE_SCROLL_SENSITIVE, ResultSet.CONCUR_UPDATABLE);
                ResultSet rs = s.executeQuery("SELECT id FROM t ORDER BY id")) {
            assertThat(s.getResultSetType()).isEqualTo(ResultSet.TYPE_SCROLL_INSENSITIVE);
            assertThat(s.getResultSetConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
            assertThat(rs.getConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
            assertThat(rs.last()).isTrue();
            assertThatThrownBy(() -> rs.updateInt(1, 9)).isInstanceOf(SQLException.class);
        }
        assertThat((Throwable) c.getWarnings()).isNotNull();
        assertThat(c.getWarnings().getMessage()).contains("TYPE_SCROLL_INSENSITIVE");
        assertThat(c.getWarnings().getNextWarning().getMessage()).contains("CONCUR_READ_ONLY");
        assertThatThrownBy(() -> c.createStatement(1234, ResultSet.CONCUR_READ_ONLY)).isInstanceOf(SQLException.class)
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("HY024");
    }
}
