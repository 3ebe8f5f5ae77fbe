package org.shepherd.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.shepherd.wal.WalFixtures.SYNC;
import static org.shepherd.wal.WalFixtures.WAIT_SECONDS;
import static org.shepherd.wal.WalFixtures.appendAll;
import static org.shepherd.wal.WalFixtures.barriers;
import static org.shepherd.wal.WalFixtures.record;
import static org.shepherd.wal.WalFixtures.records;
import static org.shepherd.wal.WalFixtures.reopen;
import static org.shepherd.wal.WalFixtures.segmentFiles;
import static org.shepherd.wal.WalFixtures.writeSession;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Segment rotation, release of whole segments, and the recorded floor. */
class WalSegmentsTest {

    /** Room for one record and a half: every segment holds two records. */
    private static final WriteAheadLog.Options TWO_PER_SEGMENT = new WriteAheadLog.Options(true,
            WalFormat.SEGMENT_HEADER_BYTES + WalFormat.frame(record(10)).length * 3L / 2);

    private static List<Long> firstBarriers(Path dir) throws IOException {
        return segmentFiles(dir).stream().map(p -> WalFormat.firstBarrierOf(p.getFileName().toString()))
                .collect(Collectors.toList());
    }

    private static long bytesOf(List<Path> files) throws IOException {
        long sum = 0;
        for (Path p : files) sum += Files.size(p);
        return sum;
    }

    private static void releaseAndWait(WriteAheadLog wal, long floor) throws Exception {
        wal.release(floor);
        wal.idle().get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void openKeepsOnlyTheNewestRecordsButKnowsTheBarriersOfAll(@TempDir Path dir) throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, TWO_PER_SEGMENT)) {
            appendAll(wal, records(10, 20, 30, 40, 50, 60, 70));
        }
        WriteAheadLog.Options keepThree = new WriteAheadLog.Options(true, TWO_PER_SEGMENT.segmentBytesMax(), 3);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, keepThree)) {
            assertThat(barriers(wal.recovered())).containsExactly(50L, 60L, 70L);
            WriteAheadLog.Recovered found = wal.recoveredSummary();
            assertThat(found.barriers()).containsExactly(10, 20, 30, 40, 50, 60, 70);
            assertThat(found.lastTxId()).isEqualTo(1070);
            assertThat(found.droppedThrough()).as("the newest record not kept").isEqualTo(40);
            assertThat(wal.lastBarrier()).isEqualTo(70);
            assertThat(barriers(wal.readAfter(15, 10))).as("the others are read back").containsExactly(20L, 30L, 40L, 50L, 60L,
                    70L);
            wal.forgetRecovered();
            assertThat(wal.recovered()).isEmpty();
            assertThat(wal.recoveredSummary().barriers()).as("nothing of the start kept any more").isEmpty();
            assertThat(wal.lastBarrier()).isEqualTo(70);
        }
        try (WriteAheadLog wal = WriteAheadLog.open(dir, TWO_PER_SEGMENT)) {
            assertThat(wal.recovered()).hasSize(7);
            assertThat(wal.recoveredSummary().droppedThrough()).isEqualTo(-1);
        }
    }

    @Test
    void bytesKeptAboveAFloorLeaveOutTheSegmentsItWouldDeleteButNeverTheNewest(@TempDir Path dir) throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, TWO_PER_SEGMENT)) {
            appendAll(wal, records(10, 20, 30, 40, 50, 60));
            wal.idle().get(WAIT_SECONDS, TimeUnit.SECONDS);
            List<Path> files = segmentFiles(dir); // first barriers 10, 30, 50
            long all = bytesOf(files);
            assertThat(wal.bytesKeptAbove(-1)).isEqualTo(all);
            assertThat(wal.bytesKeptAbove(15)).as("20 is above the floor").isEqualTo(all);
            assertThat(wal.bytesKeptAbove(20)).isEqualTo(bytesOf(files.subList(1, 3)));
            assertThat(wal.bytesKeptAbove(45)).isEqualTo(bytesOf(files.subList(2, 3)));
            assertThat(wal.bytesKeptAbove(1000)).as("the newest segment stays").isEqualTo(bytesOf(files.subList(2, 3)));
            releaseAndWait(wal, 20);
            assertThat(wal.bytesKeptAbove(-1)).as("what release deleted is gone").isEqualTo(bytesOf(files.subList(1, 3)));
        }
    }

    @Test
    void segmentsRotateAndReleaseDeletesExactlyThoseWhoseRecordsAreAllAtOrBelowTheFloor(@TempDir Path dir) throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, TWO_PER_SEGMENT)) {
            appendAll(wal, records(10, 20, 30, 40, 50, 60, 70, 80, 90, 100));
            assertThat(firstBarriers(dir)).containsExactly(10L, 30L, 50L, 70L, 90L);
            assertThat(wal.stats().segments()).isEqualTo(5);
            assertThat(wal.stats().bytesOnDisk()).isEqualTo(bytesOf(segmentFiles(dir)));

            releaseAndWait(wal, 45);
            assertThat(firstBarriers(dir)).containsExactly(50L, 70L, 90L);
            assertThat(wal.floor()).as("recorded before deleting").isEqualTo(45);

            releaseAndWait(wal, 55);
            assertThat(firstBarriers(dir)).as("60 is above the floor").containsExactly(50L, 70L, 90L);

            releaseAndWait(wal, 30);
            assertThat(wal.floor()).as("a lower floor changes nothing").isEqualTo(45);

            releaseAndWait(wal, 1000);
            assertThat(firstBarriers(dir)).as("never the newest segment").containsExactly(90L);
            assertThat(wal.stats().segments()).isEqualTo(1);
            assertThat(wal.stats().bytesOnDisk()).isEqualTo(bytesOf(segmentFiles(dir)));

            appendAll(wal, records(110, 120));
            wal.idle().get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(firstBarriers(dir)).as("the floor deletes what it covers once a newer segment exists")
                    .containsExactly(110L);
        }
        try (WriteAheadLog wal = WriteAheadLog.open(dir, TWO_PER_SEGMENT)) {
            assertThat(barriers(wal.recovered())).containsExactly(110L, 120L);
            assertThat(wal.floor()).isEqualTo(1000);
            assertThat(wal.history()).isTrue();
        }
    }

    @Test
    void recordsAboveTheFloorSurviveAReopenWithTheRestOfTheirSegment(@TempDir Path dir) throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, TWO_PER_SEGMENT)) {
            appendAll(wal, records(1, 2, 3, 4, 5));
            releaseAndWait(wal, 3);
        }
        assertThat(barriers(reopen(dir))).containsExactly(3L, 4L, 5L);
    }

    @Test
    void releaseRightAfterOpenKeepsTheNewestRecoveredSegment(@TempDir Path dir) throws Exception {
        writeSession(dir, SYNC, records(1, 2));
        writeSession(dir, SYNC, records(3));
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            releaseAndWait(wal, 10);
            assertThat(firstBarriers(dir)).containsExactly(3L);
            appendAll(wal, records(11));
            wal.idle().get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(firstBarriers(dir)).containsExactly(11L);
        }
        assertThat(barriers(reopen(dir))).containsExactly(11L);
    }

    @Test
    void aReleaseThatDeletesNothingRecordsNothing(@TempDir Path dir) throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            appendAll(wal, records(1, 2, 3));
            releaseAndWait(wal, 3);
            assertThat(wal.floor()).isEqualTo(-1);
            assertThat(dir.resolve(FloorFile.NAME)).doesNotExist();
        }
        assertThat(barriers(reopen(dir))).containsExactly(1L, 2L, 3L);
    }

    @Test
    void aRecordedFloorGivesTheLogAHistoryAcrossReopens(@TempDir Path dir) throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            assertThat(wal.history()).isFalse();
            wal.recordFloor(99);
            wal.recordFloor(50);
            assertThat(wal.floor()).isEqualTo(99);
        }
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            assertThat(wal.history()).isTrue();
            assertThat(wal.floor()).isEqualTo(99);
            assertThat(wal.recovered()).isEmpty();
            appendAll(wal, records(100));
        }
        assertThat(barriers(reopen(dir))).containsExactly(100L);
    }

    @Test
    void aDamagedFloorIsRefused(@TempDir Path dir) throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            wal.recordFloor(7);
        }
        WalFixtures.flipByte(dir.resolve(FloorFile.NAME), 10);
        assertThatThrownBy(() -> WriteAheadLog.open(dir, SYNC)).isInstanceOf(WalDamagedException.class)
                .hasMessageContaining(FloorFile.NAME).hasMessageContaining("CRC");
    }

    @Test
    void theFloorIsRecordedEveryStepAndAtACleanCloseWithoutDeletingAnything(@TempDir Path dir) throws Exception {
        long step = WriteAheadLog.FLOOR_RECORD_STEP_BARRIERS;
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            appendAll(wal, records(1, step + 10, 2 * step + 10));
            releaseAndWait(wal, step - 2);
            assertThat(wal.floor()).as("less than a step past -1: not recorded").isEqualTo(-1);
            assertThat(wal.releasedUpTo()).isEqualTo(step - 2);
            releaseAndWait(wal, step + 5);
            assertThat(wal.floor()).as("a step past the recorded one").isEqualTo(step + 5);
            assertThat(segmentFiles(dir)).as("the only segment stays").hasSize(1);
            wal.release(step + 20);
        }
        try (WriteAheadLog again = WriteAheadLog.open(dir, SYNC)) {
            assertThat(again.floor()).as("recorded at the clean close").isEqualTo(step + 20);
            assertThat(barriers(again.recovered())).containsExactly(1L, step + 10, 2 * step + 10);
        }
    }
}
