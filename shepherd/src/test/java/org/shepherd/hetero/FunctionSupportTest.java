package org.shepherd.hetero;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.shepherd.translator.Bound;
import org.shepherd.translator.DeterminismSource;
import org.shepherd.translator.Translator;
import org.shepherd.translator.dialect.Dialect;

/**
 * The translator's lists of functions an engine lacks ({@link Dialect#missingFunctions()}) checked against the real
 * engines: a call the translator refuses for an engine because the engine lacks the function must fail there when sent
 * as written (else the refusal turns away a statement that would run), and a call it lets through must not fail there
 * with "no such function" (else the engine's replicas would fail it after the primary ran it). Every name on a list has
 * a call here, so every list is checked whole.
 */
class FunctionSupportTest {

    /** One call per function name (the name is the text before the first parenthesis). */
    private static final List<String> CALLS = List.of("REPLACE('abc', 'b', 'x')", "LEFT('abc', 2)", "RIGHT('abc', 2)",
            "GREATEST(1, 2)", "GREATEST(id, 2)", "LEAST(1, 2)", "IF(1 = 1, 1, 2)", "IF(id, 1, 2)", "LPAD('a', 3, 'x')",
            "RPAD('a', 3, 'x')", "INSTR('abc', 'b')", "REPEAT('a', 3)", "REVERSE('abc')", "SPACE(3)",
            "TRANSLATE('abc', 'a', 'x')", "CONCAT_WS(',', 'a', 'b')", "DATE_FORMAT(CURRENT_TIMESTAMP, '%Y')",
            "DATEDIFF(CURRENT_DATE, CURRENT_DATE)", "FORMAT(1.5, 2)", "SUBSTRING_INDEX('a.b', '.', 1)",
            "SUBSTRING_INDEX('a.b', '.', 2)", "FIND_IN_SET('b', 'a,b')", "FIELD('b', 'a', 'b')", "ELT(1, 'a', 'b')",
            "POWER(2, 3)", "POW(2, 3)", "TRUNCATE(1.55, 1)", "TRUNC(1.55, 1)", "ASCII('a')", "CHR(65)",
            "TO_CHAR(CURRENT_TIMESTAMP, 'YYYY')", "STRCMP('a', 'b')", "LOG2(8)", "LOG10(100)", "LN(10)", "EXP(1)",
            "SQRT(4)", "MD5('a')", "SHA1('a')", "HEX(10)", "UNHEX('41')", "BIT_LENGTH('a')", "OCTET_LENGTH('a')",
            "INITCAP('ab')", "QUARTER(CURRENT_DATE)", "WEEK(CURRENT_DATE)", "DAYOFWEEK(CURRENT_DATE)",
            "DAYOFYEAR(CURRENT_DATE)", "DAYNAME(CURRENT_DATE)", "MONTHNAME(CURRENT_DATE)", "LAST_DAY(CURRENT_DATE)",
            "CONV('a', 16, 10)", "BIN(5)", "OCT(8)", "CBRT(8)", "BTRIM(' a ')", "SPLIT_PART('a,b', ',', 1)",
            "REGEXP_REPLACE('abc', 'b', 'x')", "UNIX_TIMESTAMP(CURRENT_TIMESTAMP)", "FROM_UNIXTIME(0)",
            "STR_TO_DATE('2020', '%Y')", "MAKEDATE(2020, 1)", "ISNULL(1)", "NVL2(1, 2, 3)", "DECODE(1, 1, 2)",
            "LOCATE('b', 'abc')", "WEEKDAY(CURRENT_DATE)", "YEARWEEK(CURRENT_DATE)", "DATE(CURRENT_TIMESTAMP)",
            "TIME(CURRENT_TIMESTAMP)", "SECOND(CURRENT_TIMESTAMP)", "SOUNDEX('a')", "DIFFERENCE('a', 'b')",
            "REGEXP_LIKE('abc', 'b')", "TO_DATE('2020-01-02', 'YYYY-MM-DD')", "TO_NUMBER('1')", "BITAND(1, 3)",
            "BIT_AND(1)", "DOUBLE(1)", "DIGITS(1)", "MONTHS_BETWEEN(CURRENT_DATE, CURRENT_DATE)",
            "ADD_MONTHS(CURRENT_DATE, 1)", "DATE_ADD(CURRENT_DATE, INTERVAL 1 DAY)", "DATE_SUB(CURRENT_DATE, INTERVAL 1 DAY)",
            "ADDDATE(CURRENT_DATE, 1)", "SUBDATE(CURRENT_DATE, 1)", "JSON_EXTRACT('{}', '$.a')",
            "TIMEDIFF(CURRENT_TIME, CURRENT_TIME)", "SEC_TO_TIME(1)", "TIME_TO_SEC(CURRENT_TIME)", "TO_DAYS(CURRENT_DATE)",
            "FROM_DAYS(1)", "PERIOD_ADD(202001, 1)", "MICROSECOND(CURRENT_TIMESTAMP)", "BIT_COUNT(3)", "CRC32('a')",
            "SHA2('a', 256)", "TO_BASE64('a')", "FROM_BASE64('YQ==')", "ORD('a')", "MID('abc', 2, 1)",
            "CHARINDEX('b', 'abc')", "DATEADD(DAY, 1, CURRENT_DATE)", "ISNUMERIC('1')", "STUFF('abc', 1, 1, 'x')",
            "STRPOS('abc', 'b')", "DATE_TRUNC('day', CURRENT_TIMESTAMP)", "UPPER('a')", "LCASE('A')", "IFNULL(1, 2)",
            "SUBSTRING('abc', 2)", "MOD(5, 2)", "ABS(-1)", "CEIL(1.5)", "FLOOR(1.5)", "GROUP_CONCAT(id)",
            "STRING_AGG(CAST(id AS VARCHAR(5)), ',')", "LISTAGG(CAST(id AS VARCHAR(5)), ',')", "DIV(5, 2)");

    /**
     * Names an engine has with other arguments or another meaning: PostgreSQL's FORMAT formats strings, its DECODE and
     * MariaDB's decode binary data, its TO_NUMBER takes a format and its BIT_COUNT binary strings; HSQLDB's ISNULL takes
     * two arguments, its TO_BASE64 binary strings and its LISTAGG needs WITHIN GROUP; PostgreSQL has REGEXP_LIKE since
     * 15 (this is 14). They are not refused, since a call of the engine's own kind runs; a call of another engine's kind
     * fails there after the primary ran it, and the statement is then aborted without blaming the primary
     * ({@code TranslationGapTest}).
     */
    private static final Map<Dialect.Family, Set<String>> SAME_NAME_OTHER_MEANING = Map.of(
            Dialect.Family.POSTGRESQL, Set.of("FORMAT", "DECODE", "TO_NUMBER", "BIT_COUNT", "REGEXP_LIKE"),
            Dialect.Family.MYSQL, Set.of("DECODE"),
            Dialect.Family.HSQLDB, Set.of("ISNULL", "TO_BASE64", "LISTAGG"));

    /** Client dialects whose calls are translated (the names pass through each alike; GREATEST's NULL rule differs). */
    private static final List<String> CLIENTS = List.of("mysql", "postgresql", "derby");

    private static Engines engines;

    @BeforeAll
    static void startEngines() throws Exception {
        engines = Engines.start();
        for (Engine e : engines.all()) {
            try (Statement s = e.connection().createStatement()) {
                s.execute("CREATE TABLE fn_one (id INTEGER NOT NULL PRIMARY KEY)");
                s.execute("INSERT INTO fn_one (id) VALUES (1)");
            }
            e.connection().commit();
        }
    }

    @AfterAll
    static void stopEngines() throws SQLException {
        if (engines == null) {
            return;
        }
        try {
            for (Engine e : engines.all()) {
                try (Statement s = e.connection().createStatement()) {
                    s.execute("DROP TABLE fn_one");
                }
                e.connection().commit();
            }
        } finally {
            engines.close();
        }
    }

    @Test
    void everyListedFunctionHasACallHere() {
        Set<String> probed = new TreeSet<>();
        CALLS.forEach(c -> probed.add(name(c)));
        for (Engine e : engines.all()) {
            assertThat(probed).as("%s's missing functions, each with a call in CALLS", e.name())
                    .containsAll(e.dialect().missingFunctions());
        }
    }

    @Test
    void aCallIsRefusedForAnEngineExactlyWhenTheEngineCannotRunIt() throws Exception {
        List<String> failures = new ArrayList<>();
        Map<String, Translator> translators = new LinkedHashMap<>();
        for (String client : CLIENTS) {
            translators.put(client, new Translator(Dialect.forName(client), 1_000));
        }
        for (Engine e : engines.all()) {
            for (String call : CALLS) {
                String sql = "SELECT " + call + " AS v FROM fn_one";
                SQLException raw = run(e, sql);
                boolean lacks = refusedAsWritten(raw);
                if (e.dialect().lacksFunction(name(call)) && !lacks) {
                    failures.add(e.name() + ": " + name(call) + " is listed as missing, but " + sql + " ran there"
                            + (raw == null ? "" : " (it failed with " + raw.getSQLState() + ": " + raw.getMessage() + ")"));
                }
                for (Map.Entry<String, Translator> t : translators.entrySet()) {
                    check(e, t.getKey(), t.getValue(), sql, raw, failures);
                }
            }
        }
        assertThat(failures).as("calls whose refusal or translation does not match what the engine runs").isEmpty();
    }

    /**
     * Values each engine computes for itself, as the engine spells them: the clock, random numbers and UUIDs, and what a
     * replica knows of its own server, connection, transaction, role and database. Each runs on its engine as written
     * (so the entry is real), and the translator for a client of that engine either pins it (a marker the shepherd binds
     * once for every replica, and the statement runs there with it) or refuses it with 0A000; none reaches a replica.
     */
    private static final Map<Dialect.Family, List<String>> PER_REPLICA_VALUES = Map.of(
            Dialect.Family.DERBY, List.of("RANDOM()", "CURRENT_TIMESTAMP", "CURRENT TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME",
                    "CURRENT_USER", "SESSION_USER", "USER", "IDENTITY_VAL_LOCAL()"),
            Dialect.Family.HSQLDB, List.of("UNIX_TIMESTAMP()", "UNIX_MILLIS()", "TODAY", "SYSDATE", "NOW()", "NOW",
                    "CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "CURDATE()", "CURTIME()", "RAND()", "UUID()", "SESSION_ID()",
                    "TRANSACTION_ID()", "ACTION_ID()", "DATABASE_VERSION()", "TRANSACTION_SIZE()", "SESSION_TIMEZONE()",
                    "DATABASE_TIMEZONE()", "DATABASE_NAME()", "SESSION_ISOLATION_LEVEL()", "DATABASE_ISOLATION_LEVEL()",
                    "IS_AUTOCOMMIT()", "IS_READONLY_SESSION()", "IS_READONLY_DATABASE()",
                    "CURRENT_ROLE", "CURRENT_CATALOG", "CURRENT_USER", "IDENTITY()"),
            Dialect.Family.POSTGRESQL, List.of("now()", "clock_timestamp()", "statement_timestamp()", "transaction_timestamp()",
                    "timeofday()", "random()", "gen_random_uuid()", "current_database()", "current_catalog", "current_role",
                    "current_user", "inet_client_addr()", "inet_client_port()", "inet_server_addr()", "inet_server_port()",
                    "pg_postmaster_start_time()", "pg_conf_load_time()", "txid_current()", "pg_backend_pid()",
                    "current_query()", "pg_current_snapshot()", "txid_current_snapshot()", "txid_current_if_assigned()",
                    "setseed(0.5)", "'now'::timestamp", "CAST('today' AS DATE)", "TIMESTAMP 'tomorrow'"),
            Dialect.Family.MYSQL, List.of("UNIX_TIMESTAMP()", "UTC_DATE()", "UTC_DATE", "UTC_TIME()", "UTC_TIMESTAMP()",
                    "NOW()", "SYSDATE()", "CURDATE()", "CURTIME()", "LOCALTIME", "RAND()", "UUID()", "UUID_SHORT()",
                    "SYS_GUID()", "CONNECTION_ID()", "CURRENT_ROLE()", "RANDOM_BYTES(4)", "USER()", "CURRENT_USER()",
                    "LAST_INSERT_ID()", "ROW_COUNT()", "FOUND_ROWS()", "MASTER_POS_WAIT('f', 4, 0.01)"));

    @Test
    void everyValueAnEngineComputesForItselfIsPinnedOrRefused() throws Exception {
        List<String> failures = new ArrayList<>();
        for (Engine e : engines.all()) {
            Translator translator = new Translator(e.dialect(), 1_000);
            for (String value : PER_REPLICA_VALUES.get(e.dialect().family())) {
                String sql = "SELECT " + value + " AS v FROM fn_one";
                SQLException raw = run(e, sql);
                if (raw != null) {
                    failures.add(e.name() + ": " + sql + " does not run there as written (" + raw.getMessage() + ")");
                    continue;
                }
                Bound bound;
                try {
                    bound = translator.translate(sql).bind(List.of(), sessionSource());
                    bound.sqlFor(e.dialect());
                } catch (SQLException refused) {
                    if (!"0A000".equals(refused.getSQLState())) {
                        failures.add(e.name() + ": " + sql + " fails with " + refused.getSQLState() + " (" + refused.getMessage()
                                + "), not refused with 0A000");
                    }
                    continue;
                }
                String translated = bound.sqlFor(e.dialect());
                if (bound.parameters(e.dialect()).isEmpty()) {
                    failures.add(e.name() + ": " + sql + " reaches the replica as " + translated + ", neither pinned nor refused");
                    continue;
                }
                Observation o = AnswerReader.run(e, bound, null);
                rollback(e);
                if (o.error() != null) {
                    failures.add(e.name() + ": " + sql + " is pinned as " + translated + ", which fails there: " + o.error());
                }
            }
        }
        assertThat(failures).as("per-replica values that reach a replica, or that are pinned in a form it cannot run")
                .isEmpty();
    }

    /** The fixed clock and generator, with a session's user and latest generated key (as a session has them). */
    private static DeterminismSource sessionSource() {
        DeterminismSource fixed = AnswerReader.fixedSource();
        return new DeterminismSource() {
            @Override
            public Instant now() {
                return fixed.now();
            }

            @Override
            public double random() {
                return fixed.random();
            }

            @Override
            public UUID uuid() {
                return fixed.uuid();
            }

            @Override
            public ZoneId zone() {
                return fixed.zone();
            }

            @Override
            public String sessionUser() {
                return "app";
            }

            @Override
            public Long lastInsertId() {
                return 7L;
            }
        };
    }

    private static void check(Engine e, String client, Translator translator, String sql, SQLException raw,
            List<String> failures) throws SQLException {
        Bound bound;
        try {
            bound = translator.translate(sql).bind(List.of(), AnswerReader.fixedSource());
        } catch (SQLException notInThisClientsDialect) {
            return; // e.g. MySQL's INTERVAL for a Derby client: the call is checked with the other clients
        }
        String translated;
        try {
            translated = bound.sqlFor(e.dialect());
        } catch (SQLException refused) {
            assertThat(refused.getSQLState()).as(refused.getMessage()).isEqualTo("0A000");
            boolean asLacking = refused.getMessage().contains(" is not a function of " + e.dialect().name());
            if (asLacking && !refusedAsWritten(raw)) {
                failures.add(e.name() + " [" + client + "]: " + sql + " is refused (" + refused.getMessage()
                        + "), but the engine runs it as written" + (raw == null ? "" : " (" + raw.getSQLState() + ")"));
            }
            return;
        }
        Observation o = AnswerReader.run(e, bound, null);
        rollback(e);
        boolean otherMeaning = SAME_NAME_OTHER_MEANING.getOrDefault(e.dialect().family(), Set.of()).contains(name(sql));
        if (refusedAsWritten(o.error()) && !otherMeaning) {
            failures.add(e.name() + " [" + client + "]: " + sql + " is let through as " + translated + ", which fails with "
                    + o.error().getSQLState() + ": " + o.error().getMessage().replace('\n', ' '));
        }
    }

    /** A class-42 error: no such function (or a syntax the engine does not have). */
    private static boolean refusedAsWritten(SQLException e) {
        return e != null && e.getSQLState() != null && e.getSQLState().startsWith("42");
    }

    /** Runs {@code sql} as written; null when it ran, else its error. */
    private static SQLException run(Engine e, String sql) {
        Connection c = e.connection();
        try (Statement s = c.createStatement(); var rs = s.executeQuery(sql)) {
            rs.next();
            rs.getObject(1);
            return null;
        } catch (SQLException x) {
            return x;
        } finally {
            rollback(e);
        }
    }

    private static void rollback(Engine e) {
        try {
            e.connection().rollback();
        } catch (SQLException ignored) {
            // the next statement says more
        }
    }

    /** The function's name: the text before the first parenthesis (of the call, or of the SELECT of one call). */
    private static String name(String call) {
        String c = call.startsWith("SELECT ") ? call.substring("SELECT ".length()) : call;
        return c.substring(0, c.indexOf('(')).trim().toUpperCase(Locale.ROOT);
    }
}
