package org.shepherd.translator;

import java.sql.SQLException;
import java.util.Locale;

/**
 * What a sequence is, every default resolved: the type of its values, its first value, its step, its bounds and
 * whether it starts again at the other bound when it passes one.
 *
 * @param type SMALLINT, INTEGER or BIGINT
 * @param start the first value, and where {@code ALTER SEQUENCE ... RESTART} goes back to
 * @param increment the step, not 0
 * @param min the smallest value (MINVALUE)
 * @param max the largest value (MAXVALUE)
 * @param cycle whether a draw past a bound gives the other bound (else the sequence has no values left)
 */
public record SequenceDefinition(String type, long start, long increment, long min, long max, boolean cycle) {

    /** The smallest value of a sequence type. */
    static long typeMin(String type) throws SQLException {
        switch (type) {
            case "SMALLINT": return Short.MIN_VALUE;
            case "INTEGER": return Integer.MIN_VALUE;
            case "BIGINT": return Long.MIN_VALUE;
            default: throw unsupportedType(type);
        }
    }

    /** The largest value of a sequence type. */
    static long typeMax(String type) throws SQLException {
        switch (type) {
            case "SMALLINT": return Short.MAX_VALUE;
            case "INTEGER": return Integer.MAX_VALUE;
            case "BIGINT": return Long.MAX_VALUE;
            default: throw unsupportedType(type);
        }
    }

    /** The type named by {@code AS word}, spelled as this record keeps it. */
    static String typeNamed(String word) throws SQLException {
        String t = word.toUpperCase(Locale.ROOT);
        if (t.equals("INT")) return "INTEGER";
        typeMin(t); // refuses what is not a type of sequence
        return t;
    }

    private static SQLException unsupportedType(String type) {
        return new SQLException("a sequence of type " + type + " is not supported (SMALLINT, INTEGER or BIGINT)", "0A000");
    }

    /** This definition if its values are consistent, else the error an engine gives for such a CREATE or ALTER. */
    public SequenceDefinition checked() throws SQLException {
        if (increment == 0) throw new SQLException("a sequence's INCREMENT BY must not be 0", "42000");
        if (min < typeMin(type) || max > typeMax(type)) {
            throw new SQLException("MINVALUE " + min + " and MAXVALUE " + max + " must lie within the range of " + type, "42000");
        }
        if (min >= max) throw new SQLException("MINVALUE " + min + " must be below MAXVALUE " + max, "42000");
        if (!holds(start)) {
            throw new SQLException("START WITH " + start + " must lie between MINVALUE " + min + " and MAXVALUE " + max, "42000");
        }
        return this;
    }

    /** Whether {@code value} lies within the bounds. */
    public boolean holds(long value) {
        return value >= min && value <= max;
    }

    /** The bound a cycling sequence starts again from when it passes the other one. */
    public long wrapValue() {
        return increment > 0 ? min : max;
    }

    /**
     * What a draw that gives {@code value} leaves as the next value: {@code value + increment}, the other bound for a
     * cycling sequence that passes one, or null when a sequence that does not cycle has no value left.
     */
    public Long after(long value) {
        long next = value + increment;
        boolean overflow = ((value ^ next) & (increment ^ next)) < 0;
        if (!overflow && holds(next)) return next;
        return cycle ? wrapValue() : null;
    }
}
