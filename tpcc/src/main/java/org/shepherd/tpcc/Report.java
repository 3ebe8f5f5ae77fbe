package org.shepherd.tpcc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The text people read on stdout, and the JSON files written with {@code --json}. */
public final class Report {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Report() {
    }

    public static void printRun(RunResult r, PrintStream out) {
        out.printf(Locale.ROOT, "%-12s %9s %9s %9s %9s %9s %9s %9s %8s %7s%n", "transaction", "count", "mean ms",
            "p50 ms", "p90 ms", "p99 ms", "max ms", "rollbacks", "retries", "errors");
        for (RunResult.TypeSummary t : r.byType()) {
            out.printf(Locale.ROOT, "%-12s %9d %9.2f %9.2f %9.2f %9.2f %9.2f %9d %8d %7d%n", t.type(), t.count(),
                t.meanMs(), t.p50Ms(), t.p90Ms(), t.p99Ms(), t.maxMs(), t.rollbacks(), t.retries(), t.errors());
        }
        out.printf(Locale.ROOT, "%-12s %9d %69d %8d %7d%n", "total", r.transactions(), r.rollbacks(), r.retries(),
            r.errors());
        out.printf(Locale.ROOT, "tpmC %.1f (New-Order per minute, rollbacks included)   throughput %.2f tx/s = %.1f tx/min"
            + "   over %.1fs, %d terminals, %d%s warehouses%n", r.tpmC(), r.tps(), r.tpm(), r.elapsedS(), r.terminals(),
            r.warehouses(), r.small() ? " small" : "");
        if (r.connectionLosses() > 0) {
            out.printf(Locale.ROOT, "connections lost %d (the transactions re-run on a new connection are retries);"
                + " in doubt %d (COMMIT failed with the connection: may or may not have committed)%n", r.connectionLosses(),
                r.inDoubt());
        }
    }

    public static void printLoad(Loader.Result r, PrintStream out) {
        for (Map.Entry<String, Long> e : r.rowsPerTable().entrySet()) {
            out.printf(Locale.ROOT, "%-12s %,12d rows%n", e.getKey(), e.getValue());
        }
        out.printf(Locale.ROOT, "loaded %,d rows in %.1fs (%.0f rows/s)%n", r.totalRows(), r.seconds(),
            r.totalRows() / Math.max(r.seconds(), 1e-9));
    }

    public static void printConditions(List<Checker.Condition> conditions, PrintStream out) {
        for (Checker.Condition c : conditions) {
            out.printf(Locale.ROOT, "%-4s %2d  %s: %s%n", c.status(), c.number(), c.rule(), c.detail());
        }
    }

    public static void printDigest(List<Digest.TableDigest> digests, PrintStream out) {
        for (Digest.TableDigest d : digests) out.printf(Locale.ROOT, "%-12s %12d  %s%n", d.table(), d.rows(), d.hash());
    }

    public static void writeJson(Path file, Object value) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        JSON.writeValue(file.toFile(), value);
    }

    public static String toJson(Object value) throws IOException {
        return JSON.writeValueAsString(value);
    }
}
