package org.shepherd.translator.dialect;

import java.util.Set;

/** Apache Derby 10.16: BOOLEAN since 10.7, OFFSET/FETCH only, no IF [NOT] EXISTS, no CONCAT/ROUND/TRUNC functions. */
public class DerbyDialect extends NoIfExistsDialect {

    /** Derby 10.16's words it does not take as unquoted names (probed: {@code ReservedWordsTest}). */
    static final Set<String> RESERVED_WORDS = Set.of((
            "ADD ALL ALTER AND ANY AS ASC ASSERTION AT AUTHORIZATION AVG BEGIN BETWEEN BIGINT BIT BOOLEAN BOTH "
            + "BY CALL CASCADE CASCADED CASE CAST CHAR CHARACTER CHECK CLOSE COLLATE COLLATION COLUMN COMMIT "
            + "CONNECTION CONSTRAINT CONSTRAINTS CONTINUE CONVERT CREATE CROSS CURRENT CURRENT_DATE CURRENT_ROLE "
            + "CURRENT_TIME CURRENT_TIMESTAMP CURRENT_USER CURSOR DEALLOCATE DEC DECIMAL DECLARE DEFAULT "
            + "DEFERRABLE DEFERRED DEFINER DELETE DESC DESCRIBE DETERMINISTIC DIAGNOSTICS DISTINCT DOUBLE DROP "
            + "ELSE END ESCAPE EXCEPT EXCEPTION EXECUTE EXISTS EXPLAIN EXTERNAL FALSE FETCH FIRST FLOAT FOR "
            + "FOREIGN FOUND FROM FULL FUNCTION GET GLOBAL GOTO GRANT GROUP HAVING HOUR IDENTITY IMMEDIATE IN "
            + "INITIALLY INNER INOUT INPUT INSENSITIVE INSERT INT INTEGER INTERSECT INTO INVOKER IS ISOLATION "
            + "JOIN KEY LAST LEADING LEFT LIKE LOWER MATCH MAX MIN MINUTE NATIONAL NATURAL NCHAR NEW NEXT NO NONE "
            + "NOT NULL NULLIF NUMERIC NVARCHAR OF ON ONLY OPEN OPTION OR ORDER OUT OUTER OVERLAPS PARTIAL "
            + "PREPARE PRESERVE PRIMARY PRIOR PRIVILEGES PROCEDURE READ REAL REFERENCES RELATIVE RESTRICT REVOKE "
            + "RIGHT ROLLBACK ROWS ROW_NUMBER SCHEMA SCROLL SECOND SELECT SESSION_USER SET SMALLINT SOME SQL "
            + "SQLSTATE SUBSTRING SUM TABLE TEMPORARY TO TRAILING TRANSACTION TRIM TRUE UNION UNIQUE UNKNOWN "
            + "UPDATE UPPER USER USING VALUES VARCHAR VARYING VIEW WHERE WINDOW WITH WORK WRITE XML XMLEXISTS "
            + "XMLPARSE XMLSERIALIZE YEAR").split(" "));

    @Override
    public Set<String> reservedWords() {
        return RESERVED_WORDS;
    }

    public DerbyDialect() {
        super(Set.of("X0Y32"), Set.of("42Y55", "42X65", "42X86", "42X14"));
    }


    @Override
    public String name() {
        return "derby";
    }

    @Override
    public Family family() {
        return Family.DERBY;
    }

    /** Derby: {@code RENAME COLUMN t.c TO d}. */
    @Override
    public String renameColumn(String alterTable, String table, String column, String newName) {
        return "RENAME COLUMN " + table + "." + column + " TO " + newName;
    }

    /** Derby changes no column's type but a VARCHAR's length (42Z15 for any other). */
    @Override
    public String columnType(String alterTable, String column, String type, TypeKind kind) {
        return kind == TypeKind.VARCHAR ? super.columnType(alterTable, column, type, kind) : null;
    }

    @Override
    public boolean nestsSavepoints() {
        return false;
    }

    @Override
    public boolean reportsGeneratedKeysOfEveryRow() {
        return false;
    }

    @Override
    public String truncateFunction() {
        return null;
    }

    @Override
    public boolean supportsNullColumnConstraint() {
        return false;
    }

    @Override
    public String columnType(TypeKind kind, int length, int scale) {
        // Derby's TIMESTAMP takes no precision and always keeps nanoseconds.
        return kind == TypeKind.TIMESTAMP ? "TIMESTAMP" : super.columnType(kind, length, scale);
    }

    @Override
    public boolean comparesStringsPadSpace() {
        return true;
    }

    @Override
    public boolean substrFailsPastEnd() {
        return true;
    }

    /** Functions of MySQL, PostgreSQL or HSQLDB that Derby 10.16 refuses (42Y03, or 42X80 for LEFT, RIGHT, SPACE, TRANSLATE). */
    private static final Set<String> MISSING_FUNCTIONS = Set.of("REPLACE", "LEFT", "RIGHT", "GREATEST", "LEAST", "IF",
            "LPAD", "RPAD", "INSTR", "REPEAT", "REVERSE", "SPACE", "TRANSLATE", "CONCAT_WS", "DATE_FORMAT", "DATEDIFF",
            "FORMAT", "SUBSTRING_INDEX", "FIND_IN_SET", "FIELD", "ELT", "POWER", "POW", "TRUNCATE", "TRUNC", "ASCII", "CHR",
            "TO_CHAR", "STRCMP", "LOG2", "MD5", "SHA1", "HEX", "UNHEX", "BIT_LENGTH", "OCTET_LENGTH", "INITCAP", "QUARTER",
            "WEEK", "DAYOFWEEK", "DAYOFYEAR", "DAYNAME", "MONTHNAME", "LAST_DAY", "DATE_ADD", "DATE_SUB", "ADDDATE",
            "SUBDATE", "CONV", "BIN", "OCT", "CBRT", "DIV", "BTRIM", "SPLIT_PART", "REGEXP_REPLACE", "JSON_EXTRACT",
            "UNIX_TIMESTAMP", "FROM_UNIXTIME", "STR_TO_DATE", "MAKEDATE", "ISNULL", "NVL2", "DECODE",
            "GROUP_CONCAT", "STRING_AGG", "LISTAGG", "WEEKDAY", "YEARWEEK", "SOUNDEX", "DIFFERENCE", "REGEXP_LIKE", "TO_DATE",
            "TO_NUMBER", "BITAND", "BIT_AND", "DIGITS", "MONTHS_BETWEEN", "ADD_MONTHS", "TIMEDIFF", "SEC_TO_TIME",
            "TIME_TO_SEC", "TO_DAYS", "FROM_DAYS", "PERIOD_ADD", "MICROSECOND", "BIT_COUNT", "CRC32", "SHA2", "TO_BASE64",
            "FROM_BASE64", "ORD", "MID", "CHARINDEX", "ISNUMERIC", "STUFF", "STRPOS", "DATE_TRUNC", "DATEADD");

    @Override
    public Set<String> missingFunctions() {
        return MISSING_FUNCTIONS;
    }

    @Override
    public boolean supportsRound() {
        return false;
    }

    @Override
    public boolean supportsExtract() {
        return false;
    }

    @Override
    public boolean concatAcceptsNumbers() {
        return false;
    }

    @Override
    public boolean acceptsComparisonWithNullLiteral() {
        return false;
    }

    @Override
    public boolean refusesUntypedNull() {
        return true;
    }

    @Override
    public boolean forUpdateNeedsUpdatableCursor() {
        return true;
    }

    @Override
    public boolean supportsCommitStatement() {
        return false;
    }

    @Override
    public int defaultDecimalPrecision() {
        return 5;
    }

    @Override
    public boolean sumKeepsIntegerType() {
        return true;
    }

    @Override
    public String fromOfSelectWithoutTable() {
        return ONE_ROW;
    }

    @Override
    public SequenceDefaults sequenceDefaults() {
        return new SequenceDefaults("INTEGER", true, false);
    }

    @Override
    public boolean stringLiteralsAreFixedLength() {
        return true;
    }

    @Override
    public boolean misreadsNullInValueLists() {
        return true;
    }

    @Override
    public DecimalStore decimalStore() {
        return DecimalStore.TRUNCATES;
    }

    @Override
    public boolean parameterTakesOperandType() {
        return true;
    }

    @Override
    public boolean cutsParameterBesideDecimal(ParameterPosition position) {
        return position == ParameterPosition.ADDITIVE || position == ParameterPosition.MULTIPLICATIVE
                || position == ParameterPosition.COALESCE;
    }

    @Override
    public boolean losesNullOrderingOfDeduplicatedRows() {
        return true;
    }

    @Override
    public boolean mismatchesIntegerEqualityAcrossTypes() {
        return true;
    }
}
