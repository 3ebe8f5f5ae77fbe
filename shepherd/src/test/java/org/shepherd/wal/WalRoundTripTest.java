package org.shepherd.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.shepherd.wal.WalFixtures.SYNC;
import static org.shepherd.wal.WalFixtures.append;
import static org.shepherd.wal.WalFixtures.appendAll;
import static org.shepherd.wal.WalFixtures.barriers;
import static org.shepherd.wal.WalFixtures.describe;
import static org.shepherd.wal.WalFixtures.record;
import static org.shepherd.wal.WalFixtures.records;
import static org.shepherd.wal.WalFixtures.reopen;
import static org.shepherd.wal.WalFixtures.segmentFiles;
import static org.shepherd.wal.WalFixtures.writeSession;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Types;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.protocol.Param;
import org.shepherd.protocol.ValueType;

class WalRoundTripTest {

    /** Every value type, SQL NULL, an empty transaction, missing dialects, every IgnorableError, a long statement. */
    private static List<WalRecord> varied() {
        List<Param> all = WalFixtures.everyValueType();
        LoggedStatement everywhere = new LoggedStatement(List.of(
                new Rendering("derby", "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", all, IgnorableError.NONE),
                new Rendering("mariadb", "INSERT INTO `t` VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", all, IgnorableError.NONE),
                new Rendering("postgresql", "INSERT INTO \"t\" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", all,
                        IgnorableError.NONE)));
        LoggedStatement createTable = new LoggedStatement(List.of(
                new Rendering("derby", "CREATE TABLE u (id INT)", List.of(), IgnorableError.ALREADY_EXISTS),
                new Rendering("mariadb", "CREATE TABLE IF NOT EXISTS u (id INT)", List.of(), IgnorableError.NONE)));
        LoggedStatement dropTable = new LoggedStatement(List.of(
                new Rendering("derby", "DROP TABLE u", List.of(), IgnorableError.DOES_NOT_EXIST, true),
                new Rendering("mariadb", "DROP TABLE u", List.of(), IgnorableError.NONE, true)));
        LoggedStatement alterTable = new LoggedStatement(List.of(
                new Rendering("derby", "ALTER TABLE u DROP COLUMN c", List.of(), IgnorableError.TABLE_DOES_NOT_EXIST),
                new Rendering("hsqldb", "ALTER TABLE v DROP COLUMN c", List.of(), IgnorableError.PART_DOES_NOT_EXIST)));
        LoggedStatement inNoDialect = new LoggedStatement(List.of());
        String longSql = "UPDATE t SET s = '" + "\u00e9".repeat(100_000) + "' WHERE id = ?";
        LoggedStatement longStatement = new LoggedStatement(List.of(
                new Rendering("derby", longSql, List.of(new Param(Types.BIGINT, 7L)), IgnorableError.NONE)));
        return List.of(
                new WalRecord(-5, 0, List.of()),
                new WalRecord(Long.MAX_VALUE, 3, List.of(everywhere, createTable, dropTable, alterTable, inNoDialect)),
                new WalRecord(8, 4, List.of(longStatement, everywhere)));
    }

    @Test
    void everyValueTypeDialectAndIgnorableErrorSurvivesCloseAndOpen(@TempDir Path dir) throws Exception {
        List<WalRecord> written = varied();
        Set<ValueType> types = EnumSet.noneOf(ValueType.class);
        for (Param p : WalFixtures.everyValueType()) types.add(ValueType.of(p.value()));
        assertThat(types).as("the fixture covers every value type").containsExactlyInAnyOrder(ValueType.values());

        writeSession(dir, SYNC, written);

        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            assertThat(describe(wal.recovered())).isEqualTo(describe(written));
            assertThat(wal.lastBarrier()).isEqualTo(4);
            assertThat(wal.history()).isTrue();
            assertThat(wal.stats().segments()).isEqualTo(1);
            assertThat(wal.stats().bytesOnDisk()).isEqualTo(Files.size(segmentFiles(dir).get(0)));
        }
    }

    @Test
    void aWriteOnlyLogKeepsRecordsWithoutForcing(@TempDir Path dir) throws Exception {
        WriteAheadLog.Options writeOnly = new WriteAheadLog.Options(false, WriteAheadLog.Options.SEGMENT_BYTES_DEFAULT);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, writeOnly)) {
            appendAll(wal, varied());
            assertThat(wal.stats().forces()).isZero();
            assertThat(wal.stats().recordsDurable()).isEqualTo(3);
        }
        assertThat(describe(reopen(dir))).isEqualTo(describe(varied()));
    }

    @Test
    void anEmptyOrMissingDirectoryHasNoRecordsAndNoHistory(@TempDir Path root) throws Exception {
        Path dir = root.resolve("not").resolve("there");
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            assertThat(wal.recovered()).isEmpty();
            assertThat(wal.lastBarrier()).isEqualTo(-1);
            assertThat(wal.history()).isFalse();
            assertThat(wal.floor()).isEqualTo(-1);
        }
        assertThat(Files.isDirectory(dir)).isTrue();
        assertThat(segmentFiles(dir)).as("no segment before the first append").isEmpty();
    }

    @Test
    void appendsAfterAReopenGoToANewSegmentNamedByTheirFirstBarrier(@TempDir Path dir) throws Exception {
        writeSession(dir, SYNC, records(1, 2));
        writeSession(dir, SYNC, records(5, 9));

        assertThat(segmentFiles(dir)).extracting(p -> p.getFileName().toString())
                .containsExactly("00000000000000000001.wal", "00000000000000000005.wal");
        assertThat(describe(reopen(dir))).isEqualTo(describe(records(1, 2, 5, 9)));
    }

    @Test
    void aBarrierNotAboveTheLastIsRefusedAndTheLogGoesOn(@TempDir Path dir) throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            appendAll(wal, records(5));
            List<Throwable> failures = new ArrayList<>();
            assertThatThrownBy(() -> wal.append(record(5), () -> { }, failures::add))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("barrier 5");
            assertThatThrownBy(() -> wal.append(record(4), () -> { }, failures::add))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(failures).isEmpty();
            appendAll(wal, records(6));
        }
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            assertThat(wal.lastBarrier()).isEqualTo(6);
            assertThatThrownBy(() -> wal.append(record(6), () -> { }, e -> { }))
                    .as("recovered barriers count").isInstanceOf(IllegalArgumentException.class);
            appendAll(wal, records(7));
        }
        assertThat(barriers(reopen(dir))).containsExactly(5L, 6L, 7L);
        assertThatThrownBy(() -> record(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRecordAboveThePayloadBoundIsRefusedNamingTheBound(@TempDir Path dir) throws Exception {
        byte[] mebibyte = new byte[1 << 20];
        List<Param> params = new ArrayList<>();
        for (int i = 0; i <= WalFormat.PAYLOAD_BYTES_MAX >> 20; i++) params.add(new Param(Types.BLOB, mebibyte));
        WalRecord huge = new WalRecord(1, 1, List.of(new LoggedStatement(List.of(
                new Rendering("derby", "INSERT INTO b VALUES (?)", params, IgnorableError.NONE)))));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
            assertThatThrownBy(() -> wal.append(huge, () -> { }, e -> { }))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("268435456 bytes (256 MiB)");
            assertThat(threads.getCurrentThreadAllocatedBytes() - allocatedBefore)
                    .as("bytes allocated to refuse it: no buffer grows towards the bound").isLessThan(16L << 20);
            assertThat(wal.lastBarrier()).isEqualTo(-1);
            append(wal, record(1)).get(WalFixtures.WAIT_SECONDS, TimeUnit.SECONDS);
        }
        assertThat(barriers(reopen(dir))).containsExactly(1L);
    }

    @Test
    void theSizeCountedBeforeEncodingNeverExceedsTheEncodedPayload() {
        List<Param> params = new ArrayList<>(WalFixtures.everyValueType());
        params.add(new Param(Types.VARCHAR, "\u00e9\u4e2d\ud83d\ude00 multi-byte"));
        params.add(new Param(Types.BLOB, new byte[1000]));
        for (Param p : params) {
            WalRecord r = new WalRecord(1, 1, List.of(new LoggedStatement(List.of(
                    new Rendering("derby", "INSERT INTO t VALUES (?) -- \u00e9", List.of(p), IgnorableError.NONE)))));
            int payloadBytes = WalFormat.frame(r).length - WalFormat.FRAME_HEADER_BYTES;
            assertThat(WalFormat.payloadBytesAtLeast(r)).as("value %s", p.value()).isBetween(1L, (long) payloadBytes);
        }
    }

    @Test
    void aValueIsStoredInTheWireProtocolsBytes() throws Exception {
        for (Param p : WalFixtures.everyValueType()) {
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            ValueCodec.writeValue(new java.io.DataOutputStream(bytes), p.value());
            byte[] stored = bytes.toByteArray();
            Object back = ValueCodec.readValue(new java.io.DataInputStream(new java.io.ByteArrayInputStream(stored)));
            assertThat(back).as("value %s", p.value()).isEqualTo(p.value());
            if (p.value() == null) {
                assertThat(stored).containsExactly(ValueType.NULL.tag());
                continue;
            }
            // the same parameter on the wire, once with the value and once as NULL (one tag byte): the frames differ
            // in their length field and where the value is, nowhere else
            byte[] withValue = executeFrame(p);
            byte[] withNull = executeFrame(new Param(p.jdbcType(), null));
            int at = 4;
            while (withValue[at] == withNull[at]) at++;
            int after = withNull.length - at - 1;
            assertThat(java.util.Arrays.copyOfRange(withValue, at, withValue.length - after)).as("value %s", p.value())
                    .isEqualTo(stored);
        }
    }

    private static byte[] executeFrame(Param p) {
        return org.shepherd.protocol.v1.MessageCodec.encodeFrame(new org.shepherd.protocol.v1.Message.Execute("?", List.of(p),
                org.shepherd.protocol.v1.StatementOptions.DEFAULT));
    }

    @Test
    void bytesThatAreNoValueAreRefused() {
        byte[][] damaged = {
            {99}, // no such tag
            {1, 2}, // a boolean byte other than 0 or 1
            {3, 0, 0x0f, 0x42, 0x40, 0, 0, 0, 1, 1}, // a decimal scale of 1,000,000
            {3, 0, 0, 0, 2, 0, 0, 0, 0}, // a decimal without digits
            {5, -1, -1, -1, -1}, // a negative string length
            {8, 0x7f, -1, -1, -1, -1, -1, -1, -1}, // a time of day past midnight
        };
        for (byte[] b : damaged) {
            assertThatThrownBy(() -> ValueCodec.readValue(new java.io.DataInputStream(new java.io.ByteArrayInputStream(b))))
                    .as(java.util.Arrays.toString(b)).isInstanceOf(java.io.IOException.class)
                    .hasMessageStartingWith("not an encoded value");
        }
    }
}
