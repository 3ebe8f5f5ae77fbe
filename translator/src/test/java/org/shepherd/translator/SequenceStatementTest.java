package org.shepherd.translator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.shepherd.translator.SequenceStatement.Kind;
import org.shepherd.translator.dialect.Dialect;

class SequenceStatementTest {

    private static SequenceDefinition created(String sql, Dialect client) throws SQLException {
        return SequenceStatement.of(sql, client).definition();
    }

    @Test
    void readsCreateAlterAndDropAsEachDialectStoresTheName() throws SQLException {
        SequenceStatement st = SequenceStatement.of("create sequence Tag_SEQ start with 1 increment by 50", Dialect.DERBY);
        assertThat(st.kind()).isEqualTo(Kind.CREATE);
        assertThat(st.name()).isEqualTo("TAG_SEQ");
        assertThat(st.definition()).isEqualTo(new SequenceDefinition("INTEGER", 1, 50, Integer.MIN_VALUE, Integer.MAX_VALUE, false));
        assertThat(SequenceStatement.of("CREATE SEQUENCE app.s", Dialect.POSTGRESQL).name()).isEqualTo("s");
        assertThat(created("create sequence `Tag_SEQ` start with -5 increment by -2 nocache", Dialect.MARIADB))
                .isEqualTo(new SequenceDefinition("BIGINT", -5, -2, Long.MIN_VALUE, -1, false));
        SequenceStatement drop = SequenceStatement.of("drop sequence if exists Tag_SEQ", Dialect.HSQLDB);
        assertThat(drop.kind()).isEqualTo(Kind.DROP);
        assertThat(drop.name()).isEqualTo("TAG_SEQ");
        assertThat(drop.ifExists()).isTrue();
        assertThat(SequenceStatement.of("DROP SEQUENCE \"Mixed\" RESTRICT", Dialect.DERBY).name()).isEqualTo("Mixed");
        assertThat(SequenceStatement.of("create sequence if not exists s", Dialect.MARIADB).ifExists()).isTrue();
        SequenceStatement alter = SequenceStatement.of("ALTER SEQUENCE IF EXISTS s RESTART WITH 5", Dialect.POSTGRESQL);
        assertThat(alter.kind()).isEqualTo(Kind.ALTER);
        assertThat(alter.ifExists()).isTrue();
        assertThat(SequenceStatement.of("SELECT 1", Dialect.DERBY)).isNull();
        assertThat(SequenceStatement.of("CREATE TABLE sequence (a INT)", Dialect.DERBY)).isNull();
    }

    /** What each engine's CREATE SEQUENCE assumes, as checked on Derby 10.16 and HSQLDB 2.7 (and documented for the others). */
    @Test
    void fillsInWhatTheClientEngineWould() throws SQLException {
        assertThat(created("CREATE SEQUENCE s", Dialect.DERBY))
                .isEqualTo(new SequenceDefinition("INTEGER", Integer.MIN_VALUE, 1, Integer.MIN_VALUE, Integer.MAX_VALUE, false));
        assertThat(created("CREATE SEQUENCE s INCREMENT BY -1", Dialect.DERBY).start()).isEqualTo(Integer.MAX_VALUE);
        assertThat(created("CREATE SEQUENCE s AS SMALLINT", Dialect.DERBY).start()).isEqualTo(Short.MIN_VALUE);
        assertThat(created("CREATE SEQUENCE s MINVALUE 5", Dialect.DERBY).start()).isEqualTo(5);
        assertThat(created("CREATE SEQUENCE s", Dialect.HSQLDB))
                .isEqualTo(new SequenceDefinition("INTEGER", 0, 1, Integer.MIN_VALUE, Integer.MAX_VALUE, false));
        assertThat(created("CREATE SEQUENCE s INCREMENT BY -1", Dialect.HSQLDB).start()).isZero();
        assertThat(created("CREATE SEQUENCE s", Dialect.POSTGRESQL))
                .isEqualTo(new SequenceDefinition("BIGINT", 1, 1, 1, Long.MAX_VALUE, false));
        assertThat(created("CREATE SEQUENCE s INCREMENT -1", Dialect.POSTGRESQL))
                .isEqualTo(new SequenceDefinition("BIGINT", -1, -1, Long.MIN_VALUE, -1, false));
        assertThat(created("CREATE SEQUENCE s START WITH 1 INCREMENT BY 1 NO MINVALUE NO MAXVALUE CACHE 1", Dialect.POSTGRESQL))
                .as("what pg_dump writes").isEqualTo(new SequenceDefinition("BIGINT", 1, 1, 1, Long.MAX_VALUE, false));
        assertThat(created("CREATE SEQUENCE s START = 3 MINVALUE = 2 MAXVALUE = 4 INCREMENT = 1 CYCLE", Dialect.MARIADB))
                .isEqualTo(new SequenceDefinition("BIGINT", 3, 1, 2, 4, true));
    }

    @Test
    void altersFromTheCurrentDefinition() throws SQLException {
        SequenceDefinition current = new SequenceDefinition("INTEGER", 1, 1, 1, 100, false);
        SequenceStatement.Alteration a = SequenceStatement.of("ALTER SEQUENCE s RESTART", Dialect.DERBY).alter(current);
        assertThat(a.definition()).isEqualTo(current);
        assertThat(a.restartAt()).isEqualTo(1L);
        assertThat(SequenceStatement.of("ALTER SEQUENCE s RESTART 7", Dialect.POSTGRESQL).alter(current).restartAt()).isEqualTo(7L);
        a = SequenceStatement.of("ALTER SEQUENCE s INCREMENT BY 10 NO MAXVALUE CYCLE", Dialect.DERBY).alter(current);
        assertThat(a.definition()).isEqualTo(new SequenceDefinition("INTEGER", 1, 10, 1, Integer.MAX_VALUE, true));
        assertThat(a.restartAt()).as("no RESTART: the sequence goes on where it is").isNull();
        assertThatThrownBy(() -> SequenceStatement.of("ALTER SEQUENCE s RESTART WITH 500", Dialect.DERBY).alter(current))
                .isInstanceOf(SQLException.class).hasMessageContaining("RESTART WITH 500");
        assertThatThrownBy(() -> SequenceStatement.of("ALTER SEQUENCE s MAXVALUE 0", Dialect.DERBY).alter(current))
                .isInstanceOf(SQLException.class).hasMessageContaining("below MAXVALUE");
    }

    @Test
    void refusesWhatItDoesNotKeepAndWhatDoesNotFit() {
        assertThatThrownBy(() -> SequenceStatement.of("CREATE SEQUENCE s OWNED BY t.id", Dialect.POSTGRESQL))
                .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "0A000").hasMessageContaining("OWNED");
        assertThatThrownBy(() -> SequenceStatement.of("CREATE SEQUENCE s AS DECIMAL", Dialect.DERBY))
                .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "0A000");
        assertThatThrownBy(() -> SequenceStatement.of("CREATE SEQUENCE s RESTART WITH 1", Dialect.DERBY))
                .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "0A000");
        assertThatThrownBy(() -> SequenceStatement.of("CREATE SEQUENCE s INCREMENT BY 0", Dialect.DERBY))
                .isInstanceOf(SQLException.class).hasMessageContaining("must not be 0");
        assertThatThrownBy(() -> SequenceStatement.of("CREATE SEQUENCE s MINVALUE 5", Dialect.HSQLDB))
                .as("HSQLDB starts at 0, below this MINVALUE").isInstanceOf(SQLException.class).hasMessageContaining("START WITH 0");
        assertThatThrownBy(() -> SequenceStatement.of("CREATE SEQUENCE s AS SMALLINT MAXVALUE 40000", Dialect.DERBY))
                .isInstanceOf(SQLException.class).hasMessageContaining("SMALLINT");
        assertThatThrownBy(() -> SequenceStatement.of("CREATE SEQUENCE s START WITH", Dialect.DERBY))
                .isInstanceOf(SQLException.class).hasFieldOrPropertyWithValue("SQLState", "42000");
    }

    @Test
    void stepsWrapsAndEnds() {
        SequenceDefinition up = new SequenceDefinition("INTEGER", 3, 1, 2, 4, true);
        assertThat(up.after(3)).isEqualTo(4L);
        assertThat(up.after(4)).isEqualTo(2L);
        SequenceDefinition down = new SequenceDefinition("INTEGER", 0, -2, -3, 0, false);
        assertThat(down.after(0)).isEqualTo(-2L);
        assertThat(down.after(-2)).isNull();
        SequenceDefinition top = new SequenceDefinition("BIGINT", 0, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, false);
        assertThat(top.after(Long.MAX_VALUE)).as("no overflow past the type").isNull();
    }

    @Test
    void hsqldbsCallOfNextValueIsAValuesStatement() {
        assertThat(SequenceStatement.callAsValues("call next value for s")).isEqualTo("VALUES next value for s");
        assertThat(SequenceStatement.callAsValues("CALL proc(1)")).isEqualTo("CALL proc(1)");
    }
}
