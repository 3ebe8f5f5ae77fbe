package org.shepherd.protocol.v1;

import java.sql.SQLWarning;

/** A {@link SQLWarning} as it travels attached to a result. */
public record WarningInfo(String sqlState, int vendorCode, String message) {

    public WarningInfo {
        if (sqlState == null || message == null) {
            throw new IllegalArgumentException("sqlState and message must not be null (use \"\" for unknown)");
        }
    }

    public static WarningInfo of(SQLWarning w) {
        return new WarningInfo(w.getSQLState() == null ? "" : w.getSQLState(), w.getErrorCode(),
                w.getMessage() == null ? "" : w.getMessage());
    }

    public SQLWarning toSqlWarning() {
        return new SQLWarning(message, sqlState.isEmpty() ? null : sqlState, vendorCode);
    }
}
