package org.shepherd.replica.setup;

import java.sql.Connection;
import java.sql.SQLException;
import org.shepherd.testkit.DerbyNetworkServer;

class DerbyNetworkSetupTest extends LockingReplicaSetupContract {
    private DerbyNetworkServer server;

    @Override
    protected String startServer() throws Exception {
        server = new DerbyNetworkServer();
        server.start();
        return server.dialect();
    }

    @Override
    protected void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected Connection open() throws SQLException {
        return server.connect();
    }

    @Override
    protected boolean padSpaceAfterSetup() {
        return true;
    }
}
