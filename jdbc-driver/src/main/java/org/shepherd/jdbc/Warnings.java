package org.shepherd.jdbc;

import java.sql.SQLWarning;
import java.util.List;

/** The warning chains that {@code getWarnings()} returns. */
final class Warnings {

    private Warnings() {
    }

    /** {@code head} with {@code more} appended, in order, at the end of its chain; the first of {@code more} if {@code head} is null. */
    static SQLWarning append(SQLWarning head, List<SQLWarning> more) {
        SQLWarning chain = head;
        for (SQLWarning w : more) {
            if (chain == null) {
                chain = w;
            } else {
                chain.setNextWarning(w);
            }
        }
        return chain;
    }
}
