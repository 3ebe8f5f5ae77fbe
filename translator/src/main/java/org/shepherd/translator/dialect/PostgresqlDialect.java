package org.shepherd.translator.dialect;

import java.util.Locale;
import java.util.Set;

/** PostgreSQL 12+: folds unquoted names to lower case, TEXT and BYTEA, no YEAR()/MONTH() functions. */
public class PostgresqlDialect extends Dialect {

    /** PostgreSQL's words it does not take as unquoted names (probed on 14: {@code ReservedWordsTest}). */
    static final Set<String> RESERVED_WORDS = Set.of((
            "ALL ANALYSE ANALYZE AND ANY ARRAY AS ASC ASYMMETRIC AUTHORIZATION BINARY BOTH CASE CAST CHECK "
            + "COLLATE COLLATION COLUMN CONCURRENTLY CONSTRAINT CREATE CROSS CURRENT_CATALOG CURRENT_DATE "
            + "CURRENT_ROLE CURRENT_SCHEMA CURRENT_TIME CURRENT_TIMESTAMP CURRENT_USER DEFAULT DEFERRABLE DESC "
            + "DISTINCT DO ELSE END EXCEPT FALSE FETCH FOR FOREIGN FREEZE FROM FULL GRANT GROUP HAVING ILIKE IN "
            + "INITIALLY INNER INTERSECT INTO IS ISNULL JOIN LATERAL LEADING LEFT LIKE LIMIT LOCALTIME "
            + "LOCALTIMESTAMP NATURAL NOT NOTNULL NULL OFFSET ON ONLY OR ORDER OUTER OVERLAPS PLACING PRIMARY "
            + "REFERENCES RETURNING RIGHT SELECT SESSION_USER SIMILAR SOME SYMMETRIC TABLE TABLESAMPLE THEN TO "
            + "TRAILING TRUE UNION UNIQUE USER USING VARIADIC VERBOSE WHEN WHERE WINDOW WITH").split(" "));

    @Override
    public Set<String> reservedWords() {
        return RESERVED_WORDS;
    }

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public Family family() {
        return Family.POSTGRESQL;
    }

    @Override
    public boolean keepsReplacedSavepoints() {
        return true;
    }

    @Override
    public String foldUnquotedIdentifier(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    @Override
    public boolean supportsLimitOffset() {
        return true;
    }

    @Override
    public boolean castRoundsNumbers() {
        return true;
    }

    @Override
    public boolean supportsDatePartFunctions() {
        return false;
    }

    @Override
    public String columnType(TypeKind kind, int length, int scale) {
        switch (kind) {
            case TEXT: return "TEXT";
            case BLOB: return "BYTEA";
            default: return super.columnType(kind, length, scale);
        }
    }

    @Override
    public String castType(TypeKind kind, int length, int scale) {
        return kind == TypeKind.TEXT ? "TEXT" : super.castType(kind, length, scale);
    }

    @Override
    public boolean supportsForShare() {
        return true;
    }

    @Override
    public boolean supportsKeyLockModes() {
        return true;
    }

    @Override
    public boolean sumOfBigintIsNumeric() {
        return true;
    }

    @Override
    public boolean identifiersMayStartWithUnderscore() {
        return true;
    }

    @Override
    public boolean supportsAlterIfExists() {
        return true;
    }

    @Override
    public boolean takesEmptyLikeEscape() {
        return true;
    }

    @Override
    public boolean likeEscapesWithBackslash() {
        return true;
    }

    @Override
    public boolean groupsByStringConstants() {
        return false;
    }

    @Override
    public boolean takesSeveralAlterChanges() {
        return true;
    }

    /**
     * Functions of MySQL, HSQLDB or Derby that PostgreSQL 14 does not have under that name (42883, or a syntax error
     * for DATE_ADD's INTERVAL argument and TIME(x)), each checked against PostgreSQL by {@code FunctionSupportTest}. Left out:
     * names PostgreSQL has with other arguments or meaning (FORMAT, DECODE, TO_NUMBER, BIT_COUNT) and those of later
     * versions (REGEXP_LIKE, REGEXP_SUBSTR: 15).
     */
    private static final Set<String> MISSING_FUNCTIONS = Set.of("IF", "INSTR", "SPACE", "DATE_FORMAT", "DATEDIFF",
            "SUBSTRING_INDEX", "FIND_IN_SET", "FIELD", "ELT", "TRUNCATE", "STRCMP", "LOG2", "SHA1", "HEX", "UNHEX",
            "QUARTER", "WEEK", "DAYOFWEEK", "DAYOFYEAR", "DAYNAME", "MONTHNAME", "LAST_DAY", "CONV", "BIN", "OCT",
            "UNIX_TIMESTAMP", "FROM_UNIXTIME", "STR_TO_DATE", "MAKEDATE", "ISNULL", "NVL2", "LOCATE", "WEEKDAY", "YEARWEEK",
            "SECOND", "SOUNDEX", "DIFFERENCE", "BITAND", "DOUBLE", "DIGITS", "MONTHS_BETWEEN", "ADD_MONTHS", "DATE_ADD",
            "DATE_SUB", "ADDDATE", "SUBDATE", "JSON_EXTRACT", "TIMEDIFF", "SEC_TO_TIME", "TIME_TO_SEC", "TO_DAYS",
            "FROM_DAYS", "PERIOD_ADD", "MICROSECOND", "CRC32", "SHA2", "TO_BASE64", "FROM_BASE64", "ORD", "MID",
            "CHARINDEX", "ISNUMERIC", "STUFF", "DATEADD", "TIME", "GROUP_CONCAT", "LISTAGG");

    @Override
    public Set<String> missingFunctions() {
        return MISSING_FUNCTIONS;
    }

    @Override
    public boolean roundsFractionalSeconds() {
        return true;
    }
}
