package org.shepherd.replica.setup;

import org.junit.jupiter.api.Assumptions;
import org.shepherd.testkit.MariaDbServer;

/** MariaDB 10.11 (Debian's mariadbd), skipped when it is not installed. */
class DebianMariaDbSetupTest extends MariaDbSetupContract {
    @Override
    protected MariaDbServer newServer() {
        Assumptions.assumeTrue(MariaDbServer.debianAvailable(),
                "Debian's mariadb-server is not installed (run .ci/install-deps.sh): MariaDB 10.11 setup tests skipped");
        return MariaDbServer.debian();
    }
}
