package org.shepherd.divergence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every replica answer that differed from the accepted one, masked or not: one WARN line per report, a bounded
 * in-memory list (oldest dropped first) that {@code shepherd divergences} serves and, when opened on a directory, a
 * file of JSON lines ({@value #FILE}, the fields named as the columns of {@code shepherd divergences}) that keeps the
 * reports across restarts. The file is appended to by a thread of
 * its own (the core thread that reports never waits for a disk) and flushed after each report, not forced: a power
 * loss may take the last reports, which are in the shepherd's log too. Past its size bound the file becomes
 * {@value #OLDER_FILE} (replacing the one before) and a new one starts. Thread-safe.
 */
public final class DivergenceLog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DivergenceLog.class);
    public static final int DEFAULT_CAPACITY = 1000;
    /** The current report file in the directory given to {@link #open}. */
    public static final String FILE = "divergences.jsonl";
    /** The file before the current one, kept after a rotation. */
    public static final String OLDER_FILE = "divergences.1.jsonl";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final int capacity;
    private final ArrayDeque<Divergence> entries = new ArrayDeque<>();
    private final List<Consumer<Divergence>> watchers = new CopyOnWriteArrayList<>();
    private long total;
    /** The file store, or null for a log kept in memory only. */
    private final Store store;

    public DivergenceLog() {
        this(DEFAULT_CAPACITY);
    }

    public DivergenceLog(int capacity) {
        this(capacity, null);
    }

    private DivergenceLog(int capacity, Store store) {
        if (capacity < 1) throw new IllegalArgumentException("capacity must be >= 1");
        this.capacity = capacity;
        this.store = store;
    }

    /**
     * A log whose reports are kept in {@code dir} ({@value #FILE}, and {@value #OLDER_FILE} after a rotation), with the
     * reports already there loaded: the newest {@code capacity} are served, and all of them count in {@link #total()}.
     * A line that cannot be read (a report torn by a crash, a line edited by hand) is skipped with a warning, and a
     * torn last line is cut off so that the next report starts a line of its own.
     *
     * @param fileBytesMax the size past which the current file is rotated (at least one report stays in it)
     */
    public static DivergenceLog open(Path dir, int capacity, long fileBytesMax) throws IOException {
        if (fileBytesMax < 1) throw new IllegalArgumentException("fileBytesMax must be >= 1");
        Files.createDirectories(dir);
        DivergenceLog log = new DivergenceLog(capacity, new Store(dir, fileBytesMax));
        log.load(dir.resolve(OLDER_FILE), false);
        log.store.bytes = log.load(dir.resolve(FILE), true);
        if (log.total > 0) LOG.info("{} divergence reports on record in {}", log.total, dir);
        return log;
    }

    public void report(Divergence d) {
        LOG.warn("divergence: replica {} answered [{}] where [{}] was accepted; tx {} statement {} ({}){}", d.replica(),
                d.actual(), d.accepted(), d.txId(), d.statementIndex(), d.statement(), d.masked() ? "; masked" : "");
        synchronized (this) {
            remember(d);
        }
        for (Consumer<Divergence> w : watchers) w.accept(d);
        if (store != null) store.append(d);
    }

    /** Ends a {@link #watch}. */
    public interface Watch extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Tells {@code watcher} of every report from now until the returned watch is closed, however many there are (the
     * retained reports are only the newest {@code capacity}); it runs on the reporting thread, so it must be quick.
     */
    public Watch watch(Consumer<Divergence> watcher) {
        watchers.add(watcher);
        return () -> watchers.remove(watcher);
    }

    private void remember(Divergence d) {
        if (entries.size() == capacity) entries.removeFirst();
        entries.addLast(d);
        total++;
    }

    /** The retained reports, oldest first. */
    public synchronized List<Divergence> snapshot() {
        return List.copyOf(entries);
    }

    /** How many reports are on record: made since start, plus those the files held at start (retained or not). */
    public synchronized long total() {
        return total;
    }

    /** Writes the reports not yet in the file and closes it; later reports are kept in memory only. */
    @Override
    public void close() {
        if (store != null) store.close();
    }

    /** Reads the reports of {@code file}, if it exists; returns the length of its complete lines. */
    private long load(Path file, boolean cutTornTail) throws IOException {
        if (!Files.exists(file)) return 0;
        int skipped = 0;
        int lineNo = 0;
        long read = 0;
        long complete = 0; // bytes of the complete lines: the file is read a line at a time, never whole
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            for (int b = in.read(); b != -1; b = in.read()) {
                read++;
                if (b != '\n') {
                    line.write(b);
                    continue;
                }
                lineNo++;
                complete = read;
                String text = line.toString(StandardCharsets.UTF_8);
                line.reset();
                if (text.isBlank()) continue;
                try {
                    Divergence d = fromJson(text);
                    synchronized (this) {
                        remember(d);
                    }
                } catch (IOException | RuntimeException e) {
                    if (skipped++ == 0) LOG.warn("{}: line {} is not a divergence report, skipped: {}", file, lineNo, e.getMessage());
                }
            }
        }
        if (skipped > 1) LOG.warn("{}: {} lines skipped in all", file, skipped);
        if (complete < read) {
            LOG.warn("{}: the last {} bytes are an unfinished report (the shepherd stopped while writing it){}", file,
                    read - complete, cutTornTail ? "; cut off" : "");
            if (cutTornTail) {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    ch.truncate(complete);
                }
            }
        }
        return complete;
    }

    static String toJson(Divergence d) {
        ObjectNode n = JSON.createObjectNode();
        n.put("time", Instant.ofEpochMilli(d.atMillis()).toString());
        n.put("txid", d.txId());
        n.put("statement_index", d.statementIndex());
        n.put("statement", d.statement());
        n.put("replica", d.replica());
        n.put("expected", d.accepted());
        n.put("got", d.actual());
        n.put("masked", d.masked());
        try {
            return JSON.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a divergence report cannot be written as JSON", e);
        }
    }

    static Divergence fromJson(String line) throws IOException {
        JsonNode n = JSON.readTree(line);
        if (n == null || !n.isObject()) throw new IOException("not a JSON object");
        return new Divergence(Instant.parse(required(n, "time").asText()).toEpochMilli(), required(n, "txid").asLong(),
                required(n, "statement_index").asInt(), required(n, "statement").asText(), required(n, "replica").asText(),
                required(n, "expected").asText(), required(n, "got").asText(), required(n, "masked").asBoolean());
    }

    private static JsonNode required(JsonNode n, String field) throws IOException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) throw new IOException("no \"" + field + "\"");
        return v;
    }

    /** The report files: appended to on a thread of their own, in the order of the reports. */
    private static final class Store {
        private final Path dir;
        private final long bytesMax;
        private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "shepherd-divergence-log");
            t.setDaemon(true);
            return t;
        });
        /** Writer thread only. */
        private OutputStream out;
        private long bytes;
        private boolean failed;

        Store(Path dir, long bytesMax) {
            this.dir = dir;
            this.bytesMax = bytesMax;
        }

        void append(Divergence d) {
            try {
                writer.execute(() -> write(d));
            } catch (RejectedExecutionException closed) {
                LOG.warn("divergence log closed: the report on tx {} is kept in memory only", d.txId());
            }
        }

        private void write(Divergence d) {
            if (failed) return;
            byte[] line = (toJson(d) + "\n").getBytes(StandardCharsets.UTF_8);
            Path file = dir.resolve(FILE);
            try {
                if (bytes > 0 && bytes + line.length > bytesMax) {
                    closeStream();
                    Files.move(file, dir.resolve(OLDER_FILE), StandardCopyOption.REPLACE_EXISTING);
                    bytes = 0;
                }
                if (out == null) {
                    out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                }
                out.write(line);
                out.flush();
                bytes += line.length;
            } catch (IOException e) {
                failed = true;
                LOG.error("cannot write divergence reports to {}: later reports are kept in memory and in this log only",
                        file, e);
                closeQuietly();
            }
        }

        private void closeStream() throws IOException {
            if (out != null) out.close();
            out = null;
        }

        private void closeQuietly() {
            try {
                closeStream();
            } catch (IOException e) {
                LOG.warn("closing {}: {}", dir.resolve(FILE), e.getMessage());
            }
        }

        void close() {
            writer.shutdown();
            try {
                if (writer.awaitTermination(10, TimeUnit.SECONDS)) {
                    closeQuietly(); // after the writer's last write: awaitTermination orders them
                } else {
                    LOG.warn("divergence reports still being written to {} after 10 s", dir.resolve(FILE));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
