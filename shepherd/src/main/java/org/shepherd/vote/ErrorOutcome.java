package org.shepherd.vote;

import java.sql.SQLException;
import java.util.Set;
import org.shepherd.replica.QueryTimeouts;

/**
 * How an error answer is compared: by SQLState class (the first two characters), except that every vendor's
 * "retry me" error (deadlock, lock wait timeout, serialization failure) is one outcome, {@link #RETRY}.
 */
public final class ErrorOutcome {

    public static final String RETRY = "RETRY";

    /** Vendor error codes of MariaDB/MySQL that mean "the transaction was rolled back, run it again". */
    private static final Set<Integer> MARIADB_RETRY_CODES = Set.of(1213, 1205, 1020);
    /** Derby 40XL1/40XL2 (lock timeout), PostgreSQL 40001/40P01, and the standard 40001. */
    private static final Set<String> RETRY_STATES = Set.of("40001", "40P01", "40XL1", "40XL2");

    private ErrorOutcome() {
    }

    public static boolean isRetryable(SQLException e) {
        String state = e.getSQLState();
        if (state != null && RETRY_STATES.contains(state)) return true;
        return MARIADB_RETRY_CODES.contains(e.getErrorCode()) && (state == null || !state.startsWith("08"));
    }

    /** The connection to the replica is broken: the replica is not voting, it is down. */
    public static boolean isConnectionFailure(SQLException e) {
        String state = e.getSQLState();
        return state != null && state.startsWith("08");
    }

    /** The canonical outcome of an error answer: {@link #RETRY} or the SQLState class. */
    public static String of(SQLException e) {
        if (isRetryable(e)) return RETRY;
        String state = QueryTimeouts.clientSqlState(e);
        if (state == null || state.length() < 2) return "HY";
        return state.substring(0, 2);
    }
}
