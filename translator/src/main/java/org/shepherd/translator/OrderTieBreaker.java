package org.shepherd.translator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

import org.shepherd.translator.SchemaCatalog.ColumnType;

/**
 * Makes the rows a LIMIT, OFFSET or FETCH keeps the same on every replica. {@code ORDER BY created DESC LIMIT 10} keeps
 * ten of the rows that tie on {@code created} in whatever order each engine finds them, so replicas would return (and
 * the vote compare) different rows; without an ORDER BY at all every engine picks its own. For a query over tables
 * whose primary keys the catalog knows, the translator appends those keys to the ORDER BY (after the client's own
 * order, which still decides), so that the order is total and the same everywhere: {@code ORDER BY created DESC, ev.id}.
 *
 * <p>Only where that cannot change the answer's meaning: a plain SELECT (not a UNION) over base tables joined with inner
 * joins, without DISTINCT, GROUP BY, HAVING, aggregates, window functions or FOR UPDATE. Elsewhere the query is left as
 * written (and a LIMIT without ORDER BY is refused, as before).
 */
final class OrderTieBreaker {

    private static final Set<String> AGGREGATES = Set.of("COUNT", "SUM", "AVG", "MIN", "MAX", "GROUP_CONCAT", "STRING_AGG",
            "LISTAGG", "ARRAY_AGG", "JSON_ARRAYAGG", "JSON_OBJECTAGG", "STDDEV", "STDDEV_POP", "STDDEV_SAMP", "VARIANCE",
            "VAR_POP", "VAR_SAMP", "BIT_AND", "BIT_OR", "BIT_XOR", "EVERY", "BOOL_AND", "BOOL_OR");

    private OrderTieBreaker() {
    }

    /** Appends the primary keys to the ORDER BY of {@code st} where that is safe and needed (see the class comment). */
    static void complete(Statement st, SchemaCatalog catalog) {
        if (!(st instanceof PlainSelect ps) || !limited(ps) || !plain(ps)) return;
        List<Table> tables = new ArrayList<>();
        if (!(ps.getFromItem() instanceof Table from)) return;
        tables.add(from);
        if (ps.getJoins() != null) {
            for (Join join : ps.getJoins()) {
                boolean inner = !join.isOuter() && !join.isLeft() && !join.isRight() && !join.isFull() && !join.isNatural()
                        && !join.isApply() && !join.isSemi();
                if (!inner || !(join.getFromItem() instanceof Table t)) return;
                tables.add(t);
            }
        }
        List<OrderByElement> order = ps.getOrderByElements() == null ? new ArrayList<>() : new ArrayList<>(ps.getOrderByElements());
        List<OrderByElement> keys = new ArrayList<>();
        for (Table t : tables) {
            Map<String, ColumnType> columns = catalog.columns(t.getFullyQualifiedName());
            if (columns == null) return;
            Map<Integer, String> key = new TreeMap<>();
            columns.forEach((name, type) -> {
                if (type.keySeq() > 0) key.put(type.keySeq(), type.sqlName() != null ? type.sqlName() : name);
            });
            if (key.isEmpty()) return; // no primary key: nothing makes the order total
            Table qualifier = t.getAlias() != null ? new Table(t.getAlias().getName()) : t;
            for (String column : key.values()) {
                if (!ordersBy(order, t, column)) keys.add(new OrderByElement().withExpression(new Column(qualifier, column)));
            }
        }
        if (keys.isEmpty()) return;
        order.addAll(keys);
        ps.setOrderByElements(order);
    }

    private static boolean limited(PlainSelect ps) {
        return ps.getLimit() != null && !ps.getLimit().isLimitAll() && !ps.getLimit().isLimitNull() || ps.getOffset() != null
                || ps.getFetch() != null || ps.getLimit() != null && ps.getLimit().getOffset() != null;
    }

    private static boolean plain(PlainSelect ps) {
        if (ps.getDistinct() != null || ps.getGroupBy() != null || ps.getHaving() != null || ps.getForMode() != null
                || ps.getWindowDefinitions() != null || ps.getTop() != null
                || ps.getWithItemsList() != null && !ps.getWithItemsList().isEmpty()) { // a FROM name may be a WITH query
            return false;
        }
        boolean[] aggregated = {false};
        ExpressionVisitorAdapter<Void> finder = new ExpressionVisitorAdapter<>() {
            @Override
            public <S> Void visit(Function f, S context) {
                if (f.getName() != null && AGGREGATES.contains(f.getName().toUpperCase(Locale.ROOT))) aggregated[0] = true;
                return super.visit(f, context);
            }

            @Override
            public <S> Void visit(net.sf.jsqlparser.expression.AnalyticExpression a, S context) {
                aggregated[0] = true;
                return null;
            }
        };
        for (SelectItem<?> item : ps.getSelectItems()) {
            if (item.getExpression() != null) item.getExpression().accept(finder, null);
        }
        if (ps.getOrderByElements() != null) {
            for (OrderByElement o : ps.getOrderByElements()) o.getExpression().accept(finder, null);
        }
        return !aggregated[0];
    }

    /** Whether the ORDER BY already names {@code column} of {@code table} (bare or qualified). */
    private static boolean ordersBy(List<OrderByElement> order, Table table, String column) {
        String name = SchemaCatalog.key(column);
        for (OrderByElement o : order) {
            Expression e = o.getExpression();
            if (!(e instanceof Column c) || !SchemaCatalog.key(c.getColumnName()).equals(name)) continue;
            Table q = c.getTable();
            if (q == null || q.getName() == null) return true;
            String qualifier = SchemaCatalog.key(q.getName());
            if (qualifier.equals(SchemaCatalog.key(table.getName()))
                    || table.getAlias() != null && qualifier.equals(SchemaCatalog.key(table.getAlias().getName()))) {
                return true;
            }
        }
        return false;
    }
}
