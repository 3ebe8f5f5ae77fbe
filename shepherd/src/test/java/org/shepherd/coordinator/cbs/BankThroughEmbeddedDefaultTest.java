package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.config.EmbeddedDefault;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.server.ShepherdServer;
import org.shepherd.testing.BankWorkload;
import org.shepherd.testing.ReplicaTables;
import org.shepherd.testing.SqlClient;

/**
 * Issue 3's acceptance workload, end to end: the embedded default (3 Derby replicas, f=1, mode=cbs) behind the
 * server, reached through the JDBC driver by concurrent transfer clients and concurrent balance readers. Every
 * read must see the whole total; afterwards the three replica databases hold identical tables and no replica
 * was reported divergent.
 */
class BankThroughEmbeddedDefaultTest {

    private static final int ACCOUNTS = 20;
    private static final long INITIAL_BALANCE = 1_000;
    private static final int CLIENTS = 6;
    private static final int TXNS_PER_CLIENT = 25;
    private static final int READERS = 2;

    @Test
    void concurrentTransfersAndReadsKeepTheTotalAndLeaveIdenticalReplicas(@TempDir Path dir) throws Exception {
        long seed = Long.getLong("bank.seed", System.nanoTime());
        ShepherdConfig config = EmbeddedDefault.config(dir.resolve("shepherd-data"), "127.0.0.1:0");
        try (ShepherdServer server = ShepherdServer.create(config)) {
            server.start();
            String url = server.jdbcUrl("shepherd");
            String password = config.users().get(EmbeddedDefault.USER);
            SqlClient.Factory clients = () -> SqlClient.of(DriverManager.getConnection(url, EmbeddedDefault.USER, password));
            BankWorkload bank = new BankWorkload(ACCOUNTS, INITIAL_BALANCE);
            bank.create(clients);
            CbsCoordinator coordinator = (CbsCoordinator) server.coordinator();
            try {
                BankWorkload.Counts counts = bank.run(clients, CLIENTS, TXNS_PER_CLIENT, READERS, seed);
                assertThat(counts.readsWhileWriting()).as("balance reads while the writers ran").isPositive();
                assertThat(coordinator.awaitIdle(30_000)).as("replicas drained").isTrue();
                bank.assertReplicasAgree(ReplicaTables.pools(coordinator));
                assertThat(coordinator.divergences().snapshot()).as("divergence reports").isEmpty();
            } catch (Exception | AssertionError e) {
                throw new AssertionError("bank workload failed; replay with -Dbank.seed=" + seed, e);
            }
        }
    }
}
