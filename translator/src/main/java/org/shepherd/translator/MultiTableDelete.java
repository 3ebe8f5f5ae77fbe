package org.shepherd.translator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * MySQL's multi-table DELETE of one table, {@code DELETE t FROM t JOIN u ON c1 [JOIN v ON c2 | , v] [WHERE w]}, for the
 * engines that have none (Derby, HSQLDB, PostgreSQL, Db2): {@code DELETE FROM t WHERE EXISTS (SELECT 1 FROM u, v WHERE
 * (c1) AND (c2) AND (w))}, the rows of t that some combination of joined rows matches, which is what MySQL deletes when
 * every join is an inner one. The conditions are the statement's own expression nodes, in their order (markers and the
 * values pinned in them stay as they were). Refused (0A000): several tables deleted from, an outer or natural join or
 * USING, a joined subquery, and a table joined to itself (MySQL refuses the rewritten form for it).
 */
final class MultiTableDelete {

    private MultiTableDelete() {
    }

    static Delete asExists(Delete delete) {
        List<Table> targets = delete.getTables();
        if (targets == null || targets.size() != 1) {
            throw TranslationException.unsupported("A DELETE of several tables at once is MySQL-only; delete from each table"
                    + " in a statement of its own");
        }
        List<Table> items = new ArrayList<>();
        items.add(delete.getTable());
        List<Expression> conditions = new ArrayList<>();
        for (Join j : delete.getJoins()) {
            boolean inner = !j.isLeft() && !j.isRight() && !j.isFull() && !j.isOuter() && !j.isNatural() && !j.isSemi()
                    && !j.isApply() && !j.isStraight() && (j.getUsingColumns() == null || j.getUsingColumns().isEmpty());
            if (!inner || !(j.getRightItem() instanceof Table table)) {
                throw TranslationException.unsupported("A multi-table DELETE is translated for the other engines only with inner"
                        + " joins of tables (ON, or a comma); write DELETE FROM t WHERE [NOT] EXISTS (SELECT 1 FROM u WHERE ...)");
            }
            items.add(table);
            if (j.getOnExpressions() != null) conditions.addAll(j.getOnExpressions());
        }
        if (delete.getWhere() != null) conditions.add(delete.getWhere());
        String target = key(targets.get(0).getFullyQualifiedName());
        Table main = null;
        for (Table t : items) {
            if (target.equals(key(t.getAlias() != null ? t.getAlias().getName() : t.getFullyQualifiedName()))) main = t;
        }
        if (main == null) {
            throw TranslationException.unsupported("DELETE " + targets.get(0) + " names no table of its FROM clause");
        }
        List<Table> others = new ArrayList<>(items);
        others.remove(main);
        String mainName = key(main.getFullyQualifiedName());
        if (others.stream().anyMatch(t -> key(t.getFullyQualifiedName()).equals(mainName))) {
            throw TranslationException.unsupported("A multi-table DELETE that joins " + main.getFullyQualifiedName() + " to itself"
                    + " is MySQL-only; write DELETE FROM t WHERE EXISTS (SELECT 1 FROM t AS other WHERE ...) on a copy of the keys");
        }
        PlainSelect select = new PlainSelect();
        select.addSelectItem(new LongValue(1));
        select.setFromItem(others.get(0));
        for (FromItem t : others.subList(1, others.size())) {
            Join comma = new Join();
            comma.setSimple(true);
            comma.setRightItem(t);
            select.addJoins(comma);
        }
        Expression where = null;
        for (Expression c : conditions) {
            Expression part = new ParenthesedExpressionList<>(c);
            where = where == null ? part : new AndExpression(where, part);
        }
        select.setWhere(where);
        ExistsExpression exists = new ExistsExpression();
        exists.setRightExpression(new ParenthesedSelect().withSelect(select));
        Delete out = new Delete();
        out.setTable(main);
        out.setWhere(exists);
        return out;
    }

    /** A name without its quotes, in one case: how MySQL matches a DELETE's target to its FROM clause. */
    private static String key(String name) {
        return name.replace("`", "").replace("\"", "").toUpperCase(Locale.ROOT);
    }
}
