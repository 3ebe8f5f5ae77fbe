package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.replica.jdbc.JdbcValues;
import org.shepherd.translator.dialect.Dialect;

/** {@link RangeRepair} on one embedded Derby database: what it writes, and that a released repair writes nothing. */
class RangeRepairTest {

    private static final String URL = "jdbc:derby:memory:rangeRepair";
    private Connection c;

    @BeforeEach
    void open() throws SQLException {
        c = DriverManager.getConnection(URL + ";create=true");
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            st.executeUpdate("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
            st.executeUpdate("INSERT INTO t VALUES (1, 'a'), (2, 'wrong'), (4, 'extra')");
        }
        c.commit();
    }

    @AfterEach
    void drop() throws SQLException {
        c.rollback();
        c.close();
        try {
            DriverManager.getConnection(URL + ";drop=true").close();
        } catch (SQLException expected) {
            // a successful drop is reported as 08006
        }
    }

    private static RangeRepair repairTo(List<Object[]> agreed) {
        RangeRepair.Template delete = p -> new JdbcStatement("DELETE FROM t WHERE id = ?", p, ExecOptions.DEFAULT);
        RangeRepair.Template update = p -> new JdbcStatement("UPDATE t SET v = ? WHERE id = ?", p, ExecOptions.DEFAULT);
        RangeRepair.Template insert = p -> new JdbcStatement("INSERT INTO t (id, v) VALUES (?, ?)", p, ExecOptions.DEFAULT);
        JdbcStatement read = new JdbcStatement("SELECT id, v FROM t ORDER BY id", List.of(), ExecOptions.DEFAULT);
        List<ColumnInfo> columns = List.of(new ColumnInfo("ID", "ID", Types.INTEGER, "INTEGER", 10, 0, 0, "T", false),
                new ColumnInfo("V", "V", Types.VARCHAR, "VARCHAR", 10, 0, 1, "T", false));
        return new RangeRepair("repair of t on r3", Set.of("r3"), new RangeRepair.Statements(read, delete, update, insert),
                columns, new int[] {0}, agreed);
    }

    private List<String> rows() throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT id, v FROM t ORDER BY id")) {
            while (rs.next()) out.add(rs.getInt(1) + "=" + rs.getString(2));
        }
        return out;
    }

    @Test
    void writesOnlyTheRowsThatDiffer() throws SQLException {
        RangeRepair r = repairTo(List.<Object[]>of(new Object[] {1L, "a"}, new Object[] {2L, "b"}, new Object[] {3L, "c"}));
        r.apply("r3", c, Dialect.forName("derby"), JdbcValues.forDialect("derby"));
        assertThat(rows()).containsExactly("1=a", "2=b", "3=c");
        assertThat(r.doneBy("r3")).hasToString("1 deleted, 1 updated, 1 inserted");
        r.apply("r3", c, Dialect.forName("derby"), JdbcValues.forDialect("derby"));
        assertThat(r.doneBy("r3")).as("run again (a re-run transaction)").hasToString("0 deleted, 0 updated, 0 inserted");
    }

    @Test
    void aReleasedRepairIsRefusedAndWritesNothing() throws SQLException {
        RangeRepair r = repairTo(List.<Object[]>of(new Object[] {1L, "a"}));
        assertThat(r.release()).as("nobody ran it").isEmpty();
        assertThatThrownBy(() -> r.apply("r3", c, Dialect.forName("derby"), JdbcValues.forDialect("derby")))
                .isInstanceOf(SQLException.class).hasMessageContaining("given up")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("55000"));
        assertThat(rows()).as("an empty agreed answer must not delete the range").containsExactly("1=a", "2=wrong", "4=extra");
        assertThat(r.doneBy("r3").error()).contains("given up");
    }
}
