package org.shepherd.translator;

/**
 * A per-replica value (clock, random, UUID, sequence, user, the session's last generated key) in the client's statement
 * that the translator replaced by a parameter marker; {@link Translation#bind} fills it from a {@link DeterminismSource}.
 *
 * @param kind what value the slot receives and as which JDBC type
 * @param source the expression as the client wrote it, for messages and logs; for a SEQUENCE, the sequence's name as
 *     the client's engine stores it
 * @param fractionDigits for a TIMESTAMP or UTC_TIMESTAMP, the digits of the second's fraction kept (truncated): 6, or as
 *     MySQL's clocks give them, 0 for {@code NOW()} and {@code CURRENT_TIMESTAMP}, n for {@code NOW(n)}
 */
public record PinnedSlot(Kind kind, String source, int fractionDigits) {

    /** Microseconds, the finest every engine keeps. */
    public static final int MICROSECOND_DIGITS = 6;

    public PinnedSlot {
        if (fractionDigits < 0 || fractionDigits > MICROSECOND_DIGITS) {
            throw new IllegalArgumentException("fraction digits " + fractionDigits);
        }
    }

    public PinnedSlot(Kind kind, String source) {
        this(kind, source, MICROSECOND_DIGITS);
    }

    /** The value of a slot and the Java type bound for it. */
    public enum Kind {
        /** Local date-time at microsecond precision, bound as java.sql.Timestamp. */
        TIMESTAMP,
        /** UTC date-time at microsecond precision, bound as java.sql.Timestamp. */
        UTC_TIMESTAMP,
        /** Local date, bound as java.sql.Date. */
        DATE,
        /** Local time of day in whole seconds, bound as java.sql.Time. */
        TIME,
        /** The date in UTC (MySQL's {@code UTC_DATE()}), bound as java.sql.Date. */
        UTC_DATE,
        /** The time of day in UTC in whole seconds (MySQL's {@code UTC_TIME()}), bound as java.sql.Time. */
        UTC_TIME,
        /** Whole seconds since 1970-01-01 00:00 UTC ({@code UNIX_TIMESTAMP()}), a long. */
        EPOCH_SECOND,
        /** Milliseconds since 1970-01-01 00:00 UTC (HSQLDB's {@code UNIX_MILLIS()}), a long. */
        EPOCH_MILLI,
        /** A double in [0, 1). */
        RANDOM,
        /** A UUID as its 36-character text. */
        UUID,
        /** The next value of the shepherd's sequence named by the slot's source, a long. */
        SEQUENCE,
        /**
         * The user the client connected to the shepherd as ({@code CURRENT_USER}, {@code USER()}, ...), as its engine
         * would show it: a string.
         */
        USER,
        /**
         * The first key the session's latest INSERT into an identity table generated ({@code LAST_INSERT_ID()},
         * {@code IDENTITY_VAL_LOCAL()}, {@code IDENTITY()}): a long; before any, 0 for a MySQL-family client (as MySQL
         * answers), else NULL.
         */
        LAST_INSERT_ID;

        /** Whether the slot's value is the statement's time, read once per execution for all such slots. */
        public boolean readsClock() {
            switch (this) {
                case TIMESTAMP, UTC_TIMESTAMP, DATE, TIME, UTC_DATE, UTC_TIME, EPOCH_SECOND, EPOCH_MILLI:
                    return true;
                default:
                    return false;
            }
        }
    }
}
