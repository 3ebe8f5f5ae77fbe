package org.shepherd.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.shepherd.jdbc.ShepherdConnection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code shepherd status}: the view and each replica's state, read from the shepherd over the driver. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Show the view (mode, f, barrier, primary) and each replica's role, state, last committed barrier, "
            + "lag, pool size, re-runs, divergence count and location (its JDBC URL).",
            "Without --url it asks the embedded default started by `shepherd serve` in the same directory."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:status printed", "1:the shepherd could not be reached or failed to answer", "2:bad usage"})
final class StatusCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    AdminClient client = new AdminClient();

    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @Override
    public Integer call() throws JsonProcessingException {
        ShepherdConnection connection = client.connect();
        AdminClient.Table view;
        AdminClient.Table replicas;
        try {
            view = AdminClient.read(connection.adminView());
            replicas = AdminClient.read(connection.adminStatus());
        } catch (SQLException e) {
            throw CliException.failure("the shepherd did not answer the status query: " + SqlRunner.formatError(e), e);
        } finally {
            AdminClient.closeQuietly(connection);
        }
        if (view.rows().size() != 1) {
            throw CliException.failure("the shepherd answered the view query with " + view.rows().size() + " rows, expected 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Object> viewRow = view.rows().get(0);
        if (json) {
            Map<String, Object> document = new LinkedHashMap<>(viewRow);
            document.put("replica_status", replicas.rows());
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(document));
        } else {
            viewLines(viewRow).forEach(out::println);
            replicas.print(out);
        }
        out.flush();
        return ShepherdCli.EXIT_OK;
    }

    /** The view in lines a person reads, from the {@code shepherd.view} row (columns of older shepherds may be missing). */
    static java.util.List<String> viewLines(Map<String, Object> viewRow) {
        java.util.List<String> lines = new java.util.ArrayList<>();
        lines.add("view " + viewRow.get("view") + ": mode " + viewRow.get("mode") + ", f=" + viewRow.get("f") + ", barrier "
                + viewRow.get("barrier") + ", primary " + viewRow.get("primary") + " (" + viewRow.get("replicas") + " replicas)");
        lines.add("transactions: " + viewRow.get("commits") + " committed, " + viewRow.get("aborts") + " aborted ("
                + viewRow.get("vote_aborts") + " by a failed vote); divergences on record: "
                + viewRow.get("divergences_total"));
        if (viewRow.get("last_view_change") instanceof String change && !change.isEmpty()) {
            lines.add("last view change: " + change);
        }
        lines.add(commitLine(viewRow));
        lines.add(walLine(viewRow));
        if (viewRow.get("last_comparison") instanceof String compared && !compared.isEmpty()) {
            lines.add("last comparison: " + compared);
        }
        return lines;
    }

    /** Commit latency since start in one line; a shepherd from before these columns, or one without commits, has none. */
    private static String commitLine(Map<String, Object> viewRow) {
        if (!(viewRow.get("commit_p50_ms") instanceof Number p50) || p50.longValue() < 0) return "commit latency: not measured";
        return "commit latency since start: p50 " + p50 + " ms, p99 " + viewRow.get("commit_p99_ms") + " ms, max "
                + viewRow.get("commit_max_ms") + " ms; of which waiting for f+1 ready, agreeing replicas: p50 "
                + viewRow.get("commit_wait_p50_ms") + " ms, p99 " + viewRow.get("commit_wait_p99_ms") + " ms";
    }

    /** The write-ahead log in one line; a shepherd from before the log has no such columns. */
    private static String walLine(Map<String, Object> viewRow) {
        if (!(viewRow.get("wal_bytes") instanceof Number bytes)) return "write-ahead log: not reported";
        if (bytes.longValue() < 0) return "write-ahead log: none (mode " + viewRow.get("mode") + ")";
        return String.format(java.util.Locale.ROOT, "write-ahead log: %.1f MiB in %s segment(s), released up to barrier %s",
                bytes.longValue() / 1048576.0, viewRow.get("wal_segments"), viewRow.get("wal_floor"));
    }
}
