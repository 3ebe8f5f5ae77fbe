package org.shepherd.tpcc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.server.ShepherdServer;

/**
 * bin/tpcc run and check through a real shepherd over three embedded Derby replicas. The replicas start as copies of
 * one load (identical data, as bin/bench does), because loading 100,000 rows through the shepherd takes a minute;
 * {@code -Dtpcc.loadThroughShepherd=true} loads (and checks condition 11) through the shepherd instead.
 */
class TpccThroughShepherdTest {

    private static final List<String> REPLICAS = List.of("r1", "r2", "r3");
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private ShepherdServer server;
    private String prefix;

    @TempDir
    Path dir;

    @BeforeAll
    static void derbyTimeouts() {
        DerbyTestSupport.shortLockTimeouts();
    }

    @AfterEach
    void stop() {
        if (server != null) server.close();
        for (String r : REPLICAS) DerbyTestSupport.dropInMemory(prefix + r);
    }

    private int tpcc(String... args) {
        out.reset();
        err.reset();
        return TpccCli.execute(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    private String output() {
        return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "mode={0}")
    @ValueSource(strings = {"cbs"})
    void loadRunAndCheckPassThroughTheShepherdAndTheReplicasEndEqual(String mode) throws Exception {
        prefix = "shep-" + mode + "-";
        Map<String, String> config = new LinkedHashMap<>();
        config.put("listen", "127.0.0.1:0");
        config.put("mode", mode);
        config.put("f", "1");
        config.put("data.dir", dir.resolve("shepherd-data").toString());
        for (String r : REPLICAS) config.put("replica." + r + ".url", "jdbc:derby:memory:" + prefix + r + ";create=true");
        boolean loadThroughShepherd = Boolean.getBoolean("tpcc.loadThroughShepherd");
        if (!loadThroughShepherd) {
            for (String r : REPLICAS) DerbyTestSupport.loadedCopy(prefix + r);
        }
        server = ShepherdServer.create(ShepherdConfig.fromMap(config));
        server.start();
        String url = server.jdbcUrl("tpcc");

        if (loadThroughShepherd) {
            assertThat(tpcc("load", "--url", url, "--user", "bench", "--warehouses", "1", "--small")).as(output()).isZero();
        }
        if (loadThroughShepherd) {
            if (loadThroughShepherd) {
            assertThat(tpcc("check", "--url", url, "--user", "bench", "--after-load")).as(output()).isZero();
        }
        }
        assertThat(tpcc("run", "--url", url, "--user", "bench", "--warehouses", "1", "--small", "--terminals", "2", "--transactions", "15",
            "--duration", "600")).as(output()).isZero();
        assertThat(tpcc("check", "--url", url, "--user", "bench")).as(output()).isZero();

        List<Digest.TableDigest> first = null;
        for (String r : REPLICAS) {
            try (Connection c = DriverManager.getConnection("jdbc:derby:memory:" + prefix + r)) {
                assertThat(new Checker(c, new Scale(1, true)).checkAll(false))
                    .noneMatch(x -> x.status() == Checker.Status.FAIL);
                List<Digest.TableDigest> digest = Digest.ofTables(c);
                if (first == null) first = digest;
                assertThat(digest).as("replica " + r).isEqualTo(first);
            }
        }
    }
}
