package org.shepherd.vote;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The canonical text of a value for voting: two replicas' values compare equal exactly when their canonical
 * texts are equal. The rules (also in docs/cbs.md):
 * <ul>
 *   <li>exact numbers (integers, decimals) as decimals with trailing zeros stripped: 1, 1.0 and 1.00 are equal;</li>
 *   <li>booleans as the exact numbers 1 and 0, so BOOLEAN, BIT and TINYINT(1) agree;</li>
 *   <li>approximate numbers rounded to {@value #APPROXIMATE_SIGNIFICANT_DIGITS} significant digits (half-even),
 *       -0.0 as 0, NaN and infinities by name;</li>
 *   <li>strings as is, except CHAR/NCHAR columns lose their trailing blanks;</li>
 *   <li>times and timestamps truncated to microseconds; timestamps with a time zone as the UTC instant.</li>
 * </ul>
 */
public final class CanonicalValues {

    public static final int APPROXIMATE_SIGNIFICANT_DIGITS = 12;
    private static final MathContext APPROXIMATE = new MathContext(APPROXIMATE_SIGNIFICANT_DIGITS, RoundingMode.HALF_EVEN);

    private CanonicalValues() {
    }

    /** The canonical text of {@code value} (a {@link org.shepherd.protocol.ValueType} value) read from a column. */
    public static String of(Object value, int jdbcType) {
        if (value == null) return "N";
        if (value instanceof Boolean b) return b ? "E1" : "E0";
        if (value instanceof Long l) return "E" + l;
        if (value instanceof Integer i) return "E" + i;
        if (value instanceof BigDecimal d) return "E" + exact(d);
        if (value instanceof Double d) return "A" + approximate(d);
        if (value instanceof Float f) return "A" + approximate(f.doubleValue());
        if (value instanceof String s) return "S" + (TypeFamily.isPaddedCharacter(jdbcType) ? stripTrailingBlanks(s) : s);
        if (value instanceof byte[] bytes) return "B" + HexFormat.of().formatHex(bytes);
        if (value instanceof LocalDate d) return "D" + d;
        if (value instanceof LocalTime t) return "T" + t.truncatedTo(ChronoUnit.MICROS);
        if (value instanceof LocalDateTime t) return "P" + t.truncatedTo(ChronoUnit.MICROS);
        if (value instanceof OffsetDateTime t) {
            return "P" + t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime().truncatedTo(ChronoUnit.MICROS) + "Z";
        }
        throw new IllegalArgumentException("not a protocol value: " + value.getClass().getName());
    }

    /** The canonical column label: labels compare case-insensitively. */
    public static String label(String label) {
        return label.toUpperCase(Locale.ROOT);
    }

    static String exact(BigDecimal d) {
        if (d.signum() == 0) return "0";
        return d.stripTrailingZeros().toPlainString();
    }

    static String approximate(double d) {
        if (Double.isNaN(d)) return "NaN";
        if (Double.isInfinite(d)) return d > 0 ? "Inf" : "-Inf";
        if (d == 0.0) return "0";
        return new BigDecimal(d).round(APPROXIMATE).stripTrailingZeros().toString();
    }

    private static String stripTrailingBlanks(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') end--;
        return s.substring(0, end);
    }
}
