package org.shepherd.tpcc;

import java.util.List;

/**
 * Everything a run measured; serialized as-is by {@code --json}. Latencies in milliseconds. With {@code --reconnect},
 * {@code connectionLosses} counts the broken connections and {@code inDoubt} the transactions whose COMMIT failed with
 * one (they may or may not have committed; they count nowhere else).
 */
public record RunResult(
    String url,
    int warehouses,
    boolean small,
    int terminals,
    long seed,
    double durationS,
    double warmupS,
    int thinkMinMs,
    int thinkMaxMs,
    double elapsedS,
    long transactions,
    long errors,
    long retries,
    long rollbacks,
    double tpmC,
    double tps,
    double tpm,
    long connectionLosses,
    long inDoubt,
    List<TypeSummary> byType,
    List<ProgressSample> progress,
    List<String> firstErrors) {

    /** One row of the per-transaction-type table; {@code count} includes New-Order rollbacks. */
    public record TypeSummary(String type, long count, long rollbacks, long retries, long errors,
                              double meanMs, double p50Ms, double p90Ms, double p99Ms, double maxMs) {
    }

    /** The state of the run every few seconds. */
    public record ProgressSample(double elapsedS, long transactions, double intervalTps, double tpmC, long errors,
                                 long retries) {
    }
}
