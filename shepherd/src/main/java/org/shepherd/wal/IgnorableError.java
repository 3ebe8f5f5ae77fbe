package org.shepherd.wal;

/**
 * Which error of the replica running a {@link Rendering} means "already done", so that replaying it is harmless: the
 * dialect has no {@code IF [NOT] EXISTS} for the statement and the shepherd emulates it by ignoring that error.
 */
public enum IgnorableError {
    /** Every error is a real failure. */
    NONE(0),
    /** The object the statement creates exists already (emulated {@code IF NOT EXISTS}). */
    ALREADY_EXISTS(1),
    /** The object the statement drops or alters does not exist (emulated {@code IF EXISTS}). */
    DOES_NOT_EXIST(2),
    /**
     * The table an ALTER TABLE alters does not exist (emulated {@code ALTER TABLE IF EXISTS t}): an error about anything
     * else in it, the table being there, is a failure.
     */
    TABLE_DOES_NOT_EXIST(3),
    /**
     * What a change of an ALTER TABLE drops does not exist, the table does (emulated {@code DROP COLUMN IF EXISTS c}):
     * the table missing is a failure.
     */
    PART_DOES_NOT_EXIST(4);

    private final int code;

    IgnorableError(int code) {
        this.code = code;
    }

    /** The byte that stands for this value in the write-ahead log; never changes. */
    int code() {
        return code;
    }

    static IgnorableError ofCode(int code) {
        for (IgnorableError e : values()) {
            if (e.code == code) return e;
        }
        throw new IllegalArgumentException("unknown ignorable-error code " + code);
    }
}
