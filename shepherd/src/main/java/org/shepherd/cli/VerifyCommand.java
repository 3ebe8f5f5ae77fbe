package org.shepherd.cli;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.Callable;
import org.shepherd.jdbc.ShepherdConnection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code shepherd verify [--table T | --schema S] [--repair]}: compares the replicas' tables through the vote while the shepherd serves,
 * and repairs the replicas that differ when asked.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Compare every table of the default schema (or of --schema, or one) on every replica while the "
            + "shepherd serves: the shepherd reads it in short transactions of 1000 rows in primary-key order, each run by "
            + "every replica at the same point, and votes on the answers. A replica whose rows differ (a silently corrupted "
            + "database) is named here and in `shepherd divergences`.",
            "With --repair, each range of 1000 keys where a secondary differed is read again through the vote and, in the "
                + "same transaction, rewritten on that secondary to the rows f+1 replicas agree on (only the rows that "
                + "differ are written); then the table is compared again.",
            "Writers wait for the rows a transaction reads, for that long; a table without a primary key is read in one "
                + "transaction.",
            "Without --url it asks the embedded default started by `shepherd serve` in the same directory."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every table is equal on every replica (with --repair: after the repair)",
            "1:the shepherd could not be reached or refused (a user "
            + "without admin rights, mode passthrough)", "2:bad usage", "3:a table differs on some replica, or could not be "
            + "compared on every one"})
final class VerifyCommand implements Callable<Integer> {

    /** Exit status when a table differs or was not compared everywhere. */
    static final int EXIT_DIFFERS = 3;

    @Spec
    private CommandSpec spec;

    @Mixin
    AdminClient client = new AdminClient();

    @Option(names = "--table", paramLabel = "TABLE", description = "compare this table only, of the default schema or"
            + " written SCHEMA.TABLE (default: every table of the default schema)")
    String table;

    @Option(names = "--schema", paramLabel = "SCHEMA", description = "compare every table of this schema (a MySQL or"
            + " MariaDB database) instead of the default schema's")
    String schema;

    @Option(names = "--repair", description = "rewrite the rows that differ on a secondary to those f+1 replicas agree on,"
            + " then compare again")
    boolean repair;

    @Override
    public Integer call() {
        if (schema != null && table != null) {
            throw CliException.usage("--schema and --table are exclusive: name one table as --table " + schema + ".TABLE");
        }
        String only = schema != null ? schema + ".*" : table;
        ShepherdConnection connection = client.connect();
        AdminClient.Table report;
        try {
            report = AdminClient.read(repair ? connection.adminVerifyAndRepair(only) : connection.adminVerify(only));
        } catch (SQLException e) {
            throw CliException.failure("the shepherd did not compare the replicas: " + SqlRunner.formatError(e), e);
        } finally {
            AdminClient.closeQuietly(connection);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (report.rows().isEmpty()) {
            out.println("no tables to compare");
            out.flush();
            return ShepherdCli.EXIT_OK;
        }
        report.print(out);
        long unequal = report.rows().stream().map(VerifyCommand::result).filter(r -> !"equal".equals(r)).count();
        out.println(unequal == 0 ? report.rows().size() + (report.rows().size() == 1 ? " table" : " tables")
                + " equal on every replica" : unequal + " of " + report.rows().size() + " tables not equal everywhere");
        out.flush();
        return unequal == 0 ? ShepherdCli.EXIT_OK : EXIT_DIFFERS;
    }

    private static String result(Map<String, Object> row) {
        return String.valueOf(row.get("result"));
    }
}
