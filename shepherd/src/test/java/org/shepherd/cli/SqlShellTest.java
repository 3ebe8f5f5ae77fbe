package org.shepherd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqlShellTest {

    @Test
    void multiLineStatementsErrorsAndHistory(@TempDir Path dir) throws Exception {
        String input = String.join("\n",
                "create table notes(id int,",
                "  body varchar(40));",
                "insert into notes values (1, 'semi;colon'); insert into notes values (2, 'x != y');",
                "select nonsense from notes;",
                "help",
                "select * from notes",
                "order by id;",
                "quit",
                "select 'never run' from notes;",
                "");
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        Path history = dir.resolve("history");
        try (Connection connection = DriverManager.getConnection("jdbc:derby:memory:shell;create=true");
             Terminal terminal = new DumbTerminal(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), output)) {
            new SqlShell(terminal, connection, history).run();
        }
        String text = output.toString(StandardCharsets.UTF_8);

        assertThat(text).contains("Connected to Apache Derby");
        assertThat(text).contains("ERROR 42X04 (30000): ");
        assertThat(text).contains("quit, exit, \\q, Ctrl-D");
        assertThat(text).contains("| ID | BODY       |", "|  1 | semi;colon |", "|  2 | x != y     |");
        assertThat(text).containsPattern("2 rows \\(\\d+\\.\\d{3} s\\)");
        assertThat(text).doesNotContain("never run");
        assertThat(Files.readString(history)).contains("order by id;").contains("create table notes");
    }
}
