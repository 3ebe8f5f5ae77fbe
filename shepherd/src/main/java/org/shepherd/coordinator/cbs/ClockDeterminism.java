package org.shepherd.coordinator.cbs;

import java.time.Instant;
import java.util.Random;
import java.util.UUID;
import org.shepherd.time.Clock;
import org.shepherd.translator.DeterminismSource;

/** NOW(), RAND() and UUID() evaluated once by the coordinator, from an injected clock and a seeded generator. */
final class ClockDeterminism implements DeterminismSource {

    private final Clock clock;
    private final Random random;

    ClockDeterminism(Clock clock, long seed) {
        this.clock = clock;
        this.random = new Random(seed);
    }

    @Override
    public Instant now() {
        return Instant.ofEpochMilli(clock.nowMillis());
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
