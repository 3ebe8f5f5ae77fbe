package org.shepherd.vote;

import java.sql.SQLException;
import java.util.List;
import org.shepherd.replica.QueryTimeouts;
import org.shepherd.replica.SqlErrors;
import org.shepherd.replica.setup.ReplicaSetup;

/**
 * How an error answer is compared: by SQLState class (the first two characters), except that every vendor's
 * "retry me" error (deadlock, lock wait timeout, serialization failure) is one outcome, {@link #RETRY}.
 */
public final class ErrorOutcome {

    public static final String RETRY = "RETRY";

    /**
     * The voter does not know which vendor answered, so an error is retryable when any vendor's
     * {@link ReplicaSetup#isRetryable} says so (the vendor lists live there only).
     */
    private static final List<ReplicaSetup> ALL_VENDORS = List.of("derby", "mariadb", "mysql", "hsqldb", "postgresql", "db2")
            .stream().map(ReplicaSetup::forDialect).toList();

    private ErrorOutcome() {
    }

    public static boolean isRetryable(SQLException e) {
        if (isConnectionFailure(e)) return false;
        for (ReplicaSetup vendor : ALL_VENDORS) {
            if (vendor.isRetryable(e)) return true;
        }
        return false;
    }

    /** The connection to the replica is broken: the replica is not voting, it is down. */
    public static boolean isConnectionFailure(SQLException e) {
        return SqlErrors.isConnectionState(e.getSQLState());
    }

    /** The canonical outcome of an error answer: {@link #RETRY} or the SQLState class. */
    public static String of(SQLException e) {
        if (isRetryable(e)) return RETRY;
        String state = QueryTimeouts.clientSqlState(e);
        if (state == null || state.length() < 2) return "HY";
        return state.substring(0, 2);
    }
}
