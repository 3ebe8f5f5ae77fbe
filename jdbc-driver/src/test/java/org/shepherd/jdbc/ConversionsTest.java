package org.shepherd.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;

class ConversionsTest {

    @Test
    void stringsOfEveryValueType() {
        assertThat(Conversions.toStringValue(42L)).isEqualTo("42");
        assertThat(Conversions.toStringValue(new BigDecimal("1E+3"))).isEqualTo("1000");
        assertThat(Conversions.toStringValue(new BigDecimal("12.500"))).isEqualTo("12.500");
        assertThat(Conversions.toStringValue(true)).isEqualTo("true");
        assertThat(Conversions.toStringValue(1.5d)).isEqualTo("1.5");
        assertThat(Conversions.toStringValue(new byte[] {0x0a, (byte) 0xff})).isEqualTo("0aff");
        assertThat(Conversions.toStringValue(LocalDate.of(2026, 1, 2))).isEqualTo("2026-01-02");
        assertThat(Conversions.toStringValue(LocalTime.of(8, 0))).isEqualTo("08:00:00");
        assertThat(Conversions.toStringValue(LocalTime.of(8, 0, 1, 500_000_000))).isEqualTo("08:00:01.5");
        assertThat(Conversions.toStringValue(LocalDateTime.of(2026, 1, 2, 3, 4, 5, 6000)))
                .isEqualTo("2026-01-02 03:04:05.000006");
        assertThat(Conversions.toStringValue(OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC)))
                .isEqualTo("2026-01-02 03:04:05.0+00:00");
        assertThat(Conversions.toStringValue(null)).isNull();
    }

    @Test
    void integersFromNumbersAndStringsWithRangeChecks() throws SQLException {
        assertThat(Conversions.toLong("  42 ", Integer.MIN_VALUE, Integer.MAX_VALUE, "int")).isEqualTo(42);
        assertThat(Conversions.toLong("12.9", Integer.MIN_VALUE, Integer.MAX_VALUE, "int")).isEqualTo(12);
        assertThat(Conversions.toLong(new BigDecimal("-7.9"), Long.MIN_VALUE, Long.MAX_VALUE, "long")).isEqualTo(-7);
        assertThat(Conversions.toLong(3.99d, Long.MIN_VALUE, Long.MAX_VALUE, "long")).isEqualTo(3);
        assertThat(Conversions.toLong(true, 0, 1, "byte")).isEqualTo(1);
        assertThat(Conversions.toLong(null, 0, 1, "int")).isZero();
        assertThatThrownBy(() -> Conversions.toLong(300L, Byte.MIN_VALUE, Byte.MAX_VALUE, "byte"))
                .isInstanceOf(SQLException.class).hasMessageContaining("out of range")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22003"));
        assertThatThrownBy(() -> Conversions.toLong("abc", Long.MIN_VALUE, Long.MAX_VALUE, "long"))
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22018"));
        assertThatThrownBy(() -> Conversions.toLong(LocalDate.EPOCH, Long.MIN_VALUE, Long.MAX_VALUE, "long"))
                .hasMessageContaining("DATE");
        assertThatThrownBy(() -> Conversions.toLong(1e30, Long.MIN_VALUE, Long.MAX_VALUE, "long"))
                .hasMessageContaining("out of range");
    }

    @Test
    void booleansDecimalsAndDoubles() throws SQLException {
        assertThat(Conversions.toBoolean("TRUE")).isTrue();
        assertThat(Conversions.toBoolean("0")).isFalse();
        assertThat(Conversions.toBoolean(2L)).isTrue();
        assertThatThrownBy(() -> Conversions.toBoolean("maybe")).isInstanceOf(SQLException.class);
        assertThat(Conversions.toBigDecimal("3.14")).isEqualByComparingTo("3.14");
        assertThat(Conversions.toBigDecimal(5L)).isEqualByComparingTo("5");
        assertThat(Conversions.toBigDecimal(0.1d)).isEqualByComparingTo("0.1");
        assertThat(Conversions.toDouble("2.5", "double")).isEqualTo(2.5);
        assertThat(Conversions.toDouble(new BigDecimal("0.25"), "double")).isEqualTo(0.25);
        assertThatThrownBy(() -> Conversions.toBytes("abc")).isInstanceOf(SQLException.class);
    }

    @Test
    void datesTimesAndTimestamps() throws SQLException {
        LocalDateTime ldt = LocalDateTime.of(2026, 11, 21, 8, 30, 1, 123_456_789);
        assertThat(Conversions.toTimestamp(ldt, null)).isEqualTo(Timestamp.valueOf(ldt));
        assertThat(Conversions.toTimestamp(ldt, null).getNanos()).isEqualTo(123_456_789);
        assertThat(Conversions.toDate(ldt, null)).isEqualTo(Date.valueOf(LocalDate.of(2026, 11, 21)));
        assertThat(Conversions.toDate("2026-11-21", null)).isEqualTo(Date.valueOf("2026-11-21"));
        assertThat(Conversions.toTimestamp("2026-11-21 08:30:01.5", null))
                .isEqualTo(Timestamp.valueOf("2026-11-21 08:30:01.5"));
        Time t = Conversions.toTime(LocalTime.of(10, 11, 12, 345_000_000), null);
        assertThat(t.toString()).isEqualTo("10:11:12");
        assertThat(Conversions.toLocalTime(t, null)).isEqualTo(LocalTime.of(10, 11, 12, 345_000_000));

        Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
        assertThat(Conversions.toTimestamp(LocalDateTime.of(1970, 1, 1, 0, 0, 1), utc).getTime()).isEqualTo(1000);
        assertThat(Conversions.toDate(LocalDate.of(1970, 1, 2), utc).getTime()).isEqualTo(86_400_000L);
        OffsetDateTime odt = OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.ofHours(2));
        assertThat(Conversions.toTimestamp(odt, null).toInstant()).isEqualTo(odt.toInstant());
    }

    @Test
    void getObjectWithClass() throws SQLException {
        assertThat(Conversions.toObject(5L, Integer.class)).isEqualTo(5);
        assertThat(Conversions.toObject("5", Long.class)).isEqualTo(5L);
        assertThat(Conversions.toObject(new BigDecimal("5.7"), BigInteger.class)).isEqualTo(BigInteger.valueOf(5));
        assertThat(Conversions.toObject(LocalDate.of(2026, 1, 2), LocalDate.class)).isEqualTo(LocalDate.of(2026, 1, 2));
        assertThat(Conversions.toObject(LocalDateTime.of(2026, 1, 2, 3, 4), LocalDate.class))
                .isEqualTo(LocalDate.of(2026, 1, 2));
        assertThat(Conversions.toObject("2026-01-02T03:04:05Z", Instant.class))
                .isEqualTo(Instant.parse("2026-01-02T03:04:05Z"));
        assertThat(Conversions.toObject(null, String.class)).isNull();
        assertThatThrownBy(() -> Conversions.toObject(null, int.class)).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> Conversions.toObject(1L, StringBuilder.class))
                .isInstanceOf(java.sql.SQLFeatureNotSupportedException.class);
    }

    @Test
    void defaultObjectsFollowTheJdbcTypeMapping() throws SQLException {
        assertThat(Conversions.toDefaultObject(5L, Types.INTEGER)).isEqualTo(5);
        assertThat(Conversions.toDefaultObject(5L, Types.BIGINT)).isEqualTo(5L);
        assertThat(Conversions.toDefaultObject(1.5d, Types.REAL)).isEqualTo(1.5f);
        assertThat(Conversions.toDefaultObject(LocalDate.of(2026, 1, 2), Types.DATE)).isEqualTo(Date.valueOf("2026-01-02"));
        assertThat(Conversions.toDefaultObject(LocalDateTime.of(2026, 1, 2, 3, 4), Types.TIMESTAMP))
                .isEqualTo(Timestamp.valueOf("2026-01-02 03:04:00"));
    }

    @Test
    void javaObjectsBecomeProtocolValues() throws SQLException {
        assertThat(Conversions.fromJava(5)).isEqualTo(5L);
        assertThat(Conversions.fromJava(1.5f)).isEqualTo(1.5d);
        assertThat(Conversions.fromJava(BigInteger.TEN)).isEqualTo(BigDecimal.TEN);
        assertThat(Conversions.fromJava(Date.valueOf("2026-01-02"))).isEqualTo(LocalDate.of(2026, 1, 2));
        assertThat(Conversions.fromJava(Timestamp.valueOf("2026-01-02 03:04:05.123456789")))
                .isEqualTo(LocalDateTime.of(2026, 1, 2, 3, 4, 5, 123_456_789));
        assertThat(Conversions.fromJava(Instant.EPOCH)).isEqualTo(OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
        assertThat(Conversions.toTarget("42", Types.INTEGER)).isEqualTo(42L);
        assertThat(Conversions.toTarget(7L, Types.VARCHAR)).isEqualTo("7");
        assertThat(Conversions.toTarget("2026-01-02", Types.DATE)).isEqualTo(LocalDate.of(2026, 1, 2));
        assertThatThrownBy(() -> Conversions.fromJava(new Object())).isInstanceOf(java.sql.SQLFeatureNotSupportedException.class);
    }
}
