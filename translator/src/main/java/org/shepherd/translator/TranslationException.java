package org.shepherd.translator;

import java.sql.SQLException;

/** Thrown inside rendering visitors (which cannot throw checked exceptions) and turned into an SQLException at the API. */
final class TranslationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String sqlState;
    private final boolean parseTimeout;

    TranslationException(String sqlState, String message) {
        this(sqlState, message, false);
    }

    private TranslationException(String sqlState, String message, boolean parseTimeout) {
        super(message, null, false, false);
        this.sqlState = sqlState;
        this.parseTimeout = parseTimeout;
    }

    /** The statement took longer than the translator's parse timeout: SQLState 54001, not a property of the text. */
    static TranslationException parseTimeout(long timeoutMs) {
        return new TranslationException("54001", "statement too complex: the SQL parser gave up after " + timeoutMs
                + " ms (deeply nested parentheses make it slow); simplify it or nest less", true);
    }

    boolean isParseTimeout() {
        return parseTimeout;
    }

    SQLException toSqlException() {
        return new SQLException(getMessage(), sqlState);
    }

    static TranslationException unsupported(String message) {
        return new TranslationException("0A000", message);
    }
}
