package org.shepherd.translator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.alter.Alter;
import net.sf.jsqlparser.statement.alter.AlterExpression;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.table.ForeignKeyIndex;
import net.sf.jsqlparser.statement.create.table.Index;
import net.sf.jsqlparser.statement.create.view.CreateView;
import net.sf.jsqlparser.statement.drop.Drop;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.statement.truncate.Truncate;
import net.sf.jsqlparser.util.TablesNamesFinder;
import net.sf.jsqlparser.util.deparser.ExpressionDeParser;
import net.sf.jsqlparser.util.deparser.SelectDeParser;
import net.sf.jsqlparser.util.deparser.StatementDeParser;
import org.shepherd.translator.dialect.Dialect;

/**
 * Names a session's schema ({@code SET SCHEMA}, {@code USE}, {@code Connection.setSchema}) in a statement: every table,
 * view and foreign-key target the statement does not qualify gets it, as the engine would resolve it, so that what
 * reaches every replica (and the write-ahead log) says where it goes, whichever pooled connection runs it. Names a WITH
 * clause defines, columns' table qualifiers and aliases are left as written.
 */
final class SchemaQualifier {

    private SchemaQualifier() {
    }

    /**
     * Qualifies {@code st} (of kind {@code kind}) in place with {@code schema}, an SQL identifier (plain or in double
     * quotes). Statements of another kind (CALL, EXPLAIN, ...) are refused: what they name is not known here.
     */
    static void qualify(Statement st, StatementKind kind, String schema) {
        Naming giving = new Naming(schema, null, null);
        switch (kind) {
            case READ:
            case WRITE:
                tables(st, giving);
                return;
            case DDL:
                ddl(st, giving);
                return;
            default:
                throw TranslationException.unsupported("with a session schema set (SET SCHEMA " + schema + "), this kind of"
                        + " statement (CALL, EXPLAIN, LOCK TABLE, ...) cannot be sent: the shepherd cannot name the schema in"
                        + " it; SET SCHEMA DEFAULT first and name the schema in the statement");
        }
    }

    /**
     * Takes the schema qualifier off every table of {@code st} (of kind {@code kind}) that names {@code defaultSchema}, the
     * schema a connection of the client's engine starts in (as it stores the name): that name stands for each replica's
     * own default schema, as an unqualified name does (a tool that qualifies with what {@code CURRENT SCHEMA} or
     * {@code DATABASE()} answered). Statements of other kinds, and names it cannot reach, are left as they are.
     */
    static void withoutDefaultSchema(Statement st, StatementKind kind, String defaultSchema, Dialect client) {
        Naming taking = new Naming(null, defaultSchema, client);
        try {
            if (kind == StatementKind.READ || kind == StatementKind.WRITE) {
                tables(st, taking);
                qualifiedColumns(st, taking);
            } else if (kind == StatementKind.DDL) {
                ddl(st, taking);
            }
        } catch (TranslationException e) {
            // a statement whose tables cannot all be found keeps its qualifiers: it names them as written
        }
    }

    /**
     * What is done to each name: the session's schema given to a table without one ({@code schema}), or the default
     * schema's name taken off a table that names it ({@code defaultSchema}).
     */
    private record Naming(String schema, String defaultSchema, Dialect client) {

        void table(Table t) {
            if (schema != null) {
                qualify(t, schema);
            } else if (t != null && t.getSchemaName() != null && (t.getDatabase() == null
                    || t.getDatabase().getDatabaseName() == null || t.getDatabase().getDatabaseName().isEmpty())
                    && names(t.getSchemaName())) {
                t.setSchemaName(null);
            }
        }

        boolean names(String written) {
            List<String> parts = SessionSetting.storedParts(written.strip(), client);
            return parts != null && parts.size() == 1 && parts.get(0).equals(defaultSchema);
        }

        /** An index named in the default schema ({@code CREATE INDEX "PUBLIC"."ix" ON ...}): named without it. */
        void index(Index index) {
            if (schema != null || index == null || index.getNameParts() == null) return;
            List<String> parts = index.getNameParts();
            if (parts.size() == 2 && names(parts.get(0))) index.setName(List.of(parts.get(1)));
        }

        /** A {@code REFERENCES} target ({@code [schema.]table[(columns)]}) as this naming writes it. */
        String reference(String target) {
            int paren = target.indexOf('(');
            String name = paren < 0 ? target : target.substring(0, paren);
            if (name.isEmpty()) return target;
            if (schema != null) return name.indexOf('.') < 0 ? schema + "." + target : target;
            List<String> parts = SessionSetting.storedParts(name, client);
            if (parts == null || parts.size() != 2 || !parts.get(0).equals(defaultSchema)) return target;
            return name.substring(name.indexOf('.') + 1) + (paren < 0 ? "" : target.substring(paren));
        }

        void fkSource(AlterExpression change) {
            if (schema != null) {
                if (change.getFkSourceTable() != null && change.getFkSourceSchema() == null
                        && change.getFkSourceTable().indexOf('.') < 0) {
                    change.setFkSourceSchema(schema);
                }
            } else if (change.getFkSourceSchema() != null && names(change.getFkSourceSchema())) {
                change.setFkSourceSchema(null);
            }
        }

        /** A statement whose names this naming cannot reach: refused when giving the session's schema. */
        void cannot(String what) {
            if (schema != null) throw TranslationException.unsupported("with a session schema set (SET SCHEMA " + schema + "), " + what);
            throw TranslationException.unsupported(what);
        }
    }

    /** Every table a query or change reads or writes, subqueries and joins included, but not the names of WITH. */
    private static void tables(Statement st, Naming naming) {
        List<Table> seen = new ArrayList<>();
        Finder finder = new Finder(seen);
        Set<String> real;
        try {
            real = finder.getTables(st);
        } catch (UnsupportedOperationException e) {
            naming.cannot("the shepherd cannot name the schema in this statement (" + e.getMessage() + "); qualify its"
                    + " tables");
            return;
        }
        for (Table t : seen) {
            if (real.contains(finder.name(t))) naming.table(t);
        }
        // a table that a (non-recursive) WITH name shadows: inside that WITH item's own query the name can only be the
        // table's, which the finder took for the WITH name
        List<WithItem<?>> withItems = st instanceof Select select ? select.getWithItemsList() : null;
        if (withItems == null) return;
        for (WithItem<?> w : withItems) {
            if (w.isRecursive() || w.getSelect() == null || w.getAliasName() == null) continue;
            List<Table> inside = new ArrayList<>();
            new Finder(inside).getTables((Statement) w.getSelect());
            String name = SchemaCatalog.unquoted(w.getAliasName());
            for (Table t : inside) {
                if (t.getSchemaName() == null && t.getName() != null && SchemaCatalog.unquoted(t.getName()).equalsIgnoreCase(name)) {
                    naming.table(t);
                }
            }
        }
    }

    /**
     * Columns written with their table's schema ({@code APP.t.c}): the default schema's name taken off there too, as
     * from the table ({@link Naming#table}), wherever the statement holds an expression (found by deparsing it).
     */
    private static void qualifiedColumns(Statement st, Naming naming) {
        ExpressionDeParser expressions = new ExpressionDeParser() {
            @Override
            public <S> StringBuilder visit(Column column, S context) {
                Table t = column.getTable();
                if (t != null && t.getSchemaName() != null) naming.table(t);
                return super.visit(column, context);
            }
        };
        StringBuilder ignored = new StringBuilder();
        try {
            st.accept(new StatementDeParser(expressions, new SelectDeParser(expressions, ignored), ignored), null);
        } catch (RuntimeException e) {
            // a statement the plain deparser cannot walk keeps its columns as written (rendering it says why, if it must)
        }
    }

    private static void ddl(Statement st, Naming naming) {
        if (st instanceof CreateTable ct) {
            naming.table(ct.getTable());
            if (ct.getIndexes() != null) {
                for (Index index : ct.getIndexes()) {
                    if (index instanceof ForeignKeyIndex fk) naming.table(fk.getTable());
                }
            }
            if (ct.getColumnDefinitions() != null) {
                for (ColumnDefinition cd : ct.getColumnDefinitions()) referencesIn(cd.getColumnSpecs(), naming);
            }
            if (ct.getSelect() != null) tables(ct.getSelect(), naming);
        } else if (st instanceof CreateIndex ci) {
            naming.table(ci.getTable());
            naming.index(ci.getIndex());
        } else if (st instanceof CreateView cv) {
            naming.table(cv.getView());
            if (cv.getSelect() != null) tables(cv.getSelect(), naming);
        } else if (st instanceof Drop drop) {
            String type = drop.getType() == null ? "" : drop.getType().toUpperCase(Locale.ROOT);
            if (type.equals("TABLE") || type.equals("VIEW")) {
                naming.table(drop.getName());
            } else if (!type.equals("INDEX")) {
                naming.cannot("DROP " + type + " cannot be sent unqualified; qualify the name");
            } else if (naming.schema() == null) {
                naming.table(drop.getName()); // an index in the primary's default schema: in each replica's
            } else if (drop.getName() != null && drop.getName().getSchemaName() == null) {
                naming.cannot("name the index's schema in DROP INDEX (an index belongs to its table's schema)");
            }
        } else if (st instanceof Alter alter) {
            naming.table(alter.getTable());
            if (alter.getAlterExpressions() != null) {
                for (AlterExpression change : alter.getAlterExpressions()) {
                    if (change.getIndex() instanceof ForeignKeyIndex fk) naming.table(fk.getTable());
                    naming.fkSource(change);
                    if (change.getColDataTypeList() != null) {
                        for (AlterExpression.ColumnDataType cd : change.getColDataTypeList()) {
                            referencesIn(cd.getColumnSpecs(), naming);
                        }
                    }
                }
            }
        } else if (st instanceof Truncate truncate) {
            naming.table(truncate.getTable());
        } else {
            naming.cannot("this statement cannot be sent unqualified; qualify what it names");
        }
    }

    /** A column's {@code REFERENCES t(...)}: its target table, named as {@code naming} writes it. */
    private static void referencesIn(List<String> specs, Naming naming) {
        if (specs == null) return;
        for (int i = 0; i + 1 < specs.size(); i++) {
            if (specs.get(i).equalsIgnoreCase("REFERENCES")) specs.set(i + 1, naming.reference(specs.get(i + 1)));
        }
    }

    /**
     * {@code sql} with the session's current schema as a string literal where it asks for it: Derby's and Db2's
     * {@code CURRENT SCHEMA} (and Db2's {@code CURRENT SQLID}), {@code CURRENT_SCHEMA} (PostgreSQL also
     * {@code current_schema()}), MySQL's {@code DATABASE()} and {@code SCHEMA()}. Each replica would answer its own
     * connection's schema, not the session's; outside literals and comments only. With {@code version} (not null),
     * {@code VERSION()} too, as that string: each replica would answer its own server's version.
     */
    static String sessionValuesAsLiterals(String sql, String schema, String version, Dialect client) {
        String literal = schema == null ? null : "'" + SessionSetting.storedName(schema, client).replace("'", "''") + "'";
        String versionLiteral = version == null ? null : "'" + version.replace("'", "''") + "'";
        StringBuilder out = new StringBuilder();
        int[] copied = {0};
        int[] pendingCurrent = {-1, -1}; // start and end of a CURRENT word waiting for its second word
        SqlWords.scan(sql, client.backslashEscapesInStrings(), new SqlWords.Visitor() {
            @Override
            public void word(String text, int start, int end) {
                String w = text.substring(start, end);
                if (pendingCurrent[0] >= 0 && text.substring(pendingCurrent[1], start).isBlank()
                        && (w.equalsIgnoreCase("SCHEMA") || w.equalsIgnoreCase("SQLID"))) {
                    replace(pendingCurrent[0], end, literal);
                } else if (w.equalsIgnoreCase("CURRENT_SCHEMA")) {
                    replace(start, afterEmptyParentheses(text, end), literal);
                } else if ((w.equalsIgnoreCase("DATABASE") || w.equalsIgnoreCase("SCHEMA"))
                        && afterEmptyParentheses(text, end) > end) {
                    replace(start, afterEmptyParentheses(text, end), literal);
                } else if (w.equalsIgnoreCase("VERSION") && afterEmptyParentheses(text, end) > end) {
                    replace(start, afterEmptyParentheses(text, end), versionLiteral);
                }
                pendingCurrent[0] = w.equalsIgnoreCase("CURRENT") ? start : -1;
                pendingCurrent[1] = end;
            }

            private void replace(int from, int to, String value) {
                if (value == null || from < copied[0]) return;
                out.append(sql, copied[0], from).append(value);
                copied[0] = to;
            }
        });
        if (copied[0] == 0) return sql;
        return out.append(sql.substring(copied[0])).toString();
    }

    /** The index after {@code ( )} (blanks allowed) right after {@code end}, or {@code end} when there is none. */
    private static int afterEmptyParentheses(String sql, int end) {
        int i = end;
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) i++;
        if (i >= sql.length() || sql.charAt(i) != '(') return end;
        i++;
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) i++;
        return i < sql.length() && sql.charAt(i) == ')' ? i + 1 : end;
    }

    /** MySQL's DUAL is no table of any schema. */
    private static void qualify(Table t, String schema) {
        if (t != null && t.getSchemaName() == null && t.getName() != null && !t.getName().equalsIgnoreCase("DUAL")) {
            t.setSchemaName(schema);
        }
    }

    /** Collects every table node it visits, so that the caller can qualify those that are tables (not WITH names). */
    private static final class Finder extends TablesNamesFinder<Void> {
        private final List<Table> seen;

        Finder(List<Table> seen) {
            this.seen = seen;
        }

        @Override
        public <S> Void visit(Table table, S context) {
            seen.add(table);
            return super.visit(table, context);
        }

        String name(Table t) {
            return extractTableName(t);
        }
    }
}
