package org.shepherd.client;

import java.sql.BatchUpdateException;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import org.shepherd.protocol.v1.Message;

/** Maps a server {@link Message.Error} to the {@link SQLException} subclass its SQLState calls for. */
public final class ServerErrors {

    /** SQLState for a connection that broke (I/O error, protocol violation seen by the client). */
    public static final String CONNECTION_FAILURE = "08006";
    /** SQLState for using a connection that is already closed. */
    public static final String CONNECTION_DOES_NOT_EXIST = "08003";
    /** SQLState for a connection that could not be opened. */
    public static final String UNABLE_TO_CONNECT = "08001";
    public static final String QUERY_CANCELED = "57014";

    private ServerErrors() {
    }

    public static SQLException toException(Message.Error e) {
        return toException(e.sqlState(), e.vendorCode(), e.message());
    }

    public static SQLException toException(String sqlState, int vendorCode, String message) {
        String state = sqlState == null || sqlState.isEmpty() ? null : sqlState;
        if (state == null) return new SQLException(message, null, vendorCode);
        if (state.equals(QUERY_CANCELED)) return new SQLTimeoutException(message, state, vendorCode);
        String cls = state.length() >= 2 ? state.substring(0, 2) : state;
        switch (cls) {
            case "08":
                return new SQLNonTransientConnectionException(message, state, vendorCode);
            case "40":
                return new SQLTransactionRollbackException(message, state, vendorCode);
            case "0A":
                return new SQLFeatureNotSupportedException(message, state, vendorCode);
            case "22":
                return new SQLDataException(message, state, vendorCode);
            case "23":
                return new SQLIntegrityConstraintViolationException(message, state, vendorCode);
            case "28":
                return new SQLInvalidAuthorizationSpecException(message, state, vendorCode);
            case "42":
                return new SQLSyntaxErrorException(message, state, vendorCode);
            default:
                return new SQLException(message, state, vendorCode);
        }
    }

    /** A failed batch: the counts of the elements that ran, and the server's error as the cause. */
    public static BatchUpdateException toBatchException(Message.Error e) {
        long[] counts = e.batchCounts() == null ? new long[0] : e.batchCounts();
        return new BatchUpdateException(e.message(), e.sqlState(), e.vendorCode(), counts, toException(e));
    }
}
