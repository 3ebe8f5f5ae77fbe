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
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.shepherd.testkit.DdlSequence;
import org.shepherd.translator.dialect.Dialect;

/**
 * Random schema migrations ({@link DdlSequence}), written as a Derby, HSQLDB or MySQL client writes them, translated
 * and run side by side on embedded Derby and HSQLDB: after every step both engines must have accepted or refused it
 * alike and hold the same rows, so that what one engine does differently after a change (a default not applied, a NULL
 * let in, a rename lost) shows as a difference. Seeded: a failure names its seed, and {@code -Dddl.seed=S} replays that
 * sequence alone, {@code -Dddl.sequences=N} runs N sequences instead of 36.
 */
class DdlSequenceCorpusTest {

    private static final long SEED = 20_261_127L;
    private static final int SEQUENCES = 36;
    private static final int STEPS = 60;
    private static final AtomicInteger DATABASES = new AtomicInteger();

    @Test
    void randomSchemaChangesLeaveDerbyAndHsqldbAlike() throws Exception {
        Long only = Long.getLong("ddl.seed");
        int sequences = only != null ? 1 : Integer.getInteger("ddl.sequences", SEQUENCES);
        int done = 0;
        int refused = 0;
        for (int i = 0; i < sequences; i++) {
            long seed = only != null ? only : SEED + i;
            DdlSequence.Client client = DdlSequence.Client.values()[new Random(seed).nextInt(3)];
            try (SideBySide engines = new SideBySide(client)) {
                DdlSequence sequence = new DdlSequence(seed, client, engines).withSeveralChanges();
                try {
                    sequence.run(STEPS, engines::compareRows);
                } catch (AssertionError | Exception e) {
                    throw new AssertionError("DDL sequence with seed " + seed + " (replay: -Dddl.seed=" + seed + "), client "
                            + client + ", after:\n  " + String.join("\n  ", engines.log) + "\n" + e.getMessage(), e);
                }
                done += engines.done;
                refused += engines.refusedByTranslator;
            }
        }
        System.out.printf("DDL sequences: %d steps run on both engines, %d refused by the translator%n", done, refused);
        assertThat(done).as("steps that ran").isGreaterThan(refused * 3);
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

    /** Embedded Derby and HSQLDB, each step translated for both and run on both. */
    private static final class SideBySide implements DdlSequence.Target, AutoCloseable {
        final Connection derby;
        final Connection hsqldb;
        final String derbyUrl;
        final Translator translator;
        final DeterminismSource source = new FixedSource();
        final List<String> log = new ArrayList<>();
        int done;
        int refusedByTranslator;

        SideBySide(DdlSequence.Client client) throws SQLException {
            int n = DATABASES.incrementAndGet();
            derbyUrl = "jdbc:derby:memory:ddlseq" + n;
            derby = DriverManager.getConnection(derbyUrl + ";create=true");
            hsqldb = DriverManager.getConnection("jdbc:hsqldb:mem:ddlseq" + n, "SA", "");
            // the catalog reads the primary (here Derby) when a change made it forget a table, as the shepherd's does
            translator = new Translator(Dialect.forName(client.name()), List.of(Dialect.DERBY, Dialect.HSQLDB), 64,
                    new SchemaCatalog(t -> SchemaCatalog.columnsOf(derby, t)));
        }

        @Override
        public void close() throws SQLException {
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

        /**
         * Translates {@code sql} for Derby and HSQLDB and runs it on both: a refusal by the translator changes nothing;
         * otherwise both engines must accept it or both refuse it.
         */
        @Override
        public boolean run(String sql) throws SQLException {
            Translation t;
            try {
                t = translator.translate(sql);
                t.sqlFor(Dialect.DERBY);
                t.sqlFor(Dialect.HSQLDB);
            } catch (SQLException e) {
                log.add("(refused by the translator, " + e.getSQLState() + ") " + sql);
                refusedByTranslator++;
                return false;
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
            if (derbyOk) done++;
            return derbyOk;
        }

        @Override
        public long count(String sql) throws SQLException {
            try (Statement st = derby.createStatement(); ResultSet rs = st.executeQuery(translator.translate(sql)
                    .bind(List.of(), source).sqlFor(Dialect.DERBY))) {
                rs.next();
                return rs.getLong(1);
            }
        }

        void compareRows(String table, int rows) throws SQLException {
            Bound b = translator.translate("SELECT * FROM " + table + " ORDER BY id").bind(List.of(), source);
            List<String> fromDerby = rows(derby, b.sqlFor(Dialect.DERBY));
            List<String> fromHsqldb = rows(hsqldb, b.sqlFor(Dialect.HSQLDB));
            assertThat(fromHsqldb).as("rows on HSQLDB against Derby").isEqualTo(fromDerby);
            assertThat(fromDerby).as("row count against the rows inserted").hasSize(rows);
        }
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
