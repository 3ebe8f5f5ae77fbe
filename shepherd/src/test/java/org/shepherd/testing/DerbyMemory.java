package org.shepherd.testing;

import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.shepherd.replica.jdbc.ReplicaPool;

/**
 * In-memory Derby databases live as long as the JVM unless dropped: tests that make many of them drop them when
 * done, so that the suite's one JVM does not carry their pages and caches into later tests.
 */
public final class DerbyMemory {

    private DerbyMemory() {
    }

    /** Drops the in-memory Derby database of each pool (closed before); other URLs are left alone. */
    public static void drop(List<ReplicaPool> pools) {
        for (ReplicaPool p : pools) {
            String url = p.spec().url();
            if (!url.startsWith("jdbc:derby:memory:")) continue;
            int options = url.indexOf(';');
            try {
                DriverManager.getConnection((options < 0 ? url : url.substring(0, options)) + ";drop=true").close();
            } catch (SQLException expected) {
                // Derby reports a successful drop as an SQLException (08006)
            }
        }
    }
}
