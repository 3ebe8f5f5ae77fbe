package org.shepherd.hetero;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random queries over one small table of awkward values (NULLs, zero, negatives, empty and blank-padded strings,
 * mixed case, a leap day), written in a client's dialect, for the generated part of the benign-divergence corpus: every
 * engine must give the voter the same ballot for each, or the translator must refuse it up front. Some compare a
 * column with a {@code ?}, or store one, bound to an awkward value (blank-padded strings, three decimals). The same seed
 * gives the same queries.
 */
final class RandomQueries {

    static final String TABLE = "bd_rq";

    /** The table, created once for every client. */
    static final List<String> SETUP = List.of(
            "CREATE TABLE " + TABLE + " (id INTEGER NOT NULL PRIMARY KEY, i INTEGER, j INTEGER, d DECIMAL(9, 2),"
                    + " s VARCHAR(20), t VARCHAR(20), dt DATE, ts TIMESTAMP, f DOUBLE PRECISION)",
            "INSERT INTO " + TABLE + " (id, i, j, d, s, t, dt, ts, f) VALUES (1, 0, 1, 0.00, '', 'a', DATE '2024-02-29',"
                    + " TIMESTAMP '2024-02-29 23:59:59.999999', 0.1)",
            "INSERT INTO " + TABLE + " (id, i, j, d, s, t, dt, ts, f) VALUES (2, -7, 2, -1.50, 'abc', 'ABC', DATE '2000-01-01',"
                    + " TIMESTAMP '2000-01-01 00:00:00', -2.5)",
            "INSERT INTO " + TABLE + " (id, i, j, d, s, t, dt, ts, f) VALUES (3, 7, -2, 2.50, 'a b ', 'b', DATE '1999-12-31',"
                    + " TIMESTAMP '1999-12-31 12:30:00.5', 12345.678)",
            "INSERT INTO " + TABLE + " (id, i, j, d, s, t, dt, ts, f) VALUES (4, NULL, 3, NULL, NULL, '', NULL, NULL, NULL)",
            "INSERT INTO " + TABLE + " (id, i, j, d, s, t, dt, ts, f) VALUES (5, 1000000, 0, 99.99, 'Zz', 'zz', DATE '2024-12-31',"
                    + " TIMESTAMP '2024-12-31 00:00:00.000001', 3.14159)",
            "INSERT INTO " + TABLE + " (id, i, j, d, s, t, dt, ts, f) VALUES (6, 13, 5, -0.01, ' x', 'x ', DATE '1970-01-01',"
                    + " TIMESTAMP '1970-01-01 00:00:01', -0.001)");

    static final String CLEANUP = "DROP TABLE " + TABLE;

    private static final int DEPTH_MAX = 3;
    /** A MySQL client's expression is one of MySQL's own functions one time in this many. */
    private static final int MYSQL_FUNCTION_ONE_IN = 8;
    private static final String[] INT_COLUMNS = {"i", "j", "id"};
    private static final String[] STRING_COLUMNS = {"s", "t"};
    private static final String[] STRING_LITERALS = {"''", "'a'", "'abc'", "'A'", "' x'", "'zz'", "'a b'"};

    /** Values for {@code ?} markers: strings with leading and trailing blanks, empty, mixed case. */
    private static final String[] STRING_VALUES = {"", "a", "a ", "abc", "A", " x", "x ", "a b ", "a b", "zz"};

    /** A statement and the values bound to its markers, in order. */
    record Generated(String sql, List<Object> params) {
    }

    private final Random random;
    private final boolean mysql;
    private final boolean postgresql;
    /** The values of the statement being generated, in the order of its markers. */
    private List<Object> params = new ArrayList<>();

    /**
     * @param client the client dialect the queries are written in: "derby" (standard SQL), "mysql" or "postgresql"
     */
    RandomQueries(long seed, String client) {
        this.random = new Random(seed);
        this.mysql = client.equals("mysql");
        this.postgresql = client.equals("postgresql");
    }

    /** {@code n} queries. */
    List<Generated> next(int n) {
        List<Generated> out = new ArrayList<>(n);
        for (int k = 0; k < n; k++) out.add(generated(query()));
        return out;
    }

    /** {@code sql} with the values its generation bound; the next statement starts with none. */
    private Generated generated(String sql) {
        Generated g = new Generated(sql, params);
        params = new ArrayList<>();
        return g;
    }

    /** A {@code ?} bound to {@code value}. */
    private String param(Object value) {
        params.add(value);
        return "?";
    }

    /**
     * {@code n} writes, each followed by a read of the whole table (a write's ballot is its update count only, so the
     * read is what shows a value one engine stored differently); the table's rows are put back every few writes.
     */
    List<Generated> nextWrites(int n) {
        List<Generated> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            if (k % 5 == 0) {
                out.add(new Generated("DELETE FROM " + TABLE, List.of()));
                SETUP.subList(1, SETUP.size()).forEach(sql -> out.add(new Generated(sql, List.of())));
            }
            out.add(generated(unindexed(write())));
            out.add(new Generated("SELECT id, i, j, d, s, t, dt, ts, f FROM " + TABLE + " ORDER BY id", List.of()));
        }
        return out;
    }

    /**
     * The write with its WHERE clause reading the key as {@code (id + 0)}, which no index serves: HSQLDB 2.7.4 finds no
     * row for a range on the key bounded by another column ({@code id BETWEEN j AND 8}), an engine bug the shepherd
     * outvotes, which a write would carry into every later read of the table.
     */
    private static String unindexed(String write) {
        int where = write.lastIndexOf(" WHERE ");
        return where < 0 ? write : write.substring(0, where) + write.substring(where).replaceAll("\\bid\\b", "(id + 0)");
    }

    private String write() {
        switch (random.nextInt(14)) {
            case 12:
                return "UPDATE " + TABLE + " SET f = " + doubleExpr(1) + " WHERE " + condition(1);
            case 13:
                return "UPDATE " + TABLE + " SET f = " + param(doubleValue()) + " WHERE " + condition(1);
            case 10:
                return "UPDATE " + TABLE + " SET ts = " + timestampValue() + " WHERE " + condition(1);
            case 11:
                // pinned: every replica stores the shepherd's clock
                return "UPDATE " + TABLE + " SET ts = CURRENT_TIMESTAMP, dt = CURRENT_DATE WHERE " + condition(1);
            case 8:
                return "UPDATE " + TABLE + " SET dt = " + dateValue() + " WHERE " + condition(1);
            case 9:
                return "UPDATE " + TABLE + " SET dt = " + param(java.sql.Date.valueOf(DATES[random.nextInt(DATES.length)]))
                        + ", j = j + 1 WHERE " + condition(1);
            case 6:
                return "UPDATE " + TABLE + " SET " + STRING_COLUMNS[random.nextInt(STRING_COLUMNS.length)] + " = " + stringValue()
                        + " WHERE " + condition(1);
            case 7:
                return "UPDATE " + TABLE + " SET i = i + " + param((long) random.nextInt(21) - 10) + ", d = "
                        + (random.nextBoolean() ? "d + " : "") + param(decimalValue()) + " WHERE " + condition(1);
            case 0:
                return "UPDATE " + TABLE + " SET i = " + intExpr(1) + " WHERE " + condition(1);
            case 1:
                return "UPDATE " + TABLE + " SET s = " + stringExpr(1) + ", t = " + stringExpr(1) + " WHERE " + condition(1);
            case 2:
                return "UPDATE " + TABLE + " SET d = " + decimalAssigned() + " WHERE " + condition(1);
            case 3:
                return "DELETE FROM " + TABLE + " WHERE " + condition(1);
            case 4:
                return "INSERT INTO " + TABLE + " (id, i, j, d, s, t, dt, ts, f) SELECT id + 100, " + intExpr(2) + ", j, "
                        + decimalAssigned() + ", " + stringExpr(2) + ", t, dt, ts, f FROM " + TABLE + " WHERE " + condition(2);
            default:
                return "UPDATE " + TABLE + " SET j = " + intExpr(1) + ", d = " + decimalLeaf() + " WHERE " + condition(1);
        }
    }

    private String query() {
        switch (random.nextInt(20)) {
            case 18:
                return "SELECT id, " + doubleExpr(0) + " AS v FROM " + TABLE + " ORDER BY id";
            case 19:
                return "SELECT id FROM " + TABLE + " WHERE " + doubleExpr(1) + " " + comparison() + " " + doubleLeaf() + " ORDER BY id";
            case 16:
                String group = random.nextBoolean() ? "j" : "COALESCE(i, j)";
                return "SELECT " + group + " AS k, COUNT(*) AS n, MIN(" + intExpr(1) + ") AS low FROM " + TABLE + " WHERE "
                        + condition(1) + " GROUP BY " + group + " HAVING " + havingCondition() + " ORDER BY k";
            case 17:
                return "SELECT id, " + stringExpr(1) + " AS v FROM " + TABLE + " ORDER BY CASE WHEN " + condition(1)
                        + " THEN 0 ELSE 1 END, id";
            case 11:
                return join();
            case 12:
                return union();
            case 13:
                return "SELECT id, " + intExpr(1) + " AS v FROM " + TABLE + " WHERE " + condition(1) + " ORDER BY id "
                        + limit(1 + random.nextInt(4), random.nextInt(3));
            case 14:
                return correlated();
            case 15:
                return exists();
            case 5:
                int before = params.size();
                String key = columnString();
                params.addAll(new ArrayList<>(params.subList(before, params.size()))); // the key is written twice
                return "SELECT " + key + " AS g, COUNT(*) AS n, MIN(id) AS low FROM " + TABLE + " GROUP BY " + key
                        + " ORDER BY low";
            case 6:
                return "SELECT DISTINCT " + columnString() + " AS v FROM " + TABLE;
            case 7:
                switch (random.nextInt(4)) {
                    case 0:
                        return "SELECT id, ts FROM " + TABLE + " WHERE " + condition(1) + " ORDER BY ts DESC, id";
                    case 1:
                        return "SELECT MIN(ts) AS low, MAX(ts) AS high, COUNT(DISTINCT ts) AS n FROM " + TABLE + " WHERE "
                                + condition(1);
                    default:
                        return "SELECT id, " + dateExpr() + " AS v FROM " + TABLE + " ORDER BY id";
                }
            case 8:
                return "SELECT MIN(" + columnString() + ") AS low, MAX(" + columnString() + ") AS high, COUNT(DISTINCT "
                        + columnString() + ") AS n FROM " + TABLE + " WHERE " + condition(1);
            case 9:
                return "SELECT id, " + stringExpr(1) + " AS v FROM " + TABLE + " WHERE " + condition(1) + " ORDER BY "
                        + STRING_COLUMNS[random.nextInt(STRING_COLUMNS.length)] + ", id";
            case 10:
                return "SELECT id FROM " + TABLE + " WHERE " + STRING_COLUMNS[random.nextInt(STRING_COLUMNS.length)] + " IN ("
                        + "SELECT " + columnString() + " FROM " + TABLE + " WHERE " + condition(2) + ") ORDER BY id";
            case 0:
                return "SELECT id, " + intExpr(0) + " AS v FROM " + TABLE + " ORDER BY id";
            case 1:
                return "SELECT id, " + stringExpr(0) + " AS v FROM " + TABLE + " ORDER BY id";
            case 2:
                return "SELECT id FROM " + TABLE + " WHERE " + condition(0) + " ORDER BY id";
            case 3:
                return "SELECT COUNT(*) AS n, SUM(" + intExpr(1) + ") AS total, MAX(" + intExpr(1) + ") AS top FROM " + TABLE
                        + " WHERE " + condition(1);
            default:
                return "SELECT id, " + decimalExpr(0) + " AS v FROM " + TABLE + " ORDER BY id";
        }
    }

    /** Column references name {@code a} or {@code b} while {@link #qualified} generates (null: unqualified). */
    private String[] qualifiers;

    /** {@code part} generated with its column references qualified by one of {@code names}, picked per reference. */
    private String qualified(java.util.function.Supplier<String> part, String... names) {
        String[] saved = qualifiers;
        qualifiers = names;
        try {
            return part.get();
        } finally {
            qualifiers = saved;
        }
    }

    private String q(String column) {
        return qualifiers == null ? column : qualifiers[random.nextInt(qualifiers.length)] + "." + column;
    }

    private String intColumn() {
        return q(INT_COLUMNS[random.nextInt(INT_COLUMNS.length)]);
    }

    private String stringColumn() {
        return q(STRING_COLUMNS[random.nextInt(STRING_COLUMNS.length)]);
    }

    /** A self-join (inner or left) on a random condition over both sides, every pair in a total order. */
    private String join() {
        boolean left = random.nextBoolean();
        String value = qualified(() -> random.nextBoolean() ? intExpr(1) : stringExpr(1), "a", "b");
        String on = qualified(() -> condition(1), "a", "b");
        return "SELECT a.id AS aid, b.id AS bid, " + value + " AS v FROM " + TABLE + " a " + (left ? "LEFT JOIN " : "JOIN ")
                + TABLE + " b ON " + on + " ORDER BY aid, bid";
    }

    /** Two selects of strings or integers combined by UNION or UNION ALL, ordered by the value. */
    private String union() {
        boolean strings = random.nextBoolean();
        String first = strings ? columnString() : intExpr(1);
        String firstWhere = condition(1);
        String second = strings ? columnString() : intExpr(1);
        return "SELECT " + first + " AS v FROM " + TABLE + " WHERE " + firstWhere + " UNION " + (random.nextBoolean() ? "ALL " : "")
                + "SELECT " + second + " FROM " + TABLE + " WHERE " + condition(1) + " ORDER BY v";
    }

    /** A limit in the client's spelling. */
    private String limit(int rows, int offset) {
        return mysql || postgresql ? "LIMIT " + rows + " OFFSET " + offset
                : "OFFSET " + offset + " ROWS FETCH FIRST " + rows + " ROWS ONLY";
    }

    /** A scalar subquery correlated with the outer row in the select list. */
    private String correlated() {
        String[] aggregates = {"MAX(b.i)", "MIN(b.d)", "COUNT(*)", "SUM(b.j)", "MAX(b.s)", "MIN(b.t)"};
        String inner = qualified(() -> condition(1), "a", "b");
        return "SELECT a.id, (SELECT " + aggregates[random.nextInt(aggregates.length)] + " FROM " + TABLE + " b WHERE "
                + "b." + INT_COLUMNS[random.nextInt(INT_COLUMNS.length)] + " " + comparison() + " a."
                + INT_COLUMNS[random.nextInt(INT_COLUMNS.length)] + " AND " + inner + ") AS m FROM " + TABLE + " a ORDER BY a.id";
    }

    /** EXISTS or NOT EXISTS of a subquery correlated by a condition over both sides. */
    private String exists() {
        String inner = qualified(() -> condition(1), "a", "b");
        return "SELECT a.id FROM " + TABLE + " a WHERE " + (random.nextBoolean() ? "NOT " : "") + "EXISTS (SELECT 1 FROM " + TABLE
                + " b WHERE " + inner + ") ORDER BY a.id";
    }

    /**
     * A string expression that is a VARCHAR, for grouping, DISTINCT, MIN/MAX and IN (SELECT ...): a string computed from
     * constants alone is a CHAR on Derby and HSQLDB, whose values differing by trailing blanks those engines group as one
     * (docs/benign-divergence.md, still open).
     */
    private String columnString() {
        return "COALESCE(" + stringExpr(1) + ", " + q("t") + ")";
    }

    private String dateExpr() {
        if (mysql && random.nextInt(4) == 0) return mysqlDateArithmetic();
        if (postgresql && random.nextInt(4) == 0) return postgresqlDateArithmetic();
        switch (random.nextInt(9)) {
            case 4:
                return "YEAR(" + q("ts") + ")";
            case 5:
                return "CAST(" + q("ts") + " AS DATE)";
            case 6:
                return "EXTRACT(DAY FROM " + q("ts") + ")";
            case 7:
                return "COALESCE(ts, TIMESTAMP '2000-01-01 00:00:00')";
            case 8:
                return "CASE WHEN ts " + comparison() + " " + timestampValue() + " THEN 'after' ELSE 'not' END";
            case 0:
                return "YEAR(" + q("dt") + ")";
            case 1:
                return "MONTH(" + q("dt") + ")";
            case 2:
                return "COALESCE(dt, DATE '2000-01-01')";
            default:
                return "CASE WHEN dt " + comparison() + " DATE '2000-01-01' THEN 'after' ELSE 'not' END";
        }
    }

    /**
     * A value for the DECIMAL(9, 2) column, often of more decimals than it keeps (a product, a literal of three): Derby
     * truncates such a value, MariaDB and PostgreSQL round it half away from zero, HSQLDB half toward zero; the
     * translator writes the client's rule out (docs/benign-divergence.md).
     */
    private String decimalAssigned() {
        switch (random.nextInt(6)) {
            case 0:
                return "(d + " + decimalLeaf() + ")";
            case 1:
                return "(d - " + intLeaf() + ")";
            case 2:
                return "COALESCE(d, " + decimalLeaf() + ")";
            case 3:
                return "(" + decimalLeaf() + " * " + (random.nextBoolean() ? "-" : "") + random.nextInt(3) + "." + random.nextInt(10)
                        + random.nextInt(10) + ")";
            case 4:
                return (random.nextBoolean() ? "-" : "") + random.nextInt(10) + "." + random.nextInt(10) + random.nextInt(10) + "5";
            default:
                return decimalLeaf();
        }
    }

    private String intExpr(int depth) {
        if (depth >= DEPTH_MAX) return intLeaf();
        if (mysql && random.nextInt(MYSQL_FUNCTION_ONE_IN) == 0) return mysqlInt(depth);
        if (postgresql && random.nextInt(MYSQL_FUNCTION_ONE_IN) == 0) return postgresqlInt(depth);
        switch (random.nextInt(12)) {
            case 0: case 1: case 2:
                return intLeaf();
            case 3:
                return "(" + intExpr(depth + 1) + " + " + intExpr(depth + 1) + ")";
            case 4:
                return "(" + intExpr(depth + 1) + " - " + intExpr(depth + 1) + ")";
            case 5:
                return "(" + intExpr(depth + 1) + " * " + intLeaf() + ")";
            case 6:
                return "ABS(" + intExpr(depth + 1) + ")";
            case 7:
                return "COALESCE(" + intExpr(depth + 1) + ", " + intLeaf() + ")";
            case 8:
                return "CASE WHEN " + condition(depth + 1) + " THEN " + intExpr(depth + 1) + " ELSE " + intLeaf() + " END";
            case 9:
                return "LENGTH(" + stringExpr(depth + 1) + ")";
            case 10:
                // a divisor that may be 0 fails on some engines and not on others, by the order they evaluate an AND in
                return "MOD(" + intExpr(depth + 1) + ", " + (random.nextInt(9) + 1) * (random.nextBoolean() ? 1 : -1) + ")";
            default:
                return "NULLIF(" + intExpr(depth + 1) + ", " + intLeaf() + ")";
        }
    }

    /** Approximate numbers: IEEE arithmetic is the same everywhere; what each engine adds around it may not be. */
    private String doubleExpr(int depth) {
        if (depth >= DEPTH_MAX) return doubleLeaf();
        switch (random.nextInt(8)) {
            case 0: case 1:
                return doubleLeaf();
            case 2:
                return "(" + doubleExpr(depth + 1) + " + " + doubleExpr(depth + 1) + ")";
            case 3:
                return "(" + doubleExpr(depth + 1) + " * " + (random.nextBoolean() ? random.nextInt(21) - 10 : doubleLeaf()) + ")";
            case 4:
                return "ABS(" + doubleExpr(depth + 1) + ")";
            case 5:
                // wide enough for every value here: MariaDB's CAST clamps a value out of range, the others fail (still open)
                return "CAST(" + doubleExpr(depth + 1) + " AS DECIMAL(20, 2))";
            case 6:
                return "COALESCE(" + doubleExpr(depth + 1) + ", " + doubleLeaf() + ")";
            default:
                return "CASE WHEN " + condition(depth + 1) + " THEN " + doubleExpr(depth + 1) + " ELSE " + doubleLeaf() + " END";
        }
    }

    private String doubleLeaf() {
        switch (random.nextInt(4)) {
            case 0: case 1:
                return q("f");
            case 2:
                // typed: Derby refuses a ? it cannot type from its place (ABS(?), ? = ?, a lone ? in the select list)
                return "CAST(" + param(doubleValue()) + " AS DOUBLE PRECISION)";
            default:
                return "CAST(" + (random.nextInt(201) - 100) + ".5 AS DOUBLE PRECISION)";
        }
    }

    private String intLeaf() {
        return random.nextBoolean() ? intColumn() : Integer.toString(random.nextInt(21) - 10);
    }

    private String decimalExpr(int depth) {
        if (depth >= DEPTH_MAX) return decimalLeaf();
        if (mysql && random.nextInt(MYSQL_FUNCTION_ONE_IN) == 0) return mysqlDecimal(depth);
        switch (random.nextInt(13)) {
            case 12:
                // a CAST that drops digits: truncated for a Derby client, rounded half away from zero for the others
                return random.nextBoolean() ? "CAST(" + decimalExpr(depth + 1) + " AS DECIMAL(12, 1))"
                        : "CAST(" + decimalExpr(depth + 1) + " AS INTEGER)";
            case 10:
                // a ? beside a DECIMAL: Derby, HSQLDB and Db2 may type it from its place and cut what was bound to that
                // type's scale (docs/benign-divergence.md); a Derby client's engine does so too, in more places than the
                // translator writes out on the others (beside a CASE or a ROUND(x, 0) in arithmetic ...; d + ?, d * ? and
                // COALESCE(?, d) are written out), so decimals beside d * ?, whole numbers elsewhere
                return random.nextBoolean() ? "(" + q("d") + " * " + param(decimalValue()) + ")"
                        : "(" + decimalExpr(depth + 1) + " + " + param(wholeDecimal()) + ")";
            case 11:
                return "CASE WHEN " + condition(depth + 1) + " THEN " + decimalExpr(depth + 1) + " ELSE "
                        + param(wholeDecimal()) + " END";
            case 0: case 1:
                return decimalLeaf();
            case 2:
                return "(" + decimalExpr(depth + 1) + " + " + decimalExpr(depth + 1) + ")";
            case 3:
                // an integer expression may pass 10^11, where Derby's DECIMAL - BIGINT overflows a narrower DECIMAL than
                // the other engines use (docs/benign-divergence.md): a column or literal only
                return "(" + decimalExpr(depth + 1) + " - " + intLeaf() + ")";
            case 4:
                return "(" + decimalExpr(depth + 1) + " * " + intLeaf() + ")";
            case 5:
                return "ABS(" + decimalExpr(depth + 1) + ")";
            case 6:
                return "ROUND(" + decimalExpr(depth + 1) + ", " + random.nextInt(2) + ")";
            case 7:
                return "(" + decimalExpr(depth + 1) + " * " + decimalLeaf() + ")";
            case 8:
                return "CASE WHEN " + condition(depth + 1) + " THEN " + decimalExpr(depth + 1) + " ELSE " + decimalLeaf() + " END";
            default:
                return "COALESCE(" + decimalExpr(depth + 1) + ", " + decimalLeaf() + ")";
        }
    }

    private String decimalLeaf() {
        if (random.nextBoolean()) return q("d");
        return (random.nextBoolean() ? "-" : "") + random.nextInt(10) + "." + random.nextInt(10) + random.nextInt(10);
    }

    private String stringExpr(int depth) {
        if (depth >= DEPTH_MAX) return stringLeaf();
        if (mysql && random.nextInt(MYSQL_FUNCTION_ONE_IN) == 0) return mysqlString(depth);
        if (postgresql && random.nextInt(MYSQL_FUNCTION_ONE_IN) == 0) return postgresqlString(depth);
        switch (random.nextInt(12)) {
            case 0: case 1: case 2:
                return stringLeaf();
            case 3:
                return "UPPER(" + stringExpr(depth + 1) + ")";
            case 4:
                return "LOWER(" + stringExpr(depth + 1) + ")";
            case 5:
                return "TRIM(" + stringExpr(depth + 1) + ")";
            case 6:
                return mysql ? "CONCAT(" + stringExpr(depth + 1) + ", " + stringExpr(depth + 1) + ")"
                        : "(" + stringExpr(depth + 1) + " || " + stringExpr(depth + 1) + ")";
            case 7:
                return "COALESCE(" + stringExpr(depth + 1) + ", " + stringLeaf() + ")";
            case 8:
                return "SUBSTR(" + stringExpr(depth + 1) + ", " + (1 + random.nextInt(3)) + ", " + random.nextInt(3) + ")";
            case 9:
                return "REPLACE(" + stringExpr(depth + 1) + ", " + STRING_LITERALS[random.nextInt(STRING_LITERALS.length)] + ", "
                        + STRING_LITERALS[random.nextInt(STRING_LITERALS.length)] + ")";
            case 10:
                return "NULLIF(" + stringExpr(depth + 1) + ", " + stringLeaf() + ")";
            default:
                return "CASE WHEN " + condition(depth + 1) + " THEN " + stringExpr(depth + 1) + " ELSE " + stringLeaf() + " END";
        }
    }

    /** MySQL's functions the translator writes for the other engines (docs/translator.md, Functions). */
    private String mysqlInt(int depth) {
        switch (random.nextInt(6)) {
            case 5:
                String[] fields = {"DAYOFWEEK", "WEEKDAY", "QUARTER", "DAYOFYEAR"};
                return fields[random.nextInt(fields.length)] + "(" + (random.nextBoolean() ? "dt" : "ts") + ")";
            case 0:
                return "GREATEST(" + intExpr(depth + 1) + ", " + intLeaf() + (random.nextBoolean() ? ", " + intLeaf() : "") + ")";
            case 1:
                return "LEAST(" + intExpr(depth + 1) + ", " + intLeaf() + ")";
            case 2:
                return "IF(" + condition(depth + 1) + ", " + intExpr(depth + 1) + ", " + intLeaf() + ")";
            case 3:
                return "INSTR(" + stringExpr(depth + 1) + ", " + STRING_LITERALS[random.nextInt(STRING_LITERALS.length)] + ")";
            default:
                return "LOCATE(" + STRING_LITERALS[random.nextInt(STRING_LITERALS.length)] + ", " + stringExpr(depth + 1) + ")";
        }
    }

    private String mysqlDecimal(int depth) {
        switch (random.nextInt(3)) {
            case 0:
                return (random.nextBoolean() ? "GREATEST(" : "LEAST(") + decimalExpr(depth + 1) + ", " + decimalLeaf() + ")";
            case 1:
                return "TRUNCATE(" + decimalExpr(depth + 1) + ", " + random.nextInt(3) + ")";
            default:
                return "IF(" + condition(depth + 1) + ", " + decimalExpr(depth + 1) + ", " + decimalLeaf() + ")";
        }
    }

    /**
     * MySQL's date arithmetic, DATE_FORMAT and DATEDIFF, which each engine spells its own way (leap days, month ends,
     * across midnight, fractions of seconds).
     */
    private String mysqlDateArithmetic() {
        int k = random.nextInt(61) - 30;
        String[] dateUnits = {"DAY", "WEEK", "MONTH", "QUARTER", "YEAR"};
        String[] timeUnits = {"SECOND", "MINUTE", "HOUR", "DAY", "MONTH", "YEAR"};
        int form = random.nextInt(6);
        String count = form < 4 && random.nextInt(4) == 0 ? param((long) k) : Integer.toString(k);
        switch (form) {
            case 4:
                String[] formats = {"'%Y-%m'", "'%d.%m.%y'", "'%Y%m%d %T'", "'%H:%i:%s'", "'[%Y] %%'", "'%W, %M %e'", "'%a %b %c'"};
                return "DATE_FORMAT(" + (random.nextBoolean() ? "dt" : "ts") + ", " + formats[random.nextInt(formats.length)] + ")";
            case 5:
                String since = random.nextBoolean() ? "ts" : "DATE '2000-03-01'";
                return "DATEDIFF(" + (random.nextBoolean() ? "dt" : "ts") + ", " + since + ")";
            case 0:
                return "DATE_ADD(dt, INTERVAL " + count + " " + dateUnits[random.nextInt(dateUnits.length)] + ")";
            case 1:
                return "DATE_SUB(ts, INTERVAL " + count + " " + timeUnits[random.nextInt(timeUnits.length)] + ")";
            case 2:
                return "dt - INTERVAL " + count + " " + dateUnits[random.nextInt(dateUnits.length)];
            default:
                return "ts + INTERVAL " + count + " " + timeUnits[random.nextInt(timeUnits.length)];
        }
    }

    /** PostgreSQL's own integer expressions the translator writes for the other engines (docs/translator.md). */
    private String postgresqlInt(int depth) {
        switch (random.nextInt(4)) {
            case 0:
                String[] fields = {"DOW", "ISODOW", "DOY", "QUARTER"};
                return "EXTRACT(" + fields[random.nextInt(fields.length)] + " FROM " + q(random.nextBoolean() ? "dt" : "ts") + ")";
            case 1:
                return "(" + q("dt") + " - DATE '" + DATES[random.nextInt(DATES.length)] + "')";
            case 2:
                return "LENGTH(CONCAT(" + stringExpr(depth + 1) + ", " + intExpr(depth + 1) + "))";
            default:
                return "LENGTH((" + intExpr(depth + 1) + ")::text)";
        }
    }

    /** PostgreSQL's date arithmetic: a DATE plus days, an INTERVAL of one unit (a DATE so moved is a TIMESTAMP). */
    private String postgresqlDateArithmetic() {
        int k = random.nextInt(61) - 30;
        String[] units = {"second", "minutes", "hour", "days", "week", "month", "years"};
        switch (random.nextInt(4)) {
            case 3:
                String[] truncated = {"day", "week", "month", "year"};
                return "date_trunc('" + truncated[random.nextInt(truncated.length)] + "', " + q("ts") + ")";
            case 0:
                return q("dt") + (k < 0 ? " - " + -k : " + " + k);
            case 1:
                return q("dt") + " + " + param((long) k);
            default:
                return q(random.nextBoolean() ? "ts" : "dt") + (random.nextBoolean() ? " + " : " - ") + "INTERVAL '" + k + " "
                        + units[random.nextInt(units.length)] + "'";
        }
    }

    /** PostgreSQL's own string expressions: CONCAT skipping NULLs, LEFT/RIGHT of a negative count, a number as text. */
    private String postgresqlString(int depth) {
        switch (random.nextInt(4)) {
            case 0:
                return "CONCAT(" + stringExpr(depth + 1) + ", " + (random.nextBoolean() ? stringExpr(depth + 1) : intExpr(depth + 1))
                        + (random.nextBoolean() ? ", NULL" : "") + ")";
            case 1:
                return (random.nextBoolean() ? "LEFT(" : "RIGHT(") + stringExpr(depth + 1) + ", " + (random.nextInt(7) - 4) + ")";
            case 2:
                return "CAST(" + intExpr(depth + 1) + " AS TEXT)";
            default:
                return "(" + intExpr(depth + 1) + ")::text";
        }
    }

    /** A PostgreSQL condition of its own: ILIKE, IS [NOT] DISTINCT FROM (columns and literals only: Derby binds it thrice). */
    private String postgresqlCondition() {
        if (random.nextBoolean()) {
            return stringColumn() + (random.nextBoolean() ? " NOT" : "") + " ILIKE '"
                    + STRING_LITERALS[random.nextInt(STRING_LITERALS.length)].replace("'", "").toUpperCase(java.util.Locale.ROOT)
                    + (random.nextBoolean() ? "%" : "_") + "'";
        }
        boolean strings = random.nextBoolean();
        String a = strings ? stringColumn() : intColumn();
        String b = strings ? (random.nextBoolean() ? stringColumn() : STRING_LITERALS[random.nextInt(STRING_LITERALS.length)])
                : (random.nextBoolean() ? intColumn() : Integer.toString(random.nextInt(21) - 10));
        return a + " IS " + (random.nextBoolean() ? "NOT " : "") + "DISTINCT FROM " + b;
    }

    /** Starts and counts at and below 0 too: MySQL counts them its own way, which the translator writes out. */
    private String mysqlString(int depth) {
        switch (random.nextInt(8)) {
            case 6:
                String pad = random.nextBoolean() ? "'*'" : "'ab'";
                return (random.nextBoolean() ? "LPAD(" : "RPAD(") + (random.nextInt(4) == 0 ? intExpr(depth + 1) : stringExpr(depth + 1))
                        + ", " + (1 + random.nextInt(5)) + ", " + pad + ")";
            case 7:
                return "CONCAT_WS(" + (random.nextBoolean() ? "','" : "' - '") + ", " + stringExpr(depth + 1) + ", "
                        + (random.nextBoolean() ? stringExpr(depth + 1) : intExpr(depth + 1)) + ")";
            case 5:
                return (random.nextBoolean() ? "GREATEST(" : "LEAST(") + stringExpr(depth + 1) + ", " + stringLeaf() + ")";
            case 0:
                return "SUBSTRING(" + stringExpr(depth + 1) + ", " + (random.nextInt(8) - 4)
                        + (random.nextBoolean() ? ", " + (random.nextInt(5) - 1) : "") + ")";
            case 1:
                return "MID(" + stringExpr(depth + 1) + ", " + intExpr(depth + 1) + ", " + intLeaf() + ")";
            case 2:
                return "LEFT(" + stringExpr(depth + 1) + ", " + (random.nextInt(6) - 1) + ")";
            case 3:
                return "RIGHT(" + stringExpr(depth + 1) + ", " + (random.nextInt(6) - 1) + ")";
            default:
                return "IF(" + condition(depth + 1) + ", " + stringExpr(depth + 1) + ", " + stringLeaf() + ")";
        }
    }

    private String stringLeaf() {
        return random.nextInt(3) > 0 ? stringColumn()
                : STRING_LITERALS[random.nextInt(STRING_LITERALS.length)];
    }

    private String condition(int depth) {
        if (depth >= DEPTH_MAX) return intLeaf() + " < " + intLeaf();
        if (postgresql && random.nextInt(MYSQL_FUNCTION_ONE_IN) == 0) return postgresqlCondition();
        switch (random.nextInt(18)) {
            case 16:
                return random.nextBoolean() ? q("dt") + " " + comparison() + " " + dateValue()
                        : q("ts") + " " + comparison() + " " + timestampValue();
            case 17:
                if (random.nextBoolean()) return q("ts") + " BETWEEN " + timestampValue() + " AND " + timestampValue();
                return q("dt") + (random.nextBoolean() ? " BETWEEN " + dateValue() + " AND " + dateValue()
                        : " IS " + (random.nextBoolean() ? "" : "NOT ") + "NULL");
            case 14:
                return parameterComparison();
            case 15:
                return stringColumn() + " IN (" + stringValue() + ", " + stringValue() + ")";
            case 0:
                return intExpr(depth + 1) + " " + comparison() + " " + intExpr(depth + 1);
            case 1:
                return stringExpr(depth + 1) + " " + comparison() + " " + stringExpr(depth + 1);
            case 2:
                return intExpr(depth + 1) + " IS " + (random.nextBoolean() ? "" : "NOT ") + "NULL";
            case 3:
                return stringExpr(depth + 1) + " IS NULL";
            case 4:
                return stringLeaf() + " LIKE " + STRING_LITERALS[random.nextInt(STRING_LITERALS.length)].replace("'", "")
                        .transform(p -> "'" + p + (random.nextBoolean() ? "%" : "_") + "'");
            case 5:
                return "NOT (" + condition(depth + 1) + ")";
            case 6:
                return "(" + condition(depth + 1) + " AND " + condition(depth + 1) + ")";
            case 7:
                return "(" + condition(depth + 1) + " OR " + condition(depth + 1) + ")";
            case 8:
                return intExpr(depth + 1) + " BETWEEN " + intLeaf() + " AND " + intLeaf();
            case 9:
                return intExpr(depth + 1) + " IN (" + intLeaf() + ", " + intLeaf() + ", " + intLeaf() + ")";
            case 10:
                return stringExpr(depth + 1) + " IN (" + stringLeaf() + ", " + STRING_LITERALS[random.nextInt(STRING_LITERALS.length)]
                        + ")";
            case 11:
                return stringExpr(depth + 1) + " BETWEEN " + stringLeaf() + " AND " + stringLeaf();
            case 12:
                return stringExpr(depth + 1) + " LIKE '" + "%_ab".charAt(random.nextInt(4)) + "%_ b".charAt(random.nextInt(4)) + "'";
            default:
                return decimalExpr(depth + 1) + " " + comparison() + " " + decimalLeaf();
        }
    }

    /** A column compared with a {@code ?}: the marker's type comes from the column on every engine. */
    private String parameterComparison() {
        switch (random.nextInt(8)) {
            case 4:
                return q("d") + " BETWEEN " + param(decimalValue()) + " AND " + param(decimalValue());
            case 5:
                return q("d") + " IN (" + param(decimalValue()) + ", " + param(decimalValue()) + ")";
            case 6:
                return param(decimalValue()) + " " + comparison() + " " + (random.nextBoolean() ? q("d") : decimalExpr(2));
            case 7:
                return "(" + q("d") + " * " + param(decimalValue()) + ") " + comparison() + " " + decimalLeaf();
            case 0:
                return intColumn() + " " + comparison() + " " + param((long) random.nextInt(21) - 10);
            case 1:
                return q("d") + " " + comparison() + " " + param(decimalValue());
            case 2:
                return stringColumn() + " LIKE " + param(
                        STRING_VALUES[random.nextInt(STRING_VALUES.length)] + (random.nextBoolean() ? "%" : "_"));
            default:
                return stringColumn() + " " + comparison() + " " + stringValue();
        }
    }

    /** Dates around the table's: a leap day, the turn of the millennium, the epoch. */
    private static final String[] DATES = {"2024-02-29", "2024-03-01", "2000-01-01", "1999-12-31", "1970-01-01", "2024-12-31"};

    /** Timestamps around the table's: a microsecond before and after midnight, half a second, the epoch's first second. */
    private static final String[] TIMESTAMPS = {"2024-02-29 23:59:59.999999", "2024-03-01 00:00:00", "2000-01-01 00:00:00",
        "1999-12-31 12:30:00.5", "2024-12-31 00:00:00.000001", "1970-01-01 00:00:01"};

    /** A timestamp literal, or a {@code ?} bound to a {@link java.sql.Timestamp}. */
    private String timestampValue() {
        String at = TIMESTAMPS[random.nextInt(TIMESTAMPS.length)];
        return random.nextInt(3) == 0 ? param(java.sql.Timestamp.valueOf(at)) : "TIMESTAMP '" + at + "'";
    }

    /** A date literal, or a {@code ?} bound to a {@link java.sql.Date}. */
    private String dateValue() {
        String date = DATES[random.nextInt(DATES.length)];
        return random.nextInt(3) == 0 ? param(java.sql.Date.valueOf(date)) : "DATE '" + date + "'";
    }

    /** A HAVING condition over aggregates of the group. */
    private String havingCondition() {
        switch (random.nextInt(4)) {
            case 0:
                return "COUNT(*) > " + random.nextInt(3);
            case 1:
                return "MIN(" + intColumn() + ") " + comparison() + " " + (random.nextInt(21) - 10);
            case 2:
                return "MAX(" + stringColumn() + ") " + comparison() + " " + STRING_LITERALS[random.nextInt(STRING_LITERALS.length)];
            default:
                return "SUM(d) IS " + (random.nextBoolean() ? "" : "NOT ") + "NULL";
        }
    }

    private String stringValue() {
        return param(STRING_VALUES[random.nextInt(STRING_VALUES.length)]);
    }

    /** A decimal of two or three places (three: more than the DECIMAL(9, 2) column keeps). */
    /** A double that is exact in binary (a multiple of 1/8), so no engine's conversion of it differs. */
    private double doubleValue() {
        return random.nextInt(2001) / 8.0 - 125;
    }

    /** A whole number as a decimal: no engine's cut of a {@code ?} to its place changes it. */
    private BigDecimal wholeDecimal() {
        return BigDecimal.valueOf(random.nextInt(21) - 10);
    }

    private BigDecimal decimalValue() {
        int places = 2 + random.nextInt(2);
        return BigDecimal.valueOf(random.nextInt(4001) - 2000, places);
    }

    private String comparison() {
        String[] ops = {"=", "<>", "<", "<=", ">", ">="};
        return ops[random.nextInt(ops.length)];
    }
}
