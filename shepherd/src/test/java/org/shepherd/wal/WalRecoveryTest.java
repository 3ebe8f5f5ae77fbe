package org.shepherd.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.shepherd.wal.WalFixtures.SYNC;
import static org.shepherd.wal.WalFixtures.appendAll;
import static org.shepherd.wal.WalFixtures.barriers;
import static org.shepherd.wal.WalFixtures.copy;
import static org.shepherd.wal.WalFixtures.flipByte;
import static org.shepherd.wal.WalFixtures.frameOffsets;
import static org.shepherd.wal.WalFixtures.lastSegment;
import static org.shepherd.wal.WalFixtures.records;
import static org.shepherd.wal.WalFixtures.reopen;
import static org.shepherd.wal.WalFixtures.segmentFiles;
import static org.shepherd.wal.WalFixtures.writeSession;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening a log that a crash, a disk or an operator left behind. */
class WalRecoveryTest {

    @TempDir
    Path work;
    /** Two segments: barriers 1, 2 (older) and 3, 4, 5 (newest). */
    private Path base;
    private Path older;
    private Path newest;

    @BeforeEach
    void twoSegments() throws Exception {
        base = work.resolve("base");
        writeSession(base, SYNC, records(1, 2));
        writeSession(base, SYNC, records(3, 4, 5));
        older = segmentFiles(base).get(0);
        newest = segmentFiles(base).get(1);
    }

    private Path copyOfBase(String name) throws IOException {
        return copy(base, work.resolve(name));
    }

    private static void truncate(Path file, long lengthBytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(lengthBytes);
        }
    }

    /** Opens {@code dir}: it must hold {@code expected}; then appends 6, which must survive another open. */
    private static void assertRecoversAndGoesOn(Path dir, Long... expected) throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            assertThat(barriers(wal.recovered())).containsExactly(expected);
            appendAll(wal, records(6));
        }
        List<Long> after = barriers(reopen(dir));
        assertThat(after).hasSize(expected.length + 1).startsWith(expected).endsWith(6L);
    }

    @Test
    void aLastFrameCutOffAtAnyByteIsDroppedAndTheLogGoesOn() throws Exception {
        List<Long> frames = frameOffsets(newest);
        long lastFrame = frames.get(frames.size() - 2);
        long end = frames.get(frames.size() - 1);
        assertThat(end).isEqualTo(Files.size(newest));
        for (long length = lastFrame; length < end; length++) {
            Path dir = copyOfBase("cut-" + length);
            Path segment = dir.resolve(newest.getFileName());
            truncate(segment, length);
            try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
                assertThat(barriers(wal.recovered())).as("cut at %d", length).containsExactly(1L, 2L, 3L, 4L);
                assertThat(Files.size(segment)).as("the torn tail is cut off").isEqualTo(lastFrame);
            }
            assertRecoversAndGoesOn(dir, 1L, 2L, 3L, 4L);
        }
    }

    @Test
    void aNewestSegmentCutOffBeforeItsFirstRecordEndsIsRemovedAndItsBarrierCanBeUsedAgain() throws Exception {
        writeSession(base, SYNC, records(7));
        Path third = lastSegment(base);
        long size = Files.size(third);
        for (long length = 0; length < size; length++) {
            Path dir = copyOfBase("cut-" + length);
            truncate(dir.resolve(third.getFileName()), length);
            try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
                assertThat(barriers(wal.recovered())).as("cut at %d", length).containsExactly(1L, 2L, 3L, 4L, 5L);
                assertThat(dir.resolve(third.getFileName())).doesNotExist();
                appendAll(wal, records(7));
            }
            assertThat(barriers(reopen(dir))).containsExactly(1L, 2L, 3L, 4L, 5L, 7L);
        }
    }

    @Test
    void zeroBytesAfterTheLastFrameAreATornTail() throws Exception {
        long size = Files.size(newest);
        Files.write(newest, new byte[4096], StandardOpenOption.APPEND);
        assertRecoversAndGoesOn(base, 1L, 2L, 3L, 4L, 5L);
        assertThat(frameOffsets(newest)).endsWith(size);
    }

    @Test
    void aFrameHeaderOfGarbageFollowedOnlyByZerosIsATornTail() throws Exception {
        byte[] tail = new byte[200];
        for (int i = 0; i < 9; i++) tail[i] = (byte) (0x31 * (i + 1));
        Files.write(newest, tail, StandardOpenOption.APPEND);
        assertRecoversAndGoesOn(base, 1L, 2L, 3L, 4L, 5L);
    }

    @Test
    void aFlippedByteInTheLastFramesPayloadIsATornTailAndInItsHeaderIsDamage() throws Exception {
        List<Long> frames = frameOffsets(newest);
        long lastFrame = frames.get(frames.size() - 2);
        for (long at = lastFrame; at < Files.size(newest); at++) {
            Path dir = copyOfBase("flip-" + at);
            flipByte(dir.resolve(newest.getFileName()), at);
            if (at < lastFrame + WalFormat.FRAME_HEADER_BYTES) {
                assertDamaged(dir, newest.getFileName().toString(), lastFrame);
            } else {
                assertRecoversAndGoesOn(dir, 1L, 2L, 3L, 4L);
            }
        }
    }

    @Test
    void aFlippedByteAnywhereBeforeTheLastFrameIsDamageNamingTheFile() throws Exception {
        List<Long> frames = frameOffsets(newest);
        long lastFrame = frames.get(frames.size() - 2);
        for (Path segment : List.of(older, newest)) {
            long end = segment.equals(newest) ? lastFrame : Files.size(segment);
            for (long at = 0; at < end; at++) {
                Path dir = copyOfBase("flip-" + segment.getFileName() + "-" + at);
                Path flipped = dir.resolve(segment.getFileName());
                flipByte(flipped, at);
                byte[] before = Files.readAllBytes(flipped);
                WalDamagedException e = assertDamaged(dir, segment.getFileName().toString(), -1);
                assertThat(e.offsetBytes()).as("flip at %d", at).isBetween(0L, at);
                assertThat(Files.readAllBytes(flipped)).as("a refused log is left as it is").isEqualTo(before);
            }
        }
    }

    private static WalDamagedException assertDamaged(Path dir, String fileName, long offset) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> WriteAheadLog.open(dir, SYNC).close());
        assertThat(thrown).isInstanceOf(WalDamagedException.class)
                .hasMessageContaining(fileName).hasMessageContaining("damaged");
        WalDamagedException e = (WalDamagedException) thrown;
        if (offset >= 0) assertThat(e.offsetBytes()).isEqualTo(offset);
        return e;
    }

    @Test
    void aWrongMagicOrAnUnknownVersionIsRefused() throws Exception {
        Path wrongMagic = copyOfBase("magic");
        byte[] bytes = Files.readAllBytes(wrongMagic.resolve(newest.getFileName()));
        bytes[0] = 'X';
        Files.write(wrongMagic.resolve(newest.getFileName()), bytes);
        assertThatThrownBy(() -> WriteAheadLog.open(wrongMagic, SYNC)).isInstanceOf(WalDamagedException.class)
                .hasMessageContaining(newest.getFileName().toString()).hasMessageContaining("not a write-ahead log segment");

        Path newerVersion = copyOfBase("version");
        bytes = Files.readAllBytes(newerVersion.resolve(older.getFileName()));
        bytes[7] = 2;
        Files.write(newerVersion.resolve(older.getFileName()), bytes);
        assertThatThrownBy(() -> WriteAheadLog.open(newerVersion, SYNC)).isInstanceOf(WalDamagedException.class)
                .hasMessageContaining(older.getFileName().toString()).hasMessageContaining("version 2 is unknown");
    }

    @Test
    void aFrameCutOffInASegmentThatIsNotTheNewestIsDamage() throws Exception {
        truncate(older, Files.size(older) - 1);
        assertThatThrownBy(() -> WriteAheadLog.open(base, SYNC)).isInstanceOf(WalDamagedException.class)
                .hasMessageContaining(older.getFileName().toString()).hasMessageContaining("cut off");
    }

    @Test
    void anEmptySegmentThatIsNotTheNewestIsDamage() throws Exception {
        Files.write(base.resolve(WalFormat.segmentName(0)), new byte[0]);
        assertThatThrownBy(() -> WriteAheadLog.open(base, SYNC)).isInstanceOf(WalDamagedException.class)
                .hasMessageContaining(WalFormat.segmentName(0));
        Files.write(base.resolve(WalFormat.segmentName(0)), WalFormat.segmentHeader());
        assertThatThrownBy(() -> WriteAheadLog.open(base, SYNC)).isInstanceOf(WalDamagedException.class)
                .hasMessageContaining("holds no record");
    }

    @Test
    void barriersThatDoNotIncreaseAcrossSegmentsAreDamage() throws Exception {
        Path other = work.resolve("other");
        Path eight = work.resolve("eight");
        writeSession(other, SYNC, records(7, 9));
        writeSession(eight, SYNC, records(8));
        Files.move(eight.resolve(WalFormat.segmentName(8)), other.resolve(WalFormat.segmentName(8)));
        // 7, 9 then 8: each segment alone is fine
        assertThatThrownBy(() -> WriteAheadLog.open(other, SYNC)).isInstanceOf(WalDamagedException.class)
                .hasMessageContaining(WalFormat.segmentName(8)).hasMessageContaining("barrier 8 follows barrier 9");
    }

    @Test
    void aSegmentWhoseNameIsNotItsFirstBarrierIsDamage() throws Exception {
        Files.move(older, base.resolve(WalFormat.segmentName(0)));
        assertThatThrownBy(() -> WriteAheadLog.open(base, SYNC)).isInstanceOf(WalDamagedException.class)
                .hasMessageContaining(WalFormat.segmentName(0)).hasMessageContaining("the file name says 0");
    }

    @Test
    void filesThatAreNotSegmentsAreLeftAlone() throws Exception {
        Files.writeString(base.resolve("notes.txt"), "hello");
        Files.writeString(base.resolve("42.wal"), "short name");
        Files.createDirectory(base.resolve(WalFormat.segmentName(99)));
        assertRecoversAndGoesOn(base, 1L, 2L, 3L, 4L, 5L);
        assertThat(base.resolve("notes.txt")).hasContent("hello");
        assertThat(base.resolve("42.wal")).hasContent("short name");
    }
}
