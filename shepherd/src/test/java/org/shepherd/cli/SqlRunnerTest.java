package org.shepherd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class SqlRunnerTest {

    @Test
    void printsEveryCommonTypeWithNullsAndFixedTime() throws SQLException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try (Connection connection = DriverManager.getConnection("jdbc:derby:memory:runner;create=true")) {
            SqlRunner runner = new SqlRunner(connection, new PrintWriter(out), new PrintWriter(err), () -> 5_000_000L);
            assertThat(runner.run("create table t(i int, b bigint, d double, s varchar(10), dt date, ts timestamp, "
                    + "bo boolean, bin varchar(2) for bit data)")).isTrue();
            assertThat(runner.run("insert into t values (-7, 9000000000, 1.5, 'x y', '2024-02-29', "
                    + "'2024-02-29 23:59:58.123', true, x'0aff')")).isTrue();
            assertThat(runner.run("insert into t values (null, null, null, null, null, null, null, null)")).isTrue();
            out.getBuffer().setLength(0);
            assertThat(runner.run("select * from t order by i")).isTrue();
        }
        String nl = System.lineSeparator();
        assertThat(out.toString()).isEqualTo(String.join(nl,
                "+------+------------+------+------+------------+-------------------------+------+--------+",
                "| I    | B          | D    | S    | DT         | TS                      | BO   | BIN    |",
                "+------+------------+------+------+------------+-------------------------+------+--------+",
                "|   -7 | 9000000000 |  1.5 | x y  | 2024-02-29 | 2024-02-29 23:59:58.123 | true | 0x0AFF |",
                "| NULL |       NULL | NULL | NULL | NULL       | NULL                    | NULL | NULL   |",
                "+------+------------+------+------+------------+-------------------------+------+--------+",
                "2 rows (0.000 s)") + nl);
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void showTablesAndDescribeAnswerFromTheMetadata() throws SQLException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try (Connection connection = DriverManager.getConnection("jdbc:derby:memory:runnermeta;create=true")) {
            SqlRunner runner = new SqlRunner(connection, new PrintWriter(out), new PrintWriter(err), () -> 0L);
            assertThat(runner.run("show tables")).isTrue();
            assertThat(runner.run("create table acct(id int primary key, name varchar(20) not null, bal decimal(12,2) default 0)"))
                    .isTrue();
            assertThat(runner.run("create table \"Mixed\"(\"Id\" int)")).isTrue();
            out.getBuffer().setLength(0);
            assertThat(runner.run("SHOW TABLES;")).isTrue();
            assertThat(runner.run("describe acct")).isTrue();
            assertThat(runner.run("desc \"Mixed\"")).isTrue();
            assertThat(runner.run("desc nothing")).isFalse();
        }
        String nl = System.lineSeparator();
        assertThat(out.toString()).isEqualTo(String.join(nl,
                "+--------+-------+-------+",
                "| schema | table | type  |",
                "+--------+-------+-------+",
                "| APP    | ACCT  | TABLE |",
                "| APP    | Mixed | TABLE |",
                "+--------+-------+-------+",
                "2 tables (0.000 s)",
                "+--------+---------------+----------+---------+-----------------+",
                "| column | type          | nullable | default | key             |",
                "+--------+---------------+----------+---------+-----------------+",
                "| ID     | INTEGER       | NO       | NULL    | PRIMARY KEY (1) |",
                "| NAME   | VARCHAR(20)   | NO       | NULL    |                 |",
                "| BAL    | DECIMAL(12,2) | YES      | 0       |                 |",
                "+--------+---------------+----------+---------+-----------------+",
                "3 columns (0.000 s)",
                "+--------+---------+----------+---------+-----+",
                "| column | type    | nullable | default | key |",
                "+--------+---------+----------+---------+-----+",
                "| Id     | INTEGER | YES      | NULL    |     |",
                "+--------+---------+----------+---------+-----+",
                "1 column (0.000 s)") + nl);
        assertThat(err.toString()).startsWith("ERROR 42S02 (0): no table or view NOTHING");
    }

    @Test
    void errorIsPrintedWithSqlStateAndVendorCode() throws SQLException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try (Connection connection = DriverManager.getConnection("jdbc:derby:memory:runnererr;create=true")) {
            SqlRunner runner = new SqlRunner(connection, new PrintWriter(out), new PrintWriter(err), () -> 0L);
            assertThat(runner.run("selec 1")).isFalse();
        }
        assertThat(err.toString()).startsWith("ERROR 42X01 (30000): Syntax error");
    }

    @Test
    void commitAndRollbackEndTheTransactionThroughJdbc() throws SQLException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try (Connection connection = DriverManager.getConnection("jdbc:derby:memory:runnertx;create=true")) {
            SqlRunner runner = new SqlRunner(connection, new PrintWriter(out), new PrintWriter(err), () -> 0L);
            assertThat(runner.run("create table t(i int)")).isTrue();
            connection.setAutoCommit(false);
            assertThat(runner.run("insert into t values (1)")).isTrue();
            assertThat(runner.run("rollback")).isTrue();
            assertThat(runner.run("insert into t values (2)")).isTrue();
            assertThat(runner.run("COMMIT WORK;")).isTrue();
            assertThat(runner.run("insert into t values (3)")).isTrue();
            assertThat(runner.run("Rollback")).isTrue();
            out.getBuffer().setLength(0);
            assertThat(runner.run("select i from t")).isTrue();
            connection.rollback();
            connection.setAutoCommit(true);
            assertThat(runner.run("begin")).isTrue();
            assertThat(connection.getAutoCommit()).isFalse();
            assertThat(runner.run("insert into t values (4)")).isTrue();
            assertThat(runner.run("rollback work")).isTrue();
            assertThat(connection.getAutoCommit()).as("back in autocommit after the transaction BEGIN opened").isTrue();
            assertThat(runner.run("START TRANSACTION;")).isTrue();
            assertThat(runner.run("insert into t values (5)")).isTrue();
            assertThat(runner.run("commit")).isTrue();
            assertThat(connection.getAutoCommit()).isTrue();
            // a BEGIN-opened transaction that autocommit ended, then a transaction of manual mode: COMMIT keeps manual
            assertThat(runner.run("begin")).isTrue();
            connection.setAutoCommit(true); // what SET AUTOCOMMIT TRUE does through the Shepherd driver
            assertThat(runner.run("create table u(j int)")).isTrue();
            connection.setAutoCommit(false);
            assertThat(runner.run("insert into t values (6)")).isTrue();
            assertThat(runner.run("commit")).isTrue();
            assertThat(connection.getAutoCommit()).as("manual mode stays").isFalse();
            connection.setAutoCommit(true);
        }
        assertThat(out.toString()).contains("| 2 |").doesNotContain("| 1 |").doesNotContain("| 3 |")
                .contains("1 row (").contains("transaction started");
        assertThat(err.toString()).isEmpty();
    }
}
