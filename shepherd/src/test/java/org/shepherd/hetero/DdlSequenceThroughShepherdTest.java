package org.shepherd.hetero;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.shepherd.coordinator.Session;
import org.shepherd.coordinator.cbs.CbsCoordinator;
import org.shepherd.coordinator.cbs.CbsCore;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.schedule.ExecutionMode;
import org.shepherd.testing.ReplicaTables;
import org.shepherd.testkit.DdlSequence;

/**
 * Random schema migrations ({@link DdlSequence}) through a shepherd in mode cbs over real servers of three engines, in
 * the primary's client spellings: a MySQL client over MariaDB, Derby and HSQLDB (MODIFY and CHANGE become a statement
 * per part on Derby and HSQLDB), a Derby client over Derby, MariaDB and HSQLDB (a column's nullability or type is
 * restated on MariaDB from its own catalog), an HSQLDB client over HSQLDB, Derby and PostgreSQL. After every step no
 * replica may have answered differently (the divergence log stays empty) and the table must be equal on every replica.
 * Seeded; a failure prints the seed and the steps so far. {@code -Dddl.sequences=N} runs N sequences per replica set.
 */
class DdlSequenceThroughShepherdTest {

    private static final long SEED = 20_261_127L;
    private static final int STEPS = 45;
    private static final long IDLE_TIMEOUT_MS = 60_000;
    private static ReplicaServers servers;

    @BeforeAll
    static void startServers() throws Exception {
        servers = ReplicaServers.start();
    }

    @AfterAll
    static void stopServers() {
        if (servers != null) servers.close();
    }

    @Test
    void mysqlClientOverMariaDbDerbyAndHsqldb() throws Exception {
        run(DdlSequence.Client.MYSQL, List.of(ReplicaServers.MARIADB, ReplicaServers.DERBY, ReplicaServers.HSQLDB), SEED);
    }

    @Test
    void derbyClientOverDerbyMariaDbAndHsqldb() throws Exception {
        run(DdlSequence.Client.DERBY, List.of(ReplicaServers.DERBY, ReplicaServers.MARIADB, ReplicaServers.HSQLDB), SEED + 1);
    }

    @Test
    void hsqldbClientOverHsqldbDerbyAndPostgresql() throws Exception {
        run(DdlSequence.Client.HSQLDB, List.of(ReplicaServers.HSQLDB, ReplicaServers.DERBY, ReplicaServers.POSTGRESQL), SEED + 2);
    }

    private static void run(DdlSequence.Client client, List<String> names, long seed) throws Exception {
        for (int k = 0; k < Integer.getInteger("ddl.sequences", 1); k++) runOne(client, names, seed + 1000L * k);
    }

    private static void runOne(DdlSequence.Client client, List<String> names, long seed) throws Exception {
        int set = servers.newSet();
        List<ReplicaPool> pools = new ArrayList<>();
        for (String n : names) pools.add(servers.pool(n, set));
        try (CbsCoordinator c = HeterogeneousCbsTest.coordinatorOver(pools, 0, CbsCore.Settings.defaults(1, ExecutionMode.CBS));
                Session s = c.openSession("app", "db")) {
            DdlSequence sequence = new DdlSequence(seed, client, new DdlSequence.Target() {
                @Override
                public boolean run(String sql) throws SQLException {
                    try {
                        Workloads.update(s, sql);
                        return true;
                    } catch (SQLException refused) {
                        return false;
                    } finally {
                        assertThat(c.divergences().snapshot()).as("no replica answered differently").isEmpty();
                    }
                }

                @Override
                public long count(String sql) throws SQLException {
                    return Workloads.number(Workloads.query(s, sql).get(0)[0]);
                }
            }).withDuplicateIndexes().withClockDefaults().withSeveralChanges();
            try {
                sequence.run(STEPS, (table, rows) -> {
                    assertThat(c.awaitIdle(IDLE_TIMEOUT_MS)).isTrue();
                    List<String> first = ReplicaTables.canonical(pools.get(0), table, "id");
                    for (ReplicaPool p : pools.subList(1, pools.size())) {
                        assertThat(ReplicaTables.canonical(p, table, "id")).as("%s on %s", table, p.spec().name()).isEqualTo(first);
                    }
                    assertThat(Workloads.number(Workloads.query(s, "SELECT COUNT(*) FROM " + table).get(0)[0])).isEqualTo(rows);
                });
            } catch (AssertionError | Exception e) {
                throw new AssertionError("DDL sequence with seed " + seed + ", client " + client + " over " + names + ", after:\n  "
                        + String.join("\n  ", sequence.log()) + "\n" + e.getMessage(), e);
            }
            System.out.printf("DDL sequence, client %s over %s: %d steps, %d done%n", client, names, sequence.log().size(),
                    sequence.log().stream().filter(l -> l.startsWith("done")).count());
        } finally {
            servers.shutDownDerbySet(set); // many sequences (-Dddl.sequences=90) would keep as many databases booted
        }
    }
}
