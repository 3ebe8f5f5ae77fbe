package org.shepherd.testkit;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TreeSet;

/**
 * A seeded random schema migration of one table, written as a Derby, HSQLDB or MySQL client writes it: CREATE TABLE,
 * then steps that mix DML (INSERT, some with a taken key, a NULL or a string one character too long; UPDATE; DELETE)
 * with every column and table change the shepherd's translator renders (ADD/DROP COLUMN with defaults, RENAME COLUMN
 * and TABLE in the client's spellings, SET/DROP DEFAULT, SET/DROP NOT NULL, a VARCHAR widened, MySQL's MODIFY and
 * CHANGE, CREATE/DROP INDEX, a MySQL client's also as a KEY inside CREATE TABLE or ALTER TABLE ... ADD INDEX; with
 * {@link #withSeveralChanges()} several of them in one ALTER TABLE). It keeps a
 * picture of the table (its name, columns, keys, indexes) from the steps its
 * {@link Target} says were done, so that each next step is written against the table as it should be; a target that
 * runs the steps on several engines (or through a shepherd) checks that they agree. Steps a difference between engines
 * would make unsafe are not written: an index of columns already indexed (Derby makes none; unless
 * {@link #withDuplicateIndexes()}: a shepherd makes up for it), a column with an index dropped, MySQL's MODIFY to NOT
 * NULL of a column holding NULLs (it fails after some of its parts ran elsewhere).
 */
public final class DdlSequence {

    /** The client's spellings the steps are written in. */
    public enum Client { DERBY, HSQLDB, MYSQL }

    /** Where the steps run. */
    public interface Target {
        /**
         * Runs {@code sql}: true when it was done, false when it was refused (before it ran, or by every engine alike);
         * a target that finds its engines disagree throws.
         */
        boolean run(String sql) throws SQLException;

        /** The number the query {@code sql} (a COUNT) answers. */
        long count(String sql) throws SQLException;
    }

    /** What to check after each step. */
    public interface Check {
        /** {@code table} is the table's name now, {@code rows} the rows it should hold. */
        void afterStep(String table, int rows) throws Exception;
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

    /** What a step that was done changes in the picture of the table. */
    private interface Change {
        void apply();
    }

    private final Random random;
    private final Client client;
    private final Target target;
    private final List<String> log = new ArrayList<>();
    private String table = "t0";
    private final List<Col> cols = new ArrayList<>();
    private final TreeSet<Integer> ids = new TreeSet<>();
    private final List<String> indexes = new ArrayList<>();
    private int names;
    private boolean duplicateIndexes;
    private boolean clockDefaults;
    private boolean severalChanges;

    /** A sequence drawn from {@code seed}, written as {@code client} writes SQL, run on {@code target}. */
    public DdlSequence(long seed, Client client, Target target) {
        this.random = new Random(seed);
        this.client = client;
        this.target = target;
    }

    /**
     * Lets the sequence index a column that has an index already, which Derby declines (warning 01504): for a target
     * that is a shepherd, which makes the later DROP INDEX of such an index done on Derby too.
     */
    public DdlSequence withDuplicateIndexes() {
        duplicateIndexes = true;
        return this;
    }

    /**
     * Lets the sequence add DATE columns whose DEFAULT is CURRENT_DATE: each engine alone would fill the rows there with
     * its own date, so for a target that is a shepherd, which gives them one.
     */
    public DdlSequence withClockDefaults() {
        clockDefaults = true;
        return this;
    }

    /**
     * Lets the sequence make several changes in one ALTER TABLE (columns added, one dropped, a default set or dropped,
     * MySQL's MODIFY), each of another column, as MySQL's and PostgreSQL's clients write them: for a target that runs
     * them one by one where the engine takes one change per statement.
     */
    public DdlSequence withSeveralChanges() {
        severalChanges = true;
        return this;
    }

    /** Every step so far, with whether it was done. */
    public List<String> log() {
        return log;
    }

    /** Runs the CREATE TABLE and {@code steps} steps after it, {@code check} after each. */
    public void run(int steps, Check check) throws Exception {
        cols.add(new Col("c" + names++, "INT"));
        cols.add(new Col("c" + names++, "VARCHAR(10)"));
        // a MySQL client's table may have a KEY inside it, as mysqldump writes them
        String key = client == Client.MYSQL && random.nextBoolean() ? "ix" + names++ : null;
        step("CREATE TABLE " + table + " (id " + intType() + " NOT NULL PRIMARY KEY, " + cols.get(0).name + " "
                + typeName(cols.get(0)) + ", " + cols.get(1).name + " VARCHAR(10)"
                + (key == null ? "" : ", KEY " + key + " (" + cols.get(0).name + ")") + ")", () -> {
                    if (key == null) return;
                    indexes.add(key + " " + cols.get(0).name);
                    cols.get(0).indexed = true;
                });
        for (int i = 0; i < steps; i++) {
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
            } else if (r < 88 && client == Client.MYSQL) {
                modify();
            } else if (r < 91) {
                renameTable();
            } else if (r < 95) {
                createIndex();
            } else {
                dropIndex();
            }
            check.afterStep(table, ids.size());
        }
    }

    // ---- the steps

    private void insert() throws SQLException {
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

    private void update() throws SQLException {
        if (ids.isEmpty() || cols.isEmpty()) return;
        Col c = pick(cols);
        int id = pickId();
        step("UPDATE " + table + " SET " + c.name + " = " + (random.nextInt(6) == 0 ? "NULL" : value(c)) + " WHERE id = " + id,
                () -> { });
    }

    private void delete() throws SQLException {
        if (ids.isEmpty()) return;
        int id = pickId();
        step("DELETE FROM " + table + " WHERE id = " + id, () -> ids.remove(id));
    }

    private void addColumn() throws SQLException {
        if (severalChanges && random.nextInt(3) == 0) {
            severalChanges();
            return;
        }
        Col c = new Col("c" + names++, randomType());
        step("ALTER TABLE " + table + " " + added(c), () -> cols.add(c));
    }

    /** {@code ADD [COLUMN] c type [DEFAULT v] [NOT NULL]} of a new column {@code c} drawn here. */
    private String added(Col c) {
        if (random.nextBoolean()) c.dflt = defaultValue(c);
        if (clockDefaults && c.type.equals("DATE") && random.nextBoolean()) c.dflt = "CURRENT_DATE";
        c.notNull = c.dflt != null && random.nextBoolean();
        String column = random.nextBoolean() ? "COLUMN " : "";
        // the constraint before the DEFAULT now and then, as MySQL's own tools write it (the standard puts it after)
        String definition = c.notNull && random.nextBoolean() ? " NOT NULL DEFAULT " + c.dflt
                : (c.dflt != null ? " DEFAULT " + c.dflt : "") + (c.notNull ? " NOT NULL" : "");
        return "ADD " + column + c.name + " " + typeName(c) + definition;
    }

    /** One ALTER TABLE of several changes, each of another column, in a random order ({@link #withSeveralChanges}). */
    private void severalChanges() throws SQLException {
        List<String> clauses = new ArrayList<>();
        List<Change> changes = new ArrayList<>();
        List<Col> untouched = new ArrayList<>(cols);
        for (int i = 0, n = 1 + random.nextInt(2); i < n; i++) {
            Col c = new Col("c" + names++, randomType());
            clauses.add(added(c));
            changes.add(() -> cols.add(c));
        }
        List<Col> droppable = untouched.stream().filter(c -> !c.indexed).toList();
        if (droppable.size() >= 2 && random.nextBoolean()) {
            Col c = pick(droppable);
            untouched.remove(c);
            clauses.add("DROP COLUMN " + c.name);
            changes.add(() -> cols.remove(c));
        }
        if (!untouched.isEmpty() && random.nextBoolean()) {
            Col c = untouched.remove(random.nextInt(untouched.size()));
            String v = random.nextBoolean() ? defaultValue(c) : null;
            clauses.add("ALTER COLUMN " + c.name + (v != null ? " SET DEFAULT " + v : " DROP DEFAULT"));
            changes.add(() -> c.dflt = v);
        }
        if (client == Client.MYSQL && !untouched.isEmpty() && random.nextBoolean()) {
            Col c = untouched.remove(random.nextInt(untouched.size()));
            boolean notNull = random.nextBoolean() && !holdsNull(c);
            String dflt = random.nextBoolean() ? defaultValue(c) : null;
            clauses.add("MODIFY " + c.name + " " + typeName(c) + (notNull ? " NOT NULL" : "") + (dflt != null ? " DEFAULT " + dflt : ""));
            changes.add(() -> {
                c.notNull = notNull;
                c.dflt = dflt;
            });
        }
        java.util.Collections.shuffle(clauses, random); // each of another column: the picture does not depend on the order
        step("ALTER TABLE " + table + " " + String.join(", ", clauses), () -> changes.forEach(Change::apply));
    }

    private void dropColumn() throws SQLException {
        List<Col> droppable = cols.stream().filter(c -> !c.indexed).toList();
        if (droppable.size() < 2) return;
        Col c = pick(droppable);
        step("ALTER TABLE " + table + " DROP " + (random.nextBoolean() ? "COLUMN " : "") + c.name, () -> cols.remove(c));
    }

    private void renameColumn() throws SQLException {
        if (cols.isEmpty()) return;
        Col c = pick(cols);
        String to = "c" + names++;
        String sql;
        if (client == Client.DERBY && random.nextBoolean()) {
            sql = "RENAME COLUMN " + table + "." + c.name + " TO " + to;
        } else if (client == Client.HSQLDB && random.nextBoolean()) {
            sql = "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " RENAME TO " + to;
        } else if (client == Client.MYSQL && random.nextBoolean()) {
            // MySQL's CHANGE restates the column: it keeps what the statement says, nothing else
            boolean notNull = random.nextBoolean() && !holdsNull(c);
            String dflt = random.nextBoolean() ? defaultValue(c) : null;
            step("ALTER TABLE " + table + " CHANGE " + c.name + " " + to + " " + typeName(c) + (notNull ? " NOT NULL" : "")
                    + (dflt != null ? " DEFAULT " + dflt : ""), () -> {
                        renamed(c, to);
                        c.notNull = notNull;
                        c.dflt = dflt;
                    });
            return;
        } else {
            sql = "ALTER TABLE " + table + " RENAME COLUMN " + c.name + " TO " + to;
        }
        step(sql, () -> renamed(c, to));
    }

    /** Column {@code c} is now {@code to}, in the picture of the table and of its indexes. */
    private void renamed(Col c, String to) {
        indexes.replaceAll(e -> e.endsWith(" " + c.name) ? e.substring(0, e.indexOf(' ')) + " " + to : e);
        c.name = to;
    }

    private void setDefault() throws SQLException {
        if (cols.isEmpty()) return;
        Col c = pick(cols);
        String v = defaultValue(c);
        String sql = client == Client.DERBY && random.nextBoolean()
                ? "ALTER TABLE " + table + " ALTER " + c.name + " WITH DEFAULT " + v
                : "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " SET DEFAULT " + v;
        step(sql, () -> c.dflt = v);
    }

    private void dropDefault() throws SQLException {
        if (cols.isEmpty()) return;
        Col c = pick(cols);
        step("ALTER TABLE " + table + " ALTER COLUMN " + c.name + " DROP DEFAULT", () -> c.dflt = null);
    }

    private void setNotNull() throws SQLException {
        if (cols.isEmpty()) return;
        Col c = pick(cols);
        String sql = client == Client.DERBY ? "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " NOT NULL"
                : client == Client.MYSQL ? null : "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " SET NOT NULL";
        if (sql == null) {
            if (!holdsNull(c)) modify(c, true, c.type);
            return;
        }
        step(sql, () -> c.notNull = true);
    }

    private void dropNotNull() throws SQLException {
        if (cols.isEmpty()) return;
        Col c = pick(cols);
        String sql = client == Client.DERBY ? "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " NULL"
                : client == Client.HSQLDB ? "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " SET NULL"
                : null;
        if (sql == null) {
            modify(c, false, c.type);
            return;
        }
        step(sql, () -> c.notNull = false);
    }

    private void widen() throws SQLException {
        List<Col> texts = cols.stream().filter(c -> c.type.startsWith("VARCHAR")).toList();
        if (texts.isEmpty()) return;
        Col c = pick(texts);
        String to = "VARCHAR(" + (length(c) + 1 + random.nextInt(10)) + ")";
        if (client == Client.MYSQL) {
            if (!c.notNull || !holdsNull(c)) modify(c, c.notNull, to);
            return;
        }
        String sql = client == Client.HSQLDB && random.nextBoolean()
                ? "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " " + to
                : "ALTER TABLE " + table + " ALTER COLUMN " + c.name + " SET DATA TYPE " + to;
        step(sql, () -> c.type = to);
    }

    private void modify() throws SQLException {
        if (cols.isEmpty()) return;
        Col c = pick(cols);
        modify(c, random.nextBoolean() && !holdsNull(c), c.type);
    }

    /** MySQL's MODIFY: the column restated with {@code type}, NOT NULL as given, a default or none (dropped). */
    private void modify(Col c, boolean notNull, String type) throws SQLException {
        String dflt = random.nextBoolean() ? defaultValue(c) : null;
        Col restated = new Col(c.name, type);
        step("ALTER TABLE " + table + " MODIFY " + (random.nextBoolean() ? "COLUMN " : "") + c.name + " " + typeName(restated)
                + (notNull ? " NOT NULL" : random.nextBoolean() ? " NULL" : "") + (dflt != null ? " DEFAULT " + dflt : ""), () -> {
                    c.type = type;
                    c.notNull = notNull;
                    c.dflt = dflt;
                });
    }

    private void renameTable() throws SQLException {
        String to = "t" + names++;
        String sql = random.nextBoolean() || client == Client.HSQLDB ? "ALTER TABLE " + table + " RENAME TO " + to
                : "RENAME TABLE " + table + " TO " + to;
        step(sql, () -> table = to);
    }

    private void createIndex() throws SQLException {
        // Derby does not make an index of the same columns as another (warning 01504), the other engines do: a later
        // DROP INDEX of it then fails on Derby alone, so without a shepherd the sequence indexes a column once
        List<Col> unindexed = cols.stream().filter(c -> duplicateIndexes || !c.indexed).toList();
        if (unindexed.isEmpty()) return;
        Col c = pick(unindexed);
        String name = "ix" + names++;
        // MySQL's ALTER TABLE ... ADD INDEX too
        step(client == Client.MYSQL && random.nextBoolean() ? "ALTER TABLE " + table + " ADD INDEX " + name + " (" + c.name + ")"
                : "CREATE INDEX " + name + " ON " + table + " (" + c.name + ")", () -> {
            indexes.add(name + " " + c.name);
            c.indexed = true;
        });
    }

    private void dropIndex() throws SQLException {
        if (indexes.isEmpty()) return;
        String entry = pick(indexes);
        String name = entry.substring(0, entry.indexOf(' '));
        step("DROP INDEX " + name + (client == Client.MYSQL ? " ON " + table : ""), () -> {
            indexes.remove(entry);
            for (Col c : cols) {
                c.indexed = indexes.stream().anyMatch(e -> e.endsWith(" " + c.name));
            }
        });
    }

    // ---- values and names

    private String intType() {
        return client == Client.MYSQL ? "INT" : "INTEGER";
    }

    private String typeName(Col c) {
        return c.type.equals("INT") ? intType() : c.type;
    }

    private String randomType() {
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

    private static int length(Col c) {
        return Integer.parseInt(c.type.substring("VARCHAR(".length(), c.type.length() - 1));
    }

    /** A literal for {@code c}; now and then a string one longer than the column takes (both engines refuse it). */
    private String value(Col c) {
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
    private boolean holdsNull(Col c) throws SQLException {
        return target.count("SELECT COUNT(*) FROM " + table + " WHERE " + c.name + " IS NULL") > 0;
    }

    /** A DEFAULT for {@code c}: a date as a string (Derby has no DATE '...' literal in DDL), else as {@link #value}. */
    private String defaultValue(Col c) {
        String v = value(c);
        return v.startsWith("DATE ") ? v.substring("DATE ".length()) : v;
    }

    private <T> T pick(List<T> from) {
        return from.get(random.nextInt(from.size()));
    }

    private int pickId() {
        List<Integer> list = new ArrayList<>(ids);
        return list.get(random.nextInt(list.size()));
    }

    /** Runs {@code sql} on the target and, when it was done, records {@code change}. */
    private void step(String sql, Change change) throws SQLException {
        boolean done = target.run(sql);
        log.add((done ? "done:    " : "refused: ") + sql);
        if (done) change.apply();
    }
}
