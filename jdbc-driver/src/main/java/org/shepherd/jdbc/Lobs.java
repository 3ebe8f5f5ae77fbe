package org.shepherd.jdbc;

import java.sql.SQLException;

/** The errors {@link ShepherdBlob} and {@link ShepherdClob} share. */
final class Lobs {

    /** The largest value held in one array (as the JDK's own arrays allow). */
    static final int MAX_LENGTH = Integer.MAX_VALUE - 8;

    private Lobs() {
    }

    static SQLException invalid(String what) {
        return new SQLException(what, "22023");
    }

    static SQLException freed(String kind) {
        return new SQLException("this " + kind + " was freed (" + kind + ".free)", "HY010");
    }

    static int intLength(long length) throws SQLException {
        if (length > MAX_LENGTH) {
            throw new SQLException("a large object of " + length + " is longer than Shepherd holds in memory (" + MAX_LENGTH
                    + ")", "22001");
        }
        return (int) length;
    }
}
