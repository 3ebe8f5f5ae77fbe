package org.shepherd.testkit;

class DerbyNetworkServerTest extends ServerFixtureContract {
    @Override
    protected DatabaseServer newServer() {
        return new DerbyNetworkServer();
    }

    @Override
    protected String expectedDialect() {
        return "derby";
    }
}
