package org.shepherd.translator;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import net.sf.jsqlparser.expression.Alias;

import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExtractExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.JdbcNamedParameter;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.MySQLGroupConcat;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.TranscodingFunction;
import net.sf.jsqlparser.expression.TrimFunction;
import net.sf.jsqlparser.expression.WhenClause;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Concat;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.IntegerDivision;
import net.sf.jsqlparser.expression.operators.arithmetic.Modulo;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.conditional.XorExpression;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.IsDistinctExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.RegExpMatchOperator;
import net.sf.jsqlparser.expression.operators.relational.SimilarToExpression;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.create.table.ColDataType;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.update.UpdateSet;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.Distinct;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.Fetch;
import net.sf.jsqlparser.statement.select.ForMode;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.Offset;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperation;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.UnionOp;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.util.deparser.ExpressionDeParser;
import net.sf.jsqlparser.util.deparser.SelectDeParser;
import net.sf.jsqlparser.util.deparser.StatementDeParser;

import org.shepherd.translator.dialect.Dialect;
import org.shepherd.translator.SchemaCatalog.ColumnType;
import org.shepherd.translator.dialect.Dialect.DecimalStore;
import org.shepherd.translator.dialect.Dialect.IntegerArithmetic;
import org.shepherd.translator.dialect.Dialect.ParameterPosition;
import org.shepherd.translator.dialect.Dialect.TypeKind;

/**
 * Renders a parsed query or DML statement for one target dialect: the JSqlParser deparsers with our overrides for
 * functions, operators, pinned values, ordering and row limits. Not thread-safe; the caller holds the statement's lock
 * (ordering rewrites swap fields of the AST and restore them before returning).
 */
final class Renderer {

    /** Per-statement registry of pinned slots, filled by the first (client-dialect) rendering and frozen after it. */
    static final class Pins {
        private final Map<Object, Integer> ids = new IdentityHashMap<>();
        private final List<PinnedSlot> slots = new ArrayList<>();
        private boolean frozen;

        int idFor(Object node, PinnedSlot.Kind kind, String source) {
            return idFor(node, kind, source, PinnedSlot.MICROSECOND_DIGITS);
        }

        int idFor(Object node, PinnedSlot.Kind kind, String source, int fractionDigits) {
            Integer id = ids.get(node);
            if (id == null) {
                if (frozen) {
                    throw new IllegalStateException("pinned value " + source + " appeared after the first rendering");
                }
                id = slots.size();
                slots.add(new PinnedSlot(kind, source, fractionDigits));
                ids.put(node, id);
            }
            return id;
        }

        void freeze() {
            frozen = true;
        }

        List<PinnedSlot> slots() {
            return List.copyOf(slots);
        }
    }

    private enum Numeric { INTEGER, NON_INTEGER, UNKNOWN }

    private static final long MYSQL_NO_LIMIT = Long.MAX_VALUE;

    private final Dialect client;
    private final Dialect target;
    private final Pins pins;
    private final SchemaCatalog catalog;
    /** The replicas mix PAD SPACE and NO PAD engines: what cannot be normalized is refused. */
    private final boolean mixedPadding;
    private final BitSet clientMarkers = new BitSet();
    /** See {@link #selectListMarkers()}. */
    private final BitSet selectListMarkers = new BitSet();
    /** The select lists whose rows an INSERT being rendered stores. */
    private final Set<PlainSelect> insertSources = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    /** Select lists an INSERT or a set operation gives their NULLs' types (or leaves them): no default type there. */
    private final Set<PlainSelect> nullsTypedByContext = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    /** Subqueries in expressions being rendered (they may be correlated, so no derived table is put around them). */
    private int expressionSubqueries;
    /** Names of WITH queries seen so far (upper case): a FROM item of that name is not the catalog's table. */
    private final Set<String> commonTableNames = new HashSet<>();
    /** The tables visible to column references, innermost query first. */
    private final Deque<List<ScopeTable>> scopes = new ArrayDeque<>();
    /** {@code ?}s rendered as a DECIMAL of this many places ({@link #typeParametersBesideDecimal}). */
    private final Map<JdbcParameter, Integer> wideParameters = new IdentityHashMap<>();

    /** A FROM item a column may belong to: its name or alias, and its columns (null: unknown). */
    private record ScopeTable(String name, String tableName, Map<String, ColumnType> columns) {
    }

    Renderer(Dialect client, Dialect target, Pins pins, SchemaCatalog catalog, boolean mixedPadding) {
        this.client = client;
        this.target = target;
        this.pins = pins;
        this.catalog = catalog;
        this.mixedPadding = mixedPadding;
    }

    /** {@code render}'s text, the tree marked by {@link StoredDecimal#mark} put back after it ({@code unmark}). */
    private static StringBuilder withStoredDecimals(List<Runnable> unmark, Supplier<StringBuilder> render) {
        try {
            return render.get();
        } finally {
            unmark.forEach(Runnable::run);
        }
    }

    /** Client markers seen by the last rendering (bit k set for '?' number k). */
    BitSet clientMarkers() {
        return clientMarkers;
    }

    /**
     * The client markers that stand alone as an item of a select list (not an INSERT's): {@code SELECT ?, id FROM t}.
     * Derby refuses such a marker (42X34) and HSQLDB types it VARCHAR whatever is bound: on engines that type a marker
     * from its place ({@link Dialect#parameterTakesOperandType}) {@link Bound} casts it to the type of its value; bound
     * to NULL it is a VARCHAR(1) on every engine (MySQL and MariaDB would answer a column of type NULL, PostgreSQL one
     * of the type the driver sent).
     */
    BitSet selectListMarkers() {
        return selectListMarkers;
    }

    String render(Statement statement) {
        StringBuilder buffer = new StringBuilder(128);
        Expr expr = new Expr();
        Sel sel = new Sel();
        StatementDeParser deParser = new StatementDeParser(expr, sel, buffer) {
            @Override
            public <S> StringBuilder visit(Update update, S context) {
                refuseAssignmentOrderDifference(update);
                List<ScopeTable> scope = new ArrayList<>();
                addToScope(scope, update.getTable());
                addToScope(scope, update.getStartJoins());
                addToScope(scope, update.getFromItem());
                addToScope(scope, update.getJoins());
                scopes.push(scope);
                List<Runnable> unmark = StoredDecimal.mark(update, catalog);
                try {
                    return withJoinsRendered(update.getStartJoins(), buffer, expr, () -> super.visit(update, context));
                } finally {
                    unmark.forEach(Runnable::run);
                    scopes.pop();
                }
            }

            @Override
            public <S> StringBuilder visit(Insert insert, S context) {
                List<Runnable> untyped = typeInsertedNulls(insert);
                try {
                    return withStoredDecimals(StoredDecimal.mark(insert, catalog), () -> super.visit(insert, context));
                } finally {
                    untyped.forEach(Runnable::run);
                }
            }

            @Override
            public <S> StringBuilder visit(Merge merge, S context) {
                return withStoredDecimals(StoredDecimal.mark(merge, catalog), () -> super.visit(merge, context));
            }

            @Override
            public <S> StringBuilder visit(Delete delete, S context) {
                List<ScopeTable> scope = new ArrayList<>();
                addToScope(scope, delete.getTable());
                if (delete.getUsingList() != null) {
                    delete.getUsingList().forEach(t -> addToScope(scope, t));
                }
                addToScope(scope, delete.getJoins());
                scopes.push(scope);
                try {
                    return withJoinsRendered(delete.getJoins(), buffer, expr, () -> super.visit(delete, context));
                } finally {
                    scopes.pop();
                }
            }
        };
        statement.accept(deParser, null);
        return buffer.toString();
    }

    /**
     * Runs {@code render} with the ON conditions of {@code joins} (MySQL's multi-table DELETE and UPDATE, which JSqlParser's
     * deparsers print as written, markers unnumbered) rendered by {@code expr} beforehand, each held for the time as a
     * name the deparser prints as it is; then puts them back.
     */
    private static StringBuilder withJoinsRendered(List<Join> joins, StringBuilder buffer, Expr expr,
            java.util.function.Supplier<StringBuilder> render) {
        List<Runnable> undo = new ArrayList<>();
        try {
            if (joins != null) {
                for (Join j : joins) {
                    Collection<Expression> on = j.getOnExpressions();
                    if (on == null || on.isEmpty()) continue;
                    List<Expression> original = new ArrayList<>(on);
                    List<Expression> rendered = new ArrayList<>();
                    for (Expression e : original) {
                        int start = buffer.length();
                        e.accept(expr, null);
                        rendered.add(new Column(buffer.substring(start)));
                        buffer.setLength(start);
                    }
                    j.setOnExpressions(rendered);
                    undo.add(() -> j.setOnExpressions(original));
                }
            }
            return render.get();
        } finally {
            undo.forEach(Runnable::run);
        }
    }

    /**
     * MySQL and MariaDB give an assignment of an UPDATE the new value of a column set before it in the same SET ({@code
     * SET s = 'x', t = s} stores 'x' in t); the standard, and the other engines, the old one. When the client's family
     * and this target's differ, such an UPDATE would store different values without a different update count (found by
     * the generated corpus): refused.
     */
    private void refuseAssignmentOrderDifference(Update update) {
        if ((client.family() == Dialect.Family.MYSQL) == (target.family() == Dialect.Family.MYSQL) || update.getUpdateSets() == null) {
            return;
        }
        Set<String> assigned = new HashSet<>();
        for (UpdateSet set : update.getUpdateSets()) {
            for (Expression value : set.getValues()) {
                for (String read : columnsRead(value)) {
                    if (assigned.contains(read)) {
                        throw TranslationException.unsupported("UPDATE ... SET: an assignment reads " + read + ", which the same SET"
                                + " assigns before it; MySQL and MariaDB read its new value there, the other engines its old one,"
                                + " and the replicas mix both: assign " + read + " last, or use two UPDATE statements");
                    }
                }
            }
            for (Column c : set.getColumns()) assigned.add(SchemaCatalog.key(c.getColumnName()));
        }
    }

    /** The expression holds a {@code ?}. */
    private static boolean holdsMarker(Expression e) {
        boolean[] found = new boolean[1];
        e.accept(new net.sf.jsqlparser.expression.ExpressionVisitorAdapter<Void>() {
            @Override
            public <S> Void visit(JdbcParameter parameter, S context) {
                found[0] = true;
                return null;
            }
        }, null);
        return found[0];
    }

    /** The names of the columns an expression reads (subqueries aside). */
    private static Set<String> columnsRead(Expression e) {
        Set<String> names = new HashSet<>();
        e.accept(new net.sf.jsqlparser.expression.ExpressionVisitorAdapter<Void>() {
            @Override
            public <S> Void visit(Column column, S context) {
                names.add(SchemaCatalog.key(column.getColumnName()));
                return null;
            }
        }, null);
        return names;
    }

    /**
     * {@code CAST(NULL AS type)} in the target's words, as a node the deparser prints as it is (a name: the type is the
     * target's already, which a CastExpression would read again as the client's).
     */
    private Column typedNull(TypeKind kind, int length, int scale) {
        return new Column("CAST(NULL AS " + target.castType(kind, length, scale) + ")");
    }

    private static boolean isBareNull(Expression e) {
        return unparenthesized(e) instanceof NullValue;
    }

    /** Sets select item {@code item} to {@code value} until the returned action puts the old one back. */
    private static Runnable replaceItem(SelectItem<?> item, Expression value) {
        @SuppressWarnings("unchecked")
        SelectItem<Expression> typed = (SelectItem<Expression>) item;
        Expression old = typed.getExpression();
        typed.setExpression(value);
        return () -> typed.setExpression(old);
    }

    /**
     * An INSERT ... SELECT's NULLs: on an engine that refuses an untyped NULL there (Derby), each gets the type of the
     * column it fills, as the catalog knows it. Its select lists are typed by the INSERT (or left), never by default.
     */
    private List<Runnable> typeInsertedNulls(Insert insert) {
        List<Runnable> undo = new ArrayList<>();
        List<PlainSelect> sources = new ArrayList<>();
        if (insert.getSelect() instanceof PlainSelect p) {
            sources.add(p);
        } else if (insert.getSelect() instanceof SetOperationList u) {
            u.getSelects().stream().filter(b -> b instanceof PlainSelect).forEach(b -> sources.add((PlainSelect) b));
        }
        for (PlainSelect source : sources) {
            if (nullsTypedByContext.add(source)) undo.add(() -> nullsTypedByContext.remove(source));
            if (insertSources.add(source)) undo.add(() -> insertSources.remove(source));
        }
        Map<String, ColumnType> columns = catalog == null || insert.getTable() == null ? null
                : catalog.columns(insert.getTable().getFullyQualifiedName());
        if (!target.refusesUntypedNull() || columns == null || columns.isEmpty()) return undo;
        List<String> names = new ArrayList<>();
        if (insert.getColumns() != null) {
            insert.getColumns().forEach(c -> names.add(c.getColumnName()));
        } else {
            names.addAll(columns.keySet());
        }
        for (PlainSelect source : sources) {
            List<SelectItem<?>> items = source.getSelectItems();
            if (items.size() != names.size()) continue;
            for (int i = 0; i < items.size(); i++) {
                ColumnType type = columns.get(SchemaCatalog.key(names.get(i)));
                if (type != null && isBareNull(items.get(i).getExpression())) {
                    undo.add(replaceItem(items.get(i), typedNull(type.kind(), type.length(), type.scale())));
                }
            }
        }
        return undo;
    }

    /**
     * A set operation's NULLs: on an engine that refuses an untyped NULL (Derby), a NULL in a branch gets the type of
     * another branch's item at its place, where that type is known (a column of a known table, a string or an integer
     * written out). The branches are typed here (or left), never by default: a default type would change the
     * operation's type on the other engines.
     */
    private List<Runnable> typeSetOperationNulls(SetOperationList operation) {
        List<Runnable> undo = new ArrayList<>();
        List<PlainSelect> branches = new ArrayList<>();
        for (Select b : operation.getSelects()) {
            if (b instanceof PlainSelect p) branches.add(p);
        }
        for (PlainSelect b : branches) {
            if (nullsTypedByContext.add(b)) undo.add(() -> nullsTypedByContext.remove(b));
        }
        if (!target.refusesUntypedNull() || branches.size() != operation.getSelects().size()) return undo;
        int width = branches.get(0).getSelectItems().size();
        if (branches.stream().anyMatch(b -> b.getSelectItems().size() != width)) return undo;
        for (int i = 0; i < width; i++) {
            int at = i;
            if (branches.stream().noneMatch(b -> isBareNull(b.getSelectItems().get(at).getExpression()))) continue;
            Column typed = null;
            for (PlainSelect b : branches) {
                Expression e = b.getSelectItems().get(i).getExpression();
                if (!isBareNull(e) && typed == null) typed = typedNullLike(b, e);
            }
            if (typed == null) continue;
            for (PlainSelect b : branches) {
                if (isBareNull(b.getSelectItems().get(i).getExpression())) undo.add(replaceItem(b.getSelectItems().get(i), typed));
            }
        }
        return undo;
    }

    /** A NULL of the type of {@code e}, an item of {@code branch}'s select list, or null when the type is not known. */
    private Column typedNullLike(PlainSelect branch, Expression e) {
        Expression inner = unparenthesized(e);
        if (inner instanceof StringValue v) return typedNull(TypeKind.VARCHAR, Math.max(1, v.getValue().length()), 0);
        if (inner instanceof LongValue) return typedNull(TypeKind.BIGINT, 0, 0);
        List<ScopeTable> scope = new ArrayList<>();
        addToScope(scope, branch.getFromItem());
        addToScope(scope, branch.getJoins());
        scopes.push(scope);
        try {
            ColumnType type = typeOf(inner);
            return type == null ? null : typedNull(type.kind(), type.length(), type.scale());
        } finally {
            scopes.pop();
        }
    }

    /** Notes the markers that stand alone in {@code select}'s list ({@link #selectListMarkers()}). */
    private void noteSelectListMarkers(PlainSelect select) {
        if (insertSources.contains(select) || select.getSelectItems() == null) return;
        for (SelectItem<?> item : select.getSelectItems()) {
            if (unparenthesized(item.getExpression()) instanceof JdbcParameter p && p.getIndex() != null) {
                selectListMarkers.set(p.getIndex());
            }
        }
    }

    /**
     * The NULLs written out in a select list that no INSERT or set operation types: a VARCHAR(1) on Derby (which
     * refuses them untyped) and on MySQL and MariaDB, which give such a column a type of its own, NULL, where the
     * others answer a VARCHAR or text (the voter compares the columns' types).
     */
    private List<Runnable> typeSelectedNulls(PlainSelect select) {
        List<Runnable> undo = new ArrayList<>();
        if (!target.refusesUntypedNull() && target.family() != Dialect.Family.MYSQL || nullsTypedByContext.contains(select)
                || select.getSelectItems() == null) {
            return undo;
        }
        for (SelectItem<?> item : select.getSelectItems()) {
            if (isBareNull(item.getExpression())) undo.add(replaceItem(item, typedNull(TypeKind.VARCHAR, 1, 0)));
        }
        return undo;
    }

    private void addToScope(List<ScopeTable> scope, List<Join> joins) {
        if (joins != null) {
            for (Join j : joins) {
                addToScope(scope, j.getFromItem());
            }
        }
    }

    private void addToScope(List<ScopeTable> scope, FromItem item) {
        if (item == null) {
            return;
        }
        String alias = item.getAlias() == null ? null : SchemaCatalog.unquoted(item.getAlias().getName());
        if (item instanceof Table) {
            Table t = (Table) item;
            String name = SchemaCatalog.unquoted(t.getName());
            boolean commonTable = t.getSchemaName() == null && commonTableNames.contains(SchemaCatalog.key(name));
            scope.add(new ScopeTable(alias != null ? alias : name, alias != null ? null : name,
                    catalog == null || commonTable ? null : catalog.columns(t.getFullyQualifiedName())));
        } else if (item instanceof ParenthesedFromItem && alias == null) {
            addToScope(scope, ((ParenthesedFromItem) item).getFromItem());
            addToScope(scope, ((ParenthesedFromItem) item).getJoins());
        } else if (item instanceof ParenthesedSelect && alias != null) {
            scope.add(new ScopeTable(alias, null, derivedColumns(((ParenthesedSelect) item).getSelect())));
        } else {
            scope.add(new ScopeTable(alias, null, null));
        }
    }

    /** A column of a derived table whose type is not known (it still belongs to that table). */
    private static final ColumnType UNKNOWN_TYPE = new ColumnType(null, 0, 0);

    /**
     * The columns of a derived table, named as its (first) query's items: a column keeps its catalog type, a string
     * expression of a VARCHAR column is VARCHAR, anything else is of unknown type. Null when a name is not visible.
     */
    private Map<String, ColumnType> derivedColumns(Select select) {
        Select first = select instanceof SetOperationList ? ((SetOperationList) select).getSelect(0) : select;
        if (!(first instanceof PlainSelect)) {
            return null;
        }
        PlainSelect plain = (PlainSelect) first;
        Map<String, ColumnType> columns = new HashMap<>();
        List<ScopeTable> scope = new ArrayList<>();
        addToScope(scope, plain.getFromItem());
        addToScope(scope, plain.getJoins());
        scopes.push(scope);
        try {
            for (SelectItem<?> item : plain.getSelectItems()) {
                Expression e = item.getExpression();
                String name;
                if (item.getAlias() != null) {
                    name = item.getAlias().getName();
                } else if (e instanceof Column) {
                    name = ((Column) e).getColumnName();
                } else {
                    return null;
                }
                ColumnType type = typeOf(e);
                if (type == null && isVarchar(e)) {
                    type = new ColumnType(TypeKind.VARCHAR, 0, 0);
                }
                columns.put(SchemaCatalog.key(name), type == null ? UNKNOWN_TYPE : type);
            }
        } finally {
            scopes.pop();
        }
        return columns;
    }

    /** The catalog's type of a column reference (through parentheses), or null when unknown or not a column. */
    private ColumnType typeOf(Expression e) {
        Expression inner = unparenthesized(e);
        if (!(inner instanceof Column) || scopes.isEmpty()) {
            return null;
        }
        Column c = (Column) inner;
        String name = SchemaCatalog.key(c.getColumnName());
        String qualifier = c.getTable() == null || c.getTable().getName() == null ? null
                : SchemaCatalog.unquoted(c.getTable().getName());
        for (List<ScopeTable> scope : scopes) {
            if (qualifier != null) {
                for (ScopeTable t : scope) {
                    if (qualifier.equalsIgnoreCase(t.name()) || qualifier.equalsIgnoreCase(t.tableName())) {
                        return t.columns() == null ? null : known(t.columns().get(name));
                    }
                }
                continue;
            }
            ColumnType found = null;
            int matches = 0;
            for (ScopeTable t : scope) {
                if (t.columns() == null) {
                    return null;
                }
                if (t.columns().containsKey(name)) {
                    found = t.columns().get(name);
                    matches++;
                }
            }
            if (matches == 1) {
                return known(found);
            }
            if (matches > 1) {
                return null;
            }
        }
        return null;
    }

    private static ColumnType known(ColumnType type) {
        return type == UNKNOWN_TYPE ? null : type;
    }

    private void registerCommonTables(Select select) {
        if (select.getWithItemsList() != null) {
            for (WithItem<?> w : select.getWithItemsList()) {
                if (w.getAliasName() != null) {
                    commonTableNames.add(SchemaCatalog.key(w.getAliasName()));
                }
            }
        }
    }

    private static Expression unparenthesized(Expression e) {
        Expression inner = e;
        while (inner instanceof ParenthesedExpressionList && ((ParenthesedExpressionList<?>) inner).size() == 1) {
            inner = (Expression) ((ParenthesedExpressionList<?>) inner).get(0);
        }
        return inner;
    }

    /** Functions whose result is a string of the kind of their first argument. */
    private static final Set<String> STRING_FUNCTIONS = Set.of("UPPER", "LOWER", "UCASE", "LCASE", "TRIM", "LTRIM", "RTRIM",
            "SUBSTR", "SUBSTRING", "MID", "LEFT", "RIGHT");
    /**
     * Functions whose result is a string longer than their first argument may be (so not a constant string of its
     * length, {@link #constantString}), a string whatever their arguments.
     */
    private static final Set<String> PADDING_FUNCTIONS = Set.of("LPAD", "RPAD", "REPLACE", "REPEAT");
    /** Functions whose result is one of their arguments (CONCAT: made of them). */
    private static final Set<String> VALUE_CHOOSERS = Set.of("COALESCE", "IFNULL", "NVL", "CONCAT");

    /** The values a CASE may take: its THENs and its ELSE. */
    private static List<Expression> caseResults(CaseExpression c) {
        List<Expression> results = new ArrayList<>();
        for (WhenClause w : c.getWhenClauses()) results.add(w.getThenExpression());
        if (c.getElseExpression() != null) results.add(c.getElseExpression());
        return results;
    }

    /**
     * A VARCHAR column of the catalog, or a string function, concatenation, COALESCE or CASE of one (a COALESCE or CASE
     * is VARCHAR when one of the values it may take is).
     */
    private boolean isVarchar(Expression e) {
        return isString(e, false);
    }

    /**
     * {@code e} is a string by the statement text and the catalog: {@link #isVarchar} when {@code literals} is false;
     * when true, string literals and parameters count too (an operand compared with a VARCHAR is then compared as a
     * string).
     */
    private boolean isString(Expression e, boolean literals) {
        Expression inner = unparenthesized(e);
        ColumnType type = typeOf(inner);
        if (type != null) {
            return type.isVarchar();
        }
        if (literals && (inner instanceof StringValue || inner instanceof JdbcParameter)) {
            return true;
        }
        if (inner instanceof Concat) {
            Concat c = (Concat) inner;
            return literals ? isString(c.getLeftExpression(), true) && isString(c.getRightExpression(), true)
                    : isVarchar(c.getLeftExpression()) || isVarchar(c.getRightExpression());
        }
        if (inner instanceof TrimFunction) {
            return plainTrim(inner) && isString(((TrimFunction) inner).getExpression(), literals);
        }
        if (inner instanceof CaseExpression) {
            return anyString(caseResults((CaseExpression) inner), literals);
        }
        if (inner instanceof CastExpression cast) {
            // CAST(x AS VARCHAR(n)) is a VARCHAR (Derby compared SUBSTR('a b', 1, 2) IN (CAST(... AS VARCHAR(1)), 'a') PAD SPACE)
            try {
                TypeKind kind = SqlTypes.parse(cast.getColDataType().toString(), client).kind();
                return kind == TypeKind.VARCHAR || literals && kind == TypeKind.CHAR;
            } catch (TranslationException notPortable) {
                return false;
            }
        }
        if (inner instanceof Function && ((Function) inner).getParameters() != null && !((Function) inner).getParameters().isEmpty()) {
            List<Expression> args = arguments((Function) inner);
            String name = ((Function) inner).getName().toUpperCase(Locale.ROOT);
            // MIN and MAX of strings are strings (HAVING MAX(s) > 'a b' compared PAD SPACE on Derby; generated corpus)
            if (STRING_FUNCTIONS.contains(name) || name.equals("NULLIF") || name.equals("MIN") || name.equals("MAX")) {
                return isString(args.get(0), literals);
            }
            if (name.equals("DATE_FORMAT") || PADDING_FUNCTIONS.contains(name)) {
                return true; // (Derby's NULLIF compared LPAD('a b', 2, '*') with a VARCHAR PAD SPACE; generated corpus)
            }
            if (name.equals("IF") && args.size() == 3) { // a CASE on the engines without IF
                return anyString(args.subList(1, 3), literals);
            }
            return (VALUE_CHOOSERS.contains(name) || name.equals("GREATEST") || name.equals("LEAST")) && anyString(args, literals);
        }
        return false;
    }

    /** A string literal, or a concatenation or string function of constants only (no column, no parameter). */
    private static boolean constantString(Expression e) {
        Expression inner = unparenthesized(e);
        if (inner instanceof StringValue) return true;
        if (inner instanceof Concat) {
            return constant(((Concat) inner).getLeftExpression()) && constant(((Concat) inner).getRightExpression())
                    && (constantString(((Concat) inner).getLeftExpression()) || constantString(((Concat) inner).getRightExpression()));
        }
        if (inner instanceof TrimFunction) return plainTrim(inner) && constantString(((TrimFunction) inner).getExpression());
        if (inner instanceof Function && ((Function) inner).getParameters() != null && !((Function) inner).getParameters().isEmpty()) {
            String name = ((Function) inner).getName().toUpperCase(Locale.ROOT);
            // NULLIF and COALESCE of constants are their first argument (or NULL): a constant string when it is one
            if (!STRING_FUNCTIONS.contains(name) && !name.equals("CONCAT") && !name.equals("NULLIF") && !name.equals("COALESCE")) {
                return false;
            }
            List<Expression> args = arguments((Function) inner);
            return args.stream().allMatch(Renderer::constant) && constantString(args.get(0));
        }
        return false;
    }

    /** {@code TRIM(x)}, blanks off both ends, without a character or FROM. */
    private static boolean plainTrim(Expression e) {
        TrimFunction t = (TrimFunction) e;
        return t.getFromExpression() == null && t.getTrimSpecification() == null && !t.isUsingFromKeyword();
    }

    private static boolean constant(Expression e) {
        Expression inner = unparenthesized(e);
        return inner instanceof LongValue || inner instanceof SignedExpression s && s.getExpression() instanceof LongValue
                || constantString(inner);
    }

    /** For {@code literals}, every value that is not NULL is a string; otherwise one of them is a VARCHAR. */
    private boolean anyString(List<Expression> values, boolean literals) {
        boolean any = false;
        for (Expression v : values) {
            if (unparenthesized(v) instanceof NullValue) continue;
            boolean string = isString(v, literals);
            if (literals && !string) return false;
            any |= string;
        }
        return any;
    }

    /** Literal text that Derby may read as a number, date, time, timestamp or boolean when compared with such a column. */
    private static final Pattern NOT_TEXT_LITERAL = Pattern.compile("\\s*([-+.:T ]*[0-9][-+0-9.:T ]*|(?i:true|false|unknown))\\s*");

    /** Characters of the CHAR a number is cast to for Derby's {@code ||}: a DECIMAL(31) with sign and point fits. */
    static final int DERBY_NUMBER_TEXT_LENGTH = 33;

    /** Digits of the largest BIGINT: HSQLDB's integer arithmetic is done in DECIMAL of this precision. */
    static final int BIGINT_DIGITS = 19;

    /** Sorts below every character a string holds in practice (U+0000 aside): a sentinel for NO PAD order under PAD SPACE. */
    static final char LOWEST_CHARACTER = '\u0001';

    /** Longest VARCHAR Derby has: a parameter's LENGTH is taken after a CAST to it. */
    static final int MAX_DERBY_VARCHAR_LENGTH = 32672;

    /** Most decimal places Derby's emulated ROUND keeps (its DECIMAL has at most 31 digits). */
    static final int MAX_DERBY_ROUND_PLACES = 10;

    private final class Expr extends ExpressionDeParser {

        private StringBuilder out() {
            return getBuilder();
        }

        private void emit(Expression e) {
            e.accept(this, null);
        }

        private void emitList(List<? extends Expression> list, String separator) {
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out().append(separator);
                }
                emit(list.get(i));
            }
        }

        private void pin(Object node, PinnedSlot.Kind kind, String source) {
            pin(node, kind, source, PinnedSlot.MICROSECOND_DIGITS);
        }

        /**
         * A MySQL or MariaDB clock's digits of the second: {@code NOW()}, {@code CURRENT_TIMESTAMP},
         * {@code UTC_TIMESTAMP()} and their kin give whole seconds, {@code NOW(n)} n digits; the other engines'
         * clocks give microseconds.
         */
        private int clockDigits(PinnedSlot.Kind kind, List<Expression> args) {
            if (client.family() != Dialect.Family.MYSQL || kind != PinnedSlot.Kind.TIMESTAMP && kind != PinnedSlot.Kind.UTC_TIMESTAMP) {
                return PinnedSlot.MICROSECOND_DIGITS;
            }
            if (args.isEmpty()) return 0;
            Long n = args.size() == 1 ? integerLiteral(args.get(0)) : null;
            return n != null && n >= 0 && n <= PinnedSlot.MICROSECOND_DIGITS ? n.intValue() : PinnedSlot.MICROSECOND_DIGITS;
        }

        private void pin(Object node, PinnedSlot.Kind kind, String source, int fractionDigits) {
            int id = pins.idFor(node, kind, source, fractionDigits);
            String type;
            switch (kind) {
                case TIMESTAMP:
                case UTC_TIMESTAMP:
                    type = target.castType(TypeKind.TIMESTAMP, Dialect.DEFAULT_TIMESTAMP_PRECISION, 0);
                    break;
                case DATE:
                case UTC_DATE:
                    type = target.castType(TypeKind.DATE, 0, 0);
                    break;
                case TIME:
                case UTC_TIME:
                    type = target.castType(TypeKind.TIME, 0, 0);
                    break;
                case EPOCH_SECOND:
                case EPOCH_MILLI:
                    type = target.castType(TypeKind.BIGINT, 0, 0);
                    break;
                case RANDOM: type = target.castType(TypeKind.DOUBLE, 0, 0); break;
                case UUID: type = target.castType(TypeKind.CHAR, 36, 0); break;
                case SEQUENCE: type = target.castType(TypeKind.BIGINT, 0, 0); break;
                case USER: type = target.castType(TypeKind.VARCHAR, 128, 0); break;
                case LAST_INSERT_ID: type = target.castType(TypeKind.BIGINT, 0, 0); break;
                default: throw new IllegalArgumentException(kind.name());
            }
            out().append("CAST(?n").append(id).append(" AS ").append(type).append(')');
        }

        @Override
        public <S> StringBuilder visit(JdbcParameter parameter, S context) {
            if (parameter.getIndex() == null || !"?".equals(parameter.getParameterCharacter())) {
                throw TranslationException.unsupported("Only '?' parameter markers are supported, not " + parameter);
            }
            clientMarkers.set(parameter.getIndex());
            Integer places = wideParameters.get(parameter);
            if (places != null) {
                return out().append("CAST(?").append(parameter.getIndex()).append(" AS DECIMAL(").append(DECIMAL_DIGITS_EVERYWHERE)
                        .append(", ").append(places).append("))");
            }
            return out().append('?').append(parameter.getIndex());
        }

        /**
         * {@code CURRENT_USER}, {@code SESSION_USER}, {@code SYSTEM_USER} (and {@code USER} outside MySQL, where it is a
         * column name): the user the client connected to the shepherd as, pinned; each replica would name its own
         * credentials.
         */
        @Override
        public <S> StringBuilder visit(Column column, S context) {
            PinnedSlot.Kind kind = pinnedName(column, client);
            if (kind != null) { // a register or a clock the parser read as a name (HSQLDB's NOW without parentheses)
                pin(column, kind, column.getColumnName());
                return out();
            }
            return super.visit(column, context);
        }

        @Override
        public <S> StringBuilder visit(JdbcNamedParameter parameter, S context) {
            throw TranslationException.unsupported("Named parameters (" + parameter + ") are not supported; use '?' markers");
        }

        @Override
        public <S> StringBuilder visit(TimeKeyExpression key, S context) {
            String name = clockName(key.getStringValue());
            PinnedSlot.Kind kind = timeKind(name, false, client);
            if (kind == null) {
                return super.visit(key, context);
            }
            pin(key, kind, key.getStringValue(), key instanceof ClockDefaults.DefaultClock ? PinnedSlot.MICROSECOND_DIGITS
                    : clockDigits(kind, List.of()));
            return out();
        }

        /**
         * {@code NEXT VALUE FOR s}: a value of the shepherd's sequence s, drawn once and bound on every replica (see
         * {@link SequenceStatement}). Where it would be evaluated once per row (a query that reads a table, an UPDATE),
         * one value would be given to every row: refused.
         */
        @Override
        public <S> StringBuilder visit(NextValExpression next, S context) {
            sequenceValue(next, next.getName());
            return out();
        }

        private void sequenceValue(Object node, String name) {
            if (!scopes.isEmpty() && !scopes.peek().isEmpty()) {
                throw TranslationException.unsupported("NEXT VALUE FOR " + name + " in a statement that reads or changes a"
                        + " table would draw one value per row; Shepherd draws one per occurrence: draw the values first"
                        + " (VALUES NEXT VALUE FOR " + name + ") and write them");
            }
            pin(node, PinnedSlot.Kind.SEQUENCE, SequenceStatement.stored(name, client));
        }

        /**
         * MySQL's GROUP_CONCAT, a node of its own: GROUP_CONCAT where the engine has it (MySQL, MariaDB, HSQLDB),
         * PostgreSQL's STRING_AGG of the values as text (several expressions joined with ||), refused on Derby. Without
         * an ORDER BY the engines join the values in orders of their own: ordered by the expressions on every engine
         * (one of the orders MySQL may give). With DISTINCT, PostgreSQL orders only by the aggregated text: taken for
         * one string expression ordered by itself, refused otherwise there. The separator is ',' unless given.
         */
        @Override
        public <S> StringBuilder visit(MySQLGroupConcat g, S context) {
            if (target.lacksFunction("GROUP_CONCAT") && target.family() != Dialect.Family.POSTGRESQL) {
                throw lacks("GROUP_CONCAT");
            }
            List<Expression> values = new ArrayList<>();
            for (Object e : g.getExpressionList()) values.add((Expression) e);
            List<OrderByElement> order = g.getOrderByElements();
            if (order == null || order.isEmpty()) {
                order = values.stream().map(v -> new OrderByElement().withExpression(v)).toList();
            }
            String separator = g.getSeparator() == null ? "','" : g.getSeparator();
            if (target.family() == Dialect.Family.POSTGRESQL) {
                stringAgg(g, values, order, separator);
                return out();
            }
            out().append("GROUP_CONCAT(").append(g.isDistinct() ? "DISTINCT " : "");
            if (target.family() == Dialect.Family.HSQLDB && values.size() > 1) {
                // HSQLDB takes one expression: the values joined with || (NULL if one is, as MySQL leaves such rows out)
                for (int i = 0; i < values.size(); i++) {
                    if (i > 0) out().append(" || ");
                    emitAsText(values.get(i));
                }
            } else {
                emitList(values, ", ");
            }
            out().append(" ORDER BY ");
            groupConcatOrder(order);
            return out().append(" SEPARATOR ").append(separator).append(')');
        }

        private void stringAgg(MySQLGroupConcat g, List<Expression> values, List<OrderByElement> order, String separator) {
            boolean oneString = values.size() == 1 && !isExactNumberOperand(values.get(0)) && !isApproximate(values.get(0))
                    && order.size() == 1 && order.get(0).getExpression().toString().equals(values.get(0).toString());
            if (g.isDistinct() && !oneString) {
                throw TranslationException.unsupported("GROUP_CONCAT(DISTINCT ...) on PostgreSQL orders only by the joined"
                        + " text itself: write it of one string expression ordered by that expression (" + g + ")");
            }
            if (values.stream().anyMatch(v -> isApproximate(v))) {
                throw TranslationException.unsupported("GROUP_CONCAT of an approximate number gives different text on each"
                        + " engine; CAST it to DECIMAL(p, s) first (" + g + ")");
            }
            out().append("STRING_AGG(").append(g.isDistinct() ? "DISTINCT " : "");
            for (int i = 0; i < values.size(); i++) {
                if (i > 0) out().append(" || ");
                out().append("CAST(");
                emit(values.get(i));
                out().append(" AS TEXT)");
            }
            out().append(", ").append(separator).append(" ORDER BY ");
            if (g.isDistinct()) {
                out().append("CAST(");
                emit(values.get(0));
                out().append(" AS TEXT)").append(order.get(0).isAsc() ? "" : " DESC");
            } else {
                groupConcatOrder(order);
            }
            out().append(')');
        }

        /** The keys of a GROUP_CONCAT's ORDER BY (NULLs are left out of the values: their place does not matter). */
        private void groupConcatOrder(List<OrderByElement> order) {
            for (int i = 0; i < order.size(); i++) {
                if (i > 0) out().append(", ");
                emit(order.get(i).getExpression());
                if (!order.get(i).isAsc()) out().append(" DESC");
            }
        }

        @Override
        public <S> StringBuilder visit(Function f, S context) {
            if (f instanceof StoredDecimal stored) {
                storedDecimal(stored);
                return out();
            }
            String name = f.getName() == null ? "" : f.getName().toUpperCase(Locale.ROOT);
            List<Expression> args = arguments(f);
            if (f.isEscaped() || f.getNamedParameters() != null || f.getMultipartName().size() > 1) {
                return super.visit(f, context);
            }
            if (VALUE_CHOOSERS.contains(name) && !"CONCAT".equals(name) && target.refusesUntypedNull()
                    && args.stream().anyMatch(Renderer::isBareNull)) {
                // Derby refuses an untyped NULL here; a NULL among the values chosen from changes nothing: left out
                List<Expression> kept = args.stream().filter(a -> !isBareNull(a)).toList();
                if (kept.isEmpty()) return out().append(typedNull(TypeKind.VARCHAR, 1, 0).getColumnName());
                if (kept.size() == 1) {
                    out().append('(');
                    emit(kept.get(0));
                    return out().append(')');
                }
                emit(new Function(f.getName(), kept.toArray(new Expression[0])));
                return out();
            }
            if (VALUE_CHOOSERS.contains(name) && !"CONCAT".equals(name)) {
                typeParametersBesideDecimal(ParameterPosition.COALESCE, args.toArray(new Expression[0]));
            } else if ("NULLIF".equals(name)) {
                typeParametersBesideDecimal(ParameterPosition.COMPARISON, args.toArray(new Expression[0]));
            }
            PinnedSlot.Kind kind = timeKind(name, true, client);
            if (kind != null) {
                pin(f, kind, f.toString(), clockDigits(kind, args));
                return out();
            }
            switch (name) {
                case "USER":
                case "CURRENT_USER":
                case "SESSION_USER":
                case "SYSTEM_USER":
                    if (!args.isEmpty()) return super.visit(f, context);
                    pin(f, PinnedSlot.Kind.USER, f.toString());
                    return out();
                case "LAST_INSERT_ID": // MySQL, MariaDB
                case "IDENTITY_VAL_LOCAL": // Derby, Db2
                case "IDENTITY": // HSQLDB
                    if (!args.isEmpty()) return super.visit(f, context); // LAST_INSERT_ID(expr): refused (SqlText)
                    pin(f, PinnedSlot.Kind.LAST_INSERT_ID, f.toString());
                    return out();
                case "RAND":
                case "RANDOM":
                    if (!args.isEmpty()) {
                        throw TranslationException.unsupported(name + "(seed) draws from a per-engine generator; "
                                + "use RAND() without a seed, which Shepherd pins, or compute the value in the application");
                    }
                    pin(f, PinnedSlot.Kind.RANDOM, f.toString());
                    return out();
                case "UUID":
                case "GEN_RANDOM_UUID":
                case "RANDOM_UUID":
                case "NEWID":
                case "UUID_GENERATE_V4": // PostgreSQL's uuid-ossp
                    pin(f, PinnedSlot.Kind.UUID, f.toString());
                    return out();
                case "UNIX_TIMESTAMP": // MySQL, MariaDB, HSQLDB: without an argument the clock, in seconds
                case "UNIX_MILLIS": // HSQLDB
                    if (!args.isEmpty()) break;
                    pin(f, "UNIX_TIMESTAMP".equals(name) ? PinnedSlot.Kind.EPOCH_SECOND : PinnedSlot.Kind.EPOCH_MILLI,
                            f.toString());
                    return out();
                case "CONCAT":
                    concat(args, client.family() == Dialect.Family.POSTGRESQL);
                    return out();
                case "ANY":
                case "SOME":
                case "ALL": // PostgreSQL's x = ANY(array): the others compare with a subquery's rows only
                    if (target.family() == Dialect.Family.POSTGRESQL) return super.visit(f, context);
                    throw TranslationException.unsupported("x = " + name + "(array) is PostgreSQL's; " + target.name()
                            + ", one of the replicas' engines, has no arrays: write x IN (?, ?, ...) or " + name + " (SELECT ...)");
                case "TO_CHAR": // PostgreSQL's TO_CHAR(x, 'YYYY-MM-DD HH24:MI:SS'): MySQL's DATE_FORMAT of the same fields
                    String dateFormat = args.size() == 2 && !f.isDistinct() && postgresqlClientElsewhere()
                            && args.get(1) instanceof StringValue pattern && pattern.getPrefix() == null
                            && temporalKind(args.get(0)) != null ? dateFormatOf(pattern.getValue()) : null;
                    if (dateFormat != null && target.family() == Dialect.Family.MYSQL) {
                        call("DATE_FORMAT", List.of(args.get(0), new StringValue(dateFormat)));
                        return out();
                    }
                    if (dateFormat != null && formatted(args.get(0), dateFormat)) return out();
                    if (postgresqlClientElsewhere()) {
                        throw TranslationException.unsupported("TO_CHAR is written for " + target.name() + " only for a DATE or"
                                + " TIMESTAMP and a pattern of YYYY, MM, DD, HH24, MI, SS and separators; other patterns (names,"
                                + " 12-hour clocks, FM, numbers) are each engine's own: format the value in the application");
                    }
                    break;
                case "DATE_TRUNC": // PostgreSQL's DATE_TRUNC('day' | 'week' | 'month' | 'year', timestamp): the TIMESTAMP it starts
                    if (args.size() == 2 && !f.isDistinct() && postgresqlClientElsewhere() && args.get(0) instanceof StringValue unit
                            && TRUNCATED_UNITS.contains(unit.getValue().toLowerCase(Locale.ROOT))
                            && temporalKind(args.get(1)) == TypeKind.TIMESTAMP) {
                        truncatedTime(unit.getValue().toLowerCase(Locale.ROOT), args.get(1));
                        return out();
                    }
                    break;
                case "STRING_AGG":
                    // PostgreSQL's STRING_AGG(x, 'sep' [ORDER BY ...]): rendered as MySQL's GROUP_CONCAT is, ordered by the
                    // values when no order is given (PostgreSQL's own order is arbitrary), except as written on PostgreSQL
                    // itself when ordered
                    if (args.size() == 2 && args.get(1) instanceof StringValue separator && separator.getPrefix() == null
                            && client.family() == Dialect.Family.POSTGRESQL && !(target.family() == Dialect.Family.POSTGRESQL
                            && f.getOrderByElements() != null && !f.getOrderByElements().isEmpty())) {
                        if (target.lacksFunction("GROUP_CONCAT") && target.family() != Dialect.Family.POSTGRESQL) throw lacks(name);
                        MySQLGroupConcat joined = new MySQLGroupConcat();
                        joined.setExpressionList(new ExpressionList<>(args.get(0)));
                        joined.setDistinct(f.isDistinct());
                        joined.setOrderByElements(f.getOrderByElements());
                        joined.setSeparator(separator.toString());
                        emit(joined);
                        return out();
                    }
                    break;
                case "NEXTVAL": // MariaDB's NEXTVAL(s), PostgreSQL's nextval('s')
                    if (args.size() == 1 && (args.get(0) instanceof Column || args.get(0) instanceof StringValue)) {
                        sequenceValue(f, args.get(0) instanceof StringValue v ? v.getValue()
                                : ((Column) args.get(0)).getFullyQualifiedName());
                        return out();
                    }
                    return super.visit(f, context);
                case "COUNT":
                    if (target.comparesStringsPadSpace() && f.isDistinct() && args.size() == 1 && isVarchar(args.get(0))
                            && (typeOf(args.get(0)) == null || typeOf(args.get(0)).length() < MAX_DERBY_VARCHAR_LENGTH)) {
                        // A non-blank sentinel after each value makes PAD SPACE equality exact ('a.' and 'a .' differ).
                        out().append("COUNT(DISTINCT ");
                        emit(args.get(0));
                        out().append(" || '.')");
                        return out();
                    }
                    return super.visit(f, context);
                case "ABS":
                    if (args.size() == 1 && !f.isDistinct() && !isLiteral(args.get(0)) && numeric(args.get(0)) == Numeric.INTEGER) {
                        absoluteInteger(args.get(0));
                        return out();
                    }
                    return super.visit(f, context);
                case "SUM":
                    if (target.sumKeepsIntegerType() && args.size() == 1 && numeric(args.get(0)) == Numeric.INTEGER
                            && !isBigint(args.get(0))) {
                        // Derby and Db2 sum INTEGER in INTEGER (22003 at 2^31); the others in BIGINT or DECIMAL.
                        out().append("SUM(").append(f.isDistinct() ? "DISTINCT " : "");
                        castToBigint(args.get(0));
                        out().append(')');
                        return out();
                    }
                    if (target.sumOfBigintIsNumeric() && args.size() == 1 && isBigint(args.get(0))) {
                        // PostgreSQL sums BIGINT into NUMERIC, which then divides exactly where the others truncate.
                        out().append("CAST(");
                        super.visit(f, context);
                        out().append(" AS ").append(target.castType(TypeKind.BIGINT, 0, 0)).append(')');
                        return out();
                    }
                    return super.visit(f, context);
                case "MIN":
                case "MAX":
                    if (target.comparesStringsPadSpace() && args.size() == 1 && isVarchar(args.get(0))
                            && (typeOf(args.get(0)) == null || typeOf(args.get(0)).length() < MAX_DERBY_VARCHAR_LENGTH)) {
                        padSpaceExtreme(name, args.get(0), f.isDistinct());
                        return out();
                    }
                    return super.visit(f, context);
                case "AVG":
                    if (args.size() == 1 && !f.isAllColumns()) {
                        average(args.get(0), f.isDistinct());
                        return out();
                    }
                    return super.visit(f, context);
                case "NULLIF":
                    if (args.size() == 2 && !f.isDistinct() && comparedAsStrings(args.get(0), args.get(1))) {
                        // Derby's NULLIF compares PAD SPACE ('x ' and 'x' are equal): NO PAD as for =
                        out().append("CASE WHEN ");
                        noPad(args.get(0), args.get(1), " AND ", " = ");
                        out().append(" THEN NULL ELSE ");
                        emit(args.get(0));
                        return out().append(" END");
                    }
                    if (args.size() == 2 && !f.isDistinct() && target.stringLiteralFirstIgnoresNoPad() && constantString(args.get(0))
                            && !constantString(args.get(1))) {
                        // HSQLDB compares a constant string first PAD SPACE (constantFirst): the other operand first
                        out().append("CASE WHEN ");
                        emit(args.get(1));
                        out().append(" = ");
                        emit(args.get(0));
                        out().append(" THEN NULL ELSE ");
                        emitChosenValue(args.get(0), true); // a CHAR literal would be deduplicated PAD SPACE
                        return out().append(" END");
                    }
                    return super.visit(f, context);
                case "COALESCE":
                case "IFNULL":
                case "NVL":
                    if (f.isDistinct() || args.isEmpty()) return super.visit(f, context);
                    return clientCutWritten(f, () -> {
                        boolean cast = literalsPadded(args);
                        out().append("COALESCE(");
                        for (int i = 0; i < args.size(); i++) {
                            if (i > 0) out().append(", ");
                            emitChosenValue(args.get(i), cast);
                        }
                        return out().append(')');
                    });
                case "LCASE":
                    return call("LOWER", args);
                case "UCASE":
                    return call("UPPER", args);
                case "LENGTH":
                case "CHAR_LENGTH":
                case "CHARACTER_LENGTH":
                case "LEN":
                    return call(target.charLengthFunction(), args);
                case "SUBSTRING":
                case "SUBSTR":
                    if (!(f.getParameters() instanceof ExpressionList) || f.isDistinct()) {
                        return super.visit(f, context);
                    }
                    List<Expression> substr = (args.size() == 2 || args.size() == 3) && mysqlClientElsewhere()
                            ? mysqlSubstrArguments(args) : args;
                    if (target.substrFailsPastEnd() && (substr.size() == 2 || substr.size() == 3)) {
                        derbySubstr(substr);
                        return out();
                    }
                    return call("SUBSTR", substr);
                case "MOD":
                    return call("MOD", args);
                case "ROUND":
                    if (!target.supportsRound() && !f.isDistinct()) {
                        derbyRound(args);
                        return out();
                    }
                    return super.visit(f, context);
                case "YEAR":
                case "MONTH":
                case "DAY":
                case "HOUR":
                case "MINUTE":
                    if (args.size() == 1) {
                        datePart(name, args.get(0));
                        return out();
                    }
                    return super.visit(f, context);
                case "DAYOFMONTH":
                    if (args.size() == 1) {
                        datePart("DAY", args.get(0));
                        return out();
                    }
                    return super.visit(f, context);
                case "IF": // MySQL's IF(condition, a, b): a CASE where the engine has no IF
                    if (args.size() == 3 && !f.isDistinct() && target.family() != Dialect.Family.MYSQL
                            && (isCondition(args.get(0)) || isExactNumberOperand(args.get(0)))) {
                        Expression condition = isCondition(args.get(0)) ? args.get(0) // a number: true unless 0 or NULL
                                : new NotEqualsTo(args.get(0), new LongValue(0));
                        emit(new CaseExpression(args.get(2), new WhenClause(condition, args.get(1))));
                        return out();
                    }
                    break;
                case "GREATEST":
                case "LEAST":
                    if (args.size() >= 2 && !f.isDistinct()) {
                        extreme(name, args);
                        return out();
                    }
                    break;
                case "POW":
                case "POWER":
                    if (args.size() == 2 && !f.isDistinct() && !target.lacksFunction("POWER")) {
                        power(args);
                        return out();
                    }
                    break;
                case "TRUNC":
                case "TRUNCATE": // a number cut to d decimal places: TRUNCATE on MySQL, TRUNC on PostgreSQL, both on HSQLDB
                    if (args.size() == 2 && !f.isDistinct()) {
                        String own = switch (target.family()) {
                            case MYSQL -> "TRUNCATE";
                            case POSTGRESQL -> "TRUNC";
                            default -> name;
                        };
                        if (!target.lacksFunction(own)) return call(own, args);
                        if (target.family() == Dialect.Family.DERBY && isExactNumberOperand(args.get(0))
                                && args.get(1) instanceof LongValue places && places.getValue() >= 0
                                && places.getValue() <= DECIMAL_DIGITS_EVERYWHERE) { // Derby's CAST to DECIMAL truncates
                            out().append("CAST(");
                            emit(args.get(0));
                            return out().append(" AS DECIMAL(").append(DECIMAL_DIGITS_EVERYWHERE).append(", ")
                                    .append(places.getValue()).append("))");
                        }
                    }
                    break;
                case "INSTR": // MySQL's INSTR(s, sub): where sub first starts in s, 1-based, 0 when nowhere
                    if (args.size() == 2 && !f.isDistinct() && target.family() != Dialect.Family.MYSQL) {
                        position(args.get(1), args.get(0), true);
                        return out();
                    }
                    break;
                case "LOCATE": // LOCATE(sub, s): PostgreSQL's STRPOS(s, sub)
                    if (args.size() == 2 && !f.isDistinct() && target.family() == Dialect.Family.POSTGRESQL) {
                        position(args.get(0), args.get(1), true);
                        return out();
                    }
                    if ((args.size() == 2 || args.size() == 3) && !f.isDistinct() && target.family() == Dialect.Family.DERBY) {
                        out().append("NULLIF(");
                        call("LOCATE", args);
                        return out().append(", -1)"); // see position()
                    }
                    break;
                case "MID": // MySQL's MID(s, a, b) is SUBSTRING(s, a, b)
                    if ((args.size() == 2 || args.size() == 3) && !f.isDistinct() && target.family() != Dialect.Family.MYSQL) {
                        emit(new Function("SUBSTRING", args.toArray(new Expression[0])));
                        return out();
                    }
                    break;
                case "LEFT":
                case "RIGHT": // Derby has neither: a CASE around SUBSTR for a count written as a number
                    if (args.size() == 2 && !f.isDistinct() && integerLiteral(args.get(1)) != null
                            && (target.lacksFunction(name)
                                    || integerLiteral(args.get(1)) < 0 && (mysqlClientElsewhere() || postgresqlClientElsewhere()))
                            && !(unparenthesized(args.get(0)) instanceof JdbcParameter)) {
                        leftOrRight("LEFT".equals(name), args.get(0), integerLiteral(args.get(1)));
                        return out();
                    }
                    if (target.lacksFunction(name)) throw lacks(name);
                    if (args.size() == 2 && !f.isDistinct()) {
                        // HSQLDB answers a CHAR for a literal's LEFT, which drops a trailing blank: the literal as VARCHAR
                        out().append(name).append('(');
                        emitChosenValue(args.get(0), literalsPadded(List.of(args.get(0))));
                        out().append(", ");
                        // MySQL: a count below 0 is 0; PostgreSQL takes all but that many, HSQLDB fails
                        boolean literal = integerLiteral(args.get(1)) != null;
                        // PostgreSQL takes an INTEGER count, not the BIGINT a MySQL client's integer arithmetic is there
                        emitAs(mysqlClientElsewhere() && !literal ? notBelowZero(args.get(1)) : args.get(1),
                                target.family() == Dialect.Family.POSTGRESQL && !literal ? "INTEGER" : null);
                        return out().append(')');
                    }
                    return super.visit(f, context);
                case "DATE_ADD":
                case "DATE_SUB":
                case "ADDDATE":
                case "SUBDATE": // MySQL's DATE_ADD(x, INTERVAL n unit): each engine's own spelling
                    if (args.size() == 2 && !f.isDistinct() && args.get(1) instanceof IntervalExpression interval
                            && mysqlClientElsewhere()) {
                        dateArithmetic(args.get(0), interval, name.endsWith("SUB"));
                        return out();
                    }
                    break;
                case "DATEDIFF": // MySQL's DATEDIFF(a, b): days from b to a, times of day ignored (HSQLDB's is the same)
                    if (args.size() == 2 && !f.isDistinct() && mysqlClientElsewhere() && temporalKind(args.get(0)) != null
                            && temporalKind(args.get(1)) != null && target.family() != Dialect.Family.HSQLDB) {
                        daysBetween(args.get(1), args.get(0));
                        return out();
                    }
                    break;
                case "DATE_FORMAT":
                    if (args.size() == 2 && !f.isDistinct() && mysqlClientElsewhere() && temporalKind(args.get(0)) != null
                            && args.get(1) instanceof StringValue format && format.getPrefix() == null
                            && !(format.getValue().indexOf('\\') >= 0 && client.backslashEscapesInStrings())
                            && formatted(args.get(0), format.getNotExcapedValue())) {
                        return out();
                    }
                    break;
                case "DAYOFWEEK": // 1 for Sunday to 7 for Saturday
                case "WEEKDAY": // 0 for Monday to 6 for Sunday
                case "QUARTER":
                    if (args.size() == 1 && !f.isDistinct() && mysqlClientElsewhere() && temporalKind(args.get(0)) != null) {
                        calendarField(name, args.get(0));
                        return out();
                    }
                    break;
                case "FROM_UNIXTIME": // the UTC time (the replicas' session zone) n seconds after 1970 began
                    if (args.size() == 1 && !f.isDistinct() && mysqlClientElsewhere() && numeric(args.get(0)) == Numeric.INTEGER
                            && !(unparenthesized(args.get(0)) instanceof JdbcParameter)) {
                        fromUnixTime(args.get(0));
                        return out();
                    }
                    break;
                case "REPEAT": // PostgreSQL's and HSQLDB's repeat text (a MySQL client's number: its text); PostgreSQL's
                    // count is an INTEGER, not the BIGINT a MySQL client's integer arithmetic is there
                    if (args.size() == 2 && !f.isDistinct() && mysqlClientElsewhere()
                            && (target.family() == Dialect.Family.POSTGRESQL || target.family() == Dialect.Family.HSQLDB)) {
                        out().append("REPEAT(");
                        emitAsText(args.get(0));
                        out().append(", ");
                        emitAs(args.get(1), target.family() == Dialect.Family.POSTGRESQL && integerLiteral(args.get(1)) == null
                                ? "INTEGER" : null);
                        return out().append(')');
                    }
                    break;
                case "SPACE": // PostgreSQL lacks it: REPEAT of a blank (nothing for a count below 1, as in MySQL)
                    if (args.size() == 1 && !f.isDistinct() && target.family() == Dialect.Family.POSTGRESQL) {
                        out().append("REPEAT(' ', CAST("); // REPEAT takes an INTEGER count, not a BIGINT
                        emit(args.get(0));
                        return out().append(" AS INTEGER))");
                    }
                    break;
                case "FIND_IN_SET": // MySQL's: the position of s among the comma-separated items of l
                    if (args.size() == 2 && !f.isDistinct() && mysqlClientElsewhere() && !target.lacksFunction("REPLACE")) {
                        findInSet(args.get(0), args.get(1));
                        return out();
                    }
                    break;
                case "CONCAT_WS": // Derby lacks it: written out for a separator written as a string
                    // HSQLDB's answers a CHAR, which compares PAD SPACE ('a' equal to 'a '): written out there too
                    if ((target.lacksFunction(name) || mysqlClientElsewhere() && target.family() == Dialect.Family.HSQLDB)
                            && args.size() >= 2 && !f.isDistinct() && joinedWithSeparator(args)) {
                        return out();
                    }
                    if (args.size() >= 2 && !f.isDistinct() && mysqlClientElsewhere() && target.family() == Dialect.Family.HSQLDB) {
                        // HSQLDB's takes strings only (a number fails, S1000): a MySQL client's number as its text
                        out().append("CONCAT_WS(");
                        for (int i = 0; i < args.size(); i++) {
                            if (i > 0) out().append(", ");
                            emitAsText(args.get(i));
                        }
                        return out().append(')');
                    }
                    break;
                case "LPAD":
                case "RPAD": // Derby has neither: written out for a length and a pad written as literals
                    if (args.size() == 3 && !f.isDistinct()) {
                        boolean lacks = target.lacksFunction(name);
                        // HSQLDB's take a string's trailing blanks for padding ('x ' padded to 2 is 'x*'): written out too
                        boolean hsqldb = target.family() == Dialect.Family.HSQLDB && client.family() != Dialect.Family.HSQLDB;
                        if ((lacks || hsqldb) && padded(name.equals("LPAD"), args)) return out();
                        if (!lacks && target.family() != client.family()) {
                            padFunction(name, args);
                            return out();
                        }
                    }
                    break;
                case "DAYNAME":
                case "MONTHNAME": // English names, as MySQL's default lc_time_names writes them (see namedField)
                    if (args.size() == 1 && !f.isDistinct() && mysqlClientElsewhere() && temporalKind(args.get(0)) != null) {
                        boolean dateOnly = temporalKind(args.get(0)) == TypeKind.DATE && target.family() == Dialect.Family.DERBY;
                        namedField(args.get(0), dateOnly, name.equals("DAYNAME") ? 'W' : 'M');
                        return out();
                    }
                    break;
                case "DAYOFYEAR": // 1 to 366
                case "LAST_DAY": // the DATE of the month's last day
                    if (args.size() == 1 && !f.isDistinct() && mysqlClientElsewhere() && temporalKind(args.get(0)) != null) {
                        if (name.equals("LAST_DAY")) {
                            lastDayOfMonth(args.get(0));
                        } else {
                            dayOfYear(args.get(0));
                        }
                        return out();
                    }
                    break;
                case "DATE": // MySQL's DATE(x), Derby's and PostgreSQL's too; HSQLDB has only the CAST
                    if (args.size() == 1 && !f.isDistinct() && target.family() == Dialect.Family.HSQLDB) {
                        out().append("CAST(");
                        emit(args.get(0));
                        return out().append(" AS DATE)");
                    }
                    return super.visit(f, context);
                case "SUBSTRING_INDEX":
                    if (target.family() != Dialect.Family.MYSQL && args.size() == 3 && isLiteralOne(args.get(2))) {
                        beforeFirst(args.get(0), args.get(1));
                        return out();
                    }
                    break;
                default:
                    break;
            }
            // not rewritten: refused where the engine lacks it, else as written
            if (target.lacksFunction(name)) throw lacks(name);
            return super.visit(f, context);
        }

        /**
         * GREATEST/LEAST with the client's rule for NULL where the engine's differs: MySQL, MariaDB, Db2 (and Derby
         * clients, which have neither) answer NULL when any argument is NULL, PostgreSQL ignores NULLs, HSQLDB does
         * either depending on where the NULL stands, and compares a constant string PAD SPACE (strings get the CASE
         * below there, whose comparisons get HSQLDB's rewrites). Derby has neither function: a CASE, for values of one known kind
         * (exact numbers, VARCHARs, compared NO PAD by the rewrites of the comparisons, DATEs or TIMESTAMPs; a parameter
         * has no type there).
         */
        private void extreme(String name, List<Expression> args) {
            boolean clientIgnoresNulls = client.family() == Dialect.Family.POSTGRESQL;
            boolean targetIgnoresNulls = target.family() == Dialect.Family.POSTGRESQL;
            List<Expression> values = args;
            if (clientIgnoresNulls && !targetIgnoresNulls) { // NULL only when every argument is: COALESCE each with the rest
                values = new ArrayList<>();
                for (int i = 0; i < args.size(); i++) {
                    List<Expression> first = new ArrayList<>(args);
                    first.add(0, first.remove(i));
                    values.add(new Function("COALESCE", first.toArray(new Expression[0])));
                }
            }
            boolean strings = args.stream().allMatch(a -> isString(a, true)) && args.stream().anyMatch(a -> isVarchar(a));
            if (strings && target.family() == Dialect.Family.HSQLDB) { // it compares a constant string PAD SPACE there
                emit(extremeAsCase(name, values));
                return;
            }
            if (target.lacksFunction(name)) {
                boolean numbers = args.stream().allMatch(a -> isExactNumberOperand(a));
                TypeKind time = temporalKind(args.get(0));
                boolean times = time != null && args.stream().allMatch(a -> temporalKind(a) == time);
                if (!numbers && !strings && !times) {
                    throw TranslationException.unsupported(name + " is not a function of " + target.name() + ", one of the"
                            + " replicas' engines, and is written there for values of one known kind only (exact numbers,"
                            + " VARCHARs, DATEs or TIMESTAMPs: columns, literals, CASTs); compute the value in the"
                            + " application");
                }
                emit(extremeAsCase(name, values));
                return;
            }
            Expression anyNull = anyNull(values);
            boolean nullFirst = anyNull != null && !clientIgnoresNulls
                    && (targetIgnoresNulls || target.family() == Dialect.Family.HSQLDB);
            if (nullFirst) {
                out().append("CASE WHEN ");
                emit(anyNull);
                out().append(" THEN NULL ELSE ");
            }
            call(name, values);
            if (nullFirst) out().append(" END");
        }

        /** {@code a IS NULL OR b IS NULL ...} over the values that may be NULL (not literals), or null when none may. */
        private Expression anyNull(List<Expression> values) {
            Expression anyNull = null;
            for (Expression v : values) {
                if (!isNonNullLiteral(v)) {
                    anyNull = anyNull == null ? new IsNullExpression(v) : new OrExpression(anyNull, new IsNullExpression(v));
                }
            }
            return anyNull;
        }

        /** {@code CASE WHEN a IS NULL OR b IS NULL THEN NULL WHEN a >= b THEN a ELSE b END}, for any number of values. */
        private CaseExpression extremeAsCase(String name, List<Expression> values) {
            List<WhenClause> whens = new ArrayList<>();
            Expression anyNull = anyNull(values);
            if (anyNull != null) {
                whens.add(new WhenClause(anyNull, new NullValue()));
            }
            for (int i = 0; i < values.size() - 1; i++) {
                Expression beatsTheRest = null;
                for (int j = i + 1; j < values.size(); j++) {
                    Expression c = "GREATEST".equals(name) ? new GreaterThanEquals(values.get(i), values.get(j))
                            : new MinorThanEquals(values.get(i), values.get(j));
                    beatsTheRest = beatsTheRest == null ? c : new AndExpression(beatsTheRest, c);
                }
                whens.add(new WhenClause(beatsTheRest, values.get(i)));
            }
            return new CaseExpression(values.get(values.size() - 1), whens.toArray(new WhenClause[0]));
        }

        /**
         * POW/POWER: a DOUBLE on every engine; PostgreSQL computes numeric arguments in NUMERIC (16 digits where the
         * others answer a double), so they are cast there, unless the client is PostgreSQL too.
         */
        private void power(List<Expression> args) {
            if (target.family() != Dialect.Family.POSTGRESQL || client.family() == Dialect.Family.POSTGRESQL) {
                call("POWER", args);
                return;
            }
            String type = target.castType(TypeKind.DOUBLE, 0, 0);
            out().append("POWER(CAST(");
            emit(args.get(0));
            out().append(" AS ").append(type).append("), CAST(");
            emit(args.get(1));
            out().append(" AS ").append(type).append("))");
        }

        private TranslationException lacks(String name) {
            return TranslationException.unsupported(name + " is not a function of " + target.name() + ", one of the"
                    + " replicas' engines; compute the value in the application or with functions every replica has");
        }

        /** Regular expressions: each engine has its own operator and its own syntax of patterns. */
        private TranslationException regularExpressions(String operator) {
            return TranslationException.unsupported(operator.trim() + " matches a regular expression, which " + target.name()
                    + ", one of the replicas' engines, spells differently or lacks, with patterns of its own syntax; use LIKE,"
                    + " or match in the application");
        }

        private boolean isLiteralOne(Expression e) {
            return e instanceof LongValue v && v.getValue() == 1;
        }

        /**
         * MySQL's {@code SUBSTRING_INDEX(s, d, 1)}, what comes before the first {@code d} (all of {@code s} when none):
         * {@code CASE WHEN LOCATE(d, s) > 0 THEN SUBSTR(s, 1, LOCATE(d, s) - 1) ELSE s END} on engines without it
         * (Flyway reads its user so). The operands are rendered more than once.
         */
        private void beforeFirst(Expression s, Expression d) {
            out().append("CASE WHEN ");
            position(d, s, false);
            out().append(" > 0 THEN SUBSTR(");
            emit(s);
            out().append(", 1, ");
            position(d, s, false);
            out().append(" - 1) ELSE ");
            emit(s);
            out().append(" END");
        }

        /**
         * MySQL's SUBSTRING(s, a, b) counts a start of 0 as past the end and a negative start from the end (-2: the last
         * two characters), and takes a negative length as 0; PostgreSQL starts before the first character, Derby and
         * HSQLDB fail. Unless a is a positive number written out and b is absent or a number not below 0, the start
         * becomes {@code CASE WHEN a IS NULL THEN NULL WHEN a > 0 THEN a WHEN a + LENGTH(s) >= 0 THEN LENGTH(s) + a + 1
         * ELSE LENGTH(s) + 1 END} and the length {@code CASE WHEN b < 0 THEN 0 ELSE b END}, each cast to INTEGER
         * (PostgreSQL has no SUBSTR of a BIGINT, which integer arithmetic and a parameter bound as a long are).
         */
        private List<Expression> mysqlSubstrArguments(List<Expression> args) {
            Expression s = args.get(0);
            Expression a = args.get(1);
            Long start = integerLiteral(a);
            Long length = args.size() == 3 ? integerLiteral(args.get(2)) : null;
            boolean plainStart = start != null && start > 0;
            boolean plainLength = args.size() == 2 || length != null && length >= 0;
            if (plainStart && plainLength) {
                return args;
            }
            List<Expression> rewritten = new ArrayList<>();
            rewritten.add(s);
            if (plainStart) {
                rewritten.add(a);
            } else { // an INTEGER again: the sums are computed in BIGINT (integer arithmetic), which SUBSTR may refuse
                Function len = new Function("CHAR_LENGTH", s);
                List<WhenClause> whens = new ArrayList<>();
                if (start == null) {
                    whens.add(new WhenClause(new IsNullExpression(a), new NullValue()));
                    whens.add(new WhenClause(new GreaterThan(a, new LongValue(0)), a));
                }
                whens.add(new WhenClause(new GreaterThanEquals(new Addition().withLeftExpression(len).withRightExpression(a),
                        new LongValue(0)), new Addition().withLeftExpression(new Addition().withLeftExpression(len)
                                .withRightExpression(a)).withRightExpression(new LongValue(1))));
                Expression pastTheEnd = new Addition().withLeftExpression(len).withRightExpression(new LongValue(1));
                rewritten.add(new CastExpression("CAST", new CaseExpression(pastTheEnd, whens.toArray(new WhenClause[0])),
                        "INTEGER"));
            }
            if (args.size() == 3) {
                rewritten.add(plainLength ? args.get(2) : new CastExpression("CAST", notBelowZero(args.get(2)), "INTEGER"));
            }
            return rewritten;
        }

        /** {@code CASE WHEN n < 0 THEN 0 ELSE n END}. */
        private Expression notBelowZero(Expression n) {
            Long literal = integerLiteral(n);
            if (literal != null) {
                return new LongValue(Math.max(0, literal));
            }
            return new CaseExpression(n, new WhenClause(new MinorThan(n, new LongValue(0)), new LongValue(0)));
        }

        /**
         * LEFT(s, n) / RIGHT(s, n) on Derby: {@code CASE WHEN LENGTH(s) <= n THEN s ELSE SUBSTR(s, 1, n) END}, or
         * {@code SUBSTR(s, LENGTH(s) - n + 1)} for RIGHT; a count below 0 is 0 (the empty string), as in MySQL, or for a
         * PostgreSQL client all but that many characters, as there (written so on every other engine).
         */
        private void leftOrRight(boolean left, Expression s, long count) {
            boolean cast = literalsPadded(List.of(s)); // ' x' is a CHAR(2) there, which a CASE would pad back
            String length = target.charLengthFunction() + "(";
            if (count < 0 && client.family() == Dialect.Family.POSTGRESQL) {
                // PostgreSQL: all but the last (LEFT) or first (RIGHT) -count characters
                long m = -count;
                out().append("CASE WHEN ").append(length);
                emitChosenValue(s, cast);
                out().append(") <= ").append(m).append(" THEN ").append(stringLiteral("")).append(" ELSE SUBSTR(");
                emitChosenValue(s, cast);
                if (left) {
                    out().append(", 1, ").append(length);
                    emitChosenValue(s, cast);
                    out().append(") - ").append(m).append(") END");
                } else {
                    out().append(", ").append(m + 1).append(") END");
                }
                return;
            }
            long n = Math.max(0, count);
            out().append("CASE WHEN ").append(length);
            emitChosenValue(s, cast);
            out().append(") <= ").append(n).append(" THEN ");
            emitChosenValue(s, cast);
            out().append(" ELSE SUBSTR(");
            emitChosenValue(s, cast);
            if (left || n == 0) { // RIGHT(s, 0) too: Derby refuses SUBSTR(s, LENGTH(s) + 1)
                out().append(", 1, ").append(n).append(") END");
            } else {
                out().append(", ").append(length);
                emitChosenValue(s, cast);
                out().append(") - ").append(n).append(" + 1) END");
            }
        }

        /**
         * Where {@code d} first starts in {@code s} (0: nowhere): LOCATE, PostgreSQL's STRPOS. Derby types LOCATE as never
         * NULL, and a UNION that widens it to BIGINT then fails on a NULL (23502, found by the generated corpus): there it
         * is {@code NULLIF(LOCATE(d, s), -1)}, the same value, typed as one that may be NULL, where it is the {@code value}
         * of the expression (not a test inside it).
         */
        private void position(Expression d, Expression s, boolean value) {
            if (value && target.family() == Dialect.Family.DERBY) {
                out().append("NULLIF(LOCATE(");
                emit(d);
                out().append(", ");
                emit(s);
                out().append("), -1)");
                return;
            }
            if (target.family() == Dialect.Family.POSTGRESQL) {
                out().append("STRPOS(");
                emit(s);
                out().append(", ");
                emit(d);
            } else {
                out().append("LOCATE(");
                emit(d);
                out().append(", ");
                emit(s);
            }
            out().append(')');
        }

        /**
         * A value stored into a DECIMAL(p, s) column ({@link StoredDecimal}), with the client's rule for the digits past s
         * written out where this target's differs: TRUNC(value, s) (a Derby or Db2 client) or ROUND(value, s) (the others'
         * half away from zero; Derby's emulated). Not where the value visibly has at most s decimals. Where it is written out
         * on an engine that types a {@code ?} from the column or its other operand, the {@code ?} is first given a DECIMAL
         * type wide enough for what was bound ({@link #typedParameters}).
         */
        private void storedDecimal(StoredDecimal stored) {
            boolean truncate = client.decimalStore() == DecimalStore.TRUNCATES;
            if (target.decimalStore() == (truncate ? DecimalStore.TRUNCATES : DecimalStore.ROUNDS)) {
                emit(stored.value());
                return;
            }
            List<Runnable> untype = new ArrayList<>();
            Expression value = typedParameters(stored, untype);
            try {
                Integer decimals = decimals(value);
                if (decimals != null && decimals <= stored.scale()) {
                    emit(value);
                } else if (truncate) {
                    // only an engine that rounds gets here, and each has a truncating function (Derby, whose CAST is it, truncates)
                    out().append(target.truncateFunction()).append('(');
                    emit(value);
                    out().append(", ").append(stored.scale()).append(')');
                } else if (!target.supportsRound()) {
                    if (stored.scale() > MAX_DERBY_ROUND_PLACES) {
                        throw TranslationException.unsupported("A value of possibly more than " + stored.scale() + " decimals stored"
                                + " into a DECIMAL column of scale " + stored.scale() + " is rounded by " + client.name() + " and"
                                + " truncated by a " + target.name() + " replica, whose rounding Shepherd emulates only to "
                                + MAX_DERBY_ROUND_PLACES + " places: round the value in the application");
                    }
                    Expression operand = value instanceof BinaryExpression ? new ParenthesedExpressionList<>(value) : value;
                    derbyRound(List.of(operand, new LongValue(stored.scale())));
                } else {
                    out().append("ROUND(");
                    emit(value);
                    out().append(", ").append(stored.scale()).append(')');
                }
            } finally {
                untype.forEach(Runnable::run);
            }
        }

        /**
         * Derby has no ROUND. Half away from zero, as ROUND of exact numbers is elsewhere: add or subtract half a unit
         * of the last kept place, then CAST, which truncates on Derby. The operand is rendered twice.
         */
        private void derbyRound(List<Expression> args) {
            long places = 0;
            if (args.isEmpty() || args.size() > 2) {
                throw TranslationException.unsupported("ROUND takes one or two arguments");
            }
            if (args.size() == 2) {
                if (!(args.get(1) instanceof LongValue) || ((LongValue) args.get(1)).getValue() < 0
                        || ((LongValue) args.get(1)).getValue() > MAX_DERBY_ROUND_PLACES) {
                    throw TranslationException.unsupported("Derby has no ROUND; Shepherd emulates ROUND(x, n) only for n a literal "
                            + "from 0 to " + MAX_DERBY_ROUND_PLACES + "; compute the rounded value in the application");
                }
                places = ((LongValue) args.get(1)).getValue();
            }
            String half = new BigDecimal(BigInteger.valueOf(5), (int) places + 1).toPlainString();
            out().append("CAST(");
            emit(args.get(0));
            out().append(" + CASE WHEN ");
            emit(args.get(0));
            out().append(" < 0 THEN -").append(half).append(" ELSE ").append(half).append(" END AS DECIMAL(31, ").append(places)
                    .append("))");
        }

        /**
         * Derby raises 22011 when SUBSTR reaches past the end of the string; the others return what is there (possibly
         * nothing). Clamp the start and the length to the string's LENGTH. The operands are rendered several times.
         */
        private void derbySubstr(List<Expression> args) {
            Expression s = args.get(0);
            Expression start = args.get(1);
            out().append("CASE WHEN ");
            if (args.size() == 3 && !isNonNullLiteral(args.get(2))) { // past the end with a NULL length: NULL, not ''
                out().append("CAST(");
                emit(args.get(2));
                out().append(" AS INTEGER) IS NULL THEN NULL WHEN ");
            }
            emit(start);
            out().append(" > LENGTH(");
            emit(s);
            out().append(") THEN '' ELSE SUBSTR(");
            emit(s);
            out().append(", ");
            emit(start);
            if (args.size() == 3) {
                Expression length = args.get(2);
                out().append(", CASE WHEN LENGTH(");
                emit(s);
                out().append(") - ");
                emit(start);
                out().append(" + 1 < ");
                emit(length);
                out().append(" THEN LENGTH(");
                emit(s);
                out().append(") - ");
                emit(start);
                out().append(" + 1 ELSE ");
                emit(length);
                out().append(" END");
            }
            out().append(") END");
        }

        /**
         * Derby refuses {@code ||} on a number (42846) and cannot CAST a number to VARCHAR; the others turn it into its
         * text. A visibly exact number becomes {@code TRIM(CAST(x AS CHAR(n)))} on Derby, which is that same text; an
         * approximate one is refused (Derby cannot turn a DOUBLE into text). Operands of unknown type are left alone.
         */
        private void concatOperand(Expression e) {
            ColumnType column = typeOf(e);
            if (column != null && !column.isExactNumber()) {
                concatColumnOfOtherType(e, column);
                return;
            }
            Numeric kind = column != null ? Numeric.INTEGER : visibleNumber(e);
            if (target.concatTypesComputedNumbersAsBinary() && kind != Numeric.UNKNOWN && !isLiteral(e)) {
                out().append("CAST(");
                emit(e);
                out().append(" AS CHAR)");
                return;
            }
            if (target.concatAcceptsNumbers()) {
                emit(e);
                return;
            }
            if (kind == Numeric.UNKNOWN) {
                emit(e);
                return;
            }
            if (kind == Numeric.NON_INTEGER && !isExactDecimal(e)) {
                throw TranslationException.unsupported("Derby cannot concatenate or CAST an approximate number (" + e + ") to "
                        + "text; CAST it to DECIMAL(p, s) first, and write CAST(x AS CHAR(n)) for the text");
            }
            out().append("TRIM(CAST(");
            emit(e);
            out().append(" AS CHAR(").append(DERBY_NUMBER_TEXT_LENGTH).append(")))");
        }

        /**
         * A catalog column that is not an exact number in {@code ||}: strings as they are; other types become different
         * text on each engine (1.5E0 or 1.5, true or 1, timestamps with or without fractions) and Derby refuses them, so
         * the statement is refused for engines outside the client's family.
         */
        private void concatColumnOfOtherType(Expression e, ColumnType column) {
            switch (column.kind()) {
                case CHAR:
                case VARCHAR:
                case TEXT:
                case BLOB:
                    emit(e);
                    return;
                default:
                    if (target.family() == client.family()) {
                        emit(e);
                        return;
                    }
                    throw TranslationException.unsupported("Concatenating " + e + " (" + column.kind() + ") gives different text "
                            + "on each engine (or is refused by Derby); convert the value to text in the application and pass it "
                            + "as a parameter, or concatenate an exact number such as CAST(x AS DECIMAL(p, s))");
            }
        }

        /**
         * Where a string literal is CHAR(n) (Derby, HSQLDB), a COALESCE or CASE whose values are such literals (or other
         * CHAR expressions) is a CHAR of the longest, and pads the shorter with blanks ({@code COALESCE('a', 'abc')} is
         * {@code 'a  '} there, {@code 'a'} elsewhere); one VARCHAR among the values makes the result a VARCHAR. So unless a
         * value is known to be a VARCHAR, the text literals among them are given as VARCHARs of their length.
         */
        private boolean literalsPadded(List<Expression> values) {
            if (!target.stringLiteralsAreFixedLength()) return false;
            boolean literal = false;
            for (Expression v : values) {
                if (isVarchar(v)) return false;
                literal |= constantLength(v) != null;
            }
            return literal;
        }

        /**
         * A value a COALESCE or CASE may take, a text literal (or a string computed from constants alone) cast to a VARCHAR
         * when {@code cast} ({@link #literalsPadded}).
         */
        private void emitChosenValue(Expression value, boolean cast) {
            Integer length = cast ? constantLength(value) : null;
            if (length == null) {
                emit(value);
                return;
            }
            out().append("CAST(");
            emit(value);
            out().append(" AS ").append(target.castType(TypeKind.VARCHAR, Math.max(1, length), 0)).append(')');
        }

        @Override
        public <S> StringBuilder visit(CaseExpression c, S context) {
            List<Expression> results = caseResults(c);
            typeParametersBesideDecimal(ParameterPosition.CASE_RESULT, results.toArray(new Expression[0]));
            if (c.getSwitchExpression() != null) {
                List<Expression> compared = new ArrayList<>();
                compared.add(c.getSwitchExpression());
                c.getWhenClauses().forEach(w -> compared.add(w.getWhenExpression()));
                typeParametersBesideDecimal(ParameterPosition.COMPARISON, compared.toArray(new Expression[0]));
            }
            boolean cast = literalsPadded(results);
            if (!cast) return super.visit(c, context);
            out().append(c.isUsingBrackets() ? "(CASE " : "CASE ");
            if (c.getSwitchExpression() != null) {
                emit(c.getSwitchExpression());
                out().append(' ');
            }
            for (WhenClause w : c.getWhenClauses()) {
                out().append("WHEN ");
                emit(w.getWhenExpression());
                out().append(" THEN ");
                emitChosenValue(w.getThenExpression(), true);
                out().append(' ');
            }
            if (c.getElseExpression() != null) {
                out().append("ELSE ");
                emitChosenValue(c.getElseExpression(), true);
                out().append(' ');
            }
            return out().append(c.isUsingBrackets() ? "END)" : "END");
        }

        private StringBuilder call(String name, List<Expression> args) {
            out().append(name).append('(');
            emitList(args, ", ");
            return out().append(')');
        }

        /**
         * MIN/MAX of strings under PAD SPACE pick any of the values equal but for trailing blanks ('a' or 'a '). A
         * sentinel below every other character after each value orders them as NO PAD does (the shorter first), and is
         * cut off the result: {@code SUBSTR(MAX(s || U+0001), 1, LENGTH(MAX(s || U+0001)) - 1)}.
         */
        private void padSpaceExtreme(String function, Expression argument, boolean distinct) {
            StringBuilder inner = new StringBuilder(function).append('(').append(distinct ? "DISTINCT " : "");
            StringBuilder saved = out();
            int start = saved.length();
            emit(argument);
            String operand = saved.substring(start);
            saved.setLength(start);
            inner.append(operand).append(" || '").append(LOWEST_CHARACTER).append("')");
            out().append("SUBSTR(").append(inner).append(", 1, ").append(target.charLengthFunction()).append('(').append(inner)
                    .append(") - 1)");
        }

        @Override
        public <S> StringBuilder visit(ExtractExpression extract, S context) {
            String field = extract.getName().toUpperCase(Locale.ROOT);
            switch (field) {
                case "YEAR":
                case "MONTH":
                case "DAY":
                case "HOUR":
                case "MINUTE":
                    datePart(field, extract.getExpression());
                    return out();
                case "DOW": // PostgreSQL: 0 for Sunday to 6 for Saturday
                case "ISODOW": // 1 for Monday to 7 for Sunday
                case "DOY":
                case "QUARTER":
                    if (target.family() == Dialect.Family.POSTGRESQL && client.family() == Dialect.Family.POSTGRESQL) {
                        datePart(field, extract.getExpression()); // an INTEGER, as the others answer, not a NUMERIC
                        return out();
                    }
                    if (temporalKind(extract.getExpression()) == null && target.family() != Dialect.Family.POSTGRESQL) {
                        throw TranslationException.unsupported("EXTRACT(" + field + " FROM x) is written out for " + target.name()
                                + " only where x is known to be a DATE or TIMESTAMP (a column, a CAST or a literal)");
                    }
                    out().append('(');
                    if (field.equals("DOY")) {
                        dayOfYear(extract.getExpression());
                    } else {
                        calendarField(field.equals("QUARTER") ? "QUARTER" : field.equals("DOW") ? "DAYOFWEEK" : "WEEKDAY",
                                extract.getExpression());
                        out().append(field.equals("DOW") ? " - 1" : field.equals("ISODOW") ? " + 1" : "");
                    }
                    return out().append(')');
                default:
                    if (!target.supportsExtract()) {
                        throw TranslationException.unsupported("EXTRACT(" + field + " FROM ...) has no Derby equivalent; "
                                + "use YEAR, MONTH, DAY, HOUR or MINUTE");
                    }
                    if (target.family() != client.family()) {
                        // SECOND keeps the fraction on some engines and not on others; EPOCH, WEEK, MILLISECONDS ... are
                        // each engine's own or missing
                        throw TranslationException.unsupported("EXTRACT(" + field + " FROM ...) differs between the replicas'"
                                + " engines (" + client.name() + " and " + target.name() + "); use YEAR, QUARTER, MONTH, DAY,"
                                + " HOUR or MINUTE, or compute it in the application");
                    }
                    return super.visit(extract, context);
            }
        }

        private void datePart(String field, Expression e) {
            if (target.supportsDatePartFunctions()) {
                out().append(field).append('(');
                emit(e);
                out().append(')');
            } else {
                out().append("CAST(EXTRACT(").append(field).append(" FROM ");
                emit(e);
                out().append(") AS ").append(target.castType(TypeKind.INTEGER, 0, 0)).append(')');
            }
        }

        @Override
        public <S> StringBuilder visit(DateTimeLiteralExpression literal, S context) {
            TypeKind kind;
            switch (literal.getType()) {
                case DATE: kind = TypeKind.DATE; break;
                case TIME: kind = TypeKind.TIME; break;
                case TIMESTAMP: kind = TypeKind.TIMESTAMP; break;
                default:
                    throw TranslationException.unsupported(literal + ": time zones are handled differently by each engine; "
                            + "pass a TIMESTAMP without time zone");
            }
            SqlText.refuseClockString(literal.getValue().replaceAll("^'|'$", ""));
            // Derby has no DATE '...' literals; a CAST of the string works everywhere.
            return out().append("CAST(").append(literal.getValue()).append(" AS ")
                    .append(target.castType(kind, Dialect.DEFAULT_TIMESTAMP_PRECISION, 0)).append(')');
        }

        /**
         * MySQL's {@code DATE_ADD(x, INTERVAL n unit)}, {@code DATE_SUB}, {@code x + INTERVAL n unit} and {@code x - ...}
         * for an x known to be a DATE or a TIMESTAMP: {@code x + CAST(n AS INTEGER) * INTERVAL '1 unit'} on PostgreSQL and
         * HSQLDB, {@code {fn TIMESTAMPADD(SQL_TSI_unit, n, x)}} on Derby; a DATE moved by days, weeks, months or years is a
         * DATE again, as in MySQL (PostgreSQL and Derby answer a TIMESTAMP: cast back). n is a whole number: an integer
         * written out, a {@code ?}, an integer column or expression. Other forms are refused.
         */
        private void dateArithmetic(Expression x, IntervalExpression interval, boolean subtract) {
            Map.Entry<Expression, String> amount = intervalAmount(interval);
            TypeKind kind = temporalKind(x);
            if (amount == null || kind == null || target.family() == Dialect.Family.DB2) {
                throw TranslationException.unsupported("INTERVAL arithmetic is spelled differently by every engine; it is"
                        + " written for each only as DATE_ADD/DATE_SUB(x, INTERVAL n unit) or x + INTERVAL n unit, x a DATE or"
                        + " TIMESTAMP (a column, a literal, a CAST, the clock), n a whole number, unit SECOND to YEAR;"
                        + " otherwise compute the value in the application and pass it as a parameter (" + interval + ")");
            }
            String unit = amount.getValue();
            if (kind == TypeKind.DATE && client.family() == Dialect.Family.POSTGRESQL) {
                // PostgreSQL's DATE + INTERVAL is a TIMESTAMP: moved as one
                CastExpression timestamp = new CastExpression("CAST", x, "TIMESTAMP");
                moved(timestamp, TypeKind.TIMESTAMP, amount.getKey(), unit, subtract);
                return;
            }
            if (kind == TypeKind.DATE && !DATE_INTERVAL_UNITS.contains(unit)) {
                throw TranslationException.unsupported("a DATE moved by " + unit + "S is a DATETIME in MySQL and a DATE or an"
                        + " error elsewhere; CAST it to TIMESTAMP first (" + interval + ")");
            }
            moved(x, kind, amount.getKey(), unit, subtract);
        }

        /**
         * {@code x}, a DATE or TIMESTAMP ({@code kind}), moved by {@code count} (a whole number) {@code unit}s, a DATE
         * again for a DATE: TIMESTAMPADD on Derby, {@code x + count * INTERVAL '1' unit} elsewhere.
         */
        private void moved(Expression x, TypeKind kind, Expression count, String unit, boolean subtract) {
            boolean backToDate = kind == TypeKind.DATE && target.family() != Dialect.Family.HSQLDB;
            if (backToDate) out().append("CAST(");
            if (target.family() == Dialect.Family.MYSQL) {
                // MySQL's own INTERVAL, for another client's date arithmetic
                out().append('(');
                emit(x);
                out().append(" + INTERVAL (");
                intervalCount(count, subtract, 1);
                out().append(") ").append(unit).append(')');
            } else if (target.family() == Dialect.Family.DERBY) {
                out().append("{fn TIMESTAMPADD(SQL_TSI_").append(unit).append(", ");
                intervalCount(count, subtract, 1);
                out().append(", ");
                emit(x);
                out().append(")}");
            } else {
                boolean week = unit.equals("WEEK") && target.family() == Dialect.Family.HSQLDB; // no WEEK interval there
                boolean quarter = unit.equals("QUARTER");
                out().append('(');
                emit(x);
                out().append(" + ");
                intervalCount(count, subtract, week ? 7 : quarter ? 3 : 1);
                String one = week ? "DAY" : quarter ? "MONTH" : unit;
                out().append(target.family() == Dialect.Family.POSTGRESQL ? " * INTERVAL '1 " + one + "'"
                        : " * INTERVAL '1' " + one).append(')');
            }
            if (backToDate) out().append(" AS ").append(target.castType(TypeKind.DATE, 0, 0)).append(')');
        }

        /**
         * MySQL's DAYOFWEEK (1 = Sunday), WEEKDAY (0 = Monday) and QUARTER of a DATE or TIMESTAMP: HSQLDB's own
         * DAYOFWEEK and QUARTER, PostgreSQL's EXTRACT(DOW / QUARTER), and on Derby, which has none, the days since a
         * Sunday (1970-01-04) modulo 7 and {@code (MONTH(x) + 2) / 3}.
         */
        private void calendarField(String name, Expression x) {
            if (name.equals("QUARTER")) {
                if (target.family() == Dialect.Family.DERBY) {
                    out().append("((MONTH(");
                    emit(x);
                    out().append(") + 2) / 3)");
                } else if (target.family() == Dialect.Family.POSTGRESQL) {
                    datePart("QUARTER", x);
                } else {
                    call("QUARTER", List.of(x));
                }
                return;
            }
            boolean weekday = name.equals("WEEKDAY");
            out().append(weekday ? "MOD(" : "(");
            switch (target.family()) {
                case DERBY -> {
                    out().append("MOD(MOD({fn TIMESTAMPDIFF(SQL_TSI_DAY, CAST('1970-01-04' AS DATE), CAST(");
                    emit(x);
                    out().append(" AS DATE))}, 7) + 7, 7) + 1");
                }
                case POSTGRESQL -> {
                    out().append("CAST(EXTRACT(DOW FROM ");
                    emit(x);
                    out().append(") AS INTEGER) + 1");
                }
                default -> call("DAYOFWEEK", List.of(x));
            }
            out().append(weekday ? " + 5, 7)" : ")");
        }

        /**
         * LPAD/RPAD where the engine has them but not the client's rules: HSQLDB's LPAD cuts a longer x to its last n
         * characters where the others keep the first n (written out as a CASE, x and n not a ?); PostgreSQL has no
         * LPAD of a number, which MySQL turns into its text (an exact number is cast to TEXT there).
         */
        private void padFunction(String name, List<Expression> args) {
            Long n = integerLiteral(args.get(1));
            Expression x = args.get(0);
            Expression count = args.get(1);
            boolean cutFirst = name.equals("LPAD") && target.family() == Dialect.Family.HSQLDB && (n == null || n >= 0)
                    && !(unparenthesized(x) instanceof JdbcParameter) // HSQLDB types no ? in CHAR_LENGTH(?)
                    && !(unparenthesized(count) instanceof JdbcParameter);
            if (cutFirst) {
                out().append("CASE ");
                if (n == null) { // a count below 0 is NULL in MySQL, where SUBSTR would fail
                    out().append("WHEN (");
                    emit(count);
                    out().append(") < 0 THEN NULL ");
                }
                out().append("WHEN CHAR_LENGTH(");
                emitAsText(x); // a number as its text: PostgreSQL has no LPAD of one, HSQLDB no CHAR_LENGTH
                out().append(") >= (");
                emit(count);
                out().append(") THEN SUBSTR(");
                emitAsText(x);
                out().append(", 1, ");
                emit(count);
                out().append(") ELSE ");
            }
            out().append(name).append('(');
            emitAsText(x);
            out().append(", ");
            // PostgreSQL takes an INTEGER count, not the BIGINT a MySQL client's integer arithmetic is there
            emitAs(args.get(1), target.family() == Dialect.Family.POSTGRESQL && n == null ? "INTEGER" : null);
            out().append(", ");
            emit(args.get(2));
            out().append(')');
            if (cutFirst) out().append(" END");
        }

        /**
         * MySQL's CONCAT_WS(sep, a, b, ...) where the engine lacks it (Derby), sep a non-empty string literal: the
         * arguments that are not NULL (numbers as their text, {@link #concatOperand}), each after sep, then the first sep
         * cut off; all NULL gives '' as in MySQL. The arguments are rendered several times; none may be a {@code ?} (which
         * Derby does not type there). False where not so written.
         */
        private boolean joinedWithSeparator(List<Expression> args) {
            if (!(args.get(0) instanceof StringValue sep) || sep.getPrefix() != null || sep.getNotExcapedValue().isEmpty()
                    || args.stream().anyMatch(a -> unparenthesized(a) instanceof JdbcParameter) // Derby types no ? IS NULL
                    || (sep.getValue().indexOf('\\') >= 0 && client.backslashEscapesInStrings())) {
                return false;
            }
            int cut = sep.getNotExcapedValue().length();
            String empty = stringLiteral("");
            String separator = stringLiteral(sep.getNotExcapedValue());
            Runnable joined = () -> {
                out().append('(');
                for (int i = 1; i < args.size(); i++) {
                    if (i > 1) out().append(" || ");
                    out().append("CASE WHEN ");
                    emit(args.get(i));
                    out().append(" IS NULL THEN ").append(empty).append(" ELSE ").append(separator).append(" || ");
                    emitAsText(args.get(i));
                    out().append(" END");
                }
                out().append(')');
            };
            // HSQLDB's LENGTH leaves trailing blanks out
            out().append("CASE WHEN ").append(target.family() == Dialect.Family.DERBY ? "LENGTH(" : "CHAR_LENGTH(");
            joined.run();
            out().append(") <= ").append(cut).append(" THEN ").append(empty).append(" ELSE SUBSTR(");
            joined.run();
            out().append(", ").append(cut + 1).append(") END");
            return true;
        }

        /**
         * MySQL's FIND_IN_SET(s, l) where the engine lacks it (HSQLDB, PostgreSQL; Derby lacks the REPLACE it takes): the
         * commas in {@code ',' || l || ','} up to where {@code ',' || s || ','} starts in it; 0 where s is not there, l
         * is empty or s holds a comma (MySQL's answer), NULL where either is.
         */
        private void findInSet(Expression s, Expression l) {
            Expression comma = new StringValue(",");
            Expression needle = new Concat(new Concat(comma, s), comma);
            Expression haystack = new Concat(new Concat(comma, l), comma);
            Runnable prefix = () -> {
                out().append("SUBSTR(");
                emit(haystack);
                out().append(", 1, ");
                position(needle, haystack, false);
                out().append(')');
            };
            out().append("CASE WHEN ");
            emit(s);
            out().append(" IS NULL OR ");
            emit(l);
            out().append(" IS NULL THEN NULL WHEN ");
            emit(l);
            out().append(" = '' OR ");
            position(comma, s, false);
            out().append(" > 0 OR ");
            position(needle, haystack, false);
            out().append(" = 0 THEN 0 ELSE LENGTH(");
            prefix.run();
            out().append(") - LENGTH(REPLACE(");
            prefix.run();
            out().append(", ',', '')) END");
        }

        /**
         * MySQL's FROM_UNIXTIME(n) of an integer n (a whole number of seconds: a DATETIME without a fraction), where the
         * engine lacks it: 1970-01-01 00:00:00 moved by n seconds, which is the replicas' session zone's (UTC) local time;
         * NULL for n below 0, as in MySQL. Derby and HSQLDB move by whole days, then seconds (their TIMESTAMPADD counts
         * in INTEGER, which seconds past 2038 overflow); PostgreSQL adds n times one second. Past 2038 (n above
         * 2147483647) MariaDB fails (22018): so do the others, with a class 22 error of their own (22007).
         */
        private void fromUnixTime(Expression n) {
            String timestamp = target.castType(TypeKind.TIMESTAMP, 0, 0);
            out().append("CASE WHEN ");
            emit(n);
            out().append(" < 0 THEN NULL WHEN ");
            emit(n);
            // MariaDB refuses a time past 2038 (22018): a class 22 error too, from text that is no timestamp
            out().append(" > 2147483647 THEN CAST(");
            emitAs(n, target.family() == Dialect.Family.DERBY ? "CHAR(20)" : target.castType(TypeKind.VARCHAR, 20, 0));
            out().append(" || ' is past 2038' AS ").append(timestamp).append(") ELSE ");
            if (target.family() == Dialect.Family.POSTGRESQL) {
                out().append("CAST('1970-01-01 00:00:00' AS ").append(timestamp).append(") + CAST(");
                emit(n);
                out().append(" AS BIGINT) * INTERVAL '1 second'");
            } else {
                boolean derby = target.family() == Dialect.Family.DERBY;
                out().append(derby ? "{fn TIMESTAMPADD(" : "TIMESTAMPADD(").append("SQL_TSI_SECOND, CAST(MOD(");
                emit(n);
                out().append(", 86400) AS INTEGER), ").append(derby ? "{fn TIMESTAMPADD(" : "TIMESTAMPADD(")
                        .append("SQL_TSI_DAY, CAST((");
                emit(n);
                out().append(") / 86400 AS INTEGER), CAST('1970-01-01 00:00:00' AS ").append(timestamp).append("))")
                        .append(derby ? "}" : "").append(')').append(derby ? "}" : "");
            }
            out().append(" END");
        }

        /**
         * A text literal, as a VARCHAR of its length where the engine's string literals are CHAR(n) (Derby, HSQLDB), which
         * a CASE or a concatenation pads to the longest and compares PAD SPACE ({@link #literalsPadded}): for the CASEs
         * and joins the rewrites below write out as text.
         */
        private String stringLiteral(String text) {
            String quoted = "'" + text.replace("'", "''") + "'";
            return !target.stringLiteralsAreFixedLength() ? quoted
                    : "CAST(" + quoted + " AS " + target.castType(TypeKind.VARCHAR, Math.max(1, text.length()), 0) + ")";
        }

        /**
         * {@code x} as text, as MySQL turns a number into text for its string functions: on Derby {@link #concatOperand};
         * elsewhere a MySQL client's exact number is cast to TEXT (PostgreSQL) or VARCHAR (HSQLDB, whose string functions
         * take no number), anything else is left as it is.
         */
        private void emitAsText(Expression x) {
            if (target.family() == Dialect.Family.DERBY) {
                concatOperand(x);
                return;
            }
            boolean number = client.family() == Dialect.Family.MYSQL && isExactNumberOperand(x);
            emitAs(x, !number ? null : target.family() == Dialect.Family.POSTGRESQL ? "TEXT"
                    : target.castType(TypeKind.VARCHAR, 40, 0));
        }

        /** {@code x}, or {@code CAST(x AS type)} where {@code type} is not null. */
        private void emitAs(Expression x, String type) {
            if (type != null) out().append("CAST(");
            emit(x);
            if (type != null) out().append(" AS ").append(type).append(')');
        }

        /**
         * LPAD/RPAD(x, n, 'pad') where the engine has neither (Derby): n an integer written out (1 or more) and the pad a
         * non-empty string literal, x a string or an exact number (as text, {@link #concatOperand}) but not a CHAR column
         * (whose blanks Derby counts) nor a {@code ?} (which Derby does not type there). As in MySQL, x is cut to n
         * characters when longer; else the pad, repeated to n characters and cut to what x lacks, goes before (LPAD) or
         * after it; NULL stays NULL. False where not so written: the caller refuses it.
         */
        private boolean padded(boolean left, List<Expression> args) {
            Long n = integerLiteral(args.get(1));
            ColumnType type = typeOf(args.get(0));
            if (n == null || n < 1 || n > 4000 || !(args.get(2) instanceof StringValue pad) || pad.getPrefix() != null
                    || unparenthesized(args.get(0)) instanceof JdbcParameter // Derby types no ? in LENGTH(?)
                    || pad.getNotExcapedValue().isEmpty() || (type != null && type.kind() == TypeKind.CHAR)
                    || (pad.getValue().indexOf('\\') >= 0 && client.backslashEscapesInStrings())) {
                return false;
            }
            StringBuilder fill = new StringBuilder();
            while (fill.length() < n) fill.append(pad.getNotExcapedValue());
            String literal = stringLiteral(fill.substring(0, n.intValue()));
            Expression x = args.get(0);
            // HSQLDB's LENGTH leaves trailing blanks out
            String length = target.family() == Dialect.Family.DERBY ? "LENGTH(" : "CHAR_LENGTH(";
            // a literal x as a VARCHAR where literals are CHARs (HSQLDB compared a padded result PAD SPACE; generated corpus)
            boolean literalX = unparenthesized(x) instanceof StringValue;
            Runnable operand = () -> {
                if (literalX) {
                    emitChosenValue(x, literalsPadded(List.of(x)));
                } else {
                    emitAsText(x);
                }
            };
            out().append("CASE WHEN ").append(length);
            operand.run();
            out().append(") >= ").append(n).append(" THEN SUBSTR(");
            operand.run();
            out().append(", 1, ").append(n).append(") ELSE ");
            if (!left) {
                operand.run();
                out().append(" || ");
            }
            out().append("SUBSTR(").append(literal).append(", 1, ").append(n).append(" - ").append(length);
            operand.run();
            out().append("))");
            if (left) {
                out().append(" || ");
                operand.run();
            }
            return out().append(" END") != null;
        }

        /**
         * MySQL's DAYOFYEAR of a DATE or TIMESTAMP: HSQLDB's own, PostgreSQL's EXTRACT(DOY), and on Derby, which has none,
         * the days from the first of January of that year, plus one.
         */
        private void dayOfYear(Expression x) {
            switch (target.family()) {
                case DERBY -> {
                    out().append("({fn TIMESTAMPDIFF(SQL_TSI_DAY, ");
                    derbyFirstOfMonth(x, true);
                    out().append(", CAST(");
                    emit(x);
                    out().append(" AS DATE))} + 1)");
                }
                case POSTGRESQL -> datePart("DOY", x);
                default -> call("DAYOFYEAR", List.of(x));
            }
        }

        /**
         * MySQL's LAST_DAY of a DATE or TIMESTAMP, a DATE: HSQLDB's own (cast to DATE: it keeps a TIMESTAMP's type),
         * PostgreSQL's first of the month plus a month less a day, and the same with TIMESTAMPADD on Derby.
         */
        private void lastDayOfMonth(Expression x) {
            String date = target.castType(TypeKind.DATE, 0, 0);
            switch (target.family()) {
                case DERBY -> {
                    out().append("CAST({fn TIMESTAMPADD(SQL_TSI_DAY, -1, {fn TIMESTAMPADD(SQL_TSI_MONTH, 1, ");
                    derbyFirstOfMonth(x, false);
                    out().append(")})} AS ").append(date).append(')');
                }
                case POSTGRESQL -> {
                    out().append("CAST(DATE_TRUNC('month', ");
                    emit(x);
                    out().append(") + INTERVAL '1 month' - INTERVAL '1 day' AS ").append(date).append(')');
                }
                case HSQLDB -> {
                    out().append("CAST(LAST_DAY(");
                    emit(x);
                    out().append(") AS ").append(date).append(')');
                }
                default -> call("LAST_DAY", List.of(x));
            }
        }

        /** On Derby: the first day of {@code x}'s month ({@code ofYear}: of its year), a DATE. */
        private void derbyFirstOfMonth(Expression x, boolean ofYear) {
            out().append("CAST(");
            if (ofYear) {
                out().append("{fn TIMESTAMPADD(SQL_TSI_MONTH, 1 - MONTH(");
                emit(x);
                out().append("), ");
            }
            out().append("{fn TIMESTAMPADD(SQL_TSI_DAY, 1 - DAY(");
            emit(x);
            out().append("), CAST(");
            emit(x);
            out().append(" AS DATE))}");
            if (ofYear) out().append(")}");
            out().append(" AS DATE)");
        }

        /** Whole days from the date of {@code from} to the date of {@code to}. */
        private void daysBetween(Expression from, Expression to) {
            String date = target.castType(TypeKind.DATE, 0, 0);
            if (target.family() == Dialect.Family.DERBY) {
                out().append("{fn TIMESTAMPDIFF(SQL_TSI_DAY, CAST(");
                emit(from);
                out().append(" AS ").append(date).append("), CAST(");
                emit(to);
                out().append(" AS ").append(date).append("))}");
            } else {
                out().append("(CAST(");
                emit(to);
                out().append(" AS ").append(date).append(") - CAST(");
                emit(from);
                out().append(" AS ").append(date).append("))");
            }
        }

        /**
         * MySQL's {@code DATE_FORMAT(x, 'format')} of numeric fields: each of %Y %y %m %d %H %i %s %S %T is cut from
         * x written out as {@code yyyy-mm-dd hh:mi:ss} (Derby's CAST to CHAR, the others' TO_CHAR), the rest of the
         * format is text. False (nothing written) for a format with other specifiers (names of months and days, %e, %j,
         * ...) or none.
         */
        private boolean formatted(Expression x, String format) {
            List<Object> pieces = new ArrayList<>(); // text (String) and fields (TextField) in order
            StringBuilder text = new StringBuilder();
            boolean field = false;
            for (int i = 0; i < format.length(); i++) {
                char c = format.charAt(i);
                if (c != '%') {
                    text.append(c);
                    continue;
                }
                if (++i == format.length()) return false;
                if (format.charAt(i) == '%') {
                    text.append('%');
                    continue;
                }
                TextField cut = TextField.of(format.charAt(i));
                if (cut == null && NAMED_FIELDS.indexOf(format.charAt(i)) < 0) return false;
                if (text.length() > 0) pieces.add(text.toString());
                text.setLength(0);
                pieces.add(cut != null ? cut : (Object) format.charAt(i));
                field = true;
            }
            if (!field) return false;
            if (text.length() > 0) pieces.add(text.toString());
            boolean dateOnly = temporalKind(x) == TypeKind.DATE && target.family() == Dialect.Family.DERBY;
            out().append('(');
            for (int i = 0; i < pieces.size(); i++) {
                if (i > 0) out().append(" || ");
                if (pieces.get(i) instanceof String literal) {
                    out().append('\'').append(literal.replace("'", "''")).append('\'');
                    continue;
                }
                if (pieces.get(i) instanceof Character named) {
                    namedField(x, dateOnly, named);
                    continue;
                }
                TextField cut = (TextField) pieces.get(i);
                if (dateOnly && cut.start() > DATE_TEXT_LENGTH) { // a DATE's time of day: midnight, but NULL with it
                    out().append("CASE WHEN ");
                    emit(x);
                    out().append(" IS NULL THEN NULL ELSE '").append("00:00:00", 0, cut.length()).append("' END");
                    continue;
                }
                textSlice(x, dateOnly, cut.start(), cut.length());
            }
            out().append(')');
            return true;
        }

        /** {@code length} characters from {@code start} of x written out as {@code yyyy-mm-dd hh:mi:ss}. */
        private void textSlice(Expression x, boolean dateOnly, int start, int length) {
            out().append("SUBSTR(");
            if (target.family() == Dialect.Family.DERBY) {
                out().append("CAST(");
                emit(x);
                out().append(" AS CHAR(").append(dateOnly ? DATE_TEXT_LENGTH : TIMESTAMP_TEXT_LENGTH).append("))");
            } else {
                out().append("TO_CHAR(");
                emit(x);
                out().append(", 'YYYY-MM-DD HH24:MI:SS')");
            }
            out().append(", ").append(start).append(", ").append(length).append(')');
        }

        /**
         * DATE_FORMAT's %e and %c (day and month without a leading zero), %M and %b (the month's English name, in full
         * and in three letters), %W and %a (the weekday's, likewise), as MySQL writes them with its default locale
         * (lc_time_names en_US): from the text of x and its DAYOFWEEK, the same on every engine; NULL for NULL.
         */
        private void namedField(Expression x, boolean dateOnly, char field) {
            switch (field) {
                case 'e', 'c' -> {
                    int at = field == 'e' ? 9 : 6;
                    out().append("CASE WHEN ");
                    textSlice(x, dateOnly, at, 1);
                    out().append(" = '0' THEN ");
                    textSlice(x, dateOnly, at + 1, 1);
                    out().append(" ELSE ");
                    textSlice(x, dateOnly, at, 2);
                    out().append(" END");
                }
                case 'M', 'b' -> {
                    out().append("CASE ");
                    textSlice(x, dateOnly, 6, 2);
                    for (int m = 0; m < MONTH_NAMES.size(); m++) {
                        String name = MONTH_NAMES.get(m);
                        out().append(" WHEN '").append(m < 9 ? "0" : "").append(m + 1).append("' THEN ")
                                .append(stringLiteral(field == 'M' ? name : name.substring(0, 3)));
                    }
                    out().append(" END");
                }
                default -> { // 'W', 'a'
                    out().append("CASE ");
                    calendarField("DAYOFWEEK", x);
                    for (int d = 0; d < DAY_NAMES.size(); d++) {
                        String name = DAY_NAMES.get(d);
                        out().append(" WHEN ").append(d + 1).append(" THEN ")
                                .append(stringLiteral(field == 'W' ? name : name.substring(0, 3)));
                    }
                    out().append(" END");
                }
            }
        }

        /**
         * MySQL's {@code CONVERT(x, type)} is {@code CAST(x AS type)}, written so for every engine (with the CAST's type
         * mapping); {@code CONVERT(x USING charset)} is x on the other engines, where every string is Unicode (not to
         * binary).
         */
        @Override
        public <S> StringBuilder visit(TranscodingFunction convert, S context) {
            if (client.family() != Dialect.Family.MYSQL) {
                return super.visit(convert, context);
            }
            // JSqlParser 5.3 reads MySQL's CONVERT(x, type) as SQL Server's CONVERT(type, x): x in the "type", the type in
            // the "expression"; a column name as x reads so, a longer expression does not parse. A CAST on every engine,
            // MySQL's too, so that the digits a CAST to an integer drops are dropped alike (CAST above)
            if (!convert.isTranscodeStyle() && convert.getColDataType() != null && convert.getExpression() != null
                    && convert.getColDataType().toString().matches("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?")) {
                CastExpression cast = new CastExpression();
                cast.setLeftExpression(new Column(convert.getColDataType().toString()));
                cast.setColDataType(new ColDataType(convert.getExpression().toString()));
                emit(cast);
                return out();
            }
            if (target.family() == Dialect.Family.MYSQL) {
                return super.visit(convert, context);
            }
            if (convert.isTranscodeStyle() && convert.getTranscodingName() != null
                    && !convert.getTranscodingName().equalsIgnoreCase("binary")) {
                emit(convert.getExpression());
                return out();
            }
            throw TranslationException.unsupported(convert + " has no equivalent on " + target.name()
                    + ", one of the replicas' engines; write CAST(x AS type)");
        }

        /**
         * A PostgreSQL client's {@code date + n} or {@code date - n} (n a whole number: days, a DATE again), which Derby
         * refuses and MySQL computes as a number (20240229 + 1), written out as a move by n days; false when it is not
         * one, or the target is PostgreSQL.
         */
        private boolean daysMoved(Expression date, Expression days, boolean subtract) {
            if (!postgresqlClientElsewhere() || temporalKind(date) != TypeKind.DATE || numeric(days) != Numeric.INTEGER
                    && !(unparenthesized(days) instanceof JdbcParameter)) {
                return false;
            }
            moved(date, TypeKind.DATE, days, "DAY", subtract);
            return true;
        }

        /**
         * A PostgreSQL client's {@code date + ?} on PostgreSQL: the {@code ?} cast to INTEGER, since PostgreSQL has no DATE
         * + BIGINT, the type a {@code setLong} gives it (the other engines take it, {@link #daysMoved}).
         */
        private boolean daysBound(BinaryExpression op, String operator) {
            if (client.family() != Dialect.Family.POSTGRESQL || target.family() != Dialect.Family.POSTGRESQL
                    || temporalKind(op.getLeftExpression()) != TypeKind.DATE
                    || !(unparenthesized(op.getRightExpression()) instanceof JdbcParameter)) {
                return false;
            }
            emit(op.getLeftExpression());
            out().append(operator);
            emitAs(op.getRightExpression(), "INTEGER");
            return true;
        }

        /**
         * The start of x's day, ISO week (Monday), month or year, a TIMESTAMP: the DATE moved back by the days since then
         * ({@link #moved}; on Derby a month's or year's first day as LAST_DAY finds it, {@link #derbyFirstOfMonth}), cast
         * to TIMESTAMP.
         */
        private void truncatedTime(String unit, Expression x) {
            Expression day = new CastExpression("CAST", x, "DATE");
            Expression into = switch (unit) {
                case "week" -> extracted("ISODOW", x);
                case "month" -> new Function("DAY", x);
                case "year" -> extracted("DOY", x);
                default -> null;
            };
            out().append("CAST(");
            if (into == null) {
                emit(day);
            } else if (target.family() == Dialect.Family.DERBY && !unit.equals("week")) {
                derbyFirstOfMonth(x, unit.equals("year"));
            } else {
                moved(day, TypeKind.DATE, new Subtraction().withLeftExpression(new LongValue(1)).withRightExpression(into), "DAY",
                        false);
            }
            out().append(" AS ").append(target.castType(TypeKind.TIMESTAMP, Dialect.DEFAULT_TIMESTAMP_PRECISION, 0)).append(')');
        }

        /**
         * MySQL's DATE_FORMAT format for a PostgreSQL TO_CHAR pattern of the numeric fields (YYYY, MM, DD, HH24, MI, SS) and
         * separators, else null (names, 12-hour clocks, FM and the other modifiers are each engine's own).
         */
        private static String dateFormatOf(String pattern) {
            StringBuilder format = new StringBuilder();
            int i = 0;
            while (i < pattern.length()) {
                String rest = pattern.substring(i);
                String field = rest.startsWith("YYYY") ? "%Y" : rest.startsWith("HH24") ? "%H" : rest.startsWith("MM") ? "%m"
                        : rest.startsWith("DD") ? "%d" : rest.startsWith("MI") ? "%i" : rest.startsWith("SS") ? "%s" : null;
                if (field != null) {
                    format.append(field);
                    i += field.equals("%Y") || field.equals("%H") ? 4 : 2;
                } else if ("-/:., T".indexOf(pattern.charAt(i)) >= 0) {
                    format.append(pattern.charAt(i++));
                } else {
                    return null;
                }
            }
            return format.indexOf("%") < 0 ? null : format.toString();
        }

        private static ExtractExpression extracted(String field, Expression x) {
            ExtractExpression e = new ExtractExpression();
            e.setName(field);
            e.setExpression(x);
            return e;
        }

        /** A PostgreSQL client's statement rendered for an engine of another family. */
        private boolean postgresqlClientElsewhere() {
            return client.family() == Dialect.Family.POSTGRESQL && target.family() != Dialect.Family.POSTGRESQL;
        }

        /** A MySQL client's statement rendered for an engine of another family. */
        private boolean mysqlClientElsewhere() {
            return client.family() == Dialect.Family.MYSQL && target.family() != Dialect.Family.MYSQL;
        }

        /** {@code CAST(n AS INTEGER)}, negated for a subtraction, times {@code factor}. */
        private void intervalCount(Expression n, boolean subtract, int factor) {
            Long literal = integerLiteral(n);
            if (literal != null) {
                out().append(literal * factor * (subtract ? -1 : 1));
                return;
            }
            int by = factor * (subtract ? -1 : 1);
            out().append(by == 1 ? "" : "(" + by + ") * ").append("CAST(");
            emit(n);
            out().append(" AS ").append(target.castType(TypeKind.INTEGER, 0, 0)).append(')');
        }

        @Override
        public <S> StringBuilder visit(IntervalExpression interval, S context) {
            if (target.family() != client.family()) {
                throw TranslationException.unsupported("INTERVAL arithmetic is spelled differently by every engine; compute the "
                        + "date or timestamp in the application and pass it as a parameter");
            }
            return super.visit(interval, context);
        }

        @Override
        public <S> StringBuilder visit(EqualsTo equals, S context) {
            refuseNullComparison(equals.getLeftExpression(), equals.getRightExpression(), "IS NULL");
            return constantsAsVarchar(equals, () -> comparedWide(equals, () -> derbyNoPad(equals.getLeftExpression(),
                    equals.getRightExpression(), " AND ", " = ") || constantFirst(equals, " = ") ? out() : super.visit(equals, context)));
        }

        @Override
        public <S> StringBuilder visit(NotEqualsTo notEquals, S context) {
            refuseNullComparison(notEquals.getLeftExpression(), notEquals.getRightExpression(), "IS NOT NULL");
            return constantsAsVarchar(notEquals, () -> comparedWide(notEquals, () -> derbyNoPad(notEquals.getLeftExpression(),
                    notEquals.getRightExpression(), " OR ", " <> ") || constantFirst(notEquals, " <> ") ? out()
                    : super.visit(notEquals, context)));
        }

        /**
         * HSQLDB 2.7 under NO PAD answers a comparison with a constant string first as if PAD SPACE ({@code 'a' <> s} is
         * false for {@code s = 'a '}; under NOT also {@code 'a' = s} and {@code 'a' < s}), but the same comparison written
         * the other way round correctly: {@code l op r} is rendered {@code r mirrored l} there.
         *
         * @param mirrored the operator with its operands swapped ({@code " > "} for {@code <})
         * @return false when nothing was rendered
         */
        private boolean constantFirst(BinaryExpression op, String mirrored) {
            if (!target.stringLiteralFirstIgnoresNoPad() || !constantString(op.getLeftExpression())
                    || constantString(op.getRightExpression())) {
                return false;
            }
            emit(op.getRightExpression());
            out().append(mirrored);
            emit(op.getLeftExpression());
            return true;
        }

        /**
         * Derby compares strings PAD SPACE ('a' = 'a ' is true) and has no NO PAD collation; the other replicas are set
         * up NO PAD. When one side is a text literal, the other side is a string (Derby refuses to compare a number with
         * one and cannot read a date out of it), so adding a LENGTH check gives NO PAD: {@code (x = 'a ' AND LENGTH(x) =
         * 2)}, {@code (x <> 'a ' OR LENGTH(x) <> 2)}. The other operand is rendered twice.
         *
         * @return false when nothing was rendered (not Derby, or no such literal)
         */
        private boolean derbyNoPad(Expression left, Expression right, String connective, String operator) {
            if (!target.comparesStringsPadSpace()) {
                return false;
            }
            if (comparedAsStrings(left, right)) {
                noPad(left, right, connective, operator);
                return true;
            }
            Integer length = textLiteralLength(right);
            Expression other = left;
            if (length == null) {
                length = textLiteralLength(left);
                other = right;
            }
            // A CAST to CHAR(n) is blank-padded on Derby: its length is not what was written.
            if (length == null || other instanceof JdbcParameter || other instanceof CastExpression) {
                return false;
            }
            out().append('(');
            emit(left);
            out().append(operator);
            emit(right);
            out().append(connective).append("LENGTH(");
            emit(other);
            out().append(')').append(operator).append(length).append(')');
            return true;
        }

        /**
         * {@code (l op r connective LENGTH(l) op LENGTH(r))} for operands known to be strings: equal under PAD SPACE and
         * of equal length is equal under NO PAD. A parameter's LENGTH needs a type on Derby (the widest VARCHAR); a
         * string literal's length is written out. Operands are rendered twice.
         */
        private void noPad(Expression left, Expression right, String connective, String operator) {
            out().append('(');
            emit(left);
            out().append(operator);
            emit(right);
            out().append(connective);
            lengthOf(left);
            out().append(operator);
            lengthOf(right);
            out().append(')');
        }

        private void lengthOf(Expression e) {
            if (e instanceof StringValue && ((StringValue) e).getPrefix() == null
                    && !(((StringValue) e).getNotExcapedValue().indexOf('\\') >= 0 && client.backslashEscapesInStrings())) {
                out().append(((StringValue) e).getNotExcapedValue().length());
                return;
            }
            out().append(target.charLengthFunction()).append('(');
            if (e instanceof JdbcParameter) {
                out().append("CAST(");
                emit(e);
                out().append(" AS ").append(target.castType(TypeKind.VARCHAR, MAX_DERBY_VARCHAR_LENGTH, 0)).append(')');
            } else {
                emit(e);
            }
            out().append(')');
        }

        /**
         * At least the length of a text literal ({@link #textLiteralLength}) or of a string computed from such literals
         * alone (UPPER, LOWER, TRIM, SUBSTR and concatenations of them); else null.
         */
        private Integer constantLength(Expression e) {
            Expression inner = unparenthesized(e);
            if (inner instanceof StringValue) return textLiteralLength(inner);
            if (!constantString(inner)) return null;
            List<Expression> parts = new ArrayList<>();
            if (inner instanceof Concat) {
                flattenConcat(inner, parts);
            } else if (inner instanceof TrimFunction) {
                parts.add(((TrimFunction) inner).getExpression());
            } else if (inner instanceof Function && "CONCAT".equalsIgnoreCase(((Function) inner).getName())) {
                parts.addAll(arguments((Function) inner));
            } else if (inner instanceof Function) {
                parts.add(arguments((Function) inner).get(0));
            }
            int total = 0;
            for (Expression part : parts) {
                Integer length = unparenthesized(part) instanceof LongValue ? Integer.valueOf(DERBY_NUMBER_TEXT_LENGTH)
                        : constantLength(part);
                if (length == null) return null;
                total += length;
            }
            return total;
        }

        /** The length of a plain string literal that cannot be read as a number, date, time or boolean; else null. */
        private Integer textLiteralLength(Expression e) {
            if (!(e instanceof StringValue)) {
                return null;
            }
            StringValue literal = (StringValue) e;
            String value = literal.getNotExcapedValue();
            if (literal.getPrefix() != null || value.indexOf('\\') >= 0 && client.backslashEscapesInStrings()
                    || NOT_TEXT_LITERAL.matcher(value).matches()) {
                return null;
            }
            return value.length();
        }

        /** Derby rejects a NULL literal in a comparison (42X01) where the others evaluate it to UNKNOWN. */
        private void refuseNullComparison(Expression left, Expression right, String instead) {
            if (!target.acceptsComparisonWithNullLiteral() && (left instanceof NullValue || right instanceof NullValue)) {
                throw TranslationException.unsupported("A comparison with NULL is never true (and Derby refuses it); write x "
                        + instead);
            }
        }

        @Override
        public <S> StringBuilder visit(Addition addition, S context) {
            if (addition.getRightExpression() instanceof IntervalExpression interval
                    && (mysqlClientElsewhere() || postgresqlClientElsewhere())) {
                dateArithmetic(addition.getLeftExpression(), interval, false);
                return out();
            }
            if (daysMoved(addition.getLeftExpression(), addition.getRightExpression(), false)) return out();
            if (daysBound(addition, " + ")) return out();
            typeParametersBesideDecimal(ParameterPosition.ADDITIVE, addition.getLeftExpression(), addition.getRightExpression());
            return clientCutWritten(addition, () -> integerArithmetic(addition, " + ") ? out() : super.visit(addition, context));
        }

        @Override
        public <S> StringBuilder visit(Subtraction subtraction, S context) {
            if (subtraction.getRightExpression() instanceof IntervalExpression interval
                    && (mysqlClientElsewhere() || postgresqlClientElsewhere())) {
                dateArithmetic(subtraction.getLeftExpression(), interval, true);
                return out();
            }
            if (daysMoved(subtraction.getLeftExpression(), subtraction.getRightExpression(), true)) return out();
            if (daysBound(subtraction, " - ")) return out();
            if (postgresqlClientElsewhere() && temporalKind(subtraction.getLeftExpression()) == TypeKind.DATE
                    && temporalKind(subtraction.getRightExpression()) == TypeKind.DATE) {
                // PostgreSQL's DATE - DATE: the days between them, an INTEGER (MySQL's and HSQLDB's DATEDIFF)
                if (target.family() == Dialect.Family.MYSQL || target.family() == Dialect.Family.HSQLDB) {
                    call("DATEDIFF", List.of(subtraction.getLeftExpression(), subtraction.getRightExpression()));
                } else {
                    daysBetween(subtraction.getRightExpression(), subtraction.getLeftExpression());
                }
                return out();
            }
            typeParametersBesideDecimal(ParameterPosition.ADDITIVE, subtraction.getLeftExpression(), subtraction.getRightExpression());
            return clientCutWritten(subtraction,
                    () -> integerArithmetic(subtraction, " - ") ? out() : super.visit(subtraction, context));
        }

        @Override
        public <S> StringBuilder visit(Multiplication multiplication, S context) {
            typeParametersBesideDecimal(ParameterPosition.MULTIPLICATIVE, multiplication.getLeftExpression(),
                    multiplication.getRightExpression());
            return clientCutWritten(multiplication,
                    () -> integerArithmetic(multiplication, " * ") ? out() : super.visit(multiplication, context));
        }

        /**
         * {@code e} rendered by {@code render}, truncated to the scale a Derby client's engine computes it in ({@link
         * #clientCut}) where the target computes it otherwise: {@code TRUNCATE(d + ?, 2)} on MySQL and MariaDB, {@code
         * TRUNC(d + ?, 2)} on PostgreSQL, {@code TRUNC(d + CAST(? AS DECIMAL(31, 12)), 2)} on HSQLDB (which would cut the
         * {@code ?} half toward zero first). Derby and Db2 compute it so themselves, except beside a literal: there the
         * {@code ?} takes the literal's type, too narrow for most values ({@code -0.19 + ?} bound to -10 fails with 22003,
         * where the others answer -10.19), so it is typed wide and the sum cut by a CAST, which truncates there.
         */
        private StringBuilder clientCutWritten(Expression e, Supplier<StringBuilder> render) {
            ClientCut cut = clientCut(e);
            boolean cutsItself = target.decimalStore() == DecimalStore.TRUNCATES && target.parameterTakesOperandType();
            if (cut == null || cutsItself && !cut.besideLiterals()) return render.get();
            if (target.parameterTakesOperandType()) wideParameters.merge(cut.marker(), cut.places(), Math::max);
            if (cutsItself) {
                out().append("CAST(");
                render.get();
                return out().append(" AS ").append(target.castType(TypeKind.DECIMAL, DECIMAL_DIGITS_EVERYWHERE, cut.scale())).append(')');
            }
            out().append(target.truncateFunction()).append('(');
            render.get();
            return out().append(", ").append(cut.scale()).append(')');
        }

        /**
         * Engines compute +, - and * of integers differently: Derby, PostgreSQL and Db2 in the operands' type (INTEGER
         * overflows at 2^31), MySQL/MariaDB in BIGINT, HSQLDB unchecked (INTEGER widens to BIGINT, a BIGINT sum to
         * DECIMAL, a BIGINT difference wraps around). Every engine is made to compute in BIGINT and fail beyond it: a
         * CAST of an operand to BIGINT for the first, exact DECIMAL arithmetic cast back to BIGINT for HSQLDB.
         *
         * @return false when nothing was rendered (not integers, or the engine computes in BIGINT already)
         */
        private boolean integerArithmetic(BinaryExpression op, String operator) {
            IntegerArithmetic arithmetic = target.integerArithmetic();
            if (arithmetic == IntegerArithmetic.BIGINT || !integerOperands(op.getLeftExpression(), op.getRightExpression())) {
                return false;
            }
            if (arithmetic == IntegerArithmetic.UNCHECKED) {
                out().append("CAST(");
                castToExact(op.getLeftExpression());
                out().append(operator);
                emit(op.getRightExpression());
                out().append(" AS ").append(target.castType(TypeKind.BIGINT, 0, 0)).append(')');
                return true;
            }
            if (isBigint(op.getLeftExpression()) || isBigint(op.getRightExpression())) {
                return false;
            }
            castToBigint(op.getLeftExpression());
            out().append(operator);
            emit(op.getRightExpression());
            return true;
        }

        /**
         * Both operands are integers; a {@code ?} counts as one next to a known integer (Derby types it from the other
         * operand, so an integer is all it can hold there anyway).
         */
        private boolean integerOperands(Expression left, Expression right) {
            Numeric l = numeric(left);
            Numeric r = numeric(right);
            return l == Numeric.INTEGER && (r == Numeric.INTEGER || right instanceof JdbcParameter)
                    || r == Numeric.INTEGER && left instanceof JdbcParameter;
        }

        /** HSQLDB computes DECIMAL exactly; its integer results may widen or wrap around, so integers go through DECIMAL. */
        private void castToExact(Expression e) {
            out().append("CAST(");
            emit(e);
            out().append(" AS ").append(target.castType(TypeKind.DECIMAL, BIGINT_DIGITS, 0)).append(')');
        }

        private void castToBigint(Expression e) {
            out().append("CAST(");
            emit(e);
            out().append(" AS ").append(target.castType(TypeKind.BIGINT, 0, 0)).append(')');
        }

        /** ABS of the smallest INTEGER overflows except on MySQL/MariaDB: in BIGINT everywhere, as +, - and *. */
        private void absoluteInteger(Expression operand) {
            switch (target.integerArithmetic()) {
                case UNCHECKED:
                    out().append("CAST(ABS(");
                    castToExact(operand);
                    out().append(") AS ").append(target.castType(TypeKind.BIGINT, 0, 0)).append(')');
                    return;
                case OPERAND_TYPE:
                    out().append("ABS(");
                    if (isBigint(operand)) {
                        emit(operand);
                    } else {
                        castToBigint(operand);
                    }
                    out().append(')');
                    return;
                default:
                    out().append("ABS(");
                    emit(operand);
                    out().append(')');
            }
        }

        @Override
        public <S> StringBuilder visit(SignedExpression signed, S context) {
            // -i of the smallest INTEGER overflows on Derby and PostgreSQL, not on MariaDB: negate in BIGINT (see above).
            Expression operand = signed.getExpression();
            if (target.family() != client.family() && (unparenthesized(operand) instanceof StringValue
                    || unparenthesized(operand) instanceof CastExpression cast && isStringType(cast))) {
                // -5::text is -(5::text) to PostgreSQL, which fails; MariaDB would answer -5
                throw TranslationException.unsupported("a sign before a string (" + signed + ") is a number on some engines and"
                        + " an error on others; put the sign inside the CAST: (-5)::text");
            }
            IntegerArithmetic arithmetic = target.integerArithmetic();
            if (signed.getSign() != '-' || arithmetic == IntegerArithmetic.BIGINT || isLiteral(operand)
                    || numeric(operand) != Numeric.INTEGER) {
                return super.visit(signed, context);
            }
            if (arithmetic == IntegerArithmetic.UNCHECKED) {
                out().append("CAST(-");
                castToExact(operand);
                return out().append(" AS ").append(target.castType(TypeKind.BIGINT, 0, 0)).append(')');
            }
            out().append('-');
            if (isBigint(operand)) {
                emit(operand);
            } else {
                castToBigint(operand);
            }
            return out();
        }

        @Override
        public <S> StringBuilder visit(MinorThan op, S context) {
            return ordered(op, " < ", " < ", " > ", () -> super.visit(op, context));
        }

        @Override
        public <S> StringBuilder visit(MinorThanEquals op, S context) {
            return ordered(op, " < ", " <= ", " >= ", () -> super.visit(op, context));
        }

        @Override
        public <S> StringBuilder visit(GreaterThan op, S context) {
            return ordered(op, " > ", " > ", " < ", () -> super.visit(op, context));
        }

        @Override
        public <S> StringBuilder visit(GreaterThanEquals op, S context) {
            return ordered(op, " > ", " >= ", " <= ", () -> super.visit(op, context));
        }

        /** {@code < <= > >=}: NO PAD on Derby ({@link #padSpaceOrder}), constants second on HSQLDB, else {@code plain}. */
        private StringBuilder ordered(BinaryExpression op, String strict, String operator, String mirrored,
                Supplier<StringBuilder> plain) {
            return constantsAsVarchar(op, () -> comparedWide(op, () -> padSpaceOrder(op.getLeftExpression(), op.getRightExpression(),
                    strict, operator) || constantFirst(op, mirrored) ? out() : plain.get()));
        }

        /**
         * HSQLDB 2.7 compares two strings computed from constants alone PAD SPACE, as the CHARs they are there ({@code
         * SUBSTR('a b', 1, 2) = 'a'} is true; found by the generated corpus): each such operand is a VARCHAR of its length.
         */
        private StringBuilder constantsAsVarchar(BinaryExpression op, Supplier<StringBuilder> render) {
            Expression left = op.getLeftExpression();
            Expression right = op.getRightExpression();
            if (!target.stringLiteralFirstIgnoresNoPad() || !constantString(left) || !constantString(right)) return render.get();
            return withOperands(op, asVarchar(left), asVarchar(right), render);
        }

        /** {@code x [NOT] IN (a, b)} as {@code [NOT] (x = a OR x = b)}, each equality rendered as any other. */
        private StringBuilder equalities(InExpression in, ExpressionList<?> items) {
            out().append(in.isNot() ? "NOT (" : "(");
            for (int i = 0; i < items.size(); i++) {
                if (i > 0) out().append(" OR ");
                emit(new EqualsTo(in.getLeftExpression(), (Expression) items.get(i)));
            }
            return out().append(')');
        }

        /** {@code e}, a string of constants, as a VARCHAR of its length (as it is when its length is not known, or a CAST). */
        private Expression asVarchar(Expression e) {
            if (unparenthesized(e) instanceof CastExpression) return e;
            Integer length = constantLength(e);
            return length == null ? e : new CastExpression("CAST", e, "VARCHAR(" + Math.max(1, length) + ")");
        }

        @Override
        public <S> StringBuilder visit(Between between, S context) {
            Expression x = between.getLeftExpression();
            Expression low = between.getBetweenExpressionStart();
            Expression high = between.getBetweenExpressionEnd();
            typeParametersBesideDecimal(ParameterPosition.COMPARISON, x, low, high);
            if (target.stringLiteralFirstIgnoresNoPad() && constantString(x) && !(constantString(low) && constantString(high))) {
                // HSQLDB compares a constant string first PAD SPACE (constantFirst): the bounds first
                out().append(between.isNot() ? "NOT (" : "(");
                emit(low);
                out().append(" <= ");
                emit(x);
                out().append(" AND ");
                emit(high);
                out().append(" >= ");
                emit(x);
                return out().append(')');
            }
            boolean strings = isStringOperand(x) && isStringOperand(low) && isStringOperand(high)
                    && (isVarchar(x) || isVarchar(low) || isVarchar(high));
            if (!target.comparesStringsPadSpace() || !strings) {
                return super.visit(between, context);
            }
            // each bound is compared NO PAD where the two sides are strings one of which is a VARCHAR, and as written
            // where both are constants (compared alike everywhere)
            out().append(between.isNot() ? "NOT (" : "(");
            if (!padSpaceOrder(x, low, " > ", " >= ")) {
                emit(x);
                out().append(" >= ");
                emit(low);
            }
            out().append(" AND ");
            if (!padSpaceOrder(x, high, " < ", " <= ")) {
                emit(x);
                out().append(" <= ");
                emit(high);
            }
            return out().append(')');
        }

        /** Both operands strings a PAD SPACE engine would compare: a VARCHAR column (or string function) and a string. */
        private boolean comparedAsStrings(Expression left, Expression right) {
            return target.comparesStringsPadSpace() && (isVarchar(left) && isStringOperand(right)
                    || isVarchar(right) && isStringOperand(left));
        }

        private boolean isStringOperand(Expression e) {
            return isString(e, true);
        }

        /**
         * Under PAD SPACE {@code 'a' < 'a '} is false (they are equal); NO PAD puts the shorter first. So for Derby
         * {@code l < r} is {@code (l < r OR l = r AND LENGTH(l) < LENGTH(r))}, and alike for the other orderings
         * ({@code strict} is the operator without equality). Operands are rendered several times.
         *
         * @return false when nothing was rendered
         */
        private boolean padSpaceOrder(Expression left, Expression right, String strict, String operator) {
            if (!comparedAsStrings(left, right)) {
                return false;
            }
            out().append('(');
            emit(left);
            out().append(strict);
            emit(right);
            out().append(" OR ");
            emit(left);
            out().append(" = ");
            emit(right);
            out().append(" AND ");
            lengthOf(left);
            out().append(operator);
            lengthOf(right);
            out().append(')');
            return true;
        }

        @Override
        public <S> StringBuilder visit(InExpression in, S context) {
            if (target.refusesUntypedNull() && in.getRightExpression() instanceof ExpressionList<?> values
                    && values.stream().anyMatch(v -> isBareNull((Expression) v))) {
                // Derby refuses an untyped NULL in the list: NULLIF(x, x) is a NULL of x's type
                List<Expression> typed = new ArrayList<>();
                for (Object v : values) {
                    typed.add(isBareNull((Expression) v) ? new Function("NULLIF", in.getLeftExpression(), in.getLeftExpression())
                            : (Expression) v);
                }
                InExpression withTypes = new InExpression(in.getLeftExpression(), new ParenthesedExpressionList<>(typed));
                withTypes.setNot(in.isNot());
                emit(withTypes);
                return out();
            }
            if (in.getRightExpression() instanceof ExpressionList<?> list) {
                List<Expression> operands = new ArrayList<>();
                operands.add(in.getLeftExpression());
                list.forEach(item -> operands.add((Expression) item));
                typeParametersBesideDecimal(ParameterPosition.COMPARISON, operands.toArray(new Expression[0]));
            }
            if ((target.comparesStringsPadSpace() || target.stringLiteralFirstIgnoresNoPad()) && constantString(in.getLeftExpression())
                    && in.getRightExpression() instanceof ExpressionList<?> constants && !constants.isEmpty()
                    && constants.stream().allMatch(item -> constantString((Expression) item))) {
                // strings of constants alone are CHARs on Derby and HSQLDB, compared PAD SPACE (SUBSTR('a b', 1, 2) IN
                // ('a') was true there; found by the generated corpus): the equalities, each made NO PAD as = is
                return equalities(in, constants);
            }
            Expression reassociated = reassociated(in);
            if (reassociated != in) {
                emit(reassociated);
                return out();
            }
            ParenthesedSelect unwrapped = target.family() == Dialect.Family.MYSQL ? null : selectAllOfDerived(in.getRightExpression());
            if (unwrapped != null) {
                InExpression direct = new InExpression(in.getLeftExpression(), unwrapped);
                direct.setNot(in.isNot());
                emit(direct);
                return out();
            }
            if (target.failsOnValueListsReadingTheRow() && in.getRightExpression() instanceof ExpressionList<?> list
                    && !list.isEmpty() && list.stream().anyMatch(item -> readsRow((Expression) item))) {
                // HSQLDB 2.7.4 fails (S1000 "General error") on such a list in an ORDER BY: the same OR of equalities
                return equalities(in, list);
            }
            if (!target.comparesStringsPadSpace() || in.getOldOracleJoinSyntax() != 0 || in.getOraclePriorPosition() != 0) {
                return super.visit(in, context);
            }
            Expression left = in.getLeftExpression();
            if (in.getRightExpression() instanceof ParenthesedSelect) {
                return padSpaceInSubquery(in) ? out() : super.visit(in, context);
            }
            if (!(in.getRightExpression() instanceof ExpressionList)) {
                return super.visit(in, context);
            }
            ExpressionList<?> items = (ExpressionList<?>) in.getRightExpression();
            if (target.misreadsNullInValueLists() && items.size() >= 3 && !isStringOperand(left)
                    && items.stream().anyMatch(item -> readsRow((Expression) item))) {
                // x IN (a, b, c) is x = a OR x = b OR x = c, which Derby evaluates right when a value is NULL
                out().append(in.isNot() ? "NOT (" : "(");
                for (int i = 0; i < items.size(); i++) {
                    if (i > 0) out().append(" OR ");
                    emit(left);
                    out().append(" = ");
                    emit((Expression) items.get(i));
                }
                return out().append(')');
            }
            if (!isStringOperand(left) || items.isEmpty()) {
                return super.visit(in, context);
            }
            boolean varchar = isVarchar(left);
            for (Object item : items) {
                if (!isStringOperand((Expression) item)) {
                    return super.visit(in, context);
                }
                varchar |= isVarchar((Expression) item);
            }
            if (!varchar) {
                return super.visit(in, context);
            }
            // x IN (a, b) is x = a OR x = b, each made NO PAD; NOT IN is its negation.
            out().append(in.isNot() ? "NOT (" : "(");
            boolean first = true;
            for (Object item : items) {
                if (!first) {
                    out().append(" OR ");
                }
                first = false;
                noPad(left, (Expression) item, " AND ", " = ");
            }
            return out().append(')');
        }

        /**
         * LIKE's escape character as the client's engine reads the pattern, made explicit where the target's differs.
         * Without an ESCAPE clause MySQL, MariaDB and PostgreSQL escape with the backslash and Derby, HSQLDB and Db2
         * escape nothing; {@code ESCAPE ''} means no escape character on PostgreSQL but the backslash on MariaDB, and is
         * refused by Derby, HSQLDB and Db2. A pattern that escapes with the backslash gets {@code ESCAPE '\'} where
         * nothing escapes by default, except {@code REPLACE(p, '\', '\\')} (every backslash doubled, so that none
         * escapes: Hibernate's MySQL dialect), which is {@code p} there (and spares Derby the REPLACE it lacks). A pattern
         * that escapes nothing gets {@code ESCAPE ''} on PostgreSQL, and its backslashes doubled on MySQL and MariaDB.
         * An explicit escape character is kept.
         */
        @Override
        public <S> StringBuilder visit(LikeExpression like, S context) {
            LikeExpression.KeyWord keyWord = like.getLikeKeyWord();
            if (keyWord == LikeExpression.KeyWord.ILIKE && target.family() != Dialect.Family.POSTGRESQL) {
                // PostgreSQL's case-insensitive LIKE, which the others lack: LIKE of both sides in lower case
                Expression subject = like.getLeftExpression();
                Expression pattern = like.getRightExpression();
                like.setLikeKeyWord(LikeExpression.KeyWord.LIKE);
                like.setLeftExpression(new Function("LOWER", subject));
                like.setRightExpression(new Function("LOWER", pattern));
                try {
                    return visit(like, context);
                } finally {
                    like.setLikeKeyWord(keyWord);
                    like.setLeftExpression(subject);
                    like.setRightExpression(pattern);
                }
            }
            if ((keyWord == LikeExpression.KeyWord.REGEXP || keyWord == LikeExpression.KeyWord.RLIKE)
                    && target.family() != Dialect.Family.MYSQL
                    || keyWord == LikeExpression.KeyWord.SIMILAR_TO && target.family() != Dialect.Family.POSTGRESQL) {
                throw regularExpressions(keyWord.name().replace('_', ' '));
            }
            Expression subject = like.getLeftExpression();
            Expression varchar = target.stringLiteralFirstIgnoresNoPad() && !(unparenthesized(subject) instanceof StringValue)
                    ? asVarchar(subject) : subject;
            if (varchar != subject) {
                // HSQLDB 2.7.4 matches TRIM('a') LIKE 'a ' (a string computed from constants is a CHAR there; found by the
                // generated corpus): a VARCHAR of it
                return withOperands(like, varchar, like.getRightExpression(), () -> visit(like, context));
            }
            Expression escape = like.getEscape();
            boolean emptyEscape = escape instanceof StringValue && ((StringValue) escape).getValue().isEmpty();
            if (like.getLikeKeyWord() != LikeExpression.KeyWord.LIKE && like.getLikeKeyWord() != LikeExpression.KeyWord.ILIKE
                    || escape != null && !emptyEscape) {
                return super.visit(like, context);
            }
            boolean clientEscapes = client.likeEscapesWithBackslash() && !(emptyEscape && client.takesEmptyLikeEscape());
            Expression pattern = like.getRightExpression();
            Expression newEscape = null;
            Expression newPattern = pattern;
            if (clientEscapes && !target.likeEscapesWithBackslash()) {
                Expression undoubled = backslashesDoubled(pattern);
                if (undoubled != null) {
                    newPattern = undoubled;
                } else {
                    newEscape = new StringValue("\\");
                }
            } else if (!clientEscapes && target.likeEscapesWithBackslash()) {
                if (target.takesEmptyLikeEscape()) {
                    newEscape = new StringValue("");
                } else {
                    newPattern = doubleBackslashes(pattern);
                }
            }
            if (target.likeOfOnlyPercentIsFalseForNull() && newPattern instanceof StringValue any && any.getPrefix() == null
                    && "%".equals(any.getValue())) {
                newPattern = new StringValue("%%"); // the same strings, and unknown for NULL
            }
            if (newEscape == escape && newPattern == pattern) {
                return super.visit(like, context);
            }
            like.setEscape(newEscape);
            like.setRightExpression(newPattern);
            try {
                return super.visit(like, context);
            } finally {
                like.setEscape(escape);
                like.setRightExpression(pattern);
            }
        }

        @Override
        public <S> StringBuilder visit(RegExpMatchOperator match, S context) {
            if (target.family() != Dialect.Family.POSTGRESQL) throw regularExpressions(match.getStringExpression());
            return super.visit(match, context);
        }

        @Override
        public <S> StringBuilder visit(SimilarToExpression similar, S context) {
            if (target.family() != Dialect.Family.POSTGRESQL) throw regularExpressions("SIMILAR TO");
            return super.visit(similar, context);
        }

        /**
         * {@code a IS [NOT] DISTINCT FROM b}: MySQL and MariaDB spell it {@code [NOT] (a <=> b)}; Derby has neither, so
         * there it is written out with a's and b's NULL tests, never unknown (each side three times, so not with a {@code ?}).
         */
        @Override
        public <S> StringBuilder visit(IsDistinctExpression distinct, S context) {
            Expression a = distinct.getLeftExpression();
            Expression b = distinct.getRightExpression();
            if (target.family() == Dialect.Family.MYSQL) {
                out().append(distinct.isNot() ? "(" : "NOT (");
                emit(a);
                out().append(" <=> ");
                emit(b);
                return out().append(')');
            }
            if (target.family() != Dialect.Family.DERBY) return super.visit(distinct, context);
            if (holdsMarker(a) || holdsMarker(b)) {
                throw TranslationException.unsupported("IS DISTINCT FROM with a ? is written out on Derby with each side three"
                        + " times; write (a = ? AND a IS NOT NULL OR a IS NULL AND ? IS NULL) and bind the value twice");
            }
            // not distinct: both there and equal, or both NULL (never unknown); built as a tree, so that the equality gets
            // Derby's own rules (PAD SPACE) like any other
            IsNullExpression aThere = new IsNullExpression(a);
            aThere.setNot(true);
            IsNullExpression bThere = new IsNullExpression(b);
            bThere.setNot(true);
            Expression same = new OrExpression(new ParenthesedExpressionList<>(new AndExpression(new AndExpression(
                    new EqualsTo(a, b), aThere), bThere)), new AndExpression(new IsNullExpression(a), new IsNullExpression(b)));
            emit(distinct.isNot() ? new ParenthesedExpressionList<>(same) : new NotExpression(new ParenthesedExpressionList<>(same)));
            return out();
        }

        /** {@code pattern} with every backslash doubled: a literal's value, else {@code REPLACE(pattern, '\', '\\')}. */
        private static Expression doubleBackslashes(Expression pattern) {
            if (pattern instanceof StringValue literal && literal.getPrefix() == null) {
                return new StringValue(literal.getValue().replace("\\", "\\\\"));
            }
            Function replace = new Function();
            replace.setName("REPLACE");
            replace.setParameters(new ExpressionList<>(pattern, new StringValue("\\"), new StringValue("\\\\")));
            return replace;
        }

        /** {@code p} of {@code REPLACE(p, '\', '\\')}, else null. */
        private static Expression backslashesDoubled(Expression pattern) {
            if (!(pattern instanceof Function f) || !"REPLACE".equalsIgnoreCase(f.getName())) {
                return null;
            }
            List<Expression> args = arguments(f);
            return args.size() == 3 && args.get(1) instanceof StringValue from && "\\".equals(from.getValue())
                    && args.get(2) instanceof StringValue to && "\\\\".equals(to.getValue()) ? args.get(0) : null;
        }

        /**
         * The derived table of {@code (SELECT * FROM (SELECT ...) alias)} with nothing else around it, else null. MySQL
         * refuses a subquery that reads the table an UPDATE or DELETE changes unless it is wrapped so (error 1093), and
         * its ORMs write the wrapper (Hibernate: {@code IN (SELECT * FROM (...) _sub_)}); Derby refuses {@code SELECT *}
         * in an IN subquery, and the wrapper means the same as the derived table alone.
         */
        private static ParenthesedSelect selectAllOfDerived(Expression right) {
            if (!(right instanceof ParenthesedSelect) || !(((ParenthesedSelect) right).getSelect() instanceof PlainSelect)) {
                return null;
            }
            PlainSelect wrapper = (PlainSelect) ((ParenthesedSelect) right).getSelect();
            boolean selectsAll = wrapper.getSelectItems().size() == 1
                    && wrapper.getSelectItems().get(0).getExpression() instanceof AllColumns
                    && !(wrapper.getSelectItems().get(0).getExpression() instanceof AllTableColumns);
            boolean bare = wrapper.getJoins() == null && wrapper.getWhere() == null && wrapper.getGroupBy() == null
                    && wrapper.getHaving() == null && wrapper.getOrderByElements() == null && wrapper.getLimit() == null
                    && wrapper.getOffset() == null && wrapper.getFetch() == null && wrapper.getDistinct() == null
                    && wrapper.getWithItemsList() == null && wrapper.getForMode() == null;
            if (!selectsAll || !bare || !(wrapper.getFromItem() instanceof ParenthesedSelect)) {
                return null;
            }
            ParenthesedSelect derived = (ParenthesedSelect) wrapper.getFromItem();
            return new ParenthesedSelect().withSelect(derived.getSelect());
        }

        /**
         * {@code s IN (SELECT v ...)} with VARCHAR s and v: a non-blank sentinel after both sides makes Derby's PAD SPACE
         * equality exact: {@code s || '.' IN (SELECT v || '.' ...)}, in every branch of a set operation. The subquery's
         * items are swapped for the time of rendering (Derby allows no correlated derived table, so no wrapping).
         */
        private boolean padSpaceInSubquery(InExpression in) {
            Select sub = ((ParenthesedSelect) in.getRightExpression()).getSelect();
            List<Select> branches = sub instanceof SetOperationList ? ((SetOperationList) sub).getSelects() : List.of(sub);
            for (Select branch : branches) {
                if (!(branch instanceof PlainSelect) || ((PlainSelect) branch).getSelectItems().size() != 1
                        || ((PlainSelect) branch).getDistinct() != null
                        && ((PlainSelect) branch).getDistinct().getOnSelectItems() != null) {
                    return false;
                }
            }
            PlainSelect first = (PlainSelect) branches.get(0);
            if (!isVarchar(in.getLeftExpression())) {
                return false;
            }
            List<ScopeTable> scope = new ArrayList<>();
            addToScope(scope, first.getFromItem());
            addToScope(scope, first.getJoins());
            scopes.push(scope);
            boolean varchar;
            try {
                varchar = isVarchar(first.getSelectItems().get(0).getExpression());
            } finally {
                scopes.pop();
            }
            if (!varchar) {
                return false;
            }
            List<Expression> originals = new ArrayList<>();
            try {
                for (Select branch : branches) {
                    @SuppressWarnings("unchecked")
                    SelectItem<Expression> item = (SelectItem<Expression>) ((PlainSelect) branch).getSelectItems().get(0);
                    originals.add(item.getExpression());
                    item.setExpression(new Concat(item.getExpression(), new StringValue(".")));
                }
                out().append('(');
                emit(in.getLeftExpression());
                out().append(" || '.'").append(in.isNot() ? " NOT IN " : " IN ");
                emit(in.getRightExpression());
                out().append(')');
            } finally {
                for (int i = 0; i < originals.size(); i++) {
                    @SuppressWarnings("unchecked")
                    SelectItem<Expression> item = (SelectItem<Expression>) ((PlainSelect) branches.get(i)).getSelectItems().get(0);
                    item.setExpression(originals.get(i));
                }
            }
            return true;
        }

        @Override
        public <S> StringBuilder visit(Select select, S context) {
            return inExpressionSubquery(() -> super.visit(select, context));
        }

        @Override
        public <S> StringBuilder visit(ParenthesedSelect select, S context) {
            return inExpressionSubquery(() -> super.visit(select, context));
        }

        /** A subquery in an expression may be correlated: Derby refuses an outer reference inside a derived table. */
        private StringBuilder inExpressionSubquery(Supplier<StringBuilder> visit) {
            expressionSubqueries++;
            try {
                return visit.get();
            } finally {
                expressionSubqueries--;
            }
        }

        @Override
        public <S> StringBuilder visit(Concat concat, S context) {
            List<Expression> parts = new ArrayList<>();
            flattenConcat(concat, parts);
            concat(parts, false);
            return out();
        }

        private void flattenConcat(Expression e, List<Expression> parts) {
            if (e instanceof Concat) {
                flattenConcat(((Concat) e).getLeftExpression(), parts);
                flattenConcat(((Concat) e).getRightExpression(), parts);
            } else {
                parts.add(e);
            }
        }

        /** {@code parts} joined; {@code skipsNulls}: as PostgreSQL's CONCAT function, which skips a NULL (|| does not). */
        private void concat(List<Expression> parts, boolean skipsNulls) {
            if (skipsNulls) {
                if (target.family() == Dialect.Family.POSTGRESQL) {
                    call("CONCAT", parts);
                    return;
                }
                // PostgreSQL's CONCAT skips NULLs (all NULL: ''), where || and MySQL's CONCAT give NULL
                List<Expression> values = parts.stream().filter(p -> !(unparenthesized(p) instanceof NullValue)).toList();
                if (values.isEmpty()) {
                    out().append(stringLiteral(""));
                    return;
                }
                out().append(target.concatOperator() ? "(" : "CONCAT(");
                for (int i = 0; i < values.size(); i++) {
                    if (i > 0) out().append(target.concatOperator() ? " || " : ", ");
                    Expression part = values.get(i);
                    if (unparenthesized(part) instanceof StringValue) {
                        concatOperand(part);
                        continue;
                    }
                    out().append("COALESCE(");
                    if (target.family() == Dialect.Family.HSQLDB && isExactNumberOperand(part)) {
                        emitAs(part, target.castType(TypeKind.VARCHAR, 40, 0)); // HSQLDB's COALESCE takes no number and text
                    } else {
                        concatOperand(part);
                    }
                    out().append(", ").append(stringLiteral("")).append(')');
                }
                out().append(')');
                return;
            }
            if (target.concatOperator()) {
                out().append('(');
                for (int i = 0; i < parts.size(); i++) {
                    if (i > 0) {
                        out().append(" || ");
                    }
                    if (i == 0 && target.stringLiteralFirstIgnoresNoPad() && constantLength(parts.get(0)) != null
                            && parts.stream().skip(1).anyMatch(p -> isVarchar(p))) {
                        // HSQLDB types 'a' || t like its first operand, a CHAR, compared and deduplicated PAD SPACE; a
                        // VARCHAR operand makes the result a VARCHAR anyway
                        emitChosenValue(parts.get(0), true);
                        continue;
                    }
                    concatOperand(parts.get(i));
                }
                out().append(')');
            } else {
                out().append("CONCAT(");
                for (int i = 0; i < parts.size(); i++) {
                    if (i > 0) {
                        out().append(", ");
                    }
                    concatOperand(parts.get(i));
                }
                out().append(')');
            }
        }

        private void average(Expression argument, boolean distinct) {
            // Engines disagree on the type of AVG over integers (truncated integer, 4 or 16+ decimals): compute exactly
            // over DECIMAL(31, 10) and truncate every engine's answer to 4 decimal places.
            String wide = target.castType(TypeKind.DECIMAL, 31, 10);
            String truncate = target.truncateFunction();
            out().append(truncate == null ? "CAST(" : truncate + "(");
            out().append("AVG(").append(distinct ? "DISTINCT " : "").append("CAST(");
            emit(argument);
            out().append(" AS ").append(wide).append("))");
            if (truncate == null) {
                out().append(" AS ").append(target.castType(TypeKind.DECIMAL, 31, 4)).append(')');
            } else {
                out().append(", 4)");
            }
        }

        @Override
        public <S> StringBuilder visit(Modulo modulo, S context) {
            out().append("MOD(");
            emit(modulo.getLeftExpression());
            out().append(", ");
            emit(modulo.getRightExpression());
            return out().append(')');
        }

        @Override
        public <S> StringBuilder visit(Division division, S context) {
            typeParametersBesideDecimal(ParameterPosition.MULTIPLICATIVE, division.getLeftExpression(), division.getRightExpression());
            if (client.integerDivisionTruncates() == target.integerDivisionTruncates()) {
                return super.visit(division, context);
            }
            Numeric left = numeric(division.getLeftExpression());
            Numeric right = numeric(division.getRightExpression());
            if (left == Numeric.NON_INTEGER || right == Numeric.NON_INTEGER) {
                return super.visit(division, context);
            }
            if (left == Numeric.INTEGER && right == Numeric.INTEGER && client.integerDivisionTruncates()) {
                emit(division.getLeftExpression());
                out().append(' ').append(target.integerDivisionOperator()).append(' ');
                emit(division.getRightExpression());
                return out();
            }
            throw TranslationException.unsupported("Division " + division + " is ambiguous across the replicas: MySQL/MariaDB "
                    + "divide integers exactly (7 / 2 = 3.5000) while Derby, HSQLDB, PostgreSQL and Db2 truncate (7 / 2 = 3), "
                    + "and the operand types are not visible in the statement. Write CAST(x AS DECIMAL(p, s)) / y for an exact "
                    + "quotient, or CAST(x AS INTEGER) / CAST(y AS INTEGER) for a truncated one");
        }

        @Override
        public <S> StringBuilder visit(IntegerDivision division, S context) {
            if (target.integerDivisionOperator() != null) {
                return super.visit(division, context);
            }
            if (numeric(division.getLeftExpression()) == Numeric.INTEGER && numeric(division.getRightExpression()) == Numeric.INTEGER) {
                emit(division.getLeftExpression());
                out().append(" / ");
                emit(division.getRightExpression());
                return out();
            }
            throw TranslationException.unsupported("DIV of operands of unknown type has no equivalent on this engine; write "
                    + "CAST(x AS INTEGER) DIV CAST(y AS INTEGER)");
        }

        @Override
        public <S> StringBuilder visit(CastExpression cast, S context) {
            String raw = cast.getColDataType().toString();
            if (client.castToCharWithoutLengthIsUnbounded() && raw.trim().equalsIgnoreCase("CHAR")) {
                throw TranslationException.unsupported("CAST(x AS CHAR) has no length; write CAST(x AS CHAR(n)) or VARCHAR(n)");
            }
            SqlTypes.Spec spec = SqlTypes.parse(raw, client);
            Expression operand = cast.getLeftExpression();
            if (unparenthesized(operand) instanceof StringValue text && (spec.kind() == TypeKind.DATE
                    || spec.kind() == TypeKind.TIME || spec.kind() == TypeKind.TIMESTAMP)) {
                SqlText.refuseClockString(text.getValue());
            }
            if (target.family() == Dialect.Family.DERBY && (spec.kind() == TypeKind.VARCHAR || spec.kind() == TypeKind.TEXT)
                    && isExactNumberOperand(operand) && !(unparenthesized(operand) instanceof JdbcParameter)) {
                // Derby casts a number to CHAR only (42846 for VARCHAR or CLOB): its text as || makes it (x::text)
                if (spec.kind() == TypeKind.TEXT) {
                    concatOperand(operand);
                    return out();
                }
                out().append("CAST(");
                concatOperand(operand);
                return out().append(" AS ").append(spec.cast(target)).append(')');
            }
            boolean narrows = spec.isInteger() || spec.kind() == TypeKind.DECIMAL;
            Integer places = narrows && client.castRoundsNumbers() && numeric(operand) != Numeric.INTEGER
                    && isExactNumberOperand(operand) && !isApproximate(operand) && !holdsMarker(operand) ? decimals(operand) : null;
            boolean clientRounds = places != null && places <= MAX_DERBY_ROUND_PLACES;
            if (clientRounds && target.family() != client.family() && places > (spec.isInteger() ? 0 : spec.scale())) {
                // the client's engine rounds half away from zero where a CAST drops digits of an exact number (MySQL,
                // PostgreSQL): ROUND first, as each engine spells it, and the CAST has nothing left to drop
                out().append("CAST(");
                emit(new Function("ROUND", operand, new LongValue(spec.isInteger() ? 0 : spec.scale())));
                return out().append(" AS ").append(spec.cast(target)).append(')');
            }
            out().append("CAST(");
            if (clientRounds && target.family() == client.family()) {
                emit(operand); // the client's own engine rounds it so itself
            } else if (narrows && target.castRoundsNumbers() && numeric(operand) != Numeric.INTEGER
                    && !(operand instanceof StringValue) && !(operand instanceof JdbcParameter)
                    && !(operand instanceof NullValue)) {
                // Derby and Db2 truncate when a CAST drops digits; make the rounding engines truncate too. The inner
                // DECIMAL cast lets TRUNC accept strings (HSQLDB) and doubles (PostgreSQL has no TRUNC(double, n)).
                out().append(target.truncateFunction()).append("(CAST(");
                emit(operand);
                out().append(" AS ").append(target.castType(TypeKind.DECIMAL, 31, 10)).append("), ")
                        .append(spec.isInteger() ? 0 : spec.scale()).append(')');
            } else if (narrows && target.family() == Dialect.Family.DERBY && mixedPadding && isApproximate(operand)) {
                // The others cut a DOUBLE at 10 decimals by rounding (CAST to DECIMAL(31, 10)) before they truncate;
                // Derby truncates its binary value (-33.0199999... is -33.01 there, -33.02 elsewhere): round it at 10
                // decimals first, exactly, in DECIMAL
                out().append("CAST(CAST(");
                emit(operand);
                out().append(" AS DECIMAL(31, 15)) + CASE WHEN ");
                emit(operand);
                out().append(" < 0 THEN -0.00000000005 ELSE 0.00000000005 END AS DECIMAL(31, 10))");
            } else {
                emit(operand);
            }
            return out().append(" AS ").append(spec.cast(target)).append(')');
        }
    }

    private static List<Expression> arguments(Function f) {
        ExpressionList<?> params = f.getParameters();
        List<Expression> args = new ArrayList<>();
        if (params != null) {
            args.addAll(params);
        }
        return args;
    }

    /**
     * The value an unqualified name stands for where the client's engine reads it as a register or a clock rather than a
     * column ({@code CURRENT_USER}, HSQLDB's {@code NOW} and {@code TODAY}, ...), else null.
     */
    static PinnedSlot.Kind pinnedName(Column column, Dialect client) {
        if (column.getTable() != null && column.getTable().getName() != null) return null;
        String name = column.getColumnName().toUpperCase(Locale.ROOT);
        switch (name) {
            case "CURRENT_USER":
            case "SESSION_USER":
            case "SYSTEM_USER":
                return PinnedSlot.Kind.USER;
            case "USER":
                return client.family() != Dialect.Family.MYSQL ? PinnedSlot.Kind.USER : null;
            default:
                return timeKind(name, false, client);
        }
    }

    /** Clock functions and keywords; {@code call} is true for the function-call spelling NOW() / CURRENT_TIMESTAMP(). */
    private static PinnedSlot.Kind timeKind(String name, boolean call, Dialect client) {
        switch (name) {
            case "NOW":
                return call || client == Dialect.HSQLDB ? PinnedSlot.Kind.TIMESTAMP : null; // HSQLDB needs no ()
            case "SYSDATE": // HSQLDB's needs no ()
                return call || client == Dialect.HSQLDB ? PinnedSlot.Kind.TIMESTAMP : null;
            case "GETDATE":
            case "SYSTIMESTAMP":
            case "CLOCK_TIMESTAMP": // PostgreSQL's
            case "STATEMENT_TIMESTAMP":
            case "TRANSACTION_TIMESTAMP":
                return call ? PinnedSlot.Kind.TIMESTAMP : null;
            case "TODAY": // HSQLDB's CURRENT_DATE; it reads TODAY as the date even where a column has that name
                return !call && client == Dialect.HSQLDB ? PinnedSlot.Kind.DATE : null;
            case "CURRENT_TIMESTAMP":
            case "LOCALTIMESTAMP":
            case "CURRENT TIMESTAMP":
                return PinnedSlot.Kind.TIMESTAMP;
            case "CURRENT_DATE":
            case "CURDATE":
                return PinnedSlot.Kind.DATE;
            case "CURRENT_TIME":
            case "CURTIME":
                return PinnedSlot.Kind.TIME;
            case "LOCALTIME":
                return client.localtimeIsTimestamp() ? PinnedSlot.Kind.TIMESTAMP : PinnedSlot.Kind.TIME;
            case "UTC_TIMESTAMP":
                return PinnedSlot.Kind.UTC_TIMESTAMP;
            case "UTC_DATE": // MySQL's, with or without ()
                return PinnedSlot.Kind.UTC_DATE;
            case "UTC_TIME":
                return PinnedSlot.Kind.UTC_TIME;
            default:
                return null;
        }
    }

    /**
     * Not a constant and not a parameter: a column, or an expression that may read one (an IN list of parameters and
     * literals stays an IN list, which Derby probes by index).
     */
    private static boolean readsRow(Expression e) {
        Expression inner = unparenthesized(e);
        return !(isLiteral(inner) || inner instanceof JdbcParameter || inner instanceof StringValue || inner instanceof NullValue);
    }

    private static boolean isLiteral(Expression e) {
        if (e instanceof SignedExpression) {
            return isLiteral(((SignedExpression) e).getExpression());
        }
        return e instanceof LongValue || e instanceof DoubleValue;
    }

    /** Like {@link #numeric}, but a CAST to a type that is not a number is not a number. */
    private Numeric visibleNumber(Expression e) {
        Expression inner = e;
        while (inner instanceof SignedExpression || inner instanceof ParenthesedExpressionList
                && ((ParenthesedExpressionList<?>) inner).size() == 1) {
            inner = inner instanceof SignedExpression ? ((SignedExpression) inner).getExpression()
                    : (Expression) ((ParenthesedExpressionList<?>) inner).get(0);
        }
        if (inner instanceof CastExpression) {
            try {
                TypeKind kind = SqlTypes.parse(((CastExpression) inner).getColDataType().toString(), client).kind();
                switch (kind) {
                    case SMALLINT:
                    case INTEGER:
                    case BIGINT:
                        return Numeric.INTEGER;
                    case DECIMAL:
                    case REAL:
                    case DOUBLE:
                        return Numeric.NON_INTEGER;
                    default:
                        return Numeric.UNKNOWN;
                }
            } catch (TranslationException notPortable) {
                return Numeric.UNKNOWN;
            }
        }
        return numeric(inner);
    }

    /**
     * An operand known to be an exact number: an integer or DECIMAL column, literal or CAST, and {@code + - *}, ABS,
     * COALESCE and CASE of those.
     */
    private boolean isExactNumberOperand(Expression e) {
        Expression inner = unparenthesized(e);
        ColumnType type = typeOf(inner);
        if (numeric(e) == Numeric.INTEGER || isExactDecimal(e) || type != null && type.isExactNumber()) {
            return true;
        }
        List<Expression> operands = kindOperands(inner, false);
        return operands != null && operands.stream()
                .allMatch(o -> unparenthesized(o) instanceof NullValue || isExactNumberOperand(o));
    }

    /** An approximate number by the text and the catalog: a DOUBLE or REAL column or CAST, 1.5E0, and arithmetic of one. */
    private boolean isApproximate(Expression e) {
        Expression inner = unparenthesized(e);
        ColumnType type = typeOf(inner);
        if (type != null) {
            return type.kind() == TypeKind.DOUBLE || type.kind() == TypeKind.REAL;
        }
        if (inner instanceof DoubleValue) {
            return inner.toString().toUpperCase(Locale.ROOT).contains("E");
        }
        if (inner instanceof CastExpression cast) {
            try {
                TypeKind kind = SqlTypes.parse(cast.getColDataType().toString(), client).kind();
                return kind == TypeKind.DOUBLE || kind == TypeKind.REAL;
            } catch (TranslationException notPortable) {
                return false;
            }
        }
        List<Expression> operands = kindOperands(inner, true);
        return operands != null && operands.stream().anyMatch(this::isApproximate);
    }

    /** Functions whose value is of the kind of their arguments. */
    private static final Set<String> KIND_KEEPING_FUNCTIONS = Set.of("COALESCE", "IFNULL", "NVL", "ABS");

    /**
     * The operands whose kind of number decides {@code e}'s: of {@code + - *} (and {@code /} when {@code division}), a
     * sign, a CASE's values, COALESCE/IFNULL/NVL/ABS's arguments; null for anything else.
     */
    private static List<Expression> kindOperands(Expression e, boolean division) {
        if (e instanceof Addition || e instanceof Subtraction || e instanceof Multiplication || division && e instanceof Division) {
            BinaryExpression b = (BinaryExpression) e;
            return List.of(b.getLeftExpression(), b.getRightExpression());
        }
        if (e instanceof SignedExpression signed) {
            return List.of(signed.getExpression());
        }
        if (e instanceof CaseExpression c) {
            return caseResults(c);
        }
        if (e instanceof Function f && f.getParameters() != null && !f.getParameters().isEmpty()
                && KIND_KEEPING_FUNCTIONS.contains(f.getName().toUpperCase(Locale.ROOT))) {
            return arguments(f);
        }
        return null;
    }

    /** Where a DATE_FORMAT field stands in {@code yyyy-mm-dd hh:mi:ss} (1-based). */
    private record TextField(int start, int length) {
        static TextField of(char specifier) {
            return switch (specifier) {
                case 'Y' -> new TextField(1, 4);
                case 'y' -> new TextField(3, 2);
                case 'm' -> new TextField(6, 2);
                case 'd' -> new TextField(9, 2);
                case 'H' -> new TextField(12, 2);
                case 'i' -> new TextField(15, 2);
                case 's', 'S' -> new TextField(18, 2);
                case 'T' -> new TextField(12, 8);
                default -> null;
            };
        }
    }

    /** DATE_FORMAT's specifiers written from names or without leading zeros ({@code namedField}). */
    private static final String NAMED_FIELDS = "ecMbWa";
    private static final List<String> MONTH_NAMES = List.of("January", "February", "March", "April", "May", "June", "July",
            "August", "September", "October", "November", "December");
    /** From Sunday, as DAYOFWEEK counts (1 = Sunday). */
    private static final List<String> DAY_NAMES = List.of("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
            "Saturday");

    /** {@code yyyy-mm-dd}, and Derby's text of a TIMESTAMP, {@code yyyy-mm-dd hh:mi:ss.fffffffff}. */
    private static final int DATE_TEXT_LENGTH = 10;
    private static final int TIMESTAMP_TEXT_LENGTH = 29;

    /** The units that move a DATE to another DATE. */
    private static final Set<String> DATE_INTERVAL_UNITS = Set.of("DAY", "WEEK", "MONTH", "QUARTER", "YEAR");

    /** A clock's name as {@link #timeKind} takes it: upper case, blanks as one underscore, without parentheses. */
    private static String clockName(String written) {
        return written.toUpperCase(Locale.ROOT).replaceAll("[\\s_]+", "_").replaceAll("\\(.*\\)", "");
    }

    /** MySQL's interval units the other engines can add (MICROSECOND and the compound ones are not). */
    private static final Set<String> INTERVAL_UNITS = Set.of("SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "QUARTER",
            "YEAR");

    /** PostgreSQL's spelling of an interval of one unit: {@code '3 days'}, {@code '-1 month'}. */
    private static final java.util.regex.Pattern POSTGRESQL_INTERVAL = java.util.regex.Pattern.compile(
            "(-?\\d{1,9})\\s*(second|minute|hour|day|week|month|quarter|year)s?", java.util.regex.Pattern.CASE_INSENSITIVE);

    /**
     * The count and unit of {@code INTERVAL n unit}, where n is a whole number (written out, also as a string, a
     * {@code ?}, an integer column or expression), else null. JSqlParser reads {@code INTERVAL ? MONTH} as an interval of
     * an interval without the keyword.
     */
    private Map.Entry<Expression, String> intervalAmount(IntervalExpression interval) {
        String unit = interval.getIntervalType() == null ? null : interval.getIntervalType().toUpperCase(Locale.ROOT);
        Expression count = null;
        if (interval.getParameter() != null) {
            String p = interval.getParameter().replace("'", "").trim();
            java.util.regex.Matcher spelled = POSTGRESQL_INTERVAL.matcher(p);
            if (unit == null && client.family() == Dialect.Family.POSTGRESQL && spelled.matches()) {
                // PostgreSQL's INTERVAL '3 days': one whole number of one unit
                p = spelled.group(1);
                unit = spelled.group(2).toUpperCase(Locale.ROOT);
            }
            if (!p.matches("-?\\d{1,9}")) return null;
            long v = Long.parseLong(p);
            count = v < 0 ? new SignedExpression('-', new LongValue(-v)) : new LongValue(v);
        } else if (interval.getExpression() instanceof IntervalExpression inner && !inner.isUsingIntervalKeyword() && unit == null) {
            return intervalAmount(inner);
        } else if (interval.getExpression() != null) {
            count = interval.getExpression();
            if (!(unparenthesized(count) instanceof JdbcParameter) && numeric(count) != Numeric.INTEGER) return null;
        }
        if (count == null || unit == null || !INTERVAL_UNITS.contains(unit)) return null;
        return Map.entry(count, unit);
    }

    /** DATE or TIMESTAMP when {@code x} visibly is one (a column, a literal, a CAST, the pinned clock), else null. */
    private TypeKind temporalKind(Expression x) {
        Expression inner = unparenthesized(x);
        ColumnType type = typeOf(inner);
        TypeKind kind = null;
        if (type != null) {
            kind = type.kind();
        } else if (inner instanceof DateTimeLiteralExpression literal) {
            kind = literal.getType() == DateTimeLiteralExpression.DateTime.DATE ? TypeKind.DATE
                    : literal.getType() == DateTimeLiteralExpression.DateTime.TIMESTAMP ? TypeKind.TIMESTAMP : null;
        } else if (inner instanceof CastExpression cast) {
            try {
                kind = SqlTypes.parse(cast.getColDataType().toString(), client).kind();
            } catch (TranslationException notPortable) {
                return null;
            }
        } else if (inner instanceof Function || inner instanceof TimeKeyExpression || inner instanceof Column) {
            String name = inner instanceof Function f ? f.getName() : inner instanceof Column c ? c.getColumnName()
                    : ((TimeKeyExpression) inner).getStringValue();
            PinnedSlot.Kind clock = timeKind(clockName(name), inner instanceof Function, client);
            kind = clock == PinnedSlot.Kind.DATE || clock == PinnedSlot.Kind.UTC_DATE ? TypeKind.DATE
                    : clock == PinnedSlot.Kind.TIMESTAMP || clock == PinnedSlot.Kind.UTC_TIMESTAMP ? TypeKind.TIMESTAMP : null;
        }
        return kind == TypeKind.DATE || kind == TypeKind.TIMESTAMP ? kind : null;
    }

    /** The value of an integer written out ({@code 3}, {@code -1}), else null. */
    private static Long integerLiteral(Expression e) {
        Expression inner = unparenthesized(e);
        if (inner instanceof LongValue v) {
            return v.getValue();
        }
        if (inner instanceof SignedExpression signed && unparenthesized(signed.getExpression()) instanceof LongValue v) {
            return signed.getSign() == '-' ? -v.getValue() : v.getValue();
        }
        return null;
    }

    /** A number or string literal (never NULL). */
    private static boolean isNonNullLiteral(Expression e) {
        Expression inner = unparenthesized(e);
        if (inner instanceof SignedExpression signed) {
            inner = unparenthesized(signed.getExpression());
        }
        return inner instanceof LongValue || inner instanceof DoubleValue || inner instanceof StringValue;
    }

    /** A truth value as written (a comparison, IS NULL, IN, LIKE, EXISTS, NOT, AND, OR), not a number standing for one. */
    private static boolean isCondition(Expression e) {
        Expression inner = unparenthesized(e);
        return inner instanceof ComparisonOperator || inner instanceof AndExpression || inner instanceof OrExpression
                || inner instanceof NotExpression || inner instanceof IsNullExpression || inner instanceof InExpression
                || inner instanceof Between || inner instanceof LikeExpression || inner instanceof ExistsExpression;
    }

    /** A literal such as 1.50 or -2.5 or a CAST to DECIMAL (exact on every engine), not 1.5e3 or a DOUBLE. */
    private boolean isExactDecimal(Expression e) {
        if (e instanceof SignedExpression) {
            return isExactDecimal(((SignedExpression) e).getExpression());
        }
        if (e instanceof ParenthesedExpressionList && ((ParenthesedExpressionList<?>) e).size() == 1) {
            return isExactDecimal((Expression) ((ParenthesedExpressionList<?>) e).get(0));
        }
        if (e instanceof CastExpression) {
            try {
                return SqlTypes.parse(((CastExpression) e).getColDataType().toString(), client).kind() == TypeKind.DECIMAL;
            } catch (TranslationException notPortable) {
                return false;
            }
        }
        return e instanceof DoubleValue && !e.toString().toUpperCase(Locale.ROOT).contains("E");
    }

    /**
     * JSqlParser 5.3 parses {@code x IN (a, b) AND y} as {@code x IN ((a, b) AND y)} (its issue #2244, fixed after 5.3).
     * The text prints back the same, but the rewrites must see {@code (x IN (a, b)) AND y}: this returns that tree (new
     * nodes, the statement's AST is not changed), or {@code in} itself when it was parsed right.
     */
    static Expression reassociated(InExpression in) {
        Expression right = in.getRightExpression();
        if (!(right instanceof AndExpression || right instanceof OrExpression || right instanceof XorExpression)) {
            return in;
        }
        BinaryExpression condition = (BinaryExpression) right;
        InExpression first = new InExpression(in.getLeftExpression(), condition.getLeftExpression());
        first.setNot(in.isNot());
        first.setGlobal(in.isGlobal());
        Expression left = reassociated(first);
        if (condition instanceof AndExpression) {
            return new AndExpression(left, condition.getRightExpression()).withUseOperator(((AndExpression) condition).isUseOperator());
        }
        return condition instanceof OrExpression ? new OrExpression(left, condition.getRightExpression())
                : new XorExpression(left, condition.getRightExpression());
    }

    /** An operand an engine computes with in BIGINT: a BIGINT column or CAST, a large literal, integer arithmetic. */
    private boolean isBigint(Expression e) {
        Expression inner = unparenthesized(e);
        ColumnType type = typeOf(inner);
        if (type != null) {
            return type.kind() == TypeKind.BIGINT;
        }
        if (inner instanceof LongValue) {
            long v = ((LongValue) inner).getValue();
            return v > Integer.MAX_VALUE || v < Integer.MIN_VALUE;
        }
        if (inner instanceof CastExpression) {
            try {
                return SqlTypes.parse(((CastExpression) inner).getColDataType().toString(), client).kind() == TypeKind.BIGINT;
            } catch (TranslationException notPortable) {
                return false;
            }
        }
        return (inner instanceof Addition || inner instanceof Subtraction || inner instanceof Multiplication)
                && numeric(inner) == Numeric.INTEGER && !daysBetweenDates(inner);
    }

    /** A PostgreSQL client's {@code date - date}: an INTEGER of days (PostgreSQL's int4), not arithmetic made BIGINT. */
    private boolean daysBetweenDates(Expression e) {
        return e instanceof Subtraction days && client.family() == Dialect.Family.POSTGRESQL
                && temporalKind(days.getLeftExpression()) == TypeKind.DATE && temporalKind(days.getRightExpression()) == TypeKind.DATE;
    }

    /** Decimal places a ? bound for a MySQL client keeps on an engine that types it as a DECIMAL, past the column's scale. */
    static final int PARAMETER_EXTRA_PLACES = 10;
    /** Digits of the widest DECIMAL every engine holds (Derby's and Db2's 31). */
    static final int DECIMAL_DIGITS_EVERYWHERE = 31;

    /**
     * {@code stored}'s value, about to be rounded or truncated explicitly on a target that types a {@code ?} from the
     * column or the other operand ({@link Dialect#parameterTakesOperandType}: Derby, HSQLDB, Db2), with each {@code ?}
     * typed {@code DECIMAL(31, s + 10)}, which keeps what was bound for the explicit rule to act on: a lone {@code ?}
     * (typed as the column, it would be rounded or cut as it is bound), an operand of {@code +}, {@code -} or {@code *}
     * beside an integer for a client whose engine keeps what was bound there (MySQL), and beside a DECIMAL where the
     * target cuts it to that operand's scale ({@link Dialect#cutsParameterBesideDecimal}) by another rule than the client's
     * engine (HSQLDB for a Derby client). The tree is changed in place; {@code untype} puts it back.
     */
    private Expression typedParameters(StoredDecimal stored, List<Runnable> untype) {
        if (!target.parameterTakesOperandType()) return stored.value();
        int places = wideParameterPlaces(stored.precision(), stored.scale());
        if (unparenthesized(stored.value()) instanceof JdbcParameter) return wideParameter(stored.value(), places);
        boolean besideIntegers = !client.parameterTakesOperandType();
        // cut to the operand's scale by a rule of its own (HSQLDB half toward zero, Derby down): kept for the client's rule
        boolean cutBesideDecimals = target.cutsParameterBesideDecimal(ParameterPosition.MULTIPLICATIVE)
                && target.decimalStore() != client.decimalStore();
        if (besideIntegers || cutBesideDecimals) {
            typeOperandParameters(stored.value(), places, besideIntegers, untype);
        }
        return stored.value();
    }

    /**
     * Through parentheses, signs, {@code +}, {@code -} and {@code *}: a {@code ?} operand becomes a wide DECIMAL (only
     * beside a non-integer operand unless {@code besideIntegers}).
     */
    private void typeOperandParameters(Expression e, int places, boolean besideIntegers, List<Runnable> untype) {
        Expression inner = unparenthesized(e);
        if (inner instanceof SignedExpression signed) {
            typeOperandParameters(signed.getExpression(), places, besideIntegers, untype);
        } else if (inner instanceof Addition || inner instanceof Subtraction || inner instanceof Multiplication) {
            BinaryExpression b = (BinaryExpression) inner;
            Expression left = b.getLeftExpression();
            Expression right = b.getRightExpression();
            typeOperand(left, besideIntegers || numeric(right) != Numeric.INTEGER, b::setLeftExpression, places, besideIntegers, untype);
            typeOperand(right, besideIntegers || numeric(left) != Numeric.INTEGER, b::setRightExpression, places, besideIntegers, untype);
        }
    }

    private void typeOperand(Expression operand, boolean widen, java.util.function.Consumer<Expression> set, int places,
            boolean besideIntegers, List<Runnable> untype) {
        if (unparenthesized(operand) instanceof JdbcParameter) {
            if (widen) {
                set.accept(wideParameter(operand, places));
                untype.add(() -> set.accept(operand));
            }
        } else {
            typeOperandParameters(operand, places, besideIntegers, untype);
        }
    }

    /**
     * Places of a {@code ?} typed wide beside a DECIMAL(precision, scale): as many as leave its integer digits in 31
     * (Derby's widest), up to scale + 10, and always one past its scale.
     */
    private static int wideParameterPlaces(int precision, int scale) {
        int integerDigits = Math.min(precision, DECIMAL_DIGITS_EVERYWHERE) - scale;
        return Math.max(scale + 1, Math.min(scale + PARAMETER_EXTRA_PLACES, DECIMAL_DIGITS_EVERYWHERE - integerDigits));
    }

    /**
     * {@code op} rendered by {@code render} with a {@code ?} compared with a DECIMAL operand typed wide where the target
     * would cut what was bound to the operand's scale ({@link #typeParametersBesideDecimal}), and, in an equality
     * where the target mismatches integer types ({@link Dialect#mismatchesIntegerEqualityAcrossTypes}), an integer column
     * beside BIGINT arithmetic cast to BIGINT ({@link #bigintBeside}).
     */
    private StringBuilder comparedWide(BinaryExpression op, Supplier<StringBuilder> render) {
        Expression left = op.getLeftExpression();
        Expression right = op.getRightExpression();
        typeParametersBesideDecimal(ParameterPosition.COMPARISON, left, right);
        if (!(op instanceof EqualsTo) || !target.mismatchesIntegerEqualityAcrossTypes()) return render.get();
        return withOperands(op, bigintBeside(left, right), bigintBeside(right, left), render);
    }

    /** {@code render}'s text with {@code op}'s operands replaced by {@code left} and {@code right}, put back after it. */
    private static StringBuilder withOperands(BinaryExpression op, Expression left, Expression right, Supplier<StringBuilder> render) {
        Expression oldLeft = op.getLeftExpression();
        Expression oldRight = op.getRightExpression();
        if (left == oldLeft && right == oldRight) return render.get();
        op.setLeftExpression(left);
        op.setRightExpression(right);
        try {
            return render.get();
        } finally {
            op.setLeftExpression(oldLeft);
            op.setRightExpression(oldRight);
        }
    }

    /**
     * How a Derby (or Db2) client's engine computes {@code e} when it is {@code d + ?}, {@code d - ?}, {@code d * ?} or
     * {@code COALESCE(?, d)} with d of a DECIMAL(p, s) type ({@link #decimalType}): it gives the {@code ?} d's type and
     * computes the result in the type that makes, DECIMAL(p + 1, s) for {@code + -} and COALESCE, DECIMAL(2p, 2s) for
     * {@code *}, truncating what was bound past that scale (Derby 10.16: {@code d + ?} with d = 1.00 bound to -0.505 is
     * 0.49, with d = -1.50 bound to 1.495 is 0.00; {@code d * ?} with d = 99.99 bound to -1.221 is -122.0877); else null.
     *
     * @param marker the {@code ?}, and {@code places} those its value keeps where a target types it by place
     */
    private record ClientCut(JdbcParameter marker, int places, int scale, boolean besideLiterals) {
    }

    private ClientCut clientCut(Expression e) {
        boolean product = e instanceof Multiplication;
        ParameterPosition position = product ? ParameterPosition.MULTIPLICATIVE
                : e instanceof Addition || e instanceof Subtraction ? ParameterPosition.ADDITIVE
                : e instanceof Function f && f.getName() != null && Set.of("COALESCE", "IFNULL", "NVL")
                        .contains(f.getName().toUpperCase(Locale.ROOT)) && f.getParameters() != null ? ParameterPosition.COALESCE : null;
        if (position == null || !client.cutsParameterBesideDecimal(position) || client.decimalStore() != DecimalStore.TRUNCATES) {
            return null;
        }
        List<Expression> operands = e instanceof BinaryExpression b ? List.of(b.getLeftExpression(), b.getRightExpression())
                : arguments((Function) e);
        JdbcParameter marker = null;
        List<Expression> others = new ArrayList<>();
        for (Expression operand : operands) {
            if (unparenthesized(operand) instanceof JdbcParameter p) {
                if (marker != null) return null;
                marker = p;
            } else {
                others.add(operand);
            }
        }
        ColumnType type = marker == null || others.isEmpty() ? null : widestDecimal(others);
        int precision = type == null ? 0 : product ? 2 * type.length() : type.length() + 1;
        if (type == null || precision > DECIMAL_DIGITS_EVERYWHERE) return null;
        boolean besideLiterals = others.stream().allMatch(o -> unparenthesized(o) instanceof DoubleValue
                || unparenthesized(o) instanceof SignedExpression signed && unparenthesized(signed.getExpression()) instanceof DoubleValue);
        return new ClientCut(marker, wideParameterPlaces(type.length(), type.scale()), product ? 2 * type.scale() : type.scale(),
                besideLiterals);
    }

    /**
     * Each {@code ?} among {@code operands} rendered as a DECIMAL wide enough for what was bound ({@link #wideParameterPlaces}
     * of the widest DECIMAL operand among the others), where this target would give it that operand's type at {@code
     * position} and cut what was bound to its scale and the client's engine would not ({@link
     * Dialect#cutsParameterBesideDecimal}: HSQLDB matched {@code d = ?} bound to -1.505 with a row holding -1.50, Derby
     * computes {@code d + ?} in d's scale, truncating: 1.00 + -0.505 is 0.49). Where both cut, each its own way, nothing
     * is done here ({@link #clientCut} writes a Derby client's cut out).
     */
    private void typeParametersBesideDecimal(ParameterPosition position, Expression... operands) {
        if (!target.cutsParameterBesideDecimal(position) || client.cutsParameterBesideDecimal(position)) return;
        int places = -1;
        for (Expression operand : operands) {
            if (unparenthesized(operand) instanceof JdbcParameter) continue;
            ColumnType type = decimalType(operand);
            if (type != null) places = Math.max(places, wideParameterPlaces(type.length(), type.scale()));
        }
        if (places < 0) return;
        for (Expression operand : operands) {
            if (unparenthesized(operand) instanceof JdbcParameter parameter) wideParameters.merge(parameter, places, Math::max);
        }
    }

    /** Integer digits assumed for a DECIMAL-typed expression whose precision the statement does not show. */
    private static final int ASSUMED_INTEGER_DIGITS = 15;

    /**
     * The DECIMAL type of {@code e} as far as the catalog and the statement show it (a DECIMAL column; a decimal
     * literal; a CAST to DECIMAL; {@code +}, {@code -}, {@code *} of such and integers; a sign; MIN, MAX, SUM, ABS of such;
     * ROUND or TRUNC of such to a literal number of places; the widest of a CASE's results or COALESCE's arguments), else
     * null.
     */
    private ColumnType decimalType(Expression e) {
        Expression inner = unparenthesized(e);
        if (inner instanceof Column) {
            ColumnType type = typeOf(inner);
            return type != null && type.kind() == TypeKind.DECIMAL ? type : null;
        }
        if (inner instanceof SignedExpression signed) return decimalType(signed.getExpression());
        if (inner instanceof CastExpression cast) {
            try {
                SqlTypes.Spec spec = SqlTypes.parse(cast.getColDataType().toString(), client);
                return spec.kind() == TypeKind.DECIMAL ? new ColumnType(TypeKind.DECIMAL, spec.length(), spec.scale()) : null;
            } catch (TranslationException notPortable) {
                return null;
            }
        }
        if (inner instanceof DoubleValue) {
            Integer places = decimals(inner);
            if (places == null) return null;
            int digits = (int) inner.toString().chars().filter(Character::isDigit).count();
            return new ColumnType(TypeKind.DECIMAL, Math.max(places + 1, digits), places);
        }
        if (inner instanceof Function f && f.getParameters() != null && f.getName() != null) {
            String name = f.getName().toUpperCase(Locale.ROOT);
            List<Expression> args = arguments(f);
            if (args.size() == 1 && Set.of("MIN", "MAX", "SUM", "ABS").contains(name)) return decimalType(args.get(0));
            if (args.size() == 2 && Set.of("ROUND", "TRUNC", "TRUNCATE").contains(name) && args.get(1) instanceof LongValue n
                    && n.getValue() >= 0 && n.getValue() <= DECIMAL_DIGITS_EVERYWHERE && decimalType(args.get(0)) != null) {
                return new ColumnType(TypeKind.DECIMAL, (int) n.getValue() + ASSUMED_INTEGER_DIGITS, (int) n.getValue());
            }
            if (Set.of("COALESCE", "IFNULL", "NVL", "NULLIF").contains(name)) return widestDecimal(args);
            return null;
        }
        if (inner instanceof CaseExpression c) return widestDecimal(caseResults(c));
        if (inner instanceof Addition || inner instanceof Subtraction || inner instanceof Multiplication) {
            BinaryExpression b = (BinaryExpression) inner;
            ColumnType left = decimalType(b.getLeftExpression());
            ColumnType right = decimalType(b.getRightExpression());
            // a ? beside a DECIMAL takes its type where markers are typed by place (Derby's d * ? is in twice d's scale)
            if (left == null && unparenthesized(b.getLeftExpression()) instanceof JdbcParameter) left = right;
            if (right == null && unparenthesized(b.getRightExpression()) instanceof JdbcParameter) right = left;
            if (left == null && right == null) return null;
            if (left == null && numeric(b.getLeftExpression()) != Numeric.INTEGER
                    || right == null && numeric(b.getRightExpression()) != Numeric.INTEGER) {
                return null;
            }
            int scale = inner instanceof Multiplication ? scale(left) + scale(right) : Math.max(scale(left), scale(right));
            return new ColumnType(TypeKind.DECIMAL, Math.min(DECIMAL_DIGITS_EVERYWHERE, scale + ASSUMED_INTEGER_DIGITS), scale);
        }
        return null;
    }

    /** The DECIMAL type of the widest scale among {@code values} that have one ({@link #decimalType}), else null. */
    private ColumnType widestDecimal(List<Expression> values) {
        ColumnType widest = null;
        for (Expression v : values) {
            ColumnType type = decimalType(v);
            if (type != null && (widest == null || type.scale() > widest.scale())) widest = type;
        }
        return widest;
    }

    private static int scale(ColumnType decimalOrInteger) {
        return decimalOrInteger == null ? 0 : decimalOrInteger.scale();
    }

    /**
     * An INTEGER or SMALLINT column compared for equality with integer arithmetic, which this target computes in BIGINT:
     * the column cast to BIGINT too (Derby 10.16 joins {@code a.i = (CAST(-8 AS BIGINT) + b.id)} to no row where
     * {@code a.i} is -7 and {@code b.id} is 1; found by the generated corpus).
     */
    private Expression bigintBeside(Expression operand, Expression other) {
        ColumnType type = typeOf(operand);
        Expression inner = unparenthesized(other);
        // arithmetic reading a column (of constants, a negative literal included, it is a constant to Derby)
        boolean arithmetic = (inner instanceof Addition || inner instanceof Subtraction || inner instanceof Multiplication
                || inner instanceof SignedExpression) && !columnsRead(inner).isEmpty();
        if (type == null || !type.isInteger() || type.kind() == TypeKind.BIGINT || !arithmetic || numeric(inner) != Numeric.INTEGER) {
            return operand;
        }
        return new CastExpression("CAST", operand, "BIGINT");
    }

    private static Expression wideParameter(Expression parameter, int places) {
        return new CastExpression("CAST", parameter, "DECIMAL(31, " + places + ")");
    }

    /**
     * The most decimal places {@code e} can have, by the statement text and the catalog (exact numbers: literals,
     * DECIMAL and integer columns, their {@code +}, {@code -}, {@code *}, CASE, COALESCE, CAST, ROUND and TRUNC to a
     * literal number of places), else null.
     */
    private Integer decimals(Expression e) {
        Expression inner = unparenthesized(e);
        if (inner instanceof NullValue || inner instanceof LongValue) return 0;
        if (inner instanceof DoubleValue) {
            String text = inner.toString();
            if (text.indexOf('e') >= 0 || text.indexOf('E') >= 0) return null;
            int dot = text.indexOf('.');
            return dot < 0 ? 0 : text.length() - dot - 1;
        }
        if (inner instanceof StoredDecimal stored) return stored.scale();
        ClientCut cut = clientCut(inner);
        if (cut != null) return cut.scale();
        if (inner instanceof Column) {
            ColumnType type = typeOf(inner);
            if (type == null) return null;
            return type.isInteger() ? Integer.valueOf(0) : type.kind() == TypeKind.DECIMAL ? Integer.valueOf(type.scale()) : null;
        }
        if (inner instanceof SignedExpression signed) return decimals(signed.getExpression());
        if (inner instanceof Addition || inner instanceof Subtraction || inner instanceof Multiplication) {
            Integer l = decimals(((BinaryExpression) inner).getLeftExpression());
            Integer r = decimals(((BinaryExpression) inner).getRightExpression());
            if (l == null || r == null) return null;
            return inner instanceof Multiplication ? l + r : Math.max(l, r);
        }
        if (inner instanceof CastExpression cast) {
            try {
                SqlTypes.Spec spec = SqlTypes.parse(cast.getColDataType().toString(), client);
                return spec.isInteger() ? Integer.valueOf(0) : spec.kind() == TypeKind.DECIMAL ? Integer.valueOf(spec.scale()) : null;
            } catch (TranslationException notPortable) {
                return null;
            }
        }
        if (inner instanceof CaseExpression c) return mostDecimals(caseResults(c));
        if (inner instanceof Function f && f.getName() != null) {
            String name = f.getName().toUpperCase(Locale.ROOT);
            List<Expression> args = f.getParameters() == null ? List.of() : arguments(f);
            if (VALUE_CHOOSERS.contains(name) && !"CONCAT".equals(name)) return mostDecimals(args);
            if (Set.of("ROUND", "TRUNC", "TRUNCATE").contains(name) && args.size() == 2 && args.get(1) instanceof LongValue n
                    && n.getValue() >= 0) {
                Integer of = decimals(args.get(0));
                return of == null ? Integer.valueOf((int) n.getValue()) : Integer.valueOf(Math.min(of, (int) n.getValue()));
            }
        }
        return null;
    }

    private Integer mostDecimals(List<Expression> values) {
        int most = 0;
        for (Expression v : values) {
            Integer d = decimals(v);
            if (d == null) return null;
            most = Math.max(most, d);
        }
        return most;
    }

    /** A CAST to CHAR, VARCHAR or TEXT. */
    private boolean isStringType(CastExpression cast) {
        try {
            TypeKind kind = SqlTypes.parse(cast.getColDataType().toString(), client).kind();
            return kind == TypeKind.CHAR || kind == TypeKind.VARCHAR || kind == TypeKind.TEXT;
        } catch (TranslationException notPortable) {
            return false;
        }
    }

    /** The units of PostgreSQL's DATE_TRUNC written out for the other engines. */
    private static final Set<String> TRUNCATED_UNITS = Set.of("day", "week", "month", "year");

    /** EXTRACT's fields that are whole numbers on every engine (SECOND may have a fraction). */
    private static final Set<String> INTEGER_FIELDS = Set.of("YEAR", "QUARTER", "MONTH", "DAY", "HOUR", "MINUTE", "DOW", "ISODOW",
            "DOY");

    /** What the statement text and the catalog's column types say about an operand's type. */
    private Numeric numeric(Expression e) {
        if (e instanceof LongValue) {
            return Numeric.INTEGER;
        }
        if (e instanceof Column) {
            ColumnType type = typeOf(e);
            return type != null && type.isInteger() ? Numeric.INTEGER : Numeric.UNKNOWN;
        }
        if (e instanceof DoubleValue) {
            return Numeric.NON_INTEGER;
        }
        if (e instanceof SignedExpression) {
            return numeric(((SignedExpression) e).getExpression());
        }
        if (e instanceof ParenthesedExpressionList && ((ParenthesedExpressionList<?>) e).size() == 1) {
            return numeric((Expression) ((ParenthesedExpressionList<?>) e).get(0));
        }
        if (e instanceof CastExpression) {
            try {
                return SqlTypes.parse(((CastExpression) e).getColDataType().toString(), client).isInteger()
                        ? Numeric.INTEGER : Numeric.NON_INTEGER;
            } catch (TranslationException notPortable) {
                return Numeric.UNKNOWN;
            }
        }
        if (e instanceof ExtractExpression extract && INTEGER_FIELDS.contains(extract.getName().toUpperCase(Locale.ROOT))) {
            return Numeric.INTEGER;
        }
        if (daysBetweenDates(e)) return Numeric.INTEGER;
        if (e instanceof Addition || e instanceof Subtraction || e instanceof Multiplication) {
            BinaryExpression b = (BinaryExpression) e;
            Numeric l = numeric(b.getLeftExpression());
            Numeric r = numeric(b.getRightExpression());
            if (l == Numeric.NON_INTEGER || r == Numeric.NON_INTEGER) {
                return Numeric.NON_INTEGER;
            }
            return l == Numeric.INTEGER && r == Numeric.INTEGER ? Numeric.INTEGER : Numeric.UNKNOWN;
        }
        if (e instanceof Function && "COUNT".equalsIgnoreCase(((Function) e).getName())) {
            return Numeric.INTEGER;
        }
        if (e instanceof CaseExpression) {
            return allIntegers(caseResults((CaseExpression) e));
        }
        if (e instanceof Function && ((Function) e).getParameters() != null && ((Function) e).getParameters().size() > 1) {
            List<Expression> args = arguments((Function) e);
            switch (((Function) e).getName().toUpperCase(Locale.ROOT)) {
                case "COALESCE":
                case "IFNULL":
                case "NVL":
                case "MOD":
                case "GREATEST":
                case "LEAST":
                    return allIntegers(args);
                case "IF":
                    return args.size() == 3 ? allIntegers(args.subList(1, 3)) : Numeric.UNKNOWN;
                case "INSTR":
                case "LOCATE":
                    return Numeric.INTEGER;
                case "NULLIF":
                    return numeric(args.get(0));
                default:
                    return Numeric.UNKNOWN;
            }
        }
        if (e instanceof Function && ((Function) e).getParameters() != null && ((Function) e).getParameters().size() == 1) {
            switch (((Function) e).getName().toUpperCase(Locale.ROOT)) {
                case "MAX":
                case "MIN":
                case "SUM":
                case "ABS":
                case "COALESCE":
                    return numeric((Expression) ((Function) e).getParameters().get(0)) == Numeric.INTEGER
                            ? Numeric.INTEGER : Numeric.UNKNOWN;
                case "LENGTH":
                case "CHAR_LENGTH":
                case "CHARACTER_LENGTH":
                case "LEN":
                case "OCTET_LENGTH":
                case "YEAR":
                case "QUARTER":
                case "MONTH":
                case "DAY":
                case "DAYOFMONTH":
                case "DAYOFWEEK":
                case "WEEKDAY":
                case "DAYOFYEAR":
                case "HOUR":
                case "MINUTE":
                    return Numeric.INTEGER;
                default:
                    return Numeric.UNKNOWN;
            }
        }
        if (e instanceof Function && "DATEDIFF".equalsIgnoreCase(((Function) e).getName())) {
            return Numeric.INTEGER;
        }
        return Numeric.UNKNOWN;
    }

    /** INTEGER when every value that is not NULL is an integer (and one is), else UNKNOWN. */
    private Numeric allIntegers(List<Expression> values) {
        boolean any = false;
        for (Expression v : values) {
            if (unparenthesized(v) instanceof NullValue) continue;
            if (numeric(unparenthesized(v)) != Numeric.INTEGER) return Numeric.UNKNOWN;
            any = true;
        }
        return any ? Numeric.INTEGER : Numeric.UNKNOWN;
    }

    private final class Sel extends SelectDeParser {

        @Override
        public <S> StringBuilder visit(PlainSelect select, S context) {
            if (select.getIntoTables() != null) {
                throw TranslationException.unsupported("SELECT ... INTO is not supported; use INSERT INTO ... SELECT");
            }
            registerCommonTables(select);
            List<ScopeTable> scope = new ArrayList<>();
            addToScope(scope, select.getFromItem());
            addToScope(scope, select.getJoins());
            scopes.push(scope);
            ForMode forMode = select.getForMode();
            Distinct distinct = select.getDistinct();
            GroupByElement groupBy = select.getGroupBy();
            Expression having = select.getHaving();
            List<Runnable> untyped = typeSelectedNulls(select);
            noteSelectListMarkers(select);
            try {
                padSpaceGrouping(select);
                nullOrderedGrouping(select);
                groupByAliases(select);
                Saved saved = rewriteOrderAndLimit(select);
                boolean noTable = select.getFromItem() == null && target.fromOfSelectWithoutTable() != null;
                try {
                    select.setForMode(lockingClauseFor(select));
                    if (noTable) select.setFromItem(new Table(target.fromOfSelectWithoutTable()));
                    return super.visit(select, context);
                } finally {
                    if (noTable) select.setFromItem(null);
                    saved.restore(select);
                }
            } finally {
                untyped.forEach(Runnable::run);
                select.setForMode(forMode);
                select.setDistinct(distinct);
                select.setGroupByElement(groupBy);
                select.setHaving(having);
                scopes.pop();
            }
        }

        @Override
        public <S> StringBuilder visit(SetOperationList select, S context) {
            List<Runnable> untyped = typeSetOperationNulls(select);
            try {
                return setOperation(select, context);
            } finally {
                untyped.forEach(Runnable::run);
            }
        }

        private <S> StringBuilder setOperation(SetOperationList select, S context) {
            registerCommonTables(select);
            // an outer query orders (or, for Derby's PAD SPACE UNION, deduplicates) the operation's rows: the operation
            // renders inside it without its ORDER BY and row limit (and, deduplicated there, as UNION ALL)
            PlainSelect deduplicated = padSpaceUnion(select);
            PlainSelect outer = deduplicated != null ? deduplicated : nullOrderedSetOperation(select);
            if (outer != null) {
                List<SetOperation> operations = select.getOperations();
                Saved saved = new Saved(select.getOrderByElements(), select.getLimit(), select.getOffset(), select.getFetch());
                try {
                    if (deduplicated != null) {
                        select.setOperations(operations.stream().map(op -> (SetOperation) new UnionOp().withAll(true))
                                .collect(Collectors.toList()));
                    }
                    new Saved(null, null, null, null).restore(select);
                    return visit(outer, context);
                } finally {
                    select.setOperations(operations);
                    saved.restore(select);
                }
            }
            refusePadSpaceDeduplication(select);
            Saved saved = rewriteOrderAndLimit(select);
            try {
                return super.visit(select, context);
            } finally {
                saved.restore(select);
            }
        }

        @Override
        public <S> StringBuilder visit(ParenthesedSelect select, S context) {
            Saved saved = rewriteOrderAndLimit(select);
            try {
                return super.visit(select, context);
            } finally {
                saved.restore(select);
            }
        }
    }

    /** The GROUP BY keys of a plain list (no grouping sets, no ROLLUP), else null. */
    private static List<Expression> plainGroupByKeys(GroupByElement groupBy) {
        if (groupBy == null || groupBy.getGroupingSets() != null && !groupBy.getGroupingSets().isEmpty() || groupBy.isMysqlWithRollup()
                || groupBy.getGroupByExpressionList() == null) {
            return null;
        }
        List<Expression> keys = new ArrayList<>();
        for (Object key : groupBy.getGroupByExpressionList()) keys.add((Expression) key);
        return keys;
    }

    /**
     * PostgreSQL refuses {@code GROUP BY 'a'} (42601), which groups nothing: refused up front. MariaDB under
     * ONLY_FULL_GROUP_BY refuses some GROUP BY expressions it cannot match to the same expression in the select list
     * ("'t.s' isn't in GROUP BY" for a NULLIF, or a CASE with an OR) where the other engines accept them, and accepts
     * grouping by that select item's alias: there such a key is the alias, where the alias names no column of a table
     * in scope (MariaDB resolves a GROUP BY name against the tables first).
     */
    private void groupByAliases(PlainSelect select) {
        List<Expression> keys = plainGroupByKeys(select.getGroupBy());
        if (keys == null) return;
        if (!target.groupsByStringConstants()) {
            for (Expression key : keys) {
                if (unparenthesized(key) instanceof StringValue) {
                    throw TranslationException.unsupported("GROUP BY a string constant groups nothing, and " + target.name()
                            + ", one of the replicas' engines, refuses it; leave it out of the GROUP BY");
                }
            }
        }
        if (target.family() != Dialect.Family.MYSQL) {
            refuseMarkersInGroupedItems(select, keys);
            return;
        }
        boolean changed = false;
        for (int i = 0; i < keys.size(); i++) {
            Expression key = keys.get(i);
            // a key holding a ? equals a select item's text, not necessarily its value (each marker is bound apart)
            if (unparenthesized(key) instanceof Column || key instanceof LongValue || holdsMarker(key)) continue;
            for (SelectItem<?> item : select.getSelectItems()) {
                if (item.getAlias() != null && item.getExpression() != null
                        && unparenthesized(item.getExpression()).toString().equals(unparenthesized(key).toString())
                        && namesNoColumn(item.getAlias().getName())) {
                    keys.set(i, new Column(item.getAlias().getName()));
                    changed = true;
                    break;
                }
            }
        }
        if (changed) select.setGroupByElement(new GroupByElement().withGroupByExpressions(new ExpressionList<>(keys)));
    }

    /**
     * Derby, HSQLDB and PostgreSQL cannot match a select item holding a {@code ?} to a GROUP BY key holding one (each
     * marker is a value of its own: 42Y36, 42574, 42803) where MariaDB matches their text: refused up front.
     */
    private static void refuseMarkersInGroupedItems(PlainSelect select, List<Expression> keys) {
        if (keys.stream().noneMatch(Renderer::holdsMarker)) return;
        for (SelectItem<?> item : select.getSelectItems()) {
            if (item.getExpression() != null && !mayAggregate(item.getExpression()) && holdsMarker(item.getExpression())) {
                throw TranslationException.unsupported("GROUP BY an expression holding a ? that the select list repeats: Derby,"
                        + " HSQLDB and PostgreSQL cannot match the two (each ? is a value of its own) and refuse it; group a"
                        + " derived table's column instead (SELECT v, COUNT(*) FROM (SELECT <expression> AS v FROM ...) x GROUP BY v)");
            }
        }
    }

    /** No table in any scope has a column of this name, and every such table's columns are known. */
    private boolean namesNoColumn(String name) {
        String key = SchemaCatalog.key(name);
        for (List<ScopeTable> scope : scopes) {
            for (ScopeTable t : scope) {
                if (t.columns() == null || t.columns().containsKey(key)) return false;
            }
        }
        return true;
    }

    /**
     * Under PAD SPACE (Derby) {@code 'a'} and {@code 'a '} fall into one group; the other replicas keep them apart. Each
     * VARCHAR grouping key gets its LENGTH as a second key, which separates exactly those values; a SELECT DISTINCT whose
     * items include a VARCHAR column is grouped by its items the same way (no aggregates, no GROUP BY). The caller
     * restores DISTINCT and GROUP BY.
     */
    private void padSpaceGrouping(PlainSelect select) {
        if (!target.comparesStringsPadSpace()) {
            return;
        }
        GroupByElement groupBy = select.getGroupBy();
        if (groupBy != null) {
            List<Expression> keys = plainGroupByKeys(groupBy);
            if (keys == null) {
                return;
            }
            List<Expression> widened = withLengths(keys);
            if (widened.size() != keys.size()) {
                select.setGroupByElement(new GroupByElement().withGroupByExpressions(new ExpressionList<>(widened)));
                forceGrouping(select);
            }
            return;
        }
        List<Expression> items = plainDistinctItems(select);
        if (items == null) return;
        List<Expression> widened = withLengths(items);
        if (widened.size() != items.size()) {
            if (items.stream().anyMatch(Renderer::holdsMarker)) {
                throw TranslationException.unsupported("SELECT DISTINCT of a string holding a ?: " + target.name() + " would"
                        + " deduplicate it ignoring trailing blanks, and grouping it instead needs the ? twice, which "
                        + target.name() + " cannot match; select DISTINCT from a derived table's column instead");
            }
            select.setDistinct(null);
            select.setGroupByElement(new GroupByElement().withGroupByExpressions(new ExpressionList<>(widened)));
            forceGrouping(select);
        }
    }

    /**
     * Derby 10.16/10.17 ignores NULLS FIRST (NULLS LAST after DESC) when the ORDER BY is served by the sort of a DISTINCT
     * or of a GROUP BY without aggregates ({@code SELECT DISTINCT i ... ORDER BY i NULLS FIRST} puts NULL last; found by
     * the generated corpus); a GROUP BY with an aggregate keeps it. Such a query is grouped with an always-true HAVING
     * ({@link #forceGrouping}); a DISTINCT holding a {@code ?}, which Derby cannot group by, is refused. The caller
     * restores DISTINCT, GROUP BY and HAVING.
     */
    private void nullOrderedGrouping(PlainSelect select) {
        if (!target.losesNullOrderingOfDeduplicatedRows() || select.getOrderByElements() == null
                || !nullsAgainstTargetDefault(select.getOrderByElements())) {
            return;
        }
        if (select.getGroupBy() != null) {
            if (plainGroupByKeys(select.getGroupBy()) != null) forceGrouping(select);
            return;
        }
        List<Expression> items = plainDistinctItems(select);
        if (items == null) return;
        if (items.stream().anyMatch(Renderer::holdsMarker)) {
            throw TranslationException.unsupported("SELECT DISTINCT of an expression holding a ?, ordered with NULLs "
                    + (target.nullsSortHighByDefault() ? "first" : "last") + ": " + target.name() + " would put them "
                    + (target.nullsSortHighByDefault() ? "last" : "first") + "; select DISTINCT from a derived table's column");
        }
        select.setDistinct(null);
        select.setGroupByElement(new GroupByElement().withGroupByExpressions(new ExpressionList<>(items)));
        forceGrouping(select);
    }

    /**
     * The items of a plain SELECT DISTINCT (no DISTINCT ON or UNIQUE, no HAVING, no star, no aggregate), which a GROUP BY
     * of them can replace; else null.
     */
    private static List<Expression> plainDistinctItems(PlainSelect select) {
        Distinct distinct = select.getDistinct();
        if (distinct == null || distinct.getOnSelectItems() != null && !distinct.getOnSelectItems().isEmpty()
                || distinct.isUseUnique() || select.getHaving() != null) {
            return null;
        }
        List<Expression> items = new ArrayList<>();
        for (SelectItem<?> item : select.getSelectItems()) {
            Expression e = item.getExpression();
            if (e instanceof AllColumns || e instanceof AllTableColumns || mayAggregate(e)) return null;
            items.add(e);
        }
        return items;
    }

    /** An ORDER BY key wants its NULLs where the target does not put them by default. */
    private boolean nullsAgainstTargetDefault(List<OrderByElement> order) {
        for (OrderByElement e : order) {
            if ((target.nullsSortHighByDefault() == !e.isAsc()) != wantsNullsFirst(e)) return true;
        }
        return false;
    }

    /** Where an ORDER BY key wants its NULLs: as written, else the client dialect's default for its direction. */
    private boolean wantsNullsFirst(OrderByElement e) {
        return e.getNullOrdering() != null ? e.getNullOrdering() == OrderByElement.NullOrdering.NULLS_FIRST
                : client.nullsSortHighByDefault() == !e.isAsc();
    }

    /**
     * Derby answers a GROUP BY without aggregates as a DISTINCT of the select list, dropping the LENGTH keys
     * ({@code SELECT s ... GROUP BY s, LENGTH(s)} gives 'a' once); an always-true HAVING with an aggregate makes it group.
     * The caller restores HAVING.
     */
    private static void forceGrouping(PlainSelect select) {
        if (select.getHaving() != null) {
            return;
        }
        for (SelectItem<?> item : select.getSelectItems()) {
            if (mayAggregate(item.getExpression())) {
                return;
            }
        }
        Function count = new Function("COUNT", new AllColumns());
        select.setHaving(new GreaterThan(count, new LongValue(0)));
    }

    /** The keys, each VARCHAR one followed by its LENGTH. */
    private List<Expression> withLengths(List<Expression> keys) {
        List<Expression> out = new ArrayList<>();
        for (Expression key : keys) {
            out.add(key);
            if (isVarchar(key)) {
                out.add(new Function("LENGTH", key));
            }
        }
        return out;
    }

    /** An expression whose text calls an aggregate or window function (it cannot be a GROUP BY key). */
    private static boolean mayAggregate(Expression e) {
        return AGGREGATE_CALL.matcher(e.toString()).find();
    }

    private static final Pattern AGGREGATE_CALL =
            Pattern.compile("(?i)\\b(COUNT|SUM|AVG|MIN|MAX|EVERY|ANY|SOME|STDDEV\\w*|VAR\\w*)\\s*\\(|\\bOVER\\b");

    /**
     * A UNION (every operation without ALL) of VARCHAR columns deduplicates PAD SPACE on Derby. It is the DISTINCT of
     * the UNION ALL, which is normalized like any DISTINCT: {@code SELECT DISTINCT g FROM (A UNION ALL B) shepherd_union
     * ORDER BY ...}. Returns that outer query (the caller turns the operations into UNION ALL and moves ORDER BY and
     * the row limit out for the time of rendering), or null when not needed or the columns have no names.
     */
    private PlainSelect padSpaceUnion(SetOperationList select) {
        if (!target.comparesStringsPadSpace() || expressionSubqueries > 0 || select.getOperations() == null
                || select.getOperations().isEmpty()
                || !select.getOperations().stream().allMatch(op -> op instanceof UnionOp && !((UnionOp) op).isAll())
                || !(select.getSelect(0) instanceof PlainSelect)) {
            return null;
        }
        Map<String, ColumnType> columns = derivedColumns(select);
        if (columns == null || columns.values().stream().noneMatch(t -> t != null && t.isVarchar())) {
            return null;
        }
        return outerQuery(select, true);
    }

    /**
     * Derby 10.16/10.17 ignores NULLS FIRST (NULLS LAST after DESC) when the ORDER BY of a UNION, INTERSECT or EXCEPT
     * without ALL is served by the sort that removes duplicates ({@code ... UNION ... ORDER BY v NULLS FIRST} puts NULL
     * last; found by the generated corpus). And Derby orders a UNION ALL's VARCHAR keys PAD SPACE ({@code ''} and
     * {@code ' '} tie), where an outer query's ORDER BY gets the LENGTH key of the NO PAD order ({@link #orderFor}). Ordering
     * the operation's rows in an outer query keeps both: returns that outer query (the caller moves ORDER BY and the row
     * limit out for the time of rendering), or null when not needed or the columns have no names.
     */
    private PlainSelect nullOrderedSetOperation(SetOperationList select) {
        if (select.getOrderByElements() == null || select.getOperations() == null || !(select.getSelect(0) instanceof PlainSelect)) {
            return null;
        }
        boolean allKept = select.getOperations().stream().allMatch(op -> op.toString().toUpperCase(Locale.ROOT).contains("ALL"));
        boolean nulls = target.losesNullOrderingOfDeduplicatedRows() && !allKept && nullsAgainstTargetDefault(select.getOrderByElements());
        boolean padded = false;
        if (target.comparesStringsPadSpace() && allKept && expressionSubqueries == 0) {
            Map<String, ColumnType> columns = derivedColumns(select);
            padded = columns != null && columns.values().stream().anyMatch(t -> t != null && t.isVarchar());
        }
        return nulls || padded ? outerQuery(select, false) : null;
    }

    /**
     * {@code SELECT [DISTINCT] <names> FROM (<select>) shepherd_union (<names>) ORDER BY ...} with {@code select}'s ORDER BY
     * and row limit, or null when its first branch's columns have no names or repeat one.
     */
    private static PlainSelect outerQuery(SetOperationList select, boolean distinct) {
        PlainSelect outer = new PlainSelect();
        if (distinct) outer.setDistinct(new Distinct());
        List<String> names = new ArrayList<>();
        for (SelectItem<?> item : ((PlainSelect) select.getSelect(0)).getSelectItems()) {
            if (item.getAlias() == null && !(item.getExpression() instanceof Column)) return null;
            String name = item.getAlias() != null ? item.getAlias().getName() : ((Column) item.getExpression()).getColumnName();
            if (names.stream().anyMatch(n -> SchemaCatalog.unquoted(n).equalsIgnoreCase(SchemaCatalog.unquoted(name)))) {
                return null;
            }
            names.add(name);
            outer.addSelectItem(new Column(name));
        }
        // Derby names the columns of a set operation by position unless every branch names them alike: name them here.
        outer.setFromItem(new ParenthesedSelect().withSelect(select)
                .withAlias(new Alias(UNION_ALIAS).addAliasColumns(names.toArray(new String[0]))));
        outer.setOrderByElements(select.getOrderByElements());
        outer.setLimit(select.getLimit());
        outer.setOffset(select.getOffset());
        outer.setFetch(select.getFetch());
        return outer;
    }

    /** Name of the derived table a normalized UNION is wrapped in. */
    static final String UNION_ALIAS = "shepherd_union";

    /**
     * UNION, INTERSECT and EXCEPT without ALL compare rows PAD SPACE on Derby, and no rewrite keeps their result
     * columns as written; with VARCHAR columns and replicas of both kinds, the statement is refused.
     */
    private void refusePadSpaceDeduplication(SetOperationList select) {
        // Inside IN / EXISTS (the only places a UNION subquery may be correlated) duplicates do not matter.
        if (!target.comparesStringsPadSpace() || !mixedPadding || select.getOperations() == null
                || select.getOperations().stream().allMatch(op -> op.toString().toUpperCase(Locale.ROOT).contains("ALL")
                        || expressionSubqueries > 0 && op instanceof UnionOp)) {
            return;
        }
        for (Select branch : select.getSelects()) {
            if (!(branch instanceof PlainSelect)) {
                continue;
            }
            PlainSelect plain = (PlainSelect) branch;
            List<ScopeTable> scope = new ArrayList<>();
            addToScope(scope, plain.getFromItem());
            addToScope(scope, plain.getJoins());
            scopes.push(scope);
            try {
                for (SelectItem<?> item : plain.getSelectItems()) {
                    if (isVarchar(item.getExpression())) {
                        throw TranslationException.unsupported("UNION/INTERSECT/EXCEPT of strings removes duplicates PAD SPACE on "
                                + "Derby ('a' = 'a ') and NO PAD on the other replicas; write UNION ALL (INTERSECT ALL, EXCEPT ALL) "
                                + "and remove duplicates with GROUP BY in an outer query, or compare " + item.getExpression()
                                + " as a number");
                    }
                }
            } finally {
                scopes.pop();
            }
        }
    }

    /** The locking clause the target gets: the client's, a weaker one the engine accepts, or none. */
    private ForMode lockingClauseFor(PlainSelect select) {
        ForMode mode = select.getForMode();
        if (mode == null) {
            return null;
        }
        if (select.getWait() != null || select.isNoWait() || select.isSkipLocked() || select.getForUpdateTable() != null) {
            throw TranslationException.unsupported("NOWAIT, WAIT n, SKIP LOCKED and FOR UPDATE OF make the result depend on "
                    + "timing or are engine-specific; write plain FOR UPDATE");
        }
        switch (mode) {
            case UPDATE:
                // Derby allows FOR UPDATE only on updatable cursors; serializable isolation still locks what is read.
                if (target.forUpdateNeedsUpdatableCursor() && !updatableCursor(select)) {
                    return null;
                }
                return mode;
            case SHARE:
                // Plain reads take shared locks under serializable isolation, except on PostgreSQL (SSI) and MySQL keeps it.
                return target.supportsForShare() ? mode : null;
            default:
                if (!target.supportsKeyLockModes()) {
                    throw TranslationException.unsupported("FOR " + mode.getValue() + " is PostgreSQL-only; write FOR UPDATE");
                }
                return mode;
        }
    }

    private static boolean updatableCursor(PlainSelect select) {
        if (select.getJoins() != null && !select.getJoins().isEmpty() || select.getOrderByElements() != null
                || select.getGroupBy() != null || select.getDistinct() != null || select.getHaving() != null
                || !(select.getFromItem() instanceof Table)) {
            return false;
        }
        for (SelectItem<?> item : select.getSelectItems()) {
            if (item.getExpression() instanceof Function) {
                return false;
            }
        }
        return true;
    }

    private record Saved(List<OrderByElement> order, Limit limit, Offset offset, Fetch fetch) {
        void restore(Select s) {
            s.setOrderByElements(order);
            s.setLimit(limit);
            s.setOffset(offset);
            s.setFetch(fetch);
        }
    }

    /**
     * Whether the rows a LIMIT picks from {@code s} are the same whatever order the engine reads them in: it gives at most
     * one row (an aggregate without GROUP BY, {@code SELECT COUNT(1) FROM t WHERE ... LIMIT 1} as Flyway asks; a SELECT
     * without a table), or only constants ({@code SELECT 1 AS found FROM t WHERE ... LIMIT 1}: every row is alike).
     */
    private static boolean anyRowsWillDo(Select s) {
        if (!(s instanceof PlainSelect ps) || ps.getGroupBy() != null || ps.getSelectItems() == null) return false;
        if (ps.getFromItem() == null) return true;
        if (ps.getDistinct() == null && ps.getSelectItems().stream().allMatch(i -> isLiteral(i.getExpression()))) return true;
        for (SelectItem<?> item : ps.getSelectItems()) {
            if (!(item.getExpression() instanceof Function f) || f.getName() == null) return false;
            switch (f.getName().toUpperCase(Locale.ROOT)) {
                case "COUNT": case "SUM": case "MIN": case "MAX": case "AVG":
                    break;
                default:
                    return false;
            }
        }
        return true;
    }

    private Saved rewriteOrderAndLimit(Select s) {
        Saved saved = new Saved(s.getOrderByElements(), s.getLimit(), s.getOffset(), s.getFetch());
        Expression count = null;
        Expression offset = null;
        if (saved.limit() != null) {
            if (!saved.limit().isLimitAll() && !saved.limit().isLimitNull()) {
                count = saved.limit().getRowCount();
            }
            offset = saved.limit().getOffset();
        }
        if (saved.offset() != null) {
            offset = saved.offset().getOffset();
        }
        if (saved.fetch() != null) {
            count = saved.fetch().getExpression() != null ? saved.fetch().getExpression() : new LongValue(1);
        }
        boolean ordered = saved.order() != null && !saved.order().isEmpty();
        if ((count != null || offset != null) && !ordered && !anyRowsWillDo(s)) {
            throw TranslationException.unsupported("LIMIT/OFFSET/FETCH without ORDER BY picks rows in an engine-specific order, "
                    + "so replicas would return or change different rows; add an ORDER BY on a unique key");
        }
        if (ordered) {
            s.setOrderByElements(orderFor(s, saved.order()));
        }
        s.setLimit(null);
        s.setOffset(null);
        s.setFetch(null);
        if (count != null || offset != null) {
            if (target.supportsLimitOffset()) {
                if (count != null) {
                    s.setLimit(new Limit().withRowCount(count));
                } else if (target.offsetNeedsLimit()) {
                    s.setLimit(new Limit().withRowCount(new LongValue(MYSQL_NO_LIMIT)));
                }
                if (offset != null) {
                    s.setOffset(new Offset().withOffset(offset));
                }
            } else {
                if (offset != null) {
                    s.setOffset(new Offset().withOffset(offset).withOffsetParam("ROWS"));
                }
                if (count != null) {
                    Fetch fetch = new Fetch().withExpression(count);
                    fetch.setFetchParamFirst(true);
                    fetch.addFetchParameter("ROWS");
                    fetch.addFetchParameter("ONLY");
                    s.setFetch(fetch);
                }
            }
        }
        return saved;
    }

    /** ORDER BY with every NULL placement explicit, emulated with a CASE key where the target lacks NULLS FIRST/LAST. */
    private List<OrderByElement> orderFor(Select s, List<OrderByElement> order) {
        List<OrderByElement> result = new ArrayList<>(order.size() + 2);
        for (OrderByElement e : order) {
            boolean desc = !e.isAsc();
            boolean nullsFirst = wantsNullsFirst(e);
            OrderByElement copy = new OrderByElement().withExpression(e.getExpression()).withAsc(e.isAsc())
                    .withAscDescPresent(e.isAscDescPresent());
            Expression padded = padSpaceOrderKey(s, e.getExpression());
            if (target.supportsNullsFirstLast()) {
                copy.setNullOrdering(nullsFirst ? OrderByElement.NullOrdering.NULLS_FIRST : OrderByElement.NullOrdering.NULLS_LAST);
            } else if ((target.nullsSortHighByDefault() == desc) != nullsFirst) {
                Expression key = resolveOrderKey(s, e.getExpression());
                CaseExpression nullKey = new CaseExpression(new LongValue(nullsFirst ? 1 : 0),
                        new WhenClause(new IsNullExpression(key), new LongValue(nullsFirst ? 0 : 1)));
                result.add(new OrderByElement().withExpression(nullKey).withAsc(true));
            }
            result.add(copy);
            if (padded != null) {
                // Under PAD SPACE 'a' and 'a ' tie; NO PAD puts the shorter first.
                result.add(new OrderByElement().withExpression(new Function("LENGTH", padded)).withAsc(e.isAsc())
                        .withAscDescPresent(e.isAscDescPresent()).withNullOrdering(copy.getNullOrdering()));
            }
        }
        return result;
    }

    /** A VARCHAR ORDER BY key of a plain query (not DISTINCT) on a PAD SPACE engine, resolved to its expression; else null. */
    private Expression padSpaceOrderKey(Select s, Expression key) {
        if (!target.comparesStringsPadSpace() || !(s instanceof PlainSelect) || ((PlainSelect) s).getDistinct() != null) {
            return null;
        }
        PlainSelect plain = (PlainSelect) s;
        Expression resolved = key;
        if (key instanceof LongValue) {
            int position = (int) ((LongValue) key).getValue();
            if (position < 1 || position > plain.getSelectItems().size() || hasStar(plain, position)) {
                return null;
            }
            resolved = plain.getSelectItems().get(position - 1).getExpression();
        } else if (key instanceof Column && ((Column) key).getTable() == null) {
            for (SelectItem<?> item : plain.getSelectItems()) {
                if (item.getAlias() != null && item.getAlias().getName().equalsIgnoreCase(((Column) key).getColumnName())) {
                    resolved = item.getExpression();
                }
            }
        }
        return isVarchar(resolved) ? resolved : null;
    }

    private Expression resolveOrderKey(Select s, Expression key) {
        PlainSelect plain = s instanceof PlainSelect ? (PlainSelect) s : null;
        if (key instanceof LongValue) {
            int position = (int) ((LongValue) key).getValue();
            Expression named = s instanceof SetOperationList union ? setOperationColumn(union, position) : null;
            if (named != null) return named;
            if (plain == null || position < 1 || position > plain.getSelectItems().size() || hasStar(plain, position)) {
                throw TranslationException.unsupported("ORDER BY " + position + " cannot be given an explicit NULL placement on "
                        + target.name() + "; order by the column name or expression instead of its position");
            }
            return plain.getSelectItems().get(position - 1).getExpression();
        }
        if (plain != null && key instanceof Column && ((Column) key).getTable() == null) {
            String name = ((Column) key).getColumnName();
            for (SelectItem<?> item : plain.getSelectItems()) {
                if (item.getAlias() != null && item.getAlias().getName().equalsIgnoreCase(name)) {
                    return item.getExpression();
                }
            }
        }
        return key;
    }

    /**
     * The name of a set operation's column {@code position} (from 1), which its ORDER BY may use: the first branch's
     * alias there, or its column's name; null for an expression without an alias (or a star before it) or a name
     * another of its columns has too.
     */
    private static Expression setOperationColumn(SetOperationList union, int position) {
        Select first = union.getSelects().isEmpty() ? null : union.getSelects().get(0);
        while (first instanceof ParenthesedSelect parenthesed) first = parenthesed.getSelect();
        if (!(first instanceof PlainSelect branch) || position < 1 || position > branch.getSelectItems().size()
                || hasStar(branch, position)) {
            return null;
        }
        SelectItem<?> item = branch.getSelectItems().get(position - 1);
        String name = nameOf(item);
        if (name == null) return null;
        for (SelectItem<?> other : branch.getSelectItems()) {
            // a name two columns share (a PostgreSQL client's ?column?) names neither
            if (other != item && name.equalsIgnoreCase(nameOf(other))) return null;
        }
        return new Column(name);
    }

    /** A select item's alias, or its column's name; null for an expression without an alias. */
    private static String nameOf(SelectItem<?> item) {
        if (item.getAlias() != null) return item.getAlias().getName();
        return item.getExpression() instanceof Column column ? column.getColumnName() : null;
    }

    private static boolean hasStar(PlainSelect plain, int upTo) {
        for (int i = 0; i < upTo; i++) {
            if (plain.getSelectItems().get(i).getExpression() instanceof AllColumns) {
                return true;
            }
        }
        return false;
    }

}
