package org.shepherd.cli;

/** A failure the CLI reports as one line and an exit code, without a stack trace. */
public final class CliException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int exitCode;

    private CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** Bad usage or configuration: exit code 2. The message says what to fix. */
    public static CliException usage(String message) {
        return new CliException(ShepherdCli.EXIT_USAGE, message, null);
    }

    /** The job failed: exit code 1. */
    public static CliException failure(String message) {
        return new CliException(ShepherdCli.EXIT_FAILURE, message, null);
    }

    public static CliException failure(String message, Throwable cause) {
        return new CliException(ShepherdCli.EXIT_FAILURE, message, cause);
    }

    public int exitCode() {
        return exitCode;
    }
}
