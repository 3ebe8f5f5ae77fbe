package org.shepherd.replica;

import java.sql.SQLException;
import org.shepherd.vote.Ballot;

/**
 * What a replica endpoint reports for one request.
 *
 * @param kind see {@link Kind}
 * @param ballot the answer's ballot ({@link Kind#ANSWER} of a statement), else null
 * @param clientAnswer what the client gets when this replica is the primary (endpoint-specific), else null
 * @param error the error answer (an ANSWER that is an error), the retryable error, or the connection failure
 */
public record Outcome(Kind kind, Ballot ballot, Object clientAnswer, SQLException error) {

    /** The kinds of outcome. */
    public enum Kind {
        /** The statement produced an answer (possibly an error answer, which is voted like any other); or COMMIT/ROLLBACK done. */
        ANSWER,
        /** The replica rolled the transaction back (deadlock victim, lock wait timeout, serialization failure). */
        RETRYABLE,
        /** The replica is unreachable (connection broken, crashed). */
        DOWN,
        /**
         * The primary's rows are streaming to the client ({@code clientAnswer}); the statement's final outcome follows
         * when the client read them all or closed the cursor.
         */
        STREAMING
    }

    public static Outcome answer(Ballot ballot, Object clientAnswer) {
        return new Outcome(Kind.ANSWER, ballot, clientAnswer, null);
    }

    public static Outcome errorAnswer(Ballot ballot, SQLException error) {
        return new Outcome(Kind.ANSWER, ballot, null, error);
    }

    public static Outcome done() {
        return new Outcome(Kind.ANSWER, null, null, null);
    }

    public static Outcome streaming(Object clientAnswer) {
        return new Outcome(Kind.STREAMING, null, clientAnswer, null);
    }

    public static Outcome retryable(SQLException e) {
        return new Outcome(Kind.RETRYABLE, null, null, e);
    }

    public static Outcome down(SQLException e) {
        return new Outcome(Kind.DOWN, null, null, e);
    }
}
