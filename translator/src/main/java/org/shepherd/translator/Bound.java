package org.shepherd.translator;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.function.UnaryOperator;

import org.shepherd.translator.dialect.Dialect;

/**
 * A translation with its client parameters and pinned values for one execution. The same values go to every replica;
 * only their order may differ per dialect (e.g. OFFSET before FETCH), so always pair {@link #sqlFor(Dialect)} with
 * {@link #parameters(Dialect)} of the same dialect.
 */
public final class Bound {

    private final Translation translation;
    private final List<Object> clientParams;
    private final Object[] pinnedValues;
    /** A client parameter's value: the parameter itself, or what a caller's wrapper holds ({@link Translation#bind}). */
    private final UnaryOperator<Object> valueOf;

    Bound(Translation translation, List<Object> clientParams, Object[] pinnedValues, UnaryOperator<Object> valueOf) {
        this.translation = translation;
        this.clientParams = clientParams;
        this.pinnedValues = pinnedValues;
        this.valueOf = valueOf;
    }

    public Translation translation() {
        return translation;
    }

    public String sqlFor(Dialect d) throws SQLException {
        SqlText.Rendered r = translation.rendered(d);
        return typed(d, r.sql(), r.markers());
    }

    /** Values for the markers of {@link #sqlFor(Dialect)} (and of {@link #sqlWithExplicitKeys}), in marker order. */
    public List<Object> parameters(Dialect d) throws SQLException {
        return values(translation.rendered(d).markers());
    }

    /** One statement and the values for its markers. */
    public record Part(String sql, List<Object> parameters) {
    }

    /**
     * The INSERT for dialect {@code d} as one INSERT per VALUES row, each with its own parameters (see
     * {@link Translation#insertValuesRows()}): run in order inside a savepoint, they do what the whole statement does.
     * DEFAULT in {@code keyColumn} (the identity column, or null) is written as {@link #sqlGeneratingKeys} writes it.
     */
    public List<Part> rowByRow(Dialect d, String keyColumn) throws SQLException {
        List<Part> parts = new ArrayList<>();
        for (SqlText.Rendered r : translation.renderedRowByRow(d, keyColumn, nullKeyParameters(keyColumn))) {
            parts.add(new Part(typed(d, r.sql(), r.markers()), values(r.markers())));
        }
        return parts;
    }

    /**
     * The INSERT for the primary of dialect {@code d} into a table whose identity column is {@code keyColumn}: as
     * {@link #sqlFor}, but with NULL for DEFAULT in that column where DEFAULT would not generate a key, and DEFAULT for
     * NULL (written, or a parameter bound to NULL) where NULL would not ({@link Translation#renderedGeneratingKeys}).
     * Its parameters: {@link #parametersGeneratingKeys}.
     */
    public String sqlGeneratingKeys(Dialect d, String keyColumn) throws SQLException {
        SqlText.Rendered r = translation.renderedGeneratingKeys(d, keyColumn, nullKeyParameters(keyColumn));
        return typed(d, r.sql(), r.markers());
    }

    /** Values for the markers of {@link #sqlGeneratingKeys}: {@link #parameters}, but those it wrote DEFAULT for. */
    public List<Object> parametersGeneratingKeys(Dialect d, String keyColumn) throws SQLException {
        return values(translation.renderedGeneratingKeys(d, keyColumn, nullKeyParameters(keyColumn)).markers());
    }

    /** The client parameters (numbered from 1) that give {@code keyColumn} its value in a row and are bound to NULL. */
    private BitSet nullKeyParameters(String keyColumn) {
        BitSet nulls = new BitSet();
        int[] parameters = keyColumn == null ? null : translation.keyParameters(keyColumn);
        if (parameters == null) return nulls;
        for (int p : parameters) {
            if (p > 0 && p <= clientParams.size() && valueOf.apply(clientParams.get(p - 1)) == null) nulls.set(p);
        }
        return nulls;
    }

    private List<Object> values(int[] markers) {
        List<Object> values = new ArrayList<>(markers.length);
        for (int m : markers) {
            values.add(m > 0 ? clientParams.get(m - 1) : pinnedValues[-m - 1]);
        }
        return Collections.unmodifiableList(values);
    }

    /**
     * This execution with other client parameters (the same count) and the same pinned values: a secondary's, where a
     * parameter that left a row's key to the engine carries the key the primary generated.
     */
    public Bound withClientParameters(List<?> parameters) {
        if (parameters.size() != clientParams.size()) {
            throw new IllegalArgumentException(parameters.size() + " parameters for " + clientParams.size());
        }
        return new Bound(translation, new ArrayList<>(parameters), pinnedValues, valueOf);
    }

    /** The values of {@link Translation#nondeterministic()}, slot by slot. */
    public List<Object> pinnedValues() {
        return List.of(pinnedValues);
    }

    /**
     * The INSERT for a secondary of dialect {@code d}, with {@code keyColumn} set to the keys the primary generated (one
     * per VALUES row, in row order). Parameters are {@link #parameters(Dialect)} unchanged. Returns {@link #sqlFor} when
     * the client already supplied the column. Every rendered identity column is BY DEFAULT (or AUTO_INCREMENT), so
     * every engine accepts the explicit values.
     */
    public String sqlWithExplicitKeys(Dialect d, String keyColumn, List<?> keyValuesPerRow) throws SQLException {
        return typed(d, translation.sqlWithExplicitKeys(d, keyColumn, keyValuesPerRow), translation.rendered(d).markers());
    }

    /**
     * {@code sql} with each {@code ?} bound to an exact or approximate number given that number's type, on an engine
     * that would otherwise type the marker from its place in the statement for a client whose engine types it from the
     * value ({@link Translation#typesBoundNumbers}). A MySQL, MariaDB or PostgreSQL client's {@code ?} bound to 1.505
     * is 1.505 wherever it stands; Derby, HSQLDB and Db2 give it the type of a DECIMAL(9, 2) beside it (in a comparison,
     * {@code +}, a CASE, COALESCE ...) or of the column it is stored into, and lose the third decimal as it is bound:
     * {@code CAST(? AS DECIMAL(31, 3))} keeps it. A number of more than 31 digits is left as it is. A double is a
     * DOUBLE there and on MySQL and MariaDB too, whose drivers send it as a decimal literal ({@code SELECT ?} bound to
     * -52.75 answered a DECIMAL there and a DOUBLE elsewhere, which the vote tells apart).
     */
    private String typed(Dialect d, String sql, int[] markers) {
        boolean decimals = translation.typesBoundNumbers(d);
        boolean doubles = translation.typesBoundDoubles(d);
        BitSet selected = translation.selectListMarkers(d);
        if (!decimals && !doubles && selected.isEmpty()) return sql;
        String[] types = null;
        for (int k = 0; k < markers.length; k++) {
            if (markers[k] <= 0) continue;
            Object value = valueOf.apply(clientParams.get(markers[k] - 1));
            boolean approximate = value instanceof Double || value instanceof Float;
            String type = selected.get(markers[k]) ? valueType(d, value) : null;
            if (type == null && (approximate && doubles || !approximate && decimals)) type = numberType(d, value);
            if (type == null) continue;
            if (types == null) types = new String[markers.length];
            types[k] = type;
        }
        return types == null ? sql : SqlText.castMarkers(sql, types);
    }

    /** Longest VARCHAR a select-list marker is cast to (Derby's largest). */
    private static final int SELECTED_VARCHAR_MAX = 32_672;

    /**
     * The type of a marker that stands alone in a select list, from the value bound to it ({@link
     * Translation#selectListMarkers}): on an engine that types markers by place, and for NULL on every engine; null
     * where none is needed or fits (a long string, binary data): left as it is.
     */
    private static String valueType(Dialect d, Object value) {
        if (value == null) return d.castType(Dialect.TypeKind.VARCHAR, 1, 0);
        if (!d.parameterTakesOperandType()) return null; // the engine types it from the value
        if (value instanceof String s) {
            return s.length() > SELECTED_VARCHAR_MAX ? null : d.castType(Dialect.TypeKind.VARCHAR, Math.max(1, s.length()), 0);
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return d.castType(Dialect.TypeKind.INTEGER, 0, 0);
        }
        if (value instanceof Long || value instanceof java.math.BigInteger) return d.castType(Dialect.TypeKind.BIGINT, 0, 0);
        if (value instanceof Boolean) return d.castType(Dialect.TypeKind.BOOLEAN, 0, 0);
        if (value instanceof java.sql.Timestamp || value instanceof java.time.LocalDateTime) {
            return d.castType(Dialect.TypeKind.TIMESTAMP, Dialect.DEFAULT_TIMESTAMP_PRECISION, 0);
        }
        if (value instanceof java.sql.Date || value instanceof java.time.LocalDate) return d.castType(Dialect.TypeKind.DATE, 0, 0);
        if (value instanceof java.sql.Time || value instanceof java.time.LocalTime) return d.castType(Dialect.TypeKind.TIME, 0, 0);
        return numberType(d, value);
    }

    private static String numberType(Dialect d, Object value) {
        if (value instanceof Double || value instanceof Float) return d.castType(Dialect.TypeKind.DOUBLE, 0, 0);
        if (!(value instanceof BigDecimal decimal)) return null;
        int scale = Math.max(0, decimal.scale());
        int integerDigits = Math.max(1, decimal.precision() - decimal.scale());
        if (integerDigits + scale > Renderer.DECIMAL_DIGITS_EVERYWHERE) return null;
        return d.castType(Dialect.TypeKind.DECIMAL, Renderer.DECIMAL_DIGITS_EVERYWHERE, scale);
    }
}
