package org.shepherd.translator;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.shepherd.translator.dialect.Dialect;

/**
 * Random schema migrations, written as a Derby, HSQLDB or MySQL client writes them, translated and run side by side on
 * embedded Derby and HSQLDB: after every step both engines must have accepted or refused it alike and hold the same
 * rows. The steps mix DML with every column and table change the translator renders (ADD/DROP COLUMN with defaults,
 * RENAME COLUMN and TABLE in each client's spelling, SET/DROP DEFAULT, SET/DROP NOT NULL, a VARCHAR widened, MySQL's
 * MODIFY and CHANGE, indexes), so that what one engine does differently after a change (a default not applied, a
 * NULL let in, a rename lost) shows as a difference. Seeded: a failure names its seed, and {@code -Dddl.seed=S} replays
 * that sequence alone, {@code -Dddl.sequences=N} runs N sequences instead of 36.
 */
class DdlSequenceCorpusTest {

    private static final long SEED = 20_261_127L;
    private static final int SEQUENCES = 36;
    private static final int STEPS = 60;
    private static final AtomicInteger DATABASES = new AtomicInteger();

    @Test
    void randomSchemaChangesLeaveDerbyAndHsqldbAlike() throws Exception {
        Long only = Long.getLong("ddl.seed");
        int applied = 0;
        int refused = 0;
        int sequences = only != null ? 1 : Integer.getInteger("ddl.sequences", SEQUENCES);
        for (int i = 0; i < sequences; i++) {
            long seed = only != null ? only : SEED + i;
            Sequence s = new Sequence(seed);
            try {
                s.run();
            } catch (AssertionError | SQLException e) {
                throw new AssertionError("DDL sequence with seed " + seed + " (replay: -Dddl.seed=" + seed + "), client "
                        + s.client.name() + ", after:\n  " + String.join("\n  ", s.log) + "\n" + e.getMessage(), e);
            } finally {
                s.close();
            }
            applied += s.applied;
            refused += s.refusedByTranslator;
        }
        System.out.printf("DDL sequences: %d steps run on both engines, %d refused by the translator%n", applied, refused);
        assertThat(applied).as("steps that ran").isGreaterThan(refused * 3);
    }

    /** A column as the sequence believes it is. */
    private static final class Col {
        String name;
        String type; // INT, VARCHAR(n), DECIMAL(7,2), DATE
        boolean notNull;
        String dflt;
        boolean indexed;

        Col(String name, String type) {
            this.name = name;
            this.type = type;
        }
    }

    /** The seeded clock and random numbers the coordinator would inject (no step reads them). */
    private static final class FixedSource implements DeterminismSource {
        @Override
        public Instant now() {
            return Instant.parse("2026-11-27T10:00:00Z");
        }

        @Override
        public double random() {
            return 0.5;
        }

        @Override
        public UUID uuid() {
            return new UUID(1, 2);
        }
    }

    private static final class Sequence {
        final Random random;
        final Dialect client;
        final Connection derby;
        final Connection hsqldb;
        final String derbyUrl;
        final Translator translator;
        final List<String> log = new ArrayList<>();
        final DeterminismSource source = new FixedSource();
        String table = "t0";
        final List<Col> cols = new ArrayList<>();
        final TreeSet<Integer> ids = new TreeSet<>();
        final List<String> indexes = new ArrayList<>();
        int names;
        int applied;
        int refusedByTranslator;

        Sequence(long seed) throws SQLException {
            random = new Random(seed);
            client = List.of(Dialect.DERBY, Dialect.HSQLDB, Dialect.MYSQL).get(random.nextInt(3));
            int n = DATABASES.incrementAndGet();
            derbyUrl = "jdbc:derby:memory:ddlseq" + n;
            derby = DriverManager.getConnection(derbyUrl + ";create=true");
            hsqldb = DriverManager.getConnection("jdbc:hsqldb:mem:ddlseq" + n, "SA", "");
            // the catalog reads the primary (here Derby) when a change made it forget a table, as the shepherd's does
            translator = new Translator(client, List.of(Dialect.DERBY, Dialect.HSQLDB), 64,
                    new SchemaCatalog(t -> SchemaCatalog.columnsOf(derby, t)));
        }

        void close() throws SQLException {
            derby.close();
            try {
                DriverManager.getConnection(derbyUrl + ";drop=true").close();
            } catch (SQLException dropped) {
                // Derby answers a dropped database with an exception (08006)
            }
            try (Statement s = hsqldb.createStatement()) {
                s.execute("SHUTDOWN");
            }
            hsqldb.close();
        }

        void run() throws SQLException {
            cols.add(new Col("c" + names++, "INT"));
            cols.add(new Col("c" + names++, "VARCHAR(10)"));
            step("CREATE TABLE " + table + " (id " + intType() + " NOT NULL PRIMARY KEY, " + cols.get(0).name + " "
                    + typeName(cols.get(0)) + ", " + cols.get(1).name + " VARCHAR(10))", () -> { });
            for (int i = 0; i < STEPS; i++) {
                int r = random.nextInt(100);
                if (r < 30) {
                    insert();
                } else if (r < 38) {
                    update();
                } else if (r < 42) {
                    delete();
                } else if (r < 52) {
                    addColumn();
                } else if (r < 56) {
                    dropColumn();
                } else if (r < 62) {
                    renameColumn();
                } else if (r < 68) {
                    setDefault();
                } else if (r < 71) {
                    dropDefault();
                } else if (r < 76) {
                    setNotNull();
                } else if (r < 79) {
                    dropNotNull();
                } else if (r < 82) {
                    widen();
                } else if (r < 88 && client == Dialect.MYSQL) {
                    modify();
                } else if (r < 91) {
                    renameTable();
                } else if (r < 95) {
                    createIndex();
                } else {
                    dropIndex();
                }
                compareRows();
            }
        }

        // ---- the steps

        void insert() throws SQLException {
            int id = ids.isEmpty() || random.nextInt(10) > 0 ? (ids.isEmpty() ? 1 : ids.last() + 1 + random.nextInt(3))
                    : ids.first();
            List<Col> named = new ArrayList<>();
            for (Col c : cols) {
                if (random.nextInt(3) > 0) named.add(c);
            }
            StringBuilder sql = new StringBuilder("INSERT INTO " + table + " (id");
            StringBuilder values = new StringBuilder(") VALUES (" + id);
            for (Col c : named) {
                sql.append(", ").append(c.name);
                values.append(", ").append(random.nextInt(8) == 0 ? "NULL" : value(c));
            }
            step(sql.append(values).append(')').toString(), () -> ids.add(id));
        }

        void update() throws SQLException {
            if (ids.isEmpty() || cols.isEmpty()) return;
            Col c = pick(cols);
            int id = pickId();
            step("UPDATE " + table + " SET " + c.name + " = " + (random.nextInt(6) == 0 ? "NULL" : value(c)) + " WHERE id = " + id,
                    () -> { });
        }

        void delete() throws SQLException {
            if (ids.isEmpty()) return;
            int id = pickId();
            step("DELETE FROM " + table + " WHERE id = " + id, () -> ids.remove(id));
        }

        void addColumn() throws SQLException {
            Col c = new Col("c" + names++, randomType());
            if (random.nextBoolean()) c.dflt = defaultValue(c);
            c.notNull = c.dflt != null && random.nextBoolean();
            String column = random.nextBoolean() ? "COLUMN " : "";
            step("ALTER TABLE " + table + " ADD " + column + c.name + " " + typeName(c) + (c.dflt != null ? " DEFAULT " + c.dflt : "")
                    + (c.notNull ? " NOT NULL" : ""), () -> cols.add(c));
        }

        void dropColumn() throws SQLException {
            List<Col> droppable = cols.stream().filter(c -> !c.indexed).toList();
            if (droppable.size() < 2) return;
            Col c = pick(droppable);
            step("ALTER TABLE " + table + " DROP " + (random.nextBoolean() ? "COLUMN " : "") + c.name, () -> cols.remove(c));
        }

        void renameColumn() throws SQLException {
            if (cols.isEmpty()) return;
            Col c = pick(cols);
            String to = "c" + names++;
            String sql;
            if (client == Dialect.DERBY && random.nextBoolean()) {
                sql = "RENAME COLUMN " + table + "." + c.name + " TO " + to;
            } else if (client == Dialect.HSQLDB && random.nextBoolean()) {
                sql = "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " RENAME TO " + to;
            } else if (client == Dialect.MYSQL && random.nextBoolean()) {
                // MySQL's CHANGE restates the column: it keeps what the statement says, nothing else
                boolean notNull = random.nextBoolean() && !holdsNull(c);
                String dflt = random.nextBoolean() ? defaultValue(c) : null;
                step("ALTER TABLE " + table + " CHANGE " + c.name + " " + to + " " + typeName(c) + (notNull ? " NOT NULL" : "")
                        + (dflt != null ? " DEFAULT " + dflt : ""), () -> {
                            c.name = to;
                            c.notNull = notNull;
                            c.dflt = dflt;
                        });
                return;
            } else {
                sql = "ALTER TABLE " + table + " RENAME COLUMN " + c.name + " TO " + to;
            }
            step(sql, () -> c.name = to);
        }

        void setDefault() throws SQLException {
            if (cols.isEmpty()) return;
            Col c = pick(cols);
            String v = defaultValue(c);
            String sql = client == Dialect.DERBY && random.nextBoolean()
                    ? "ALTER TABLE " + table + " ALTER " + c.name + " WITH DEFAULT " + v
                    : "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " SET DEFAULT " + v;
            step(sql, () -> c.dflt = v);
        }

        void dropDefault() throws SQLException {
            if (cols.isEmpty()) return;
            Col c = pick(cols);
            step("ALTER TABLE " + table + " ALTER COLUMN " + c.name + " DROP DEFAULT", () -> c.dflt = null);
        }

        void setNotNull() throws SQLException {
            if (cols.isEmpty()) return;
            Col c = pick(cols);
            String sql = client == Dialect.DERBY ? "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " NOT NULL"
                    : client == Dialect.MYSQL ? null : "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " SET NOT NULL";
            if (sql == null) {
                if (!holdsNull(c)) modify(c, true, c.type);
                return;
            }
            step(sql, () -> c.notNull = true);
        }

        void dropNotNull() throws SQLException {
            if (cols.isEmpty()) return;
            Col c = pick(cols);
            String sql = client == Dialect.DERBY ? "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " NULL"
                    : client == Dialect.HSQLDB ? "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " SET NULL"
                    : null;
            if (sql == null) {
                modify(c, false, c.type);
                return;
            }
            step(sql, () -> c.notNull = false);
        }

        void widen() throws SQLException {
            List<Col> texts = cols.stream().filter(c -> c.type.startsWith("VARCHAR")).toList();
            if (texts.isEmpty()) return;
            Col c = pick(texts);
            String to = "VARCHAR(" + (length(c) + 1 + random.nextInt(10)) + ")";
            if (client == Dialect.MYSQL) {
                if (!c.notNull || !holdsNull(c)) modify(c, c.notNull, to);
                return;
            }
            String sql = client == Dialect.HSQLDB && random.nextBoolean()
                    ? "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " " + to
                    : "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " SET DATA TYPE " + to;
            step(sql, () -> c.type = to);
        }

        void modify() throws SQLException {
            if (cols.isEmpty()) return;
            Col c = pick(cols);
            modify(c, random.nextBoolean() && !holdsNull(c), c.type);
        }

        /** MySQL's MODIFY: the column restated with {@code type}, NOT NULL as given, a default or none (dropped). */
        void modify(Col c, boolean notNull, String type) throws SQLException {
            String dflt = random.nextBoolean() ? defaultValue(c) : null;
            Col restated = new Col(c.name, type);
            step("ALTER TABLE " + table + " MODIFY " + (random.nextBoolean() ? "COLUMN " : "") + c.name + " " + typeName(restated)
                    + (notNull ? " NOT NULL" : random.nextBoolean() ? " NULL" : "") + (dflt != null ? " DEFAULT " + dflt : ""), () -> {
                        c.type = type;
                        c.notNull = notNull;
                        c.dflt = dflt;
                    });
        }

        void renameTable() throws SQLException {
            String to = "t" + names++;
            String sql = random.nextBoolean() || client == Dialect.HSQLDB ? "ALTER TABLE " + table + " RENAME TO " + to
                    : "RENAME TABLE " + table + " TO " + to;
            step(sql, () -> table = to);
        }

        void createIndex() throws SQLException {
            // Derby does not make an index of the same columns as another (warning 01504), the other engines do: a later
            // DROP INDEX of it then fails on Derby alone (docs/replicas.md), so the sequence indexes a column once
            List<Col> unindexed = cols.stream().filter(c -> !c.indexed).toList();
            if (unindexed.isEmpty()) return;
            Col c = pick(unindexed);
            String name = "ix" + names++;
            step("CREATE INDEX " + name + " ON " + table + " (" + c.name + ")", () -> {
                indexes.add(name + " " + c.name);
                c.indexed = true;
            });
        }

        void dropIndex() throws SQLException {
            if (indexes.isEmpty()) return;
            String entry = pick(indexes);
            String name = entry.substring(0, entry.indexOf(' '));
            step("DROP INDEX " + name + (client == Dialect.MYSQL ? " ON " + table : ""), () -> {
                indexes.remove(entry);
                for (Col c : cols) {
                    c.indexed = indexes.stream().anyMatch(e -> e.endsWith(" " + c.name));
                }
            });
        }

        // ---- running a step on both engines

        /**
         * Translates {@code sql} for Derby and HSQLDB and runs it on both: a refusal by the translator changes nothing;
         * otherwise both engines must accept it (then {@code model} records it) or both refuse it.
         */
        void step(String sql, Change model) throws SQLException {
            Translation t;
            try {
                t = translator.translate(sql);
                t.sqlFor(Dialect.DERBY);
                t.sqlFor(Dialect.HSQLDB);
            } catch (SQLException e) {
                log.add("(refused by the translator, " + e.getSQLState() + ") " + sql);
                refusedByTranslator++;
                return;
            }
            Bound b = t.bind(List.of(), source);
            Map<String, String> outcome = new LinkedHashMap<>();
            for (Dialect d : List.of(Dialect.DERBY, Dialect.HSQLDB)) {
                Connection c = d == Dialect.DERBY ? derby : hsqldb;
                // the statements MySQL's MODIFY/CHANGE becomes run in one transaction, as the shepherd runs them (HSQLDB
                // commits each DDL statement, Derby rolls them back together: the sequence makes none that fails)
                String[] parts = b.sqlFor(d).split(java.util.regex.Pattern.quote(Dialect.THEN));
                c.setAutoCommit(parts.length == 1);
                try {
                    for (String part : parts) {
                        try (Statement st = c.createStatement()) {
                            st.execute(part);
                        }
                    }
                    if (parts.length > 1) c.commit();
                    outcome.put(d.name(), "ok");
                } catch (SQLException e) {
                    if (parts.length > 1) c.rollback();
                    outcome.put(d.name(), "refused (" + e.getSQLState() + " " + e.getMessage() + ")");
                } finally {
                    c.setAutoCommit(true);
                }
            }
            log.add(sql + "   -> derby: " + b.sqlFor(Dialect.DERBY) + "; hsqldb: " + b.sqlFor(Dialect.HSQLDB) + "; " + outcome);
            boolean derbyOk = outcome.get("derby").equals("ok");
            assertThat(outcome.get("hsqldb").equals("ok")).as("both engines accept or both refuse: %s", outcome).isEqualTo(derbyOk);
            if (derbyOk) {
                model.apply();
                applied++;
            }
        }

        void compareRows() throws SQLException {
            Translation t = translator.translate("SELECT * FROM " + table + " ORDER BY id");
            Bound b = t.bind(List.of(), source);
            List<String> fromDerby = rows(derby, b.sqlFor(Dialect.DERBY));
            List<String> fromHsqldb = rows(hsqldb, b.sqlFor(Dialect.HSQLDB));
            assertThat(fromHsqldb).as("rows on HSQLDB against Derby").isEqualTo(fromDerby);
            assertThat(fromDerby).as("row count against the ids inserted").hasSize(ids.size());
        }

        // ---- values and names

        String intType() {
            return client == Dialect.MYSQL ? "INT" : "INTEGER";
        }

        String typeName(Col c) {
            return c.type.equals("INT") ? intType() : c.type;
        }

        String randomType() {
            switch (random.nextInt(4)) {
                case 0:
                    return "INT";
                case 1:
                    return "VARCHAR(" + (5 + random.nextInt(16)) + ")";
                case 2:
                    return "DECIMAL(7,2)";
                default:
                    return "DATE";
            }
        }

        static int length(Col c) {
            return Integer.parseInt(c.type.substring("VARCHAR(".length(), c.type.length() - 1));
        }

        /** A literal for {@code c}; now and then a string one longer than the column takes (both engines refuse it). */
        String value(Col c) {
            if (c.type.equals("INT")) return Integer.toString(random.nextInt(2001) - 1000);
            if (c.type.startsWith("DECIMAL")) {
                return new BigDecimal(random.nextInt(2_000_001) - 1_000_000).movePointLeft(2).toPlainString();
            }
            if (c.type.equals("DATE")) return "DATE '2026-" + String.format(Locale.ROOT, "%02d-%02d'", 1 + random.nextInt(12),
                    1 + random.nextInt(28));
            int n = random.nextInt(12) == 0 ? length(c) + 1 : random.nextInt(length(c) + 1);
            StringBuilder s = new StringBuilder("'");
            for (int i = 0; i < n; i++) s.append((char) ('a' + random.nextInt(26)));
            return s.append('\'').toString();
        }

        /**
         * Whether column {@code c} holds a NULL: MySQL's MODIFY ... NOT NULL of it would fail at a part after others ran,
         * which HSQLDB keeps and Derby does not (docs/cbs.md).
         */
        boolean holdsNull(Col c) throws SQLException {
            try (Statement st = derby.createStatement();
                    ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table + " WHERE " + c.name + " IS NULL")) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }

        /** A DEFAULT for {@code c}: a date as a string (Derby has no DATE '...' literal in DDL), else as {@link #value}. */
        String defaultValue(Col c) {
            String v = value(c);
            return v.startsWith("DATE ") ? v.substring("DATE ".length()) : v;
        }

        <T> T pick(List<T> from) {
            return from.get(random.nextInt(from.size()));
        }

        int pickId() {
            List<Integer> list = new ArrayList<>(ids);
            return list.get(random.nextInt(list.size()));
        }
    }

    /** What a step that ran changes in the sequence's picture of the table. */
    private interface Change {
        void apply();
    }

    /** Rows as text: numbers by value, dates and strings as they print. */
    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    Object v = rs.getObject(i);
                    if (v instanceof Number) v = new BigDecimal(v.toString()).stripTrailingZeros().toPlainString();
                    row.add(rs.getMetaData().getColumnLabel(i).toLowerCase(Locale.ROOT) + "=" + v);
                }
                rows.add(String.join(", ", row));
            }
        }
        return rows;
    }
}
