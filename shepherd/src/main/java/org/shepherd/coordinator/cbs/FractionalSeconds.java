package org.shepherd.coordinator.cbs;

import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.List;
import org.shepherd.protocol.Param;
import org.shepherd.translator.Translation;
import org.shepherd.translator.dialect.Dialect;

/**
 * Cuts the fractional seconds of the TIMESTAMP and TIME values a client binds, once, before they reach any replica.
 * Java's clocks give nanoseconds ({@code LocalDateTime.now()}, {@code Instant.now()} on Linux), which Derby keeps and the
 * others cut to a column's precision each its own way: MariaDB truncates, PostgreSQL and MySQL round (half up), and a
 * {@code DATETIME(3)} or a TIME column (no fraction) cuts more. Replicas then stored, and compared against, different
 * values. So every such value is cut to the digits {@link Translation#fractionDigits} gives its marker (six, or the
 * precision of the column the statement stores it into), by the rule of the client's engine
 * ({@link Dialect#roundsFractionalSeconds}).
 */
final class FractionalSeconds {

    private static final int NANO_DIGITS = 9;

    private FractionalSeconds() {
    }

    /** {@code params} with each time value cut for {@code tr} (null: a statement sent as written: six digits). */
    static List<Param> cut(List<Param> params, Translation tr, Dialect client) {
        List<Param> out = null;
        for (int i = 0; i < params.size(); i++) {
            Param p = params.get(i);
            Object v = p.value();
            if (!(v instanceof LocalDateTime || v instanceof LocalTime || v instanceof OffsetDateTime)) continue;
            int digits = tr == null ? 6 : tr.fractionDigits(i + 1);
            Object cut = cut(v, digits, client.roundsFractionalSeconds());
            if (cut.equals(v)) continue;
            if (out == null) out = new ArrayList<>(params);
            out.set(i, new Param(p.jdbcType(), cut));
        }
        return out == null ? params : out;
    }

    /** {@code value} (a LocalDateTime, LocalTime or OffsetDateTime) with {@code digits} fractional digits of seconds. */
    static Object cut(Object value, int digits, boolean round) {
        long unit = 1;
        for (int d = digits; d < NANO_DIGITS; d++) unit *= 10;
        Temporal t = (Temporal) value;
        long extra = t.get(ChronoField.NANO_OF_SECOND) % unit;
        if (extra == 0) return value;
        Temporal down = t.minus(extra, ChronoUnit.NANOS);
        // a time of day does not round past midnight (MySQL's TIME could, to 24:00:00, which LocalTime cannot hold)
        boolean up = round && extra * 2 >= unit && !(down instanceof LocalTime time
                && time.equals(LocalTime.MAX.minusNanos(LocalTime.MAX.getNano() % unit)));
        return up ? down.plus(unit, ChronoUnit.NANOS) : down;
    }
}
