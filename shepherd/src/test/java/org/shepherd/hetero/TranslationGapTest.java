package org.shepherd.hetero;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.shepherd.coordinator.Session;
import org.shepherd.coordinator.cbs.CbsCoordinator;
import org.shepherd.coordinator.cbs.CbsCore;
import org.shepherd.divergence.DivergenceLog;
import org.shepherd.replica.jdbc.ConnectionPreparer;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.replica.jdbc.ReplicaSpec;
import org.shepherd.schedule.ExecutionMode;

/**
 * A statement the primary's engine runs but the secondaries' engine refuses (SQLState class 42) and the translator does
 * not know to refuse up front: HSQLDB runs {@code BITXOR}, Derby has none (no list of the functions an engine lacks is
 * complete: {@code FunctionSupportTest}). The two Derby replicas agree on their error, f+1 of them, but that is a
 * statement not portable to their engine, not a wrong answer of the primary: the transaction is aborted with 0A000 and
 * the primary stays the primary. Without the distinction the primary was replaced.
 */
class TranslationGapTest {

    private static final int POOL_SIZE_MAX = 4;
    private static final long CONNECT_TIMEOUT_MS = 10_000;

    @Test
    void aStatementOnlyTheSecondariesEngineRefusesAbortsWithoutReplacingThePrimary() throws Exception {
        List<ReplicaPool> pools = pools("hsqldb", "gap-h", "derby", "gap-d1", "gap-d2");
        try (CbsCoordinator coordinator = coordinator(pools); Session s = coordinator.openSession("app", "db")) {
            Workloads.update(s, "CREATE TABLE person (id INT PRIMARY KEY, name VARCHAR(20))");
            Workloads.update(s, "INSERT INTO person VALUES (1, 'Robert')");
            assertThatThrownBy(() -> Workloads.query(s, "SELECT BITXOR(id, 3) FROM person"))
                    .as("autocommit: answered after the vote")
                    .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "0A000")
                    .hasMessageContaining("replicas of other engines refused it");
            s.setAutoCommit(false);
            Workloads.update(s, "INSERT INTO person VALUES (2, 'Rupert')");
            try {
                Workloads.query(s, "SELECT BITXOR(id, 3) FROM person"); // the primary's answer may reach the client first
            } catch (SQLException e) {
                assertThat(e.getSQLState()).isEqualTo("0A000");
            }
            assertThatThrownBy(s::commit).isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "0A000");
            s.setAutoCommit(true);
            Workloads.update(s, "INSERT INTO person VALUES (3, 'Ruth')");
            assertThat(coordinator.awaitIdle(30_000)).isTrue();
            assertThat(coordinator.primary().name()).as("no view change").isEqualTo("gap-h");
            for (ReplicaPool p : pools) {
                assertThat(rows(p, "SELECT id FROM person ORDER BY id")).as(p.spec().name()).containsExactly("1", "3");
            }
        }
    }

    /**
     * The mirror: a Derby client's {@code MOD(7.5, 2)}, which Derby refuses (42Y95: its MOD takes integers) and the two
     * HSQLDB secondaries answer alike (1.5). The client writes Derby's SQL, so that is the client's error, not a wrong
     * answer of the primary: the client gets the primary's refusal (its SQLState), a transaction in which the
     * secondaries ran such an UPDATE is rolled back everywhere (its COMMIT fails with that SQLState), and the primary
     * stays the primary. Without the distinction the two secondaries outvoted the primary and replaced it.
     */
    @Test
    void aStatementOnlyThePrimarysEngineRefusesAbortsWithoutReplacingThePrimary() throws Exception {
        List<ReplicaPool> pools = pools("derby", "gap-d", "hsqldb", "gap-h1", "gap-h2");
        try (CbsCoordinator coordinator = coordinator(pools); Session s = coordinator.openSession("app", "db")) {
            Workloads.update(s, "CREATE TABLE item (id INT PRIMARY KEY, price DECIMAL(5, 2))");
            Workloads.update(s, "INSERT INTO item VALUES (1, 7.50)");
            assertThatThrownBy(() -> Workloads.query(s, "SELECT MOD(price, 2) FROM item"))
                    .as("autocommit: the primary's error").isInstanceOf(SQLException.class)
                    .hasFieldOrPropertyWithValue("SQLState", "42Y95");
            s.setAutoCommit(false);
            Workloads.update(s, "INSERT INTO item VALUES (2, 2.25)");
            try {
                Workloads.update(s, "UPDATE item SET price = MOD(price, 2)"); // the primary's answer may reach the client first
            } catch (SQLException e) {
                assertThat(e.getSQLState()).startsWith("42");
            }
            assertThatThrownBy(s::commit).isInstanceOf(SQLException.class)
                    .hasFieldOrPropertyWithValue("SQLState", "42Y95");
            s.setAutoCommit(true);
            Workloads.update(s, "INSERT INTO item VALUES (3, 1.00)");
            assertThat(coordinator.awaitIdle(30_000)).isTrue();
            assertThat(coordinator.primary().name()).as("no view change").isEqualTo("gap-d");
            for (ReplicaPool p : pools) {
                assertThat(rows(p, "SELECT id, price FROM item ORDER BY id")).as(p.spec().name())
                        .containsExactly("1 7.50", "3 1.00");
            }
        }
    }

    /** A primary of {@code primaryDialect} named {@code primary}, then secondaries of {@code dialect}, all in memory. */
    private static List<ReplicaPool> pools(String primaryDialect, String primary, String dialect, String... secondaries)
            throws SQLException {
        List<ReplicaPool> pools = new ArrayList<>();
        try {
            pools.add(pool(primaryDialect, primary));
            for (String name : secondaries) pools.add(pool(dialect, name));
        } catch (SQLException | RuntimeException e) {
            pools.forEach(ReplicaPool::close);
            throw e;
        }
        return pools;
    }

    private static ReplicaPool pool(String dialect, String name) throws SQLException {
        ReplicaSpec spec = "derby".equals(dialect) ? ReplicaSpec.of(name, "jdbc:derby:memory:" + name + ";create=true", "", "")
                : ReplicaSpec.of(name, "jdbc:hsqldb:mem:" + name, "SA", "");
        return new ReplicaPool(spec, ConnectionPreparer.defaults(dialect), POOL_SIZE_MAX, CONNECT_TIMEOUT_MS);
    }

    private static CbsCoordinator coordinator(List<ReplicaPool> pools) throws SQLException {
        return new CbsCoordinator(pools, 0, CbsCore.Settings.defaults(1, ExecutionMode.CBS), 8, 100, 60_000, new DivergenceLog());
    }

    /** {@code sql}'s rows read on {@code p} directly, each its columns' text joined by a blank. */
    private static List<String> rows(ReplicaPool p, String sql) throws SQLException {
        try (var c = p.acquire(); var st = c.createStatement(); var rs = st.executeQuery(sql)) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) row.append(i > 1 ? " " : "").append(rs.getString(i));
                rows.add(row.toString());
            }
            c.rollback();
            return rows;
        }
    }
}
