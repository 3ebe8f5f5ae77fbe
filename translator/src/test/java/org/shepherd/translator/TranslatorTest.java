package org.shepherd.translator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.shepherd.translator.dialect.Dialect;

class TranslatorTest {

    /** Derby refused two nested MIDs of a MySQL client, grown from 101 to 36,003 characters, with 42ZA0. */
    @Test
    void aStatementGrownTooComplexForDerbyIsRefusedUpFront() throws SQLException {
        Translator t = new Translator(Dialect.MYSQL, 16);
        Translation nested = t.translate("SELECT id, MID(MID(RIGHT(t, 2), MOD(i, 8), j), LOCATE('', s), j) AS v FROM bd_rq"
                + " ORDER BY id");
        assertThatThrownBy(() -> nested.sqlFor(Dialect.DERBY)).isInstanceOf(SQLException.class)
                .hasFieldOrPropertyWithValue("SQLState", "0A000").hasMessageContaining("too complex for Derby");
        assertThat(nested.sqlFor(Dialect.HSQLDB)).startsWith("SELECT id, SUBSTR(SUBSTR(");
        assertThat(t.translate("SELECT id, MID(RIGHT(t, 2), MOD(i, 8), j) AS v FROM bd_rq ORDER BY id").sqlFor(Dialect.DERBY))
                .as("one level: long, but Derby runs it").contains("SUBSTR(");
        StringBuilder rows = new StringBuilder("INSERT INTO t (a, b) VALUES (0, 'x')");
        for (int i = 1; i < 2_000; i++) rows.append(", (").append(i).append(", 'x')");
        assertThat(t.translate(rows.toString()).sqlFor(Dialect.DERBY)).as("long as written").hasSizeGreaterThan(16_384);
    }

    /** Counts how often each value was drawn, to prove one clock reading per execution. */
    private static class CountingSource implements DeterminismSource {
        int nowCalls;
        int randomCalls;

        @Override
        public Instant now() {
            nowCalls++;
            return Instant.parse("2026-01-02T03:04:05.123456789Z");
        }

        @Override
        public double random() {
            randomCalls++;
            return 0.25 * randomCalls;
        }

        @Override
        public UUID uuid() {
            return new UUID(1, 2);
        }

        @Override
        public ZoneId zone() {
            return ZoneOffset.UTC;
        }
    }

    /** Catalog queries are recognized by their qualified schema, once per statement text (the translation keeps it). */
    /** The table a write changes, without quotes (what the shepherd repairs when a secondary was outvoted on it). */
    @Test
    void aWriteNamesTheTableItChanges() throws SQLException {
        Translator mysql = new Translator(Dialect.MYSQL, 16);
        assertThat(mysql.translate("INSERT INTO `Pay` (id) VALUES (1)").changedTable()).isEqualTo("Pay");
        assertThat(mysql.translate("UPDATE shop.orders SET n = n + 1").changedTable()).isEqualTo("shop.orders");
        assertThat(mysql.translate("REPLACE INTO t (id) VALUES (1)").changedTable()).isEqualTo("t");
        Translator derby = new Translator(Dialect.DERBY, 16);
        assertThat(derby.translate("DELETE FROM \"Child\" WHERE id = 1").changedTable()).isEqualTo("Child");
        assertThat(derby.translate("SELECT id FROM t").changedTable()).isNull();
        assertThat(derby.translate("CREATE TABLE t2 (id INT)").changedTable()).isNull();
    }

    /**
     * A marker stored alone into a TIMESTAMP(p) column with p below 6, or into a TIME column, keeps p (0) fractional
     * digits of seconds; every other marker six (what the shepherd cuts a bound time value to, for every replica).
     */
    @Test
    void aMarkerStoredIntoATimeColumnKeepsItsPrecision() throws SQLException {
        Translator t = new Translator(Dialect.MYSQL, 16);
        t.translate("CREATE TABLE clock (id INT PRIMARY KEY, at6 DATETIME(6), t TIME, at3 DATETIME(3), at0 DATETIME(0))");
        Translation insert = t.translate("INSERT INTO clock (id, at6, t, at3, at0) VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)");
        int[] digits = new int[11];
        for (int k = 1; k <= 10; k++) digits[k] = insert.fractionDigits(k);
        assertThat(digits).containsExactly(0, 6, 6, 0, 3, 0, 6, 6, 0, 3, 0);
        Translation update = t.translate("UPDATE clock SET at3 = ?, at6 = ?, t = ? WHERE at3 = ?");
        assertThat(new int[] {update.fractionDigits(1), update.fractionDigits(2), update.fractionDigits(3),
            update.fractionDigits(4)}).containsExactly(3, 6, 0, 6);
        assertThat(t.translate("INSERT INTO clock VALUES (?, ?, ?, ?, ?)").fractionDigits(4)).isEqualTo(3);
        assertThat(t.translate("UPDATE clock SET at3 = TIMESTAMPADD(SECOND, 1, ?)").fractionDigits(1)).isEqualTo(6);
        assertThat(t.translate("SELECT id FROM clock WHERE at3 = ?").fractionDigits(1)).isEqualTo(6);
    }

    @Test
    void catalogQueriesAreRecognizedByTheirQualifiedSchema() throws SQLException {
        assertThat(Translator.readsCatalog("SELECT table_name FROM information_schema.tables")).isTrue();
        assertThat(Translator.readsCatalog("select * from INFORMATION_SCHEMA . COLUMNS where 1=1")).isTrue();
        assertThat(Translator.readsCatalog("SELECT tablename FROM SYS.SYSTABLES")).isTrue();
        assertThat(Translator.readsCatalog("SELECT tabname FROM syscat.tables")).isTrue();
        assertThat(Translator.readsCatalog("SELECT s_quantity FROM stock WHERE s_i_id = ?")).isFalse();
        assertThat(Translator.readsCatalog("SELECT sys_id FROM systems s WHERE s.sys_id = 1")).isFalse();
        assertThat(Translator.readsCatalog("SELECT x FROM mysys.t")).isFalse();
        Translator derby = new Translator(Dialect.DERBY, 8);
        assertThat(derby.translate("SELECT tablename FROM sys.systables ORDER BY tablename").readsCatalog()).isTrue();
        assertThat(derby.translate("SELECT a FROM t ORDER BY a").readsCatalog()).isFalse();
        assertThat(derby.translate("DELETE FROM t WHERE a IN (SELECT 1 FROM sys.systables)").readsCatalog())
                .as("only reads are looked at").isFalse();
    }

    /**
     * A statement the parser cannot read runs unchanged on replicas of the client's family: whatever each replica
     * would evaluate for itself is refused in it, outside literals, quoted names and comments.
     */
    /** MariaDB's RETURNING: the columns and labels are kept for the shepherd to answer; no engine is sent the clause. */
    @Test
    void insertReturningNamesItsColumnsAndRendersWithoutTheClause() throws SQLException {
        Translation t = new Translator(Dialect.MARIADB, 8).translate("INSERT INTO t (a) VALUES (?) RETURNING `id` AS `k`, id");
        assertThat(t.returning()).containsExactly(new Translation.Returned("`id`", "k"), new Translation.Returned("id", "id"));
        assertThat(t.sqlFor(Dialect.MARIADB)).isEqualTo("INSERT INTO t (a) VALUES (?)");
        assertThat(new Translator(Dialect.MARIADB, 8).translate("INSERT INTO t (a) VALUES (1)").returning()).isNull();
        assertThatThrownBy(() -> new Translator(Dialect.DERBY, 8).translate("INSERT INTO t (a) VALUES (1) RETURNING id"))
                .isInstanceOf(SQLException.class).hasMessageContaining("derby");
    }

    @Test
    void anUnparsedStatementIsRefusedWhenEachReplicaWouldEvaluateSomethingInIt() throws SQLException {
        Translator mysql = new Translator(Dialect.MARIADB, 8);
        for (String sql : List.of("INSERT DELAYED INTO t VALUES (NOW())", "UPDATE t SET a = CURRENT_TIMESTAMP WHERE b = ?",
                "INSERT INTO t VALUES (NEXT VALUE FOR s)", "SELECT @x := 1", "SELECT uuid_short() FROM t",
                "SELECT a FROM t WHERE b = 'x\\\\' AND c = NOW()")) {
            assertThatThrownBy(() -> mysql.refuseEvaluatedPerReplica(sql)).as(sql).isInstanceOf(SQLException.class)
                    .hasFieldOrPropertyWithValue("SQLState", "0A000");
        }
        for (String sql : List.of("SELECT 'NOW()' FROM t -- CURRENT_TIMESTAMP", "SELECT `now` FROM t /* @x */",
                "SELECT a FROM t WHERE b = 'it\\'s NOW()' # NOW()", "SELECT t.current_date, next, value FROM t WHERE c = ?",
                "SELECT \"NOW()\" FROM t")) {
            mysql.refuseEvaluatedPerReplica(sql);
        }
        Translator derby = new Translator(Dialect.DERBY, 8);
        derby.refuseEvaluatedPerReplica("SELECT 'a\\' FROM t WHERE x = 'b'"); // no backslash escapes outside MySQL
        assertThatThrownBy(() -> derby.refuseEvaluatedPerReplica("VALUES NEXT VALUE FOR app.s"))
                .hasFieldOrPropertyWithValue("SQLState", "0A000").hasMessageContaining("NEXT VALUE FOR");
    }

    /**
     * Twenty nested parentheses in a select list send JSqlParser's lookahead into exponential time (minutes): the parse
     * is given up at the timeout with 54001, and the refusal is not cached (a stalled machine may parse it in time).
     */
    @Test
    void aStatementThatTakesTooLongToParseIsRefusedAtTheTimeout() throws SQLException {
        Translator translator = new Translator(Dialect.DERBY, 8).withParseTimeoutMs(300);
        String slow = "SELECT " + "(".repeat(20) + "1" + ")".repeat(20) + " FROM t";
        assertThatThrownBy(() -> translator.translate(slow)).isInstanceOf(SQLException.class)
                .hasFieldOrPropertyWithValue("SQLState", "54001").hasMessageContaining("gave up after 300 ms");
        assertThat(translator.cacheSize()).isZero();
        // an ordinary statement under the default deadline: 300 ms is not a bound a cold JIT on a busy machine must meet
        translator.withParseTimeoutMs(Translator.PARSE_TIMEOUT_MS_DEFAULT);
        assertThat(translator.translate("SELECT (((1))) FROM t").sqlFor(Dialect.DERBY)).contains("(((1)))");
        assertThat(translator.cacheSize()).isEqualTo(1);
        assertThatThrownBy(() -> translator.withParseTimeoutMs(0)).isInstanceOf(IllegalArgumentException.class);
    }

    /** A statement nested too deeply for the parser's stack is refused with 54001, and the refusal is cached. */
    @Test
    void aStatementNestedTooDeeplyIsRefusedNotThrownAsAnError() throws SQLException {
        Translator translator = new Translator(Dialect.DERBY, List.of(Dialect.DERBY, Dialect.MARIADB), 8);
        String deep = "SELECT " + "(".repeat(50_000) + "1" + ")".repeat(50_000) + " FROM t";
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> translator.translate(deep)).isInstanceOf(SQLException.class)
                    .hasFieldOrPropertyWithValue("SQLState", "54001").hasMessageContaining("too complex");
        }
        assertThat(translator.translate("SELECT ((1)) FROM t").sqlFor(Dialect.MARIADB)).contains("((1))");
    }

    @Test
    void cacheHitReturnsTheSameTranslationWithoutReparsing() throws SQLException {
        Translator translator = new Translator(Dialect.DERBY, 2);
        Translation first = translator.translate("SELECT a FROM t WHERE b = ?");
        assertThat(translator.translate("SELECT a FROM t WHERE b = ?")).isSameAs(first);
        translator.translate("SELECT 1 FROM t");
        translator.translate("SELECT 2 FROM t");
        assertThat(translator.cacheSize()).isEqualTo(2);
        assertThat(translator.translate("SELECT a FROM t WHERE b = ?")).isNotSameAs(first);
    }

    @Test
    void rejectionsCarrySqlStateAndParserPosition() {
        Translator translator = new Translator(Dialect.DERBY, 8);
        assertThatThrownBy(() -> translator.translate("SELECT a FROM WHERE"))
                .isInstanceOf(SQLException.class)
                .hasFieldOrPropertyWithValue("SQLState", "42000")
                .hasMessageContaining("line 1, column");
        assertThatThrownBy(() -> translator.translate("SELECT a FROM t; DROP TABLE t"))
                .hasFieldOrPropertyWithValue("SQLState", "42000");
        assertThatThrownBy(() -> translator.translate("UPDATE t SET a = 1 LIMIT 3"))
                .hasFieldOrPropertyWithValue("SQLState", "0A000")
                .hasMessageContaining("WHERE");
        assertThatThrownBy(() -> translator.translate("INSERT INTO t (a) SELECT a FROM s FETCH FIRST 3 ROWS ONLY"))
                .hasFieldOrPropertyWithValue("SQLState", "0A000")
                .hasMessageContaining("ORDER BY");
    }

    @Test
    void connectionStateInAStatementIsRefusedWithTheReason() throws SQLException {
        Translator mysql = new Translator(Dialect.MARIADB, 8);
        for (String sql : List.of("SELECT GET_LOCK('jobs', 10)", "SELECT release_lock('jobs')", "SELECT RELEASE_ALL_LOCKS()")) {
            assertThatThrownBy(() -> mysql.translate(sql)).as(sql).hasFieldOrPropertyWithValue("SQLState", "0A000")
                    .hasMessageContaining("one database connection").hasMessageContaining("FOR UPDATE");
        }
        for (String sql : List.of("SELECT @n + 1 FROM t", "UPDATE t SET a = @a WHERE id = 1", "SELECT @@version",
                "SELECT a FROM t WHERE b = @`x`")) {
            assertThatThrownBy(() -> mysql.translate(sql)).as(sql).hasFieldOrPropertyWithValue("SQLState", "0A000")
                    .hasMessageContaining("variables").hasMessageContaining("parameter");
        }
        assertThat(mysql.translate("SELECT a FROM t WHERE b = 'x@y'").sqlFor(Dialect.MARIADB)).contains("'x@y'");
        Translator pg = new Translator(Dialect.POSTGRESQL, 8);
        assertThatThrownBy(() -> pg.translate("SELECT pg_advisory_lock(7)")).hasFieldOrPropertyWithValue("SQLState", "0A000")
                .hasMessageContaining("one database connection");
        assertThatThrownBy(() -> pg.translate("SELECT pg_try_advisory_xact_lock(7)"))
                .hasFieldOrPropertyWithValue("SQLState", "0A000").hasMessageContaining("differs on each replica");
        // the waiting, transaction-scoped lock orders transactions on every replica as a row lock does
        assertThat(pg.translate("SELECT pg_advisory_xact_lock(7)").sqlFor(Dialect.POSTGRESQL))
                .startsWith("SELECT pg_advisory_xact_lock(7)");
    }

    @Test
    void transactionStatementsAreRecognizedBehindCommentsAndInAnySpelling() throws SQLException {
        Translator translator = new Translator(Dialect.MARIADB, 8);
        assertThat(translator.translate("/* app */ COMMIT").transactionControl()).isEqualTo(TransactionControl.COMMIT);
        assertThat(translator.translate("-- note\nbegin work;").transactionControl()).isEqualTo(TransactionControl.BEGIN);
        Translation rollbackTo = translator.translate("ROLLBACK WORK TO SAVEPOINT sp_1");
        assertThat(rollbackTo.transactionControl()).isEqualTo(TransactionControl.ROLLBACK_TO_SAVEPOINT);
        assertThat(rollbackTo.savepointName()).isEqualTo("sp_1");
        assertThat(rollbackTo.kind()).isEqualTo(StatementKind.TRANSACTION);
        assertThat(translator.translate("release sp_1").sqlFor(Dialect.HSQLDB)).isEqualTo("RELEASE SAVEPOINT sp_1");
        Translation derbySavepoint = translator.translate("SAVEPOINT sp_2 ON ROLLBACK RETAIN CURSORS ON ROLLBACK RETAIN LOCKS");
        assertThat(derbySavepoint.transactionControl()).isEqualTo(TransactionControl.SAVEPOINT);
        assertThat(derbySavepoint.savepointName()).isEqualTo("sp_2");
        assertThat(derbySavepoint.sqlFor(Dialect.MARIADB)).isEqualTo("SAVEPOINT sp_2");
        assertThat(derbySavepoint.sqlFor(Dialect.DERBY)).isEqualTo("SAVEPOINT sp_2 ON ROLLBACK RETAIN CURSORS");
        assertThat(translator.translate("SAVEPOINT sp_3 UNIQUE ON ROLLBACK RETAIN CURSORS").savepointName()).isEqualTo("sp_3");
        Translation derbyRelease = translator.translate("RELEASE TO SAVEPOINT sp_2");
        assertThat(derbyRelease.transactionControl()).isEqualTo(TransactionControl.RELEASE_SAVEPOINT);
        assertThat(derbyRelease.savepointName()).isEqualTo("sp_2");
        assertThat(Translator.savepointStatementFor("savepoint a1;", Dialect.DERBY))
                .isEqualTo("SAVEPOINT a1 ON ROLLBACK RETAIN CURSORS");
        assertThat(Translator.savepointStatementFor("/* x */ ROLLBACK TO a1", Dialect.POSTGRESQL)).isEqualTo("ROLLBACK TO SAVEPOINT a1");
        assertThat(Translator.savepointStatementFor("COMMIT", Dialect.DERBY)).isNull();
        assertThat(Translator.savepointStatementFor("SELECT 1 FROM t", Dialect.DERBY)).isNull();
        assertThatThrownBy(() -> translator.translate("  ")).hasFieldOrPropertyWithValue("SQLState", "42000");
    }

    @Test
    void pinnedValuesAreDrawnOncePerExecutionAndSharedByEveryDialect() throws SQLException {
        Translator translator = new Translator(Dialect.DERBY, 8);
        Translation t = translator.translate("INSERT INTO t (a, b, c, d) SELECT ?, CURRENT_TIMESTAMP, RAND(), x FROM s "
                + "WHERE s.at < CURRENT_TIMESTAMP AND s.y IN (SELECT y FROM u WHERE u.r < RAND())");
        assertThat(t.kind()).isEqualTo(StatementKind.WRITE);
        assertThat(t.parameterCount()).isEqualTo(1);
        assertThat(t.nondeterministic()).extracting(PinnedSlot::kind).containsExactly(PinnedSlot.Kind.TIMESTAMP,
                PinnedSlot.Kind.RANDOM, PinnedSlot.Kind.TIMESTAMP, PinnedSlot.Kind.RANDOM);
        CountingSource source = new CountingSource();
        Bound bound = t.bind(List.of("p1"), source);
        assertThat(source.nowCalls).isEqualTo(1);
        assertThat(source.randomCalls).isEqualTo(2);
        Timestamp now = Timestamp.valueOf("2026-01-02 03:04:05.123456");
        for (Dialect d : Dialect.ALL) {
            assertThat(bound.parameters(d)).as(d.name()).containsExactly("p1", now, 0.25, now, 0.5);
            assertThat(bound.sqlFor(d)).doesNotContainIgnoringCase("CURRENT_TIMESTAMP").doesNotContainIgnoringCase("RAND(");
        }
        assertThatThrownBy(() -> t.bind(List.of(), source)).hasFieldOrPropertyWithValue("SQLState", "07001");
    }

    /**
     * Every clock an engine reads for itself is one pinned time: UNIX_TIMESTAMP() in seconds, HSQLDB's UNIX_MILLIS() in
     * milliseconds, UTC_DATE()/UTC_TIME() in UTC beside the session zone's CURRENT_DATE, all from the one reading.
     */
    @Test
    void epochAndUtcClocksAreTheStatementsOneTime() throws SQLException {
        CountingSource source = new CountingSource() {
            @Override
            public ZoneId zone() {
                return ZoneId.of("America/New_York"); // still the day before there
            }
        };
        Bound mysql = new Translator(Dialect.MYSQL, 8).translate("SELECT UNIX_TIMESTAMP() AS a, UTC_DATE() AS b, UTC_TIME"
                + " AS c, CURDATE() AS d, UNIX_TIMESTAMP(c) AS e FROM t").bind(List.of(), source);
        assertThat(source.nowCalls).isEqualTo(1);
        long seconds = Instant.parse("2026-01-02T03:04:05Z").getEpochSecond();
        assertThat(mysql.parameters(Dialect.MARIADB)).containsExactly(seconds, java.sql.Date.valueOf("2026-01-02"),
                java.sql.Time.valueOf("03:04:05"), java.sql.Date.valueOf("2026-01-01"));
        assertThat(mysql.sqlFor(Dialect.MARIADB)).doesNotContain("UNIX_TIMESTAMP()").contains("UNIX_TIMESTAMP(c)")
                .doesNotContain("UTC_");
        Bound hsqldb = new Translator(Dialect.HSQLDB, 8).translate("VALUES (UNIX_MILLIS(), TODAY)").bind(List.of(), source);
        assertThat(hsqldb.parameters(Dialect.HSQLDB)).containsExactly(seconds * 1000 + 123, java.sql.Date.valueOf("2026-01-01"));
    }

    /** MySQL's clocks give whole seconds, NOW(n) n digits; the other engines' microseconds: so are they pinned. */
    @Test
    void aMysqlClientsClockHasMysqlsDigitsOfTheSecond() throws SQLException {
        String sql = "SELECT NOW() AS a, NOW(3) AS b, CURRENT_TIMESTAMP AS c, UTC_TIMESTAMP() AS d, SYSDATE(6) AS e FROM t";
        Bound mysql = new Translator(Dialect.MYSQL, 8).translate(sql).bind(List.of(), new CountingSource());
        assertThat(mysql.parameters(Dialect.DERBY)).containsExactly(Timestamp.valueOf("2026-01-02 03:04:05"),
                Timestamp.valueOf("2026-01-02 03:04:05.123"), Timestamp.valueOf("2026-01-02 03:04:05"),
                Timestamp.valueOf("2026-01-02 03:04:05"), Timestamp.valueOf("2026-01-02 03:04:05.123456"));
        Bound postgresql = new Translator(Dialect.POSTGRESQL, 8).translate("SELECT now(), CURRENT_TIMESTAMP FROM t")
                .bind(List.of(), new CountingSource());
        assertThat(postgresql.parameters(Dialect.DERBY)).containsOnly(Timestamp.valueOf("2026-01-02 03:04:05.123456"));
    }

    /**
     * What a replica answers about itself (its connection, transaction, server, role, database) and PostgreSQL's clock
     * strings are refused with 0A000 wherever they stand; the clock functions and UUID generators are pinned.
     */
    @Test
    void whatEachReplicaWouldAnswerForItselfIsRefusedOrPinned() throws SQLException {
        Map<Dialect, List<String>> refused = Map.of(
                Dialect.MYSQL, List.of("CURRENT_ROLE()", "SCHEMA()", "RANDOM_BYTES(4)", "MASTER_POS_WAIT('f', 4)"),
                Dialect.POSTGRESQL, List.of("timeofday()", "current_database()", "current_catalog", "current_role",
                        "inet_client_addr()", "pg_postmaster_start_time()", "setseed(0.5)", "uuid_generate_v1()",
                        "'now'::timestamp", "CAST(' Today ' AS DATE)", "TIMESTAMP 'tomorrow'", "'yesterday'::date"),
                Dialect.HSQLDB, List.of("SESSION_ID()", "TRANSACTION_ID()", "DATABASE_VERSION()", "SESSION_TIMEZONE()",
                        "DATABASE_NAME()", "IS_AUTOCOMMIT()", "CURRENT_ROLE"));
        for (Map.Entry<Dialect, List<String>> e : refused.entrySet()) {
            for (String expression : e.getValue()) {
                for (String sql : List.of("SELECT " + expression + " FROM t", "UPDATE t SET a = " + expression)) {
                    assertThatThrownBy(() -> new Translator(e.getKey(), 8).translate(sql).sqlFor(e.getKey()))
                            .as(e.getKey().name() + ": " + sql).hasFieldOrPropertyWithValue("SQLState", "0A000");
                }
            }
        }
        assertThatThrownBy(() -> new Translator(Dialect.POSTGRESQL, 8).translate("CREATE TABLE t (a TIMESTAMP DEFAULT 'now')")
                .sqlFor(Dialect.POSTGRESQL)).hasFieldOrPropertyWithValue("SQLState", "0A000").hasMessageContaining("'now'");
        assertThat(new Translator(Dialect.POSTGRESQL, 8).translate("CREATE TABLE t (a VARCHAR(9) DEFAULT 'now', b DATE"
                + " DEFAULT '2020-01-01')").sqlFor(Dialect.POSTGRESQL)).contains("'now'");
        Translation pg = new Translator(Dialect.POSTGRESQL, 8).translate("SELECT clock_timestamp(), statement_timestamp(),"
                + " transaction_timestamp(), uuid_generate_v4(), 'now', CAST('2020-01-01' AS DATE) FROM t");
        assertThat(pg.nondeterministic()).extracting(PinnedSlot::kind).containsExactly(PinnedSlot.Kind.TIMESTAMP,
                PinnedSlot.Kind.TIMESTAMP, PinnedSlot.Kind.TIMESTAMP, PinnedSlot.Kind.UUID);
    }

    /**
     * A marker standing alone in a select list: Derby refuses it (42X34), HSQLDB types it VARCHAR whatever is bound; on
     * both it is cast to the type of the value bound (not in an INSERT's select list, where the column types it), and
     * bound to NULL it is a VARCHAR on every engine (MariaDB answers a column of type NULL).
     */
    @Test
    void aMarkerAloneInASelectListIsCastToItsValuesTypeWhereTheEngineTypesMarkersByPlace() throws SQLException {
        Bound b = new Translator(Dialect.MYSQL, 8).translate("SELECT ?, ? AS n, id FROM t WHERE a = ? UNION ALL SELECT 1, ?, ? FROM u")
                .bind(Arrays.asList("abc", 5L, 7, true, null), new CountingSource());
        for (Dialect d : List.of(Dialect.DERBY, Dialect.HSQLDB)) {
            assertThat(b.sqlFor(d)).as(d.name()).startsWith("SELECT CAST(? AS VARCHAR(3)) AS \"EXPR1\", CAST(? AS BIGINT) AS n, id")
                    .endsWith("WHERE a = ? UNION ALL SELECT 1 AS \"EXPR1\", CAST(? AS BOOLEAN) AS n, CAST(? AS VARCHAR(1)) AS id FROM u");
        }
        assertThat(b.sqlFor(Dialect.MARIADB)).startsWith("SELECT ? AS `EXPR1`, ? AS n")
                .endsWith("SELECT 1 AS `EXPR1`, ? AS n, CAST(? AS CHAR(1)) AS id FROM u"); // NULL: a VARCHAR everywhere
        assertThat(new Translator(Dialect.MYSQL, 8).translate("INSERT INTO t (a, b) SELECT ?, b FROM u")
                .bind(List.of("x"), new CountingSource()).sqlFor(Dialect.DERBY)).isEqualTo("INSERT INTO t (a, b) SELECT ?, b FROM u");
    }

    @Test
    void parameterOrderFollowsEachDialectsMarkers() throws SQLException {
        Translation t = new Translator(Dialect.MYSQL, 8).translate("SELECT a FROM t WHERE b = ? ORDER BY a LIMIT ? OFFSET ?");
        Bound b = t.bind(List.of("b", 10, 20), new CountingSource());
        assertThat(b.sqlFor(Dialect.DERBY)).endsWith("OFFSET ? ROWS FETCH FIRST ? ROWS ONLY");
        assertThat(b.parameters(Dialect.DERBY)).containsExactly("b", 20, 10);
        assertThat(b.sqlFor(Dialect.MARIADB)).endsWith("LIMIT ? OFFSET ?");
        assertThat(b.parameters(Dialect.MARIADB)).containsExactly("b", 10, 20);
    }

    @Test
    void numbersBoundForAClientWhoseEngineTypesMarkersByValueKeepTheirTypeWhereTheTargetTypesThemByPlace() throws SQLException {
        String sql = "SELECT d + ?, '?' AS `q?` FROM t WHERE s = ? AND d BETWEEN ? AND ? AND i = ?";
        List<Object> values = Arrays.asList(new java.math.BigDecimal("-1.505"), "a?", 0.5d, new java.math.BigDecimal("1E+3"), 7L);
        Bound mysql = new Translator(Dialect.MYSQL, 8).translate(sql).bind(values, new CountingSource());
        for (Dialect d : List.of(Dialect.DERBY, Dialect.HSQLDB, Dialect.DB2)) {
            assertThat(mysql.sqlFor(d)).as(d.name()).startsWith("SELECT d + CAST(? AS DECIMAL(31, 3)) AS ")
                    .containsIgnoringCase("'?' AS \"q?\"").contains("WHERE s = ? AND d BETWEEN CAST(? AS DOUBLE")
                    .endsWith(") AND CAST(? AS DECIMAL(31, 0)) AND i = ?");
            assertThat(mysql.parameters(d)).as(d.name()).isEqualTo(values);
        }
        // values a caller wraps (the shepherd's parameters carry a JDBC type): typed by the value each holds
        List<Object> wrapped = values.stream().map(v -> (Object) new Wrapped(v)).toList();
        Bound unwrapped = new Translator(Dialect.MYSQL, 8).translate(sql).bind(wrapped, new CountingSource(),
                v -> ((Wrapped) v).value());
        assertThat(unwrapped.sqlFor(Dialect.DERBY)).isEqualTo(mysql.sqlFor(Dialect.DERBY));
        assertThat(unwrapped.parameters(Dialect.DERBY)).isEqualTo(wrapped);
        // MySQL and MariaDB type a decimal by value, but their drivers send a double as a decimal literal (a DECIMAL)
        for (Dialect d : List.of(Dialect.MYSQL, Dialect.MARIADB)) {
            assertThat(mysql.sqlFor(d)).as(d.name()).endsWith("'?' AS `q?` FROM t WHERE s = ? AND d BETWEEN CAST(? AS DOUBLE) AND ?"
                    + " AND i = ?");
        }
        assertThat(mysql.sqlFor(Dialect.POSTGRESQL)).doesNotContain("CAST(");
        // a row count stays a bare marker (Derby takes nothing else there)
        Bound page = new Translator(Dialect.MYSQL, 8).translate("SELECT a FROM t WHERE b = ? ORDER BY a LIMIT ? OFFSET ?")
                .bind(List.of(new java.math.BigDecimal("0.5"), new java.math.BigDecimal("10"), new java.math.BigDecimal("20")),
                        new CountingSource());
        assertThat(page.sqlFor(Dialect.DERBY)).endsWith("WHERE b = CAST(? AS DECIMAL(31, 1)) ORDER BY a NULLS FIRST OFFSET ? ROWS"
                + " FETCH FIRST ? ROWS ONLY");
        // a Derby client's markers are typed by their place on Derby too: its statements are left as they are
        Bound derby = new Translator(Dialect.DERBY, 8).translate(sql).bind(values, new CountingSource());
        assertThat(derby.sqlFor(Dialect.DERBY)).doesNotContain("CAST(");
        assertThat(derby.sqlFor(Dialect.MYSQL)).doesNotContain("CAST(");
    }

    @Test
    void explicitKeysAreAddedPerRowWithoutMovingMarkers() throws SQLException {
        Translation t = new Translator(Dialect.DERBY, 8).translate("INSERT INTO \"Orders\" (name, qty) VALUES (?, ?), ('x', ?)");
        assertThat(t.insertTable()).isEqualTo("\"Orders\"");
        Bound b = t.bind(Arrays.asList("a", 1, 2), new CountingSource());
        assertThat(b.sqlWithExplicitKeys(Dialect.MYSQL, "id", List.of(41L, 42L)))
                .isEqualTo("INSERT INTO `Orders` (id, name, qty) VALUES (41, ?, ?), (42, 'x', ?)");
        assertThat(b.sqlWithExplicitKeys(Dialect.POSTGRESQL, "id", List.of(new java.math.BigDecimal("7"), 8)))
                .isEqualTo("INSERT INTO \"Orders\" (id, name, qty) VALUES (7, ?, ?), (8, 'x', ?)");
        assertThat(b.sqlFor(Dialect.POSTGRESQL)).isEqualTo("INSERT INTO \"Orders\" (name, qty) VALUES (?, ?), ('x', ?)");
        assertThat(b.sqlWithExplicitKeys(Dialect.DERBY, "name", List.of(1L, 2L))).isEqualTo(b.sqlFor(Dialect.DERBY));
        assertThatThrownBy(() -> b.sqlWithExplicitKeys(Dialect.DERBY, "id", List.of(1L)))
                .hasFieldOrPropertyWithValue("SQLState", "0A000");
        Translation withDefault = new Translator(Dialect.DERBY, 8)
                .translate("INSERT INTO t (id, name) VALUES (DEFAULT, ?), (5, ?), (NULL, 'z')");
        Bound d = withDefault.bind(List.of("a", "b"), new CountingSource());
        assertThat(d.sqlWithExplicitKeys(Dialect.HSQLDB, "ID", List.of(4L, 5L, 6L)))
                .isEqualTo("INSERT INTO t (id, name) VALUES (4, ?), (5, ?), (6, 'z')");
        assertThat(d.sqlFor(Dialect.HSQLDB)).isEqualTo("INSERT INTO t (id, name) VALUES (DEFAULT, ?), (5, ?), (NULL, 'z')");
        // a MySQL-family primary is sent NULL where DEFAULT would store 0 (NO_AUTO_VALUE_ON_ZERO); the others DEFAULT
        assertThat(d.sqlGeneratingKeys(Dialect.MARIADB, "ID")).isEqualTo("INSERT INTO t (id, name) VALUES (NULL, ?), (5, ?), (NULL, 'z')");
        assertThat(d.sqlGeneratingKeys(Dialect.MARIADB, "name")).isEqualTo(d.sqlFor(Dialect.MARIADB));
        // a Derby client's NULL there is refused on a Derby primary, as on Derby
        assertThat(d.sqlGeneratingKeys(Dialect.DERBY, "ID")).isEqualTo(d.sqlFor(Dialect.DERBY));
        assertThat(d.rowByRow(Dialect.MYSQL, "ID")).extracting(Bound.Part::sql).containsExactly(
                "INSERT INTO t (id, name) VALUES (NULL, ?)", "INSERT INTO t (id, name) VALUES (5, ?)",
                "INSERT INTO t (id, name) VALUES (NULL, 'z')");
        assertThat(d.rowByRow(Dialect.DERBY, "ID")).extracting(Bound.Part::sql).startsWith("INSERT INTO t (id, name) VALUES (DEFAULT, ?)");
        assertThat(d.sqlFor(Dialect.MARIADB)).as("the AST is restored").contains("(DEFAULT, ?)");
        // an HSQLDB (or MySQL) client's NULL generates a key on its engine: a Derby primary, which refuses it, gets DEFAULT
        Bound h = new Translator(Dialect.HSQLDB, 8).translate("INSERT INTO t (id, name) VALUES (DEFAULT, ?), (5, ?), (NULL, 'z')")
                .bind(List.of("a", "b"), new CountingSource());
        assertThat(h.sqlGeneratingKeys(Dialect.DERBY, "ID"))
                .isEqualTo("INSERT INTO t (id, name) VALUES (DEFAULT, ?), (5, ?), (DEFAULT, 'z')");
        assertThat(h.sqlGeneratingKeys(Dialect.HSQLDB, "ID")).isEqualTo(h.sqlFor(Dialect.HSQLDB));
        assertThat(h.rowByRow(Dialect.DERBY, "ID")).extracting(Bound.Part::sql).containsExactly(
                "INSERT INTO t (id, name) VALUES (DEFAULT, ?)", "INSERT INTO t (id, name) VALUES (5, ?)",
                "INSERT INTO t (id, name) VALUES (DEFAULT, 'z')");
        assertThat(h.sqlFor(Dialect.DERBY)).as("the AST is restored").contains("(NULL, 'z')");
        // a key parameter bound to NULL (MyBatis's VALUES (#{id}, ...)): DEFAULT on Derby, without its marker
        Translation byParameter = new Translator(Dialect.MARIADB, 8).translate("INSERT INTO t (id, name) VALUES (?, ?), (?, 'z')");
        Bound p = byParameter.bind(Arrays.asList(new Wrapped(null), new Wrapped("a"), new Wrapped(9)), new CountingSource(),
                v -> ((Wrapped) v).value());
        assertThat(p.sqlGeneratingKeys(Dialect.DERBY, "id")).isEqualTo("INSERT INTO t (id, name) VALUES (DEFAULT, ?), (?, 'z')");
        assertThat(p.parametersGeneratingKeys(Dialect.DERBY, "id")).extracting(v -> ((Wrapped) v).value()).containsExactly("a", 9);
        assertThat(p.sqlGeneratingKeys(Dialect.MARIADB, "id")).isEqualTo(p.sqlFor(Dialect.MARIADB));
        assertThat(p.parametersGeneratingKeys(Dialect.MARIADB, "id")).hasSize(3);
        assertThat(p.rowByRow(Dialect.DERBY, "id")).extracting(Bound.Part::sql).containsExactly(
                "INSERT INTO t (id, name) VALUES (DEFAULT, ?)", "INSERT INTO t (id, name) VALUES (?, 'z')");
        assertThat(p.rowByRow(Dialect.DERBY, "id").get(1).parameters()).extracting(v -> ((Wrapped) v).value()).containsExactly(9);
    }

    /** A parameter as a caller may wrap it ({@link Translation#bind(List, DeterminismSource, java.util.function.UnaryOperator)}). */
    private record Wrapped(Object value) {
    }

    @Test
    void orderKeyColumnsResolvePositionsAliasesAndNames() throws SQLException {
        Translator translator = new Translator(Dialect.DERBY, 8);
        assertThat(translator.translate("SELECT a, b AS bee, t.c FROM t ORDER BY c, bee DESC, 1").orderKeyColumns())
                .containsExactly(3, 2, 1);
        assertThat(translator.translate("SELECT a, b FROM t ORDER BY a + b").orderKeyColumns()).isNull();
        assertThat(translator.translate("SELECT a, b FROM t").orderKeyColumns()).isNull();
        assertThat(translator.translate("SELECT * FROM t ORDER BY 2").orderKeyColumns()).containsExactly(2);
        assertThat(translator.translate("SELECT * FROM t ORDER BY a").orderKeyColumns()).isNull();
    }

    @Test
    void unaliasedExpressionsGetTheSameLabelOnEveryEngine() throws SQLException {
        Translator translator = new Translator(Dialect.MYSQL, 8);
        Translation t = translator.translate("SELECT id, COUNT(*), a + 1 AS b, a || 'x', ? FROM t GROUP BY id, a");
        assertThat(t.sqlFor(Dialect.DERBY)).isEqualTo("SELECT id, COUNT(*) AS \"COUNT(*)\", a + 1 AS b, (a || 'x') AS \"EXPR4\","
                + " ? AS \"EXPR5\" FROM t GROUP BY id, a");
        assertThat(t.sqlFor(Dialect.MARIADB)).startsWith("SELECT id, COUNT(*) AS `COUNT(*)`, a + 1 AS b,");
        assertThat(translator.translate("SELECT a + 1 FROM t UNION SELECT b FROM u").sqlFor(Dialect.POSTGRESQL))
                .isEqualTo("SELECT a + 1 AS \"a + 1\" FROM t UNION SELECT b AS \"a + 1\" FROM u");
        assertThat(translator.translate("INSERT INTO u (x) SELECT a + 1 FROM t").sqlFor(Dialect.DERBY))
                .isEqualTo("INSERT INTO u (x) SELECT a + 1 FROM t");
        assertThat(translator.translate("SELECT COUNT(*) FROM t").sqlFor(Dialect.HSQLDB))
                .isEqualTo("SELECT COUNT(*) AS \"COUNT(*)\" FROM t");
    }

    @Test
    void roundIsEmulatedOnDerby() throws SQLException {
        Translator translator = new Translator(Dialect.MYSQL, 8);
        assertThat(translator.translate("SELECT ROUND(d, 2) AS r FROM t").sqlFor(Dialect.DERBY))
                .isEqualTo("SELECT CAST(d + CASE WHEN d < 0 THEN -0.005 ELSE 0.005 END AS DECIMAL(31, 2)) AS r FROM t");
        assertThat(translator.translate("SELECT ROUND(?) AS r FROM t").sqlFor(Dialect.DERBY))
                .isEqualTo("SELECT CAST(? + CASE WHEN ? < 0 THEN -0.5 ELSE 0.5 END AS DECIMAL(31, 0)) AS r FROM t");
        assertThat(translator.translate("SELECT ROUND(d, 2) AS r FROM t").sqlFor(Dialect.MARIADB))
                .isEqualTo("SELECT ROUND(d, 2) AS r FROM t");
        assertThatThrownBy(() -> translator.translate("SELECT ROUND(d, -1) AS r FROM t").sqlFor(Dialect.DERBY))
                .hasFieldOrPropertyWithValue("SQLState", "0A000").hasMessageContaining("ROUND");
    }

    @Test
    void comparisonWithNullIsRefusedWhereDerbyRunsIt() throws SQLException {
        Translator withDerby = new Translator(Dialect.MYSQL, List.of(Dialect.MARIADB, Dialect.DERBY), 8);
        assertThatThrownBy(() -> withDerby.translate("SELECT a FROM t WHERE b = NULL"))
                .hasFieldOrPropertyWithValue("SQLState", "0A000").hasMessageContaining("IS NULL");
        assertThatThrownBy(() -> withDerby.translate("UPDATE t SET a = 1 WHERE NULL <> b"))
                .hasFieldOrPropertyWithValue("SQLState", "0A000").hasMessageContaining("IS NOT NULL");
        assertThat(withDerby.translate("UPDATE t SET a = NULL WHERE b IS NULL").sqlFor(Dialect.DERBY))
                .isEqualTo("UPDATE t SET a = NULL WHERE b IS NULL");
        assertThat(new Translator(Dialect.MYSQL, 8).translate("SELECT a FROM t WHERE b = NULL").sqlFor(Dialect.MARIADB))
                .isEqualTo("SELECT a FROM t WHERE b = NULL");
    }

    @Test
    void eagerTargetsRejectAtTranslateTime() throws SQLException {
        Translator lazy = new Translator(Dialect.DERBY, 8);
        Translation t = lazy.translate("SELECT a / b FROM t");
        assertThat(t.sqlFor(Dialect.HSQLDB)).isEqualTo("SELECT a / b AS \"a / b\" FROM t");
        assertThatThrownBy(() -> t.sqlFor(Dialect.MARIADB)).hasFieldOrPropertyWithValue("SQLState", "0A000");
        Translator eager = new Translator(Dialect.DERBY, List.of(Dialect.DERBY, Dialect.MARIADB), 8);
        assertThatThrownBy(() -> eager.translate("SELECT a / b FROM t")).hasFieldOrPropertyWithValue("SQLState", "0A000");
        assertThat(eager.translate("SELECT CAST(a AS DECIMAL(10, 2)) / b AS q FROM t").sqlFor(Dialect.MARIADB))
                .isEqualTo("SELECT CAST(TRUNCATE(CAST(a AS DECIMAL(31, 10)), 2) AS DECIMAL(10, 2)) / b AS q FROM t");
    }

    @Test
    void concurrentRenderingGivesTheSameTextAsSequentialRendering() throws Exception {
        String sql = "SELECT a, b FROM t WHERE c = ? AND d < CURRENT_TIMESTAMP ORDER BY a DESC, b LIMIT 5 OFFSET ?";
        java.util.Map<Dialect, String> sequential = new java.util.HashMap<>();
        Translation reference = new Translator(Dialect.DERBY, 4).translate(sql);
        for (Dialect d : Dialect.ALL) {
            sequential.put(d, reference.sqlFor(d));
        }
        Translator shared = new Translator(Dialect.DERBY, 4);
        int threads = 6;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<java.util.Map<Dialect, String>>> results = new java.util.ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int offset = i;
                results.add(pool.submit(() -> {
                    start.await();
                    java.util.Map<Dialect, String> seen = new java.util.HashMap<>();
                    Translation t = shared.translate(sql);
                    for (int k = 0; k < Dialect.ALL.size(); k++) {
                        Dialect d = Dialect.ALL.get((k + offset) % Dialect.ALL.size());
                        seen.put(d, t.sqlFor(d));
                    }
                    return seen;
                }));
            }
            start.countDown();
            for (java.util.concurrent.Future<java.util.Map<Dialect, String>> r : results) {
                assertThat(r.get(30, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(sequential);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void dialectsByNameAndUrl() throws SQLException {
        assertThat(Dialect.forName("MariaDB")).isEqualTo(Dialect.MARIADB).isInstanceOf(
                org.shepherd.translator.dialect.MySqlDialect.class);
        assertThat(Dialect.MARIADB.family()).isEqualTo(Dialect.Family.MYSQL);
        assertThat(Dialect.fromJdbcUrl("jdbc:derby:memory:x;create=true")).isEqualTo(Dialect.DERBY);
        assertThat(Dialect.fromJdbcUrl("jdbc:postgresql://127.0.0.1/db")).isEqualTo(Dialect.POSTGRESQL);
        assertThat(Dialect.fromJdbcUrl("jdbc:hsqldb:mem:x")).isEqualTo(Dialect.HSQLDB);
        assertThatThrownBy(() -> Dialect.forName("oracle")).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> Dialect.fromJdbcUrl("jdbc:h2:mem:x")).isInstanceOf(SQLException.class);
    }

    /** What MySQL commits the open transaction at, by the statement's first word (comments before it skipped). */
    @Test
    void statementsMySqlCommitsImplicitly() {
        for (String sql : List.of("ALTER ONLINE TABLE t ADD INDEX ix (c)", "/* v2 */ create trigger x before insert on t for each"
                + " row set new.c = 1", "-- drop it\nDROP TRIGGER x", "OPTIMIZE TABLE t", "analyze table t", "RENAME TABLE a TO b",
                "GRANT SELECT ON t TO u", "TRUNCATE t")) {
            assertThat(Translator.commitsImplicitlyOnMySql(sql)).as(sql).isTrue();
        }
        for (String sql : List.of("CREATE TEMPORARY TABLE x (c INT)", "DROP TEMPORARY TABLE x", "SHOW CREATE TABLE t",
                "CHECKSUM TABLE t", "DO 1", "SELECT 'ALTER'", "CALL p()", "alternate")) {
            assertThat(Translator.commitsImplicitlyOnMySql(sql)).as(sql).isFalse();
        }
    }
}
