package org.shepherd.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code shepherd status}: reserved; the admin endpoint it reads does not exist yet. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Show the view, the primary, each replica's state, lag and last barrier, and the divergence count.",
            "NOT AVAILABLE YET: needs the shepherd's admin endpoint."})
final class StatusCommand implements Callable<Integer> {

    static final String NOT_AVAILABLE = "not available yet: needs the admin endpoint (no issue yet; the admin/status API of the "
            + "shepherd is not built). Until then the shepherd's log shows replica state and divergences.";

    @Option(names = "--url", paramLabel = "URL", description = "The shepherd to ask (jdbc:shepherd://host:port/db).")
    String url;

    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @Override
    public Integer call() {
        throw CliException.failure(NOT_AVAILABLE);
    }
}
