package org.shepherd.tpcc;

import java.sql.DriverManager;
import java.sql.SQLException;

final class DerbyTestSupport {

    private DerbyTestSupport() {
    }

    /** Derby looks for deadlocks only after 20 s of waiting by default; tests should not sit that long. */
    static void shortLockTimeouts() {
        System.setProperty("derby.locks.deadlockTimeout", "2");
        System.setProperty("derby.locks.waitTimeout", "10");
        System.setProperty("derby.stream.error.file", "target/derby.log");
    }

    /** Frees an in-memory Derby database; Derby answers a successful drop with an exception. */
    static void dropInMemory(String name) {
        try {
            DriverManager.getConnection("jdbc:derby:memory:" + name + ";drop=true").close();
        } catch (SQLException expected) {
            // SQLState 08006 means dropped
        }
    }
}
