package org.shepherd.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLWarning;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WarningsTest {

    private static List<String> messages(SQLWarning chain) {
        List<String> out = new ArrayList<>();
        for (SQLWarning w = chain; w != null; w = w.getNextWarning()) out.add(w.getMessage());
        return out;
    }

    @Test
    void warningsAreAppendedInOrderAtTheEndOfTheChain() {
        SQLWarning head = Warnings.append(null, List.of(new SQLWarning("a"), new SQLWarning("b")));
        SQLWarning same = Warnings.append(head, List.of(new SQLWarning("c")));
        assertThat((Throwable) same).isSameAs(head);
        assertThat(messages(same)).containsExactly("a", "b", "c");
    }

    @Test
    void noWarningsLeaveTheChainAsItWas() {
        assertThat((Throwable) Warnings.append(null, List.of())).isNull();
        SQLWarning head = new SQLWarning("a");
        assertThat(messages(Warnings.append(head, List.of()))).containsExactly("a");
    }
}
