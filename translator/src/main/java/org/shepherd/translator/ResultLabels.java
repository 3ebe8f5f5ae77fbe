package org.shepherd.translator;

import java.util.Locale;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExtractExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.TrimFunction;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;
import org.shepherd.translator.dialect.Dialect;
import org.shepherd.translator.dialect.Dialect.TypeKind;

/**
 * The label PostgreSQL gives a select-list expression written without an alias (its parser's {@code FigureColname}):
 * a column's name; a function's name ({@code count(*)} is {@code count}, {@code TRIM(x)} {@code btrim}); for a CAST, the
 * operand's name when it has one, else the type's internal name ({@code 1::integer} is {@code int4}); {@code case},
 * {@code exists}, {@code current_date}, a scalar subquery's column; {@code ?column?} for anything else (operators,
 * literals). A PostgreSQL client's application may read a column by that name ({@code rs.getLong("count")}), so every
 * replica gets it as the explicit label.
 */
final class ResultLabels {

    /** PostgreSQL's label for an expression it cannot name. */
    static final String UNNAMED = "?column?";

    private ResultLabels() {
    }

    /** PostgreSQL's label for {@code e}. */
    static String postgresql(Expression e) {
        String name = named(e);
        if (name != null) return name;
        String weak = weaklyNamed(e);
        return weak != null ? weak : UNNAMED;
    }

    /** A name PostgreSQL takes over a CAST's type name, else null. */
    private static String named(Expression e) {
        if (e instanceof ParenthesedExpressionList<?> list && list.size() == 1) return named((Expression) list.get(0));
        if (e instanceof Column column) return isBoolean(column) ? null : folded(column.getColumnName());
        if (e instanceof AnalyticExpression analytic) return folded(analytic.getName());
        if (e instanceof TrimFunction trim) {
            String where = trim.getTrimSpecification() == null ? "BOTH" : trim.getTrimSpecification().name();
            return where.equals("LEADING") ? "ltrim" : where.equals("TRAILING") ? "rtrim" : "btrim";
        }
        if (e instanceof Function f && f.getName() != null) {
            String name = f.getName();
            int dot = name.lastIndexOf('.');
            return folded(dot < 0 ? name : name.substring(dot + 1));
        }
        if (e instanceof ExtractExpression) return "extract";
        if (e instanceof TimeKeyExpression key) return key.getStringValue().toLowerCase(Locale.ROOT).replace("()", "");
        if (e instanceof ExistsExpression) return "exists";
        if (e instanceof CastExpression cast) return named(cast.getLeftExpression());
        if (e instanceof ParenthesedSelect sub && sub.getSelect() instanceof PlainSelect plain
                && plain.getSelectItems().size() == 1) {
            SelectItem<?> item = plain.getSelectItems().get(0);
            return item.getAlias() != null ? folded(item.getAlias().getName()) : postgresql(item.getExpression());
        }
        return null;
    }

    /** A name PostgreSQL gives only when nothing names the expression better ({@code case}, a CAST's type), else null. */
    private static String weaklyNamed(Expression e) {
        if (e instanceof ParenthesedExpressionList<?> list && list.size() == 1) return weaklyNamed((Expression) list.get(0));
        if (e instanceof CaseExpression) return "case";
        if (e instanceof BooleanValue || e instanceof Column column && isBoolean(column)) return "bool";
        if (e instanceof IntervalExpression) return "interval";
        if (e instanceof DateTimeLiteralExpression literal) return typeName(literal.getType().name(), null);
        if (e instanceof CastExpression cast) {
            try {
                return typeName(null, SqlTypes.parse(cast.getColDataType().toString(), Dialect.POSTGRESQL).kind());
            } catch (TranslationException notPortable) {
                return cast.getColDataType().getDataType().toLowerCase(Locale.ROOT);
            }
        }
        return null;
    }

    /** PostgreSQL's internal name of a type, by JSqlParser's literal type name or by kind. */
    private static String typeName(String literal, TypeKind kind) {
        if (literal != null) return literal.equals("TIMESTAMP") ? "timestamp" : literal.equals("TIME") ? "time" : "date";
        switch (kind) {
            case SMALLINT: return "int2";
            case INTEGER: return "int4";
            case BIGINT: return "int8";
            case DECIMAL: return "numeric";
            case REAL: return "float4";
            case DOUBLE: return "float8";
            case BOOLEAN: return "bool";
            case CHAR: return "bpchar";
            case VARCHAR: return "varchar";
            case TEXT: return "text";
            case BLOB: return "bytea";
            case DATE: return "date";
            case TIME: return "time";
            default: return "timestamp";
        }
    }

    /** {@code TRUE} or {@code FALSE}, which JSqlParser may read as a column. */
    private static boolean isBoolean(Column column) {
        return column.getTable() == null && (column.getColumnName().equalsIgnoreCase("true")
                || column.getColumnName().equalsIgnoreCase("false"));
    }

    /** A name as PostgreSQL keeps it: unquoted ones folded to lower case, quoted ones as written. */
    private static String folded(String name) {
        if (name.length() > 1 && name.startsWith("\"") && name.endsWith("\"")) return name.substring(1, name.length() - 1);
        return name.toLowerCase(Locale.ROOT);
    }
}
