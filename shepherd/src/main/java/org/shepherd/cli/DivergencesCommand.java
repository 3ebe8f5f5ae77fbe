package org.shepherd.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code shepherd divergences}: reserved; the admin endpoint it reads does not exist yet. */
@Command(name = "divergences", mixinStandardHelpOptions = true,
        description = {"Print the divergence report: every replica answer that differed from the majority.",
            "NOT AVAILABLE YET: needs the shepherd's admin endpoint."})
final class DivergencesCommand implements Callable<Integer> {

    @Option(names = "--url", paramLabel = "URL", description = "The shepherd to ask (jdbc:shepherd://host:port/db).")
    String url;

    @Override
    public Integer call() {
        throw CliException.failure(StatusCommand.NOT_AVAILABLE);
    }
}
