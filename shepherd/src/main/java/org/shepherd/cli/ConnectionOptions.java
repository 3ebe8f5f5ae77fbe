package org.shepherd.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options that say which shepherd (or database) a client command talks to; a picocli mixin. */
final class ConnectionOptions {

    @Option(names = "--url", paramLabel = "URL", description = "JDBC URL, e.g. jdbc:shepherd://127.0.0.1:7654/db "
            + "(default: the embedded default started by `shepherd serve` in this directory).")
    String url;

    @Option(names = "--user", paramLabel = "USER", description = "User name (overrides the credentials file).")
    String user;

    @Option(names = "--password", paramLabel = "PASSWORD", arity = "0..1", interactive = true,
            description = "Password (overrides the credentials file); without a value it is asked for.")
    String password;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "shepherd-data",
            description = "Data directory of the embedded default, used without --url (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    ConnectionTarget resolve() {
        return ConnectionTarget.resolve(url, user, password, dataDir);
    }
}
