package org.shepherd.cli;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import org.shepherd.jdbc.ShepherdConnection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code shepherd restore [--copied] REPLICA}: brings back a lost replica from a copy, while the shepherd serves. */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = {"Bring back a lost replica (`shepherd status` says `lost`) while the shepherd serves, in three steps:",
            "1. `shepherd restore REPLICA`: the shepherd keeps its write-ahead log from now on for the copy;",
            "2. replace the replica's database with a consistent copy (a backup) of an up-to-date replica, taken after step 1;",
            "3. `shepherd restore --copied REPLICA`: the shepherd checks the copy when the replica answers (it must hold every "
                + "transaction committed before step 1; an older copy is lost again, and says so), replays what it lacks, "
                + "and serves it again. Watch `shepherd status`.",
            "A replica restored on another machine: before step 3, name its new location in the configuration file the"
                + " shepherd started with (replica.NAME.url, .user, .password); step 3 reads it again and reaches the"
                + " replica there.",
            "Without --url it asks the embedded default started by `shepherd serve` in the same directory."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the step was taken", "1:refused (not lost, no such replica, step 1 missing...) or the shepherd "
            + "could not be reached", "2:bad usage"})
final class RestoreCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    AdminClient client = new AdminClient();

    @Parameters(index = "0", paramLabel = "REPLICA", description = "the replica's name, as in the configuration (r3)")
    String replica;

    @Option(names = "--copied", description = "step 3: the copy is installed; check it and catch the replica up")
    boolean copied;

    @Option(names = "--take-out", description = "step 1 for a secondary that is not lost (e.g. one `shepherd verify` found"
            + " different): take it out of service first (refused for the primary, and unless f+1 others are up)")
    boolean takeOut;

    @Override
    public Integer call() {
        if (copied && takeOut) throw CliException.usage("--copied and --take-out are different steps: give one");
        ShepherdConnection connection = client.connect();
        AdminClient.Table answer;
        try {
            answer = AdminClient.read(takeOut ? connection.adminRestoreTakingOut(replica) : connection.adminRestore(replica, copied));
        } catch (SQLException e) {
            throw CliException.failure("the shepherd did not restore " + replica + ": " + SqlRunner.formatError(e), e);
        } finally {
            AdminClient.closeQuietly(connection);
        }
        PrintWriter out = spec.commandLine().getOut();
        for (String[] row : answer.cells()) out.println(row[0] + ": " + row[1]);
        out.println(copied ? "watch `shepherd status`: it is checked when it answers, replays what it lacks, then serves as up"
                : "now install on " + replica + " a copy of an up-to-date replica's database taken from now on, then run"
                        + " `shepherd restore --copied " + replica + "`");
        out.flush();
        return ShepherdCli.EXIT_OK;
    }
}
