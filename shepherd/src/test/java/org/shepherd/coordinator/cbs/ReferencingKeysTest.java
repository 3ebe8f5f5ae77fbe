package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.shepherd.translator.dialect.Dialect;

class ReferencingKeysTest {

    @Test
    void readsTheDroppedTableInTheCaseEachEngineStoresIt() throws SQLException {
        assertThat(ReferencingKeys.tableOf("DROP TABLE Author", Dialect.forName("derby"))).containsExactly("AUTHOR");
        assertThat(ReferencingKeys.tableOf("DROP TABLE IF EXISTS Author", Dialect.forName("postgresql"))).containsExactly("author");
        assertThat(ReferencingKeys.tableOf("drop table if exists Author", Dialect.forName("mariadb"))).containsExactly("Author");
        assertThat(ReferencingKeys.tableOf("DROP TABLE sales.\"Line\"\"s\"", Dialect.forName("hsqldb")))
                .containsExactly("SALES", "Line\"s");
        assertThat(ReferencingKeys.tableOf("DROP TABLE `db`.`t``x`", Dialect.forName("mysql"))).containsExactly("db", "t`x");
        assertThat(ReferencingKeys.tableOf("DROP TABLE ifx", Dialect.forName("derby"))).containsExactly("IFX");
    }

    @Test
    void refusesWhatIsNotADropTable() throws SQLException {
        Dialect derby = Dialect.forName("derby");
        assertThatThrownBy(() -> ReferencingKeys.tableOf("DROP VIEW v", derby)).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> ReferencingKeys.tableOf("DROP TABLE a.b.c", derby)).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> ReferencingKeys.tableOf("DROP TABLE t CASCADE", derby)).isInstanceOf(SQLException.class);
    }
}
