package org.shepherd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableFormatterTest {

    @Test
    void controlCharactersAreEscapedSoColumnsStayAligned() {
        TableFormatter table = new TableFormatter(List.of("K", "V"), new boolean[] {true, false});
        List<String[]> rows = List.<String[]>of(new String[] {"1", "a\nb"}, new String[] {"10", "tab\there"});
        table.fit(rows);
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        table.printHeader(out);
        table.printRows(out, rows);
        table.printRule(out);
        out.flush();

        String nl = System.lineSeparator();
        assertThat(text.toString()).isEqualTo(String.join(nl,
                "+----+-----------+",
                "| K  | V         |",
                "+----+-----------+",
                "|  1 | a\\nb      |",
                "| 10 | tab\\there |",
                "+----+-----------+") + nl);
    }

    @Test
    void rowsWiderThanTheSampleStillPrintWhole() {
        TableFormatter table = new TableFormatter(List.of("V"), new boolean[] {false});
        table.fit(List.<String[]>of(new String[] {"ab"}));
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        table.printRows(out, List.<String[]>of(new String[] {"abcdef"}));
        out.flush();

        assertThat(text.toString()).isEqualTo("| abcdef |" + System.lineSeparator());
    }
}
