package org.shepherd.testing;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.shepherd.vote.ErrorOutcome;

/**
 * Runs client transactions again after a retryable error ({@link ErrorOutcome#isRetryable}), a bounded number of
 * times, and remembers what was retried. Shared by the clients of one workload.
 */
public final class Retrying {
    public static final int ATTEMPTS_MAX = 30;

    /** One client transaction. */
    @FunctionalInterface
    public interface Txn {
        void run() throws SQLException;
    }

    private final AtomicLong retries = new AtomicLong();
    private final List<String> retried = Collections.synchronizedList(new ArrayList<>());

    /**
     * Runs {@code txn}, rolling back and running it again on a retryable error, at most {@value #ATTEMPTS_MAX} times;
     * the error that ends it names the client's {@code seed}.
     */
    public void run(SqlClient client, long seed, Txn txn) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                txn.run();
                return;
            } catch (SQLException e) {
                if (!ErrorOutcome.isRetryable(e) || attempt == ATTEMPTS_MAX) {
                    throw new SQLException("client seed " + seed + ", attempt " + attempt + ": " + e.getMessage(), e.getSQLState(),
                            e);
                }
                retries.incrementAndGet();
                retried.add(e.getSQLState() + " " + e.getMessage());
                client.rollback();
            }
        }
    }

    public long retries() {
        return retries.get();
    }

    /** SQLState and message of every retried error. */
    public List<String> retriedErrors() {
        synchronized (retried) {
            return List.copyOf(retried);
        }
    }
}
