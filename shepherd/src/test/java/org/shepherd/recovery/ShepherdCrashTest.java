package org.shepherd.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.cli.ShepherdCli;
import org.shepherd.testkit.DatabaseServer;
import org.shepherd.testkit.DerbyNetworkServer;
import org.shepherd.testkit.TcpProxy;

/**
 * Tier 3: the shepherd process is killed with SIGKILL right after it acknowledged a COMMIT that no replica had
 * committed yet (TCP proxies hold everything the shepherd sends to the replicas, so the COMMITs wait in the network). The replicas
 * roll the transaction back when the links are cut; the restarted shepherd replays it from its write-ahead log, on
 * every replica. Without the log (its directory removed before the restart) the acknowledged commit is gone: the log
 * is what keeps it.
 */
class ShepherdCrashTest {

    /** Safety bound for a child JVM or a state to appear; the test never asserts on durations. */
    private static final long BOUND_SECONDS = 120;

    @TempDir
    Path dir;

    private final List<DerbyNetworkServer> servers = new ArrayList<>();
    private final List<TcpProxy> proxies = new ArrayList<>();
    private Process shepherd;

    @AfterEach
    void stop() {
        if (shepherd != null) shepherd.destroyForcibly();
        proxies.forEach(TcpProxy::close);
        servers.forEach(DerbyNetworkServer::close);
    }

    @Test
    void aCommitAcknowledgedJustBeforeTheShepherdIsKilledIsReplayedFromItsLogOnEveryReplica() throws Exception {
        Path config = startReplicas();
        String url = startWithAccounts(config);

        try (Connection c = DriverManager.getConnection(url, "app", "secret")) {
            commitWhileTheReplicasAreCutOff(c, "UPDATE acct SET balance = balance + 50 WHERE id = 1",
                    "INSERT INTO acct VALUES (3, 300.00)");
        }
        killShepherdAndCutTheLinks();
        for (DerbyNetworkServer server : servers) {
            assertThat(rows(server)).as("%s rolled the unfinished transaction back", server.name())
                    .containsExactly("1=100.00", "2=200.00");
        }

        url = startShepherd(config); // the primary replayed before the ready line; the others replay meanwhile
        for (DerbyNetworkServer server : servers) awaitRows(server, "1=150.00", "2=200.00", "3=300.00");
        try (Connection c = DriverManager.getConnection(url, "app", "secret"); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE acct SET balance = balance - 1 WHERE id = 3");
            try (ResultSet rs = s.executeQuery("SELECT SUM(balance) FROM acct")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("649.00");
            }
        }
        for (DerbyNetworkServer server : servers) {
            awaitRows(server, "1=150.00", "2=200.00", "3=299.00");
            assertThat(txlogCommits(server)).as("every replica logged the same commits")
                    .isEqualTo(txlogCommits(servers.get(0)));
        }

        // the same crash with the log removed before the restart: the acknowledged commit is lost
        try (Connection c = DriverManager.getConnection(url, "app", "secret")) {
            commitWhileTheReplicasAreCutOff(c, "INSERT INTO acct VALUES (4, 400.00)");
        }
        killShepherdAndCutTheLinks();
        DatabaseServer.deleteRecursively(dir.resolve("shepherd-data").resolve("wal"));
        url = startShepherd(config);
        try (Connection c = DriverManager.getConnection(url, "app", "secret"); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO acct VALUES (5, 500.00)");
        }
        // every replica has the commit after the restart: a replay of the lost one, had there been one, came before it
        for (DerbyNetworkServer server : servers) awaitRows(server, "1=150.00", "2=200.00", "3=299.00", "5=500.00");
    }

    @Test
    void aShepherdRestartedWhileAReplicaIsDownServesAndCatchesThatReplicaUpWhenItIsBack() throws Exception {
        Path config = startReplicas();
        String url = startWithAccounts(config);
        try (Connection c = DriverManager.getConnection(url, "app", "secret")) {
            commitWhileTheReplicasAreCutOff(c, "UPDATE acct SET balance = balance + 50 WHERE id = 1");
        }
        killShepherdAndCutTheLinks();
        DerbyNetworkServer r3 = servers.get(2);
        r3.kill();

        url = startShepherd(config); // r3 does not answer: the shepherd starts with r1 and r2
        try (Connection c = DriverManager.getConnection(url, "app", "secret"); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO acct VALUES (3, 300.00)");
            try (ResultSet rs = s.executeQuery("SELECT SUM(balance) FROM acct")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("650.00");
            }
        }
        for (DerbyNetworkServer server : servers.subList(0, 2)) awaitRows(server, "1=150.00", "2=200.00", "3=300.00");

        r3.restart(); // probed, checked against the others' log, the logged update and the insert replayed
        awaitRows(r3, "1=150.00", "2=200.00", "3=300.00");
        assertThat(txlogCommits(r3)).isEqualTo(txlogCommits(servers.get(0)));
    }

    @Test
    void aReplicaDownForLongerThanTheShepherdKeepsInMemoryCatchesUpFromTheLogOnDisk() throws Exception {
        Path config = startReplicas("replica.recovery.log.max=5\n");
        String url = startWithAccounts(config);
        DerbyNetworkServer r3 = servers.get(2);
        try (Connection c = DriverManager.getConnection(url, "app", "secret"); Statement s = c.createStatement()) {
            r3.kill();
            for (int i = 0; i < 40; i++) { // eight times what the shepherd keeps in memory for r3
                s.executeUpdate("UPDATE acct SET balance = balance + 1 WHERE id = " + (1 + i % 2));
                if (i % 10 == 0) s.executeUpdate("INSERT INTO acct VALUES (" + (10 + i) + ", " + i + ".00)");
            }
        }
        r3.restart(); // it replays what it missed, most of it read back from the log
        awaitRows(r3, rows(servers.get(0)).toArray(String[]::new));
        assertThat(rows(r3)).contains("1=120.00", "2=220.00", "40=30.00");
        assertThat(txlogCommits(r3)).isEqualTo(txlogCommits(servers.get(0)));
    }

    @Test
    void aShepherdRestartedWithMoreLoggedThanItKeepsInMemoryReadsTheRestBackForAReplicaThatWasDown() throws Exception {
        Path config = startReplicas("replica.recovery.log.max=5\n");
        String url = startWithAccounts(config);
        DerbyNetworkServer r3 = servers.get(2);
        r3.kill();
        try (Connection c = DriverManager.getConnection(url, "app", "secret"); Statement s = c.createStatement()) {
            for (int i = 0; i < 30; i++) s.executeUpdate("UPDATE acct SET balance = balance + 1 WHERE id = " + (1 + i % 2));
        }
        shepherd.destroyForcibly(); // SIGKILL: the log holds the 30 updates r3 lacks; the restart keeps 5 in memory
        assertThat(shepherd.waitFor(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
        r3.restart();
        url = startShepherd(config); // r3 replays at once, before any new commit: the older 25 read back from disk
        awaitRows(r3, "1=115.00", "2=215.00");
        try (Connection c = DriverManager.getConnection(url, "app", "secret"); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE acct SET balance = balance + 100 WHERE id = 1");
        }
        awaitRows(r3, "1=215.00", "2=215.00");
        assertThat(txlogCommits(r3)).isEqualTo(txlogCommits(servers.get(0)));
    }

    @Test
    void replicaTransactionLogsAreTruncatedAndARestartCountsTheirCommitsAcrossTheTruncation() throws Exception {
        // small segments: the log records its floor as it deletes them, and the replicas' logs are truncated up to it
        Path config = startReplicas("replica.txlog.truncate.barriers=8\nwal.segment.bytes.max=4096\n");
        String url = startWithAccounts(config);
        int updates = 60;
        try (Connection c = DriverManager.getConnection(url, "app", "secret"); Statement s = c.createStatement()) {
            for (int i = 0; i < updates; i++) s.executeUpdate("UPDATE acct SET balance = balance + 1 WHERE id = " + (1 + i % 2));
        }
        long written = updates + 2; // and the CREATE TABLE and the INSERT of startWithAccounts
        for (DerbyNetworkServer server : servers) {
            long[] log = awaitTruncated(server); // some rows were deleted, and counted:
            assertThat(log[0] + log[1]).as("%s: commits counted, truncated or not", server.name()).isEqualTo(written);
        }

        try (Connection c = DriverManager.getConnection(url, "app", "secret")) {
            commitWhileTheReplicasAreCutOff(c, "UPDATE acct SET balance = balance + 1000 WHERE id = 1");
        }
        killShepherdAndCutTheLinks();
        url = startShepherd(config); // every replica holds as many commits up to the floor: none is lost
        try (Connection c = DriverManager.getConnection(url, "app", "secret"); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE acct SET balance = balance + 1 WHERE id = 2");
        }
        for (DerbyNetworkServer server : servers) {
            awaitRows(server, "1=1130.00", "2=231.00");
            long[] log = txlogCounts(server);
            assertThat(log[0] + log[1]).as("%s: commits counted after the restart", server.name()).isEqualTo(written + 2);
        }
    }

    @Test
    void aReplicaDownWhileTheLogWouldKeepMoreThanItsBoundForItIsLostAndTheLogIsReleasedPastIt() throws Exception {
        long bound = 16 * 1024;
        Path config = startReplicas("wal.retain.bytes.max=" + bound + "\nwal.segment.bytes.max=4096\n");
        String url = startWithAccounts(config);
        servers.get(2).kill();
        try (Connection c = DriverManager.getConnection(url, "app", "secret"); Statement s = c.createStatement()) {
            for (int i = 0; i < 300; i++) s.executeUpdate("UPDATE acct SET balance = balance + 1 WHERE id = " + (1 + i % 2));
            try (ResultSet rs = c.unwrap(org.shepherd.jdbc.ShepherdConnection.class).adminStatus()) {
                List<String> states = new ArrayList<>();
                while (rs.next()) states.add(rs.getString("replica") + " " + rs.getString("state"));
                assertThat(states).contains("r1 up", "r2 up").anySatisfy(state -> assertThat(state)
                        .startsWith("r3 lost: ").contains("wal.retain.bytes.max"));
            }
        }
        Path wal = dir.resolve("shepherd-data").resolve("wal");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        long onDisk;
        do { // the log's thread deletes released segments soon after the release
            Thread.sleep(20);
            onDisk = 0;
            try (Stream<Path> files = Files.list(wal)) {
                for (Path p : files.toList()) {
                    try {
                        onDisk += Files.size(p);
                    } catch (java.nio.file.NoSuchFileException deletedMeanwhile) {
                        // released while listed
                    }
                }
            }
        } while (onDisk >= bound && System.nanoTime() < deadline);
        assertThat(onDisk).as("the log's files once released past r3").isLessThan(bound);
        awaitRows(servers.get(1), "1=250.00", "2=350.00");
    }

    @Test
    void aLostReplicaIsRestoredFromABackupOfAnUpToDateOneWhileTheShepherdServes() throws Exception {
        Path config = startReplicas("wal.retain.bytes.max=16384\nwal.segment.bytes.max=4096\nuser.app.admin=true\n"
                + "user.viewer.password=look\n");
        String url = startWithAccounts(config);
        DerbyNetworkServer r1 = servers.get(0);
        DerbyNetworkServer r3 = servers.get(2);
        r3.kill();
        try (Connection c = DriverManager.getConnection(url, "app", "secret"); Statement s = c.createStatement()) {
            org.shepherd.jdbc.ShepherdConnection admin = c.unwrap(org.shepherd.jdbc.ShepherdConnection.class);
            for (int i = 0; i < 300; i++) s.executeUpdate("UPDATE acct SET balance = balance + 1 WHERE id = " + (1 + i % 2));
            assertThat(replicaState(admin, "r3")).startsWith("lost: ");
            try (Connection viewer = DriverManager.getConnection(url, "viewer", "look")) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> restore(viewer.unwrap(
                        org.shepherd.jdbc.ShepherdConnection.class), "r3", false)).isInstanceOf(SQLException.class)
                        .hasMessageContaining("user viewer may not run shepherd.restore")
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42501"));
            }
            assertThat(replicaState(admin, "r3")).as("the refusal changed nothing").startsWith("lost: ");

            // the operator: step 1, then a backup of r1 installed as r3's database, then step 3
            assertThat(restore(admin, "r3", false)).startsWith("down: restoring: waiting for a copy");
            s.executeUpdate("UPDATE acct SET balance = balance + 1000 WHERE id = 1"); // in the backup
            Path backup = backup(r1);
            s.executeUpdate("UPDATE acct SET balance = balance + 1000 WHERE id = 2"); // after it: replayed on r3
            Path database = r3.dataDir().resolve(r3.database());
            DatabaseServer.deleteRecursively(database);
            copyRecursively(backup.resolve(r1.database()), database);
            r3.restart();
            assertThat(restore(admin, "r3", true)).startsWith("down: restored");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
            while (!replicaState(admin, "r3").equals("up") && System.nanoTime() < deadline) Thread.sleep(50);
            assertThat(replicaState(admin, "r3")).isEqualTo("up");
            s.executeUpdate("UPDATE acct SET balance = balance + 1 WHERE id = 1");
        }
        awaitRows(r3, "1=1251.00", "2=1350.00");
        assertThat(rows(r1)).containsExactly("1=1251.00", "2=1350.00");
        assertThat(txlogCommits(r3)).isEqualTo(txlogCommits(r1));
    }

    @Test
    void aReplicaWhoseMachineIsGoneIsRestoredOnAnotherServerThatTheEditedConfigurationNames() throws Exception {
        Path config = startReplicas("user.app.admin=true\n");
        String url = startWithAccounts(config);
        DerbyNetworkServer r1 = servers.get(0);
        servers.get(2).kill(); // r3's machine is gone for good
        DerbyNetworkServer elsewhere = new DerbyNetworkServer("r3-elsewhere", dir.resolve("r3-elsewhere"), "shepherd");
        servers.add(elsewhere);
        String configured = Files.readString(config);
        try (Connection c = DriverManager.getConnection(url, "app", "secret"); Statement s = c.createStatement()) {
            org.shepherd.jdbc.ShepherdConnection admin = c.unwrap(org.shepherd.jdbc.ShepherdConnection.class);
            s.executeUpdate("UPDATE acct SET balance = balance + 1 WHERE id = 1"); // r3 is found down
            try (ResultSet rs = admin.adminRestoreTakingOut("r3")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("state")).startsWith("down: restoring: waiting for a copy");
            }
            s.executeUpdate("UPDATE acct SET balance = balance + 10 WHERE id = 1"); // in the backup
            Path backup = backup(r1);
            s.executeUpdate("UPDATE acct SET balance = balance + 100 WHERE id = 2"); // after it: replayed there
            Files.createDirectories(elsewhere.dataDir());
            copyRecursively(backup.resolve(r1.database()), elsewhere.dataDir().resolve(elsewhere.database()));
            elsewhere.start();

            // what the operator may get wrong is refused, and changes nothing
            String r3Line = configured.lines().filter(l -> l.startsWith("replica.r3.url=")).findFirst().orElseThrow();
            String r1Url = configured.lines().filter(l -> l.startsWith("replica.r1.url=")).findFirst().orElseThrow()
                    .substring("replica.r1.url=".length());
            Files.writeString(config, configured.replace(r3Line, "replica.r3.url=" + r1Url));
            assertRestoreCopiedRefused(admin, "F0000", "replicas r1 and r3 name the same database");
            Files.writeString(config, configured.replace(r3Line, "replica.r3.url=jdbc:hsqldb:hsql://127.0.0.1:9/x"));
            assertRestoreCopiedRefused(admin, "0A000", "keeps its engine");
            Files.writeString(config, configured + "replica.r3.urll=" + elsewhere.jdbcUrl() + "\n");
            assertRestoreCopiedRefused(admin, "F0000", "replica.r3.urll");
            assertThat(replicaState(admin, "r3")).startsWith("down: restoring: waiting for a copy");

            // a place where nothing answers: taken (it is probed there), and mended by naming the right one
            String nowhere = "jdbc:derby://127.0.0.1:" + DatabaseServer.freePort() + "/shepherd";
            Files.writeString(config, configured.replace(r3Line, "replica.r3.url=" + nowhere));
            assertThat(restore(admin, "r3", true)).startsWith("down: restored at its new location " + nowhere);
            Files.writeString(config, configured.replace(r3Line, "replica.r3.url=" + elsewhere.jdbcUrl()));
            assertThat(restore(admin, "r3", true)).startsWith("down: restored at its new location " + elsewhere.jdbcUrl());
            awaitUp(admin, "r3");
            assertThat(replicaColumn(admin, "r3", "location")).isEqualTo(elsewhere.jdbcUrl());
            s.executeUpdate("UPDATE acct SET balance = balance + 1000 WHERE id = 1");
        }
        awaitRows(elsewhere, "1=1111.00", "2=300.00");
        assertThat(txlogCommits(elsewhere)).isEqualTo(txlogCommits(r1));

        // the file is what a restart reads: r3 is found where it is now
        killShepherdAndCutTheLinks();
        url = startShepherd(config);
        try (Connection c = DriverManager.getConnection(url, "app", "secret"); Statement s = c.createStatement()) {
            awaitUp(c.unwrap(org.shepherd.jdbc.ShepherdConnection.class), "r3");
            s.executeUpdate("UPDATE acct SET balance = balance + 1 WHERE id = 2");
        }
        awaitRows(elsewhere, "1=1111.00", "2=301.00");
        assertThat(rows(r1)).containsExactly("1=1111.00", "2=301.00");
    }

    private static void assertRestoreCopiedRefused(org.shepherd.jdbc.ShepherdConnection admin, String sqlState, String why) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> restore(admin, "r3", true)).isInstanceOf(SQLException.class)
                .hasMessageContaining(why).satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(sqlState));
    }

    private static void awaitUp(org.shepherd.jdbc.ShepherdConnection admin, String replica) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (!replicaState(admin, replica).equals("up") && System.nanoTime() < deadline) Thread.sleep(50);
        assertThat(replicaState(admin, replica)).isEqualTo("up");
    }

    private static String replicaState(org.shepherd.jdbc.ShepherdConnection admin, String replica) throws SQLException {
        return replicaColumn(admin, replica, "state");
    }

    /** Column {@code column} of {@code replica}'s row of {@code shepherd status}. */
    private static String replicaColumn(org.shepherd.jdbc.ShepherdConnection admin, String replica, String column)
            throws SQLException {
        try (ResultSet rs = admin.adminStatus()) {
            while (rs.next()) {
                if (rs.getString("replica").equals(replica)) return rs.getString(column);
            }
        }
        throw new AssertionError("no replica " + replica + " in the status");
    }

    private static String restore(org.shepherd.jdbc.ShepherdConnection admin, String replica, boolean copied) throws SQLException {
        try (ResultSet rs = admin.adminRestore(replica, copied)) {
            assertThat(rs.next()).isTrue();
            return rs.getString("state");
        }
    }

    /** A consistent copy of {@code server}'s database, taken while it serves; returns the directory holding it. */
    private Path backup(DerbyNetworkServer server) throws SQLException {
        Path backup = dir.resolve("backup");
        try (Connection direct = server.connect();
                java.sql.CallableStatement b = direct.prepareCall("CALL SYSCS_UTIL.SYSCS_BACKUP_DATABASE(?)")) {
            b.setString(1, backup.toString());
            b.execute();
        }
        return backup;
    }

    private static void copyRecursively(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) Files.copy(p, to.resolve(from.relativize(p).toString()));
        }
    }

    /** Starts the shepherd with an account table of two rows; returns its URL. */
    private String startWithAccounts(Path config) throws Exception {
        String url = startShepherd(config);
        try (Connection c = DriverManager.getConnection(url, "app", "secret"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE acct (id INT PRIMARY KEY, balance DECIMAL(12,2) NOT NULL)");
            s.executeUpdate("INSERT INTO acct VALUES (1, 100.00), (2, 200.00)");
        }
        return url;
    }

    /** Waits (bounded) until {@code server} holds exactly {@code expected}, read directly, and asserts it. */
    private static void awaitRows(DerbyNetworkServer server, String... expected) throws Exception {
        List<String> want = List.of(expected);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (!rows(server).equals(want) && System.nanoTime() < deadline) Thread.sleep(50);
        assertThat(rows(server)).as(server.name()).containsExactlyElementsOf(want);
    }

    /** Three Derby servers, each behind a proxy; returns the shepherd's configuration file. */
    private Path startReplicas() throws IOException {
        return startReplicas("");
    }

    /** As above, with {@code extraConfig} (lines) added to the configuration. */
    private Path startReplicas(String extraConfig) throws IOException {
        StringBuilder config = new StringBuilder("listen=127.0.0.1:0\nf=1\nuser.app.password=secret\n").append(extraConfig)
                .append("data.dir=").append(dir.resolve("shepherd-data")).append('\n')
                .append("replica.probe.ms=100\nreplica.probe.max.ms=500\n");
        for (int i = 1; i <= 3; i++) {
            DerbyNetworkServer server = new DerbyNetworkServer("r" + i, dir.resolve("r" + i), "shepherd");
            server.start();
            servers.add(server);
            TcpProxy proxy = TcpProxy.inFrontOf(server);
            proxies.add(proxy);
            config.append("replica.r").append(i).append(".url=").append(server.jdbcUrl(proxy.port())).append('\n')
                    .append("replica.r").append(i).append(".user=").append(server.user()).append('\n')
                    .append("replica.r").append(i).append(".password=").append(server.password()).append('\n');
        }
        Path file = dir.resolve("shepherd.properties");
        Files.writeString(file, config.toString());
        return file;
    }

    /** Starts {@code shepherd serve} in its own JVM and returns the JDBC URL of its ready line. */
    private String startShepherd(Path config) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path out = Files.createTempFile(dir, "shepherd", ".out");
        Path err = Files.createTempFile(dir, "shepherd", ".err");
        shepherd = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), ShepherdCli.class.getName(), "serve",
                "--config", config.toString()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (System.nanoTime() < deadline) {
            String text = Files.readString(out, StandardCharsets.UTF_8);
            int newline = text.indexOf('\n');
            if (newline >= 0) {
                String ready = text.substring(0, newline);
                assertThat(ready).as(Files.readString(err)).startsWith("Shepherd ready: ");
                return ready.substring(ready.indexOf("jdbc:shepherd:")).strip();
            }
            assertThat(shepherd.isAlive()).as("the shepherd exited: %s", Files.readString(err)).isTrue();
            Thread.sleep(50);
        }
        throw new AssertionError("no ready line within " + BOUND_SECONDS + " s: " + Files.readString(err));
    }

    /**
     * Runs the statements in one transaction, waits until every replica executed them (their row locks are held), then
     * holds whatever the shepherd sends to the replicas from now on (their answers still come back) and commits: the
     * shepherd decides, logs and acknowledges the commit, and its COMMITs wait in the proxies.
     */
    private void commitWhileTheReplicasAreCutOff(Connection c, String... statements) throws Exception {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            for (String sql : statements) s.executeUpdate(sql);
        }
        for (DerbyNetworkServer server : servers) awaitRowLocks(server, statements.length);
        for (TcpProxy p : proxies) p.setLatencyMs(TimeUnit.SECONDS.toMillis(BOUND_SECONDS * 30), 0);
        c.commit(); // acknowledged: no exception
    }

    private void killShepherdAndCutTheLinks() throws InterruptedException {
        shepherd.destroyForcibly(); // SIGKILL
        assertThat(shepherd.waitFor(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
        for (TcpProxy p : proxies) {
            p.cutAll();
            p.setLatencyMs(0, 0);
        }
    }

    /** Waits until some transaction holds at least {@code count} exclusive row locks on ACCT at this replica. */
    private static void awaitRowLocks(DerbyNetworkServer server, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM SYSCS_DIAG.LOCK_TABLE WHERE TABLENAME = 'ACCT'"
                        + " AND TYPE = 'ROW' AND MODE = 'X'")) {
                    rs.next();
                    if (rs.getInt(1) >= count) return;
                }
                Thread.sleep(10);
            }
        }
        throw new AssertionError(server.name() + " did not execute the transaction within " + BOUND_SECONDS + " s");
    }

    private static List<String> rows(DerbyNetworkServer server) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = server.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, balance FROM acct ORDER BY id")) {
            while (rs.next()) out.add(rs.getInt(1) + "=" + rs.getBigDecimal(2).toPlainString());
        }
        return out;
    }

    /**
     * What {@code server}'s transaction log says it committed, read directly: how many transactions and the highest
     * barrier, truncated rows included (replicas are truncated at different times, so their rows differ).
     */
    private static String txlogCommits(DerbyNetworkServer server) throws SQLException {
        long[] counts = txlogCounts(server);
        try (Connection c = server.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT MAX(barrier) FROM shepherd_txlog")) {
            rs.next();
            return (counts[0] + counts[1]) + " commits, the last at barrier " + Math.max(counts[2], rs.getLong(1));
        }
    }

    /**
     * {@code [commits counted in shepherd_txlog_base, rows left in shepherd_txlog, the base's last barrier]}, read
     * directly in one serializable transaction (a truncation moves rows into the count).
     */
    private static long[] txlogCounts(DerbyNetworkServer server) throws SQLException {
        try (Connection c = server.connect()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            try (Statement s = c.createStatement()) {
                long[] out = {0, 0, -1};
                // in the order a truncation writes them, so that this reader cannot deadlock with one
                try (ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM shepherd_txlog")) {
                    rows.next();
                    out[1] = rows.getLong(1);
                }
                try (ResultSet base = s.executeQuery("SELECT commit_count, last_barrier FROM shepherd_txlog_base")) {
                    if (base.next()) {
                        out[0] = base.getLong(1);
                        out[2] = base.getLong(2);
                    }
                }
                c.commit();
                return out;
            }
        }
    }

    /** Waits (bounded) until the shepherd truncated {@code server}'s transaction log; returns {@link #txlogCounts}. */
    private static long[] awaitTruncated(DerbyNetworkServer server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (System.nanoTime() < deadline) {
            long[] counts = txlogCounts(server);
            if (counts[0] > 0) return counts;
            Thread.sleep(50);
        }
        throw new AssertionError(server.name() + "'s transaction log was not truncated within " + BOUND_SECONDS + " s");
    }
}
