package org.shepherd.coordinator.cbs;

import java.time.Instant;
import java.util.Random;
import java.util.UUID;
import org.shepherd.time.Clock;
import org.shepherd.translator.DeterminismSource;

/**
 * NOW(), RAND() and UUID() evaluated once by the coordinator, from an injected clock and a seeded generator; NEXT VALUE
 * FOR drawn from the coordinator's {@link Sequences}.
 */
final class ClockDeterminism implements DeterminismSource {

    private final Clock clock;
    private final Random random;
    private volatile Sequences sequences = Sequences.inMemory();
    private volatile SequenceFinder finder;

    /** Finds a sequence the shepherd does not keep among the primary's own, or answers null. */
    @FunctionalInterface
    interface SequenceFinder {
        Sequences.Found find(String name) throws java.sql.SQLException;
    }

    ClockDeterminism(Clock clock, long seed) {
        this.clock = clock;
        this.random = new Random(seed);
    }

    @Override
    public Instant now() {
        return Instant.ofEpochMilli(clock.nowMillis());
    }

    /** Where {@link #nextValue} draws from (in memory until set). */
    void useSequences(Sequences s) {
        this.sequences = s;
    }

    Sequences sequences() {
        return sequences;
    }

    /** Where a sequence the shepherd does not keep is looked for before a draw from it fails. */
    void adoptFrom(SequenceFinder f) {
        this.finder = f;
    }

    @Override
    public long nextValue(String name) throws java.sql.SQLException {
        Sequences s = sequences;
        SequenceFinder f = finder;
        if (f != null && !s.knows(name)) {
            Sequences.Found found = f.find(name); // outside the sequences' lock: it reads the primary
            if (found != null) s.adopt(name, found);
        }
        return s.next(name);
    }

    @Override
    public synchronized double random() {
        return random.nextDouble();
    }

    @Override
    public synchronized UUID uuid() {
        return new UUID((random.nextLong() & ~0xF000L) | 0x4000L, (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L);
    }
}
