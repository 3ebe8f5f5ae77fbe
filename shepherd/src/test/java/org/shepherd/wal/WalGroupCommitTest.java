package org.shepherd.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.shepherd.wal.WalFixtures.SYNC;
import static org.shepherd.wal.WalFixtures.WAIT_SECONDS;
import static org.shepherd.wal.WalFixtures.barriers;
import static org.shepherd.wal.WalFixtures.record;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WalGroupCommitTest {

    private static final int THREADS = 4;
    private static final int RECORDS_PER_THREAD = 50;
    /** Every this many records, a callback checks that its record is in the file. */
    private static final int CHECK_EVERY = 20;

    @Test
    void appendsFromSeveralThreadsShareOneForceAndAreReportedOnceInBarrierOrderOnceInTheFile(@TempDir Path dir,
            @TempDir Path copies) throws Exception {
        int total = 1 + THREADS * RECORDS_PER_THREAD;
        List<Long> durable = Collections.synchronizedList(new ArrayList<>());
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch allDurable = new CountDownLatch(total);
        CountDownLatch firstHeld = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            // the log's thread waits in the first record's callback while the others are appended: they queue up
            wal.append(record(0), () -> {
                durable.add(0L);
                allDurable.countDown();
                firstHeld.countDown();
                awaitQuietly(releaseFirst);
            }, e -> problems.add("0 failed: " + e));
            assertThat(firstHeld.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

            Object appendOrder = new Object();
            long[] next = {1};
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                threads.add(new Thread(() -> {
                    for (int i = 0; i < RECORDS_PER_THREAD; i++) {
                        synchronized (appendOrder) {
                            long b = next[0]++;
                            wal.append(record(b), () -> {
                                durable.add(b);
                                if (b % CHECK_EVERY == 0) checkInFile(dir, copies.resolve("at-" + b), b, problems);
                                allDurable.countDown();
                            }, e -> problems.add(b + " failed: " + e));
                        }
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) t.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            assertThat(durable).as("nothing is reported while the log's thread is held").containsExactly(0L);
            releaseFirst.countDown();

            assertThat(allDurable.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(problems).isEmpty();
            assertThat(durable).containsExactlyElementsOf(LongStream.range(0, total).boxed().collect(Collectors.toList()));
            WriteAheadLog.Stats stats = wal.stats();
            assertThat(stats.recordsDurable()).isEqualTo(total);
            assertThat(stats.forces()).as("the segment's header, the first record, then all the others at once")
                    .isLessThanOrEqualTo(3);
        }
        assertThat(WalFixtures.reopen(dir)).hasSize(total);
    }

    /** From inside a callback: a copy of the directory taken now holds record {@code barrier}. */
    private static void checkInFile(Path dir, Path copy, long barrier, List<String> problems) {
        try (WriteAheadLog reread = WriteAheadLog.open(WalFixtures.copy(dir, copy), SYNC)) {
            List<Long> found = barriers(reread.recovered());
            if (!found.contains(barrier)) problems.add(barrier + " reported durable but not in the file: " + found);
        } catch (Exception e) {
            problems.add(barrier + ": " + e);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void onDurableRunsInAppendOrderForEveryRecordOnce(@TempDir Path dir) throws Exception {
        int count = 2_000;
        List<Long> durable = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(count);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            for (long b = 0; b < count; b++) {
                long barrier = b * 3 + 1;
                wal.append(record(barrier), () -> {
                    durable.add(barrier);
                    done.countDown();
                }, e -> { });
            }
            assertThat(done.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(durable).containsExactlyElementsOf(LongStream.range(0, count).map(b -> b * 3 + 1).boxed()
                .collect(Collectors.toList()));
    }
}
