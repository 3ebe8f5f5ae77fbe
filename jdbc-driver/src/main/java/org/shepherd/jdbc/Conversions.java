package org.shepherd.jdbc;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.Date;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Calendar;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;
import org.shepherd.protocol.ValueType;

/**
 * The standard JDBC conversions between protocol values ({@link ValueType} representation) and the Java types
 * of the getters and setters. A conversion that does not exist is SQLState 22018, a value out of the target's
 * range 22003.
 */
final class Conversions {

    private static final HexFormat HEX = HexFormat.of();

    private Conversions() {
    }

    // ---------------------------------------------------------------- values to Java (ResultSet getters)

    static String toStringValue(Object v) {
        if (v == null) return null;
        if (v instanceof String s) return s;
        if (v instanceof BigDecimal d) return d.toPlainString();
        if (v instanceof byte[] b) return HEX.formatHex(b);
        if (v instanceof LocalTime t) return timeText(t);
        if (v instanceof LocalDateTime ts) return Timestamp.valueOf(ts).toString();
        if (v instanceof OffsetDateTime ts) {
            return Timestamp.valueOf(ts.toLocalDateTime()).toString() + ts.getOffset().getId().replace("Z", "+00:00");
        }
        return v.toString();
    }

    private static String timeText(LocalTime t) {
        String base = String.format(Locale.ROOT, "%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond());
        if (t.getNano() == 0) return base;
        String frac = String.format(Locale.ROOT, "%09d", t.getNano()).replaceAll("0+$", "");
        return base + "." + frac;
    }

    static boolean toBoolean(Object v) throws SQLException {
        if (v == null) return false;
        if (v instanceof Boolean b) return b;
        if (v instanceof Long l) return l != 0;
        if (v instanceof BigDecimal d) return d.signum() != 0;
        if (v instanceof Double d) return d != 0;
        if (v instanceof String s) {
            switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "true": case "t": case "1": case "yes": case "y": case "on":
                    return true;
                case "false": case "f": case "0": case "no": case "n": case "off":
                    return false;
                default:
                    throw cannot(v, "boolean");
            }
        }
        throw cannot(v, "boolean");
    }

    static long toLong(Object v, long min, long max, String target) throws SQLException {
        if (v == null) return 0;
        long result;
        if (v instanceof Long l) {
            result = l;
        } else if (v instanceof Boolean b) {
            result = b ? 1 : 0;
        } else if (v instanceof BigDecimal d) {
            result = integral(d, target);
        } else if (v instanceof Double d) {
            if (d.isNaN() || d >= 0x1p63 || d < -0x1p63) throw outOfRange(v, target);
            result = d.longValue();
        } else if (v instanceof String s) {
            String t = s.trim();
            try {
                result = Long.parseLong(t);
            } catch (NumberFormatException e) {
                try {
                    result = integral(new BigDecimal(t), target);
                } catch (NumberFormatException e2) {
                    throw cannot(v, target);
                }
            }
        } else {
            throw cannot(v, target);
        }
        if (result < min || result > max) throw outOfRange(v, target);
        return result;
    }

    private static long integral(BigDecimal d, String target) throws SQLException {
        BigDecimal truncated = d.setScale(0, RoundingMode.DOWN);
        if (truncated.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0
                || truncated.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw outOfRange(d, target);
        }
        return truncated.longValue();
    }

    static double toDouble(Object v, String target) throws SQLException {
        if (v == null) return 0;
        if (v instanceof Double d) return d;
        if (v instanceof Long l) return l;
        if (v instanceof BigDecimal d) return d.doubleValue();
        if (v instanceof Boolean b) return b ? 1 : 0;
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                throw cannot(v, target);
            }
        }
        throw cannot(v, target);
    }

    static BigDecimal toBigDecimal(Object v) throws SQLException {
        if (v == null) return null;
        if (v instanceof BigDecimal d) return d;
        if (v instanceof Long l) return BigDecimal.valueOf(l);
        if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) throw outOfRange(v, "BigDecimal");
            return BigDecimal.valueOf(d);
        }
        if (v instanceof Boolean b) return b ? BigDecimal.ONE : BigDecimal.ZERO;
        if (v instanceof String s) {
            try {
                return new BigDecimal(s.trim());
            } catch (NumberFormatException e) {
                throw cannot(v, "BigDecimal");
            }
        }
        throw cannot(v, "BigDecimal");
    }

    static byte[] toBytes(Object v) throws SQLException {
        if (v == null) return null;
        if (v instanceof byte[] b) return b.clone();
        throw cannot(v, "byte[]");
    }

    static LocalDate toLocalDate(Object v) throws SQLException {
        if (v == null) return null;
        if (v instanceof LocalDate d) return d;
        if (v instanceof LocalDateTime ts) return ts.toLocalDate();
        if (v instanceof OffsetDateTime ts) return ts.toLocalDate();
        if (v instanceof String s) {
            String t = s.trim();
            try {
                return t.length() > 10 ? toLocalDateTime(t).toLocalDate() : LocalDate.parse(t);
            } catch (DateTimeParseException e) {
                throw cannot(v, "date");
            }
        }
        throw cannot(v, "date");
    }

    static LocalTime toLocalTime(Object v) throws SQLException {
        if (v == null) return null;
        if (v instanceof LocalTime t) return t;
        if (v instanceof LocalDateTime ts) return ts.toLocalTime();
        if (v instanceof OffsetDateTime ts) return ts.toLocalTime();
        if (v instanceof String s) {
            try {
                return LocalTime.parse(s.trim());
            } catch (DateTimeParseException e) {
                throw cannot(v, "time");
            }
        }
        throw cannot(v, "time");
    }

    static LocalDateTime toLocalDateTime(Object v) throws SQLException {
        if (v == null) return null;
        if (v instanceof LocalDateTime ts) return ts;
        if (v instanceof LocalDate d) return d.atStartOfDay();
        if (v instanceof LocalTime t) return LocalDate.EPOCH.atTime(t);
        if (v instanceof OffsetDateTime ts) return ts.atZoneSameInstant(ZoneId.systemDefault()).toLocalDateTime();
        if (v instanceof String s) {
            String t = s.trim();
            try {
                return t.length() == 10 ? LocalDate.parse(t).atStartOfDay() : LocalDateTime.parse(t.replace(' ', 'T'));
            } catch (DateTimeParseException e) {
                throw cannot(v, "timestamp");
            }
        }
        throw cannot(v, "timestamp");
    }

    static OffsetDateTime toOffsetDateTime(Object v) throws SQLException {
        if (v == null) return null;
        if (v instanceof OffsetDateTime ts) return ts;
        if (v instanceof String s) {
            try {
                return OffsetDateTime.parse(s.trim().replace(' ', 'T'));
            } catch (DateTimeParseException e) {
                throw cannot(v, "timestamp with time zone");
            }
        }
        LocalDateTime local = toLocalDateTime(v);
        return local.atZone(ZoneId.systemDefault()).toOffsetDateTime();
    }

    /** JDBC's DATE for a local date: midnight of that day in the calendar's zone (the JVM's when null). */
    static Date toDate(Object v, Calendar cal) throws SQLException {
        LocalDate d = toLocalDate(v);
        if (d == null) return null;
        if (cal == null) return Date.valueOf(d);
        return new Date(d.atStartOfDay(cal.getTimeZone().toZoneId()).toInstant().toEpochMilli());
    }

    static Time toTime(Object v, Calendar cal) throws SQLException {
        LocalTime t = toLocalTime(v);
        if (t == null) return null;
        ZoneId zone = cal == null ? ZoneId.systemDefault() : cal.getTimeZone().toZoneId();
        return new Time(LocalDate.EPOCH.atTime(t).atZone(zone).toInstant().toEpochMilli());
    }

    static Timestamp toTimestamp(Object v, Calendar cal) throws SQLException {
        if (v instanceof OffsetDateTime ts) return Timestamp.from(ts.toInstant());
        LocalDateTime ldt = toLocalDateTime(v);
        if (ldt == null) return null;
        if (cal == null) return Timestamp.valueOf(ldt);
        Timestamp ts = Timestamp.from(ldt.atZone(cal.getTimeZone().toZoneId()).toInstant());
        ts.setNanos(ldt.getNano());
        return ts;
    }

    /** {@link java.sql.ResultSet#getObject(int)}: the JDBC default Java type of the column's SQL type. */
    static Object toDefaultObject(Object v, int jdbcType) throws SQLException {
        if (v == null) return null;
        switch (jdbcType) {
            case Types.TINYINT:
            case Types.SMALLINT:
            case Types.INTEGER:
                return v instanceof Long l && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE ? (Object) l.intValue() : v;
            case Types.REAL:
                return v instanceof Double d ? (Object) d.floatValue() : v;
            case Types.DATE:
                return toDate(v, null);
            case Types.TIME:
                return toTime(v, null);
            case Types.TIMESTAMP:
                return toTimestamp(v, null);
            default:
                break;
        }
        if (v instanceof LocalDate d) return Date.valueOf(d);
        if (v instanceof LocalTime t) return toTime(t, null);
        if (v instanceof LocalDateTime ts) return Timestamp.valueOf(ts);
        if (v instanceof byte[] b) return b.clone();
        return v;
    }

    /** {@link java.sql.ResultSet#getObject(int, Class)}. */
    static <T> T toObject(Object v, Class<T> type) throws SQLException {
        if (type == null) throw new SQLException("getObject: type must not be null", "22023");
        if (v == null) {
            if (type.isPrimitive()) throw new SQLDataException("SQL NULL cannot be returned as " + type.getName(), "22002");
            return null;
        }
        Object r;
        if (type == String.class) {
            r = toStringValue(v);
        } else if (type == Integer.class || type == int.class) {
            r = (int) toLong(v, Integer.MIN_VALUE, Integer.MAX_VALUE, "int");
        } else if (type == Long.class || type == long.class) {
            r = toLong(v, Long.MIN_VALUE, Long.MAX_VALUE, "long");
        } else if (type == Short.class || type == short.class) {
            r = (short) toLong(v, Short.MIN_VALUE, Short.MAX_VALUE, "short");
        } else if (type == Byte.class || type == byte.class) {
            r = (byte) toLong(v, Byte.MIN_VALUE, Byte.MAX_VALUE, "byte");
        } else if (type == Boolean.class || type == boolean.class) {
            r = toBoolean(v);
        } else if (type == Double.class || type == double.class) {
            r = toDouble(v, "double");
        } else if (type == Float.class || type == float.class) {
            r = (float) toDouble(v, "float");
        } else if (type == BigDecimal.class) {
            r = toBigDecimal(v);
        } else if (type == BigInteger.class) {
            r = toBigDecimal(v).setScale(0, RoundingMode.DOWN).toBigInteger();
        } else if (type == byte[].class) {
            r = toBytes(v);
        } else if (type == Date.class) {
            r = toDate(v, null);
        } else if (type == Time.class) {
            r = toTime(v, null);
        } else if (type == Timestamp.class || type == java.util.Date.class) {
            r = toTimestamp(v, null);
        } else if (type == LocalDate.class) {
            r = toLocalDate(v);
        } else if (type == LocalTime.class) {
            r = toLocalTime(v);
        } else if (type == LocalDateTime.class) {
            r = toLocalDateTime(v);
        } else if (type == OffsetDateTime.class) {
            r = toOffsetDateTime(v);
        } else if (type == ZonedDateTime.class) {
            r = toOffsetDateTime(v).toZonedDateTime();
        } else if (type == Instant.class) {
            r = toOffsetDateTime(v).toInstant();
        } else if (type == UUID.class) {
            try {
                r = UUID.fromString(toStringValue(v).trim());
            } catch (IllegalArgumentException e) {
                throw cannot(v, "UUID");
            }
        } else if (type == java.sql.Blob.class) {
            r = new ShepherdBlob(toBytes(v));
        } else if (type == java.sql.Clob.class || type == java.sql.NClob.class) {
            r = new ShepherdClob(toStringValue(v));
        } else if (type == Object.class) {
            r = v instanceof byte[] b ? b.clone() : v;
        } else {
            throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getObject: conversion to " + type.getName()
                    + " is not supported by Shepherd", "0A000");
        }
        @SuppressWarnings("unchecked")
        T t = (T) r;
        return t;
    }

    // ---------------------------------------------------------------- Java to values (PreparedStatement setters)

    /** The protocol value of a Java object bound with {@code setObject(i, x)}. */
    static Object fromJava(Object x) throws SQLException {
        if (x == null) return null;
        if (x instanceof String || x instanceof Boolean || x instanceof Long || x instanceof BigDecimal
                || x instanceof Double || x instanceof LocalDate || x instanceof LocalTime || x instanceof LocalDateTime
                || x instanceof OffsetDateTime) {
            return x;
        }
        if (x instanceof Integer || x instanceof Short || x instanceof Byte) return ((Number) x).longValue();
        if (x instanceof Float f) return (double) f;
        if (x instanceof BigInteger b) return new BigDecimal(b);
        if (x instanceof byte[] b) return b.clone();
        if (x instanceof java.sql.Blob b) return blobBytes(b);
        if (x instanceof java.sql.Clob c) return clobText(c);
        if (x instanceof Character c) return c.toString();
        if (x instanceof Date d) return d.toLocalDate();
        if (x instanceof Time t) return toLocalTime(t, null);
        if (x instanceof Timestamp ts) return ts.toLocalDateTime();
        if (x instanceof java.util.Date d) return Timestamp.from(d.toInstant()).toLocalDateTime();
        if (x instanceof Instant i) return i.atOffset(ZoneOffset.UTC);
        if (x instanceof ZonedDateTime z) return z.toOffsetDateTime();
        if (x instanceof UUID u) return u.toString();
        if (x instanceof Calendar c) return c.toInstant().atZone(c.getTimeZone().toZoneId()).toOffsetDateTime();
        if (x instanceof OffsetTime) {
            throw new java.sql.SQLFeatureNotSupportedException("OffsetTime parameters are not supported by Shepherd", "0A000");
        }
        throw new java.sql.SQLFeatureNotSupportedException("setObject: " + x.getClass().getName()
                + " is not supported by Shepherd", "0A000");
    }

    /** A Blob's bytes, copied: ours directly, another driver's through {@code getBytes}. */
    static byte[] blobBytes(java.sql.Blob b) throws SQLException {
        return b instanceof ShepherdBlob ours ? ours.toBytes() : b.getBytes(1, Lobs.intLength(b.length()));
    }

    /** A Clob's text: ours directly, another driver's through {@code getSubString}. */
    static String clobText(java.sql.Clob c) throws SQLException {
        return c instanceof ShepherdClob ours ? ours.toText() : c.getSubString(1, Lobs.intLength(c.length()));
    }

    /** A {@link Time}'s local time of day, with its milliseconds ({@code Time.toLocalTime()} drops them). */
    static LocalTime toLocalTime(Time t, Calendar cal) {
        ZoneId zone = cal == null ? ZoneId.systemDefault() : cal.getTimeZone().toZoneId();
        return Instant.ofEpochMilli(t.getTime()).atZone(zone).toLocalTime();
    }

    /** Converts a protocol value to the representation of {@code targetJdbcType} ({@code setObject(i, x, type)}). */
    static Object toTarget(Object v, int targetJdbcType) throws SQLException {
        if (v == null) return null;
        ValueType t = ValueType.forJdbcType(targetJdbcType);
        switch (t) {
            case NULL:
                return null;
            case BOOLEAN:
                return toBoolean(v);
            case LONG:
                return toLong(v, Long.MIN_VALUE, Long.MAX_VALUE, "long");
            case DECIMAL:
                return toBigDecimal(v);
            case DOUBLE:
                return toDouble(v, "double");
            case STRING:
                return targetJdbcType == Types.OTHER || targetJdbcType == Types.JAVA_OBJECT ? v : toStringValue(v);
            case BYTES:
                return v instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : toBytes(v);
            case DATE:
                return toLocalDate(v);
            case TIME:
                return toLocalTime(v);
            case TIMESTAMP:
                return toLocalDateTime(v);
            case TIMESTAMP_TZ:
                return toOffsetDateTime(v);
            default:
                throw cannot(v, "SQL type " + targetJdbcType);
        }
    }

    private static SQLException cannot(Object v, String target) {
        String shown = v instanceof byte[] b ? "byte[" + b.length + "]" : String.valueOf(v);
        if (shown.length() > 60) shown = shown.substring(0, 60) + "...";
        return new SQLDataException("cannot convert " + ValueType.of(v) + " value '" + shown + "' to " + target, "22018");
    }

    private static SQLException outOfRange(Object v, String target) {
        return new SQLDataException("value " + v + " is out of range for " + target, "22003");
    }
}
