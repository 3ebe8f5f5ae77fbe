package org.shepherd.vote;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Types;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class CanonicalValuesTest {

    @Test
    void exactNumbersCompareAsDecimalsRegardlessOfScale() {
        assertThat(CanonicalValues.of(new BigDecimal("1.50"), Types.DECIMAL))
                .isEqualTo(CanonicalValues.of(new BigDecimal("1.5"), Types.NUMERIC));
        assertThat(CanonicalValues.of(new BigDecimal("100"), Types.DECIMAL)).isEqualTo(CanonicalValues.of(100L, Types.BIGINT));
        assertThat(CanonicalValues.of(new BigDecimal("1E+2"), Types.DECIMAL)).isEqualTo(CanonicalValues.of(100L, Types.INTEGER));
        assertThat(CanonicalValues.of(new BigDecimal("0.000"), Types.DECIMAL)).isEqualTo(CanonicalValues.of(0L, Types.INTEGER));
        assertThat(CanonicalValues.of(new BigDecimal("1.51"), Types.DECIMAL))
                .isNotEqualTo(CanonicalValues.of(new BigDecimal("1.5"), Types.DECIMAL));
    }

    @Test
    void booleansAreTheExactNumbersOneAndZero() {
        assertThat(CanonicalValues.of(true, Types.BOOLEAN)).isEqualTo(CanonicalValues.of(1L, Types.TINYINT));
        assertThat(CanonicalValues.of(false, Types.BIT)).isEqualTo(CanonicalValues.of(0L, Types.TINYINT));
        assertThat(CanonicalValues.of(true, Types.BOOLEAN)).isNotEqualTo(CanonicalValues.of(0L, Types.TINYINT));
    }

    @Test
    void approximateNumbersAreRoundedToTwelveSignificantDigits() {
        assertThat(CanonicalValues.of(0.1 + 0.2, Types.DOUBLE)).isEqualTo(CanonicalValues.of(0.3, Types.DOUBLE));
        assertThat(CanonicalValues.of(1.0 / 3.0, Types.DOUBLE)).isEqualTo(CanonicalValues.of(0.333333333333333, Types.FLOAT));
        assertThat(CanonicalValues.of(-0.0, Types.DOUBLE)).isEqualTo(CanonicalValues.of(0.0, Types.DOUBLE));
        assertThat(CanonicalValues.of(1.0, Types.DOUBLE)).isNotEqualTo(CanonicalValues.of(1.000001, Types.DOUBLE));
        assertThat(CanonicalValues.of(Double.NaN, Types.DOUBLE)).isEqualTo("ANaN");
        assertThat(CanonicalValues.of(2.5, Types.DOUBLE)).isNotEqualTo(CanonicalValues.of(new BigDecimal("2.5"), Types.DECIMAL));
    }

    @Test
    void charColumnsLoseTrailingBlanksVarcharKeepsThem() {
        assertThat(CanonicalValues.of("ab   ", Types.CHAR)).isEqualTo(CanonicalValues.of("ab", Types.VARCHAR));
        assertThat(CanonicalValues.of("ab   ", Types.NCHAR)).isEqualTo(CanonicalValues.of("ab", Types.CHAR));
        assertThat(CanonicalValues.of("ab ", Types.VARCHAR)).isNotEqualTo(CanonicalValues.of("ab", Types.VARCHAR));
        assertThat(CanonicalValues.of(" ab", Types.CHAR)).isNotEqualTo(CanonicalValues.of("ab", Types.CHAR));
        assertThat(CanonicalValues.of("Ab", Types.VARCHAR)).isNotEqualTo(CanonicalValues.of("ab", Types.VARCHAR));
    }

    @Test
    void timestampsCompareAtMicrosecondPrecision() {
        LocalDateTime t = LocalDateTime.of(2026, 1, 2, 3, 4, 5, 123_456_000);
        assertThat(CanonicalValues.of(t.plusNanos(789), Types.TIMESTAMP)).isEqualTo(CanonicalValues.of(t, Types.TIMESTAMP));
        assertThat(CanonicalValues.of(t.plusNanos(1000), Types.TIMESTAMP)).isNotEqualTo(CanonicalValues.of(t, Types.TIMESTAMP));
        LocalTime lt = LocalTime.of(1, 2, 3, 5_000_100);
        assertThat(CanonicalValues.of(lt, Types.TIME)).isEqualTo(CanonicalValues.of(LocalTime.of(1, 2, 3, 5_000_000), Types.TIME));
        OffsetDateTime a = OffsetDateTime.of(t, ZoneOffset.ofHours(2));
        OffsetDateTime b = a.withOffsetSameInstant(ZoneOffset.UTC);
        assertThat(CanonicalValues.of(a, Types.TIMESTAMP_WITH_TIMEZONE)).isEqualTo(CanonicalValues.of(b, Types.TIMESTAMP_WITH_TIMEZONE));
    }

    @Test
    void columnLabelsAreCaseInsensitive() {
        assertThat(CanonicalValues.label("Balance")).isEqualTo(CanonicalValues.label("BALANCE"));
    }

    @Test
    void nullsAndBytesHaveTheirOwnForms() {
        assertThat(CanonicalValues.of(null, Types.INTEGER)).isEqualTo(CanonicalValues.of(null, Types.VARCHAR));
        assertThat(CanonicalValues.of(null, Types.INTEGER)).isNotEqualTo(CanonicalValues.of("N", Types.VARCHAR));
        assertThat(CanonicalValues.of(new byte[] {1, 2}, Types.VARBINARY)).isEqualTo(CanonicalValues.of(new byte[] {1, 2}, Types.BLOB));
    }

    @Test
    void typeFamiliesGroupWhatEnginesReportDifferently() {
        assertThat(TypeFamily.of(Types.INTEGER)).isEqualTo(TypeFamily.of(Types.BIGINT)).isEqualTo(TypeFamily.of(Types.DECIMAL))
                .isEqualTo(TypeFamily.of(Types.BIT)).isEqualTo(TypeFamily.of(Types.BOOLEAN));
        assertThat(TypeFamily.of(Types.VARCHAR)).isEqualTo(TypeFamily.of(Types.CLOB)).isEqualTo(TypeFamily.of(Types.CHAR));
        assertThat(TypeFamily.of(Types.DOUBLE)).isEqualTo(TypeFamily.of(Types.REAL)).isNotEqualTo(TypeFamily.of(Types.DECIMAL));
        assertThat(TypeFamily.of(Types.TIMESTAMP)).isNotEqualTo(TypeFamily.of(Types.DATE));
    }
}
