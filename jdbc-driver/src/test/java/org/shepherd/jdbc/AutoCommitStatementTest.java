package org.shepherd.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AutoCommitStatementTest {

    @Test
    void theSpellingsOfEachDialectAreRecognized() {
        assertThat(AutoCommitStatement.parse("SET autocommit=0")).isFalse();
        assertThat(AutoCommitStatement.parse("set AUTOCOMMIT = 1;")).isTrue();
        assertThat(AutoCommitStatement.parse("  SET @@autocommit = OFF ")).isFalse();
        assertThat(AutoCommitStatement.parse("SET @@session.autocommit=ON")).isTrue();
        assertThat(AutoCommitStatement.parse("SET SESSION autocommit = 0")).isFalse();
        assertThat(AutoCommitStatement.parse("SET AUTOCOMMIT FALSE")).isFalse();
        assertThat(AutoCommitStatement.parse("SET AUTOCOMMIT TRUE")).isTrue();
        assertThat(AutoCommitStatement.parse("SET autocommit TO 0")).isFalse();
    }

    @Test
    void anythingElseIsLeftToTheShepherd() {
        assertThat(AutoCommitStatement.parse("SET autocommit = 2")).isNull();
        assertThat(AutoCommitStatement.parse("SET autocommit_x = 0")).isNull();
        assertThat(AutoCommitStatement.parse("SET GLOBAL autocommit = 0")).isNull();
        assertThat(AutoCommitStatement.parse("SET autocommit = 0; DELETE FROM t")).isNull();
        assertThat(AutoCommitStatement.parse("SELECT 'SET autocommit = 0' FROM t")).isNull();
        assertThat(AutoCommitStatement.parse("SET NAMES utf8mb4")).isNull();
    }
}
