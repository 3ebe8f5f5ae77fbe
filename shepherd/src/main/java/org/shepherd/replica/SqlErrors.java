package org.shepherd.replica;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** What a replica's SQLException says, looked up through its causes and chained exceptions. */
public final class SqlErrors {

    /** Exceptions looked at at most, against cycles. */
    private static final int CHAIN_DEPTH_MAX = 8;

    private SqlErrors() {
    }

    /** Whether the error, one of its causes or one of its chained SQLExceptions satisfies the test. */
    public static boolean anyInChain(SQLException e, Predicate<SQLException> test) {
        List<SQLException> seen = new ArrayList<>();
        Throwable t = e;
        while (t != null && seen.size() < CHAIN_DEPTH_MAX) {
            if (t instanceof SQLException) {
                SQLException s = (SQLException) t;
                if (seen.contains(s)) {
                    break;
                }
                seen.add(s);
                if (test.test(s)) {
                    return true;
                }
                SQLException next = s.getNextException();
                t = next != null && !seen.contains(next) ? next : s.getCause();
            } else {
                t = t.getCause();
            }
        }
        return false;
    }

    /** SQLState class 08: the connection is broken (the replica is not answering, it is down). */
    public static boolean isConnectionState(String state) {
        return state != null && state.startsWith("08");
    }
}
