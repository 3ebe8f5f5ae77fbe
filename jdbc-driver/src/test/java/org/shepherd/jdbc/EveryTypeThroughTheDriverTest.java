package org.shepherd.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every common type, bound through the driver, stored in a real (embedded Derby) database and read back exactly. */
class EveryTypeThroughTheDriverTest {

    private static final String DERBY = "jdbc:derby:memory:everytype;create=true";

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
        c = DriverManager.getConnection(server.url() + "&fetchSize=3");
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, i INT, b BIGINT, sm SMALLINT,"
                    + " d DECIMAL(20,4), db DOUBLE, r REAL, v VARCHAR(100), ch CHAR(5), bo BOOLEAN, dt DATE, tm TIME,"
                    + " ts TIMESTAMP, bin VARCHAR(16) FOR BIT DATA)");
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
    void everyCommonTypeRoundTripsExactly() throws Exception {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO t (i, b, sm, d, db, r, v, ch, bo, dt, tm, ts, bin)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            ps.setInt(1, Integer.MIN_VALUE);
            ps.setLong(2, Long.MAX_VALUE);
            ps.setShort(3, (short) -7);
            ps.setBigDecimal(4, new BigDecimal("1234567890123456.0001"));
            ps.setDouble(5, Math.PI);
            ps.setFloat(6, 1.5f);
            ps.setString(7, "grüße, 世界");
            ps.setString(8, "ab");
            ps.setBoolean(9, true);
            ps.setDate(10, Date.valueOf("2026-11-21"));
            ps.setTime(11, Time.valueOf("23:59:58"));
            ps.setTimestamp(12, Timestamp.valueOf("2026-11-21 08:30:01.123456789"));
            ps.setBytes(13, new byte[] {0, 1, -1, 127});
            assertThat(ps.executeUpdate()).isEqualTo(1);
            try (ResultSet keys = ps.getGeneratedKeys()) {
                assertThat(keys.next()).isTrue();
                assertThat(keys.getInt(1)).isEqualTo(1);
            }
            for (int i = 1; i <= 13; i++) ps.setNull(i, Types.NULL);
            ps.setNull(1, Types.INTEGER);
            ps.setObject(2, 5L);
            ps.setObject(10, LocalDate.of(1999, 12, 31));
            ps.setObject(11, LocalTime.of(0, 0, 1));
            ps.setObject(12, LocalDateTime.of(2000, 2, 29, 12, 0));
            ps.setObject(4, "0.5", Types.DECIMAL);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }

        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM t ORDER BY id")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("I")).isEqualTo(Integer.MIN_VALUE);
            assertThat(rs.getObject("i")).isEqualTo(Integer.MIN_VALUE);
            assertThat(rs.getLong("b")).isEqualTo(Long.MAX_VALUE);
            assertThat(rs.getShort("sm")).isEqualTo((short) -7);
            assertThat(rs.getBigDecimal("d")).isEqualTo(new BigDecimal("1234567890123456.0001"));
            assertThat(rs.getString("d")).isEqualTo("1234567890123456.0001");
            assertThat(rs.getDouble("db")).isEqualTo(Math.PI);
            assertThat(rs.getFloat("r")).isEqualTo(1.5f);
            assertThat(rs.getObject("r")).isEqualTo(1.5f);
            assertThat(rs.getString("v")).isEqualTo("grüße, 世界");
            assertThat(rs.getString("ch")).isEqualTo("ab   ");
            assertThat(rs.getBoolean("bo")).isTrue();
            assertThat(rs.getDate("dt")).isEqualTo(Date.valueOf("2026-11-21"));
            assertThat(rs.getObject("dt", LocalDate.class)).isEqualTo(LocalDate.of(2026, 11, 21));
            assertThat(rs.getTime("tm")).isEqualTo(Time.valueOf("23:59:58"));
            assertThat(rs.getTimestamp("ts")).isEqualTo(Timestamp.valueOf("2026-11-21 08:30:01.123456789"));
            assertThat(rs.getObject("ts", LocalDateTime.class)).isEqualTo(LocalDateTime.of(2026, 11, 21, 8, 30, 1, 123456789));
            assertThat(rs.getBytes("bin")).containsExactly(0, 1, -1, 127);
            assertThat(rs.getMetaData().getColumnType(5)).isEqualTo(Types.DECIMAL);
            assertThat(rs.getMetaData().getScale(5)).isEqualTo(4);

            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("i")).isZero();
            assertThat(rs.wasNull()).isTrue();
            assertThat(rs.getObject("v")).isNull();
            assertThat(rs.getLong("b")).isEqualTo(5L);
            assertThat(rs.getBigDecimal("d")).isEqualTo(new BigDecimal("0.5000"));
            assertThat(rs.getObject("dt", LocalDate.class)).isEqualTo(LocalDate.of(1999, 12, 31));
            assertThat(rs.getObject("tm", LocalTime.class)).isEqualTo(LocalTime.of(0, 0, 1));
            assertThat(rs.getTimestamp("ts")).isEqualTo(Timestamp.valueOf("2000-02-29 12:00:00"));
            assertThat(rs.getBytes("bin")).isNull();
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void largeObjectsRoundTripThroughBlobClobAndTheirStreams() throws Exception {
        byte[] image = new byte[300_000];
        new java.util.Random(7).nextBytes(image);
        String essay = "Ünïcödé ✓ ".repeat(20_000);
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE lobs (id INT PRIMARY KEY, b BLOB(1M), cl CLOB(1M))");
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO lobs VALUES (?, ?, ?)")) {
            Blob blob = c.createBlob();
            try (java.io.OutputStream out = blob.setBinaryStream(1)) {
                out.write(image);
            }
            Clob clob = c.createClob();
            clob.setString(1, essay);
            ps.setInt(1, 1);
            ps.setBlob(2, blob);
            ps.setClob(3, clob);
            blob.setBytes(1, new byte[] {1, 2, 3}); // bound already: the parameter keeps the value it had
            clob.truncate(0);
            ps.executeUpdate();
            ps.setInt(1, 2);
            ps.setBlob(2, new java.io.ByteArrayInputStream(image), image.length);
            ps.setNClob(3, new java.io.StringReader(essay));
            ps.executeUpdate();
            ps.setInt(1, 3);
            ps.setObject(2, new ShepherdBlob(image));
            ps.setObject(3, c.createNClob());
            ps.executeUpdate();
            ps.setInt(1, 4);
            ps.setBlob(2, (Blob) null);
            ps.setClob(3, (Clob) null);
            ps.executeUpdate();
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, b, cl FROM lobs ORDER BY id")) {
            for (int id = 1; id <= 3; id++) {
                assertThat(rs.next()).isTrue();
                Blob b = rs.getBlob("b");
                assertThat(b.length()).as("row %d", id).isEqualTo(image.length);
                assertThat(b.getBytes(1, image.length)).as("row %d", id).isEqualTo(image);
                assertThat(rs.getObject(2, Blob.class).getBytes(1, 10)).isEqualTo(java.util.Arrays.copyOf(image, 10));
                String expected = id == 3 ? "" : essay;
                assertThat(rs.getClob(3).getSubString(1, essay.length())).as("row %d", id).isEqualTo(expected);
                assertThat(rs.getNClob("cl").length()).isEqualTo(expected.length());
            }
            assertThat(rs.next()).isTrue();
            assertThat(rs.getBlob(2)).isNull();
            assertThat(rs.getClob(3)).isNull();
            assertThat(rs.getNClob(3)).isNull();
        } finally {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("DROP TABLE lobs");
            }
        }
    }

    @Test
    void transactionsCommitAndRollBackOnTheDatabase() throws Exception {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO t (i) VALUES (1)");
            c.rollback();
            s.executeUpdate("INSERT INTO t (i) VALUES (2)");
            c.commit();
            try (ResultSet rs = s.executeQuery("SELECT i FROM t")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(2);
                assertThat(rs.next()).isFalse();
            }
        } finally {
            c.setAutoCommit(true);
        }
    }

    @Test
    void aDatabaseErrorArrivesWithItsSqlState() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.createStatement().executeQuery("SELECT nope FROM t"))
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42X04"));
    }
}
