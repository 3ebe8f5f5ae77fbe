package org.shepherd.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code shepherd sql}: an SQL shell over any JDBC URL, interactive or with {@code -e}. */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = {"Interactive SQL shell over JDBC, or run statements given with -e and exit.",
            "Without --url it connects to the embedded default started by `shepherd serve` in the same directory "
                + "(reads <data-dir>/credentials.properties).",
            "Any JDBC URL works if its driver is on the classpath (bin/shepherd adds the jars in lib/)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every statement succeeded", "1:a statement or the connection failed", "2:bad usage"})
final class SqlCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

    @Option(names = {"-e", "--execute"}, paramLabel = "SQL",
            description = "Run these statements (repeatable; ;-separated) and exit: 0 if all succeed, 1 at the first error.")
    List<String> execute = new ArrayList<>();

    @Option(names = "--history-file", paramLabel = "FILE",
            description = "History of the interactive shell (default: .shepherd_history in your home).")
    Path historyFile;

    @Override
    public Integer call() throws IOException {
        ConnectionTarget target = connection.resolve();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Connection connection;
        try {
            connection = DriverManager.getConnection(target.url(), target.connectionProperties());
        } catch (SQLException e) {
            err.println(SqlRunner.formatError(e));
            err.println("could not connect to " + redacted(target.url()));
            err.flush();
            return ShepherdCli.EXIT_FAILURE;
        }
        try (connection) {
            if (!execute.isEmpty()) {
                return runAll(connection, out, err);
            }
            try (Terminal terminal = TerminalBuilder.builder().system(true).dumb(true).build()) {
                new SqlShell(terminal, connection, historyFile()).run();
            }
            return ShepherdCli.EXIT_OK;
        } catch (SQLException e) {
            err.println(SqlRunner.formatError(e));
            err.flush();
            return ShepherdCli.EXIT_FAILURE;
        }
    }

    private int runAll(Connection connection, PrintWriter out, PrintWriter err) {
        SqlRunner runner = new SqlRunner(connection, out, err, System::nanoTime);
        for (String text : execute) {
            for (String statement : StatementSplitter.splitAll(text)) {
                if (!runner.run(statement)) {
                    return ShepherdCli.EXIT_FAILURE;
                }
            }
        }
        return ShepherdCli.EXIT_OK;
    }

    private Path historyFile() {
        return historyFile != null ? historyFile : Path.of(System.getProperty("user.home"), ".shepherd_history");
    }

    /** Never echo a password given in the URL's query string. */
    static String redacted(String url) {
        return url.replaceAll("(?i)(password=)[^&;]*", "$1***");
    }
}
