package org.shepherd.protocol.v1;

/**
 * Per-statement options the client set on its {@link java.sql.Statement}; the server maps them 1:1 onto
 * {@code org.shepherd.coordinator.ExecOptions}.
 *
 * @param maxRows 0 = no limit
 * @param fetchSize rows per {@link Message.RowBatch}; 0 = the server's default
 * @param queryTimeoutSeconds 0 = none
 * @param returnGeneratedKeys whether the client asked for generated keys
 */
public record StatementOptions(int maxRows, int fetchSize, int queryTimeoutSeconds, boolean returnGeneratedKeys) {

    public static final StatementOptions DEFAULT = new StatementOptions(0, 0, 0, false);

    public StatementOptions {
        if (maxRows < 0 || fetchSize < 0 || queryTimeoutSeconds < 0) {
            throw new IllegalArgumentException("maxRows, fetchSize and queryTimeoutSeconds must be >= 0");
        }
    }
}
