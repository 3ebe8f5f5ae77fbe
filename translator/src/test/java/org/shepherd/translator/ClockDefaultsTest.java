package org.shepherd.translator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.shepherd.translator.SchemaCatalog.ColumnType;
import org.shepherd.translator.dialect.Dialect;
import org.shepherd.translator.dialect.Dialect.TypeKind;

/** A column whose DEFAULT reads the clock: kept in the DDL, named with a pinned clock in every INSERT that omits it. */
class ClockDefaultsTest {

    private static final String TABLE = "CREATE TABLE ev (id INTEGER PRIMARY KEY, name VARCHAR(20),"
            + " created TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL, day DATE DEFAULT CURRENT_DATE, at TIME DEFAULT CURRENT_TIME)";

    /** Pinned clocks as Derby receives them. */
    private static final String TS = "CAST(? AS TIMESTAMP)";
    private static final String DAY = "CAST(? AS DATE)";
    private static final String TIME = "CAST(? AS TIME)";

    private static Translator translator() throws SQLException {
        Translator t = new Translator(Dialect.DERBY, List.of(Dialect.DERBY, Dialect.MARIADB, Dialect.HSQLDB,
                Dialect.POSTGRESQL), 64);
        t.translate(TABLE);
        return t;
    }

    @Test
    void createTableKeepsTheDefaultInEachDialectsSpelling() throws SQLException {
        Translation ddl = translator().translate(TABLE);
        assertThat(ddl.sqlFor(Dialect.DERBY)).contains("created TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL")
                .contains("day DATE DEFAULT CURRENT_DATE").contains("at TIME DEFAULT CURRENT_TIME");
        assertThat(ddl.sqlFor(Dialect.MARIADB)).contains("created DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6) NOT NULL")
                .contains("day DATE DEFAULT (CURRENT_DATE)").contains("at TIME DEFAULT (CURRENT_TIME)");
        assertThat(ddl.sqlFor(Dialect.POSTGRESQL)).contains("created TIMESTAMP(6) DEFAULT CURRENT_TIMESTAMP NOT NULL");
    }

    /** MySQL's ON UPDATE CURRENT_TIMESTAMP: every UPDATE that leaves the column out sets it, with one pinned time. */
    @Test
    void onUpdateCurrentTimestampIsSetByEveryUpdateWithAPinnedTime() throws SQLException {
        Translator t = new Translator(Dialect.MARIADB, List.of(Dialect.MARIADB, Dialect.DERBY, Dialect.POSTGRESQL), 64);
        Translation ddl = t.translate("CREATE TABLE doc (id INT PRIMARY KEY, body VARCHAR(20), changed TIMESTAMP(6) NOT NULL"
                + " DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6))");
        assertThat(ddl.sqlFor(Dialect.MARIADB)).contains("changed DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE"
                + " CURRENT_TIMESTAMP(6) NOT NULL");
        assertThat(ddl.sqlFor(Dialect.DERBY)).contains("changed TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL")
                .doesNotContain("UPDATE");
        assertThat(t.catalog().columns("DOC").get("CHANGED").clockOnUpdate()).isEqualTo(TypeKind.TIMESTAMP);

        Translation update = t.translate("UPDATE doc SET body = ? WHERE id = ?");
        assertThat(update.sqlFor(Dialect.DERBY)).isEqualTo("UPDATE doc SET body = ?, changed = " + TS + " WHERE id = ?");
        assertThat(update.nondeterministic()).extracting(PinnedSlot::kind).containsExactly(PinnedSlot.Kind.TIMESTAMP);
        assertThat(t.translate("UPDATE doc SET changed = '2020-01-01 00:00:00', body = 'b'").sqlFor(Dialect.DERBY))
                .as("a value the statement gives is kept").isEqualTo("UPDATE doc SET changed = '2020-01-01 00:00:00', body = 'b'");
        Translator mysqlOnly = new Translator(Dialect.MARIADB, List.of(Dialect.MARIADB), 64); // ODKU needs every replica MySQL
        mysqlOnly.translate("CREATE TABLE doc (id INT PRIMARY KEY, body VARCHAR(20), changed TIMESTAMP ON UPDATE CURRENT_TIMESTAMP)");
        assertThat(mysqlOnly.translate("INSERT INTO doc (id, body) VALUES (1, 'a') ON DUPLICATE KEY UPDATE body = 'c'")
                .sqlFor(Dialect.MARIADB)).endsWith("ON DUPLICATE KEY UPDATE body = 'c', changed = CAST(? AS DATETIME(6))");
        assertThatThrownBy(() -> t.translate("UPDATE doc d JOIN doc e ON d.id = e.id SET d.body = 'x'"))
                .hasMessageContaining("ON UPDATE CURRENT_TIMESTAMP");
        // a column added with ON UPDATE: kept on MySQL, set by every later UPDATE elsewhere
        Translation added = t.translate("ALTER TABLE doc ADD COLUMN seen TIMESTAMP(6) NULL ON UPDATE CURRENT_TIMESTAMP(6)");
        assertThat(added.sqlFor(Dialect.MARIADB)).isEqualTo("ALTER TABLE doc ADD COLUMN seen DATETIME(6) ON UPDATE"
                + " CURRENT_TIMESTAMP(6) NULL");
        assertThat(added.sqlFor(Dialect.DERBY)).isEqualTo("ALTER TABLE doc ADD COLUMN seen TIMESTAMP");
        assertThat(t.translate("UPDATE doc SET body = ? WHERE id = ?").sqlFor(Dialect.DERBY))
                .isEqualTo("UPDATE doc SET body = ?, changed = " + TS + ", seen = " + TS + " WHERE id = ?");
        assertThatThrownBy(() -> t.translate("CREATE TABLE d2 (id INT, d DATE ON UPDATE CURRENT_DATE)"))
                .hasMessageContaining("ON UPDATE CURRENT_DATE in the definition of column d").hasMessageContaining("TIMESTAMP or DATETIME");
        assertThatThrownBy(() -> t.translate("CREATE TABLE d4 (id INT, p INT REFERENCES doc (id) ON UPDATE CASCADE)"))
                .as("a foreign key's action is not the clock").hasMessageContaining("ON UPDATE CASCADE in the definition of column p");
        assertThatThrownBy(() -> translator().translate("CREATE TABLE d3 (id INT, ts TIMESTAMP ON UPDATE CURRENT_TIMESTAMP)"))
                .as("Derby's dialect has no ON UPDATE").hasMessageContaining("MySQL's");
    }

    @Test
    void theCatalogLearnsTheDefaultsFromTheDdl() throws SQLException {
        Map<String, ColumnType> columns = translator().catalog().columns("EV");
        assertThat(columns.get("CREATED").clockDefault()).isEqualTo(TypeKind.TIMESTAMP);
        assertThat(columns.get("CREATED").sqlName()).isEqualTo("created");
        assertThat(columns.get("DAY").clockDefault()).isEqualTo(TypeKind.DATE);
        assertThat(columns.get("AT").clockDefault()).isEqualTo(TypeKind.TIME);
        assertThat(columns.get("NAME").clockDefault()).isNull();
    }

    @Test
    void anInsertThatLeavesTheColumnsOutNamesThemWithPinnedClocks() throws SQLException {
        Translation t = translator().translate("INSERT INTO ev (id, name) VALUES (?, 'a'), (2, 'b')");
        assertThat(t.sqlFor(Dialect.DERBY)).isEqualTo(
                "INSERT INTO ev (id, name, created, day, at) VALUES (?, 'a', " + TS + ", " + DAY + ", " + TIME + "), (2, 'b', "
                + TS + ", " + DAY + ", " + TIME + ")");
        assertThat(t.nondeterministic()).extracting(PinnedSlot::kind).containsExactly(PinnedSlot.Kind.TIMESTAMP,
                PinnedSlot.Kind.DATE, PinnedSlot.Kind.TIME, PinnedSlot.Kind.TIMESTAMP, PinnedSlot.Kind.DATE, PinnedSlot.Kind.TIME);
    }

    @Test
    void defaultAmongTheValuesIsReplacedAndAGivenValueKept() throws SQLException {
        Translator translator = translator();
        assertThat(translator.translate("INSERT INTO ev (id, created, day, at) VALUES (1, DEFAULT, '2020-01-01', DEFAULT)")
                .sqlFor(Dialect.DERBY))
                .isEqualTo("INSERT INTO ev (id, created, day, at) VALUES (1, " + TS + ", '2020-01-01', " + TIME + ")");
        assertThat(translator.translate("INSERT INTO ev VALUES (1, 'x', DEFAULT, DEFAULT, '10:00:00')").sqlFor(Dialect.DERBY))
                .isEqualTo("INSERT INTO ev VALUES (1, 'x', " + TS + ", " + DAY + ", '10:00:00')");
        assertThat(translator.translate("INSERT INTO ev DEFAULT VALUES").sqlFor(Dialect.DERBY))
                .isEqualTo("INSERT INTO ev (created, day, at) VALUES (" + TS + ", " + DAY + ", " + TIME + ")");
        assertThat(translator.translate("UPDATE ev SET created = DEFAULT, name = 'y' WHERE id = 1").sqlFor(Dialect.DERBY))
                .isEqualTo("UPDATE ev SET created = " + TS + ", name = 'y' WHERE id = 1");
    }

    @Test
    void insertSelectGetsTheClocksInItsSelectList() throws SQLException {
        Translator translator = translator();
        assertThat(translator.translate("INSERT INTO ev (id, name) SELECT id + 100, name FROM ev WHERE id < 3").sqlFor(Dialect.DERBY))
                .isEqualTo("INSERT INTO ev (id, name, created, day, at) SELECT CAST(id AS BIGINT) + 100, name, " + TS + ", " + DAY + ", "
                        + TIME + " FROM ev WHERE id < 3");
        assertThatThrownBy(() -> translator.translate("INSERT INTO ev (id) SELECT 1 FROM ev UNION SELECT 2 FROM ev"))
                .hasMessageContaining("created").hasMessageContaining("clock")
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("0A000");
    }

    @Test
    void mergesInsertNamesTheColumnsToo() throws SQLException {
        Translator translator = new Translator(Dialect.DERBY, List.of(Dialect.DERBY), 16);
        translator.translate(TABLE);
        assertThat(translator.translate("MERGE INTO ev USING src ON ev.id = src.id WHEN MATCHED THEN UPDATE SET name = src.name"
                + " WHEN NOT MATCHED THEN INSERT (id, name) VALUES (src.id, src.name)").sqlFor(Dialect.DERBY))
                .endsWith("WHEN NOT MATCHED THEN INSERT (id, name, created, day, at) VALUES (src.id, src.name, " + TS + ", "
                        + DAY + ", " + TIME + ")");
    }

    @Test
    void theSelectOfAnInsertSelectIsAQueryOfItsOwnWithTheSameMarkersAndClocks() throws SQLException {
        Translator translator = translator();
        Translation insert = translator.translate("INSERT INTO ev (id, name) SELECT id + ?, name FROM ev WHERE name = ?");
        assertThat(insert.insertColumns()).containsExactly("id", "name", "created", "day", "at");
        Translation select = translator.insertSelect(insert, null);
        assertThat(select.kind()).isEqualTo(StatementKind.READ);
        // as a query: its expressions are labelled, and its comparison evens out the engines' padding
        assertThat(select.sqlFor(Dialect.DERBY)).startsWith("SELECT CAST(id AS BIGINT) + ? AS \"EXPR1\", name, " + TS)
                .contains(DAY, TIME, "FROM ev WHERE (name = ?");
        assertThat(select.nondeterministic()).hasSize(3);
        assertThat(select.bind(List.of(5, "a"), new FixedClock()).parameters(Dialect.DERBY)).startsWith(5).contains("a");
        assertThat(translator.translate("INSERT INTO ev (id, name) VALUES (1, 'a')").insertSelectSql()).isNull();
    }

    @Test
    void mysqlsReplaceNamesTheColumnsToo() throws SQLException {
        Translator translator = new Translator(Dialect.MARIADB, List.of(Dialect.MARIADB), 16);
        translator.translate("CREATE TABLE ev (id INT PRIMARY KEY, name VARCHAR(5), created TIMESTAMP DEFAULT CURRENT_TIMESTAMP)");
        assertThat(translator.translate("REPLACE INTO ev (id, name) VALUES (1, 'a')").sqlFor(Dialect.MARIADB))
                .isEqualTo("REPLACE INTO ev(id, name, created) VALUES (1, 'a', CAST(? AS DATETIME(6)))");
    }

    @Test
    void aColumnAddedWithAClockDefaultGivesTheRowsThereTheTimeOfItsTranslation() throws SQLException {
        java.time.LocalDateTime[] now = {java.time.LocalDateTime.of(2026, 11, 27, 9, 8, 7, 654_321_000)};
        Translator translator = new Translator(Dialect.MARIADB, List.of(Dialect.MARIADB, Dialect.DERBY), 16)
                .withDdlClock(() -> now[0]);
        Translation t = translator.translate("ALTER TABLE ev ADD COLUMN seen DATETIME(3) DEFAULT NOW(3)");
        now[0] = now[0].plusSeconds(1); // read once, at translation: every engine's rendering has the same time
        assertThat(t.sqlFor(Dialect.DERBY)).isEqualTo("ALTER TABLE ev ADD COLUMN seen TIMESTAMP DEFAULT '2026-11-27 09:08:07.654'"
                + Dialect.THEN + "ALTER TABLE ev ALTER COLUMN seen SET DEFAULT CURRENT_TIMESTAMP");
        assertThat(t.sqlFor(Dialect.MARIADB)).isEqualTo("ALTER TABLE ev ADD COLUMN seen DATETIME(3) DEFAULT '2026-11-27 09:08:07.654'"
                + Dialect.THEN + "ALTER TABLE ev ALTER COLUMN seen SET DEFAULT CURRENT_TIMESTAMP(3)");
        // among other changes: one statement each on every engine, MySQL's too (as written, each would read its own clock),
        // and one time for every such column
        Translation several = translator.translate("ALTER TABLE ev ADD COLUMN a INT, ADD COLUMN s DATETIME DEFAULT NOW(),"
                + " ADD COLUMN d DATE DEFAULT CURRENT_DATE");
        assertThat(several.sqlFor(Dialect.MARIADB)).isEqualTo("ALTER TABLE ev ADD COLUMN a INTEGER"
                + Dialect.THEN + "ALTER TABLE ev ADD COLUMN s DATETIME(6) DEFAULT '2026-11-27 09:08:08.654321'"
                + Dialect.THEN + "ALTER TABLE ev ALTER COLUMN s SET DEFAULT CURRENT_TIMESTAMP(6)"
                + Dialect.THEN + "ALTER TABLE ev ADD COLUMN d DATE DEFAULT '2026-11-27'"
                + Dialect.THEN + "ALTER TABLE ev ALTER COLUMN d SET DEFAULT (CURRENT_DATE)");
        assertThatThrownBy(() -> translator.translate("ALTER TABLE ev ADD COLUMN r DOUBLE DEFAULT RAND(), ADD COLUMN s DATETIME"
                + " DEFAULT NOW()")).isInstanceOf(SQLException.class);
    }

    @Test
    void whatCannotBeNamedIsRefused() throws SQLException {
        Translator translator = translator();
        Translator mariadb = new Translator(Dialect.MARIADB, List.of(Dialect.MARIADB, Dialect.DERBY), 16);
        assertThatThrownBy(() -> mariadb.translate("ALTER TABLE ev ADD COLUMN seen DATETIME DEFAULT NOW(), MODIFY seen DATETIME"))
                .hasMessageContaining("name column seen");
        assertThatThrownBy(() -> translator.translate("CREATE TABLE w (d DATE DEFAULT CURRENT_TIMESTAMP)"))
                .hasMessageContaining("CURRENT_DATE");
        // a clock anywhere else in DDL is still refused
        assertThatThrownBy(() -> translator.translate("CREATE TABLE w (d DATE CHECK (d < CURRENT_DATE))"))
                .hasMessageContaining("CURRENT_DATE");
    }

    @Test
    void aColumnPlacedWithAfterMakesThePositionsUnknown() throws SQLException {
        Translator translator = new Translator(Dialect.MARIADB, List.of(Dialect.MARIADB), 16);
        translator.translate("CREATE TABLE ev (id INT, created TIMESTAMP DEFAULT CURRENT_TIMESTAMP, n INT)");
        translator.translate("ALTER TABLE ev ADD COLUMN note VARCHAR(5) AFTER id");
        // the catalog forgot the table (no metadata here): positions are not guessed, DEFAULT stays the replicas' to fill
        assertThat(translator.catalog().columns("ev")).isNull();
        assertThatThrownBy(() -> new Translator(Dialect.MARIADB, List.of(Dialect.DERBY), 16)
                .translate("ALTER TABLE ev ADD COLUMN note VARCHAR(5) AFTER id")).hasMessageContaining("MySQL-only");
    }

    @Test
    void aTableWithoutClockDefaultsIsLeftAsWritten() throws SQLException {
        Translator translator = translator();
        translator.translate("CREATE TABLE plain (id INTEGER, d DATE DEFAULT '2020-01-01')");
        assertThat(translator.translate("INSERT INTO plain (id) VALUES (1)").sqlFor(Dialect.DERBY))
                .isEqualTo("INSERT INTO plain (id) VALUES (1)");
    }

    @Test
    void expressionsAsEnginesSpellThem() {
        assertThat(ClockDefaults.ofExpression("current_timestamp(6)", null)).isEqualTo(TypeKind.TIMESTAMP);
        assertThat(ClockDefaults.ofExpression("CURRENT TIMESTAMP", null)).isEqualTo(TypeKind.TIMESTAMP);
        assertThat(ClockDefaults.ofExpression("now()", null)).isEqualTo(TypeKind.TIMESTAMP);
        assertThat(ClockDefaults.ofExpression("LOCALTIMESTAMP", null)).isEqualTo(TypeKind.TIMESTAMP);
        assertThat(ClockDefaults.ofExpression("curdate()", null)).isEqualTo(TypeKind.DATE);
        assertThat(ClockDefaults.ofExpression("(CURRENT_DATE)", null)).isEqualTo(TypeKind.DATE);
        assertThat(ClockDefaults.ofExpression("curtime()", null)).isEqualTo(TypeKind.TIME);
        assertThat(ClockDefaults.ofExpression("LOCALTIME", Dialect.MARIADB)).isEqualTo(TypeKind.TIMESTAMP);
        assertThat(ClockDefaults.ofExpression("'2020-01-01'", null)).isNull();
        assertThat(ClockDefaults.ofExpression("now", null)).isNull();
        assertThat(ClockDefaults.ofExpression(null, null)).isNull();
        assertThat(SchemaCatalog.sqlName("CREATED", 'U')).isEqualTo("CREATED");
        assertThat(SchemaCatalog.sqlName("created", 'U')).isEqualTo("\"created\"");
        assertThat(SchemaCatalog.sqlName("created", 'L')).isEqualTo("created");
        assertThat(SchemaCatalog.sqlName("CreatedAt", 'L')).isEqualTo("\"CreatedAt\"");
        assertThat(SchemaCatalog.sqlName("CreatedAt", 'M')).isEqualTo("CreatedAt");
    }

    /** A clock and random source fixed for tests. */
    private static final class FixedClock implements DeterminismSource {
        @Override
        public java.time.Instant now() {
            return java.time.Instant.parse("2026-01-02T03:04:05Z");
        }

        @Override
        public double random() {
            return 0.5;
        }

        @Override
        public java.util.UUID uuid() {
            return new java.util.UUID(1, 2);
        }
    }

    /** After a restart the catalog learns the defaults from the primary's metadata (here an embedded Derby). */
    @Test
    void theJdbcLoaderReadsTheDefaultsFromTheMetadata() throws SQLException {
        String url = "jdbc:derby:memory:clockdefaults;create=true";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE ev (id INTEGER, created TIMESTAMP DEFAULT CURRENT_TIMESTAMP, \"Day\" DATE DEFAULT CURRENT DATE)");
            Translator translator = new Translator(Dialect.DERBY, List.of(Dialect.DERBY), 16,
                    new SchemaCatalog(SchemaCatalog.jdbcLoader(() -> DriverManager.getConnection(url))));
            assertThat(translator.translate("INSERT INTO ev (id) VALUES (1)").sqlFor(Dialect.DERBY))
                    .isEqualTo("INSERT INTO ev (id, CREATED, \"Day\") VALUES (1, " + TS + ", " + DAY + ")");
        } finally {
            try {
                DriverManager.getConnection("jdbc:derby:memory:clockdefaults;drop=true");
            } catch (SQLException dropped) {
                // 08006: the in-memory database is gone
            }
        }
    }
}
