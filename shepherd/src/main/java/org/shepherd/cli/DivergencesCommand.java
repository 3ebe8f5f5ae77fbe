package org.shepherd.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import org.shepherd.jdbc.ShepherdConnection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code shepherd divergences}: the divergence report, read from the shepherd over the driver. */
@Command(name = "divergences", mixinStandardHelpOptions = true,
        description = {"Print the divergence report: every replica answer that differed from the accepted one "
            + "(the newest 1000 on record; data.dir/divergences.jsonl keeps them across restarts).",
            "Without --url it asks the embedded default started by `shepherd serve` in the same directory."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:report printed (also when empty)", "1:the shepherd could not be reached or failed to answer",
            "2:bad usage"})
final class DivergencesCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    AdminClient client = new AdminClient();

    @Option(names = "--json", description = "Print a JSON array (one object per report, fields as the table's columns).")
    boolean json;

    @Override
    public Integer call() throws JsonProcessingException {
        ShepherdConnection connection = client.connect();
        AdminClient.Table report;
        try {
            report = AdminClient.read(connection.adminDivergences());
        } catch (SQLException e) {
            throw CliException.failure("the shepherd did not answer the divergence query: " + SqlRunner.formatError(e), e);
        } finally {
            AdminClient.closeQuietly(connection);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report.rows()));
        } else if (report.rows().isEmpty()) {
            out.println("no divergences: every replica answer agreed with the accepted one");
        } else {
            report.print(out);
            out.println(report.rows().size() + (report.rows().size() == 1 ? " divergence" : " divergences"));
        }
        out.flush();
        return ShepherdCli.EXIT_OK;
    }
}
