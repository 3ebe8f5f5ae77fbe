package org.shepherd.translator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.util.TablesNamesFinder;
import org.junit.jupiter.api.Test;
import org.shepherd.translator.dialect.Dialect;

/**
 * Every statement of the golden corpus ({@code cases/*.json}) that translates without a session schema, translated
 * with one: either it is refused (0A000), or every table its client-dialect rendering names is qualified (the
 * schema, or the one the statement wrote), so that no table of any statement shape reaches a replica unqualified.
 */
class SchemaQualifierCorpusTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> CATALOG_SCHEMAS = Set.of("INFORMATION_SCHEMA", "SYS", "SYSCAT", "SYSIBM");

    @Test
    void noTableOfTheCorpusStaysUnqualified() throws Exception {
        List<String> unqualified = new ArrayList<>();
        int qualified = 0;
        int refused = 0;
        int unparsed = 0;
        try (Stream<Path> files = Files.list(Path.of(getClass().getResource("/cases").toURI()))) {
            for (Path file : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                JsonNode cases;
                try (InputStream in = Files.newInputStream(file)) {
                    cases = JSON.readTree(in);
                }
                for (JsonNode c : cases) {
                    Dialect client = Dialect.forName(c.path("client").asText("derby"));
                    String sql = c.path("sql").asText();
                    Translator plain = new Translator(client, 4);
                    Translator withSchema = new Translator(client, 4);
                    for (JsonNode ddl : c.path("schema")) {
                        plain.translate(ddl.asText());
                        withSchema.translate(ddl.asText(), "qs");
                    }
                    Translation t;
                    try {
                        t = plain.translate(sql);
                        t.sqlFor(client);
                    } catch (SQLException | RuntimeException e) {
                        continue; // refused without a schema too
                    }
                    if (t.kind() == StatementKind.TRANSACTION || t.kind() == StatementKind.SESSION) continue;
                    String rendered;
                    try {
                        rendered = withSchema.translate(sql, "qs").sqlFor(client);
                    } catch (SQLException e) {
                        assertThat(e.getSQLState()).as(file.getFileName() + ": " + sql).isEqualTo("0A000");
                        refused++;
                        continue;
                    }
                    Statement st;
                    try {
                        st = CCJSqlParserUtil.parse(rendered);
                    } catch (net.sf.jsqlparser.JSQLParserException e) {
                        unparsed++; // rendered for an engine whose spelling the default parser does not read
                        continue;
                    }
                    for (String table : tablesOf(st)) {
                        String upper = table.replace("\"", "").replace("`", "").toUpperCase(Locale.ROOT);
                        int dot = upper.lastIndexOf('.');
                        boolean ok = dot > 0 || upper.equals("DUAL");
                        if (!ok) unqualified.add(file.getFileName() + ": " + sql + " -> " + rendered + " (" + table + ")");
                        if (dot > 0 && !upper.startsWith("QS.") && !CATALOG_SCHEMAS.contains(upper.substring(0, dot))) {
                            assertThat(sql.toUpperCase(Locale.ROOT)).as("a schema the statement wrote itself: " + rendered)
                                    .contains(upper.substring(0, dot));
                        }
                    }
                    qualified++;
                }
            }
        }
        System.out.printf("schema corpus: %d qualified, %d refused, %d not read back%n", qualified, refused, unparsed);
        assertThat(unqualified).isEmpty();
        assertThat(qualified).as("statements checked").isGreaterThan(100);
        assertThat(refused).as("refused with a schema set").isLessThan(qualified);
    }

    /** The tables a statement names: its DDL's target and foreign keys by hand, the rest by JSqlParser's finder. */
    private static Set<String> tablesOf(Statement st) {
        Set<String> out = new java.util.TreeSet<>();
        if (st instanceof net.sf.jsqlparser.statement.create.index.CreateIndex ci) {
            out.add(ci.getTable().getFullyQualifiedName());
        } else if (st instanceof net.sf.jsqlparser.statement.create.table.CreateTable ct) {
            out.add(ct.getTable().getFullyQualifiedName());
            if (ct.getIndexes() != null) {
                for (var index : ct.getIndexes()) {
                    if (index instanceof net.sf.jsqlparser.statement.create.table.ForeignKeyIndex fk) {
                        out.add(fk.getTable().getFullyQualifiedName());
                    }
                }
            }
        } else if (st instanceof net.sf.jsqlparser.statement.drop.Drop drop && !"INDEX".equalsIgnoreCase(drop.getType())) {
            out.add(drop.getName().getFullyQualifiedName());
        } else if (st instanceof net.sf.jsqlparser.statement.alter.Alter alter) {
            out.add(alter.getTable().getFullyQualifiedName());
        } else if (st instanceof net.sf.jsqlparser.statement.alter.RenameTableStatement rename) {
            // Derby's and Db2's RENAME TABLE: the new name is unqualified there, it stays in the table's schema
            rename.getTableNames().forEach(names -> out.add(names.getKey().getFullyQualifiedName()));
        } else if (!(st instanceof net.sf.jsqlparser.statement.drop.Drop)) {
            out.addAll(new TablesNamesFinder<Void>().getTables(st));
        }
        return out;
    }
}
