package org.shepherd.translator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.shepherd.translator.dialect.Dialect;

/**
 * What tools such as Flyway send beside their users' SQL, and how the translator answers or writes it: table locks,
 * MySQL's named locks and kept session variables, VERSION(), a LIMIT where any rows will do, unnamed constraints.
 */
class ToolStatementsTest {

    @Test
    void tableLocksInEachEnginesSpelling() throws SQLException {
        TableLock hsqldb = TableLock.of("LOCK TABLE \"PUBLIC\".\"flyway_schema_history\" WRITE", Dialect.HSQLDB);
        assertThat(hsqldb).isEqualTo(new TableLock("PUBLIC", "flyway_schema_history", true));
        assertThat(hsqldb.render(Dialect.DERBY, null, "PUBLIC")).as("the default schema is each replica's own")
                .isEqualTo("LOCK TABLE \"flyway_schema_history\" IN EXCLUSIVE MODE");
        assertThat(hsqldb.render(Dialect.HSQLDB, null, "APP")).isEqualTo("LOCK TABLE \"PUBLIC\".\"flyway_schema_history\" WRITE");
        TableLock derby = TableLock.of("lock table orders in share mode", Dialect.DERBY);
        assertThat(derby).isEqualTo(new TableLock(null, "ORDERS", false));
        assertThat(derby.render(Dialect.HSQLDB, "SALES", "APP")).isEqualTo("LOCK TABLE \"SALES\".\"ORDERS\" READ");
        assertThat(derby.render(Dialect.POSTGRESQL, null, "APP")).isEqualTo("LOCK TABLE \"ORDERS\" IN SHARE MODE");
        assertThatThrownBy(() -> derby.render(Dialect.MARIADB, null, "APP")).isInstanceOf(SQLException.class)
                .hasFieldOrPropertyWithValue("SQLState", "0A000");
        assertThat(TableLock.of("LOCK TABLES t WRITE", Dialect.MYSQL)).as("MySQL's lasts past the transaction").isNull();
        assertThat(TableLock.of("LOCK TABLE t WRITE", Dialect.DERBY)).as("not Derby's spelling").isNull();
        assertThat(TableLock.of("SELECT 1", Dialect.DERBY)).isNull();
        assertThatThrownBy(() -> TableLock.of("LOCK TABLE a, b IN EXCLUSIVE MODE", Dialect.DERBY))
                .isInstanceOf(SQLException.class).hasMessageContaining("one table");
    }

    @Test
    void namedLockCallsWithLiteralsOrParameters() throws SQLException {
        assertThat(NamedLockCall.of("SELECT GET_LOCK(?, 10)", Dialect.MARIADB, List.of("Flyway-1")))
                .isEqualTo(new NamedLockCall("GET_LOCK", "Flyway-1", 10, "GET_LOCK(?, 10)"));
        assertThat(NamedLockCall.of("select release_lock('a,b') as r", Dialect.MYSQL, List.of()))
                .isEqualTo(new NamedLockCall("RELEASE_LOCK", "a,b", 0, "r"));
        assertThat(NamedLockCall.of("SELECT RELEASE_ALL_LOCKS()", Dialect.MYSQL, List.of()).function()).isEqualTo("RELEASE_ALL_LOCKS");
        assertThat(NamedLockCall.of("SELECT GET_LOCK('x', 1)", Dialect.DERBY, List.of())).isNull();
        assertThat(NamedLockCall.of("SELECT GET_LOCK('x', 1), 2", Dialect.MYSQL, List.of())).as("not alone").isNull();
        assertThatThrownBy(() -> NamedLockCall.of("SELECT GET_LOCK(name, 1)", Dialect.MYSQL, List.of()))
                .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "0A000");
        assertThatThrownBy(() -> NamedLockCall.of("SELECT GET_LOCK('x')", Dialect.MYSQL, List.of()))
                .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "42000");
    }

    @Test
    void keptSessionVariablesAreReadAndSetToTheirValue() {
        assertThat(SessionSetting.of("SET foreign_key_checks=1, sql_safe_updates=0").kind())
                .isEqualTo(SessionSetting.Kind.ALREADY_SO);
        assertThat(SessionSetting.of("SET SESSION foreign_key_checks = ON").kind()).isEqualTo(SessionSetting.Kind.ALREADY_SO);
        assertThat(SessionSetting.of("SET foreign_key_checks=0").kind()).isEqualTo(SessionSetting.Kind.KEPT_VARIABLE);
        assertThat(SessionSetting.of("SET foreign_key_checks=1, wait_timeout=5").kind()).as("another variable")
                .isEqualTo(SessionSetting.Kind.OTHER);
        assertThat(SessionSetting.withValues("SET foreign_key_checks=?, sql_safe_updates=?", List.of(1, false)))
                .isEqualTo("SET foreign_key_checks=1, sql_safe_updates=false");
        assertThat(SessionSetting.withValues("SELECT ?", List.of(1))).as("only SET").isEqualTo("SELECT ?");
        assertThat(SessionSetting.keptVariablesAsValues("SELECT @@foreign_key_checks, @@SESSION.sql_safe_updates, '@@x'", true))
                .isEqualTo("SELECT 1, 0, '@@x'");
        assertThat(SessionSetting.keptVariablesAsValues("SELECT @@GLOBAL.foreign_key_checks", true)).as("the server's")
                .isEqualTo("SELECT @@GLOBAL.foreign_key_checks");
    }

    @Test
    void versionLimitsAndConstraintsToolsWrite() throws SQLException {
        Translator mariadb = new Translator(Dialect.MARIADB, 16).withServerVersion("11.4.5-MariaDB");
        assertThat(mariadb.translate("SELECT VERSION()").sqlFor(Dialect.MARIADB)).contains("'11.4.5-MariaDB'");
        assertThat(mariadb.translate("SELECT @@foreign_key_checks").sqlFor(Dialect.MARIADB)).doesNotContain("@");
        assertThat(mariadb.translate("SELECT COUNT(1) FROM information_schema.schemata WHERE schema_name = ? LIMIT 1")
                .sqlFor(Dialect.MARIADB)).as("one row: any order").contains("LIMIT 1");
        assertThat(mariadb.translate("SELECT 1 AS found FROM t WHERE a = ? LIMIT 1").sqlFor(Dialect.MARIADB))
                .as("rows all alike").contains("LIMIT 1");
        assertThatThrownBy(() -> mariadb.translate("SELECT a FROM t LIMIT 1")).isInstanceOf(SQLException.class)
                .hasMessageContaining("ORDER BY");
        assertThat(mariadb.translate("CREATE TABLE h (id INT NOT NULL, CONSTRAINT PRIMARY KEY (id))").sqlFor(Dialect.DERBY))
                .contains("PRIMARY KEY");
        assertThat(mariadb.translate("SELECT SUBSTRING_INDEX(name, '@', 1) FROM t").sqlFor(Dialect.DERBY))
                .as("what comes before the first '@', where the engine has no SUBSTRING_INDEX")
                .contains("CASE WHEN LOCATE('@', name) > 0 THEN SUBSTR(name, 1, LOCATE('@', name) - 1) ELSE name END");
        assertThatThrownBy(() -> mariadb.translate("SELECT SUBSTRING_INDEX(name, '@', 2) FROM t").sqlFor(Dialect.DERBY))
                .isInstanceOf(SQLException.class).hasMessageContaining("SUBSTRING_INDEX");
    }
}
