package org.shepherd.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import picocli.CommandLine;

/** One run of the CLI in-process, with its exit code and captured output. */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = ShepherdCli.newCommandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new CliRun(exitCode, out.toString(), err.toString());
    }

    /** {@code shepherd serve} of the embedded default in {@code dataDir}, in-process, on a free loopback port. */
    static ServeCommand.Running serveEmbedded(Path dataDir) {
        ServeCommand serve = new ServeCommand();
        serve.dataDir = dataDir;
        serve.listen = "127.0.0.1:0";
        return serve.start();
    }
}
