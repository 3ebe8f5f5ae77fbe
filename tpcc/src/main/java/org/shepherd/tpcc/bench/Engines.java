package org.shepherd.tpcc.bench;

/** The database engines bin/bench can start, each server in a process of its own. */
final class Engines {

    private Engines() {
    }

    static BenchDatabase.Engine forName(String name) {
        throw new IllegalStateException("bench needs the testkit database servers, which are not on main yet;"
            + " engine '" + name + "' cannot be started");
    }
}
