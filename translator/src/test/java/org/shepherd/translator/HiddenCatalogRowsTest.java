package org.shepherd.translator;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.shepherd.translator.dialect.Dialect;

/** Queries of the catalog leave the hidden tables out in the query, so that counts and limits are right too. */
class HiddenCatalogRowsTest {

    private static final Set<String> HIDDEN = Set.of("shepherd_txlog", "shepherd_txlog_base");

    @Test
    void everyCatalogTableThatNamesTablesGetsThePredicateInItsOwnSelect() throws SQLException {
        Translator derby = new Translator(Dialect.DERBY, 8).withHiddenTables(HIDDEN);
        assertThat(derby.translate("SELECT COUNT(*) FROM SYS.SYSTABLES WHERE TABLETYPE = 'T'").sqlFor(Dialect.DERBY))
                .endsWith("AND UPPER(SYS.SYSTABLES.TABLENAME) NOT IN ('SHEPHERD_TXLOG', 'SHEPHERD_TXLOG_BASE')");
        assertThat(derby.translate("SELECT COUNT(*) FROM (SELECT t.tablename FROM sys.systables t) x").sqlFor(Dialect.DERBY))
                .contains("FROM sys.systables t WHERE UPPER(t.TABLENAME) NOT IN ('SHEPHERD_TXLOG', 'SHEPHERD_TXLOG_BASE')) x");
        Translator mariadb = new Translator(Dialect.MARIADB, 8).withHiddenTables(HIDDEN);
        assertThat(mariadb.translate("SELECT COUNT(*) FROM information_schema.columns c WHERE c.table_name LIKE 's%' OR"
                + " c.table_name IN (SELECT table_name FROM information_schema.tables)").sqlFor(Dialect.MARIADB))
                .contains("WHERE (c.table_name LIKE 's%' OR c.table_name IN (SELECT table_name FROM information_schema.tables"
                        + " WHERE UPPER(information_schema.tables.TABLE_NAME) NOT IN")
                .endsWith("AND UPPER(c.TABLE_NAME) NOT IN ('SHEPHERD_TXLOG', 'SHEPHERD_TXLOG_BASE')");
    }

    @Test
    void otherQueriesAndOtherCatalogTablesAreLeftAlone() throws SQLException {
        Translator derby = new Translator(Dialect.DERBY, 8).withHiddenTables(HIDDEN);
        assertThat(derby.translate("SELECT COUNT(*) FROM SYS.SYSSCHEMAS").sqlFor(Dialect.DERBY)).doesNotContain("NOT IN");
        assertThat(derby.translate("SELECT COUNT(*) FROM systables").sqlFor(Dialect.DERBY)).doesNotContain("NOT IN");
        assertThat(new Translator(Dialect.DERBY, 8).translate("SELECT COUNT(*) FROM SYS.SYSTABLES").sqlFor(Dialect.DERBY))
                .as("nothing hidden").doesNotContain("NOT IN");
    }
}
