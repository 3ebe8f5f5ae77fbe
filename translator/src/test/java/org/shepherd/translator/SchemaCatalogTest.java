package org.shepherd.translator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.shepherd.translator.SchemaCatalog.ColumnType;
import org.shepherd.translator.dialect.Dialect;
import org.shepherd.translator.dialect.Dialect.TypeKind;

class SchemaCatalogTest {

    private static final String SUM = "SELECT i + 1 AS x FROM t";

    @Test
    void ddlTranslatedChangesTheRenderingOfCachedStatements() throws SQLException {
        Translator translator = new Translator(Dialect.DERBY, List.of(Dialect.DERBY), 16);
        assertThat(translator.translate(SUM).sqlFor(Dialect.DERBY)).isEqualTo("SELECT i + 1 AS x FROM t");

        translator.translate("CREATE TABLE t (id INTEGER, i INTEGER, s VARCHAR(5))");
        Translation typed = translator.translate(SUM);
        assertThat(typed.sqlFor(Dialect.DERBY)).isEqualTo("SELECT CAST(i AS BIGINT) + 1 AS x FROM t");
        assertThat(translator.translate(SUM)).isSameAs(typed);

        translator.translate("DROP TABLE t");
        assertThat(translator.translate(SUM).sqlFor(Dialect.DERBY)).isEqualTo("SELECT i + 1 AS x FROM t");

        // the same CREATE text again (a cache hit) is learned again
        translator.translate("CREATE TABLE t (id INTEGER, i INTEGER, s VARCHAR(5))");
        assertThat(translator.translate(SUM).sqlFor(Dialect.DERBY)).isEqualTo("SELECT CAST(i AS BIGINT) + 1 AS x FROM t");
    }

    @Test
    void ddlThatChangesNoColumnsKeepsCachedTranslations() throws SQLException {
        Translator translator = new Translator(Dialect.DERBY, List.of(Dialect.DERBY), 16);
        translator.translate("CREATE TABLE t (id INTEGER, i INTEGER)");
        Translation typed = translator.translate(SUM);
        long version = translator.catalog().version();

        translator.translate("CREATE INDEX t_i ON t (i)");
        translator.translate("CREATE TABLE t (id INTEGER, i INTEGER)"); // the same columns again
        assertThat(translator.catalog().version()).isEqualTo(version);
        assertThat(translator.translate(SUM)).isSameAs(typed);

        translator.translate("ALTER TABLE t ADD COLUMN d DECIMAL(7, 2)");
        assertThat(translator.catalog().version()).isNotEqualTo(version);
        assertThat(translator.translate(SUM)).isNotSameAs(typed);
    }

    @Test
    void alterTableAddsAndDropsColumns() throws SQLException {
        Translator translator = new Translator(Dialect.DERBY, 16);
        translator.translate("CREATE TABLE t (id INTEGER, c CHAR(3))");
        translator.translate("ALTER TABLE t ADD COLUMN d DECIMAL(7, 2)");
        translator.translate("ALTER TABLE t DROP COLUMN id");
        assertThat(translator.catalog().columns("T")).containsOnlyKeys("C", "D");
        // CHAR(n) is declared VARCHAR(n) on every engine, so it compares like one
        assertThat(translator.catalog().column("t", "c")).isEqualTo(new ColumnType(TypeKind.VARCHAR, 3, 0).withSqlName("c"));
        assertThat(translator.catalog().column("\"T\"", "\"D\"")).isEqualTo(new ColumnType(TypeKind.DECIMAL, 7, 2).withSqlName("d"));
        assertThat(translator.catalog().column("t", "nope")).isNull();
    }

    @Test
    void createIfNotExistsKeepsTheKnownTable() throws SQLException {
        Translator translator = new Translator(Dialect.DERBY, 16);
        translator.translate("CREATE TABLE t (i INTEGER)");
        translator.translate("CREATE TABLE IF NOT EXISTS t (i VARCHAR(3))");
        assertThat(translator.catalog().column("t", "i").kind()).isEqualTo(TypeKind.INTEGER);
    }

    @Test
    void jdbcLoaderReadsTablesMadeBehindTheTranslatorsBack() throws Exception {
        String url = "jdbc:derby:memory:schemacatalog;create=true";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE old_t (id INTEGER, n BIGINT, d NUMERIC(9, 3), c CHAR(4), v VARCHAR(20), f DOUBLE, ts TIMESTAMP)");
        }
        AtomicInteger lookups = new AtomicInteger();
        SchemaCatalog catalog = new SchemaCatalog(SchemaCatalog.jdbcLoader(() -> {
            lookups.incrementAndGet();
            Connection c = DriverManager.getConnection(url);
            c.setAutoCommit(false);
            return c;
        }));
        Map<String, ColumnType> columns = catalog.columns("old_t");
        // Derby stores the names upper-case: a statement may write them unquoted
        assertThat(columns).containsEntry("N", new ColumnType(TypeKind.BIGINT, 0, 0).withSqlName("N"))
                .containsEntry("D", new ColumnType(TypeKind.DECIMAL, 9, 3).withSqlName("D"))
                .containsEntry("C", new ColumnType(TypeKind.CHAR, 4, 0).withSqlName("C"))
                .containsEntry("V", new ColumnType(TypeKind.VARCHAR, 20, 0).withSqlName("V"))
                .containsEntry("F", new ColumnType(TypeKind.DOUBLE, 0, 0).withSqlName("F"))
                .containsEntry("TS", new ColumnType(TypeKind.TIMESTAMP, 9, 0).withSqlName("TS"));
        assertThat(catalog.columns("missing")).isNull();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA sales");
            s.execute("CREATE TABLE sales.old_t (id INTEGER, amount DECIMAL(7, 2))");
        }
        assertThat(catalog.columns("sales.old_t")).as("another schema, as written: Derby stores SALES")
                .containsOnlyKeys("ID", "AMOUNT").containsEntry("AMOUNT", new ColumnType(TypeKind.DECIMAL, 7, 2).withSqlName("AMOUNT"));
        assertThat(catalog.columns("nowhere.old_t")).as("not the default schema's namesake").isNull();
        lookups.addAndGet(-2);
        catalog.columns("old_t");
        catalog.columns("missing");
        assertThat(lookups).as("one lookup per table, also for a table that is not there").hasValue(2);

        Translator translator = new Translator(Dialect.DERBY, List.of(), 16, catalog);
        // a CHAR column compares padded on every engine: no NO PAD rewrite; the VARCHAR one gets it
        assertThat(translator.translate("SELECT id FROM old_t WHERE c = ? AND v = ? AND 'n' || n = 'n1'").sqlFor(Dialect.DERBY))
                .isEqualTo("SELECT id FROM old_t WHERE c = ? AND (v = ? AND LENGTH(v) = LENGTH(CAST(? AS VARCHAR(32672))))"
                        + " AND (('n' || TRIM(CAST(n AS CHAR(33)))) = 'n1' AND LENGTH(('n' || TRIM(CAST(n AS CHAR(33))))) = 2)");

        translator.translate("CREATE TABLE other (x INTEGER)");
        catalog.columns("missing");
        assertThat(lookups).as("a DDL statement forgets that a table was missing").hasValue(3);
    }

    /**
     * A read of the primary's catalog that fails answers "unknown" for that lookup only (the statement goes on to the
     * primary, whose failure the coordinator must see) and is not remembered: the next lookup reads again. A loader that
     * cannot name the table (a runtime failure) leaves it unknown until the next DDL.
     */
    @Test
    void failingLoaderIsAskedAgainNextTime() throws SQLException {
        AtomicInteger reads = new AtomicInteger();
        AtomicBoolean reachable = new AtomicBoolean(false);
        SchemaCatalog catalog = new SchemaCatalog(table -> {
            reads.incrementAndGet();
            if (!reachable.get()) throw new SQLException("primary unreachable", "08001");
            return Map.of("I", new ColumnType(TypeKind.INTEGER, 0, 0));
        });
        assertThat(catalog.columns("t")).isNull();
        assertThat(catalog.columns("t")).isNull();
        assertThat(reads).as("not remembered").hasValue(2);
        reachable.set(true);
        assertThat(catalog.columns("t")).containsKey("I");
        assertThat(catalog.columns("t")).containsKey("I");
        assertThat(reads).as("remembered once read").hasValue(3);

        Translator unnamed = new Translator(Dialect.DERBY, List.of(), 16, new SchemaCatalog(table -> {
            throw new IllegalArgumentException("cannot name " + table);
        }));
        assertThat(unnamed.translate(SUM).sqlFor(Dialect.DERBY)).isEqualTo("SELECT i + 1 AS x FROM t");
    }

    /** A timestamp's fractional digits, also where the driver gives only the column's width (MariaDB's DATETIME(6)). */
    @Test
    void timestampPrecisionFromTheDigitsOrTheWidth() {
        assertThat(SchemaCatalog.fromJdbc(java.sql.Types.TIMESTAMP, 29, 9).length()).as("Derby").isEqualTo(9);
        assertThat(SchemaCatalog.fromJdbc(java.sql.Types.TIMESTAMP, 26, 0).length()).as("MariaDB DATETIME(6)").isEqualTo(6);
        assertThat(SchemaCatalog.fromJdbc(java.sql.Types.TIMESTAMP, 19, 0).length()).as("DATETIME").isZero();
    }

    @Test
    void concurrentTranslationsAndDdlAgreeWithTheLastDdl() throws Exception {
        Translator translator = new Translator(Dialect.DERBY, List.of(Dialect.DERBY, Dialect.HSQLDB), 64);
        int threads = 4;
        int rounds = 200;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                futures.add(pool.submit(() -> {
                    for (int r = 0; r < rounds; r++) {
                        if (id == 0) {
                            translator.translate(r % 2 == 0 ? "CREATE TABLE t (i INTEGER)" : "DROP TABLE t");
                        } else {
                            String sql = translator.translate(SUM).sqlFor(Dialect.DERBY);
                            assertThat(sql).isIn("SELECT i + 1 AS x FROM t", "SELECT CAST(i AS BIGINT) + 1 AS x FROM t");
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        // the last DDL was a DROP (rounds is even)
        assertThat(translator.translate(SUM).sqlFor(Dialect.DERBY)).isEqualTo("SELECT i + 1 AS x FROM t");
        translator.translate("CREATE TABLE t (i INTEGER)");
        assertThat(translator.translate(SUM).sqlFor(Dialect.HSQLDB))
                .isEqualTo("SELECT CAST(CAST(i AS DECIMAL(19, 0)) + 1 AS BIGINT) AS x FROM t");
    }

    @Test
    void setOperationsThatDeduplicatePadSpaceAreRefusedOnlyForMixedReplicas() throws SQLException {
        String intersect = "SELECT s FROM t INTERSECT SELECT s FROM t";
        Translator mixed = new Translator(Dialect.DERBY, List.of(Dialect.DERBY, Dialect.MARIADB), 16);
        mixed.translate("CREATE TABLE t (s VARCHAR(5), i INTEGER)");
        assertThatThrownBy(() -> mixed.translate(intersect)).isInstanceOf(SQLException.class)
                .hasMessageContaining("UNION ALL").extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("0A000");
        assertThat(mixed.translate("SELECT i FROM t INTERSECT SELECT i FROM t").sqlFor(Dialect.DERBY))
                .isEqualTo("SELECT i FROM t INTERSECT SELECT i FROM t");

        Translator derbyOnly = new Translator(Dialect.DERBY, List.of(Dialect.DERBY), 16);
        derbyOnly.translate("CREATE TABLE t (s VARCHAR(5), i INTEGER)");
        assertThat(derbyOnly.translate(intersect).sqlFor(Dialect.DERBY)).isEqualTo(intersect);
    }
}
