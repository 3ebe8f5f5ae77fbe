package org.shepherd.translator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.merge.MergeInsert;
import net.sf.jsqlparser.statement.merge.MergeOperation;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;
import net.sf.jsqlparser.statement.upsert.Upsert;

import org.shepherd.translator.SchemaCatalog.ColumnType;
import org.shepherd.translator.dialect.Dialect;
import org.shepherd.translator.dialect.Dialect.TypeKind;

/**
 * Columns whose DEFAULT reads the clock ({@code created TIMESTAMP DEFAULT CURRENT_TIMESTAMP}). Each replica would
 * evaluate such a default for itself, at its own moment, and the replicas' rows would differ. So the translator names
 * the column in every INSERT that leaves it out, or gives it {@code DEFAULT}, with the clock function the default
 * reads; that function is then pinned like a {@code CURRENT_TIMESTAMP} the client wrote (one value per statement,
 * bound on every replica and kept in the write-ahead log). The defaults stay in the replicas' DDL, so that the catalog
 * learns them again from the primary's metadata after a restart.
 *
 * <p>ALTER TABLE ... ADD COLUMN with such a default would fill the existing rows with each replica's own time: the
 * column is added with one time, read at translation, as its DEFAULT, then given the clock ({@link DdlRenderer#alter});
 * among other changes of one ALTER TABLE, every engine runs them one by one ({@link DdlRenderer#changes}). What cannot be
 * rewritten is refused (0A000): an INSERT ... SELECT whose select is not a plain one and a MERGE whose INSERT has no
 * column list. MySQL's REPLACE gets the same treatment as INSERT.
 *
 * <p>MySQL's {@code ON UPDATE CURRENT_TIMESTAMP} likewise: every UPDATE (and ON DUPLICATE KEY UPDATE) that does not set
 * such a column gets {@code column = CURRENT_TIMESTAMP}, pinned. MySQL sets it only when the row's values change; here
 * every matched row gets it. The clause stays in MySQL replicas' DDL (the catalog reads it back from
 * information_schema) and is left out elsewhere. An UPDATE that joins tables must set the column itself.
 */
final class ClockDefaults {

    /** A clock expression: a name, optionally with an empty or numeric argument list ({@code CURRENT_TIMESTAMP(6)}). */
    private static final Pattern CALL_ARGUMENTS = Pattern.compile("\\(\\s*\\d*\\s*\\)$");
    /** The argument list of a clock call as a token of its own ({@code DEFAULT CURRENT_TIMESTAMP (6)}). */
    private static final Pattern ARGUMENTS = Pattern.compile("\\(\\s*\\d*\\s*\\)");

    private ClockDefaults() {
    }

    /**
     * The clock a DEFAULT expression reads (as a column definition or {@link java.sql.DatabaseMetaData#getColumns}'s
     * COLUMN_DEF spells it: {@code CURRENT_TIMESTAMP}, {@code current_timestamp(6)}, {@code CURRENT TIMESTAMP},
     * {@code NOW()}, {@code LOCALTIMESTAMP}, {@code CURRENT_DATE}, {@code curdate()}, ...), or null when it reads none.
     * {@code client} decides what LOCALTIME means (null: a time of day).
     */
    static TypeKind ofExpression(String expression, Dialect client) {
        if (expression == null) return null;
        String e = expression.strip();
        while (e.length() >= 2 && e.charAt(0) == '(' && e.charAt(e.length() - 1) == ')') {
            e = e.substring(1, e.length() - 1).strip();
        }
        boolean call = CALL_ARGUMENTS.matcher(e).find();
        e = CALL_ARGUMENTS.matcher(e).replaceFirst("").strip().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        switch (e) {
            case "CURRENT_TIMESTAMP":
            case "CURRENT TIMESTAMP":
            case "LOCALTIMESTAMP":
                return TypeKind.TIMESTAMP;
            case "NOW":
                return call || client == Dialect.HSQLDB ? TypeKind.TIMESTAMP : null; // HSQLDB's NOW needs no parentheses
            case "CURRENT_DATE":
            case "CURRENT DATE":
                return TypeKind.DATE;
            case "CURDATE":
                return call ? TypeKind.DATE : null;
            case "CURRENT_TIME":
            case "CURRENT TIME":
                return TypeKind.TIME;
            case "CURTIME":
                return call ? TypeKind.TIME : null;
            case "LOCALTIME":
                return client != null && client.localtimeIsTimestamp() ? TypeKind.TIMESTAMP : TypeKind.TIME;
            default:
                return null;
        }
    }

    /** The clock a column definition's DEFAULT reads ({@code specs} as JSqlParser splits them), or null. */
    static TypeKind ofSpecs(List<String> specs, Dialect client) {
        int at = defaultIndex(specs);
        if (at < 0 || at + 1 >= specs.size()) return null;
        String expression = specs.get(at + 1);
        if (at + 2 < specs.size() && ARGUMENTS.matcher(specs.get(at + 2)).matches()) expression += specs.get(at + 2);
        return ofExpression(expression, client);
    }

    /** The clock of a column definition's MySQL {@code ON UPDATE} clause ({@code specs} as JSqlParser splits them), or null. */
    static TypeKind onUpdateOfSpecs(List<String> specs, Dialect client) {
        int[] clause = onUpdateClause(specs);
        return clause == null ? null : ofExpression(String.join("", specs.subList(clause[0] + 2, clause[1])), client);
    }

    /** The tokens of {@code specs}'s ON UPDATE clause: its start and its end (exclusive), or null when it has none. */
    static int[] onUpdateClause(List<String> specs) {
        int at = onUpdateIndex(specs);
        if (at < 0 || at + 2 >= specs.size()) return null;
        int end = at + 3;
        if (end < specs.size() && ARGUMENTS.matcher(specs.get(end)).matches()) end++;
        return new int[] {at, end};
    }

    private static int onUpdateIndex(List<String> specs) {
        if (specs == null) return -1;
        for (int i = 0; i + 1 < specs.size(); i++) {
            if (specs.get(i).equalsIgnoreCase("ON") && specs.get(i + 1).equalsIgnoreCase("UPDATE")) return i;
        }
        return -1;
    }

    /**
     * The column definition tokens without a clock DEFAULT (the DEFAULT keyword and its expression), or {@code specs}
     * itself when its default is not the clock.
     */
    static List<String> withoutClockDefault(List<String> specs, Dialect client) {
        if (ofSpecs(specs, client) == null) return specs;
        int at = defaultIndex(specs);
        List<String> out = new ArrayList<>(specs.subList(0, at));
        int next = at + 2;
        if (next < specs.size() && ARGUMENTS.matcher(specs.get(next)).matches()) next++;
        out.addAll(specs.subList(next, specs.size()));
        return out;
    }

    private static int defaultIndex(List<String> specs) {
        if (specs == null) return -1;
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).equalsIgnoreCase("DEFAULT")) return i;
        }
        return -1;
    }

    /**
     * Refuses what cannot be made deterministic and names every clock-default column the statement would leave to the
     * replicas: see the class comment. {@code st} is changed in place; the catalog says which tables have such columns
     * (a table it does not know is left as written).
     */
    static void fillIn(Statement st, SchemaCatalog catalog, Dialect client) {
        if (st instanceof Insert insert) {
            if (insert.getDuplicateUpdateSets() != null && !insert.getDuplicateUpdateSets().isEmpty()) {
                // MySQL's ON DUPLICATE KEY UPDATE updates the row that was there: its ON UPDATE columns as an UPDATE's
                setOnUpdate(insert.getDuplicateUpdateSets(), onUpdateClocks(catalog, insert.getTable().getFullyQualifiedName()));
            }
            Map<String, ClockDefault> clocks = clocks(catalog, insert.getTable().getFullyQualifiedName());
            if (clocks.isEmpty()) return;
            if (insert.isOnlyDefaultValues()) {
                insert.setOnlyDefaultValues(false);
                insert.setColumns(new ExpressionList<>());
                ExpressionList<Expression> row = new ParenthesedExpressionList<>();
                insert.setSelect(new Values(row));
                addMissing(insert.getColumns(), insert.getSelect(), clocks, insert.getTable().getName());
                return;
            }
            fillIn(insert.getColumns(), insert.getSelect(), clocks, columnOrder(catalog, insert.getTable().getFullyQualifiedName()),
                    insert.getTable().getName());
        } else if (st instanceof Update update) {
            Map<String, ClockDefault> clocks = clocks(catalog, update.getTable().getFullyQualifiedName());
            if (update.getUpdateSets() == null) return;
            for (UpdateSet set : update.getUpdateSets()) {
                for (int i = 0; i < set.getColumns().size() && i < set.getValues().size(); i++) {
                    ClockDefault clock = clocks.get(SchemaCatalog.key(set.getColumns().get(i).getColumnName()));
                    if (clock != null && isDefault(set.getValues().get(i))) setValue(set, i, expression(clock));
                }
            }
            Map<String, ClockDefault> onUpdate = onUpdateClocks(catalog, update.getTable().getFullyQualifiedName());
            if (onUpdate.isEmpty()) return;
            if (update.getJoins() != null && !update.getJoins().isEmpty() || update.getStartJoins() != null
                    && !update.getStartJoins().isEmpty() || update.getFromItem() != null) {
                refuseJoinedOnUpdate(update, onUpdate);
                return;
            }
            setOnUpdate(update.getUpdateSets(), onUpdate);
        } else if (st instanceof Upsert upsert) { // MySQL's REPLACE: a new row, whose clock default is filled like an INSERT's
            Map<String, ClockDefault> clocks = clocks(catalog, upsert.getTable().getFullyQualifiedName());
            if (clocks.isEmpty()) return;
            fillIn(upsert.getColumns(), upsert.getSelect(), clocks, columnOrder(catalog, upsert.getTable().getFullyQualifiedName()),
                    upsert.getTable().getName());
        } else if (st instanceof Merge merge) {
            fillInMerge(merge, catalog);
        }
    }

    /**
     * Sets every column of {@code onUpdate} that {@code sets} does not to its clock, as MySQL's {@code ON UPDATE
     * CURRENT_TIMESTAMP} would have on each replica at its own time (MySQL does so only when the row's values change;
     * here the column is set by every UPDATE that matches the row).
     */
    private static void setOnUpdate(List<UpdateSet> sets, Map<String, ClockDefault> onUpdate) {
        for (ClockDefault clock : onUpdate.values()) {
            if (!sets(sets, clock)) sets.add(new UpdateSet(new Column(clock.column()), expression(clock)));
        }
    }

    private static boolean sets(List<UpdateSet> sets, ClockDefault clock) {
        String key = SchemaCatalog.key(clock.column());
        return sets.stream().flatMap(s -> s.getColumns().stream()).anyMatch(c -> SchemaCatalog.key(c.getColumnName()).equals(key));
    }

    /** An UPDATE of several tables (MySQL's joins) leaves an ON UPDATE column to the replicas unless it sets it. */
    private static void refuseJoinedOnUpdate(Update update, Map<String, ClockDefault> onUpdate) {
        for (ClockDefault clock : onUpdate.values()) {
            if (!sets(update.getUpdateSets(), clock)) {
                throw TranslationException.unsupported("An UPDATE that joins tables leaves column " + clock.column() + " of "
                        + update.getTable().getName() + " (ON UPDATE CURRENT_TIMESTAMP) to each replica's clock; set it in the"
                        + " statement (SET " + clock.column() + " = CURRENT_TIMESTAMP, which Shepherd pins)");
            }
        }
    }

    private static void fillInMerge(Merge merge, SchemaCatalog catalog) {
        Map<String, ClockDefault> clocks = clocks(catalog, merge.getTable().getFullyQualifiedName());
        if (clocks.isEmpty()) return;
        List<MergeOperation> operations = new ArrayList<>();
        if (merge.getOperations() != null) operations.addAll(merge.getOperations());
        for (MergeOperation op : operations) {
            if (!(op instanceof MergeInsert insert)) continue;
            if (insert.getColumns() == null) {
                throw TranslationException.unsupported("MERGE ... INSERT without a column list into " + merge.getTable().getName()
                        + ", whose column " + clocks.values().iterator().next().column() + " defaults to the clock; name the"
                        + " columns");
            }
            for (ClockDefault clock : clocks.values()) {
                int at = indexOf(insert.getColumns(), clock);
                if (at < 0) {
                    insert.getColumns().add(new Column(clock.column()));
                    insert.getValues().add(expression(clock));
                } else if (at < insert.getValues().size() && isDefault(insert.getValues().get(at))) {
                    insert.getValues().set(at, expression(clock));
                }
            }
        }
    }

    /** INSERT (columns) VALUES / SELECT, or INSERT VALUES without columns. */
    private static void fillIn(ExpressionList<Column> columns, Select select, Map<String, ClockDefault> clocks,
            List<String> order, String table) {
        if (columns == null) {
            // every column is given by position: only a DEFAULT among VALUES leaves one to the replica
            if (!(select instanceof Values values)) return;
            for (ExpressionList<Expression> row : rows(values)) {
                for (int i = 0; i < row.size(); i++) {
                    if (!isDefault(row.get(i))) continue;
                    if (order == null || order.size() != row.size()) {
                        throw TranslationException.unsupported("INSERT INTO " + table + " VALUES (..., DEFAULT, ...) without a"
                                + " column list: name the columns, so that Shepherd can give the clock defaults of "
                                + String.join(", ", clocks.values().stream().map(ClockDefault::column).toList())
                                + " one time on every replica");
                    }
                    ClockDefault clock = clocks.get(order.get(i));
                    if (clock != null) row.set(i, expression(clock));
                }
            }
            return;
        }
        for (ClockDefault clock : clocks.values()) {
            int at = indexOf(columns, clock);
            if (at >= 0 && select instanceof Values values) {
                for (ExpressionList<Expression> row : rows(values)) {
                    if (at < row.size() && isDefault(row.get(at))) row.set(at, expression(clock));
                }
            }
        }
        addMissing(columns, select, clocks, table);
    }

    private static void addMissing(ExpressionList<Column> columns, Select select, Map<String, ClockDefault> clocks, String table) {
        for (ClockDefault clock : clocks.values()) {
            if (indexOf(columns, clock) >= 0) continue;
            if (select instanceof Values values) {
                columns.add(new Column(clock.column()));
                for (ExpressionList<Expression> row : rows(values)) row.add(expression(clock));
            } else if (select instanceof PlainSelect plain && plain.getSelectItems().stream()
                    .noneMatch(item -> item.getExpression() instanceof AllColumns)) {
                columns.add(new Column(clock.column()));
                plain.addSelectItems(SelectItem.from(expression(clock)));
            } else {
                throw TranslationException.unsupported("INSERT INTO " + table + " ... " + (select == null ? "" : "SELECT ")
                        + "leaves column " + clock.column() + ", whose default reads the clock, to each replica; name it"
                        + " and give it CURRENT_TIMESTAMP (or CURRENT_DATE, CURRENT_TIME) in the "
                        + (select instanceof PlainSelect ? "select list instead of *" : "statement"));
            }
        }
    }

    /** The rows of a VALUES list: one parenthesized list, or a list of them. */
    @SuppressWarnings("unchecked")
    static List<ExpressionList<Expression>> rows(Values values) {
        ExpressionList<?> expressions = values.getExpressions();
        List<ExpressionList<Expression>> rows = new ArrayList<>();
        if (expressions instanceof ParenthesedExpressionList) {
            rows.add((ExpressionList<Expression>) expressions);
            return rows;
        }
        for (Object row : expressions) {
            if (!(row instanceof ExpressionList)) {
                // a one-column VALUES written without parentheses around each row: VALUES 1, 2
                throw TranslationException.unsupported("Write each row of VALUES in parentheses: VALUES (1), (2)");
            }
            rows.add((ExpressionList<Expression>) row);
        }
        return rows;
    }

    /** A column whose DEFAULT reads the clock of type {@code kind}, named {@code column} as a statement writes it. */
    private record ClockDefault(TypeKind kind, String column) {
    }

    private static Map<String, ClockDefault> clocks(SchemaCatalog catalog, String table) {
        return clocks(catalog, table, ColumnType::clockDefault);
    }

    private static Map<String, ClockDefault> onUpdateClocks(SchemaCatalog catalog, String table) {
        return clocks(catalog, table, ColumnType::clockOnUpdate);
    }

    /** The columns of {@code table} with a clock {@code which} says (null: none), by key. */
    private static Map<String, ClockDefault> clocks(SchemaCatalog catalog, String table, Function<ColumnType, TypeKind> which) {
        Map<String, ColumnType> columns = catalog.columns(table);
        Map<String, ClockDefault> clocks = new LinkedHashMap<>();
        if (columns == null) return clocks;
        columns.forEach((name, type) -> {
            TypeKind clock = which.apply(type);
            if (clock != null) clocks.put(name, new ClockDefault(clock, type.sqlName() != null ? type.sqlName() : name));
        });
        return clocks;
    }

    /** The table's columns in declaration order (upper-case), or null when the catalog does not know them all. */
    private static List<String> columnOrder(SchemaCatalog catalog, String table) {
        Map<String, ColumnType> columns = catalog.columns(table);
        return columns == null ? null : List.copyOf(columns.keySet());
    }

    private static int indexOf(ExpressionList<Column> columns, ClockDefault clock) {
        String key = SchemaCatalog.key(clock.column());
        for (int i = 0; i < columns.size(); i++) {
            if (SchemaCatalog.key(columns.get(i).getColumnName()).equals(key)) return i;
        }
        return -1;
    }

    private static boolean isDefault(Expression e) {
        return e instanceof Column c && c.getTable() == null && "DEFAULT".equalsIgnoreCase(c.getColumnName());
    }

    @SuppressWarnings("unchecked")
    private static void setValue(UpdateSet set, int i, Expression value) {
        ((ExpressionList<Expression>) set.getValues()).set(i, value);
    }

    /** The clock function the translator pins, for a default of that clock. */
    private static Expression expression(ClockDefault clock) {
        switch (clock.kind()) {
            case DATE: return new DefaultClock("CURRENT_DATE");
            case TIME: return new DefaultClock("CURRENT_TIME");
            default: return new DefaultClock("CURRENT_TIMESTAMP");
        }
    }

    /**
     * The clock a column's DEFAULT reads, named by the translator in the statement: pinned at microseconds, for every
     * client (a MySQL client's own {@code CURRENT_TIMESTAMP} gives whole seconds, as MySQL's does).
     */
    static final class DefaultClock extends TimeKeyExpression {
        DefaultClock(String name) {
            super(name);
        }
    }
}
