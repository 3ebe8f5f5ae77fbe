package org.shepherd.translator.dialect;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What one SQL engine accepts and how it behaves, as capability methods the translator asks when it renders a
 * statement. One subclass per engine; engines that share a grammar share a {@link Family}.
 * Instances are immutable; two instances of the same class are equal.
 */
public abstract class Dialect {

    /** Engines that share a grammar. */
    public enum Family { DERBY, MYSQL, HSQLDB, POSTGRESQL, DB2 }

    /** Canonical scalar types the translator maps client DDL and CAST targets to. */
    public enum TypeKind {
        SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, DOUBLE, BOOLEAN, CHAR, VARCHAR, TEXT, BLOB, DATE, TIME, TIMESTAMP
    }

    /** How an engine computes +, - and * of integers. */
    public enum IntegerArithmetic {
        /** In the wider operand's type (SMALLINT, INTEGER or BIGINT), raising 22003 when the result does not fit. */
        OPERAND_TYPE,
        /** Always in BIGINT, raising 22003 beyond it (MySQL/MariaDB). */
        BIGINT,
        /**
         * Not reliably range-checked (HSQLDB 2.7): INTEGER results widen to BIGINT, a BIGINT sum to DECIMAL, while a
         * BIGINT difference wraps around; only storing a value checks its range. DECIMAL arithmetic is exact.
         */
        UNCHECKED
    }

    /** Precision used for TIMESTAMP/DATETIME columns written without one: microseconds, the finest all engines keep. */
    public static final int DEFAULT_TIMESTAMP_PRECISION = 6;

    public static final Dialect DERBY = new DerbyDialect();
    public static final Dialect MYSQL = new MySqlDialect();
    public static final Dialect MARIADB = new MariaDbDialect();
    public static final Dialect HSQLDB = new HsqldbDialect();
    public static final Dialect POSTGRESQL = new PostgresqlDialect();
    public static final Dialect DB2 = new Db2Dialect();

    /** Every built-in dialect, in the order documented in docs/translator.md. */
    public static final List<Dialect> ALL = List.of(DERBY, MYSQL, MARIADB, HSQLDB, POSTGRESQL, DB2);

    protected Dialect() {
    }

    /** The dialect for a configuration value: derby, mariadb, mysql, hsqldb, postgresql (or postgres), db2. */
    public static Dialect forName(String name) throws SQLException {
        String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        switch (key) {
            case "derby": return DERBY;
            case "mysql": return MYSQL;
            case "mariadb": return MARIADB;
            case "hsqldb": return HSQLDB;
            case "postgresql":
            case "postgres": return POSTGRESQL;
            case "db2": return DB2;
            default:
                throw new SQLException("Unknown SQL dialect '" + name + "'; expected one of derby, mariadb, mysql, hsqldb, postgresql, db2",
                        "42000");
        }
    }

    /** The dialect of a vendor JDBC URL (jdbc:derby:, jdbc:mysql:, jdbc:mariadb:, jdbc:hsqldb:, jdbc:postgresql:, jdbc:db2:). */
    public static Dialect fromJdbcUrl(String url) throws SQLException {
        String u = url == null ? "" : url.trim().toLowerCase(Locale.ROOT);
        for (Dialect d : ALL) {
            if (u.startsWith("jdbc:" + d.name() + ":")) {
                return d;
            }
        }
        if (u.startsWith("jdbc:postgres:")) {
            return POSTGRESQL;
        }
        throw new SQLException("Cannot infer the SQL dialect of JDBC URL '" + url + "'; set replica.<name>.dialect", "42000");
    }

    /** The configuration name: derby, mysql, mariadb, hsqldb, postgresql, db2. */
    public abstract String name();

    public abstract Family family();

    /** The character that quotes a delimited identifier. */
    public char identifierQuote() {
        return '"';
    }

    /** The name this engine stores for an unquoted identifier: upper case (Derby, HSQLDB, Db2), lower case, or as written. */
    public String foldUnquotedIdentifier(String name) {
        return name.toUpperCase(Locale.ROOT);
    }

    /**
     * An unquoted identifier may begin with an underscore ({@code _sub_}, as MySQL's Hibernate dialect writes a derived
     * table's alias). Where it may not (Derby, HSQLDB, Db2), such a word is quoted in the name the engine would store.
     */
    public boolean identifiersMayStartWithUnderscore() {
        return false;
    }

    /** {@code LIMIT n OFFSET m}; otherwise {@code OFFSET m ROWS FETCH FIRST n ROWS ONLY}. */
    public boolean supportsLimitOffset() {
        return false;
    }

    /** {@code ORDER BY x NULLS FIRST|LAST}. */
    public boolean supportsNullsFirstLast() {
        return true;
    }

    /** NULL sorts as the largest value when no NULLS clause is given (so ASC puts NULLs last). */
    public boolean nullsSortHighByDefault() {
        return true;
    }

    /** {@code CREATE TABLE IF NOT EXISTS}. */
    public boolean supportsCreateTableIfNotExists() {
        return true;
    }

    /** {@code DROP TABLE IF EXISTS}. */
    public boolean supportsDropTableIfExists() {
        return true;
    }

    /**
     * {@code LIKE p ESCAPE ''} means "no escape character" (PostgreSQL). MySQL and MariaDB take it for their default,
     * the backslash; Derby, HSQLDB and Db2 refuse it (and escape nothing by default).
     */
    public boolean takesEmptyLikeEscape() {
        return false;
    }

    /** A table of one row that Derby and HSQLDB read without any table of their own: {@code SELECT 1 FROM} it. */
    protected static final String ONE_ROW = "(VALUES (0)) AS shepherd_dual";

    /**
     * What a SELECT without a table reads on this engine, which refuses a SELECT without FROM (Derby, HSQLDB, Db2), else
     * null.
     */
    public String fromOfSelectWithoutTable() {
        return null;
    }

    /**
     * Whether this engine has no built-in function {@code upperCaseName} that other engines have (and the translator does
     * not rewrite): a call is refused before it runs anywhere, rather than failing on this engine's replicas only, where
     * f+1 of them agreeing on the error would outvote a primary that ran it.
     */
    public boolean lacksFunction(String upperCaseName) {
        return missingFunctions().contains(upperCaseName);
    }

    /** The names {@link #lacksFunction} is true for, upper case (each checked against the engine by a test). */
    public Set<String> missingFunctions() {
        return Set.of();
    }

    /**
     * Whether LIKE takes the backslash as its escape character when no ESCAPE clause names one (MySQL, MariaDB and
     * PostgreSQL: {@code 'a\_b'} matches only "a_b"); Derby, HSQLDB and Db2 escape nothing then.
     */
    public boolean likeEscapesWithBackslash() {
        return false;
    }

    /** What this engine's {@code CREATE SEQUENCE} assumes for the type, bounds and first value it is not given. */
    public SequenceDefaults sequenceDefaults() {
        return SequenceDefaults.STANDARD;
    }

    /**
     * Whether one ALTER TABLE may make several changes ({@code ADD a INT, DROP COLUMN b}), all or none of them (MySQL,
     * MariaDB, PostgreSQL); elsewhere the translator runs them as one statement each.
     */
    public boolean takesSeveralAlterChanges() {
        return false;
    }

    /** {@code ALTER TABLE IF EXISTS t} and {@code DROP COLUMN/CONSTRAINT IF EXISTS x} (PostgreSQL, MariaDB). */
    public boolean supportsAlterIfExists() {
        return false;
    }

    /**
     * {@code ALTER TABLE t RENAME TO u} in this engine's words: {@code alterTable} is the rendered "ALTER TABLE [IF EXISTS]
     * t ", {@code table} t as written, {@code schema} t's schema as written (null when t is not qualified), {@code newName}
     * u, unqualified: u stays in t's schema. The standard's and PostgreSQL's form.
     */
    public String renameTable(String alterTable, String table, String schema, String newName) {
        return alterTable + "RENAME TO " + newName;
    }

    /** {@code ALTER TABLE t RENAME COLUMN c TO d} in this engine's words (the arguments as {@link #renameTable}'s). */
    public String renameColumn(String alterTable, String table, String column, String newName) {
        return alterTable + "RENAME COLUMN " + column + " TO " + newName;
    }

    /**
     * Stands, in a MariaDB {@code ALTER TABLE t MODIFY c ...} the translator renders for a column change, for the rest of
     * the column's definition as that replica has it (its type, NULL or NOT NULL, DEFAULT, AUTO_INCREMENT, ON UPDATE,
     * COMMENT, whichever the change does not set): MariaDB changes a column only by restating all of it, which only the
     * replica itself knows. The replica completes the statement from its own catalog before it runs it.
     */
    public static final String RESTATED_COLUMN = "/*shepherd:restated-column*/";

    /**
     * Separates the statements of one DDL change that an engine makes in several (MySQL's MODIFY on Derby: a type, then
     * NOT NULL, then the DEFAULT); the replica runs them one after the other, in the same transaction.
     */
    public static final String THEN = " /*shepherd:then*/ ";

    /**
     * Marks a MySQL-family replica's {@code DROP DEFAULT}, which there leaves a nullable column without any default (an
     * INSERT that leaves it out then fails in strict mode) where the other engines leave DEFAULT NULL: the replica makes
     * it {@code SET DEFAULT NULL} when its own catalog says the column is nullable.
     */
    public static final String NULL_DEFAULT_IF_NULLABLE = "/*shepherd:null-default-if-nullable*/";

    /**
     * Ends a MySQL-family replica's {@code DROP INDEX [IF EXISTS] [schema.]i} from a client whose DROP INDEX names no
     * table (Derby, HSQLDB, Db2, PostgreSQL: index names are unique in a schema there), where MySQL needs {@code ON t}:
     * the replica finds the table of index i in its own catalog before it runs it.
     */
    public static final String INDEX_TABLE = "/*shepherd:index-table*/";

    /**
     * Ends the {@code DROP INDEX [IF EXISTS] [schema.]i} of a replica of another family from a MySQL-family client, whose
     * DROP INDEX (and ALTER TABLE ... DROP INDEX) also drops a UNIQUE KEY, a UNIQUE constraint on the other engines: where
     * the replica's schema has a UNIQUE constraint named i, it drops that constraint instead.
     */
    public static final String UNIQUE_KEY = "/*shepherd:or-unique-key*/";

    /** A column's DEFAULT dropped: {@code ALTER TABLE t ALTER COLUMN c DROP DEFAULT}. */
    public String dropDefault(String alterTable, String column) {
        return alterTable + "ALTER COLUMN " + column + " DROP DEFAULT";
    }

    /**
     * A column made NOT NULL ({@code notNull}) or nullable: {@code ALTER TABLE t ALTER COLUMN c SET NOT NULL} or
     * {@code DROP NOT NULL}, which Derby, HSQLDB, PostgreSQL and Db2 take; null when this engine has no such change.
     */
    public String columnNullability(String alterTable, String column, boolean notNull) {
        return alterTable + "ALTER COLUMN " + column + (notNull ? " SET NOT NULL" : " DROP NOT NULL");
    }

    /**
     * A column's type changed to {@code type} (rendered for this engine; of kind {@code kind}): {@code ALTER TABLE t ALTER
     * COLUMN c SET DATA TYPE type}; null when this engine cannot change a column to that type in place.
     */
    public String columnType(String alterTable, String column, String type, TypeKind kind) {
        return alterTable + "ALTER COLUMN " + column + " SET DATA TYPE " + type;
    }

    /**
     * Whether DDL commits the open transaction before it runs and commits itself (MySQL's, MariaDB's and HSQLDB's implicit
     * commit): a ROLLBACK after it undoes neither. Derby, PostgreSQL and Db2 run DDL inside the transaction.
     */
    public boolean ddlCommitsTransaction() {
        return false;
    }

    /** {@code CREATE INDEX IF NOT EXISTS}. */
    public boolean supportsCreateIndexIfNotExists() {
        return true;
    }

    /** {@code DROP INDEX IF EXISTS}. */
    public boolean supportsDropIndexIfExists() {
        return true;
    }

    /** {@code DROP INDEX name ON table} instead of {@code DROP INDEX name}. */
    public boolean dropIndexNamesTable() {
        return false;
    }

    /** An error this engine raises for CREATE of an object that already exists. */
    public boolean isAlreadyExistsError(SQLException e) {
        return false;
    }

    /** An error this engine raises for DROP of an object that does not exist. */
    public boolean isDoesNotExistError(SQLException e) {
        return false;
    }

    /** {@code a || b} concatenates (NULL if either is NULL); otherwise {@code CONCAT(a, b)} does. */
    public boolean concatOperator() {
        return true;
    }

    /** {@code 7 / 2} is 3 for integer operands (false: MySQL/MariaDB give 3.5000). */
    public boolean integerDivisionTruncates() {
        return true;
    }

    /** Integer division operator for integer operands when {@code /} does not truncate, else null. */
    public String integerDivisionOperator() {
        return null;
    }

    /** CAST of a number to an integer or to fewer decimal places rounds (MySQL, PostgreSQL) instead of truncating. */
    public boolean castRoundsNumbers() {
        return false;
    }

    /**
     * An equality of an INTEGER column and a BIGINT expression of another table's row finds no match (Derby 10.16: {@code
     * a.i = (CAST(-8 AS BIGINT) + b.id)} in a join); both sides are then compared as BIGINT.
     */
    public boolean mismatchesIntegerEqualityAcrossTypes() {
        return false;
    }

    /**
     * {@code x IN (a, col, ...)} with an item reading the row fails in an ORDER BY expression (HSQLDB 2.7.4: S1000
     * "General error"); such a list is written as the OR of its equalities everywhere on this engine.
     */
    public boolean failsOnValueListsReadingTheRow() {
        return false;
    }

    /**
     * NULLS FIRST (NULLS LAST after DESC) is ignored when the ORDER BY is served by the sort that removes duplicates: a
     * DISTINCT, a GROUP BY without aggregates, a UNION/INTERSECT/EXCEPT without ALL (Derby 10.16/10.17).
     */
    public boolean losesNullOrderingOfDeduplicatedRows() {
        return false;
    }

    /** What storing a number with more decimals than a DECIMAL column keeps does to the digits past its scale. */
    public enum DecimalStore {
        /** Drops them (Derby, Db2). */
        TRUNCATES,
        /** Rounds half away from zero (MySQL, MariaDB, PostgreSQL). */
        ROUNDS,
        /** Rounds half toward zero (HSQLDB 2.7: 1.005 is stored as 1.00, 1.006 as 1.01). */
        ROUNDS_HALF_DOWN
    }

    /** See {@link DecimalStore}: what an INSERT or UPDATE storing {@code 1.005} into a DECIMAL(9, 2) column stores. */
    public DecimalStore decimalStore() {
        return DecimalStore.ROUNDS;
    }

    /** Where a {@code ?} beside a DECIMAL operand may take that operand's type ({@link #cutsParameterBesideDecimal}). */
    public enum ParameterPosition {
        /** A comparison ({@code = <> < <= > >=}), BETWEEN, IN, NULLIF, {@code CASE x WHEN ?}. */
        COMPARISON,
        /** {@code +} and {@code -}. */
        ADDITIVE,
        /** {@code *} and {@code /}. */
        MULTIPLICATIVE,
        /** A CASE's THEN or ELSE beside another one. */
        CASE_RESULT,
        /** An argument of COALESCE (IFNULL, NVL) beside another one. */
        COALESCE
    }

    /**
     * A {@code ?} at {@code position} beside a DECIMAL(p, s) operand takes that type, and what was bound loses its
     * decimals past s as it is bound, where MySQL, MariaDB and PostgreSQL keep them. HSQLDB 2.7 does it everywhere
     * ({@code d = ?} bound to 1.505 matches 1.50, {@code d * ?} is {@code d * 1.50}); Derby 10.16 beside {@code +},
     * {@code -} and in COALESCE ({@code d + ?} is computed in d's scale, truncating: 1.00 + -0.505 is 0.49) and cuts the
     * product of {@code d * ?} to twice d's scale (99.99 * -1.221 is -122.0877), not in a comparison or a CASE's result.
     * Db2 is assumed to do as Derby (not verified here). Where the client's engine types markers by value (the
     * translator's Bound), a {@code ?} bound to a number is given the number's type on such an engine anyway; this is
     * for the other clients.
     */
    public boolean cutsParameterBesideDecimal(ParameterPosition position) {
        return false;
    }

    /**
     * A {@code ?} stored into a column takes the column's type, a {@code ?} operand of {@code +}, {@code -} or {@code *} an
     * integer other operand's (Derby, HSQLDB, Db2: a value bound with more decimals loses them as it is bound), rather
     * than the bound value's (MySQL, MariaDB, PostgreSQL).
     */
    public boolean parameterTakesOperandType() {
        return false;
    }

    /** {@code SUBSTR(s, p, n)} fails (22011) when p or p + n reaches past the end of s, instead of returning what is there. */
    public boolean substrFailsPastEnd() {
        return false;
    }

    /** A {@code ROUND(x[, n])} function exists. */
    public boolean supportsRound() {
        return true;
    }

    /** {@code EXTRACT(field FROM x)} exists (else only YEAR, MONTH, DAY, HOUR and MINUTE functions). */
    public boolean supportsExtract() {
        return true;
    }

    /** {@code ||} / CONCAT take a number operand and turn it into text (Derby refuses it: 42846). */
    public boolean concatAcceptsNumbers() {
        return true;
    }

    /** CONCAT of a computed number (CAST, COUNT, arithmetic) answers a binary string unless the number is cast to text. */
    public boolean concatTypesComputedNumbersAsBinary() {
        return false;
    }

    /** {@code x = NULL} / {@code x <> NULL} compile (to UNKNOWN); Derby refuses them. */
    public boolean acceptsComparisonWithNullLiteral() {
        return true;
    }

    /**
     * The words this engine does not take as an unquoted name (a column, table or alias), upper case; checked against the
     * engine by {@code ReservedWordsTest}. The translator quotes a name the client wrote unquoted that is one of them
     * here (and not one of the client's own), in this engine's case: the same name, as this engine would fold it.
     */
    public Set<String> reservedWords() {
        return Set.of();
    }

    /** Whether {@code word} (any case) is one of {@link #reservedWords()}. */
    public final boolean reservesWord(String word) {
        return reservedWords().contains(word.toUpperCase(Locale.ROOT));
    }

    /**
     * A NULL written out is a syntax error (42X01) except in INSERT ... VALUES, UPDATE ... SET and a CASE result: in a
     * select list, a UNION branch, an INSERT ... SELECT, COALESCE or an IN list it needs a type (Derby).
     */
    public boolean refusesUntypedNull() {
        return false;
    }

    /**
     * A comparison with a constant string first is answered PAD SPACE although the session compares NO PAD (HSQLDB 2.7.4:
     * {@code 'a' <> s}, and under NOT also {@code 'a' = s} and {@code 'a' < s}, are true or false for {@code s = 'a '}
     * as if the blank were not there).
     */
    public boolean stringLiteralFirstIgnoresNoPad() {
        return false;
    }

    /**
     * {@code x NOT IN (a, i, b)} with three or more values, one of them a column, is evaluated wrongly when that column
     * is NULL outside a WHERE clause (Derby 10.16/10.17: true inside a CASE instead of unknown).
     */
    public boolean misreadsNullInValueLists() {
        return false;
    }

    /** {@code GROUP BY 'a'} (a string constant) is accepted; PostgreSQL refuses it (42601). */
    public boolean groupsByStringConstants() {
        return true;
    }

    /** {@code NULL LIKE '%'} is false instead of unknown, so that {@code s NOT LIKE '%'} finds NULLs (HSQLDB 2.7.4). */
    public boolean likeOfOnlyPercentIsFalseForNull() {
        return false;
    }

    /** {@code CAST(x AS CHAR)} without a length means text of any length (MySQL) rather than CHAR(1). */
    public boolean castToCharWithoutLengthIsUnbounded() {
        return false;
    }


    /**
     * Whether the engine rounds a time value's fractional seconds to a column's precision (MySQL, PostgreSQL) rather
     * than truncating them (MariaDB, HSQLDB; Derby, which keeps nanoseconds, and Db2 are cut like MariaDB): the rule a
     * shepherd applies, as this client's engine would, before it binds such a value on every replica.
     */
    public boolean roundsFractionalSeconds() {
        return false;
    }

    /** {@code LOCALTIME} is a timestamp (MySQL's synonym of NOW()) rather than a time of day. */
    public boolean localtimeIsTimestamp() {
        return false;
    }

    /**
     * A column DEFAULT reading the clock of type {@code kind} (TIMESTAMP, DATE or TIME), for a column of that type and,
     * for TIMESTAMP, fractional-second {@code precision}.
     */
    public String clockDefault(TypeKind kind, int precision) {
        switch (kind) {
            case DATE: return "CURRENT_DATE";
            case TIME: return "CURRENT_TIME";
            default: return "CURRENT_TIMESTAMP";
        }
    }

    /** {@code FOR UPDATE} is allowed only on an updatable cursor (one table, no ORDER BY, GROUP BY, DISTINCT, functions). */
    public boolean forUpdateNeedsUpdatableCursor() {
        return false;
    }

    /** {@code SELECT ... FOR SHARE}. */
    public boolean supportsForShare() {
        return false;
    }

    /** {@code FOR NO KEY UPDATE} and {@code FOR KEY SHARE} (PostgreSQL). */
    public boolean supportsKeyLockModes() {
        return false;
    }

    /** An OFFSET needs a LIMIT before it ({@code LIMIT <huge> OFFSET m}). */
    public boolean offsetNeedsLimit() {
        return false;
    }

    /** A {@code VALUES (...)} statement (MySQL wants {@code VALUES ROW(...)}). */
    public boolean supportsValuesStatement() {
        return true;
    }

    /** {@code MERGE INTO}. */
    public boolean supportsMerge() {
        return true;
    }

    /** A {@code START TRANSACTION} statement (else transactions start with Connection.setAutoCommit(false)). */
    public boolean supportsBeginStatement() {
        return true;
    }

    /** {@code COMMIT} / {@code ROLLBACK} statements over JDBC (else Connection.commit()/rollback()). */
    public boolean supportsCommitStatement() {
        return true;
    }

    /**
     * Whether a transaction may hold several SQL savepoints at once. Derby allows one: a second {@code SAVEPOINT}
     * before the first is released fails with 3B002 (DERBY-3687; its network client has no other way).
     */
    public boolean nestsSavepoints() {
        return true;
    }

    /**
     * Whether the JDBC driver reports a generated key for every row of a multi-row INSERT. Derby's reports one per
     * statement (null for several rows), MariaDB's the first row's, so such a primary runs the INSERT row by row to learn
     * each key.
     */
    public boolean reportsGeneratedKeysOfEveryRow() {
        return true;
    }

    /**
     * Whether {@code DEFAULT} in an INSERT's identity column makes the engine generate a key. MySQL and MariaDB do not
     * under the replicas' {@code NO_AUTO_VALUE_ON_ZERO} (DEFAULT is the column's default, 0, kept as given): there the
     * primary is sent NULL instead, which generates a key in every mode.
     */
    public boolean defaultGeneratesKey() {
        return true;
    }

    /**
     * Whether NULL in an INSERT's identity column makes the engine generate a key: MySQL, MariaDB and HSQLDB do; Derby,
     * PostgreSQL and Db2 refuse the NULL (a MySQL or HSQLDB client's {@code VALUES (NULL, ...)} once such a replica is the
     * primary), so the primary is sent DEFAULT there instead.
     */
    public boolean nullGeneratesKey() {
        return false;
    }

    /**
     * Whether {@code SAVEPOINT x} keeps an older savepoint named x (reachable again once the newer one is released),
     * where the SQL standard, and every other engine, replaces it. PostgreSQL keeps it.
     */
    public boolean keepsReplacedSavepoints() {
        return false;
    }

    /** What follows {@code SAVEPOINT name} (Derby and Db2 require {@code ON ROLLBACK RETAIN CURSORS}). */
    public String savepointClause() {
        return "";
    }

    /** An identity's START WITH is the table option {@code AUTO_INCREMENT = n} rather than part of the column. */
    public boolean identityStartIsTableOption() {
        return false;
    }

    /** What follows {@code TRUNCATE TABLE t} (Db2 requires {@code IMMEDIATE}). */
    public String truncateTableClause() {
        return "";
    }

    /** As a client dialect: quoted identifiers are case-insensitive like unquoted ones (MySQL). */
    public boolean quotedIdentifiersIgnoreCase() {
        return false;
    }

    /** As a client dialect: a bare {@code REAL} is double precision (MySQL). */
    public boolean realIsDouble() {
        return false;
    }

    /** As a client dialect: a bare {@code FLOAT} is single precision (MySQL); else double precision. */
    public boolean floatWithoutPrecisionIsSingle() {
        return false;
    }

    /** As a client dialect: the precision of a bare {@code DECIMAL} (scale 0), or -1 when the engine has no fixed one. */
    public int defaultDecimalPrecision() {
        return -1;
    }

    /** SUM of SMALLINT/INTEGER values has the argument's type (overflowing at 2^31) rather than BIGINT or DECIMAL. */
    public boolean sumKeepsIntegerType() {
        return false;
    }

    /** SUM of BIGINT values is an arbitrary-precision NUMERIC (PostgreSQL), so dividing it does not truncate. */
    public boolean sumOfBigintIsNumeric() {
        return false;
    }

    /** How +, - and * of integer operands are computed. */
    public IntegerArithmetic integerArithmetic() {
        return IntegerArithmetic.OPERAND_TYPE;
    }

    /**
     * Strings are compared PAD SPACE whatever the session asks ({@code 'a' = 'a '} is true, also in DISTINCT, GROUP BY
     * and IN); the replica setup makes every other engine compare NO PAD.
     */
    public boolean comparesStringsPadSpace() {
        return false;
    }

    /**
     * A string literal is CHAR(n), so that a COALESCE or CASE choosing between literals of different lengths pads the
     * shorter with blanks ({@code COALESCE('a', 'abc')} is {@code 'a  '}); elsewhere it is a VARCHAR-like type.
     */
    public boolean stringLiteralsAreFixedLength() {
        return false;
    }

    /** Backslash is an escape character inside string literals (MySQL/MariaDB default sql_mode). */
    public boolean backslashEscapesInStrings() {
        return false;
    }

    /** {@code YEAR(d)}, {@code MONTH(d)}, ... exist; otherwise EXTRACT is used. */
    public boolean supportsDatePartFunctions() {
        return true;
    }

    /** Name of the function that counts characters of a string. */
    public String charLengthFunction() {
        return "CHAR_LENGTH";
    }

    /** Name of the function truncating a number to n decimal places, or null (then a CAST truncates, as in Derby). */
    public String truncateFunction() {
        return "TRUNC";
    }

    /** How an identity column is declared after its type; every form accepts explicit values (BY DEFAULT). */
    public String identityClause(long startWith, long incrementBy) {
        if (startWith == 1 && incrementBy == 1) {
            return "GENERATED BY DEFAULT AS IDENTITY";
        }
        return "GENERATED BY DEFAULT AS IDENTITY (START WITH " + startWith + ", INCREMENT BY " + incrementBy + ")";
    }

    /** A column-level {@code NULL} (explicitly nullable) is accepted. */
    public boolean supportsNullColumnConstraint() {
        return true;
    }

    /**
     * The type as written in DDL.
     *
     * @param length length for CHAR/VARCHAR, precision for DECIMAL and TIMESTAMP, ignored otherwise
     * @param scale scale for DECIMAL, ignored otherwise
     */
    public String columnType(TypeKind kind, int length, int scale) {
        switch (kind) {
            case SMALLINT: return "SMALLINT";
            case INTEGER: return "INTEGER";
            case BIGINT: return "BIGINT";
            case DECIMAL: {
                int precision = Math.min(length, maxDecimalPrecision());
                return "DECIMAL(" + precision + ", " + scale + ")";
            }
            case REAL: return "REAL";
            case DOUBLE: return "DOUBLE PRECISION";
            case BOOLEAN: return "BOOLEAN";
            case CHAR: return "CHAR(" + length + ")";
            case VARCHAR: return "VARCHAR(" + length + ")";
            case TEXT: return "CLOB";
            case BLOB: return "BLOB";
            case DATE: return "DATE";
            case TIME: return "TIME";
            case TIMESTAMP: return "TIMESTAMP(" + length + ")";
            default: throw new IllegalArgumentException(kind.name());
        }
    }

    /**
     * The most digits a DECIMAL of this engine holds. A DECIMAL declared with more (Hibernate's default for a
     * {@code BigDecimal} is DECIMAL(38, 2)) is declared with this many here: a value that needs more digits fails on
     * this engine alone, and the vote reports it.
     */
    public int maxDecimalPrecision() {
        return 1000;
    }

    /** Longest VARCHAR of Derby and Db2, what a CAST to TEXT in an expression becomes there (and on HSQLDB). */
    public static final int TEXT_CAST_LENGTH = 32_672;

    /**
     * The type as written as the target of CAST(x AS type); differs from DDL in MySQL, and for TEXT: a CLOB in an
     * expression cannot be compared, ordered or grouped on Derby and fails in a COALESCE on HSQLDB, so {@code x::text}
     * is a long VARCHAR there.
     */
    public String castType(TypeKind kind, int length, int scale) {
        return kind == TypeKind.TEXT ? columnType(TypeKind.VARCHAR, TEXT_CAST_LENGTH, 0) : columnType(kind, length, scale);
    }

    protected static boolean stateIn(SQLException e, Set<String> states) {
        return e.getSQLState() != null && states.contains(e.getSQLState());
    }

    @Override
    public final boolean equals(Object o) {
        return o != null && o.getClass() == getClass();
    }

    @Override
    public final int hashCode() {
        return getClass().hashCode();
    }

    @Override
    public String toString() {
        return name();
    }
}
