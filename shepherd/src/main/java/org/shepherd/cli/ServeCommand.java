package org.shepherd.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code shepherd serve}: runs a shepherd until SIGTERM/SIGINT. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Start a shepherd and serve until SIGTERM or Ctrl-C, then shut down gracefully.",
            "Without --config: the embedded default, 3 embedded Derby replicas in shepherd-data/ under the working "
                + "directory, listening on 127.0.0.1:7654; prints one line with a ready-to-use JDBC URL."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped by a signal after a clean shutdown", "1:the server failed", "2:bad configuration"})
final class ServeCommand implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "Config file (properties; see docs/configuration.md).")
    Path config;

    @Override
    public Integer call() {
        if (config != null && !Files.isRegularFile(config)) {
            throw CliException.usage("config file " + config + " does not exist (or is not a file); pass an existing "
                    + "--config FILE, or no --config for the embedded default");
        }
        throw CliException.failure("not available yet: the shepherd server (issue 2, part 4) has not landed on main");
    }
}
