package org.shepherd.hetero;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.shepherd.translator.dialect.Dialect;

/**
 * Each dialect's list of reserved words ({@link Dialect#reservesWord}) checked against its engine: every word that the
 * engine does not take as an unquoted column name (in CREATE TABLE, or read back from a derived table, where some
 * words mean something else: PostgreSQL's {@code user} is CURRENT_USER) must be on the list, since the translator
 * quotes a name only when the list says so. Candidates: every keyword PostgreSQL and MariaDB know, the lists
 * themselves, and the other engines' clock words and aggregate names.
 */
class ReservedWordsTest {

    private static final List<String> EXTRA_CANDIDATES = List.of("MIN", "MAX", "SUM", "COUNT", "AVG", "EVERY", "TODAY",
            "NOW", "SYSDATE", "SYSTIMESTAMP", "VALUE", "TOP", "MINUS", "ROWNUM", "LEVEL", "UPPER", "LOWER", "YEAR", "MONTH",
            "DAY", "HOUR", "MINUTE", "SECOND", "DATE", "TIME", "TIMESTAMP", "POSITION", "START", "END", "FIRST", "LAST");

    /** Words probed in one statement; a statement that fails is probed again in halves. */
    private static final int BATCH = 40;

    private static Engines engines;

    @BeforeAll
    static void startEngines() throws Exception {
        engines = Engines.start();
    }

    @AfterAll
    static void stopEngines() {
        if (engines != null) engines.close();
    }

    @Test
    void everyWordAnEngineDoesNotTakeAsAColumnNameIsOnItsList() throws Exception {
        Set<String> candidates = new TreeSet<>(EXTRA_CANDIDATES);
        for (Engine e : engines.all()) {
            String keywords = e.dialect().family() == Dialect.Family.POSTGRESQL ? "SELECT word FROM pg_get_keywords()"
                    : e.dialect().family() == Dialect.Family.MYSQL ? "SELECT WORD FROM information_schema.KEYWORDS" : null;
            if (keywords != null) {
                try (Statement s = e.connection().createStatement(); ResultSet rs = s.executeQuery(keywords)) {
                    while (rs.next()) {
                        String w = rs.getString(1).toUpperCase(Locale.ROOT);
                        if (w.matches("[A-Z_][A-Z0-9_]*")) candidates.add(w);
                    }
                }
                e.connection().rollback();
            }
        }
        for (Engine e : engines.all()) candidates.addAll(e.dialect().reservedWords());
        List<String> failures = new ArrayList<>();
        for (Engine e : engines.all()) {
            Set<String> reserved = new TreeSet<>();
            probe(e, new ArrayList<>(candidates), reserved);
            Set<String> missing = new TreeSet<>(reserved);
            missing.removeAll(e.dialect().reservedWords());
            if (!missing.isEmpty()) {
                failures.add(e.name() + " does not take " + missing.size() + " words as column names that its dialect does not"
                        + " list: " + String.join(",", missing) + "\n  (all it refuses: " + String.join(",", reserved) + ")");
            }
        }
        assertThat(failures).as("reserved words missing from the dialects' lists").isEmpty();
    }

    /** Adds to {@code reserved} the words of {@code words} that {@code e} does not take as unquoted column names. */
    private static void probe(Engine e, List<String> words, Set<String> reserved) throws SQLException {
        for (int i = 0; i < words.size(); i += BATCH) {
            bisect(e, words.subList(i, Math.min(words.size(), i + BATCH)), reserved);
        }
    }

    private static void bisect(Engine e, List<String> words, Set<String> reserved) throws SQLException {
        if (takes(e, words)) return;
        if (words.size() == 1) {
            reserved.add(words.get(0));
            return;
        }
        int half = words.size() / 2;
        bisect(e, words.subList(0, half), reserved);
        bisect(e, words.subList(half, words.size()), reserved);
    }

    /**
     * Whether {@code e} takes every word as an unquoted column name: in CREATE TABLE, and read from a derived table in
     * a select list, a WHERE and an ORDER BY (HSQLDB's VALUE is a name in the first two, a keyword in a WHERE).
     */
    private static boolean takes(Engine e, List<String> words) throws SQLException {
        Dialect.Family f = e.dialect().family();
        StringBuilder columns = new StringBuilder();
        StringBuilder read = new StringBuilder();
        StringBuilder derived = new StringBuilder();
        StringBuilder where = new StringBuilder();
        for (String w : words) {
            String lower = w.toLowerCase(Locale.ROOT);
            String quoted = f == Dialect.Family.MYSQL ? "`" + lower + "`" : f == Dialect.Family.POSTGRESQL ? "\"" + lower + "\""
                    : "\"" + w + "\"";
            columns.append(columns.length() == 0 ? "" : ", ").append(lower).append(" INT");
            read.append(read.length() == 0 ? "" : ", ").append(lower);
            derived.append(derived.length() == 0 ? "" : ", ").append("7 AS ").append(quoted);
            where.append(where.length() == 0 ? "" : " AND ").append(lower).append(" = 7");
        }
        String from = f == Dialect.Family.DERBY ? " FROM SYSIBM.SYSDUMMY1" : f == Dialect.Family.HSQLDB ? " FROM (VALUES(0))" : "";
        Connection c = e.connection();
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT " + read + " FROM (SELECT " + derived + from + ") q WHERE " + where
                    + " ORDER BY " + read)) {
                if (!rs.next()) return false;
                for (int i = 1; i <= words.size(); i++) {
                    if (!"7".equals(rs.getString(i))) return false;
                }
            }
            s.execute("CREATE TABLE rw_probe (" + columns + ")");
            s.execute("DROP TABLE rw_probe");
            c.commit();
            return true;
        } catch (SQLException refused) {
            c.rollback();
            return false;
        }
    }
}
