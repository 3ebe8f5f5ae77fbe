package org.shepherd.vote;

import java.sql.Types;

/**
 * The JDBC type families the voter compares column metadata by. Engines disagree on the exact type of the same
 * expression (COUNT(*) is INTEGER on Derby and BIGINT on MariaDB, SUM of integers is DECIMAL on MariaDB, a MariaDB
 * TINYINT(1) is reported as BIT or BOOLEAN), so integers, decimals and booleans form one exact-numeric family.
 */
public enum TypeFamily {
    EXACT_NUMERIC,
    APPROXIMATE_NUMERIC,
    CHARACTER,
    BINARY,
    DATE,
    TIME,
    TIMESTAMP,
    OTHER;

    public static TypeFamily of(int jdbcType) {
        switch (jdbcType) {
            case Types.BIT:
            case Types.BOOLEAN:
            case Types.TINYINT:
            case Types.SMALLINT:
            case Types.INTEGER:
            case Types.BIGINT:
            case Types.DECIMAL:
            case Types.NUMERIC:
                return EXACT_NUMERIC;
            case Types.REAL:
            case Types.FLOAT:
            case Types.DOUBLE:
                return APPROXIMATE_NUMERIC;
            case Types.CHAR:
            case Types.VARCHAR:
            case Types.LONGVARCHAR:
            case Types.NCHAR:
            case Types.NVARCHAR:
            case Types.LONGNVARCHAR:
            case Types.CLOB:
            case Types.NCLOB:
                return CHARACTER;
            case Types.BINARY:
            case Types.VARBINARY:
            case Types.LONGVARBINARY:
            case Types.BLOB:
                return BINARY;
            case Types.DATE:
                return DATE;
            case Types.TIME:
            case Types.TIME_WITH_TIMEZONE:
                return TIME;
            case Types.TIMESTAMP:
            case Types.TIMESTAMP_WITH_TIMEZONE:
                return TIMESTAMP;
            default:
                return OTHER;
        }
    }

    /** CHAR columns are blank-padded by some engines and not others: their trailing blanks are not compared. */
    public static boolean isPaddedCharacter(int jdbcType) {
        return jdbcType == Types.CHAR || jdbcType == Types.NCHAR;
    }
}
