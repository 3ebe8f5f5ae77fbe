package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Types;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.shepherd.protocol.Param;
import org.shepherd.translator.dialect.Dialect;

class FractionalSecondsTest {

    private static final LocalDateTime AT = LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_556_789);

    @Test
    void aClientWhoseEngineRoundsGetsRoundedDigitsTheOthersTruncatedOnes() {
        assertThat(FractionalSeconds.cut(AT, 6, true)).isEqualTo(AT.withNano(123_557_000));
        assertThat(FractionalSeconds.cut(AT, 6, false)).isEqualTo(AT.withNano(123_556_000));
        assertThat(FractionalSeconds.cut(AT, 3, true)).isEqualTo(AT.withNano(124_000_000));
        assertThat(FractionalSeconds.cut(AT, 3, false)).isEqualTo(AT.withNano(123_000_000));
        assertThat(FractionalSeconds.cut(AT, 0, true)).isEqualTo(AT.withNano(0));
        assertThat(FractionalSeconds.cut(AT.withNano(999_999_999), 0, true)).isEqualTo(AT.withNano(0).plusSeconds(1));
        OffsetDateTime zoned = AT.atOffset(ZoneOffset.ofHours(2));
        assertThat(FractionalSeconds.cut(zoned, 6, true)).isEqualTo(zoned.withNano(123_557_000));
        assertThat(FractionalSeconds.cut(LocalTime.of(10, 11, 12, 600_000_000), 0, true)).isEqualTo(LocalTime.of(10, 11, 13));
        assertThat(FractionalSeconds.cut(LocalTime.of(10, 11, 12, 600_000_000), 0, false)).isEqualTo(LocalTime.of(10, 11, 12));
        // a time of day does not round past midnight
        assertThat(FractionalSeconds.cut(LocalTime.of(23, 59, 59, 700_000_000), 0, true)).isEqualTo(LocalTime.of(23, 59, 59));
    }

    @Test
    void onlyTimeValuesWithMoreDigitsChangeAndTheListIsKeptOtherwise() {
        List<Param> cut = List.of(new Param(Types.BIGINT, 1L), new Param(Types.TIMESTAMP, AT.withNano(5_000)));
        assertThat(FractionalSeconds.cut(cut, null, Dialect.MARIADB)).isSameAs(cut);
        List<Param> params = List.of(new Param(Types.VARCHAR, "x"), new Param(Types.TIMESTAMP, AT));
        assertThat(FractionalSeconds.cut(params, null, Dialect.POSTGRESQL))
                .containsExactly(params.get(0), new Param(Types.TIMESTAMP, AT.withNano(123_557_000)));
        assertThat(FractionalSeconds.cut(params, null, Dialect.MARIADB))
                .containsExactly(params.get(0), new Param(Types.TIMESTAMP, AT.withNano(123_556_000)));
        assertThat(FractionalSeconds.cut(params, null, Dialect.MYSQL).get(1).value()).isEqualTo(AT.withNano(123_557_000));
        assertThat(FractionalSeconds.cut(params, null, Dialect.DERBY).get(1).value()).isEqualTo(AT.withNano(123_556_000));
    }
}
