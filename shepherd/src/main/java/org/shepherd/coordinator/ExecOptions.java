package org.shepherd.coordinator;

/**
 * Per-statement options the client set on its {@link java.sql.Statement}.
 *
 * @param maxRows {@link java.sql.Statement#setMaxRows}; 0 = no limit
 * @param fetchSize rows per batch streamed to the client; 0 = the server's default
 * @param queryTimeoutSeconds {@link java.sql.Statement#setQueryTimeout}; 0 = none
 * @param returnGeneratedKeys whether the client asked for generated keys
 */
public record ExecOptions(int maxRows, int fetchSize, int queryTimeoutSeconds, boolean returnGeneratedKeys) {

    public static final ExecOptions DEFAULT = new ExecOptions(0, 0, 0, false);

    public ExecOptions {
        if (maxRows < 0 || fetchSize < 0 || queryTimeoutSeconds < 0) {
            throw new IllegalArgumentException("maxRows, fetchSize and queryTimeoutSeconds must be >= 0");
        }
    }
}
