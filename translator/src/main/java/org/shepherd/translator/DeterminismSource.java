package org.shepherd.translator;

import java.time.Instant;
import java.time.ZoneId;
import java.util.UUID;

/**
 * Where pinned values come from. The coordinator implements it over an injected clock and a seeded random generator
 * (a session adds its user and its last generated key) and calls {@link Translation#bind} once per statement
 * execution, so every replica receives the same values.
 */
public interface DeterminismSource {

    /** The statement's time; read at most once per {@link Translation#bind}. */
    Instant now();

    /** A value in [0, 1), once per RAND()/RANDOM() occurrence. */
    double random();

    /** Once per UUID()/GEN_RANDOM_UUID() occurrence. */
    UUID uuid();

    /**
     * The next value of sequence {@code name} (as the client's engine stores the name), once per {@code NEXT VALUE FOR}
     * occurrence.
     */
    default long nextValue(String name) throws java.sql.SQLException {
        throw new java.sql.SQLException("NEXT VALUE FOR " + name + ": this coordinator keeps no sequences", "0A000");
    }

    /**
     * The name the session's client connected to the shepherd with, for CURRENT_USER and its spellings (each replica
     * would name its own credentials).
     */
    default String sessionUser() throws java.sql.SQLException {
        throw new java.sql.SQLException("CURRENT_USER: the session's user is not known here", "0A000");
    }

    /**
     * The first key the session's latest INSERT into an identity table generated, for LAST_INSERT_ID() and its
     * spellings (each replica's own function would answer for its own connection, which serves many sessions); null
     * before any.
     */
    default Long lastInsertId() throws java.sql.SQLException {
        throw new java.sql.SQLException("LAST_INSERT_ID(): the session's inserts are not known here", "0A000");
    }

    /** The zone in which CURRENT_TIMESTAMP, CURRENT_DATE and CURRENT_TIME are local times. */
    default ZoneId zone() {
        return ZoneId.systemDefault();
    }
}
