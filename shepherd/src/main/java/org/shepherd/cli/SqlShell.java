package org.shepherd.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;

/** The interactive loop of {@code shepherd sql}: line editing, persistent history, statements ended by {@code ;}. */
final class SqlShell {

    static final String PROMPT = "shepherd> ";
    static final String CONTINUATION_PROMPT = "       -> ";
    private static final Set<String> QUIT = Set.of("quit", "exit", "\\q");
    private static final Set<String> HELP = Set.of("help", "\\?", "\\h");

    private final Terminal terminal;
    private final Connection connection;
    private final Path historyFile;

    SqlShell(Terminal terminal, Connection connection, Path historyFile) {
        this.terminal = terminal;
        this.connection = connection;
        this.historyFile = historyFile;
    }

    static boolean isShellCommand(String line) {
        String command = shellCommand(line);
        return QUIT.contains(command) || HELP.contains(command);
    }

    /** The line as a shell command: trimmed, lower case, without a trailing {@code ;}. */
    private static String shellCommand(String line) {
        String command = line.strip().toLowerCase(Locale.ROOT);
        if (command.endsWith(";")) {
            command = command.substring(0, command.length() - 1).strip();
        }
        return command;
    }

    /** Runs until end of input or {@code quit}. */
    void run() throws IOException {
        LineReader reader = LineReaderBuilder.builder()
                .appName("shepherd")
                .terminal(terminal)
                .parser(new SqlLineParser())
                .variable(LineReader.HISTORY_FILE, historyFile)
                .variable(LineReader.SECONDARY_PROMPT_PATTERN, CONTINUATION_PROMPT)
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .build();
        PrintWriter out = terminal.writer();
        SqlRunner runner = new SqlRunner(connection, out, out, System::nanoTime);
        printBanner(out);
        try {
            while (true) {
                String line;
                try {
                    line = reader.readLine(PROMPT);
                } catch (UserInterruptException e) {
                    continue;
                } catch (EndOfFileException e) {
                    break;
                }
                String command = shellCommand(line);
                if (QUIT.contains(command)) {
                    break;
                }
                if (HELP.contains(command)) {
                    printHelp(out);
                    continue;
                }
                AtomicBoolean interrupted = new AtomicBoolean();
                Terminal.SignalHandler previous = terminal.handle(Terminal.Signal.INT, signal -> {
                    interrupted.set(true);
                    runner.cancelRunning();
                });
                try {
                    for (String statement : StatementSplitter.splitAll(line)) {
                        if (interrupted.get()) {
                            out.println("(interrupted: the rest of the line was not run)");
                            break;
                        }
                        runner.run(statement);
                    }
                } finally {
                    terminal.handle(Terminal.Signal.INT, previous);
                }
                out.flush();
            }
        } finally {
            reader.getHistory().save();
            out.flush();
        }
    }

    private void printBanner(PrintWriter out) {
        String product;
        try {
            DatabaseMetaData meta = connection.getMetaData();
            product = meta.getDatabaseProductName() + " " + meta.getDatabaseProductVersion() + " through " + meta.getDriverName()
                    + " " + meta.getDriverVersion();
        } catch (SQLException e) {
            product = "(product unknown: " + e.getMessage() + ")";
        }
        out.println("Connected to " + product + ". End statements with ;  Type help for help, quit to leave.");
        out.flush();
    }

    private static void printHelp(PrintWriter out) {
        out.println("Statements end with ; and may span lines. Results print as tables; errors as");
        out.println("ERROR <SQLState> (<vendor code>): message, and the shell goes on.");
        out.println("  help, \\?      this help");
        out.println("  show tables   the tables and views; describe <table> (or desc): its columns and key");
        out.println("  quit, exit, \\q, Ctrl-D   leave");
        out.println("  Ctrl-C        discard the line being typed, or cancel the running statement");
        out.println("History is kept in ~/.shepherd_history (or --history-file).");
        out.flush();
    }
}
