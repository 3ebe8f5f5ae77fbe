package org.shepherd.translator;

import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;
import org.shepherd.translator.SchemaCatalog.ColumnType;
import org.shepherd.translator.dialect.Dialect.TypeKind;

/**
 * The fractional digits of the seconds a client's {@code ?} keeps where an INSERT's VALUES or an UPDATE's SET stores it,
 * alone, into a TIMESTAMP(p) column with p below 6 or into a TIME column (which has none on every engine): engines cut
 * such a value differently (MariaDB truncates, PostgreSQL and MySQL round, Derby keeps every digit, having no
 * precision), so the shepherd cuts the bound value once, for every replica ({@link Translation#fractionDigits}).
 * Elsewhere a time value keeps microseconds, the finest any replica but Derby stores.
 */
final class StoredTime {

    /** The digits every bound time value keeps. */
    static final int MICROSECONDS = 6;

    private StoredTime() {
    }

    /**
     * Per client marker (from 1) the digits it keeps where fewer than {@link #MICROSECONDS}, else
     * {@link #MICROSECONDS}; null when every marker keeps microseconds.
     */
    static int[] digits(Statement st, SchemaCatalog catalog) {
        if (catalog == null) return null;
        Digits d = new Digits();
        if (st instanceof Insert insert && insert.getSelect() instanceof Values values && insert.getTable() != null) {
            Map<String, ColumnType> columns = catalog.columns(insert.getTable().getFullyQualifiedName());
            if (columns == null || columns.isEmpty()) return null;
            List<Column> targets = insert.getColumns() != null ? insert.getColumns()
                    : columns.keySet().stream().map(Column::new).toList();
            for (ExpressionList<Expression> row : ClockDefaults.rows(values)) {
                if (row.size() != targets.size()) continue;
                for (int i = 0; i < targets.size(); i++) d.note(targets.get(i), row.get(i), columns);
            }
        } else if (st instanceof Update update && update.getTable() != null && update.getUpdateSets() != null) {
            Map<String, ColumnType> columns = catalog.columns(update.getTable().getFullyQualifiedName());
            if (columns == null || columns.isEmpty()) return null;
            for (UpdateSet set : update.getUpdateSets()) {
                if (set.getColumns().size() != set.getValues().size()) continue;
                for (int i = 0; i < set.getColumns().size(); i++) d.note(set.getColumns().get(i), set.getValues().get(i), columns);
            }
        }
        return d.digits;
    }

    private static final class Digits {
        int[] digits;

        void note(Column target, Expression value, Map<String, ColumnType> columns) {
            if (!(value instanceof JdbcParameter p) || p.getIndex() == null) return;
            ColumnType type = columns.get(SchemaCatalog.key(target.getColumnName()));
            if (type == null) return;
            int kept = type.kind() == TypeKind.TIME ? 0
                    : type.kind() == TypeKind.TIMESTAMP && type.length() >= 0 ? Math.min(type.length(), MICROSECONDS)
                    : MICROSECONDS;
            if (kept >= MICROSECONDS) return;
            if (digits == null || digits.length <= p.getIndex()) {
                int[] grown = new int[Math.max(p.getIndex() + 1, digits == null ? 8 : digits.length * 2)];
                java.util.Arrays.fill(grown, MICROSECONDS);
                if (digits != null) System.arraycopy(digits, 0, grown, 0, digits.length);
                digits = grown;
            }
            digits[p.getIndex()] = Math.min(digits[p.getIndex()], kept);
        }
    }
}
