package org.shepherd.translator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.shepherd.translator.dialect.Dialect;

/** A LIMIT / FETCH over tables with known primary keys gets those keys as the last ORDER BY terms. */
class OrderTieBreakerTest {

    private static Translator translator() throws SQLException {
        Translator t = new Translator(Dialect.MARIADB, List.of(Dialect.MARIADB, Dialect.DERBY), 64);
        t.translate("CREATE TABLE ev (id INT PRIMARY KEY, created TIMESTAMP, name VARCHAR(10))");
        t.translate("CREATE TABLE line (ev_id INT, n INT, qty INT, CONSTRAINT pk_line PRIMARY KEY (ev_id, n))");
        t.translate("CREATE TABLE heap (a INT, b INT)");
        return t;
    }

    @Test
    void tiesAreBrokenByThePrimaryKey() throws SQLException {
        Translator t = translator();
        assertThat(t.translate("SELECT name FROM ev ORDER BY created DESC LIMIT 10").sqlFor(Dialect.MARIADB))
                .isEqualTo("SELECT name FROM ev ORDER BY created DESC, ev.id LIMIT 10");
        assertThat(t.translate("SELECT name FROM ev e ORDER BY created DESC LIMIT 10 OFFSET 20").sqlFor(Dialect.DERBY))
                .isEqualTo("SELECT name FROM ev e ORDER BY created DESC NULLS LAST, e.id NULLS FIRST OFFSET 20 ROWS FETCH FIRST 10"
                        + " ROWS ONLY");
        assertThat(t.translate("SELECT e.name, l.qty FROM ev e JOIN line l ON l.ev_id = e.id ORDER BY l.qty LIMIT 5")
                .sqlFor(Dialect.MARIADB)).isEqualTo(
                "SELECT e.name, l.qty FROM ev e JOIN line l ON l.ev_id = e.id ORDER BY l.qty, e.id, l.ev_id, l.n LIMIT 5");
    }

    @Test
    void aLimitWithoutOrderByIsOrderedByThePrimaryKeyInsteadOfRefused() throws SQLException {
        Translator t = translator();
        assertThat(t.translate("SELECT * FROM ev LIMIT 3").sqlFor(Dialect.MARIADB)).isEqualTo("SELECT * FROM ev ORDER BY ev.id LIMIT 3");
        assertThat(t.translate("SELECT * FROM ev FETCH FIRST 3 ROWS ONLY").sqlFor(Dialect.DERBY))
                .isEqualTo("SELECT * FROM ev ORDER BY ev.id NULLS FIRST FETCH FIRST 3 ROWS ONLY");
    }

    @Test
    void anOrderThatIsAlreadyTotalOrAQueryItWouldChangeIsLeftAlone() throws SQLException {
        Translator t = translator();
        assertThat(t.translate("SELECT name FROM ev ORDER BY id DESC LIMIT 10").sqlFor(Dialect.MARIADB))
                .isEqualTo("SELECT name FROM ev ORDER BY id DESC LIMIT 10");
        assertThat(t.translate("SELECT name FROM ev ORDER BY created").sqlFor(Dialect.MARIADB))
                .as("no LIMIT: every row is returned, the vote compares them as rows")
                .isEqualTo("SELECT name FROM ev ORDER BY created");
        assertThat(t.translate("SELECT created, COUNT(*) FROM ev GROUP BY created ORDER BY 2 DESC LIMIT 3").sqlFor(Dialect.MARIADB))
                .doesNotContain("ev.id");
        assertThat(t.translate("SELECT DISTINCT name FROM ev ORDER BY name LIMIT 3").sqlFor(Dialect.MARIADB)).doesNotContain("ev.id");
        assertThat(t.translate("SELECT e.name FROM ev e LEFT JOIN line l ON l.ev_id = e.id ORDER BY e.name LIMIT 3")
                .sqlFor(Dialect.MARIADB)).endsWith("ORDER BY e.name LIMIT 3");
        assertThatThrownBy(() -> t.translate("WITH ev AS (SELECT a AS id FROM heap) SELECT id FROM ev LIMIT 3"))
                .as("a WITH query named like a table is not that table").hasMessageContaining("ORDER BY");
        assertThatThrownBy(() -> t.translate("SELECT * FROM heap LIMIT 3")).as("no primary key: still refused")
                .hasMessageContaining("ORDER BY");
    }

    /** After a restart the keys come from the primary's metadata (here an embedded Derby, with a quoted lower-case key). */
    @Test
    void theKeysAreReadFromTheMetadata() throws SQLException {
        String url = "jdbc:derby:memory:tiebreaker;create=true";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE ev (\"id\" INT NOT NULL, created TIMESTAMP, CONSTRAINT pk PRIMARY KEY (\"id\"))");
            Translator t = new Translator(Dialect.DERBY, List.of(Dialect.DERBY), 16,
                    new SchemaCatalog(SchemaCatalog.jdbcLoader(() -> DriverManager.getConnection(url))));
            String sql = t.translate("SELECT created FROM ev ORDER BY created FETCH FIRST 2 ROWS ONLY").sqlFor(Dialect.DERBY);
            assertThat(sql).isEqualTo("SELECT created FROM ev ORDER BY created NULLS LAST, ev.\"id\" NULLS LAST FETCH FIRST 2 ROWS"
                    + " ONLY");
            s.executeQuery(sql).close(); // Derby runs it
        } finally {
            try {
                DriverManager.getConnection("jdbc:derby:memory:tiebreaker;drop=true");
            } catch (SQLException dropped) {
                // 08006: the in-memory database is gone
            }
        }
    }
}
