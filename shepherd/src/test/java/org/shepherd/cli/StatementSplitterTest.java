package org.shepherd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatementSplitterTest {

    @Test
    void splitsAtSemicolonsAndDropsEmptyStatements() {
        assertThat(StatementSplitter.splitAll("create table t(a int); insert into t values (1);;\n select * from t"))
                .containsExactly("create table t(a int)", "insert into t values (1)", "select * from t");
    }

    @Test
    void semicolonsInsideQuotesAndCommentsDoNotSplit() {
        String sql = "insert into t values ('a;b', 'it''s;') ; select \"x;y\", `z;` from t -- c;omment\n;"
                + " /* block; */ select 1;";
        assertThat(StatementSplitter.splitAll(sql)).containsExactly(
                "insert into t values ('a;b', 'it''s;')",
                "select \"x;y\", `z;` from t -- c;omment",
                "/* block; */ select 1");
    }

    @Test
    void statementWithoutTerminatorIsIncomplete() {
        assertThat(StatementSplitter.split("select 1").complete()).isFalse();
        assertThat(StatementSplitter.split("select 'a;").complete()).isFalse();
        assertThat(StatementSplitter.split("select 1;").complete()).isTrue();
        assertThat(StatementSplitter.split("select 1; -- trailing comment").complete()).isTrue();
        assertThat(StatementSplitter.split("   ").complete()).isTrue();
    }

    @Test
    void commentOnlyTextHoldsNoStatement() {
        assertThat(StatementSplitter.splitAll("-- nothing here\n/* nor here */")).isEmpty();
    }
}
