package org.shepherd.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/** Entry point of {@code bin/shepherd}. */
@Command(name = "shepherd",
        mixinStandardHelpOptions = true,
        versionProvider = ShepherdCli.VersionProvider.class,
        description = "Byzantine-fault-tolerant replication for SQL databases (commit barrier scheduling).",
        subcommands = {ServeCommand.class, SqlCommand.class, StatusCommand.class, DivergencesCommand.class, RestoreCommand.class,
            VerifyCommand.class, CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:ok", "1:the job failed", "2:bad usage or configuration"})
public final class ShepherdCli implements Callable<Integer> {

    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILURE = 1;
    public static final int EXIT_USAGE = 2;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine commandLine = spec.commandLine();
        commandLine.getErr().println("shepherd: missing command");
        commandLine.usage(commandLine.getErr());
        return EXIT_USAGE;
    }

    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** A fresh command line with Shepherd's exit codes; tests redirect its out/err writers. */
    public static CommandLine newCommandLine() {
        CommandLine commandLine = new CommandLine(new ShepherdCli());
        commandLine.setExecutionExceptionHandler(ShepherdCli::handleExecutionException);
        commandLine.setUsageHelpAutoWidth(true);
        return commandLine;
    }

    private static int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        String prefix = "shepherd " + commandLine.getCommandName() + ": ";
        if (ex instanceof CliException cliException) {
            err.println(prefix + cliException.getMessage());
            err.flush();
            return cliException.exitCode();
        }
        err.println(prefix + "unexpected error: " + ex);
        ex.printStackTrace(err);
        err.flush();
        return EXIT_FAILURE;
    }

    /** The version recorded by Maven in the jar; a build from classes reports itself as a development build. */
    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            return new String[] {"shepherd " + version(), "Java " + System.getProperty("java.version")};
        }

        static String version() throws IOException {
            try (InputStream in = ShepherdCli.class.getResourceAsStream("/META-INF/maven/org.shepherd/shepherd/pom.properties")) {
                if (in == null) {
                    return "development build";
                }
                Properties properties = new Properties();
                properties.load(in);
                return properties.getProperty("version", "development build");
            }
        }
    }
}
