package org.shepherd.replica;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.Set;

/**
 * The one place that recognises a replica's "statement timed out or was cancelled" error, whatever its vendor, so
 * that clients always see SQLState {@value #SQLSTATE} (PostgreSQL's and DB2's {@code query_canceled}) and the voter
 * compares every vendor's timeout as the same outcome.
 */
public final class QueryTimeouts {

    public static final String SQLSTATE = "57014";

    /**
     * Derby XCL52 (cancelled or timed out), MariaDB/MySQL 70100 (interrupted, max_statement_time), HSQLDB and the
     * JDBC standard's HY008 (operation cancelled), and 57014 itself (PostgreSQL, DB2).
     */
    private static final Set<String> STATES = Set.of("XCL52", "70100", "HY008", SQLSTATE);
    /** MariaDB 1969 (max_statement_time exceeded), 1317 (query interrupted); MySQL 3024 (max_execution_time). */
    private static final Set<Integer> MYSQL_FAMILY_CODES = Set.of(1969, 1317, 3024);

    private QueryTimeouts() {
    }

    /** True when {@code e} (or an exception it wraps) says the statement timed out or was cancelled. */
    public static boolean isQueryTimeout(SQLException e) {
        return SqlErrors.anyInChain(e, s -> s instanceof SQLTimeoutException
                || s.getSQLState() != null && STATES.contains(s.getSQLState())
                || MYSQL_FAMILY_CODES.contains(s.getErrorCode()) && !SqlErrors.isConnectionState(s.getSQLState()));
    }

    /** The SQLState a client sees for {@code e}: {@value #SQLSTATE} for any vendor's timeout, else the replica's. */
    public static String clientSqlState(SQLException e) {
        return isQueryTimeout(e) ? SQLSTATE : e.getSQLState();
    }
}
