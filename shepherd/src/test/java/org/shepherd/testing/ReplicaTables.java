package org.shepherd.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.shepherd.coordinator.cbs.CbsCoordinator;
import org.shepherd.coordinator.cbs.JdbcReplicaEndpoint;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.replica.jdbc.JdbcValues;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.vote.CanonicalValues;

/** Tables read straight from the replicas (behind the shepherd), in canonical form so vendors compare. */
public final class ReplicaTables {

    private ReplicaTables() {
    }

    /** The replicas of {@code coordinator}, first the first configured. */
    public static List<ReplicaPool> pools(CbsCoordinator coordinator) {
        return coordinator.endpoints().stream().map(JdbcReplicaEndpoint::pool).toList();
    }

    /** Every row of {@code table} in canonical form, ordered by {@code orderBy}: equal lists mean equal tables. */
    public static List<String> canonical(ReplicaPool pool, String table, String orderBy) throws SQLException {
        JdbcValues values = JdbcValues.forDialect(pool.spec().dialect());
        List<String> rows = new ArrayList<>();
        try (Connection c = pool.acquire(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM " + table + " ORDER BY " + orderBy)) {
            List<ColumnInfo> cols = JdbcValues.columns(rs.getMetaData());
            while (rs.next()) {
                Object[] row = values.readRow(rs, cols);
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < row.length; i++) {
                    sb.append(i == 0 ? "" : "|").append(CanonicalValues.label(cols.get(i).label())).append('=')
                            .append(CanonicalValues.of(row[i], cols.get(i).jdbcType()));
                }
                rows.add(sb.toString());
            }
            c.rollback();
        }
        return rows;
    }

    /** {@code table} is not empty on the first replica and equal to it on every other one. */
    public static void assertEqualEverywhere(List<ReplicaPool> pools, String table, String orderBy) throws SQLException {
        String firstName = pools.get(0).spec().name();
        List<String> first = canonical(pools.get(0), table, orderBy);
        assertThat(first).as("%s on %s", table, firstName).isNotEmpty();
        for (ReplicaPool p : pools.subList(1, pools.size())) {
            assertThat(canonical(p, table, orderBy)).as("%s on %s equals %s on %s", table, p.spec().name(), table, firstName)
                    .isEqualTo(first);
        }
    }
}
