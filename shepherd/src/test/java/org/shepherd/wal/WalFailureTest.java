package org.shepherd.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.shepherd.wal.WalFixtures.SYNC;
import static org.shepherd.wal.WalFixtures.WAIT_SECONDS;
import static org.shepherd.wal.WalFixtures.append;
import static org.shepherd.wal.WalFixtures.appendAll;
import static org.shepherd.wal.WalFixtures.barriers;
import static org.shepherd.wal.WalFixtures.record;
import static org.shepherd.wal.WalFixtures.records;
import static org.shepherd.wal.WalFixtures.reopen;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Closing, and disks that fail. */
class WalFailureTest {

    /** Creates segment files as the log does, and keeps them for the test to break. */
    private static final class KeptChannels implements WriteAheadLog.ChannelFactory {
        final List<FileChannel> created = Collections.synchronizedList(new ArrayList<>());
        volatile IOException failNext;

        @Override
        public FileChannel create(Path file) throws IOException {
            if (failNext != null) throw failNext;
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            created.add(ch);
            return ch;
        }
    }

    private static Throwable failureOf(CompletableFuture<Void> f) throws Exception {
        try {
            f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("reported durable, expected a failure");
    }

    @Test
    void anAppendAfterCloseFailsAtOnceOnTheCallersThread(@TempDir Path dir) throws Exception {
        WriteAheadLog wal = WriteAheadLog.open(dir, SYNC);
        appendAll(wal, records(1));
        wal.close();
        wal.close();
        AtomicReference<Thread> failedOn = new AtomicReference<>();
        AtomicReference<IOException> failure = new AtomicReference<>();
        AtomicInteger durable = new AtomicInteger();
        wal.append(record(2), durable::incrementAndGet, e -> {
            failedOn.set(Thread.currentThread());
            failure.set(e);
        });
        assertThat(failedOn.get()).isSameAs(Thread.currentThread());
        assertThat(failure.get()).hasMessageContaining("closed");
        assertThat(durable.get()).isZero();
        assertThat(wal.lastBarrier()).isEqualTo(1);
        assertThat(barriers(reopen(dir))).containsExactly(1L);
    }

    @Test
    void closeWritesAndReportsEverythingQueuedFirst(@TempDir Path dir) throws Exception {
        int count = 500;
        AtomicInteger durable = new AtomicInteger();
        WriteAheadLog wal = WriteAheadLog.open(dir, SYNC);
        for (int b = 0; b < count; b++) wal.append(record(b), durable::incrementAndGet, e -> { });
        wal.close();
        assertThat(durable.get()).isEqualTo(count);
        assertThat(reopen(dir)).hasSize(count);
    }

    @Test
    void aFailedWriteFailsThatRecordAndEveryLaterOneAndReportsNoneDurable(@TempDir Path dir) throws Exception {
        KeptChannels channels = new KeptChannels();
        AtomicInteger durable = new AtomicInteger();
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC, channels)) {
            append(wal, record(1)).get(WAIT_SECONDS, TimeUnit.SECONDS);
            channels.created.get(0).close();

            List<CompletableFuture<Void>> failing = new ArrayList<>();
            for (long b = 2; b <= 4; b++) {
                CompletableFuture<Void> f = new CompletableFuture<>();
                wal.append(record(b), () -> {
                    durable.incrementAndGet();
                    f.complete(null);
                }, f::completeExceptionally);
                failing.add(f);
            }
            for (CompletableFuture<Void> f : failing) assertThat(failureOf(f)).isInstanceOf(IOException.class);

            Throwable later = failureOf(append(wal, record(5)));
            assertThat(later).hasMessageContaining("failed earlier");
            assertThat(durable.get()).isZero();
            assertThat(wal.stats().recordsDurable()).isEqualTo(1);
        }
        assertThat(barriers(reopen(dir))).containsExactly(1L);
    }

    @Test
    void aSegmentThatCannotBeCreatedFailsTheRecordsThatNeedIt(@TempDir Path dir) throws Exception {
        KeptChannels channels = new KeptChannels();
        WriteAheadLog.Options oneRecordPerSegment = new WriteAheadLog.Options(true, 1);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, oneRecordPerSegment, channels)) {
            appendAll(wal, records(1, 2));
            channels.failNext = new IOException("No space left on device");
            assertThat(failureOf(append(wal, record(3)))).hasMessageContaining("No space left");
            assertThat(failureOf(append(wal, record(4)))).hasMessageContaining("No space left");
        }
        assertThat(barriers(reopen(dir))).containsExactly(1L, 2L);
    }

    @Test
    void aCallbackThatThrowsDoesNotStopTheLog(@TempDir Path dir) throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, SYNC)) {
            wal.append(record(1), () -> {
                throw new IllegalStateException("a bug in the caller");
            }, e -> { });
            append(wal, record(2)).get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
        assertThat(barriers(reopen(dir))).containsExactly(1L, 2L);
    }

    @Test
    void closeFromACallbackStopsTheLogAfterIt(@TempDir Path dir) throws Exception {
        WriteAheadLog wal = WriteAheadLog.open(dir, SYNC);
        CompletableFuture<Void> closed = new CompletableFuture<>();
        wal.append(record(1), () -> {
            wal.close();
            closed.complete(null);
        }, e -> { });
        closed.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(failureOf(append(wal, record(2)))).hasMessageContaining("closed");
        wal.close();
        assertThat(barriers(reopen(dir))).containsExactly(1L);
    }
}
