package org.shepherd.hetero;

import java.sql.SQLException;
import java.util.List;
import org.shepherd.vote.Ballot;
import org.shepherd.vote.ErrorOutcome;

/**
 * What one engine answered to one statement: the voter's ballot, plus what a human needs to see in a report.
 *
 * @param ballot the canonical digest the voter compares (null when the statement was not sent)
 * @param error the engine's error, or null
 * @param rows canonical text of the rows (at most {@link AnswerReader#ROWS_SHOWN_MAX}), for reports and expectations
 * @param sql the statement as sent to this engine
 */
record Observation(Ballot ballot, SQLException error, List<List<String>> rows, String sql) {

    /** The error's voting outcome (SQLState class or RETRY), or null when the statement succeeded. */
    String errorOutcome() {
        return error == null ? null : ErrorOutcome.of(error);
    }

    /** One short cell of the failure table. */
    String cell() {
        if (ballot == null) {
            return "not run";
        }
        String digest = ballot.digest().substring(0, 6);
        if (error != null) {
            return digest + " " + error.getSQLState() + "/" + error.getErrorCode();
        }
        return digest + " " + ballot.summary() + (rows.isEmpty() ? "" : " " + rows.get(0));
    }

    /** The full text for the details below the table. */
    String details() {
        StringBuilder sb = new StringBuilder();
        sb.append("sent: ").append(sql);
        if (error != null) {
            sb.append("\n      error ").append(error.getSQLState()).append(" (").append(error.getErrorCode()).append("): ")
                    .append(error.getMessage());
        } else if (ballot != null) {
            sb.append("\n      ").append(ballot.summary()).append(' ').append(rows);
        }
        return sb.toString();
    }
}
