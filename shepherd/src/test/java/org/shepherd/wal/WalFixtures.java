package org.shepherd.wal;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.shepherd.protocol.Param;

/** Records, directories and waits shared by the write-ahead log tests. */
final class WalFixtures {

    /** Bounded waits only: a test that hangs fails after this. */
    static final long WAIT_SECONDS = 30;
    static final WriteAheadLog.Options SYNC = WriteAheadLog.Options.defaults();

    private WalFixtures() {
    }

    /** A small typical record: one insert rendered for two dialects. */
    static WalRecord record(long barrier) {
        List<Param> params = List.of(new Param(Types.BIGINT, barrier), new Param(Types.VARCHAR, "row " + barrier));
        return new WalRecord(1000 + barrier, barrier, List.of(new LoggedStatement(List.of(
                new Rendering("derby", "INSERT INTO t(id, name) VALUES (?, ?)", params, IgnorableError.NONE),
                new Rendering("mariadb", "INSERT INTO `t`(id, name) VALUES (?, ?)", params, IgnorableError.NONE)))));
    }

    static List<WalRecord> records(long... barriers) {
        List<WalRecord> out = new ArrayList<>();
        for (long b : barriers) out.add(record(b));
        return out;
    }

    /** One parameter of every value type, SQL NULL included. */
    static List<Param> everyValueType() {
        return List.of(
                Param.nullOf(Types.INTEGER),
                new Param(Types.BOOLEAN, true),
                new Param(Types.BIGINT, Long.MIN_VALUE),
                new Param(Types.DECIMAL, new BigDecimal("-12345678901234567890.000100")),
                new Param(Types.DOUBLE, -0.0),
                new Param(Types.VARCHAR, "gr\u00fc\u00dfe \u20ac \uD83D\uDE00 '\n"),
                new Param(Types.VARBINARY, new byte[] {0, (byte) 0xff, 7}),
                new Param(Types.DATE, LocalDate.of(1, 1, 1)),
                new Param(Types.TIME, LocalTime.of(23, 59, 59, 999_999_999)),
                new Param(Types.TIMESTAMP, LocalDateTime.of(2024, 2, 29, 12, 0, 0, 1)),
                new Param(Types.TIMESTAMP_WITH_TIMEZONE,
                        OffsetDateTime.of(2026, 11, 21, 9, 30, 0, 5, ZoneOffset.ofHoursMinutes(-9, -30))));
    }

    /**
     * Every value as type and text (bytes in hex, decimals with their scale, doubles with their sign), so that records
     * compare by content.
     */
    static String describe(List<WalRecord> records) {
        return records.stream().map(WalFixtures::describe).collect(Collectors.joining("\n"));
    }

    static String describe(WalRecord r) {
        StringBuilder b = new StringBuilder("tx " + r.txId() + " @" + r.barrier());
        for (LoggedStatement s : r.statements()) {
            b.append("\n  statement");
            for (Rendering x : s.renderings()) {
                b.append("\n    ").append(x.dialect()).append(' ').append(x.ignorable())
                        .append(x.dropsReferencingKeys() ? " dropsReferencingKeys" : "").append(" [").append(x.sql()).append(']');
                for (Param p : x.params()) b.append("\n      ").append(p.jdbcType()).append(' ').append(describeValue(p.value()));
            }
        }
        return b.toString();
    }

    private static String describeValue(Object v) {
        if (v == null) return "NULL";
        String text = v instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : v.toString();
        return v.getClass().getSimpleName() + ":" + text;
    }

    static List<Long> barriers(List<WalRecord> records) {
        return records.stream().map(WalRecord::barrier).collect(Collectors.toList());
    }

    /** Appends {@code records} and waits until every one is durable. */
    static void appendAll(WriteAheadLog wal, List<WalRecord> records) throws Exception {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (WalRecord r : records) done.add(append(wal, r));
        for (CompletableFuture<Void> f : done) f.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** Appends {@code r}: the future completes when it is durable, exceptionally when it failed. */
    static CompletableFuture<Void> append(WriteAheadLog wal, WalRecord r) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        wal.append(r, () -> f.complete(null), f::completeExceptionally);
        return f;
    }

    /** Opens {@code dir}, appends {@code records}, closes: one more segment. */
    static void writeSession(Path dir, WriteAheadLog.Options options, List<WalRecord> records) throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, options)) {
            appendAll(wal, records);
        }
    }

    static List<WalRecord> reopen(Path dir) throws IOException {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            return wal.recovered();
        }
    }

    static List<Path> segmentFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".wal")).sorted().collect(Collectors.toList());
        }
    }

    static Path lastSegment(Path dir) throws IOException {
        List<Path> files = segmentFiles(dir);
        return files.get(files.size() - 1);
    }

    /** A copy of the directory's files in {@code to} (created). */
    static Path copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return to;
    }

    /** The frame boundaries of a segment file: the offset of each frame, then the file's length. */
    static List<Long> frameOffsets(Path segment) throws IOException {
        byte[] bytes = Files.readAllBytes(segment);
        List<Long> offsets = new ArrayList<>();
        long at = WalFormat.SEGMENT_HEADER_BYTES;
        while (at < bytes.length) {
            offsets.add(at);
            long payloadBytes = ByteBuffer.wrap(bytes).getInt((int) at);
            at += WalFormat.FRAME_HEADER_BYTES + payloadBytes;
        }
        offsets.add(at);
        return offsets;
    }

    static void flipByte(Path file, long offset) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) offset] ^= (byte) 0x5a;
        Files.write(file, bytes);
    }
}
