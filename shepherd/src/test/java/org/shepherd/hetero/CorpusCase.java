package org.shepherd.hetero;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One case of the benign-divergence corpus ({@code src/test/resources/corpus/*.json}, each file a JSON array):
 * setup statements that must succeed everywhere, then steps, each either voted equal on every engine or rejected
 * up front by the translator. The format is described in docs/benign-divergence.md.
 */
record CorpusCase(String file, String name, String why, List<String> clients, List<String> setup, List<Step> steps) {

    static final List<String> DEFAULT_CLIENTS = List.of("derby", "mysql");
    private static final Pattern CREATED = Pattern.compile("(?is)^\\s*CREATE\\s+(TABLE|VIEW)\\s+(IF\\s+NOT\\s+EXISTS\\s+)?"
            + "([A-Za-z_][A-Za-z0-9_]*)");

    /**
     * One statement of a case.
     *
     * @param rejectedState when not null, the translator must refuse the statement with this SQLState
     * @param errorOutcome when not null, every engine must fail with this outcome ("22", "23", "RETRY" ...)
     * @param rows when not null, the expected canonical rows per client dialect ("*" for every client)
     * @param keyColumn when not null, generated keys are asked for and voted
     * @param clients the client dialects this step runs for (empty: every client of the case)
     * @param knownDivergence when not null, the engines are known to disagree here and this says why and where it must
     *     be fixed; the test fails if they agree (then the mark must go)
     */
    record Step(String sql, List<Object> params, String rejectedState, String errorOutcome, Map<String, List<List<String>>> rows,
            String keyColumn, List<String> clients, String knownDivergence) {

        static Step plain(String sql) {
            return new Step(sql, List.of(), null, null, null, null, List.of(), null);
        }

        boolean runsFor(String client) {
            return clients.isEmpty() || clients.contains(client);
        }
    }

    /** {@code DROP TABLE/VIEW} for what the setup created, last created first. */
    List<String> cleanup() {
        List<String> drops = new ArrayList<>();
        for (String s : setup) {
            Matcher m = CREATED.matcher(s);
            if (m.find()) {
                drops.add(0, "DROP " + m.group(1).toUpperCase(java.util.Locale.ROOT) + " " + m.group(3));
            }
        }
        return drops;
    }

    /** Every case of every corpus file, in file and array order; names are unique. */
    static List<CorpusCase> loadAll() {
        URL dir = CorpusCase.class.getResource("/corpus");
        if (dir == null) {
            throw new IllegalStateException("no corpus/ on the test class path");
        }
        List<CorpusCase> all = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                JsonNode root = new ObjectMapper().readTree(f.toFile());
                for (JsonNode c : root) {
                    CorpusCase parsed = parse(f.getFileName().toString(), c);
                    if (!names.add(parsed.name())) {
                        throw new IllegalStateException("corpus case name used twice: " + parsed.name());
                    }
                    all.add(parsed);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return all;
    }

    private static CorpusCase parse(String file, JsonNode c) {
        String name = required(c, "name", file).asText();
        List<String> clients = c.has("clients") ? strings(c.get("clients")) : DEFAULT_CLIENTS;
        List<String> setup = c.has("setup") ? strings(c.get("setup")) : List.of();
        List<Step> steps = new ArrayList<>();
        for (JsonNode s : required(c, "steps", name)) {
            Map<String, List<List<String>>> rows = null;
            if (s.has("rows")) {
                rows = new TreeMap<>();
                JsonNode r = s.get("rows");
                if (r.isArray()) {
                    rows.put("*", rowList(r));
                } else {
                    for (Iterator<Map.Entry<String, JsonNode>> it = r.fields(); it.hasNext();) {
                        Map.Entry<String, JsonNode> e = it.next();
                        rows.put(e.getKey(), rowList(e.getValue()));
                    }
                }
            }
            List<Object> params = new ArrayList<>();
            if (s.has("params")) {
                for (JsonNode p : s.get("params")) {
                    params.add(param(p, name));
                }
            }
            steps.add(new Step(required(s, "sql", name).asText(), params, text(s, "rejected"), text(s, "error"), rows,
                    text(s, "generatedKeys"), s.has("clients") ? strings(s.get("clients")) : List.of(), text(s, "knownDivergence")));
        }
        if (steps.isEmpty()) {
            throw new IllegalStateException("corpus case " + name + " has no steps");
        }
        return new CorpusCase(file, name, c.path("why").asText(""), clients, setup, steps);
    }

    private static Object param(JsonNode p, String caseName) {
        if (p.isIntegralNumber()) {
            return p.asLong();
        }
        if (p.isNumber()) {
            return new BigDecimal(p.asText());
        }
        if (p.isTextual()) {
            return p.asText();
        }
        if (p.isBoolean()) {
            return p.asBoolean();
        }
        if (p.isObject() && p.size() == 1 && p.path("double").isNumber()) {
            return p.get("double").asDouble();
        }
        throw new IllegalStateException(caseName + ": parameters are numbers, strings, booleans or {\"double\": n}, not " + p);
    }

    /** Rows as canonical value texts: JSON null is SQL NULL, anything else is compared as its text. */
    private static List<List<String>> rowList(JsonNode rows) {
        List<List<String>> out = new ArrayList<>();
        for (JsonNode row : rows) {
            List<String> r = new ArrayList<>();
            for (JsonNode v : row) {
                r.add(v.isNull() ? null : v.asText());
            }
            out.add(r);
        }
        return out;
    }

    private static JsonNode required(JsonNode n, String field, String where) {
        if (!n.has(field)) {
            throw new IllegalStateException(where + ": missing \"" + field + "\"");
        }
        return n.get(field);
    }

    private static String text(JsonNode n, String field) {
        return n.has(field) && !n.get(field).isNull() ? n.get(field).asText() : null;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }
}
