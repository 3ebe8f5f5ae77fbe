package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.shepherd.replica.jdbc.JdbcExecution;
import org.shepherd.translator.dialect.Dialect;

/**
 * Derby's declined duplicate index on a Derby database that lacks the record table (a replica first reached after the
 * shepherd started, from before the table): the first declined index makes it; a DROP TABLE or DROP INDEX before any
 * needs none.
 */
class DeclinedIndexesTest {

    @Test
    void aReplicaWithoutTheTableMakesItAtItsFirstDeclinedIndex() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:derby:memory:declined;create=true"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, a INT, CONSTRAINT uq_a UNIQUE (a))");
            s.execute("CREATE TABLE gone (id INT PRIMARY KEY)");
            s.execute("DROP TABLE gone");
            DeclinedIndexes.afterDdl(c, Dialect.DERBY, "DROP TABLE gone"); // no table: nothing to forget, no failure
            SQLException noIndex = dropFails(s, "DROP INDEX ix_none");
            assertThat(DeclinedIndexes.droppedDeclined(c, Dialect.DERBY, "DROP INDEX ix_none", noIndex)).isFalse();

            s.execute("CREATE INDEX ix_a ON t (a)");
            assertThat(JdbcExecution.warnings(s)).extracting(SQLException::getSQLState).containsExactly("01504");
            DeclinedIndexes.recordIfDeclined(c, Dialect.DERBY, "CREATE INDEX ix_a ON t (a)", JdbcExecution.warnings(s));
            s.execute("RENAME TABLE t TO u");
            DeclinedIndexes.afterDdl(c, Dialect.DERBY, "RENAME TABLE t TO u"); // the record follows its table

            SQLException declined = dropFails(s, "DROP INDEX ix_a");
            assertThat(DeclinedIndexes.droppedDeclined(c, Dialect.DERBY, "DROP INDEX ix_a", declined)).isTrue();
            assertThat(DeclinedIndexes.droppedDeclined(c, Dialect.DERBY, "DROP INDEX ix_a", declined))
                    .as("dropped once: a second DROP INDEX fails as anywhere").isFalse();
            // a quoted name, with a space, qualified
            s.execute("CREATE INDEX \"ix b\" ON APP.u (a)");
            DeclinedIndexes.recordIfDeclined(c, Dialect.DERBY, "CREATE INDEX \"ix b\" ON APP.u (a)", JdbcExecution.warnings(s));
            SQLException quoted = dropFails(s, "DROP INDEX APP.\"ix b\"");
            assertThat(DeclinedIndexes.droppedDeclined(c, Dialect.DERBY, "DROP INDEX APP.\"ix b\"", quoted)).isTrue();
            s.execute("DROP TABLE u");
        } finally {
            try {
                DriverManager.getConnection("jdbc:derby:memory:declined;drop=true").close();
            } catch (SQLException dropped) {
                // Derby answers a dropped in-memory database with 08006
            }
        }
    }

    /**
     * A record keeps its columns: it follows their RENAME COLUMN, goes with their DROP COLUMN (as Derby drops an index of a
     * dropped column), and the declined index is made once the index Derby kept instead is dropped. A table made before
     * the columns were recorded gets them at start-up, and its old records are still dropped by name.
     */
    @Test
    void aRecordFollowsItsColumnsAndTheIndexIsMadeOnceTheKeptOneIsDropped() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:derby:memory:declinedcols;create=true"); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("CREATE TABLE " + DeclinedIndexes.TABLE + " (index_schema VARCHAR(128) NOT NULL, index_name VARCHAR(128)"
                    + " NOT NULL, table_schema VARCHAR(128) NOT NULL, table_name VARCHAR(128) NOT NULL,"
                    + " PRIMARY KEY (index_schema, index_name))");
            s.execute("INSERT INTO " + DeclinedIndexes.TABLE + " VALUES ('APP', 'IX_OLD', 'APP', 'T')");
            DeclinedIndexes.ensureTable(c);
            DeclinedIndexes.ensureTable(c); // once is enough
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, d INT)");
            SQLException old = dropFails(s, "DROP INDEX ix_old");
            assertThat(DeclinedIndexes.droppedDeclined(c, Dialect.DERBY, "DROP INDEX ix_old", old)).isTrue();

            s.execute("CREATE INDEX ix_ab ON t (a, b DESC)");
            declined(c, s, "CREATE INDEX ix_ab2 ON t (a, \"B\" DESC)");
            s.execute("CREATE INDEX ix_d ON t (d)");
            declined(c, s, "CREATE INDEX ix_d2 ON APP.t (d ASC)");
            ddl(c, s, "RENAME COLUMN t.b TO \"C c\"");
            ddl(c, s, "DROP INDEX ix_ab");
            assertThat(indexes(s)).as("made, on the renamed column, in its order").contains("IX_AB2 (A, C c DESC)");
            String again = "CREATE INDEX ix_ab2 ON t (a, \"C c\" DESC)";
            s.execute(again);
            assertThatThrownBy(() -> DeclinedIndexes.recordIfDeclined(c, Dialect.DERBY, again, JdbcExecution.warnings(s)))
                    .as("Derby declines a duplicate before it looks at the name; the name is taken on every engine")
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("X0Y32"));
            String declinedAgain = "CREATE INDEX ix_d2 ON t (d)";
            s.execute(declinedAgain);
            assertThatThrownBy(() -> DeclinedIndexes.recordIfDeclined(c, Dialect.DERBY, declinedAgain, JdbcExecution.warnings(s)))
                    .as("a declined index's name is taken too").isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(e.getSQLState()).isEqualTo("X0Y32"));
            SQLException made = dropFails(s, "DROP INDEX ix_none");
            assertThat(DeclinedIndexes.droppedDeclined(c, Dialect.DERBY, "DROP INDEX ix_ab2", made))
                    .as("its record went when it was made").isFalse();

            ddl(c, s, "ALTER TABLE t DROP COLUMN d");
            assertThat(indexes(s)).as("Derby dropped the index it kept").noneMatch(i -> i.startsWith("IX_D"));
            SQLException gone = dropFails(s, "DROP INDEX ix_d2");
            assertThat(DeclinedIndexes.droppedDeclined(c, Dialect.DERBY, "DROP INDEX ix_d2", gone))
                    .as("gone with its column, as on the engines that made it").isFalse();
            c.rollback();
        } finally {
            try {
                DriverManager.getConnection("jdbc:derby:memory:declinedcols;drop=true").close();
            } catch (SQLException dropped) {
                // Derby answers a dropped in-memory database with 08006
            }
        }
    }

    private static void declined(Connection c, Statement s, String sql) throws SQLException {
        s.execute(sql);
        assertThat(JdbcExecution.warnings(s)).extracting(SQLException::getSQLState).containsExactly("01504");
        DeclinedIndexes.recordIfDeclined(c, Dialect.DERBY, sql, JdbcExecution.warnings(s));
    }

    private static void ddl(Connection c, Statement s, String sql) throws SQLException {
        s.execute(sql);
        DeclinedIndexes.afterDdl(c, Dialect.DERBY, sql);
    }

    /** Table T's indexes that back no constraint, as {@code NAME (COLUMN, COLUMN DESC)}. */
    private static List<String> indexes(Statement s) throws SQLException {
        List<String> found = new ArrayList<>();
        try (ResultSet rs = s.getConnection().getMetaData().getIndexInfo(null, "APP", "T", false, false)) {
            Map<String, List<String>> byIndex = new TreeMap<>();
            while (rs.next()) {
                if (rs.getString("INDEX_NAME").startsWith("SQL")) continue;
                byIndex.computeIfAbsent(rs.getString("INDEX_NAME"), k -> new ArrayList<>())
                        .add(rs.getString("COLUMN_NAME") + ("D".equals(rs.getString("ASC_OR_DESC")) ? " DESC" : ""));
            }
            byIndex.forEach((name, cols) -> found.add(name + " (" + String.join(", ", cols) + ")"));
        }
        return found;
    }

    private static SQLException dropFails(Statement s, String sql) {
        SQLException[] failed = new SQLException[1];
        assertThatThrownBy(() -> s.execute(sql)).isInstanceOfSatisfying(SQLException.class, e -> failed[0] = e)
                .hasFieldOrPropertyWithValue("SQLState", "42X65");
        return failed[0];
    }
}
