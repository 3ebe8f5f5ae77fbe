package org.shepherd.translator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.merge.MergeInsert;
import net.sf.jsqlparser.statement.merge.MergeOperation;
import net.sf.jsqlparser.statement.merge.MergeUpdate;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;
import org.shepherd.translator.SchemaCatalog.ColumnType;
import org.shepherd.translator.dialect.Dialect.TypeKind;

/**
 * A value an INSERT or an UPDATE stores into a DECIMAL(p, s) column, marked in the statement's tree while it renders.
 * Engines disagree on the digits past s with the same update count (Derby and Db2 truncate, MariaDB and PostgreSQL round
 * half away from zero, HSQLDB rounds half toward zero): the {@link Renderer} writes the client's rule out where a
 * target's differs, so replicas store the same value (found by the generated benign-divergence corpus).
 */
final class StoredDecimal extends Function {

    private final transient Expression value;
    private final int precision;
    private final int scale;

    StoredDecimal(Expression value, int precision, int scale) {
        this.value = value;
        this.precision = precision;
        this.scale = scale;
        setName("SHEPHERD_STORED_DECIMAL");
        // visitors walking the tree (parameter markers, columns read) still find the value inside
        setParameters(new ExpressionList<>(value));
    }

    Expression value() {
        return value;
    }

    int precision() {
        return precision;
    }

    int scale() {
        return scale;
    }

    /**
     * Marks the values {@code update} stores into DECIMAL columns of its table (by the catalog); returns what puts the
     * tree back as it was.
     */
    static List<Runnable> mark(Update update, SchemaCatalog catalog) {
        List<Runnable> restore = new ArrayList<>();
        Map<String, ColumnType> columns = columnsOf(catalog, update.getTable() == null ? null
                : update.getTable().getFullyQualifiedName());
        if (columns != null && update.getUpdateSets() != null) markSets(update.getUpdateSets(), columns, restore);
        return restore;
    }

    /**
     * Marks the values an {@code INSERT INTO t [(columns)] VALUES ...} or {@code INSERT INTO t [(columns)] SELECT ...}
     * (a UNION of SELECTs included) stores into DECIMAL columns; without a column list, the table's columns in the
     * catalog's order (the engines' ordinal order).
     */
    static List<Runnable> mark(Insert insert, SchemaCatalog catalog) {
        List<Runnable> restore = new ArrayList<>();
        Map<String, ColumnType> columns = columnsOf(catalog, insert.getTable().getFullyQualifiedName());
        if (columns == null || columns.isEmpty()) return restore;
        List<Column> targets = targets(insert.getColumns(), columns);
        if (insert.getSelect() instanceof Values values) {
            for (ExpressionList<Expression> row : ClockDefaults.rows(values)) {
                if (row.size() == targets.size()) mark(targets, row, columns, restore);
            }
        } else if (insert.getSelect() instanceof PlainSelect select) {
            markItems(select, targets, columns, restore);
        } else if (insert.getSelect() instanceof SetOperationList union) {
            for (Select branch : union.getSelects()) {
                if (branch instanceof PlainSelect select) markItems(select, targets, columns, restore);
            }
        }
        return restore;
    }

    /**
     * Marks the values a MERGE's WHEN MATCHED THEN UPDATE SET and WHEN NOT MATCHED THEN INSERT store into DECIMAL columns
     * of its target table.
     */
    static List<Runnable> mark(Merge merge, SchemaCatalog catalog) {
        List<Runnable> restore = new ArrayList<>();
        Map<String, ColumnType> columns = columnsOf(catalog, merge.getTable() == null ? null : merge.getTable().getFullyQualifiedName());
        if (columns == null || columns.isEmpty() || merge.getOperations() == null) return restore;
        for (MergeOperation op : merge.getOperations()) {
            if (op instanceof MergeUpdate update && update.getUpdateSets() != null) {
                markSets(update.getUpdateSets(), columns, restore);
            } else if (op instanceof MergeInsert insert && insert.getValues() != null) {
                List<Column> targets = targets(insert.getColumns(), columns);
                if (insert.getValues().size() == targets.size()) mark(targets, expressions(insert.getValues()), columns, restore);
            }
        }
        return restore;
    }

    /** The columns an INSERT names, or without a list the table's, in the catalog's (the engines' ordinal) order. */
    private static List<Column> targets(List<Column> named, Map<String, ColumnType> columns) {
        return named != null ? named : columns.keySet().stream().map(Column::new).toList();
    }

    private static void markSets(List<UpdateSet> sets, Map<String, ColumnType> columns, List<Runnable> restore) {
        for (UpdateSet set : sets) {
            if (set.getColumns().size() == set.getValues().size()) mark(set.getColumns(), expressions(set.getValues()), columns, restore);
        }
    }

    private static void markItems(PlainSelect select, List<Column> targets, Map<String, ColumnType> columns, List<Runnable> restore) {
        if (select.getSelectItems().size() != targets.size()) return;
        for (int i = 0; i < select.getSelectItems().size(); i++) {
            SelectItem<?> item = select.getSelectItems().get(i);
            Expression value = item.getExpression();
            StoredDecimal marked = marked(targets.get(i), value, columns);
            if (marked != null) {
                @SuppressWarnings("unchecked")
                SelectItem<Expression> typed = (SelectItem<Expression>) item;
                typed.setExpression(marked);
                restore.add(() -> typed.setExpression(value));
            }
        }
    }

    private static Map<String, ColumnType> columnsOf(SchemaCatalog catalog, String table) {
        return catalog == null || table == null ? null : catalog.columns(table);
    }

    @SuppressWarnings("unchecked")
    private static ExpressionList<Expression> expressions(ExpressionList<?> list) {
        return (ExpressionList<Expression>) list;
    }

    private static void mark(List<Column> targets, ExpressionList<Expression> values, Map<String, ColumnType> columns,
            List<Runnable> restore) {
        for (int i = 0; i < targets.size(); i++) {
            Expression value = values.get(i);
            StoredDecimal marked = marked(targets.get(i), value, columns);
            if (marked != null) {
                int at = i;
                values.set(at, marked);
                restore.add(() -> values.set(at, value));
            }
        }
    }

    private static StoredDecimal marked(Column target, Expression value, Map<String, ColumnType> columns) {
        ColumnType type = columns.get(SchemaCatalog.key(target.getColumnName()));
        if (type == null || type.kind() != TypeKind.DECIMAL || value instanceof NullValue || isDefault(value)) return null;
        return new StoredDecimal(value, type.length(), type.scale());
    }

    private static boolean isDefault(Expression value) {
        return value instanceof Column c && "DEFAULT".equalsIgnoreCase(c.getColumnName()) && c.getTable() == null;
    }
}
