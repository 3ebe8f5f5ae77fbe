package org.shepherd.translator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.shepherd.translator.dialect.Dialect;

class SequenceStatementTest {

    @Test
    void readsCreateAndDropAsEachDialectStoresTheName() throws SQLException {
        assertThat(SequenceStatement.of("create sequence Tag_SEQ start with 1 increment by 50", Dialect.DERBY))
                .isEqualTo(new SequenceStatement(true, "TAG_SEQ", 1, 50, false));
        assertThat(SequenceStatement.of("CREATE SEQUENCE app.s", Dialect.POSTGRESQL))
                .isEqualTo(new SequenceStatement(true, "s", 1, 1, false));
        assertThat(SequenceStatement.of("create sequence `Tag_SEQ` start with 5 increment by -2 nocache", Dialect.MARIADB))
                .isEqualTo(new SequenceStatement(true, "Tag_SEQ", 5, -2, false));
        assertThat(SequenceStatement.of("drop sequence if exists Tag_SEQ", Dialect.HSQLDB))
                .isEqualTo(new SequenceStatement(false, "TAG_SEQ", 0, 0, true));
        assertThat(SequenceStatement.of("DROP SEQUENCE \"Mixed\" RESTRICT", Dialect.DERBY))
                .isEqualTo(new SequenceStatement(false, "Mixed", 0, 0, false));
        assertThat(SequenceStatement.of("SELECT 1", Dialect.DERBY)).isNull();
        assertThat(SequenceStatement.of("CREATE TABLE sequence (a INT)", Dialect.DERBY)).isNull();
    }

    @Test
    void refusesWhatItDoesNotKeep() {
        assertThatThrownBy(() -> SequenceStatement.of("CREATE SEQUENCE s MAXVALUE 10 CYCLE", Dialect.DERBY))
                .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "0A000");
        assertThatThrownBy(() -> SequenceStatement.of("ALTER SEQUENCE s RESTART WITH 5", Dialect.DERBY))
                .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "0A000");
        assertThatThrownBy(() -> SequenceStatement.of("CREATE SEQUENCE s INCREMENT BY 0", Dialect.DERBY))
                .isInstanceOf(SQLException.class);
    }

    @Test
    void hsqldbsCallOfNextValueIsAValuesStatement() {
        assertThat(SequenceStatement.callAsValues("call next value for s")).isEqualTo("VALUES next value for s");
        assertThat(SequenceStatement.callAsValues("CALL proc(1)")).isEqualTo("CALL proc(1)");
    }
}
