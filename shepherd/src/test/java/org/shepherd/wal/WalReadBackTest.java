package org.shepherd.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.shepherd.wal.WalFixtures.WAIT_SECONDS;
import static org.shepherd.wal.WalFixtures.appendAll;
import static org.shepherd.wal.WalFixtures.barriers;
import static org.shepherd.wal.WalFixtures.describe;
import static org.shepherd.wal.WalFixtures.record;
import static org.shepherd.wal.WalFixtures.records;
import static org.shepherd.wal.WalFixtures.segmentFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading records back while the log runs ({@link WriteAheadLog#readAfter}), for replicas that replay from disk. */
class WalReadBackTest {

    /** Room for two records per segment. */
    private static final WriteAheadLog.Options TWO_PER_SEGMENT = new WriteAheadLog.Options(true,
            WalFormat.SEGMENT_HEADER_BYTES + WalFormat.frame(record(10)).length * 3L / 2);

    @Test
    void batchAfterBatchReadsEveryRecordAboveTheBarrierAcrossSegmentsInOrder(@TempDir Path dir) throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, TWO_PER_SEGMENT)) {
            appendAll(wal, records(10, 11, 13, 20, 21, 22, 30));
            assertThat(segmentFiles(dir)).hasSize(4);

            List<Long> read = new ArrayList<>();
            long cursor = 10; // what a replica already has
            for (List<WalRecord> batch = wal.readAfter(cursor, 2); !batch.isEmpty(); batch = wal.readAfter(cursor, 2)) {
                assertThat(batch).hasSizeLessThanOrEqualTo(2);
                read.addAll(barriers(batch));
                cursor = batch.get(batch.size() - 1).barrier();
            }
            assertThat(read).containsExactly(11L, 13L, 20L, 21L, 22L, 30L);
            assertThat(describe(wal.readAfter(12, 1).get(0))).as("the records come back whole")
                    .isEqualTo(describe(record(13)));
            assertThat(barriers(wal.readAfter(25, 10))).as("a fresh start in the middle").containsExactly(30L);
        }
    }

    @Test
    void recordsAppendedAfterAReadAreFoundByTheNextOne(@TempDir Path dir) throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, WalFixtures.SYNC)) {
            appendAll(wal, records(1, 2));
            assertThat(barriers(wal.readAfter(0, 10))).containsExactly(1L, 2L);
            appendAll(wal, records(3, 4));
            assertThat(barriers(wal.readAfter(2, 10))).containsExactly(3L, 4L);
            assertThat(wal.readAfter(4, 10)).isEmpty();
        }
    }

    @Test
    void readingBelowTheReleasedFloorIsRefusedAndReleasedSegmentsAreSkipped(@TempDir Path dir) throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, TWO_PER_SEGMENT)) {
            appendAll(wal, records(10, 11, 20, 21, 30));
            assertThat(barriers(wal.readAfter(10, 1))).containsExactly(11L);
            wal.release(15);
            wal.idle().get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(segmentFiles(dir)).as("the segment of 10 and 11 is gone").hasSize(2);
            assertThatThrownBy(() -> wal.readAfter(11, 10)).isInstanceOf(IOException.class)
                    .hasMessageContaining("may have been released");
            assertThat(barriers(wal.readAfter(15, 10))).containsExactly(20L, 21L, 30L);
        }
    }
}
