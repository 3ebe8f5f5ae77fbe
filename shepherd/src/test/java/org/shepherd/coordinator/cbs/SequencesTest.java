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
    void createDropAndTheirErrors(@TempDir Path dir) throws Exception {
        Sequences s = Sequences.open(dir.resolve("sequences.properties"));
        s.apply(st("create sequence s1"));
        assertThat(s.next("S1")).isEqualTo(1L);
        assertThatThrownBy(() -> s.apply(st("CREATE SEQUENCE S1"))).isInstanceOf(SQLException.class).hasMessageContaining("exists");
        s.apply(st("DROP SEQUENCE s1 RESTRICT"));
        assertThatThrownBy(() -> s.next("S1")).isInstanceOf(SQLException.class).hasMessageContaining("does not exist");
        s.apply(st("DROP SEQUENCE IF EXISTS s1"));
        assertThatThrownBy(() -> s.apply(st("DROP SEQUENCE s1"))).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> Sequences.open(dir.resolve("sequences.properties")).next("S1")).as("the drop was kept")
                .isInstanceOf(SQLException.class);
    }
}
