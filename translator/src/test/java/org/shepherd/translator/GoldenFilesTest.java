package org.shepherd.translator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.shepherd.translator.dialect.Dialect;

/**
 * Runs every case of {@code src/test/resources/cases/*.json}. A file is a JSON array of cases:
 * {@code {"name", "schema"?: [DDL translated first, so the translator knows the column types], "sql", "client"?: dialect
 * (default derby), "kind"?, "orderKeyColumns"?, "pinned"?: [kinds], "expected": {dialect: sql | {"error": sqlState}}}}
 * or {@code {"name", "sql", "error": {"sqlState"}}}.
 * A mismatch prints the case, the dialect and both texts, plus the actual values as JSON to paste after review.
 * {@code -Dgolden.only=text} runs only the cases whose name or SQL contains the text; {@code _debug.json} is a
 * scratch file for one case under investigation.
 */
class GoldenFilesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> goldenCases() throws IOException, URISyntaxException {
        URL dir = getClass().getResource("/cases");
        assertThat(dir).as("cases directory on the test classpath").isNotNull();
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
            for (Path file : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                JsonNode cases;
                try (InputStream in = Files.newInputStream(file)) {
                    cases = JSON.readTree(in);
                }
                assertThat(cases.isArray()).as(file + " holds a JSON array of cases").isTrue();
                String only = System.getProperty("golden.only", "");
                for (JsonNode c : cases) {
                    if (!c.path("name").asText().contains(only) && !c.path("sql").asText().contains(only)) {
                        continue;
                    }
                    tests.add(DynamicTest.dynamicTest(file.getFileName() + ": " + c.path("name").asText(), () -> run(c)));
                }
            }
        }
        assertThat(tests).as("golden cases (golden.only filter: '%s')", System.getProperty("golden.only", "")).isNotEmpty();
        return tests.stream();
    }

    /** The time a column added with a clock DEFAULT gives the rows already there, in every case. */
    private static final java.time.LocalDateTime DDL_TIME = java.time.LocalDateTime.of(2026, 11, 27, 17, 30, 5, 123_456_789);

    private static void run(JsonNode c) throws SQLException {
        Dialect client = Dialect.forName(c.path("client").asText("derby"));
        Translator translator = new Translator(client, 16).withDdlClock(() -> DDL_TIME);
        for (JsonNode ddl : c.path("schema")) {
            translator.translate(ddl.asText());
        }
        String sql = c.path("sql").asText();
        List<String> problems = new ArrayList<>();
        ObjectNode actual = JSON.createObjectNode();
        Translation t;
        try {
            t = translator.translate(sql);
        } catch (SQLException e) {
            String wanted = c.path("error").path("sqlState").asText(null);
            if (wanted == null || !wanted.equals(e.getSQLState())) {
                throw new AssertionError("case '" + c.path("name").asText() + "': translate(" + sql + ") failed with "
                        + e.getSQLState() + ": " + e.getMessage() + (wanted == null ? "" : " (expected SQLState " + wanted + ")"), e);
            }
            return;
        }
        if (c.has("error")) {
            throw new AssertionError("case '" + c.path("name").asText() + "': expected SQLState "
                    + c.path("error").path("sqlState").asText() + " but translate succeeded: " + t.sqlFor(client));
        }
        if (c.has("kind") && !c.path("kind").asText().equals(t.kind().name())) {
            problems.add("kind: expected " + c.path("kind").asText() + ", actual " + t.kind());
        }
        if (c.has("orderKeyColumns")) {
            String expected = c.path("orderKeyColumns").toString();
            String got = t.orderKeyColumns() == null ? "null" : JSON.valueToTree(t.orderKeyColumns()).toString();
            if (!expected.equals(got)) {
                problems.add("orderKeyColumns: expected " + expected + ", actual " + got);
            }
        }
        if (c.has("pinned")) {
            List<String> kinds = t.nondeterministic().stream().map(p -> p.kind().name()).toList();
            if (!c.path("pinned").toString().equals(JSON.valueToTree(kinds).toString())) {
                problems.add("pinned: expected " + c.path("pinned") + ", actual " + kinds);
            }
        }
        JsonNode expected = c.path("expected");
        for (Dialect d : Dialect.ALL) {
            String got;
            try {
                got = t.sqlFor(d);
                actual.put(d.name(), got);
            } catch (SQLException e) {
                got = "error " + e.getSQLState() + ": " + e.getMessage();
                actual.putObject(d.name()).put("error", e.getSQLState());
            }
            JsonNode want = expected.path(d.name());
            if (want.isMissingNode()) {
                problems.add(d.name() + ": no expected value; actual: " + got);
            } else if (want.isObject()) {
                if (!got.startsWith("error " + want.path("error").asText() + ":")) {
                    problems.add(d.name() + ":\n    expected error " + want.path("error").asText() + "\n    actual   " + got);
                }
            } else if (!want.asText().equals(got)) {
                problems.add(d.name() + ":\n    expected " + want.asText() + "\n    actual   " + got);
            }
        }
        if (!problems.isEmpty()) {
            StringBuilder msg = new StringBuilder("case '").append(c.path("name").asText()).append("' (").append(sql).append(")\n");
            for (String p : problems) {
                msg.append("  ").append(p).append('\n');
            }
            msg.append("  actual as JSON: ").append(actual);
            throw new AssertionError(msg.toString());
        }
        Iterator<String> names = expected.fieldNames();
        while (names.hasNext()) {
            Dialect.forName(names.next());
        }
    }
}
