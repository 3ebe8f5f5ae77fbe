package org.shepherd.translator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Leaves hidden tables (the shepherd's own on each replica) out of a query of the catalog, in the query itself: every
 * catalog table that names tables in a column ({@code information_schema.TABLES.TABLE_NAME}, Derby's
 * {@code SYS.SYSTABLES.TABLENAME}, Db2's {@code SYSCAT.TABLES.TABNAME}, ...) gets {@code AND UPPER(t.column) NOT IN
 * (...)} in the WHERE clause of the SELECT that reads it. So counts, LIMITs and joins over the catalog are right too,
 * not only the rows a result shows.
 */
final class HiddenCatalogRows {

    /** Catalog tables (schema.table, upper case) and the column in which each names a table. */
    private static final Map<String, String> NAME_COLUMNS = Map.ofEntries(
            Map.entry("INFORMATION_SCHEMA.TABLES", "TABLE_NAME"),
            Map.entry("INFORMATION_SCHEMA.COLUMNS", "TABLE_NAME"),
            Map.entry("INFORMATION_SCHEMA.VIEWS", "TABLE_NAME"),
            Map.entry("INFORMATION_SCHEMA.TABLE_CONSTRAINTS", "TABLE_NAME"),
            Map.entry("INFORMATION_SCHEMA.KEY_COLUMN_USAGE", "TABLE_NAME"),
            Map.entry("INFORMATION_SCHEMA.STATISTICS", "TABLE_NAME"),
            Map.entry("INFORMATION_SCHEMA.TABLE_PRIVILEGES", "TABLE_NAME"),
            Map.entry("INFORMATION_SCHEMA.COLUMN_PRIVILEGES", "TABLE_NAME"),
            Map.entry("INFORMATION_SCHEMA.CONSTRAINT_COLUMN_USAGE", "TABLE_NAME"),
            Map.entry("INFORMATION_SCHEMA.CONSTRAINT_TABLE_USAGE", "TABLE_NAME"),
            Map.entry("INFORMATION_SCHEMA.PARTITIONS", "TABLE_NAME"),
            Map.entry("SYS.SYSTABLES", "TABLENAME"),
            Map.entry("SYSCAT.TABLES", "TABNAME"),
            Map.entry("SYSCAT.COLUMNS", "TABNAME"),
            Map.entry("SYSIBM.SYSTABLES", "NAME"),
            Map.entry("SYSIBM.SYSCOLUMNS", "TBNAME"));

    private HiddenCatalogRows() {
    }

    /** Adds the predicates to {@code st} in place; {@code hidden} holds the tables' names (any case). */
    static void leaveOut(Statement st, Set<String> hidden) {
        if (hidden.isEmpty()) return;
        List<PlainSelect> selects = new ArrayList<>();
        List<Table> tables = new ArrayList<>();
        List<String> columns = new ArrayList<>();
        Deque<PlainSelect> enclosing = new ArrayDeque<>();
        TablesNamesFinder<Void> finder = new TablesNamesFinder<>() {
            @Override
            public <S> Void visit(PlainSelect plainSelect, S context) {
                enclosing.push(plainSelect);
                try {
                    return super.visit(plainSelect, context);
                } finally {
                    enclosing.pop();
                }
            }

            @Override
            public <S> Void visit(Table table, S context) {
                String column = enclosing.isEmpty() ? null : nameColumn(table);
                if (column != null) {
                    selects.add(enclosing.peek());
                    tables.add(table);
                    columns.add(column);
                }
                return super.visit(table, context);
            }
        };
        try {
            finder.getTables(st);
        } catch (UnsupportedOperationException e) {
            return; // a statement the finder cannot walk: the rows of its result are still filtered
        }
        ExpressionList<StringValue> names = new ExpressionList<>();
        for (String h : new java.util.TreeSet<>(hidden)) names.addExpression(new StringValue(h.toUpperCase(Locale.ROOT)));
        for (int i = 0; i < tables.size(); i++) {
            Table t = tables.get(i);
            Table ref = t.getAlias() != null ? new Table(t.getAlias().getName()) : new Table(t.getSchemaName(), t.getName());
            Function upper = new Function("UPPER", new Column(ref, columns.get(i)));
            InExpression notIn = new InExpression(upper, new ParenthesedExpressionList<>(names.getExpressions()));
            notIn.setNot(true);
            PlainSelect ps = selects.get(i);
            Expression where = ps.getWhere();
            ps.setWhere(where == null ? notIn : new AndExpression(new ParenthesedExpressionList<>(where), notIn));
        }
    }

    /** The column naming a table in catalog table {@code t}, or null when it is no such catalog table. */
    private static String nameColumn(Table t) {
        if (t.getSchemaName() == null || t.getName() == null) return null;
        return NAME_COLUMNS.get((SchemaCatalog.unquoted(t.getSchemaName()) + "." + SchemaCatalog.unquoted(t.getName()))
                .toUpperCase(Locale.ROOT));
    }
}
