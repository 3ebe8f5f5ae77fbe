package org.shepherd.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.shepherd.protocol.ColumnInfo;

class BatchAnswerTest {

    private static final List<ColumnInfo> ID = List.of(new ColumnInfo("ID", "ID", Types.INTEGER, "INTEGER", 10, 0, 0, "T", true));

    @Test
    void everyElementsKeysInElementOrderWithTheFirstColumns() throws SQLException {
        BatchAnswer.Builder b = new BatchAnswer.Builder(3, true, 10);
        b.add(0, 0, List.of(), List.of());
        b.add(1, 2, ID, List.of(new Object[] {7}, new Object[] {8}));
        b.add(2, 1, List.of(new ColumnInfo("1", "1", Types.DECIMAL, "DECIMAL", 31, 0, 0, "", false)), List.<Object[]>of(new Object[] {9}));
        BatchAnswer a = b.build();
        assertThat(a.counts()).containsExactly(0, 2, 1);
        assertThat(a.keyColumns()).isEqualTo(ID);
        assertThat(a.generatedKeys()).extracting(r -> r[0]).containsExactly(7, 8, 9);
    }

    @Test
    void keysNotAskedForAreLeftOut() throws SQLException {
        BatchAnswer.Builder b = new BatchAnswer.Builder(1, false, 10);
        b.add(0, 1, ID, List.<Object[]>of(new Object[] {1}));
        assertThat(b.build().keyColumns()).isEmpty();
        assertThat(b.build().generatedKeys()).isEmpty();
    }

    @Test
    void keysPastTheBoundFailTheElementThatBringsThem() throws SQLException {
        BatchAnswer.Builder b = new BatchAnswer.Builder(2, true, 2);
        b.add(0, 2, ID, List.of(new Object[] {1}, new Object[] {2}));
        assertThatThrownBy(() -> b.add(1, 1, ID, List.<Object[]>of(new Object[] {3}))).isInstanceOf(SQLException.class)
                .hasFieldOrPropertyWithValue("SQLState", "54000").hasMessageContaining("batch element 2");
    }
}
