package org.shepherd.hetero;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.ResultCursor;
import org.shepherd.coordinator.Session;
import org.shepherd.coordinator.cbs.CbsCoordinator;
import org.shepherd.coordinator.cbs.CbsCore;
import org.shepherd.divergence.DivergenceLog;
import org.shepherd.replica.jdbc.ConnectionPreparer;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.replica.jdbc.ReplicaSpec;
import org.shepherd.schedule.ExecutionMode;

/**
 * The CBS coordinator's translator knows the column types of tables created before the shepherd started, from the
 * primary's metadata: Derby refuses {@code 'n=' || n} for a number column n (42846) unless the translator renders n as
 * text, and compares {@code 'a'} and {@code 'a '} as equal unless it knows s is a VARCHAR.
 */
class CatalogFromPrimaryTest {

    private static final AtomicInteger DB = new AtomicInteger();
    private static final int CONNECTIONS = 4;
    private static final long CONNECT_TIMEOUT_MS = 5_000;

    private CbsCoordinator coordinator;

    @AfterEach
    void stop() {
        if (coordinator != null) {
            coordinator.close();
        }
    }

    @Test
    void tablesMadeBeforeTheShepherdStartedAreRenderedWithTheirTypes() throws Exception {
        coordinator = coordinatorOverPreparedTable();
        try (Session s = coordinator.openSession("app", "db")) {
            assertThat(query(s, "SELECT id, 'n=' || n AS x FROM pre_t ORDER BY id"))
                    .containsExactly(List.of("1", "n=42"), List.of("2", "n=-7"), List.of("3", "n=2147483647"));
            assertThat(query(s, "SELECT COUNT(DISTINCT s) AS k FROM pre_t")).containsExactly(List.of("3"));
            assertThat(query(s, "SELECT id FROM pre_t WHERE s = 'a'")).containsExactly(List.of("1"));
            assertThat(query(s, "SELECT n + 1 AS m FROM pre_t WHERE id = 3")).containsExactly(List.of("2147483648"));
        }
        assertThat(coordinator.divergences().snapshot()).isEmpty();
    }

    /** The translator learns a CREATE TABLE when it translates it; when the statement then fails, that is forgotten. */
    @Test
    void aFailedCreateTableDoesNotChangeTheTypesTheTranslatorUses() throws Exception {
        coordinator = coordinatorOverPreparedTable();
        try (Session s = coordinator.openSession("app", "db")) {
            String concat = "SELECT 'n=' || n AS x FROM pre_t WHERE id = 2";
            assertThat(query(s, concat)).containsExactly(List.of("n=-7"));
            assertThatThrownBy(() -> s.execute("CREATE TABLE pre_t (id INTEGER, n VARCHAR(10), s VARCHAR(5))", List.of(),
                    ExecOptions.DEFAULT)).isInstanceOf(SQLException.class);
            // with n taken for a VARCHAR column, Derby would get n unconverted and refuse the concatenation (42846)
            assertThat(query(s, concat)).containsExactly(List.of("n=-7"));
        }
    }

    private static CbsCoordinator coordinatorOverPreparedTable() throws SQLException {
        int n = DB.incrementAndGet();
        List<ReplicaPool> pools = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            ReplicaSpec spec = ReplicaSpec.of("r" + i, "jdbc:derby:memory:catalog" + n + "r" + i + ";create=true", "", "");
            ReplicaPool pool = new ReplicaPool(spec, ConnectionPreparer.defaults("derby"), CONNECTIONS, CONNECT_TIMEOUT_MS);
            pools.add(pool);
            try (Connection c = pool.acquire(); Statement st = c.createStatement()) {
                st.executeUpdate("CREATE TABLE pre_t (id INTEGER PRIMARY KEY, n INTEGER, s VARCHAR(5))");
                st.executeUpdate("INSERT INTO pre_t VALUES (1, 42, 'a'), (2, -7, 'a '), (3, 2147483647, 'b')");
                c.commit();
            }
        }
        return new CbsCoordinator(pools, 0, CbsCore.Settings.defaults(1, ExecutionMode.CBS), 16, 100, 60_000,
                new DivergenceLog());
    }

    private static List<List<String>> query(Session s, String sql) throws SQLException {
        Answer.Rows rows = (Answer.Rows) s.execute(sql, List.of(), ExecOptions.DEFAULT);
        List<List<String>> out = new ArrayList<>();
        try (ResultCursor c = rows.cursor()) {
            while (!c.exhausted()) {
                for (Object[] row : c.fetch(50)) {
                    List<String> text = new ArrayList<>();
                    for (Object v : row) {
                        text.add(String.valueOf(v));
                    }
                    out.add(text);
                }
            }
        }
        return out;
    }
}
