package org.shepherd.testkit;

class HsqldbServerTest extends ServerFixtureContract {
    @Override
    protected DatabaseServer newServer() {
        return new HsqldbServer();
    }

    @Override
    protected String expectedDialect() {
        return "hsqldb";
    }
}
