package org.shepherd.wal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shepherd's write-ahead log: every committed transaction that wrote something, kept on disk from before its
 * client's COMMIT is acknowledged until every replica has committed it, so that a restarted shepherd can replay it on
 * the replicas that lack it. The format and the recovery rules are in docs/wal-format.md.
 *
 * <p>Appends are queued; one thread ({@value #THREAD_NAME}) writes everything queued in one go, forces it once (group
 * commit) and then reports each record durable, in append order. The log lives in a directory of segment files named by
 * their first barrier; {@link #release} deletes whole segments once every replica has committed their records, after
 * recording the released floor (file {@code floor}) so that a restarted shepherd knows what the log may no longer hold.
 *
 * <p>Callbacks run on the log's thread, except when the log has already failed or is closed: then {@code append} calls
 * {@code onFailure} on the caller's thread before it returns. A callback must not block for long: it holds up every
 * later record's report.
 */
public final class WriteAheadLog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WriteAheadLog.class);
    static final String THREAD_NAME = "shepherd-wal";
    /**
     * The released floor is recorded on disk once it moved this many barriers past the recorded one (and before segments
     * are deleted, and at a clean close): a restart then reads and compares at most about this many transactions more
     * than it must. Recording costs a small file written and forced.
     */
    static final long FLOOR_RECORD_STEP_BARRIERS = 4096;

    /**
     * How the log writes.
     *
     * @param sync force ({@code FileChannel.force(false)}) before reporting records durable; false = write only, which
     *     survives a crash of the shepherd process but not of the machine
     * @param segmentBytesMax start a new segment file once the current one has at least this many bytes
     * @param recoveredMax records {@link #recovered()} keeps at open, the newest (the others are read back when needed)
     */
    public record Options(boolean sync, long segmentBytesMax, int recoveredMax) {

        /** Segment size of {@link #defaults()}. */
        public static final long SEGMENT_BYTES_DEFAULT = 64L << 20;

        public Options {
            if (segmentBytesMax < 1) throw new IllegalArgumentException("segmentBytesMax must be >= 1, was " + segmentBytesMax);
            if (recoveredMax < 1) throw new IllegalArgumentException("recoveredMax must be >= 1, was " + recoveredMax);
        }

        /** Every record found at open kept in {@link #recovered()}. */
        public Options(boolean sync, long segmentBytesMax) {
            this(sync, segmentBytesMax, Integer.MAX_VALUE);
        }

        /** Forced writes, 64 MiB segments. */
        public static Options defaults() {
            return new Options(true, SEGMENT_BYTES_DEFAULT);
        }
    }

    /**
     * Counters for status pages and tests. Each is current; together they may be a moment apart.
     *
     * @param recordsDurable records reported durable
     * @param forces forces of segment files (one per group commit, one per segment started, one per segment filled up
     *     in the middle of a group)
     * @param segments segment files on disk
     * @param bytesOnDisk bytes of those files
     */
    public record Stats(long recordsDurable, long forces, int segments, long bytesOnDisk) {
    }

    /** Creates segment files for writing; tests replace it to make writes fail. */
    interface ChannelFactory {
        FileChannel create(Path file) throws IOException;
    }

    private static final ChannelFactory NEW_FILES =
            file -> FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);

    /** A queued record: its encoded frame and whom to tell how it went. */
    private record Pending(long barrier, byte[] frame, Runnable onDurable, Consumer<IOException> onFailure) {
    }

    /** One segment file; mutated by the log's thread only. */
    private static final class Segment {
        final Path file;
        long lastBarrier;
        long bytes;

        Segment(Path file, long lastBarrier, long bytes) {
            this.file = file;
            this.lastBarrier = lastBarrier;
            this.bytes = bytes;
        }
    }

    private final Path dir;
    private final Options options;
    /** Where the last read-back ended (readers: one at a time, see {@link #readAfter}). */
    private volatile ReadMark lastRead;
    private final ChannelFactory channels;
    private volatile Recovered recovered;
    private final boolean history;
    private final Thread thread;

    private final Object lock = new Object();
    // guarded by lock
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final List<CompletableFuture<Void>> idleWaiters = new ArrayList<>();
    private long lastBarrier;
    private boolean closing;
    private IOException failure;
    private boolean releaseWanted;
    private boolean threadDone;

    private final AtomicLong releaseFloor = new AtomicLong(-1);
    /** Held while the floor file is written; guards nothing else. */
    private final Object floorLock = new Object();
    private volatile long recordedFloor;
    /** The last barrier of the oldest segment that {@link #release} may delete; MAX_VALUE when none may be deleted. */
    private volatile long deletableLastBarrier = Long.MAX_VALUE;
    private volatile long recordsDurable;
    private volatile long forces;
    private volatile int segmentCount;
    private volatile long bytesOnDisk;
    /** The last barrier and size of each segment but the newest (whose size grows), oldest first: [last0, bytes0, ...]. */
    private volatile long[] finishedSegments = new long[0];

    // the log's thread only (and open, before the thread starts)
    private final ArrayDeque<Segment> segments;
    /** The newest segment's channel, null until the first write after open (which starts a new segment). */
    private FileChannel current;
    private Path undeletable;

    private WriteAheadLog(Path dir, Options options, ChannelFactory channels, Recovered recovered,
            ArrayDeque<Segment> segments, boolean history, long recordedFloor) {
        this.dir = dir;
        this.options = options;
        this.channels = channels;
        this.recovered = recovered;
        this.history = history;
        this.recordedFloor = recordedFloor;
        this.segments = segments;
        long[] barriers = recovered.barriers();
        this.lastBarrier = barriers.length == 0 ? -1 : barriers[barriers.length - 1];
        this.thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true);
        for (Segment segment : segments) bytesOnDisk += segment.bytes;
        segmentsChanged();
    }

    /**
     * Opens the log in {@code dir} (created if missing) and reads every segment. A torn tail of the newest segment
     * (records whose writing a crash interrupted: never reported durable) is cut off with a warning.
     *
     * @throws WalDamagedException when the log is damaged in a way that may have lost acknowledged commits; its message
     *     names the file and offset and says what the operator can do
     * @throws IOException when the directory cannot be read or repaired
     */
    public static WriteAheadLog open(Path dir, Options options) throws IOException {
        return open(dir, options, NEW_FILES);
    }

    static WriteAheadLog open(Path dir, Options options, ChannelFactory channels) throws IOException {
        Objects.requireNonNull(options, "options");
        Files.createDirectories(dir);
        Files.deleteIfExists(dir.resolve(FloorFile.TEMPORARY_NAME));
        TreeMap<Long, Path> files = segmentFiles(dir, true);
        long floor = FloorFile.read(dir);
        boolean history = !files.isEmpty() || Files.exists(dir.resolve(FloorFile.NAME));
        List<SegmentReader.Scan> scans = new ArrayList<>();
        long barrier = -1;
        // every record is decoded (so checked); the newest recoveredMax are kept, the others read back when needed
        ArrayDeque<WalRecord> kept = new ArrayDeque<>();
        long[] droppedThrough = {-1};
        java.util.function.Consumer<WalRecord> keep = r -> {
            kept.add(r);
            if (kept.size() > options.recoveredMax()) droppedThrough[0] = kept.poll().barrier();
        };
        for (var e : files.entrySet()) {
            SegmentReader.Scan scan = SegmentReader.read(e.getValue(), e.getKey(), e.getKey().equals(files.lastKey()), barrier,
                    keep);
            if (scan.barriers().length > 0) barrier = scan.barriers()[scan.barriers().length - 1];
            scans.add(scan);
        }
        // the whole log was checked before anything is changed
        if (!scans.isEmpty()) repairNewest(dir, scans);
        ArrayDeque<Segment> segments = new ArrayDeque<>();
        long[] barriers = scans.stream().flatMapToLong(s -> java.util.Arrays.stream(s.barriers())).toArray();
        long lastTxId = -1;
        for (SegmentReader.Scan scan : scans) {
            lastTxId = Math.max(lastTxId, scan.lastTxId());
            segments.add(new Segment(scan.file(), scan.barriers()[scan.barriers().length - 1], scan.validBytes()));
        }
        WriteAheadLog log = new WriteAheadLog(dir, options, channels, new Recovered(List.copyOf(kept), barriers, lastTxId,
                droppedThrough[0]), segments, history, floor);
        LOG.info("write-ahead log {}: {} records in {} segments ({} kept in memory), last barrier {}, released floor {}", dir,
                barriers.length, segments.size(), kept.size(), log.lastBarrier, floor);
        log.thread.start();
        return log;
    }

    /** The segment files in {@code dir} by first barrier; anything else there is ignored with a warning. */
    private static TreeMap<Long, Path> segmentFiles(Path dir, boolean warn) throws IOException {
        TreeMap<Long, Path> files = new TreeMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (name.equals(FloorFile.NAME)) continue;
                long firstBarrier = WalFormat.firstBarrierOf(name);
                if (firstBarrier >= 0 && Files.isRegularFile(p)) {
                    files.put(firstBarrier, p);
                } else if (warn && !name.equals(FloorFile.TEMPORARY_NAME)) {
                    LOG.warn("ignoring {} in the write-ahead log directory: segment files are named <20 digits>{}", p,
                            WalFormat.SUFFIX);
                }
            }
        }
        return files;
    }

    /** Cuts a torn tail off the newest segment and removes it when no record is left in it. */
    private static void repairNewest(Path dir, List<SegmentReader.Scan> scans) throws IOException {
        SegmentReader.Scan newest = scans.get(scans.size() - 1);
        if (newest.tornTail() != null) {
            LOG.warn("{}: dropped the last {} bytes ({}): a write that a crash interrupted, never reported durable",
                    newest.file(), newest.fileBytes() - newest.validBytes(), newest.tornTail());
        }
        if (newest.barriers().length == 0) {
            if (newest.tornTail() == null) LOG.info("{}: removed, a crash came before its first record", newest.file());
            Files.delete(newest.file());
            WalFormat.forceDirectory(dir);
            scans.remove(scans.size() - 1);
        } else if (newest.tornTail() != null) {
            try (FileChannel ch = FileChannel.open(newest.file(), StandardOpenOption.WRITE)) {
                ch.truncate(newest.validBytes());
                ch.force(true);
            }
        }
    }

    /**
     * What open found on disk.
     *
     * @param kept the newest records, at most {@link Options#recoveredMax}, ascending barrier
     * @param barriers the barriers of every record, ascending
     * @param lastTxId the highest transaction id of every record, -1 for none
     * @param droppedThrough the newest record not kept, -1 when every record is (those are read back when needed)
     */
    public record Recovered(List<WalRecord> kept, long[] barriers, long lastTxId, long droppedThrough) {
        static final Recovered NONE = new Recovered(List.of(), new long[0], -1, -1);
    }

    /**
     * The newest records found at open, ascending barrier: every record of every segment still on disk unless there
     * were more than {@link Options#recoveredMax} (empty after {@link #forgetRecovered()}, as is the summary).
     */
    public List<WalRecord> recovered() {
        return recovered.kept();
    }

    /** What open found on disk: the records kept, and the barriers and last transaction id of all of them. */
    public Recovered recoveredSummary() {
        return recovered;
    }

    /** The caller has what it needed of {@link #recoveredSummary()}: the log stops holding it in memory. */
    public void forgetRecovered() {
        recovered = Recovered.NONE;
    }

    /** Whether the directory held a log (a segment or a recorded floor) when it was opened; false: new, or removed. */
    public boolean history() {
        return history;
    }

    /**
     * The released floor recorded so far (found at open, or recorded since), -1 for none: the log may have deleted
     * records up to it and holds every record appended above it.
     */
    public long floor() {
        return recordedFloor;
    }

    /**
     * Records {@code floorBarrier} as released, on disk (forced when {@link Options#sync}) before it returns, without
     * deleting anything: e.g. at the log's first start, the barriers the replicas committed before the log began. A
     * floor at or below the recorded one changes nothing.
     */
    public void recordFloor(long floorBarrier) throws IOException {
        synchronized (floorLock) {
            if (floorBarrier <= recordedFloor) return;
            FloorFile.write(dir, floorBarrier, options.sync());
            recordedFloor = floorBarrier;
        }
    }

    /**
     * Queues {@code r}; {@code onDurable} runs once it is on disk (forced when {@link Options#sync}), and
     * {@code onFailure} instead when it cannot be written. Never waits for the disk.
     *
     * <p>When a write or force fails, the log fails for good: that record and every record queued with or after it get
     * {@code onFailure} with that IOException, and later appends get {@code onFailure} at once, on the caller's thread,
     * as do appends after {@link #close}. Whether a failed record is found at the next open is unknown (as for a commit
     * whose connection broke).
     *
     * @throws IllegalArgumentException when r's barrier is not above {@link #lastBarrier()}, or r is too big
     */
    public void append(WalRecord r, Runnable onDurable, Consumer<IOException> onFailure) {
        Objects.requireNonNull(r, "r");
        Objects.requireNonNull(onDurable, "onDurable");
        Objects.requireNonNull(onFailure, "onFailure");
        byte[] frame = WalFormat.frame(r);
        IOException refused = null;
        synchronized (lock) {
            if (r.barrier() <= lastBarrier) {
                throw new IllegalArgumentException("barrier " + r.barrier() + " is not above the last one, " + lastBarrier);
            }
            if (closing) {
                refused = new IOException("the write-ahead log in " + dir + " is closed");
            } else if (failure != null) {
                refused = new IOException("the write-ahead log in " + dir + " failed earlier: " + failure.getMessage(), failure);
            } else {
                queue.add(new Pending(r.barrier(), frame, onDurable, onFailure));
                lastBarrier = r.barrier();
                lock.notifyAll();
            }
        }
        if (refused != null) onFailure.accept(refused);
    }

    /**
     * Says that no record with a barrier up to {@code floorBarrier} is needed any more (every replica committed it):
     * segment files whose records are all at or below it are deleted, by the log's thread, soon, after it has recorded
     * the floor ({@link #recordFloor}). The newest segment is always kept. The floor is also recorded every
     * {@value #FLOOR_RECORD_STEP_BARRIERS} barriers and at a clean {@link #close}, so that a restart does not go over
     * what every replica has. Cheap when there is nothing to do.
     */
    public void release(long floorBarrier) {
        long before = releaseFloor.getAndAccumulate(floorBarrier, Math::max);
        if (floorBarrier <= before) return;
        if (floorBarrier < deletableLastBarrier && floorBarrier - recordedFloor < FLOOR_RECORD_STEP_BARRIERS) return;
        synchronized (lock) {
            releaseWanted = true;
            lock.notifyAll();
        }
    }

    /**
     * The highest floor given to {@link #release} or recorded, -1 for none: every replica has committed every transaction
     * up to it (what {@link #floor()} says on disk may lag behind until segments are deleted).
     */
    public long releasedUpTo() {
        return Math.max(releaseFloor.get(), recordedFloor);
    }

    /**
     * Reads back, from the segment files, the records with a barrier above {@code afterBarrier}, ascending, at most
     * {@code maxRecords} (fewer: there are no more yet): for a replica that must replay more than the shepherd keeps in
     * memory. Only records above the released floor can be asked for (the others may be deleted). Blocks on the disk:
     * call it off the coordinator's thread; safe beside appends and releases.
     *
     * @throws IOException when a segment cannot be read, or {@code afterBarrier} is below the released floor
     */
    public List<WalRecord> readAfter(long afterBarrier, int maxRecords) throws IOException {
        if (afterBarrier < releasedUpTo()) {
            throw new IOException("records after barrier " + afterBarrier + " may have been released (the floor is "
                    + releasedUpTo() + ")");
        }
        TreeMap<Long, Path> files = segmentFiles(dir, false);
        // a replay reads batch after batch: the next one starts where the last one ended, not at the segment's start
        ReadMark mark = lastRead;
        boolean resume = mark != null && mark.lastBarrier() == afterBarrier && files.containsKey(mark.segment());
        Long start = resume ? Long.valueOf(mark.segment()) : files.floorKey(afterBarrier + 1);
        List<WalRecord> out = new ArrayList<>();
        for (var e : (start == null ? files : files.tailMap(start, true)).entrySet()) {
            if (out.size() >= maxRecords) break;
            long from = resume && e.getKey() == mark.segment() ? mark.offset() : 0;
            try {
                SegmentReader.Read read = SegmentReader.readAfter(e.getValue(), e.getKey(), e.getKey().equals(files.lastKey()),
                        afterBarrier, maxRecords - out.size(), from);
                out.addAll(read.records());
                if (!read.records().isEmpty()) {
                    lastRead = new ReadMark(e.getKey(), read.endOffset(), out.get(out.size() - 1).barrier());
                }
            } catch (java.nio.file.NoSuchFileException deleted) {
                // released meanwhile: it held only records at or below the floor, none of them asked for
            }
        }
        return out;
    }

    /** Where the last {@link #readAfter} ended: the segment (by first barrier), the offset after it, the last barrier. */
    private record ReadMark(long segment, long offset, long lastBarrier) {
    }

    /** The highest barrier ever appended or recovered, -1 for none. */
    public long lastBarrier() {
        synchronized (lock) {
            return lastBarrier;
        }
    }

    /**
     * The bytes the log would keep on disk were it released up to {@code floorBarrier}: all of it but the segments
     * (never the newest) whose records are all at or below that barrier. Safe from any thread; a reading taken while the
     * log's thread adds or deletes a segment may be off by that segment.
     */
    public long bytesKeptAbove(long floorBarrier) {
        long[] finished = finishedSegments;
        long kept = bytesOnDisk;
        for (int i = 0; i < finished.length && finished[i] <= floorBarrier; i += 2) kept -= finished[i + 1];
        return kept;
    }

    /** The counters now. */
    public Stats stats() {
        return new Stats(recordsDurable, forces, segmentCount, bytesOnDisk);
    }

    /**
     * Writes and forces everything queued, reports it, then stops the log's thread; later appends fail ("closed").
     * Idempotent. Called from a callback, it returns at once; the thread stops once it has written what was queued.
     */
    @Override
    public void close() {
        synchronized (lock) {
            closing = true;
            lock.notifyAll();
        }
        if (Thread.currentThread() == thread) return;
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    /** Completes once the log's thread has handled everything appended and released before the call (for tests). */
    CompletableFuture<Void> idle() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        synchronized (lock) {
            if (threadDone) {
                f.complete(null);
            } else {
                idleWaiters.add(f);
                lock.notifyAll();
            }
        }
        return f;
    }

    private void run() {
        try {
            boolean stop = false;
            while (!stop) {
                List<Pending> batch;
                List<CompletableFuture<Void>> waiters;
                synchronized (lock) {
                    while (queue.isEmpty() && !closing && !releaseWanted && idleWaiters.isEmpty()) lock.wait();
                    batch = new ArrayList<>(queue);
                    queue.clear();
                    waiters = new ArrayList<>(idleWaiters);
                    idleWaiters.clear();
                    releaseWanted = false;
                    stop = closing;
                }
                if (!batch.isEmpty() && !write(batch)) stop = true;
                deleteReleased();
                waiters.forEach(f -> f.complete(null));
            }
            boolean failed;
            synchronized (lock) {
                failed = failure != null;
            }
            if (!failed && releaseFloor.get() > recordedFloor) recordReleasedFloor(releaseFloor.get()); // a clean close
        } catch (InterruptedException e) {
            fail(new InterruptedIOException("the write-ahead log's thread was interrupted"), List.of());
        } finally {
            closeCurrent();
            List<CompletableFuture<Void>> waiters;
            synchronized (lock) {
                threadDone = true;
                waiters = new ArrayList<>(idleWaiters);
                idleWaiters.clear();
            }
            waiters.forEach(f -> f.complete(null));
        }
    }

    /** Writes, forces and reports {@code batch}; false when the log failed. */
    private boolean write(List<Pending> batch) {
        try {
            List<ByteBuffer> unwritten = new ArrayList<>(batch.size());
            for (Pending p : batch) {
                Segment newest = segments.peekLast();
                if (current == null || newest.bytes >= options.segmentBytesMax()) {
                    writeFully(unwritten);
                    unwritten.clear();
                    if (current != null) finishSegment();
                    newest = startSegment(p.barrier());
                }
                unwritten.add(ByteBuffer.wrap(p.frame()));
                newest.bytes += p.frame().length;
                newest.lastBarrier = p.barrier();
                bytesOnDisk += p.frame().length;
            }
            writeFully(unwritten);
            force(false);
        } catch (IOException | RuntimeException e) {
            fail(e instanceof IOException io ? io : new IOException("the write-ahead log failed: " + e, e), batch);
            return false;
        }
        recordsDurable += batch.size();
        for (Pending p : batch) runGuarded(p.onDurable(), "onDurable");
        return true;
    }

    private void writeFully(List<ByteBuffer> buffers) throws IOException {
        ByteBuffer[] array = buffers.toArray(new ByteBuffer[0]);
        int first = 0;
        while (first < array.length) {
            current.write(array, first, array.length - first);
            while (first < array.length && !array[first].hasRemaining()) first++;
        }
    }

    private void force(boolean metadata) throws IOException {
        if (!options.sync()) return;
        current.force(metadata);
        forces++;
    }

    private void finishSegment() throws IOException {
        force(false);
        current.close();
        current = null;
        segmentsChanged();
    }

    /** Creates the segment whose first record has {@code firstBarrier}; it survives a machine crash once this returns. */
    private Segment startSegment(long firstBarrier) throws IOException {
        Path file = dir.resolve(WalFormat.segmentName(firstBarrier));
        current = channels.create(file);
        byte[] header = WalFormat.segmentHeader();
        Segment s = new Segment(file, firstBarrier, header.length);
        segments.add(s);
        bytesOnDisk += header.length;
        segmentsChanged();
        writeFully(List.of(ByteBuffer.wrap(header)));
        force(true);
        if (options.sync()) WalFormat.forceDirectory(dir);
        return s;
    }

    private void deleteReleased() {
        long floor = releaseFloor.get();
        if (floor - recordedFloor >= FLOOR_RECORD_STEP_BARRIERS) recordReleasedFloor(floor);
        while (segments.size() > 1 && segments.peekFirst().lastBarrier <= floor) {
            Segment oldest = segments.peekFirst();
            try {
                recordFloor(floor);
                Files.deleteIfExists(oldest.file);
            } catch (IOException e) {
                if (!oldest.file.equals(undeletable)) {
                    LOG.warn("cannot delete the released segment {}: {}", oldest.file, e.toString());
                }
                undeletable = oldest.file;
                return;
            }
            segments.removeFirst();
            bytesOnDisk -= oldest.bytes;
            segmentsChanged();
        }
    }

    /** Records the released floor when nothing is deleted with it (a failure only costs a longer restart). */
    private void recordReleasedFloor(long floor) {
        try {
            recordFloor(floor);
        } catch (IOException e) {
            LOG.warn("cannot record the released floor {} of the write-ahead log in {}: {}", floor, dir, e.toString());
        }
    }

    private void segmentsChanged() {
        long[] finished = new long[2 * Math.max(0, segments.size() - 1)];
        int i = 0;
        for (Segment segment : segments) {
            if (i == finished.length) break;
            finished[i++] = segment.lastBarrier;
            finished[i++] = segment.bytes;
        }
        finishedSegments = finished;
        segmentCount = segments.size();
        deletableLastBarrier = segments.size() > 1 ? segments.peekFirst().lastBarrier : Long.MAX_VALUE;
    }

    /** Fails the log for good: {@code batch} and everything queued get {@code onFailure(e)}. */
    private void fail(IOException e, List<Pending> batch) {
        LOG.error("the write-ahead log in {} failed; no commit can be made durable any more", dir, e);
        List<Pending> failed = new ArrayList<>(batch);
        synchronized (lock) {
            failure = e;
            failed.addAll(queue);
            queue.clear();
        }
        for (Pending p : failed) runGuarded(() -> p.onFailure().accept(e), "onFailure");
    }

    private void closeCurrent() {
        if (current == null) return;
        try {
            current.close();
        } catch (IOException e) {
            LOG.warn("cannot close the write-ahead log segment {}: {}", segments.peekLast().file, e.toString());
        }
        current = null;
    }

    private static void runGuarded(Runnable callback, String what) {
        try {
            callback.run();
        } catch (RuntimeException e) {
            LOG.error("a write-ahead log {} callback failed", what, e);
        }
    }
}
