package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.ValueType;

class SpillingRowsTest {

    private static final long DISK_BYTES_MAX = 1L << 30;

    /** One column per non-null ValueType; NULL appears in every column of the odd rows. */
    private static final List<ColumnInfo> COLUMNS = List.of(
            column("b", Types.BOOLEAN), column("l", Types.BIGINT), column("d", Types.DECIMAL), column("f", Types.DOUBLE),
            column("s", Types.VARCHAR), column("y", Types.VARBINARY), column("dt", Types.DATE), column("t", Types.TIME),
            column("ts", Types.TIMESTAMP), column("tz", Types.TIMESTAMP_WITH_TIMEZONE));

    private static ColumnInfo column(String label, int jdbcType) {
        return new ColumnInfo(label, label, jdbcType, "", 0, 0, 1, "", false);
    }

    private static Object[] row(int i) {
        if (i % 2 == 1) return new Object[COLUMNS.size()];
        return new Object[] {
            i % 4 == 0, (long) i * 1_000_003L - 7, new BigDecimal("-12345678901234567890.0" + i), i / 3.0 - 1e300 * (i % 3),
            "zeile " + i + " \u00e4\u00df\u20ac\uD83D\uDE00", new byte[] {(byte) i, 0, (byte) 0xff},
            LocalDate.of(1999, 12, 31).plusDays(i), LocalTime.of(23, 59, 59, 999_999_999).minusNanos(i),
            LocalDateTime.of(2024, 2, 29, 12, 0).plusNanos(i * 1001L),
            OffsetDateTime.of(2026, 11, 21, 9, 30, 0, i, ZoneOffset.ofHoursMinutes(-9, -30))};
    }

    private static List<Object[]> readAll(SpillingRows rows, int batch) throws SQLException {
        List<Object[]> out = new ArrayList<>();
        while (!rows.exhausted()) out.addAll(rows.fetch(batch));
        return out;
    }

    @Test
    void rowsBeyondTheMemoryBoundGoToDiskAndComeBackExactlyInOrder(@TempDir Path dir) throws Exception {
        int n = 2_000;
        try (SpillSpace space = new SpillSpace(dir, DISK_BYTES_MAX)) {
            SpillingRows rows = new SpillingRows(space, COLUMNS, 10 * SpillingRows.estimatedHeapBytes(row(0)));
            for (int i = 0; i < n; i++) rows.add(row(i));
            rows.finishWriting();

            assertThat(rows.spilledRows()).isBetween((long) n - 20, (long) n - 5);
            assertThat(space.spillFiles()).containsExactly(rows.file());
            assertThat(space.reservedBytes()).isGreaterThanOrEqualTo(Files.size(rows.file()));

            List<Object[]> back = readAll(rows, 7);
            assertThat(back).hasSize(n);
            for (int i = 0; i < n; i++) assertThat(back.get(i)).as("row %d", i).isEqualTo(row(i));
            assertThat(space.spillFiles()).as("deleted once read to the end").isEmpty();
            assertThat(space.reservedBytes()).isZero();
            assertThat(rows.fetch(10)).isEmpty();
            rows.close();
        }
    }

    @Test
    void everyValueTypeSurvivesTheFile(@TempDir Path dir) throws Exception {
        try (SpillSpace space = new SpillSpace(dir, DISK_BYTES_MAX)) {
            SpillingRows rows = new SpillingRows(space, COLUMNS, 0);
            rows.add(row(0));
            rows.add(row(1));
            rows.finishWriting();
            assertThat(rows.spilledRows()).isEqualTo(2);
            List<Object[]> back = readAll(rows, 100);
            assertThat(back.get(0)).isEqualTo(row(0));
            assertThat(back.get(1)).containsOnlyNulls();
            List<ValueType> types = new ArrayList<>();
            for (Object v : back.get(0)) types.add(ValueType.of(v));
            List<ValueType> all = new ArrayList<>(List.of(ValueType.values()));
            all.remove(ValueType.NULL);
            assertThat(types).containsExactlyElementsOf(all);
        }
    }

    @Test
    void aSmallResultStaysInMemory(@TempDir Path dir) throws Exception {
        try (SpillSpace space = new SpillSpace(dir, DISK_BYTES_MAX)) {
            SpillingRows rows = new SpillingRows(space, COLUMNS, 1L << 20);
            for (int i = 0; i < 10; i++) rows.add(row(i));
            rows.finishWriting();
            assertThat(rows.spilledRows()).isZero();
            assertThat(space.spillFiles()).isEmpty();
            assertThat(readAll(rows, 3)).hasSize(10);
        }
    }

    @Test
    void closingBeforeTheEndDeletesTheFileAndReleasesTheDisk(@TempDir Path dir) throws Exception {
        try (SpillSpace space = new SpillSpace(dir, DISK_BYTES_MAX)) {
            SpillingRows rows = new SpillingRows(space, COLUMNS, 0);
            for (int i = 0; i < 100; i++) rows.add(row(i));
            rows.finishWriting();
            assertThat(rows.fetch(5)).hasSize(5);
            rows.close();
            assertThat(space.spillFiles()).isEmpty();
            assertThat(space.reservedBytes()).isZero();
            assertThatThrownBy(() -> rows.fetch(1)).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("24000"));
        }
    }

    @Test
    void theDiskBoundIsSharedAndFailsWith54000(@TempDir Path dir) throws Exception {
        long bound = 3 * SpillingRows.RESERVE_STEP_BYTES;
        try (SpillSpace space = new SpillSpace(dir, bound)) {
            SpillingRows first = new SpillingRows(space, COLUMNS, 0);
            Object[] big = {true, 1L, BigDecimal.ONE, 1.0, "x".repeat(100_000), new byte[0], null, null, null, null};
            for (int i = 0; i < 20; i++) first.add(big); // ~2 MB reserved
            SpillingRows second = new SpillingRows(space, COLUMNS, 0);
            assertThatThrownBy(() -> {
                for (int i = 0; i < 20; i++) second.add(big);
            }).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("54000"))
                    .hasMessageContaining("result.spill.bytes.max");
            assertThat(space.reservedBytes()).isLessThanOrEqualTo(bound);
            second.close();
            first.close();
            assertThat(space.reservedBytes()).isZero();
            assertThat(space.spillFiles()).isEmpty();
        }
    }

    @Test
    void closingTheSpaceDeletesHeldResultsAndOpeningItDeletesLeftovers(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("result-crashed" + SpillSpace.SUFFIX), "left by a crash");
        Files.writeString(dir.resolve("not-ours.txt"), "kept");
        SpillSpace space = new SpillSpace(dir, DISK_BYTES_MAX);
        assertThat(space.spillFiles()).isEmpty();
        SpillingRows rows = new SpillingRows(space, COLUMNS, 0);
        rows.add(row(0));
        rows.finishWriting();
        assertThat(space.spillFiles()).hasSize(1);
        space.close();
        assertThat(space.spillFiles()).isEmpty();
        assertThat(dir.resolve("not-ours.txt")).exists();
        assertThatThrownBy(() -> rows.fetch(1)).isInstanceOf(SQLException.class);
    }

    @Test
    void aTemporarySpaceCreatesItsDirectoryAtTheFirstSpillAndRemovesItOnClose() throws IOException, SQLException {
        SpillSpace unused = SpillSpace.temporary(DISK_BYTES_MAX);
        assertThat(unused.dir()).isNull();
        assertThat(unused.spillFiles()).isEmpty();
        unused.close();

        SpillSpace space = SpillSpace.temporary(DISK_BYTES_MAX);
        SpillingRows rows = new SpillingRows(space, COLUMNS, 0);
        rows.add(row(0));
        rows.finishWriting();
        Path dir = space.dir();
        assertThat(dir).isDirectory();
        assertThat(space.spillFiles()).hasSize(1);
        space.close();
        assertThat(dir).doesNotExist();
    }
}
