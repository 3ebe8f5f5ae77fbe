package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReservedTablesTest {

    @ParameterizedTest
    @ValueSource(strings = {"SELECT * FROM shepherd_txlog", "delete from SHEPHERD_TXLOG_BASE", "DROP TABLE \"shepherd_txlog\"",
        "select count(*) from app.shepherd_txlog where barrier > 3", "UPDATE `shepherd_txlog` SET barrier = 0",
        "INSERT INTO t SELECT txid FROM Shepherd_TxLog", "SELECT 'a' FROM t JOIN shepherd_txlog ON 1 = 1 -- 'unclosed",
        "SELECT 'it''s' || x FROM shepherd_txlog_base"})
    void statementsNamingTheShepherdsTablesAreRefused(String sql) {
        assertThatThrownBy(() -> ReservedTables.refuseIfNamed(sql, false)).isInstanceOf(SQLException.class)
                .hasFieldOrPropertyWithValue("SQLState", "42501").hasMessageContaining("the shepherd's own table");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELECT 'shepherd_txlog' FROM t", "SELECT x FROM t -- shepherd_txlog\n", "SELECT /* shepherd_txlog */ 1",
        "CREATE TABLE shepherd_notes (a INT)", "SELECT * FROM shepherd_txlogs", "SELECT * FROM my_shepherd_txlog",
        "SELECT 'a''shepherd_txlog' FROM t"})
    void otherNamesAndMentionsInLiteralsOrCommentsPass(String sql) {
        assertThatCode(() -> ReservedTables.refuseIfNamed(sql, false)).doesNotThrowAnyException();
    }

    @Test
    void mysqlBackslashEscapesAreHonoured() {
        assertThatCode(() -> ReservedTables.refuseIfNamed("SELECT 'a\\' shepherd_txlog' FROM t", true)).doesNotThrowAnyException();
        assertThatThrownBy(() -> ReservedTables.refuseIfNamed("SELECT 'a\\\\' FROM shepherd_txlog", true))
                .isInstanceOf(SQLException.class);
        assertThatCode(() -> ReservedTables.refuseIfNamed("SELECT 1 # shepherd_txlog", true)).doesNotThrowAnyException();
    }
}
