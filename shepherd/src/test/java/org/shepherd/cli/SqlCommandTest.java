package org.shepherd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqlCommandTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private static String freshDerbyUrl() {
        return "jdbc:derby:memory:cli" + DATABASES.incrementAndGet() + ";create=true";
    }

    @Test
    void executeRunsEveryStatementAndPrintsAlignedTable() {
        String url = freshDerbyUrl();
        CliRun run = CliRun.of("sql", "--url", url,
                "-e", "create table pets(id int primary key, name varchar(20), weight decimal(5,2))",
                "-e", "insert into pets values (1, 'cat', 4.50), (22, NULL, NULL); select * from pets order by id");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).containsPattern("0 rows affected \\(\\d+\\.\\d{3} s\\)");
        assertThat(run.out()).containsPattern("2 rows affected \\(\\d+\\.\\d{3} s\\)");
        assertThat(run.out()).contains(String.join(System.lineSeparator(),
                "+----+------+--------+",
                "| ID | NAME | WEIGHT |",
                "+----+------+--------+",
                "|  1 | cat  |   4.50 |",
                "| 22 | NULL |   NULL |",
                "+----+------+--------+"));
        assertThat(run.out()).containsPattern("2 rows \\(\\d+\\.\\d{3} s\\)");
    }

    @Test
    void firstErrorStopsTheRunWithExitOneAndSqlState() throws SQLException {
        String url = freshDerbyUrl();
        CliRun run = CliRun.of("sql", "--url", url,
                "-e", "create table a(x int); select * from missing_table; create table b(x int)");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("ERROR 42X05 (30000): ").contains("MISSING_TABLE");
        try (Connection connection = DriverManager.getConnection(url);
             ResultSet tables = connection.getMetaData().getTables(null, null, "B", null)) {
            assertThat(tables.next()).as("statement after the error must not run").isFalse();
        }
    }

    @Test
    void emptyResultPrintsHeaderAndZeroRows() {
        CliRun run = CliRun.of("sql", "--url", freshDerbyUrl(), "-e", "create table e(v varchar(3)); select v from e");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("| V |").containsPattern("0 rows \\(");
    }

    @Test
    void connectionFailureExitsOne() {
        CliRun run = CliRun.of("sql", "--url", "jdbc:derby:memory:does-not-exist-" + DATABASES.incrementAndGet(), "-e", "values 1");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("ERROR XJ004 (").contains("could not connect to jdbc:derby:memory:does-not-exist");
    }

    @Test
    void withoutUrlReadsTheEmbeddedDefaultCredentials(@TempDir Path dir) throws IOException {
        String url = freshDerbyUrl();
        Files.writeString(dir.resolve("credentials.properties"), "url=" + url + "\nuser=app\npassword=secret\n");

        CliRun run = CliRun.of("sql", "--data-dir", dir.toString(), "-e", "values 42");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("| 42 |");
    }

    @Test
    void withoutUrlOrCredentialsFileIsAUsageError(@TempDir Path dir) {
        CliRun run = CliRun.of("sql", "--data-dir", dir.toString(), "-e", "values 1");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("credentials.properties does not exist").contains("bin/shepherd serve").contains("--url");
    }

    @Test
    void passwordInUrlIsNotEchoed() {
        assertThat(SqlCommand.redacted("jdbc:shepherd://h/db?user=u&password=s3cret&x=1"))
                .isEqualTo("jdbc:shepherd://h/db?user=u&password=***&x=1");
    }
}
