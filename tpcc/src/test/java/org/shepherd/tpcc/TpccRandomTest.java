package org.shepherd.tpcc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class TpccRandomTest {

    @Test
    void lastNamesAreBuiltFromThreeSyllables() {
        assertThat(TpccRandom.lastName(0)).isEqualTo("BARBARBAR");
        assertThat(TpccRandom.lastName(371)).isEqualTo("PRICALLYOUGHT");
        assertThat(TpccRandom.lastName(999)).isEqualTo("EINGEINGEING");
    }

    @Test
    void nuRandStaysInRangeAndIsSkewed() {
        TpccRandom r = new TpccRandom(7, NuRandConstants.forRun(7));
        Scale scale = new Scale(1, false);
        int[] hits = new int[scale.customersPerDistrict() + 1];
        for (int i = 0; i < 100_000; i++) {
            int c = r.customerId(scale);
            assertThat(c).isBetween(1, scale.customersPerDistrict());
            hits[c]++;
        }
        int max = 0;
        for (int h : hits) max = Math.max(max, h);
        assertThat(max).as("a uniform draw would give about 33 hits per id").isGreaterThan(100);
    }

    @Test
    void runConstantForLastNamesDiffersFromTheLoadOneByAnAllowedDelta() {
        for (long seed = 0; seed < 500; seed++) {
            int delta = Math.abs(NuRandConstants.forRun(seed).cLast() - NuRandConstants.forLoad(seed).cLast());
            assertThat(delta).as("seed " + seed).isBetween(65, 119).isNotIn(96, 112);
            assertThat(NuRandConstants.forRun(seed).cLast()).isBetween(0, 255);
        }
    }

    @Test
    void sameSeedSameStream() {
        TpccRandom a = new TpccRandom(3, NuRandConstants.forRun(3));
        TpccRandom b = new TpccRandom(3, NuRandConstants.forRun(3));
        for (int i = 0; i < 100; i++) {
            TxType type = TxType.next(a);
            assertThat(TxType.next(b)).isEqualTo(type);
            assertThat(TxInput.draw(type, a, new Scale(4, true), 2, 5).toString())
                .isEqualTo(TxInput.draw(type, b, new Scale(4, true), 2, 5).toString());
        }
    }

    @Test
    void smallScaleIsOneSixthOfTheStandard() {
        Scale small = new Scale(1, true);
        assertThat(small.items()).isEqualTo(16_667);
        assertThat(small.customersPerDistrict()).isEqualTo(500);
        assertThat(small.newOrdersPerDistrict()).isEqualTo(150);
        assertThat(small.maxLastNameNumber()).isEqualTo(499);
        assertThat(new Scale(1, false).maxLastNameNumber()).isEqualTo(999);
    }

    @Test
    void canonicalNumbersIgnoreScale() {
        assertThat(Digest.canonicalNumber(new BigDecimal("10.00"))).isEqualTo("10");
        assertThat(Digest.canonicalNumber(new BigDecimal("0.000"))).isEqualTo("0");
        assertThat(Digest.canonicalNumber(new BigDecimal("-10.50"))).isEqualTo("-10.5");
        assertThat(Digest.canonicalNumber(new BigDecimal("300000"))).isEqualTo("300000");
    }

    @Test
    void dialectFollowsTheUrl() {
        assertThat(Dialect.fromUrl("jdbc:shepherd://127.0.0.1:7654/db")).isEqualTo(Dialect.PORTABLE);
        assertThat(Dialect.fromUrl("jdbc:mariadb://localhost/x")).isEqualTo(Dialect.MARIADB);
        assertThat(TpccSql.createSchema(Dialect.MARIADB).get(0)).endsWith("ENGINE=InnoDB");
        assertThat(TpccSql.createSchema(Dialect.PORTABLE)).noneMatch(s -> s.contains("ENGINE") || s.contains("DATETIME"));
        assertThat(TpccSql.TABLES).allSatisfy(t -> assertThat(TpccSql.selectAll(t)).contains(" ORDER BY "));
    }
}
