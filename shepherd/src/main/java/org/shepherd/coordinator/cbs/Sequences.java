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
import org.shepherd.translator.SequenceDefinition;
import org.shepherd.translator.SequenceStatement;

/**
 * The sequences of a CBS coordinator. The shepherd keeps them itself (no replica's sequence is used): a draw happens
 * once, here, and its value is bound on every replica, so the replicas store the same keys whatever the order in which
 * they run their transactions. Like an engine's sequence, a draw is not undone by a rollback, and CREATE, ALTER and
 * DROP SEQUENCE take effect at once, whatever the transaction.
 *
 * <p>With a file ({@link #open}) they survive restarts: before handing out values the store writes, and forces, where
 * the sequence will be after a block of {@value #BLOCK} draws; after a crash it resumes there, so a value is never
 * handed out twice (what was reserved and not drawn is skipped, as engines' cached sequences do; a sequence that does
 * not cycle may so come to its end early).
 */
final class Sequences {

    /** Draws reserved by one write of the file. */
    static final int BLOCK = 1000;

    /**
     * Where a sequence is.
     *
     * @param next the value the next draw gives (when outside the bounds, after an ALTER: the bound a cycling sequence
     *     wraps to, else nothing); when {@code spent}, the last value given
     * @param spent whether the sequence passed a bound it does not cycle at: a draw gives the value after {@code next}
     *     if an ALTER (a higher MAXVALUE, CYCLE) made one
     */
    private record Position(long next, boolean spent) {

        /** The value a draw here gives, or null when there is none. */
        Long value(SequenceDefinition d) {
            if (spent) return d.after(next);
            if (d.holds(next)) return next;
            return d.cycle() ? d.wrapValue() : null;
        }

        /** Where the sequence is after a draw here that gave {@code value}. */
        static Position after(long value, SequenceDefinition d) {
            Long next = d.after(value);
            return next == null ? new Position(value, true) : new Position(next, false);
        }
    }

    private static final class Sequence {
        SequenceDefinition definition;
        Position position;
        /** Draws left before the file must be written again, and where the sequence is after them. */
        int reservedDraws;
        Position reservedUntil;

        Sequence(SequenceDefinition definition, Position position) {
            this.definition = definition;
            this.position = position;
        }

        /** Where the file says the sequence is: past what is reserved. */
        Position kept() {
            return reservedDraws > 0 ? reservedUntil : position;
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
                try {
                    s.byName.put(name, read(p.getProperty(name).trim()));
                } catch (RuntimeException e) {
                    throw new IOException(file + ": cannot read sequence " + name + " (" + p.getProperty(name) + ")", e);
                }
            }
        }
        return s;
    }

    /**
     * A sequence from its line: {@code next=N spent=B type=T start=S increment=I min=A max=Z cycle=B}, or the first
     * format's {@code next increment} (a BIGINT sequence without bounds).
     */
    private static Sequence read(String line) {
        String[] words = line.split("\\s+");
        if (words.length == 2 && !words[0].contains("=")) {
            long next = Long.parseLong(words[0]);
            return new Sequence(new SequenceDefinition("BIGINT", next, Long.parseLong(words[1]), Long.MIN_VALUE,
                    Long.MAX_VALUE, false), new Position(next, false));
        }
        Map<String, String> v = new HashMap<>();
        for (String w : words) {
            int eq = w.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("not key=value: " + w);
            v.put(w.substring(0, eq), w.substring(eq + 1));
        }
        SequenceDefinition d = new SequenceDefinition(required(v, "type"), Long.parseLong(required(v, "start")),
                Long.parseLong(required(v, "increment")), Long.parseLong(required(v, "min")),
                Long.parseLong(required(v, "max")), Boolean.parseBoolean(required(v, "cycle")));
        return new Sequence(d, new Position(Long.parseLong(required(v, "next")), Boolean.parseBoolean(required(v, "spent"))));
    }

    private static String required(Map<String, String> v, String key) {
        String value = v.get(key);
        if (value == null) throw new IllegalArgumentException("no " + key);
        return value;
    }

    /** Runs a CREATE, ALTER or DROP SEQUENCE. */
    synchronized void apply(SequenceStatement st) throws SQLException {
        Sequence s = byName.get(st.name());
        switch (st.kind()) {
            case CREATE:
                if (s != null) {
                    if (st.ifExists()) return;
                    throw new SQLException("sequence " + st.name() + " already exists", "42000");
                }
                SequenceDefinition d = st.definition();
                byName.put(st.name(), new Sequence(d, new Position(d.start(), false)));
                break;
            case ALTER:
                if (s == null) {
                    if (st.ifExists()) return;
                    throw doesNotExist(st.name());
                }
                SequenceStatement.Alteration a = st.alter(s.definition);
                s.definition = a.definition();
                if (a.restartAt() != null) s.position = new Position(a.restartAt(), false);
                s.reservedDraws = 0; // the next draw reserves again, in the new steps
                break;
            default:
                if (byName.remove(st.name()) == null) {
                    if (st.ifExists()) return;
                    throw doesNotExist(st.name());
                }
        }
        save();
    }

    private static SQLException doesNotExist(String name) {
        return new SQLException("sequence " + name + " does not exist (Shepherd keeps sequences itself, those created"
                + " through it and those the primary held when first drawn from; CREATE SEQUENCE it through Shepherd)", "42000");
    }

    /** A sequence an engine held before the shepherd kept it: its definition, and the value its next draw gives. */
    record Found(SequenceDefinition definition, long next) { }

    /** Whether the shepherd keeps a sequence of this name. */
    synchronized boolean knows(String name) {
        return byName.containsKey(name);
    }

    /**
     * Keeps, from now on, a sequence the primary held (created there before the shepherd ran, or behind its back), from
     * the value its next draw there would have given; unless one of that name is kept already.
     */
    synchronized void adopt(String name, Found found) throws SQLException {
        if (byName.containsKey(name)) return;
        byName.put(name, new Sequence(found.definition().checked(), new Position(found.next(), false)));
        try {
            save();
        } catch (SQLException e) {
            byName.remove(name);
            throw e;
        }
    }

    /** The next value of sequence {@code name}. */
    synchronized long next(String name) throws SQLException {
        Sequence s = byName.get(name);
        if (s == null) throw doesNotExist(name);
        if (s.reservedDraws == 0) {
            Position until = s.position;
            for (int i = 0; i < BLOCK; i++) {
                Long v = until.value(s.definition);
                if (v == null) break;
                until = Position.after(v, s.definition);
            }
            s.reservedUntil = until;
            s.reservedDraws = BLOCK;
            try {
                save();
            } catch (SQLException e) {
                s.reservedDraws = 0;
                throw e;
            }
        }
        Long value = s.position.value(s.definition);
        if (value == null) {
            SequenceDefinition d = s.definition;
            throw new SQLException("sequence " + name + " has no value left: it passed " + (d.increment() > 0 ? "MAXVALUE "
                    + d.max() : "MINVALUE " + d.min()) + " and does not CYCLE (ALTER SEQUENCE " + name + " RESTART, or"
                    + " ... CYCLE)", "2200H");
        }
        s.position = Position.after(value, s.definition);
        s.reservedDraws--;
        return value;
    }

    /** Writes every sequence, past what is reserved: to a new file, forced, then moved over the old one. */
    private void save() throws SQLException {
        if (file == null) return;
        Map<String, String> lines = new TreeMap<>();
        byName.forEach((name, s) -> {
            SequenceDefinition d = s.definition;
            Position p = s.kept();
            lines.put(name, "next=" + p.next() + " spent=" + p.spent() + " type=" + d.type() + " start=" + d.start()
                    + " increment=" + d.increment() + " min=" + d.min() + " max=" + d.max() + " cycle=" + d.cycle());
        });
        Properties p = new Properties();
        p.putAll(lines);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try (OutputStream out = Files.newOutputStream(tmp)) {
                p.store(out, "Shepherd's sequences: name = where it is past what is reserved, and its definition");
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
