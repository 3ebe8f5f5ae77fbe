package org.shepherd.wal;

import java.util.List;

/**
 * One write statement of a committed transaction: its rendering for each dialect of the replica set. A dialect is
 * missing when the statement cannot be expressed in it.
 */
public record LoggedStatement(List<Rendering> renderings) {

    public LoggedStatement {
        renderings = List.copyOf(renderings);
    }

    /** The rendering for {@code dialect}, or null when the statement has none in it. */
    public Rendering rendering(String dialect) {
        for (Rendering r : renderings) {
            if (r.dialect().equals(dialect)) return r;
        }
        return null;
    }
}
