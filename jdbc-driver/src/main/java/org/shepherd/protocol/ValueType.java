package org.shepherd.protocol;

import java.sql.Types;

/**
 * The closed set of value representations that cross the wire and reach the voter. Every JDBC value a replica
 * returns is converted to exactly one of these Java types on the shepherd (see {@code org.shepherd.replica}),
 * and every parameter a client binds is converted to one of them by the driver.
 *
 * <pre>
 *  ValueType   Java type                    JDBC types
 *  NULL        null                         any
 *  BOOLEAN     Boolean                      BOOLEAN, BIT
 *  LONG        Long                         TINYINT, SMALLINT, INTEGER, BIGINT
 *  DECIMAL     java.math.BigDecimal         DECIMAL, NUMERIC
 *  DOUBLE      Double                       DOUBLE, FLOAT, REAL
 *  STRING      String                       CHAR, VARCHAR, LONGVARCHAR, NCHAR, NVARCHAR, CLOB, NCLOB
 *  BYTES       byte[]                       BINARY, VARBINARY, LONGVARBINARY, BLOB
 *  DATE        java.time.LocalDate          DATE
 *  TIME        java.time.LocalTime          TIME
 *  TIMESTAMP   java.time.LocalDateTime      TIMESTAMP
 *  TIMESTAMP_TZ java.time.OffsetDateTime    TIMESTAMP_WITH_TIMEZONE
 * </pre>
 * The tag numbers are part of wire protocol v1 and never change.
 */
public enum ValueType {
    NULL(0),
    BOOLEAN(1),
    LONG(2),
    DECIMAL(3),
    DOUBLE(4),
    STRING(5),
    BYTES(6),
    DATE(7),
    TIME(8),
    TIMESTAMP(9),
    TIMESTAMP_TZ(10);

    private final int tag;

    ValueType(int tag) {
        this.tag = tag;
    }

    public int tag() {
        return tag;
    }

    public static ValueType ofTag(int tag) {
        for (ValueType t : values()) {
            if (t.tag == tag) return t;
        }
        throw new IllegalArgumentException("unknown value tag " + tag);
    }

    /** The representation for values of a column of this JDBC type; {@link #STRING} for types we do not know. */
    public static ValueType forJdbcType(int jdbcType) {
        switch (jdbcType) {
            case Types.BOOLEAN:
            case Types.BIT:
                return BOOLEAN;
            case Types.TINYINT:
            case Types.SMALLINT:
            case Types.INTEGER:
            case Types.BIGINT:
                return LONG;
            case Types.DECIMAL:
            case Types.NUMERIC:
                return DECIMAL;
            case Types.DOUBLE:
            case Types.FLOAT:
            case Types.REAL:
                return DOUBLE;
            case Types.BINARY:
            case Types.VARBINARY:
            case Types.LONGVARBINARY:
            case Types.BLOB:
                return BYTES;
            case Types.DATE:
                return DATE;
            case Types.TIME:
            case Types.TIME_WITH_TIMEZONE:
                return TIME;
            case Types.TIMESTAMP:
                return TIMESTAMP;
            case Types.TIMESTAMP_WITH_TIMEZONE:
                return TIMESTAMP_TZ;
            case Types.NULL:
                return NULL;
            default:
                return STRING;
        }
    }

    /** The type of a non-null Java value already in canonical representation; throws for anything else. */
    public static ValueType of(Object value) {
        if (value == null) return NULL;
        if (value instanceof Boolean) return BOOLEAN;
        if (value instanceof Long) return LONG;
        if (value instanceof java.math.BigDecimal) return DECIMAL;
        if (value instanceof Double) return DOUBLE;
        if (value instanceof String) return STRING;
        if (value instanceof byte[]) return BYTES;
        if (value instanceof java.time.LocalDate) return DATE;
        if (value instanceof java.time.LocalTime) return TIME;
        if (value instanceof java.time.LocalDateTime) return TIMESTAMP;
        if (value instanceof java.time.OffsetDateTime) return TIMESTAMP_TZ;
        throw new IllegalArgumentException("not a protocol value: " + value.getClass().getName());
    }
}
