package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
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

    private static SQLException dropFails(Statement s, String sql) {
        SQLException[] failed = new SQLException[1];
        assertThatThrownBy(() -> s.execute(sql)).isInstanceOfSatisfying(SQLException.class, e -> failed[0] = e)
                .hasFieldOrPropertyWithValue("SQLState", "42X65");
        return failed[0];
    }
}
