package org.shepherd.translator;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SessionSettingTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE                        | 8",
        "set transaction isolation level read committed;                     | 2",
        "SET SESSION TRANSACTION ISOLATION LEVEL READ UNCOMMITTED            | 1",
        "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ | 4",
        "SET ISOLATION = RR                                                  | 8",
        "SET CURRENT ISOLATION RS                                            | 4",
        "SET ISOLATION CS                                                    | 2",
        "SET CURRENT ISOLATION = DIRTY READ                                  | 1",
        "SET ISOLATION RESET                                                 | -1",
        "SET transaction_isolation = 'READ-COMMITTED'                        | 2",
        "SET SESSION tx_isolation='SERIALIZABLE'                             | 8",
        "SET @@SESSION.transaction_isolation = 'REPEATABLE-READ'             | 4",
        "/* from a pool */ SET TRANSACTION ISOLATION LEVEL SERIALIZABLE      | 8",
    })
    void isolationInEveryDialectsSpelling(String sql, int level) {
        SessionSetting s = SessionSetting.of(sql);
        assertThat(s).isNotNull();
        assertThat(s.kind()).isEqualTo(SessionSetting.Kind.ISOLATION);
        assertThat(s.isolation()).isEqualTo(level);
        assertThat(s.upgradesIsolation()).isEqualTo(level != -1 && level != Connection.TRANSACTION_SERIALIZABLE);
    }

    @Test
    void aCommentLineBeforeTheStatementIsSkipped() {
        SessionSetting s = SessionSetting.of("-- pool init\n  SET TRANSACTION ISOLATION LEVEL READ COMMITTED ;");
        assertThat(s).isEqualTo(new SessionSetting(SessionSetting.Kind.ISOLATION, Connection.TRANSACTION_READ_COMMITTED));
    }

    @ParameterizedTest
    @ValueSource(strings = {"SET NAMES utf8mb4", "set names 'UTF8'", "SET CHARACTER SET utf8", "SET client_encoding TO 'UTF8'",
        "SET client_encoding = 'unicode'", "SET NAMES utf8mb3;"})
    void utf8IsWhatTheProtocolCarriesAlready(String sql) {
        assertThat(SessionSetting.of(sql)).isEqualTo(new SessionSetting(SessionSetting.Kind.CHARACTER_SET, -1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"set client_min_messages = WARNING", "SET SESSION client_min_messages TO 'notice'",
        "SET application_name = 'billing'", "set application_name to billing"})
    void whatOnlyTheDatabaseSessionWouldSeeHasNoEffect(String sql) {
        assertThat(SessionSetting.of(sql)).isEqualTo(new SessionSetting(SessionSetting.Kind.NO_EFFECT, -1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"SET application_name = 'a', 'b'",
        "SET NAMES utf8mb4 COLLATE utf8mb4_general_ci", "SET NAMES latin1", "SET client_encoding TO 'LATIN1'",
        "SET search_path TO app, public", "SET LOCAL TIME ZONE 'UTC'",
        "SET GLOBAL TRANSACTION ISOLATION LEVEL READ COMMITTED", "SET GLOBAL tx_isolation = 'READ-COMMITTED'",
        "SET TRANSACTION READ ONLY", "SET autocommit = 0", "SET sql_mode = ''", "RESET ALL",
        "SET TRANSACTION ISOLATION LEVEL SNAPSHOT", "set", "PREPARE s FROM 'SELECT 1'", "EXECUTE s USING @a", "DEALLOCATE PREPARE s",
        "PREPARE TRANSACTION 'tx1'", "LISTEN channel", "DISCARD ALL"})
    void everythingElseIsASessionStatementTheShepherdRefuses(String sql) {
        assertThat(SessionSetting.of(sql)).isEqualTo(new SessionSetting(SessionSetting.Kind.OTHER, -1));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"SET time_zone = '+00:00'|Z", "SET time_zone = 'SYSTEM'|",
        "set @@session.time_zone = \"Europe/Paris\"|Europe/Paris",
        "SET time_zone = '-5:30'|-05:30", "SET SESSION time_zone = 'UTC'|Z", "SET TIME ZONE 'UTC'|Z", "SET TIME ZONE LOCAL|",
        "SET TIME ZONE DEFAULT|", "SET timezone TO DEFAULT|", "SET TIME ZONE -7|-07:00", "SET TIME ZONE 5.5|+05:30",
        "SET TIME ZONE INTERVAL '+1:00' HOUR TO MINUTE|+01:00", "SET timezone = 'Europe/Berlin'|Europe/Berlin",
        "SET TIME ZONE 'Etc/GMT+2'|Etc/GMT+2"})
    void aTimeZoneIsReadAsTheEngineReadsIt(String sql, String zone) {
        assertThat(SessionSetting.of(sql)).isEqualTo(new SessionSetting(SessionSetting.Kind.TIME_ZONE, -1, null,
                zone == null ? null : java.time.ZoneId.of(zone)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"SET TIME ZONE '+02:00'", "SET TIME ZONE 'UTC+2'", "SET time_zone = 'Mars/Olympus'",
        "SET TIME ZONE '-7'", "SET time_zone = '+25:00'", "SET TIME ZONE 25", "SET timezone TO mars"})
    void aTimeZoneNotReadAsTheEngineWouldIsUnknown(String sql) {
        assertThat(SessionSetting.of(sql)).isEqualTo(new SessionSetting(SessionSetting.Kind.UNKNOWN_TIME_ZONE, -1));
    }

    @Test
    void aZoneIsTheShepherdsWhenItReadsTheClockTheSameWay() {
        java.time.ZoneId utc = java.time.ZoneId.of("Etc/UTC");
        assertThat(SessionSetting.sameZone(java.time.ZoneOffset.UTC, utc)).isTrue();
        assertThat(SessionSetting.sameZone(java.time.ZoneId.of("Europe/Paris"), utc)).isFalse();
        assertThat(SessionSetting.sameZone(java.time.ZoneId.of("Europe/Paris"), java.time.ZoneOffset.ofHours(1)))
                .as("Paris is +01:00 only in winter").isFalse();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"SET SCHEMA app|app", "set current schema = APP|APP", "SET SCHEMA \"My Schema\"|\"My Schema\"",
        "SET SCHEMA 'sales'|\"sales\"", "USE otherdb;|otherdb", "USE `odd``name`|\"odd`name\"", "SET search_path TO app|app",
        "SET search_path = 'app'|\"app\"", "SET SCHEMA DEFAULT|", "set current schema default|"})
    void theSessionsSchemaIsKeptAsAnIdentifier(String sql, String schema) {
        assertThat(SessionSetting.of(sql)).isEqualTo(new SessionSetting(SessionSetting.Kind.SCHEMA, -1, schema));
    }

    @ParameterizedTest
    @ValueSource(strings = {"DECLARE GLOBAL TEMPORARY TABLE SESSION.t (a INT) NOT LOGGED", "CREATE TEMPORARY TABLE t (a INT)",
        "create temp table t as select 1", "CREATE GLOBAL TEMPORARY TABLE t (a INT)", "DECLARE LOCAL TEMPORARY TABLE t (a INT)",
        "CREATE OR REPLACE TEMP VIEW v AS SELECT 1", "CREATE LOCAL TEMPORARY TABLE t (a INT)", "/* x */ CREATE TEMPORARY SEQUENCE s"})
    void temporaryObjectsWouldLiveOnOnePooledConnection(String sql) {
        assertThat(SessionSetting.of(sql)).isEqualTo(new SessionSetting(SessionSetting.Kind.TEMPORARY_OBJECT, -1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"LOCK TABLES t WRITE", "lock tables t1 read, t2 low_priority write", "LOCK TABLE t READ LOCAL",
        "UNLOCK TABLES", "unlock tables;"})
    void mysqlTableLocksBelongToTheConnection(String sql) {
        assertThat(SessionSetting.of(sql)).isEqualTo(new SessionSetting(SessionSetting.Kind.CONNECTION_LOCK, -1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"LOCK TABLE t IN EXCLUSIVE MODE", "LOCK TABLE accounts IN SHARE ROW EXCLUSIVE MODE", "LOCK TABLE t",
        "LOCK t IN ACCESS EXCLUSIVE MODE NOWAIT", "LOCKED"})
    void transactionScopedTableLocksAreNoSessionStatements(String sql) {
        assertThat(SessionSetting.of(sql)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"CREATE TABLE temporary_data (a INT)", "CREATE TABLE temp (a INT)", "CREATE VIEW temp_v AS SELECT 1",
        "DELETE FROM temp", "DECLARE x INT", "CREATE TEMPORARYX TABLE t (a INT)"})
    void ordinaryTablesNamedTemporaryAreNoTemporaryObjects(String sql) {
        assertThat(SessionSetting.of(sql)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELECT 1", "UPDATE t SET a = 1", "INSERT INTO settings VALUES (1)", "SETTINGS", "USER_TABLE",
        "/* SET NAMES latin1 */ SELECT 1", "-- SET x\nDELETE FROM t", "EXPLAIN SELECT 1", "PREPARED", "EXECUTED",
        "COMMIT", "SAVEPOINT s", "RESETS", ""})
    void otherStatementsAreNoSessionStatements(String sql) {
        assertThat(SessionSetting.of(sql)).isNull();
    }
}
