package org.shepherd.translator.dialect;

import java.util.Set;

/** MariaDB 10.6+/11: MySQL's grammar plus CREATE INDEX IF NOT EXISTS and DROP INDEX IF EXISTS. */
public class MariaDbDialect extends MySqlDialect {

    /** MariaDB 10.11's and 11.4's words they do not take as unquoted names (probed: {@code ReservedWordsTest}). */
    static final Set<String> RESERVED_WORDS = Set.of((
            "ACCESSIBLE ADD ALL ALTER ANALYZE AND AS ASC ASENSITIVE BEFORE BETWEEN BIGINT BINARY BLOB BOTH BY "
            + "CALL CASCADE CASE CHANGE CHAR CHARACTER CHECK COLLATE COLUMN CONDITION CONSTRAINT CONTINUE CONVERT "
            + "CREATE CROSS CURRENT_DATE CURRENT_ROLE CURRENT_TIME CURRENT_TIMESTAMP CURRENT_USER CURSOR "
            + "DATABASES DAY_HOUR DAY_MICROSECOND DAY_MINUTE DAY_SECOND DEC DECIMAL DECLARE DEFAULT DELAYED "
            + "DELETE DELETE_DOMAIN_ID DESC DESCRIBE DETERMINISTIC DISTINCT DISTINCTROW DIV DOUBLE DO_DOMAIN_IDS "
            + "DROP DUAL EACH ELSE ELSEIF ENCLOSED ESCAPED EXCEPT EXISTS EXIT EXPLAIN FALSE FETCH FLOAT FLOAT4 "
            + "FLOAT8 FOR FORCE FOREIGN FROM FULLTEXT GRANT GROUP HAVING HIGH_PRIORITY HOUR_MICROSECOND "
            + "HOUR_MINUTE HOUR_SECOND IF IGNORE IGNORE_DOMAIN_IDS IN INDEX INFILE INNER INOUT INSENSITIVE INSERT "
            + "INT INT1 INT2 INT3 INT4 INT8 INTEGER INTERSECT INTERVAL INTO IS ITERATE JOIN KEY KEYS KILL LEADING "
            + "LEAVE LEFT LIKE LIMIT LINEAR LINES LOAD LOCALTIME LOCALTIMESTAMP LOCK LONG LONGBLOB LONGTEXT LOOP "
            + "LOW_PRIORITY MASTER_DEMOTE_TO_REPLICA MASTER_DEMOTE_TO_SLAVE MASTER_SSL_VERIFY_SERVER_CERT MATCH "
            + "MAXVALUE MEDIUMBLOB MEDIUMINT MEDIUMTEXT MIDDLEINT MINUTE_MICROSECOND MINUTE_SECOND MOD MODIFIES "
            + "NATURAL NOT NO_WRITE_TO_BINLOG NULL NUMERIC OFFSET ON OPTIMIZE OPTIONALLY OR ORDER OUT OUTER "
            + "OUTFILE OVER PAGE_CHECKSUM PARSE_VCOL_EXPR PARTITION PORTION PRECISION PRIMARY PROCEDURE PURGE "
            + "RANGE READ READS READ_WRITE REAL RECURSIVE REFERENCES REF_SYSTEM_ID REGEXP RELEASE RENAME REPEAT "
            + "REPLACE REQUIRE RESIGNAL RESTRICT RETURN RETURNING REVOKE RIGHT RLIKE ROWS ROW_NUMBER SCHEMAS "
            + "SECOND_MICROSECOND SELECT SENSITIVE SEPARATOR SET SHOW SIGNAL SMALLINT SPATIAL SPECIFIC SQL "
            + "SQLEXCEPTION SQLSTATE SQLWARNING SQL_AFTER_GTIDS SQL_BEFORE_GTIDS SQL_BIG_RESULT SQL_BUFFER_RESULT "
            + "SQL_CACHE SQL_CALC_FOUND_ROWS SQL_NO_CACHE SQL_SMALL_RESULT SSL STARTING STATS_AUTO_RECALC "
            + "STATS_PERSISTENT STATS_SAMPLE_PAGES STRAIGHT_JOIN TABLE TERMINATED THEN TINYBLOB TINYINT TINYTEXT "
            + "TO TRAILING TRIGGER TRUE UNDO UNION UNIQUE UNLOCK UNSIGNED UPDATE USAGE USE USING UTC_DATE "
            + "UTC_TIME UTC_TIMESTAMP VALUES VARBINARY VARCHAR VARCHARACTER VARYING WHEN WHERE WHILE WITH WRITE "
            + "XOR YEAR_MONTH ZEROFILL").split(" "));

    @Override
    public Set<String> reservedWords() {
        return RESERVED_WORDS;
    }


    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    public boolean supportsCreateIndexIfNotExists() {
        return true;
    }

    @Override
    public boolean supportsDropIndexIfExists() {
        return true;
    }

    /** FOR SHARE is not sent to MariaDB: its plain reads take shared locks under SERIALIZABLE. */
    @Override
    public boolean supportsForShare() {
        return false;
    }

    @Override
    public boolean supportsValuesStatement() {
        return true;
    }

    @Override
    public boolean supportsAlterIfExists() {
        return true;
    }

    /** {@code MODIFY c <the rest as the replica has it> [NOT] NULL} ({@link #RESTATED_COLUMN}). */
    @Override
    public String columnNullability(String alterTable, String column, boolean notNull) {
        return alterTable + "MODIFY " + column + " " + RESTATED_COLUMN + (notNull ? " NOT NULL" : " NULL");
    }

    /** {@code MODIFY c type <the rest as the replica has it>} ({@link #RESTATED_COLUMN}). */
    @Override
    public String columnType(String alterTable, String column, String type, TypeKind kind) {
        return alterTable + "MODIFY " + column + " " + type + " " + RESTATED_COLUMN;
    }

    @Override
    public Set<String> missingFunctions() {
        return MARIADB_MISSING_FUNCTIONS;
    }

    @Override
    public boolean roundsFractionalSeconds() {
        return false;
    }
}
