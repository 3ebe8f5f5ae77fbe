package org.shepherd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.coordinator.cbs.CbsCoordinator;
import org.shepherd.divergence.DivergenceLog;
import org.shepherd.server.ShepherdServer;

/**
 * {@code shepherd status}, {@code shepherd divergences} and the refusals of {@code shepherd restore} against the embedded
 * default, as an operator runs them (a restore itself: {@code ShepherdCrashTest}).
 */
class AdminEndToEndTest {

    /** Safety bound while the last replica finishes; the test never asserts on durations. */
    private static final long IDLE_BOUND_MS = 60_000;

    @Test
    void statusShowsTheViewAndDivergencesNameTheReplicaChangedBehindTheShepherdsBack(@TempDir Path dir) throws Exception {
        Path dataDir = dir.resolve("shepherd-data");
        ServeCommand.Running running = CliRun.serveEmbedded(dataDir);
        try (ShepherdServer server = running.server()) {
            CliRun status = CliRun.of("status", "--json", "--data-dir", dataDir.toString());
            assertThat(status.exitCode()).as(status.err()).isZero();
            JsonNode view = new ObjectMapper().readTree(status.out());
            assertThat(view.get("mode").asText()).isEqualTo("cbs");
            assertThat(view.get("f").asInt()).isEqualTo(1);
            assertThat(view.get("primary").asText()).isEqualTo("r1");
            assertThat(view.get("commit_p50_ms").asLong()).as("no commit yet: not measured").isEqualTo(-1);
            JsonNode replicas = view.get("replica_status");
            assertThat(replicas).hasSize(3);
            List<String> roles = new ArrayList<>();
            for (JsonNode r : replicas) {
                roles.add(r.get("role").asText());
                assertThat(r.get("state").asText()).as(r.toString()).isEqualTo("up");
                assertThat(r.get("divergences").asLong()).isZero();
            }
            assertThat(roles).containsExactly("primary", "secondary", "secondary");

            ConnectionTarget target = ConnectionTarget.resolve(null, null, null, dataDir);
            try (Connection client = DriverManager.getConnection(target.url(), target.connectionProperties())) {
                assertThat(client.getMetaData().getDatabaseProductName()).as("Ready names the primary's product")
                        .isEqualTo("Apache Derby");
                assertThat(client.getMetaData().getDatabaseProductVersion()).matches("10\\.[0-9.]+.*");
            }

            CliRun none = CliRun.of("divergences", "--data-dir", dataDir.toString());
            assertThat(none.exitCode()).as(none.err()).isZero();
            assertThat(none.out()).startsWith("no divergences");

            CliRun setUp = CliRun.of("sql", "--data-dir", dataDir.toString(),
                    "-e", "create table acct(id int primary key, bal int)", "-e", "insert into acct values (1, 100)");
            assertThat(setUp.exitCode()).as(setUp.err()).isZero();
            assertThat(((CbsCoordinator) server.coordinator()).awaitIdle(IDLE_BOUND_MS))
                    .as("r3 has the row (a secondary may commit it after the client was answered)").isTrue();
            try (Connection r3 = DriverManager.getConnection("jdbc:derby:" + dataDir.toAbsolutePath().normalize().resolve("r3"));
                    Statement st = r3.createStatement()) {
                assertThat(st.executeUpdate("update acct set bal = 666 where id = 1")).isEqualTo(1);
            }
            CliRun read = CliRun.of("sql", "--data-dir", dataDir.toString(), "-e", "select bal from acct where id = 1");
            assertThat(read.exitCode()).as(read.err()).isZero();
            assertThat(read.out()).contains("| 100 |");
            assertThat(((CbsCoordinator) server.coordinator()).awaitIdle(IDLE_BOUND_MS))
                    .as("every replica answered (r3's answer is compared after the client has the majority's)").isTrue();

            CliRun report = CliRun.of("divergences", "--data-dir", dataDir.toString());
            assertThat(report.exitCode()).as(report.err()).isZero();
            assertThat(report.out()).contains("| r3 ").contains("select bal from acct").contains("1 divergence");
            assertThat(report.out()).doesNotContain("| r1 ").doesNotContain("| r2 ");
            CliRun asJson = CliRun.of("divergences", "--json", "--data-dir", dataDir.toString());
            assertThat(asJson.exitCode()).as(asJson.err()).isZero();
            JsonNode reports = new ObjectMapper().readTree(asJson.out());
            assertThat(reports).hasSize(1);
            assertThat(reports.get(0).get("replica").asText()).isEqualTo("r3");
            assertThat(reports.get(0).get("statement").asText()).isEqualTo("select bal from acct where id = 1");
            assertThat(reports.get(0).get("masked").asBoolean()).as("r1 and r2 agreed: r3 was outvoted").isTrue();

            CliRun table = CliRun.of("status", "--data-dir", dataDir.toString());
            assertThat(table.exitCode()).as(table.err()).isZero();
            assertThat(table.out()).startsWith("view 0: mode cbs, f=1, barrier ").contains("primary r1 (3 replicas)")
                    .contains("divergences on record: 1");
            assertThat(table.out()).as("the create and the insert were logged").containsPattern(
                    "write-ahead log: \\d+\\.\\d MiB in 1 segment\\(s\\), released up to barrier \\d+");
            assertThat(table.out()).as("autocommit statements are commits too").containsPattern("commit latency since start: p50 \\d+ ms,"
                    + " p99 \\d+ ms, max \\d+ ms; of which waiting for f\\+1 ready, agreeing replicas: p50 \\d+ ms, p99 \\d+ ms");
            assertThat(table.out().lines().filter(line -> line.startsWith("| r3 ")).findFirst().orElseThrow())
                    .as("divergences column of r3, then its location").matches(".*\\|\\s+1 \\| jdbc:derby:.*r3;create=true *\\|$");

            CliRun restoreUp = CliRun.of("restore", "--data-dir", dataDir.toString(), "r2");
            assertThat(restoreUp.exitCode()).as("only a lost replica is restored").isEqualTo(1);
            assertThat(restoreUp.err()).contains("replica r2 is up, not lost").contains("restore --take-out r2");
            CliRun takeOutPrimary = CliRun.of("restore", "--take-out", "--data-dir", dataDir.toString(), "r1");
            assertThat(takeOutPrimary.exitCode()).isEqualTo(1);
            assertThat(takeOutPrimary.err()).contains("replica r1 is the primary");
            CliRun bothSteps = CliRun.of("restore", "--take-out", "--copied", "--data-dir", dataDir.toString(), "r2");
            assertThat(bothSteps.exitCode()).isEqualTo(ShepherdCli.EXIT_USAGE);
            CliRun copiedFirst = CliRun.of("restore", "--copied", "--data-dir", dataDir.toString(), "r2");
            assertThat(copiedFirst.exitCode()).isEqualTo(1);
            assertThat(copiedFirst.err()).contains("run `shepherd restore r2` first");
            CliRun unknown = CliRun.of("restore", "--data-dir", dataDir.toString(), "r9");
            assertThat(unknown.exitCode()).isEqualTo(1);
            assertThat(unknown.err()).contains("no replica r9");
        }
        assertThat(dataDir.resolve(DivergenceLog.FILE)).content().contains("\"replica\":\"r3\"").contains("select bal from acct");
        try (ShepherdServer again = CliRun.serveEmbedded(dataDir).server()) {
            CliRun report = CliRun.of("divergences", "--data-dir", dataDir.toString());
            assertThat(report.exitCode()).as(report.err()).isZero();
            assertThat(report.out()).as("reports survive a restart").contains("| r3 ").contains("select bal from acct")
                    .contains("1 divergence");
            CliRun table = CliRun.of("status", "--data-dir", dataDir.toString());
            assertThat(table.out()).contains("divergences on record: 1");
            assertThat(table.out().lines().filter(line -> line.startsWith("| r3 ")).findFirst().orElseThrow())
                    .as("divergences column of r3, then its location").matches(".*\\|\\s+1 \\| jdbc:derby:.*r3;create=true *\\|$");
        }
    }

    /**
     * {@code shepherd verify} reads every table through the vote: equal replicas pass; a row changed behind the
     * shepherd's back on r3 in a table's third chunk (a two-column key), and a row deleted on r2 from a table without a
     * key, are found and named; {@code verify --repair} rewrites them on those replicas, after which all are equal.
     */
    @Test
    void verifyComparesEveryTableAndNamesTheReplicasThatDiffer(@TempDir Path dir) throws Exception {
        Path dataDir = dir.resolve("shepherd-data");
        ServeCommand.Running running = CliRun.serveEmbedded(dataDir);
        try (ShepherdServer server = running.server()) {
            CliRun empty = CliRun.of("verify", "--data-dir", dataDir.toString());
            assertThat(empty.exitCode()).as(empty.err()).isZero();
            assertThat(empty.out()).startsWith("no tables to compare");
            ConnectionTarget target = ConnectionTarget.resolve(null, null, null, dataDir);
            try (Connection client = DriverManager.getConnection(target.url(), target.connectionProperties());
                    Statement st = client.createStatement()) {
                st.executeUpdate("CREATE TABLE acct (id INT PRIMARY KEY, bal INT)");
                st.executeUpdate("INSERT INTO acct VALUES (1, 100), (2, 200)");
                st.executeUpdate("CREATE TABLE line (o INT NOT NULL, n INT NOT NULL, qty INT, PRIMARY KEY (o, n))");
                st.executeUpdate("CREATE TABLE note (txt VARCHAR(20))");
                st.executeUpdate("INSERT INTO note VALUES ('a'), ('b'), ('b')");
                st.executeUpdate("CREATE TABLE \"Mixed\" (\"Id\" INT PRIMARY KEY, v INT)"); // names that need quotes
                st.executeUpdate("INSERT INTO \"Mixed\" VALUES (1, 10), (2, 20)");
                try (PreparedStatement ps = client.prepareStatement("INSERT INTO line VALUES (?, ?, ?)")) {
                    for (int i = 0; i < 2_500; i++) {
                        ps.setInt(1, i % 2);
                        ps.setInt(2, i);
                        ps.setInt(3, i * 7);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
            CliRun equal = CliRun.of("verify", "--data-dir", dataDir.toString());
            assertThat(equal.exitCode()).as(equal.out() + equal.err()).isZero();
            assertThat(equal.out()).contains("4 tables equal on every replica")
                    .containsPattern("\\| Mixed +\\| +2 \\|").containsPattern("\\| LINE +\\| +2500 \\| +3 \\|");
            assertThat(((CbsCoordinator) server.coordinator()).divergences().snapshot()).isEmpty();

            behindTheShepherdsBack(dataDir, "r3", "UPDATE line SET qty = -1 WHERE o = 1 AND n = 2301");
            behindTheShepherdsBack(dataDir, "r2", "DELETE FROM note WHERE txt = 'a'");
            CliRun differs = CliRun.of("verify", "--data-dir", dataDir.toString());
            assertThat(differs.exitCode()).as(differs.out() + differs.err()).isEqualTo(VerifyCommand.EXIT_DIFFERS);
            assertThat(differs.out()).containsPattern("\\| LINE .*\\| r3 +\\| DIFFERS on r3")
                    .containsPattern("\\| NOTE .*\\| r2 +\\| DIFFERS on r2").containsPattern("\\| ACCT .*\\| equal")
                    .contains("2 of 4 tables not equal everywhere");
            CliRun one = CliRun.of("verify", "--data-dir", dataDir.toString(), "--table", "acct");
            assertThat(one.exitCode()).as(one.out() + one.err()).isZero();
            assertThat(one.out()).contains("1 table equal on every replica");
            CliRun report = CliRun.of("divergences", "--data-dir", dataDir.toString());
            assertThat(report.out()).contains("| r3 ").contains("| r2 ").doesNotContain("| r1 ");
            CliRun missing = CliRun.of("verify", "--data-dir", dataDir.toString(), "--table", "nothing");
            assertThat(missing.exitCode()).isEqualTo(1);
            assertThat(missing.err()).contains("no table nothing");
            try (Connection client = DriverManager.getConnection(target.url(), target.connectionProperties());
                    Statement st = client.createStatement()) {
                st.executeUpdate("CREATE SCHEMA sales");
                st.executeUpdate("CREATE TABLE sales.orders (id INT PRIMARY KEY, total INT)");
                st.executeUpdate("INSERT INTO sales.orders VALUES (1, 5), (2, 6)");
            }
            behindTheShepherdsBack(dataDir, "r2", "UPDATE sales.orders SET total = 0 WHERE id = 2");
            CliRun schema = CliRun.of("verify", "--data-dir", dataDir.toString(), "--schema", "sales");
            assertThat(schema.exitCode()).as(schema.out() + schema.err()).isEqualTo(VerifyCommand.EXIT_DIFFERS);
            assertThat(schema.out()).containsPattern("\\| SALES.ORDERS .*\\| r2 +\\| DIFFERS on r2").doesNotContain("LINE");
            CliRun both = CliRun.of("verify", "--data-dir", dataDir.toString(), "--schema", "sales", "--table", "orders");
            assertThat(both.exitCode()).isEqualTo(2);
            assertThat(both.err()).contains("--table sales.TABLE");
            CliRun fixed = CliRun.of("verify", "--data-dir", dataDir.toString(), "--table", "sales.orders", "--repair");
            assertThat(fixed.out()).as(fixed.err())
                    .containsPattern("\\| SALES.ORDERS .*\\| r2: 0 deleted, 1 updated, 0 inserted +\\| equal");

            CliRun repair = CliRun.of("verify", "--data-dir", dataDir.toString(), "--repair");
            assertThat(repair.exitCode()).as(repair.out() + repair.err()).isZero();
            assertThat(repair.out()).containsPattern("\\| LINE .*\\| r3 +\\| r3: 0 deleted, 1 updated, 0 inserted +\\| equal")
                    .containsPattern("\\| NOTE .*\\| r2 +\\| r2: 2 deleted, 0 updated, 3 inserted +\\| equal")
                    .containsPattern("\\| ACCT .*\\| +\\| +\\| equal").contains("4 tables equal on every replica");
            CliRun after = CliRun.of("verify", "--data-dir", dataDir.toString());
            assertThat(after.exitCode()).as(after.out() + after.err()).isZero();
            CliRun status = CliRun.of("status", "--data-dir", dataDir.toString());
            assertThat(status.out()).containsPattern("last comparison: \\S+Z, on demand: 4 of 4 tables equal on every replica\\n");
        }
    }

    private static void behindTheShepherdsBack(Path dataDir, String replica, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:derby:" + dataDir.toAbsolutePath().normalize().resolve(replica));
                Statement st = c.createStatement()) {
            assertThat(st.executeUpdate(sql)).isEqualTo(1);
        }
    }
}
