package org.shepherd.translator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;

/**
 * MySQL's multi-table DELETE and UPDATE of one table with inner joins, for the engines that have neither (Derby,
 * HSQLDB, PostgreSQL, Db2), made of the statement's own expression nodes in their order (markers and the values pinned
 * in them stay as they were):
 * <ul>
 * <li>{@code DELETE t FROM t JOIN u ON c1 [JOIN v ON c2 | , v] [WHERE w]}: {@code DELETE FROM t WHERE EXISTS (SELECT 1
 * FROM u, v WHERE (c1) AND (c2) AND (w))}, the rows of t that some combination of joined rows matches: what MySQL
 * deletes;</li>
 * <li>{@code UPDATE t JOIN u ON c SET t.x = e1, t.y = e2 [WHERE w]}: {@code UPDATE t SET x = e1', y = e2 WHERE EXISTS
 * (SELECT 1 FROM u WHERE (c) AND (w))}, where a value that names a joined table is read from it, {@code e1' = (SELECT
 * e1 FROM u WHERE (c) AND (w))}. MySQL updates each matched row of t once; where several joined rows match one row of
 * t and a value reads them, MySQL takes one of them and the other engines fail the statement (21000), which the
 * shepherd reports instead of a silent difference.</li>
 * <li>the anti-join, {@code DELETE t FROM t LEFT JOIN u ON c WHERE u.k IS NULL [AND p]} (orphan cleanup) where c
 * compares u.k with {@code =} and p does not name u: {@code DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE c)
 * AND (p)}, and the UPDATE alike (its values may not read u).</li>
 * </ul>
 * Refused (0A000): several tables deleted from or updated, another outer join, a natural join or USING, a joined
 * subquery, and a table joined to itself (MySQL refuses the rewritten form for it).
 */
final class MultiTableWrite {

    private MultiTableWrite() {
    }

    /**
     * A one-table write's FROM items, the one written to first, and the conditions of its joins and WHERE; for an anti-join
     * ({@code antiJoin}), the conditions of its LEFT JOIN, and {@code outer} the rest of its WHERE (of the written table).
     */
    private record Joined(Table main, List<Table> others, List<Expression> conditions, boolean antiJoin,
            List<Expression> outer) {

        /** {@code (SELECT what FROM others WHERE conditions)}. */
        ParenthesedSelect select(Expression what) {
            PlainSelect select = new PlainSelect();
            select.addSelectItem(what);
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
            return new ParenthesedSelect().withSelect(select);
        }

        /** The rewritten statement's WHERE: [NOT] EXISTS (SELECT 1 FROM others WHERE conditions) [AND (outer) ...]. */
        Expression where() {
            ExistsExpression exists = new ExistsExpression();
            exists.setRightExpression(select(new LongValue(1)));
            exists.setNot(antiJoin);
            Expression where = exists;
            for (Expression c : outer) where = new AndExpression(where, new ParenthesedExpressionList<>(c));
            return where;
        }

        /** The names the joined tables are written by (their aliases, else their names), as {@link #key} gives them. */
        Set<String> otherNames() {
            return others.stream().flatMap(t -> refs(t).stream()).collect(Collectors.toSet());
        }
    }

    static Delete deleteAsExists(Delete delete) {
        List<Table> targets = delete.getTables();
        if (targets == null || targets.size() != 1) {
            throw TranslationException.unsupported("A DELETE of several tables at once is MySQL-only; delete from each table"
                    + " in a statement of its own");
        }
        Joined j = joined("DELETE", targets.get(0).getFullyQualifiedName(), delete.getTable(), delete.getJoins(),
                delete.getWhere());
        Delete out = new Delete();
        out.setTable(j.main());
        out.setWhere(j.where());
        return out;
    }

    static Update updateAsExists(Update update) {
        if (update.getFromItem() != null || update.getJoins() != null && !update.getJoins().isEmpty()) {
            throw TranslationException.unsupported("UPDATE ... FROM is not translated across engines; write UPDATE t SET c ="
                    + " (SELECT ...) WHERE EXISTS (SELECT 1 FROM u WHERE ...)");
        }
        Table table = update.getTable();
        Joined j = joined("UPDATE", writtenAs(table), table, update.getStartJoins(), update.getWhere());
        Set<String> others = j.otherNames();
        Set<String> mainRefs = refs(table);
        Update out = new Update();
        out.setTable(table);
        List<UpdateSet> sets = new ArrayList<>();
        for (UpdateSet set : update.getUpdateSets()) {
            if (set.getColumns().size() != 1 || set.getValues().size() != 1) {
                throw TranslationException.unsupported("A multi-table UPDATE sets one column per assignment here; write SET a = x,"
                        + " b = y");
            }
            Column column = set.getColumn(0);
            if (column.getTable() != null && !mainRefs.contains(key(column.getTable().getFullyQualifiedName()))) {
                throw TranslationException.unsupported("A multi-table UPDATE of several tables (" + column + ") is MySQL-only;"
                        + " update each table in a statement of its own");
            }
            Expression value = set.getValue(0);
            boolean readsJoined = names(value, others);
            if (readsJoined && j.antiJoin()) {
                throw TranslationException.unsupported("An UPDATE of rows no joined row matches that reads the joined table (" + set
                        + ", NULL there) is MySQL-only; write NULL");
            }
            sets.add(new UpdateSet(new Column(column.getColumnName()), readsJoined ? j.select(value) : value));
        }
        out.setUpdateSets(sets);
        out.setWhere(j.where());
        return out;
    }

    private static Joined joined(String what, String target, Table first, List<Join> joins, Expression where) {
        Joined anti = antiJoin(target, first, joins, where);
        if (anti != null) return anti;
        List<Table> items = new ArrayList<>();
        items.add(first);
        List<Expression> conditions = new ArrayList<>();
        for (Join j : joins) {
            boolean inner = !j.isLeft() && !j.isRight() && !j.isFull() && !j.isOuter() && !j.isNatural() && !j.isSemi()
                    && !j.isApply() && !j.isStraight() && (j.getUsingColumns() == null || j.getUsingColumns().isEmpty());
            if (!inner || !(j.getRightItem() instanceof Table table)) {
                throw TranslationException.unsupported("A multi-table " + what + " is translated for the other engines only with"
                        + " inner joins of tables (ON, or a comma); write it with [NOT] EXISTS (SELECT 1 FROM u WHERE ...)");
            }
            items.add(table);
            if (j.getOnExpressions() != null) conditions.addAll(j.getOnExpressions());
        }
        if (where != null) conditions.add(where);
        Table main = null;
        for (Table t : items) {
            if (refs(t).contains(key(target))) main = t;
        }
        if (main == null) throw TranslationException.unsupported(what + " " + target + " names no table of its FROM clause");
        List<Table> others = new ArrayList<>(items);
        others.remove(main);
        String mainName = key(main.getFullyQualifiedName());
        if (others.stream().anyMatch(t -> key(t.getFullyQualifiedName()).equals(mainName))) {
            throw TranslationException.unsupported("A multi-table " + what + " that joins " + main.getFullyQualifiedName()
                    + " to itself is MySQL-only; write it with EXISTS (SELECT 1 FROM t AS other WHERE ...)");
        }
        return new Joined(main, others, conditions, false, List.of());
    }

    /**
     * {@code t LEFT JOIN u ON c WHERE u.k IS NULL [AND p]}, written to t, where c compares u.k with {@code =} (so u.k is
     * not NULL in a joined row) and p does not name u: the rows of t that no row of u matches and p holds for, {@code NOT
     * EXISTS (SELECT 1 FROM u WHERE c) AND (p)}. Null when the statement is not of that shape.
     */
    private static Joined antiJoin(String target, Table first, List<Join> joins, Expression where) {
        if (joins.size() != 1 || where == null) return null;
        Join j = joins.get(0);
        if (!j.isLeft() || j.isNatural() || j.getUsingColumns() != null && !j.getUsingColumns().isEmpty()
                || !(j.getRightItem() instanceof Table joined) || j.getOnExpressions() == null || j.getOnExpressions().isEmpty()
                || !refs(first).contains(key(target))) {
            return null;
        }
        Set<String> u = refs(joined);
        Set<String> comparedByEquality = new java.util.HashSet<>();
        for (Expression on : j.getOnExpressions()) {
            for (Expression c : conjuncts(on)) {
                if (c instanceof EqualsTo eq) {
                    for (Expression side : List.of(eq.getLeftExpression(), eq.getRightExpression())) {
                        if (side instanceof Column col && col.getTable() != null
                                && u.contains(key(col.getTable().getFullyQualifiedName()))) {
                            comparedByEquality.add(key(col.getColumnName()));
                        }
                    }
                }
            }
        }
        Expression noMatch = null;
        List<Expression> outer = new ArrayList<>();
        for (Expression c : conjuncts(where)) {
            if (noMatch == null && c instanceof IsNullExpression isNull && !isNull.isNot()
                    && isNull.getLeftExpression() instanceof Column col && col.getTable() != null
                    && u.contains(key(col.getTable().getFullyQualifiedName()))
                    && comparedByEquality.contains(key(col.getColumnName()))) {
                noMatch = c;
            } else if (names(c, u)) {
                return null;
            } else {
                outer.add(c);
            }
        }
        if (noMatch == null) return null;
        return new Joined(first, List.of(joined), new ArrayList<>(j.getOnExpressions()), true, outer);
    }

    /** {@code e}'s operands of AND, at its top (through parentheses). */
    private static List<Expression> conjuncts(Expression e) {
        List<Expression> out = new ArrayList<>();
        if (e instanceof AndExpression and) {
            out.addAll(conjuncts(and.getLeftExpression()));
            out.addAll(conjuncts(and.getRightExpression()));
        } else if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1) {
            out.addAll(conjuncts(p.get(0)));
        } else {
            out.add(e);
        }
        return out;
    }

    /** Whether {@code e} names a column of a table referred to by one of {@code tables} ({@link #refs}). */
    private static boolean names(Expression e, Set<String> tables) {
        boolean[] found = {false};
        e.accept(new ExpressionVisitorAdapter<Void>() {
            @Override
            public <S> Void visit(Column c, S context) {
                if (c.getTable() != null && tables.contains(key(c.getTable().getFullyQualifiedName()))) found[0] = true;
                return null;
            }
        }, null);
        return found[0];
    }

    /** The name a FROM item is written by: its alias, else its name. */
    private static String writtenAs(Table t) {
        return key(t.getAlias() != null ? t.getAlias().getName() : t.getFullyQualifiedName());
    }

    /**
     * The names a column's qualifier or a write's target may refer to {@code t} by ({@link #key}s): its alias; without
     * one, its name with its schema and without (a session's schema is named in the tables, not in the qualifiers).
     */
    private static Set<String> refs(Table t) {
        if (t.getAlias() != null) return Set.of(key(t.getAlias().getName()));
        return new java.util.HashSet<>(List.of(key(t.getFullyQualifiedName()), key(t.getName())));
    }

    /** A name without its quotes, in one case: how MySQL matches a write's target to its FROM clause. */
    private static String key(String name) {
        return name.replace("`", "").replace("\"", "").toUpperCase(Locale.ROOT);
    }
}
