package org.shepherd.coordinator.cbs;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.shepherd.translator.SequenceStatement;

/**
 * The sequences of a CBS coordinator. The shepherd keeps them itself (no replica's sequence is used): a draw happens
 * once, here, and its value is bound on every replica, so the replicas store the same keys whatever the order in which
 * they run their transactions. Like an engine's sequence, a draw is not undone by a rollback.
 *
 * <p>With a file ({@link #open}) they survive restarts: before handing out values the store writes, and forces, the
 * value after a block of {@value #BLOCK} draws; after a crash it resumes there, so a value is never handed out twice
 * (what was reserved and not drawn is skipped, as engines' cached sequences do).
 */
final class Sequences {

    /** Draws reserved by one write of the file. */
    static final int BLOCK = 1000;

    private static final class Sequence {
        long next;
        final long increment;
        int reservedDraws;

        Sequence(long next, long increment) {
            this.next = next;
            this.increment = increment;
        }
    }

    private final Path file;
    private final Map<String, Sequence> byName = new HashMap<>();

    private Sequences(Path file) {
        this.file = file;
    }

    /** Sequences kept in memory only (tests, and coordinators without a data directory). */
    static Sequences inMemory() {
        return new Sequences(null);
    }

    /** Sequences kept in {@code file}, read back if it exists. */
    static Sequences open(Path file) throws IOException {
        Sequences s = new Sequences(file);
        if (Files.exists(file)) {
            Properties p = new Properties();
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(in);
            }
            for (String name : p.stringPropertyNames()) {
                String[] v = p.getProperty(name).trim().split("\\s+");
                if (v.length != 2) throw new IOException(file + ": cannot read sequence " + name + " (" + p.getProperty(name) + ")");
                try {
                    s.byName.put(name, new Sequence(Long.parseLong(v[0]), Long.parseLong(v[1])));
                } catch (NumberFormatException e) {
                    throw new IOException(file + ": cannot read sequence " + name + " (" + p.getProperty(name) + ")", e);
                }
            }
        }
        return s;
    }

    /** Runs a CREATE or DROP SEQUENCE. */
    synchronized void apply(SequenceStatement st) throws SQLException {
        if (st.create()) {
            if (byName.containsKey(st.name())) {
                throw new SQLException("sequence " + st.name() + " already exists", "42000");
            }
            byName.put(st.name(), new Sequence(st.start(), st.increment()));
        } else if (byName.remove(st.name()) == null) {
            if (st.ifExists()) return;
            throw new SQLException("sequence " + st.name() + " does not exist", "42000");
        }
        save();
    }

    /** The next value of sequence {@code name}. */
    synchronized long next(String name) throws SQLException {
        Sequence s = byName.get(name);
        if (s == null) {
            throw new SQLException("sequence " + name + " does not exist (Shepherd keeps sequences itself: one created"
                    + " behind its back, on a replica, is not one of them; CREATE SEQUENCE it through Shepherd)", "42000");
        }
        if (s.reservedDraws == 0) {
            long value = s.next;
            s.next = Math.addExact(value, Math.multiplyExact(s.increment, (long) BLOCK));
            try {
                save();
            } finally {
                s.next = value;
            }
            s.reservedDraws = BLOCK;
        }
        long value = s.next;
        s.next += s.increment;
        s.reservedDraws--;
        return value;
    }

    /** Writes every sequence's next unreserved value: to a new file, forced, then moved over the old one. */
    private void save() throws SQLException {
        if (file == null) return;
        Map<String, String> lines = new TreeMap<>();
        byName.forEach((name, s) -> lines.put(name, (s.next + (long) s.reservedDraws * s.increment) + " " + s.increment));
        Properties p = new Properties();
        p.putAll(lines);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try (OutputStream out = Files.newOutputStream(tmp)) {
                p.store(out, "Shepherd's sequences: name = next unreserved value, increment");
            }
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            try (FileChannel dir = FileChannel.open(file.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
                dir.force(true);
            }
        } catch (IOException e) {
            throw new SQLException("cannot keep the sequences in " + file + ": " + e.getMessage(), "58030", e);
        }
    }
}
