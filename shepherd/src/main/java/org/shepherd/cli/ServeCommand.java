package org.shepherd.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.shepherd.config.ConfigException;
import org.shepherd.config.EmbeddedDefault;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.replica.setup.ReplicaRefusedException;
import org.shepherd.server.ShepherdServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code shepherd serve}: runs a shepherd until SIGTERM/SIGINT, then closes it gracefully. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Start a shepherd and serve until SIGTERM or Ctrl-C, then shut down gracefully.",
            "Without --config: the embedded default, 3 embedded Derby replicas in shepherd-data/ under the working "
                + "directory, listening on 127.0.0.1:7654; prints one line with a ready-to-use JDBC URL."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"1:the server failed to start",
            "2:bad configuration (the message names the key to fix) or a refused replica (with the reason)",
            "130/143:stopped by SIGINT/SIGTERM (after a graceful shutdown)"})
final class ServeCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "Config file (properties; see docs/configuration.md).")
    Path config;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Embedded default only: where its replicas and credentials live (default: shepherd-data).")
    Path dataDir;

    @Option(names = "--listen", paramLabel = "HOST:PORT",
            description = "Embedded default only: address to listen on (default: 127.0.0.1:7654; port 0 picks a free one).")
    String listen;

    @Option(names = "--metrics", paramLabel = "HOST:PORT",
            description = "Embedded default only: serve Prometheus metrics at http://HOST:PORT/metrics (metrics.listen).")
    String metrics;

    /** A started shepherd and the one line announcing it. */
    record Running(ShepherdServer server, String readyLine) {
    }

    @Override
    public Integer call() throws InterruptedException {
        Running running = start();
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                running.server().close();
            } finally {
                closed.countDown();
            }
        }, "shepherd-shutdown"));
        PrintWriter out = spec.commandLine().getOut();
        out.println(running.readyLine());
        out.flush();
        closed.await();
        return ShepherdCli.EXIT_OK;
    }

    /** Loads the configuration, starts the server and returns it with its ready line; the caller closes it. */
    Running start() {
        ShepherdConfig shepherdConfig = loadConfig();
        ShepherdServer server;
        try {
            server = ShepherdServer.create(shepherdConfig);
        } catch (ConfigException e) {
            throw CliException.usage(e.getMessage());
        } catch (ReplicaRefusedException e) {
            throw CliException.usage("replica refused: " + e.getMessage());
        } catch (SQLException e) {
            throw CliException.failure("cannot open the replicas: " + SqlRunner.formatError(e), e);
        }
        try {
            InetSocketAddress bound = server.start();
            String readyLine = config == null
                    ? EmbeddedDefault.announce(embeddedDataDir(), bound)
                    : "Shepherd ready: " + server.jdbcUrl(EmbeddedDefault.DATABASE);
            return new Running(server, readyLine);
        } catch (IOException | RuntimeException e) {
            server.close();
            String hint = config == null ? "; for the embedded default pass --listen HOST:PORT (port 0: any free port)" : "";
            throw CliException.failure(e.getMessage() + hint, e);
        }
    }

    private ShepherdConfig loadConfig() {
        try {
            if (config == null) {
                ShepherdConfig embedded = EmbeddedDefault.config(embeddedDataDir(), listen != null ? listen : EmbeddedDefault.LISTEN);
                return metrics == null ? embedded : embedded.with("metrics.listen", metrics);
            }
            if (dataDir != null || listen != null || metrics != null) {
                throw CliException.usage("--data-dir, --listen and --metrics apply to the embedded default only; with --config"
                        + " set data.dir, listen and metrics.listen in " + config);
            }
            if (!Files.isRegularFile(config)) {
                throw CliException.usage("config file " + config + " does not exist (or is not a file); pass an existing "
                        + "--config FILE, or no --config for the embedded default");
            }
            return ShepherdConfig.load(config);
        } catch (ConfigException e) {
            throw CliException.usage(e.getMessage());
        }
    }

    private Path embeddedDataDir() {
        return dataDir != null ? dataDir : EmbeddedDefault.DATA_DIR;
    }
}
