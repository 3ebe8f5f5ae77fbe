package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.translator.SequenceStatement;
import org.shepherd.translator.dialect.Dialect;

class SequencesTest {

    private static SequenceStatement st(String sql) throws SQLException {
        return SequenceStatement.of(sql, Dialect.forName("derby"));
    }

    @Test
    void drawsStepByTheIncrementAndNeverRepeatAValueAcrossRestarts(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sequences.properties");
        Sequences s = Sequences.open(file);
        s.apply(st("CREATE SEQUENCE tag_seq START WITH 1 INCREMENT BY 50"));
        s.apply(st("CREATE SEQUENCE down START WITH 10 INCREMENT BY -1"));
        assertThat(List.of(s.next("TAG_SEQ"), s.next("TAG_SEQ"), s.next("TAG_SEQ"))).containsExactly(1L, 51L, 101L);
        assertThat(List.of(s.next("DOWN"), s.next("DOWN"))).containsExactly(10L, 9L);

        Sequences again = Sequences.open(file); // as after a crash: what was reserved is skipped, nothing repeats
        long next = again.next("TAG_SEQ");
        assertThat(next).isGreaterThan(101L).isEqualTo(1 + 50L * Sequences.BLOCK);
        assertThat(again.next("DOWN")).isLessThan(9L);

        List<Long> drawn = new ArrayList<>();
        for (int i = 0; i < Sequences.BLOCK + 5; i++) drawn.add(again.next("TAG_SEQ"));
        assertThat(drawn).doesNotHaveDuplicates().isSorted().allSatisfy(v -> assertThat(v).isGreaterThan(next));
        assertThat(Files.readString(file)).contains("TAG_SEQ=").contains("DOWN=");
    }

    @Test
    void boundsCyclesAndAlterAcrossRestarts(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sequences.properties");
        Sequences s = Sequences.open(file);
        s.apply(st("CREATE SEQUENCE ring START WITH 3 MINVALUE 2 MAXVALUE 4 CYCLE"));
        s.apply(st("CREATE SEQUENCE two START WITH 1 MAXVALUE 2"));
        List<Long> ring = new ArrayList<>();
        for (int i = 0; i < 5; i++) ring.add(s.next("RING"));
        assertThat(ring).containsExactly(3L, 4L, 2L, 3L, 4L);
        assertThat(List.of(s.next("TWO"), s.next("TWO"))).containsExactly(1L, 2L);
        assertThatThrownBy(() -> s.next("TWO")).isInstanceOf(SQLException.class)
                .hasFieldOrPropertyWithValue("SQLState", "2200H").hasMessageContaining("MAXVALUE 2");

        s.apply(st("ALTER SEQUENCE two RESTART WITH 2 MAXVALUE 3"));
        assertThat(List.of(s.next("TWO"), s.next("TWO"))).containsExactly(2L, 3L);
        s.apply(st("ALTER SEQUENCE two CYCLE"));
        assertThat(s.next("TWO")).as("a spent sequence that now cycles starts again").isEqualTo(Integer.MIN_VALUE);
        s.apply(st("ALTER SEQUENCE two RESTART INCREMENT BY 2"));
        assertThat(List.of(s.next("TWO"), s.next("TWO"))).as("back to START WITH, in the new steps").containsExactly(1L, 3L);
        assertThatThrownBy(() -> s.apply(st("ALTER SEQUENCE nope RESTART"))).isInstanceOf(SQLException.class)
                .hasMessageContaining("does not exist");
        s.apply(st("ALTER SEQUENCE IF EXISTS nope RESTART"));

        Sequences again = Sequences.open(file); // as after a crash: a cycling sequence wraps through what was reserved
        assertThat(again.next("RING")).isBetween(2L, 4L);
        assertThat(again.next("TWO")).as("the ALTERs were kept").isBetween(Integer.MIN_VALUE + 0L, 3L);
        again.apply(st("CREATE SEQUENCE short_one START WITH 1 MAXVALUE 3"));
        again.next("SHORT_ONE"); // reserves past the end: after a crash it has no value left
        assertThatThrownBy(() -> Sequences.open(file).next("SHORT_ONE")).isInstanceOf(SQLException.class)
                .hasFieldOrPropertyWithValue("SQLState", "2200H");
    }

    @Test
    void readsTheFirstFormatOfTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sequences.properties");
        Files.writeString(file, "#old\nTAG_SEQ=51001 50\n");
        Sequences s = Sequences.open(file);
        assertThat(List.of(s.next("TAG_SEQ"), s.next("TAG_SEQ"))).containsExactly(51001L, 51051L);
        Files.writeString(file, "TAG_SEQ=next\n");
        assertThatThrownBy(() -> Sequences.open(file)).isInstanceOf(java.io.IOException.class).hasMessageContaining("TAG_SEQ");
    }

    @Test
    void createDropAndTheirErrors(@TempDir Path dir) throws Exception {
        Sequences s = Sequences.open(dir.resolve("sequences.properties"));
        s.apply(st("create sequence s1"));
        assertThat(s.next("S1")).as("Derby's default: an INTEGER sequence from its MINVALUE").isEqualTo(Integer.MIN_VALUE);
        s.apply(st("CREATE SEQUENCE IF NOT EXISTS s1 START WITH 7"));
        assertThat(s.next("S1")).as("IF NOT EXISTS left it as it was").isEqualTo(Integer.MIN_VALUE + 1L);
        assertThatThrownBy(() -> s.apply(st("CREATE SEQUENCE S1"))).isInstanceOf(SQLException.class).hasMessageContaining("exists");
        s.apply(st("DROP SEQUENCE s1 RESTRICT"));
        assertThatThrownBy(() -> s.next("S1")).isInstanceOf(SQLException.class).hasMessageContaining("does not exist");
        s.apply(st("DROP SEQUENCE IF EXISTS s1"));
        assertThatThrownBy(() -> s.apply(st("DROP SEQUENCE s1"))).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> Sequences.open(dir.resolve("sequences.properties")).next("S1")).as("the drop was kept")
                .isInstanceOf(SQLException.class);
    }
}
