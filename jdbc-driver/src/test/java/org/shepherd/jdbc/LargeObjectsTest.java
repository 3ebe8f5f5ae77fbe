package org.shepherd.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** The in-memory Blob and Clob the driver returns and creates: JDBC's 1-based positions, growth, errors. */
class LargeObjectsTest {

    @Test
    void aBlobGrowsWhenWrittenAtItsEndAndIsOverwrittenInside() throws Exception {
        Blob b = new ShepherdBlob(new byte[0]);
        assertThat(b.length()).isZero();
        assertThat(b.setBytes(1, bytes("hello"))).isEqualTo(5);
        assertThat(b.setBytes(6, bytes(", world"))).isEqualTo(7);
        assertThat(b.setBytes(1, bytes("J"))).isEqualTo(1);
        assertThat(text(b.getBytes(1, 100))).isEqualTo("Jello, world");
        assertThat(text(b.getBytes(8, 5))).isEqualTo("world");
        assertThat(b.getBytes(13, 5)).isEmpty();
        assertThat(b.setBytes(3, bytes("xxLLOyy"), 2, 3)).isEqualTo(3);
        assertThat(text(b.getBytes(1, 12))).isEqualTo("JeLLO, world");
        assertThat(b.position(bytes("world"), 1)).isEqualTo(8);
        assertThat(b.position(bytes("world"), 9)).isEqualTo(-1);
        assertThat(b.position(new ShepherdBlob(bytes("LO")), 1)).isEqualTo(4);
        assertThat(text(b.getBinaryStream(8, 5).readAllBytes())).isEqualTo("world");
        b.truncate(5);
        assertThat(text(b.getBinaryStream().readAllBytes())).isEqualTo("JeLLO");
    }

    @Test
    void aBlobsOutputStreamWritesFromItsPosition() throws Exception {
        Blob b = new ShepherdBlob(bytes("abc"));
        try (OutputStream out = b.setBinaryStream(3)) {
            out.write('C');
            out.write(bytes("def"));
        }
        assertThat(text(b.getBytes(1, 10))).isEqualTo("abCdef");
        byte[] big = new byte[100_000];
        for (int i = 0; i < big.length; i++) big[i] = (byte) i;
        b.setBinaryStream(b.length() + 1).write(big);
        assertThat(b.length()).isEqualTo(100_006);
        assertThat(b.getBytes(7, big.length)).isEqualTo(big);
    }

    @Test
    void aBlobRefusesPositionsOutsideItAndUseAfterFree() throws Exception {
        Blob b = new ShepherdBlob(bytes("abc"));
        assertSqlState(() -> b.getBytes(0, 1), "22023");
        assertSqlState(() -> b.setBytes(5, bytes("x")), "22023");
        assertSqlState(() -> b.getBinaryStream(2, 3), "22023");
        assertSqlState(() -> b.truncate(4), "22023");
        assertSqlState(() -> b.setBytes(1, bytes("x"), 1, 1), "22023");
        b.free();
        assertSqlState(b::length, "HY010");
    }

    @Test
    void aClobGrowsWhenWrittenAtItsEndAndIsOverwrittenInside() throws Exception {
        Clob c = new ShepherdClob("");
        assertThat(c.setString(1, "grüße")).isEqualTo(5);
        assertThat(c.setString(6, " ✓ welt")).isEqualTo(7);
        assertThat(c.setString(1, "G")).isEqualTo(1);
        assertThat(c.getSubString(1, 100)).isEqualTo("Grüße ✓ welt");
        assertThat(c.getSubString(9, 4)).isEqualTo("welt");
        assertThat(c.position("welt", 1)).isEqualTo(9);
        assertThat(c.position(new ShepherdClob("ü"), 1)).isEqualTo(3);
        assertThat(c.position("welt", 10)).isEqualTo(-1);
        assertThat(c.getCharacterStream(7, 1).read()).isEqualTo('✓');
        try (Writer w = c.setCharacterStream(c.length() + 1)) {
            w.write("!");
            w.write(" ende");
        }
        assertThat(c.getSubString(1, 100)).isEqualTo("Grüße ✓ welt! ende");
        try (OutputStream out = c.setAsciiStream(1)) {
            out.write(bytes("gr"));
        }
        c.truncate(5);
        assertThat(new String(c.getAsciiStream().readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("gr??e");
        assertThat(c.length()).isEqualTo(5);
        assertSqlState(() -> c.setString(7, "x"), "22023");
        assertSqlState(() -> c.getSubString(1, -1), "22023");
        c.free();
        assertSqlState(() -> c.getSubString(1, 1), "HY010");
    }

    private static void assertSqlState(ThrowingCall call, String sqlState) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(SQLException.class,
                e -> assertThat(e.getSQLState()).as(e.getMessage()).isEqualTo(sqlState));
    }

    private interface ThrowingCall {
        void run() throws Exception;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
