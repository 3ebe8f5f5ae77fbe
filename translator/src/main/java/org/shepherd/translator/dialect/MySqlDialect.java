package org.shepherd.translator.dialect;

import java.sql.SQLException;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** MySQL 8 (default sql_mode): backtick quoting, LIMIT, CONCAT, `/` yields decimals, NULLs sort low, no NULLS FIRST/LAST. */
public class MySqlDialect extends Dialect {

    /** MySQL 8.0's reserved words beyond MariaDB's (its manual; no MySQL server runs here). */
    static final Set<String> MYSQL_8_RESERVED_WORDS = Set.of((
            "CUBE CUME_DIST DENSE_RANK EMPTY FIRST_VALUE FUNCTION GROUPING GROUPS JSON_TABLE LAG LAST_VALUE "
            + "LATERAL LEAD NTH_VALUE NTILE OF OVER PERCENT_RANK RANK RECURSIVE ROW ROWS ROW_NUMBER SYSTEM WINDOW").split(" "));

    @Override
    public Set<String> reservedWords() {
        return MYSQL_RESERVED_WORDS;
    }

    private static final Set<String> MYSQL_RESERVED_WORDS = java.util.stream.Stream.concat(MariaDbDialect.RESERVED_WORDS.stream(),
            MYSQL_8_RESERVED_WORDS.stream()).collect(java.util.stream.Collectors.toUnmodifiableSet());

    private static final int ER_DUP_KEYNAME = 1061;
    private static final int ER_CANT_DROP_FIELD_OR_KEY = 1091;
    private static final int ER_NO_SUCH_TABLE = 1146;
    private static final int ER_CONSTRAINT_NOT_FOUND = 3940;


    @Override
    public String name() {
        return "mysql";
    }

    @Override
    public Family family() {
        return Family.MYSQL;
    }

    /** MySQL and MariaDB: the new name in t's database, named (else t would move to the connection's database). */
    @Override
    public String renameTable(String alterTable, String table, String schema, String newName) {
        return alterTable + "RENAME TO " + (schema == null ? "" : schema + ".") + newName;
    }

    @Override
    public boolean ddlCommitsTransaction() {
        return true;
    }

    /** {@code DROP DEFAULT} marked {@link #NULL_DEFAULT_IF_NULLABLE}: DEFAULT NULL for a nullable column, as elsewhere. */
    @Override
    public String dropDefault(String alterTable, String column) {
        return super.dropDefault(alterTable, column) + " " + NULL_DEFAULT_IF_NULLABLE;
    }

    /**
     * None: MySQL changes a column's nullability only by restating its whole definition (MODIFY); MariaDB's replica
     * restates it from its own catalog ({@link MariaDbDialect}).
     */
    @Override
    public String columnNullability(String alterTable, String column, boolean notNull) {
        return null;
    }

    /** None: MySQL changes a column's type only by restating its whole definition (MODIFY); see {@link #columnNullability}. */
    @Override
    public String columnType(String alterTable, String column, String type, TypeKind kind) {
        return null;
    }

    /**
     * MariaDB Connector/J 3 reports the first key of a multi-row INSERT only (the server tells no other; 2.x computed the
     * rest from auto_increment_increment): a MySQL-family primary runs such an INSERT row by row to learn each key.
     */
    @Override
    public boolean reportsGeneratedKeysOfEveryRow() {
        return false;
    }

    @Override
    public boolean defaultGeneratesKey() {
        return false;
    }

    @Override
    public char identifierQuote() {
        return '`';
    }

    /** Table names keep their case (case-sensitive on Linux unless lower_case_table_names=1); columns ignore case. */
    @Override
    public String foldUnquotedIdentifier(String name) {
        return name;
    }

    @Override
    public boolean supportsLimitOffset() {
        return true;
    }

    @Override
    public boolean supportsNullsFirstLast() {
        return false;
    }

    @Override
    public boolean nullsSortHighByDefault() {
        return false;
    }

    @Override
    public boolean supportsCreateIndexIfNotExists() {
        return false;
    }

    @Override
    public boolean supportsDropIndexIfExists() {
        return false;
    }

    @Override
    public boolean dropIndexNamesTable() {
        return true;
    }

    @Override
    public boolean castRoundsNumbers() {
        return true;
    }

    /** Only CREATE INDEX IF NOT EXISTS is emulated on MySQL (tables have the clause). */
    @Override
    public boolean isAlreadyExistsError(SQLException e) {
        return e.getErrorCode() == ER_DUP_KEYNAME;
    }

    /** DROP INDEX IF EXISTS and MySQL's ALTER TABLE [IF EXISTS] ... DROP ... IF EXISTS are emulated (DROP TABLE has the clause). */
    @Override
    public boolean isDoesNotExistError(SQLException e) {
        int code = e.getErrorCode();
        return code == ER_CANT_DROP_FIELD_OR_KEY || code == ER_NO_SUCH_TABLE || code == ER_CONSTRAINT_NOT_FOUND;
    }

    @Override
    public boolean concatOperator() {
        return false;
    }

    @Override
    public boolean integerDivisionTruncates() {
        return false;
    }

    @Override
    public String integerDivisionOperator() {
        return "DIV";
    }

    @Override
    public boolean backslashEscapesInStrings() {
        return true;
    }

    @Override
    public String truncateFunction() {
        return "TRUNCATE";
    }

    /** AUTO_INCREMENT counts by one; a start value becomes the AUTO_INCREMENT table option. */
    @Override
    public String identityClause(long startWith, long incrementBy) {
        return incrementBy == 1 ? "AUTO_INCREMENT" : null;
    }

    @Override
    public String columnType(TypeKind kind, int length, int scale) {
        switch (kind) {
            // MySQL's REAL means DOUBLE unless sql_mode has REAL_AS_FLOAT; FLOAT is the 4-byte type.
            case REAL: return "FLOAT";
            case DOUBLE: return "DOUBLE";
            case TEXT: return "LONGTEXT";
            case BLOB: return "LONGBLOB";
            // DATETIME, not TIMESTAMP: MySQL's TIMESTAMP converts time zones and ends in 2038.
            case TIMESTAMP: return "DATETIME(" + length + ")";
            default: return super.columnType(kind, length, scale);
        }
    }

    @Override
    public String castType(TypeKind kind, int length, int scale) {
        switch (kind) {
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case BOOLEAN: return "SIGNED";
            case REAL: return "FLOAT";
            case DOUBLE: return "DOUBLE";
            case CHAR:
            case VARCHAR: return "CHAR(" + length + ")";
            case TEXT: return "CHAR";
            case BLOB: return "BINARY";
            default: return columnType(kind, length, scale);
        }
    }

    @Override
    public IntegerArithmetic integerArithmetic() {
        return IntegerArithmetic.BIGINT;
    }

    /** MariaDB 11.4 types CONCAT of a CAST or COUNT as a binary string. */
    @Override
    public boolean concatTypesComputedNumbersAsBinary() {
        return true;
    }

    @Override
    public boolean castToCharWithoutLengthIsUnbounded() {
        return true;
    }

    @Override
    public boolean localtimeIsTimestamp() {
        return true;
    }

    /** MySQL 8 rounds (unless TIME_TRUNCATE_FRACTIONAL); MariaDB overrides: it truncates. */
    @Override
    public boolean roundsFractionalSeconds() {
        return true;
    }

    /** A DATETIME(p) column's default must have its precision; a DATE or TIME default is an expression in parentheses. */
    @Override
    public String clockDefault(TypeKind kind, int precision) {
        switch (kind) {
            case DATE: return "(CURRENT_DATE)";
            case TIME: return "(CURRENT_TIME)";
            default: return "CURRENT_TIMESTAMP(" + precision + ")";
        }
    }

    @Override
    public boolean supportsForShare() {
        return true;
    }

    @Override
    public boolean offsetNeedsLimit() {
        return true;
    }

    @Override
    public boolean supportsValuesStatement() {
        return false;
    }

    @Override
    public boolean supportsMerge() {
        return false;
    }

    @Override
    public boolean identityStartIsTableOption() {
        return true;
    }

    @Override
    public boolean quotedIdentifiersIgnoreCase() {
        return true;
    }

    @Override
    public boolean realIsDouble() {
        return true;
    }

    @Override
    public boolean floatWithoutPrecisionIsSingle() {
        return true;
    }

    @Override
    public int defaultDecimalPrecision() {
        return 10;
    }

    /** MySQL and MariaDB: DECIMAL(65, s) at most. */
    @Override
    public int maxDecimalPrecision() {
        return 65;
    }

    @Override
    public boolean identifiersMayStartWithUnderscore() {
        return true;
    }

    @Override
    public boolean likeEscapesWithBackslash() {
        return true;
    }

    @Override
    public boolean takesSeveralAlterChanges() {
        return true;
    }

    @Override
    public boolean nullGeneratesKey() {
        return true;
    }

    /**
     * Functions of PostgreSQL, HSQLDB or Derby that MariaDB 10.11 and 11.4 do not have ("FUNCTION x does not exist"),
     * each checked against both by {@code FunctionSupportTest}.
     */
    static final Set<String> MARIADB_MISSING_FUNCTIONS = Set.of("TRANSLATE", "INITCAP", "CBRT", "BTRIM", "SPLIT_PART",
            "DIFFERENCE", "REGEXP_LIKE", "TO_DATE", "TO_NUMBER", "BITAND", "DIGITS", "MONTHS_BETWEEN", "CHARINDEX", "DATEADD",
            "ISNUMERIC", "STUFF", "STRPOS", "DATE_TRUNC", "DOUBLE", "DIV", "STRING_AGG", "LISTAGG");

    /**
     * MySQL 8's: MariaDB's with TO_CHAR (MariaDB has it since 10.6) and without REGEXP_LIKE (MySQL has it); no MySQL
     * server runs here to check it.
     */
    private static final Set<String> MISSING_FUNCTIONS = Stream.concat(
            MARIADB_MISSING_FUNCTIONS.stream().filter(f -> !"REGEXP_LIKE".equals(f)), Stream.of("TO_CHAR"))
            .collect(Collectors.toUnmodifiableSet());

    @Override
    public Set<String> missingFunctions() {
        return MISSING_FUNCTIONS;
    }
}
