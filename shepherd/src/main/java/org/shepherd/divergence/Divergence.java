package org.shepherd.divergence;

/**
 * One replica's answer that differed from the accepted one.
 *
 * @param atMillis when it was noticed (the shepherd's clock)
 * @param txId the shepherd's transaction id
 * @param statementIndex position of the statement in the transaction (0-based)
 * @param statement the statement text (shortened)
 * @param replica the replica whose answer differed
 * @param accepted what the accepted answer was (or why there was none)
 * @param actual what the replica answered
 * @param masked true when the transaction still committed with the accepted answer (the fault was outvoted)
 */
public record Divergence(long atMillis, long txId, int statementIndex, String statement, String replica, String accepted,
        String actual, boolean masked) {
}
