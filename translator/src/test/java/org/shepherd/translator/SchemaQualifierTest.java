package org.shepherd.translator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.shepherd.translator.dialect.Dialect;

/** A session's schema (SET SCHEMA) is named in every table a statement leaves unqualified, and only there. */
class SchemaQualifierTest {

    private final Translator derby = new Translator(Dialect.DERBY, 16);

    private String derbySql(String sql, String schema) throws SQLException {
        return derby.translate(sql, schema).sqlFor(Dialect.DERBY);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT id FROM orders WHERE id = ?|SELECT id FROM sales.orders WHERE id = ?",
        "SELECT o.id, c.name FROM orders o JOIN cust c ON o.cid = c.id"
            + "|SELECT o.id, c.name FROM sales.orders o JOIN sales.cust c ON o.cid = c.id",
        "SELECT orders.id FROM orders|SELECT orders.id FROM sales.orders",
        "SELECT id FROM orders WHERE cid IN (SELECT id FROM cust)|SELECT id FROM sales.orders WHERE cid IN (SELECT id FROM sales.cust)",
        "SELECT id FROM other.orders, cust|SELECT id FROM other.orders, sales.cust",
        "WITH big AS (SELECT id FROM orders) SELECT id FROM big|WITH big AS (SELECT id FROM sales.orders) SELECT id FROM big",
        "WITH orders AS (SELECT id FROM orders WHERE id > 1) SELECT id FROM orders"
            + "|WITH orders AS (SELECT id FROM sales.orders WHERE id > 1) SELECT id FROM orders",
        "INSERT INTO orders (id) SELECT id FROM cust|INSERT INTO sales.orders (id) SELECT id FROM sales.cust",
        "UPDATE orders SET total = 0 WHERE id = 1|UPDATE sales.orders SET total = 0 WHERE id = 1",
        "DELETE FROM orders WHERE id = 1|DELETE FROM sales.orders WHERE id = 1",
        "DROP TABLE orders|DROP TABLE sales.orders",
        "CREATE INDEX ix ON orders (total)|CREATE INDEX ix ON sales.orders (total)",
        "SELECT name FROM information_schema.tables|SELECT name FROM information_schema.tables",
        "ALTER TABLE line ADD CONSTRAINT fk FOREIGN KEY (oid) REFERENCES orders (id)"
            + "|ALTER TABLE sales.line ADD CONSTRAINT fk FOREIGN KEY (oid) REFERENCES sales.orders(id)",
        "TRUNCATE TABLE orders|TRUNCATE TABLE sales.orders",
        "CREATE VIEW big AS SELECT id FROM orders WHERE total > 10|CREATE VIEW sales.big AS SELECT id FROM sales.orders WHERE total > 10",
    })
    void unqualifiedTablesGetTheSessionsSchema(String sql, String expected) throws SQLException {
        assertThat(derbySql(sql, "sales")).isEqualToIgnoringCase(expected);
        assertThat(derbySql(sql, null)).as("without a schema, as before")
                .isEqualToIgnoringCase(derby.translate(sql).sqlFor(Dialect.DERBY));
    }

    @Test
    void createTableQualifiesItsForeignKeysToo() throws SQLException {
        String sql = derbySql("CREATE TABLE line (id INT PRIMARY KEY, oid INT REFERENCES orders (id),"
                + " cid INT, FOREIGN KEY (cid) REFERENCES other.cust (id), FOREIGN KEY (id) REFERENCES item (id))", "sales");
        assertThat(sql).containsIgnoringCase("CREATE TABLE sales.line").containsIgnoringCase("REFERENCES sales.orders")
                .containsIgnoringCase("REFERENCES other.cust").containsIgnoringCase("REFERENCES sales.item");
    }

    @Test
    void aQuotedSchemaStaysQuotedAndEachSchemaHasItsOwnTranslation() throws SQLException {
        assertThat(derbySql("SELECT id FROM orders", "\"Sales\"")).isEqualTo("SELECT id FROM \"Sales\".orders");
        assertThat(derbySql("SELECT id FROM orders", "hr")).isEqualToIgnoringCase("SELECT id FROM hr.orders");
        assertThat(derby.translate("SELECT id FROM orders", "hr").sqlFor(Dialect.MARIADB))
                .as("MariaDB's database").isEqualTo("SELECT id FROM hr.orders");
    }

    @Test
    void theCurrentSchemaIsTheSessionsNotEachReplicasConnections() throws SQLException {
        assertThat(derbySql("SELECT CURRENT SCHEMA FROM SYSIBM.SYSDUMMY1", "sales")).startsWith("SELECT 'SALES'")
                .doesNotContainIgnoringCase("CURRENT");
        assertThat(derbySql("SELECT current  sqlid, 'CURRENT SCHEMA' AS c FROM t -- CURRENT SCHEMA", "\"Mixed\""))
                .startsWith("SELECT 'Mixed'").contains("'CURRENT SCHEMA' AS c FROM \"Mixed\".t");
        Translator mysql = new Translator(Dialect.MARIADB, 4);
        assertThat(mysql.translate("SELECT DATABASE(), SCHEMA ( ) FROM dual", "Shop").sqlFor(Dialect.MARIADB))
                .startsWith("SELECT 'Shop'").contains(", 'Shop'").doesNotContain("DATABASE");
        Translator pg = new Translator(Dialect.POSTGRESQL, 4);
        assertThat(pg.translate("SELECT current_schema(), CURRENT_SCHEMA", "Sales").sqlFor(Dialect.POSTGRESQL))
                .startsWith("SELECT 'sales'").contains(", 'sales'").doesNotContainIgnoringCase("current");
    }

    @Test
    void mysqlsDualStaysDual() throws SQLException {
        Translator mysql = new Translator(Dialect.MARIADB, 4);
        assertThat(mysql.translate("SELECT 1 FROM dual", "sales").sqlFor(Dialect.MARIADB)).doesNotContainIgnoringCase("sales");
    }

    @Test
    void statementsThatCannotBeQualifiedAreRefused() {
        assertThatThrownBy(() -> derby.translate("CALL proc(1)", "sales")).isInstanceOf(SQLException.class)
                .hasMessageContaining("SET SCHEMA sales").extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("0A000");
        assertThatThrownBy(() -> derby.translate("DROP INDEX ix", "sales")).isInstanceOf(SQLException.class)
                .hasMessageContaining("DROP INDEX");
    }

    /**
     * The schema a connection of the client's engine starts in (the primary's: APP on Derby) stands for each replica's
     * own default schema, as no qualifier does: a tool that qualifies with what CURRENT SCHEMA answered writes to each
     * replica's default schema, whatever it is called there.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT id FROM app.orders WHERE id = ?|SELECT id FROM orders WHERE id = ?",
        "SELECT id FROM \"APP\".\"orders\", other.cust|SELECT id FROM \"orders\", other.cust",
        "SELECT id FROM \"app\".orders|SELECT id FROM \"app\".orders",
        "INSERT INTO APP.orders (id) SELECT id FROM app.cust|INSERT INTO orders (id) SELECT id FROM cust",
        "CREATE TABLE app.line (id INT PRIMARY KEY, oid INT REFERENCES app.orders(id))"
            + "|CREATE TABLE line (id INTEGER PRIMARY KEY, oid INTEGER REFERENCES orders (id))",
        "ALTER TABLE app.line ADD CONSTRAINT fk FOREIGN KEY (oid) REFERENCES app.orders (id)"
            + "|ALTER TABLE line ADD CONSTRAINT fk FOREIGN KEY (oid) REFERENCES orders(id)",
        "SELECT app.orders.id, o.total FROM app.orders, app.orders o WHERE app.orders.id = ?"
            + "|SELECT orders.id, o.total FROM orders, orders o WHERE orders.id = ?",
        "UPDATE app.orders SET total = app.orders.total + 1 WHERE EXISTS (SELECT 1 FROM other.cust WHERE other.cust.id"
            + " = app.orders.id)|UPDATE orders SET total = orders.total + 1 WHERE EXISTS (SELECT 1 FROM other.cust WHERE"
            + " other.cust.id = orders.id)",
        "DROP TABLE app.orders|DROP TABLE orders",
        "DROP INDEX app.ix|DROP INDEX ix",
        "CREATE INDEX \"APP\".\"ix\" ON \"APP\".\"orders\" (\"total\")|CREATE INDEX \"ix\" ON \"orders\" (\"total\")",
    })
    void theClientEnginesDefaultSchemaIsEachReplicasOwn(String sql, String expected) throws SQLException {
        Translator withDefault = new Translator(Dialect.DERBY, 16).withDefaultSchema("APP");
        assertThat(withDefault.translate(sql, null).sqlFor(Dialect.HSQLDB)).isEqualToIgnoringCase(expected);
        assertThat(withDefault.translate(sql, "sales").sqlFor(Dialect.HSQLDB)).as("a session's schema does not change it")
                .isEqualToIgnoringCase(expected);
        assertThat(withDefault.translate("VALUES CURRENT SCHEMA", null).sqlFor(Dialect.DERBY)).contains("'APP'");
    }

    /**
     * A statement sent as the client wrote it to replicas of its family (one the parser does not read) names each
     * replica's own database where it names the primary's: the qualifier goes, outside literals, comments and a third
     * name part; as the engine compares it (MySQL's database names as written, Derby's folded to upper case).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
        "mariadb|OPTIMIZE TABLE lqb9.t, `lqb9` . `u`, lqb9.`v w`|OPTIMIZE TABLE t, `u`, `v w`",
        "mariadb|SELECT 'lqb9.t', x.lqb9.t, lqb9, \"lqb9\".t, LQB9.t FROM t -- lqb9.t|SELECT 'lqb9.t', x.lqb9.t, lqb9, \"lqb9\".t,"
            + " LQB9.t FROM t -- lqb9.t",
        "mariadb|CHECKSUM TABLE `lqb9`.`t` /* lqb9.t */, lqb9.t2|CHECKSUM TABLE `t` /* lqb9.t */, t2",
        "derby|LOCK TABLE app.t IN EXCLUSIVE MODE|LOCK TABLE t IN EXCLUSIVE MODE",
        "derby|CALL p(\"APP\".t, \"App\".t, `APP`.t)|CALL p(t, \"App\".t, `APP`.t)",
    })
    void aStatementSentAsWrittenNamesEachReplicasDatabase(String client, String sql, String expected) throws SQLException {
        Dialect d = Dialect.forName(client);
        Translator t = new Translator(d, List.of(d), 16).withDefaultSchema(d == Dialect.DERBY ? "APP" : "lqb9");
        assertThat(t.withoutDefaultSchema(sql)).isEqualTo(expected);
        assertThat(new Translator(d, List.of(d), 16).withoutDefaultSchema(sql)).as("no default schema known").isEqualTo(sql);
    }

    /**
     * ALTER TABLE's own clauses go to engines of the client's family as written, the primary's database taken off every
     * name in them as off the table's; with a session schema set they would name the replicas' default schema instead, so
     * they are refused then.
     */
    @Test
    void alterTableAsWrittenNamesEachReplicasDatabase() throws SQLException {
        Translator t = new Translator(Dialect.MARIADB, List.of(Dialect.MARIADB, Dialect.MYSQL), 16).withDefaultSchema("lqb9");
        String sql = "ALTER TABLE lqb9.kid ADD COLUMN mom INT, ADD CONSTRAINT fk_mom FOREIGN KEY (mom) REFERENCES lqb9.parent (id)";
        assertThat(t.translate(sql, null).sqlFor(Dialect.MARIADB))
                .isEqualTo("ALTER TABLE kid ADD COLUMN mom INT, ADD CONSTRAINT fk_mom FOREIGN KEY (mom) REFERENCES parent (id)");
        // in a session of another schema the changes are not taken as written: one statement each, the names as translated
        assertThat(t.translate(sql, "sales").sqlFor(Dialect.MARIADB)).isEqualTo("ALTER TABLE kid ADD COLUMN mom INTEGER"
                + Dialect.THEN + "ALTER TABLE kid ADD CONSTRAINT fk_mom FOREIGN KEY (mom) REFERENCES parent(id)");
        assertThat(new Translator(Dialect.MARIADB, List.of(Dialect.MARIADB, Dialect.DERBY), 16).withDefaultSchema("lqb9")
                .translate(sql, null).sqlFor(Dialect.DERBY)).as("a replica of another engine").isEqualTo("ALTER TABLE kid ADD"
                        + " COLUMN mom INTEGER" + Dialect.THEN + "ALTER TABLE kid ADD CONSTRAINT fk_mom FOREIGN KEY (mom) REFERENCES"
                        + " parent(id)");
    }

    /**
     * MySQL's multi-table DELETE and UPDATE with a session schema: the tables are named in it, the target too, so the
     * rewrite for the engines without them finds the table it writes (an alias or a table's name in the conditions
     * still means that table).
     */
    @Test
    void aMultiTableWriteNamesTheSessionSchemaInEveryTable() throws SQLException {
        Translator mysql = new Translator(Dialect.MARIADB, 4);
        assertThat(mysql.translate("DELETE t FROM t JOIN u ON t.a = u.a WHERE u.b = 1", "shop").sqlFor(Dialect.DERBY))
                .isEqualTo("DELETE FROM shop.t WHERE EXISTS (SELECT 1 FROM shop.u WHERE (t.a = u.a) AND (u.b = 1))");
        assertThat(mysql.translate("UPDATE t JOIN u ON t.a = u.a SET t.b = u.b", "shop").sqlFor(Dialect.DERBY))
                .isEqualTo("UPDATE shop.t SET b = (SELECT u.b FROM shop.u WHERE (t.a = u.a)) WHERE EXISTS (SELECT 1 FROM shop.u"
                        + " WHERE (t.a = u.a))");
        assertThat(mysql.translate("DELETE x FROM t AS x JOIN u ON x.a = u.a", "shop").sqlFor(Dialect.MARIADB))
                .isEqualTo("DELETE x FROM shop.t AS x JOIN shop.u ON x.a = u.a");
    }
}
