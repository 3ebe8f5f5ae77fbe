package org.shepherd.tpcc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TpccCliTest {

    private static final String DB = "tpcc-cli";
    private static final String URL = "jdbc:derby:memory:" + DB;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    @BeforeAll
    static void load() throws Exception {
        assertThat(DerbyTestSupport.loadedCopy(DB)).isEqualTo(URL);
    }

    @AfterAll
    static void drop() {
        DerbyTestSupport.dropInMemory(DB);
    }

    private int tpcc(String... args) {
        out.reset();
        err.reset();
        return TpccCli.execute(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void runPrintsTheTableWritesJsonAndCheckPassesAfterIt() throws Exception {
        Path json = dir.resolve("run.json");
        int code = tpcc("run", "--url", URL, "--warehouses", "1", "--small", "--terminals", "2", "--transactions", "25",
            "--duration", "600", "--json", json.toString());
        assertThat(code).as(stderr()).isZero();
        assertThat(stdout()).contains("NewOrder", "Payment", "OrderStatus", "Delivery", "StockLevel", "tpmC");
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.get("transactions").asLong()).isEqualTo(50);
        assertThat(root.get("byType")).hasSize(5);
        assertThat(root.get("url").asText()).isEqualTo(URL);

        assertThat(tpcc("check", "--url", URL, "--digest", "--json", dir.resolve("check.json").toString()))
            .as(stdout()).isZero();
        assertThat(stdout()).contains("SKIP 11", "consistency check passed", "order_line");
        assertThat(stdout()).doesNotContain("FAIL");
    }

    @Test
    void checkExitsOneWhenAConditionFails() throws Exception {
        try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE warehouse SET w_ytd = w_ytd + 1 WHERE w_id = 1");
            try {
                assertThat(tpcc("check", "--url", URL)).isEqualTo(TpccCli.EXIT_FAILED);
                assertThat(stdout()).contains("FAIL  1", "FAIL  8", "consistency check FAILED");
            } finally {
                s.executeUpdate("UPDATE warehouse SET w_ytd = w_ytd - 1 WHERE w_id = 1");
            }
        }
    }

    @Test
    void badUsageExitsTwoWithAMessageSayingWhatToFix() {
        assertThat(tpcc("run", "--warehouses", "1")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(stderr()).contains("--url");
        assertThat(tpcc("run", "--url", URL, "--warehouses", "0")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(stderr()).contains("--warehouses must be at least 1");
        assertThat(tpcc("run", "--url", URL, "--warehouses", "1")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(stderr()).contains("--small");
        assertThat(tpcc("run", "--url", URL, "--warehouses", "1", "--small", "--think-ms", "fast"))
            .isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(tpcc("run", "--url", URL, "--warehouses", "1", "--small", "--isolation", "snapshot"))
            .isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(stderr()).contains("--isolation must be");
        assertThat(tpcc("run", "--url", URL, "--warehouses", "1", "--small", "--reconnect", "-5")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(stderr()).contains("--reconnect must not be negative");
        assertThat(tpcc("load", "--url", "jdbc:unknown:x", "--warehouses", "1")).isEqualTo(TpccCli.EXIT_USAGE);
        assertThat(stderr()).contains("--dialect");
    }

    @Test
    void anUnreachableDatabaseIsAFailedJob() {
        assertThat(tpcc("check", "--url", "jdbc:derby:memory:does-not-exist")).isEqualTo(TpccCli.EXIT_FAILED);
        assertThat(stderr()).contains("does-not-exist");
    }

    @Test
    void helpExitsZero() {
        assertThat(tpcc("--help")).isZero();
        assertThat(tpcc("run", "--help")).isZero();
        assertThat(stdout()).contains("--think-ms", "--reconnect[=S]");
    }
}
