package org.shepherd.translator;

import java.sql.SQLException;

/** Thrown inside rendering visitors (which cannot throw checked exceptions) and turned into an SQLException at the API. */
final class TranslationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String sqlState;

    TranslationException(String sqlState, String message) {
        super(message, null, false, false);
        this.sqlState = sqlState;
    }

    SQLException toSqlException() {
        return new SQLException(getMessage(), sqlState);
    }

    static TranslationException unsupported(String message) {
        return new TranslationException("0A000", message);
    }
}
