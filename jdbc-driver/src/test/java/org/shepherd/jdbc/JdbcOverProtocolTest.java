package org.shepherd.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;
import org.shepherd.protocol.v1.Message;
import org.shepherd.protocol.v1.WarningInfo;

/** The JDBC surface against a scripted protocol v1 server on a real loopback socket. */
class JdbcOverProtocolTest {

    private static final List<ColumnInfo> COLUMNS = List.of(
            new ColumnInfo("N", "N", Types.BIGINT, "BIGINT", 19, 0, ResultSetMetaData.columnNoNulls, "T", true),
            new ColumnInfo("Label", "LABEL", Types.VARCHAR, "VARCHAR", 20, 0, ResultSetMetaData.columnNullable, "T", false));

    private ScriptedServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) server.close();
    }

    /** "SELECT n" streams n rows (N, 'row N') in batches of the requested size; anything else updates 1 row. */
    private static final class Rows implements ScriptedServer.Handler {
        long total;
        long sent;
        int batch;

        @Override
        public List<Message> answer(Message request, ScriptedServer.Conn conn) {
            if (request instanceof Message.Execute e && e.sql().startsWith("SELECT ")) {
                total = Long.parseLong(e.sql().substring(7).trim());
                sent = 0;
                batch = e.options().fetchSize() == 0 ? 1000 : e.options().fetchSize();
                return List.of(new Message.ResultHeader(1, COLUMNS, List.of(new WarningInfo("01000", 7, "tentative"))),
                        nextBatch(batch));
            }
            if (request instanceof Message.Fetch f) return List.of(nextBatch(f.maxRows() == 0 ? Integer.MAX_VALUE : f.maxRows()));
            if (request instanceof Message.CloseCursor) return List.of(new Message.Ok());
            if (request instanceof Message.Execute) return List.of(new Message.UpdateResult(1, List.of(), List.of(), List.of()));
            if (request instanceof Message.Ping) return List.of(new Message.Pong());
            return List.of(new Message.Ok());
        }

        private Message.RowBatch nextBatch(int max) {
            List<Object[]> rows = new ArrayList<>();
            while (sent < total && rows.size() < max) {
                sent++;
                rows.add(new Object[] {sent, sent % 10 == 0 ? null : "row " + sent});
            }
            return new Message.RowBatch(1, rows, sent == total);
        }
    }

    private Connection connect(ScriptedServer.Handler h) throws Exception {
        server = new ScriptedServer(h);
        return DriverManager.getConnection(server.url());
    }

    @Test
    void resultsStreamInFetchSizeBatchesWithGettersByIndexAndLabel() throws Exception {
        try (Connection c = connect(new Rows()); Statement s = c.createStatement()) {
            s.setFetchSize(100);
            long count = 0;
            try (ResultSet rs = s.executeQuery("SELECT 1050")) {
                assertThat((Throwable) rs.getWarnings()).isNotNull().hasMessage("tentative");
                assertThat(rs.isBeforeFirst()).isTrue();
                while (rs.next()) {
                    count++;
                    assertThat(rs.getLong(1)).isEqualTo(count);
                    assertThat(rs.getInt("n")).isEqualTo((int) count);
                    assertThat(rs.getString("LABEL")).isEqualTo(count % 10 == 0 ? null : "row " + count);
                    assertThat(rs.wasNull()).isEqualTo(count % 10 == 0);
                    assertThat(rs.getRow()).isEqualTo((int) count);
                }
                assertThat(rs.isAfterLast()).isTrue();
                assertThat(rs.next()).isFalse();
                ResultSetMetaData md = rs.getMetaData();
                assertThat(md.getColumnCount()).isEqualTo(2);
                assertThat(md.getColumnLabel(2)).isEqualTo("Label");
                assertThat(md.getColumnType(1)).isEqualTo(Types.BIGINT);
                assertThat(md.isAutoIncrement(1)).isTrue();
                assertThat(md.getColumnClassName(1)).isEqualTo(Long.class.getName());
            }
            assertThat(count).isEqualTo(1050);
            assertThat(server.received(Message.Fetch.class)).hasSize(10).allSatisfy(f -> assertThat(f.maxRows()).isEqualTo(100));
            assertThat(server.received(Message.Execute.class).get(0).options().fetchSize()).isEqualTo(100);
        }
    }

    @Test
    void theFetchSizePropertyIsTheStatementsDefault() throws Exception {
        server = new ScriptedServer(new Rows());
        try (Connection c = DriverManager.getConnection(server.url() + "&fetchSize=7"); Statement s = c.createStatement()) {
            assertThat(s.getFetchSize()).isEqualTo(7);
            try (ResultSet rs = s.executeQuery("SELECT 20")) {
                while (rs.next()) {
                    continue;
                }
            }
            s.setFetchSize(0);
            assertThat(s.getFetchSize()).isEqualTo(7);
            assertThat(server.received(Message.Execute.class).get(0).options().fetchSize()).isEqualTo(7);
            assertThat(server.received(Message.Fetch.class)).extracting(Message.Fetch::maxRows).containsExactly(7, 7);
        }
    }

    @Test
    void closingAResultEarlyClosesTheCursorOnTheServer() throws Exception {
        try (Connection c = connect(new Rows()); Statement s = c.createStatement()) {
            s.setFetchSize(10);
            ResultSet rs = s.executeQuery("SELECT 100");
            assertThat(rs.next()).isTrue();
            rs.close();
            assertThat(rs.isClosed()).isTrue();
            assertThat(server.received(Message.CloseCursor.class)).hasSize(1);
            assertThatThrownBy(rs::next).isInstanceOf(SQLException.class).hasMessageContaining("closed");
        }
    }

    @Test
    void anotherStatementWhileAResultIsOpenReadsTheRestIntoMemoryFirst() throws Exception {
        try (Connection c = connect(new Rows()); Statement s1 = c.createStatement(); Statement s2 = c.createStatement()) {
            s1.setFetchSize(10);
            ResultSet rs = s1.executeQuery("SELECT 35");
            assertThat(rs.next()).isTrue();
            assertThat(s2.executeUpdate("UPDATE t SET x = 1")).isEqualTo(1);
            List<Message> seen = server.requests;
            assertThat(seen.get(1)).isInstanceOf(Message.Fetch.class);
            assertThat(((Message.Fetch) seen.get(1)).maxRows()).isZero();
            assertThat(seen.get(2)).isInstanceOf(Message.Execute.class);
            int n = 1;
            while (rs.next()) n++;
            assertThat(n).isEqualTo(35);
            assertThat(server.received(Message.Fetch.class)).hasSize(1);
        }
    }

    @Test
    void updateCountsGeneratedKeysAndResultKindChecks() throws Exception {
        List<ColumnInfo> keyCols = List.of(new ColumnInfo("ID", "ID", Types.INTEGER, "INTEGER", 10, 0, 0, "T", true));
        try (Connection c = connect((req, conn) -> {
            Message.Execute e = (Message.Execute) req;
            if (e.sql().startsWith("SELECT")) {
                return List.of(new Message.ResultHeader(3, COLUMNS, List.of()), new Message.RowBatch(3, List.of(), true));
            }
            return ScriptedServer.one(e.options().returnGeneratedKeys()
                    ? new Message.UpdateResult(2, keyCols, List.of(new Object[] {41L}, new Object[] {42L}), List.of())
                    : new Message.UpdateResult(5, List.of(), List.of(), List.of()));
        }); Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("INSERT INTO t VALUES (1)", Statement.RETURN_GENERATED_KEYS)).isEqualTo(2);
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertThat(keys.next()).isTrue();
                assertThat(keys.getObject(1)).isEqualTo(41);
                assertThat(keys.next()).isTrue();
                assertThat(keys.getLong("id")).isEqualTo(42L);
                assertThat(keys.next()).isFalse();
            }
            assertThat(s.execute("DELETE FROM t")).isFalse();
            assertThat(s.getUpdateCount()).isEqualTo(5);
            assertThat(s.getLargeUpdateCount()).isEqualTo(5);
            assertThat(s.getResultSet()).isNull();
            assertThat(s.getMoreResults()).isFalse();
            assertThat(s.getUpdateCount()).isEqualTo(-1);
            assertThat(s.getGeneratedKeys().next()).isFalse();
            assertThatThrownBy(() -> s.executeQuery("DELETE FROM t")).hasMessageContaining("did not return a result set");
            assertThatThrownBy(() -> s.executeUpdate("SELECT 1")).hasMessageContaining("returned a result set");
        }
    }

    @Test
    void preparedStatementSendsTypedParameters() throws Exception {
        try (Connection c = connect(new Rows());
             PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setInt(1, 7);
            ps.setLong(2, Long.MAX_VALUE);
            ps.setShort(3, (short) 3);
            ps.setBigDecimal(4, new BigDecimal("12.340"));
            ps.setDouble(5, 0.5);
            ps.setString(6, "héllo");
            ps.setDate(7, java.sql.Date.valueOf("2026-11-21"));
            ps.setTime(8, java.sql.Time.valueOf("08:30:00"));
            ps.setTimestamp(9, Timestamp.valueOf("2026-11-21 08:30:00.123456789"));
            ps.setBoolean(10, true);
            ps.setBytes(11, new byte[] {1, 2});
            ps.setNull(12, Types.INTEGER);
            ps.setObject(13, LocalDateTime.of(2026, 1, 2, 3, 4));
            ps.setObject(14, "42", Types.INTEGER);
            ps.setBinaryStream(15, new ByteArrayInputStream(new byte[] {9}));
            assertThat(ps.executeUpdate()).isEqualTo(1);
            List<Param> p = server.received(Message.Execute.class).get(0).params();
            assertThat(p).hasSize(15);
            assertThat(p.get(0)).isEqualTo(new Param(Types.INTEGER, 7L));
            assertThat(p.get(1)).isEqualTo(new Param(Types.BIGINT, Long.MAX_VALUE));
            assertThat(p.get(2)).isEqualTo(new Param(Types.SMALLINT, 3L));
            assertThat(p.get(3)).isEqualTo(new Param(Types.DECIMAL, new BigDecimal("12.340")));
            assertThat(p.get(4)).isEqualTo(new Param(Types.DOUBLE, 0.5));
            assertThat(p.get(5)).isEqualTo(new Param(Types.VARCHAR, "héllo"));
            assertThat(p.get(6)).isEqualTo(new Param(Types.DATE, LocalDate.of(2026, 11, 21)));
            assertThat(p.get(7)).isEqualTo(new Param(Types.TIME, LocalTime.of(8, 30)));
            assertThat(p.get(8)).isEqualTo(new Param(Types.TIMESTAMP, LocalDateTime.of(2026, 11, 21, 8, 30, 0, 123456789)));
            assertThat(p.get(9)).isEqualTo(new Param(Types.BOOLEAN, true));
            assertThat((byte[]) p.get(10).value()).containsExactly(1, 2);
            assertThat(p.get(11)).isEqualTo(Param.nullOf(Types.INTEGER));
            assertThat(p.get(12)).isEqualTo(new Param(Types.TIMESTAMP, LocalDateTime.of(2026, 1, 2, 3, 4)));
            assertThat(p.get(13)).isEqualTo(new Param(Types.INTEGER, 42L));
            assertThat((byte[]) p.get(14).value()).containsExactly(9);

            ps.clearParameters();
            assertThatThrownBy(ps::executeUpdate).hasMessageContaining("no value specified for parameter 1");
            assertThatThrownBy(() -> ps.setInt(16, 1)).hasMessageContaining("out of range");
            assertThatThrownBy(() -> ps.executeUpdate("DELETE FROM t")).hasMessageContaining("PreparedStatement");
        }
    }

    @Test
    void batchesSendOneMessageAndFailuresCarryTheCountsDone() throws Exception {
        try (Connection c = connect((req, conn) -> {
            Message.ExecuteBatch b = (Message.ExecuteBatch) req;
            if (b.sql() != null && b.parameterSets().size() == 3) {
                return ScriptedServer.one(new Message.Error("23505", 1, "duplicate key", new long[] {1, 1}));
            }
            long[] counts = new long[b.sql() == null ? b.statements().size() : b.parameterSets().size()];
            java.util.Arrays.fill(counts, 1);
            return ScriptedServer.one(new Message.BatchResult(counts, List.of()));
        }); Statement s = c.createStatement(); PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?)")) {
            s.addBatch("INSERT INTO t VALUES (1)");
            s.addBatch("INSERT INTO t VALUES (2)");
            assertThat(s.executeBatch()).containsExactly(1, 1);
            assertThat(s.executeBatch()).isEmpty();
            for (int i = 0; i < 3; i++) {
                ps.setInt(1, i);
                ps.addBatch();
            }
            assertThatThrownBy(ps::executeBatch).isInstanceOfSatisfying(BatchUpdateException.class, e -> {
                assertThat(e.getUpdateCounts()).containsExactly(1, 1);
                assertThat(e.getSQLState()).isEqualTo("23505");
                assertThat(e.getCause()).isInstanceOf(SQLIntegrityConstraintViolationException.class);
            });
            Message.ExecuteBatch sent = server.received(Message.ExecuteBatch.class).get(1);
            assertThat(sent.sql()).isEqualTo("INSERT INTO t VALUES (?)");
            assertThat(sent.parameterSets()).hasSize(3);
            assertThat(ps.executeBatch()).isEmpty();
        }
    }

    /**
     * A batch prepared for generated keys asks for them and hands every element's to getGeneratedKeys, in order, labelled
     * as the application named the key column (Derby's driver labels it 1).
     */
    @Test
    void aBatchPreparedForKeysReturnsEveryElementsKeys() throws Exception {
        List<ColumnInfo> idColumn = List.of(new ColumnInfo("1", "1", Types.DECIMAL, "DECIMAL", 31, 0, 0, "", false));
        try (Connection c = connect((req, conn) -> {
            Message.ExecuteBatch b = (Message.ExecuteBatch) req;
            if (!b.options().returnGeneratedKeys()) return ScriptedServer.one(new Message.BatchResult(new long[] {1}, List.of()));
            return ScriptedServer.one(new Message.BatchResult(new long[] {1, 1}, idColumn,
                    List.of(new Object[] {7L}, new Object[] {8L}), List.of()));
        }); PreparedStatement ps = c.prepareStatement("INSERT INTO t (v) VALUES (?)", new String[] {"id"});
                PreparedStatement plain = c.prepareStatement("INSERT INTO t (v) VALUES (?)")) {
            for (String v : List.of("a", "b")) {
                ps.setString(1, v);
                ps.addBatch();
            }
            assertThat(ps.executeBatch()).containsExactly(1, 1);
            try (ResultSet keys = ps.getGeneratedKeys()) {
                assertThat(keys.getMetaData().getColumnLabel(1)).isEqualTo("id");
                assertThat(keys.getMetaData().getColumnType(1)).as("the type stays the primary's").isEqualTo(Types.DECIMAL);
                assertThat(keys.next()).isTrue();
                assertThat(keys.getLong(1)).isEqualTo(7L);
                assertThat(keys.next()).isTrue();
                assertThat(keys.getLong("id")).isEqualTo(8L);
                assertThat(keys.next()).isFalse();
            }
            plain.setString(1, "c");
            plain.addBatch();
            assertThat(plain.executeBatch()).containsExactly(1);
            assertThat(server.received(Message.ExecuteBatch.class)).extracting(b -> b.options().returnGeneratedKeys())
                    .containsExactly(true, false);
            try (ResultSet keys = plain.getGeneratedKeys()) {
                assertThat(keys.next()).isFalse();
            }
        }
    }

    @Test
    void serverErrorsBecomeTheRightSqlExceptions() throws Exception {
        try (Connection c = connect((req, conn) -> {
            if (req instanceof Message.Ping) return ScriptedServer.one(new Message.Pong());
            String sql = ((Message.Execute) req).sql();
            return ScriptedServer.one(new Message.Error(sql, 99, "failed: " + sql));
        }); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("40001")).isInstanceOf(SQLTransactionRollbackException.class)
                    .hasMessage("failed: 40001");
            assertThatThrownBy(() -> s.execute("57014")).isInstanceOf(SQLTimeoutException.class);
            assertThatThrownBy(() -> s.execute("0A000")).isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> s.execute("42X05")).isInstanceOfSatisfying(SQLException.class, e -> {
                assertThat(e.getSQLState()).isEqualTo("42X05");
                assertThat(e.getErrorCode()).isEqualTo(99);
            });
            assertThat(c.isValid(0)).as("an error answer leaves the session usable").isTrue();
        }
    }

    @Test
    void aConnectionClassErrorFromTheServerClosesTheConnection() throws Exception {
        try (Connection c = connect((req, conn) -> ScriptedServer.one(new Message.Error("08P01", 0, "idle too long")));
             Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("SELECT 1")).isInstanceOf(SQLNonTransientConnectionException.class)
                    .hasMessage("idle too long");
            assertThat(c.isClosed()).isTrue();
        }
    }

    @Test
    void transactionsAndSessionSettings() throws Exception {
        try (Connection c = connect(new Rows())) {
            assertThat(c.getAutoCommit()).isTrue();
            assertThatThrownBy(c::commit).hasMessageContaining("autocommit");
            c.setAutoCommit(false);
            c.commit();
            c.rollback();
            c.setReadOnly(true);
            assertThat(c.isReadOnly()).isTrue();
            assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            assertThat((Throwable) c.getWarnings()).isNotNull().hasMessageContaining("SERIALIZABLE");
            assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
            c.clearWarnings();
            assertThat((Throwable) c.getWarnings()).isNull();
            assertThatThrownBy(() -> c.setTransactionIsolation(Connection.TRANSACTION_NONE))
                    .isInstanceOf(SQLFeatureNotSupportedException.class);
            assertThatThrownBy(() -> c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY,
                    ResultSet.CLOSE_CURSORS_AT_COMMIT)).isInstanceOf(SQLFeatureNotSupportedException.class)
                    .hasMessageContaining("HOLD_CURSORS_OVER_COMMIT");
            assertThat(c.isValid(5)).isTrue();
            try (Statement s = c.createStatement()) {
                s.setEscapeProcessing(false);
                assertThat((Throwable) s.getWarnings()).isNull();
                s.setEscapeProcessing(true);
                assertThat((Throwable) s.getWarnings()).hasMessageContaining("escape");
            }
            c.setNetworkTimeout(Runnable::run, 1234);
            assertThat(c.getNetworkTimeout()).isEqualTo(1234);
            assertThat(server.requests).extracting(Message::type).extracting(Enum::name).containsExactly(
                    "SET_AUTO_COMMIT", "COMMIT", "ROLLBACK", "SET_READ_ONLY", "PING");
            assertThat(((Message.SetAutoCommit) server.requests.get(0)).autoCommit()).isFalse();
        }
    }

    @Test
    void databaseMetaDataFromHandshakeAndForwardedCalls() throws Exception {
        try (Connection c = connect((req, conn) -> {
            if (req instanceof Message.Metadata m && m.method().equals("getTables")) {
                List<ColumnInfo> cols = List.of(new ColumnInfo("TABLE_NAME", "TABLE_NAME", Types.VARCHAR, "VARCHAR", 128, 0, 0,
                        "", false));
                return List.of(new Message.ResultHeader(5, cols, List.of()),
                        new Message.RowBatch(5, List.<Object[]>of(new Object[] {"T1"}), true));
            }
            return ScriptedServer.one(new Message.Error("0A000", 0, "no"));
        })) {
            DatabaseMetaData md = c.getMetaData();
            assertThat(md.getDatabaseProductName()).as("the engine whose SQL it reads").isEqualTo("Apache Derby");
            assertThat(md.getDatabaseProductVersion()).isEqualTo("10.16.1.1");
            assertThat(md.getDatabaseMajorVersion()).isEqualTo(10);
            assertThat(md.getDatabaseMinorVersion()).isEqualTo(16);
            assertThat(md.getDriverName()).contains("Shepherd");
            assertThat(md.getIdentifierQuoteString()).isEqualTo("\"");
            assertThat(md.storesUpperCaseIdentifiers()).isTrue();
            assertThat(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_SERIALIZABLE)).isTrue();
            assertThat(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_READ_COMMITTED)).isFalse();
            assertThat(md.getUserName()).isEqualTo(ScriptedServer.USER);
            assertThat(md.getURL()).doesNotContain(ScriptedServer.PASSWORD);
            try (ResultSet rs = md.getTables(null, "APP", "T%", new String[] {"TABLE"})) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("table_name")).isEqualTo("T1");
            }
            Message.Metadata sent = server.received(Message.Metadata.class).get(0);
            assertThat(sent.method()).isEqualTo("getTables");
            assertThat(sent.arguments().get(0)).isNull();
            assertThat(sent.arguments().get(1)).isEqualTo("APP");
            assertThat((String[]) sent.arguments().get(3)).containsExactly("TABLE");
            assertThatThrownBy(() -> md.getPrimaryKeys(null, null, "T")).isInstanceOf(SQLFeatureNotSupportedException.class);
        }
    }

    @Test
    void parameterMetadataComesFromPrepareOk() throws Exception {
        try (Connection c = connect((req, conn) -> {
            if (req instanceof Message.Prepare) {
                return ScriptedServer.one(new Message.PrepareOk(9, 2, new int[] {Types.INTEGER, Types.VARCHAR}, COLUMNS));
            }
            return ScriptedServer.one(new Message.Ok());
        }); PreparedStatement ps = c.prepareStatement("SELECT * FROM t WHERE a = ? AND b = ?")) {
            ParameterMetaData pmd = ps.getParameterMetaData();
            assertThat(pmd.getParameterCount()).isEqualTo(2);
            assertThat(pmd.getParameterType(2)).isEqualTo(Types.VARCHAR);
            assertThat(ps.getMetaData().getColumnLabel(2)).isEqualTo("Label");
            assertThat(server.received(Message.ClosePrepared.class)).extracting(Message.ClosePrepared::statementId)
                    .containsExactly(9);
        }
    }

    @Test
    void unknownParameterTypesAreUnsupportedButTheCountIsKnown() throws Exception {
        try (Connection c = connect((req, conn) -> ScriptedServer.one(new Message.Error("0A000", 0, "cannot prepare")));
             PreparedStatement ps = c.prepareStatement("UPDATE t SET a = ? WHERE b = '?'")) {
            ParameterMetaData pmd = ps.getParameterMetaData();
            assertThat(pmd.getParameterCount()).isEqualTo(1);
            assertThatThrownBy(() -> pmd.getParameterType(1)).isInstanceOf(SQLFeatureNotSupportedException.class)
                    .hasMessageContaining("ParameterMetaData.getParameterType");
            assertThat(ps.getMetaData()).isNull();
        }
    }

    @Test
    void cancelTravelsOnASecondConnectionWithTheCancelKey() throws Exception {
        CountDownLatch executing = new CountDownLatch(1);
        AtomicReference<ScriptedServer.Conn> session = new AtomicReference<>();
        try (Connection c = connect((req, conn) -> {
            session.set(conn);
            executing.countDown();
            Message.Cancel cancel = server.cancels.poll(30, TimeUnit.SECONDS);
            return ScriptedServer.one(cancel != null && cancel.sessionId() == conn.sessionId
                    && cancel.cancelKey() == conn.cancelKey
                    ? new Message.Error("57014", 0, "canceled") : new Message.Error("XX000", 0, "wrong cancel"));
        }); Statement s = c.createStatement()) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread runner = new Thread(() -> {
                try {
                    s.execute("SELECT slow");
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            runner.start();
            assertThat(executing.await(30, TimeUnit.SECONDS)).isTrue();
            s.cancel();
            runner.join(30_000);
            assertThat(failure.get()).isInstanceOf(SQLTimeoutException.class).hasMessage("canceled");
        }
    }

    @Test
    void wrongPasswordIsAnAuthorizationError() throws Exception {
        server = new ScriptedServer((req, conn) -> List.of());
        String url = "jdbc:shepherd://127.0.0.1:" + server.port() + "/db?user=alice&password=wrong";
        assertThatThrownBy(() -> DriverManager.getConnection(url)).isInstanceOfSatisfying(
                SQLInvalidAuthorizationSpecException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
    }

    @Test
    void aBrokenConnectionIs08006AndClosesTheConnection() throws Exception {
        try (Connection c = connect((req, conn) -> null); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("SELECT 1")).isInstanceOfSatisfying(SQLNonTransientConnectionException.class,
                    e -> assertThat(e.getSQLState()).isEqualTo("08006"));
            assertThat(c.isClosed()).isTrue();
            assertThat(c.isValid(1)).isFalse();
            assertThatThrownBy(c::createStatement).hasMessageContaining("closed");
        }
    }

    @Test
    void anOversizedOrGarbledAnswerBreaksTheConnectionCleanly() throws Exception {
        try (Connection c = connect((req, conn) -> {
            conn.sendRaw(ByteBuffer.allocate(5).putInt(Integer.MAX_VALUE).put((byte) 72).array());
            return List.of();
        }); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("SELECT 1")).isInstanceOf(SQLNonTransientConnectionException.class)
                    .hasMessageContaining("exceeds the maximum");
            assertThat(c.isClosed()).isTrue();
        }
        try (Connection c = connect((req, conn) -> List.of(new Message.Pong())); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("SELECT 1")).isInstanceOf(SQLNonTransientConnectionException.class)
                    .hasMessageContaining("protocol violation");
            assertThat(c.isClosed()).isTrue();
        }
    }

    @Test
    void streamsAndReadersAreReadFully() throws Exception {
        try (Connection c = connect(new Rows()); PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?)")) {
            ps.setCharacterStream(1, new StringReader("text"));
            ps.executeUpdate();
            assertThat(server.received(Message.Execute.class).get(0).params().get(0).value()).isEqualTo("text");
        }
    }

    @Test
    void closingTheConnectionClosesItsStatementsAndSaysGoodbye() throws Exception {
        Connection c = connect(new Rows());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT 5");
        c.close();
        assertThat(s.isClosed()).isTrue();
        assertThat(rs.isClosed()).isTrue();
        assertThat(c.isClosed()).isTrue();
        c.close();
    }

    @Test
    void closingWhileAnotherThreadWaitsForAnAnswerDoesNotWaitForIt() throws Exception {
        CountDownLatch executing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Connection c = connect((req, conn) -> {
            executing.countDown();
            release.await(30, TimeUnit.SECONDS);
            return List.of();
        });
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread runner = new Thread(() -> {
            try (Statement s = c.createStatement()) {
                s.execute("SELECT forever");
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        runner.start();
        assertThat(executing.await(30, TimeUnit.SECONDS)).isTrue();
        c.close();
        runner.join(30_000);
        release.countDown();
        assertThat(runner.isAlive()).isFalse();
        assertThat(failure.get()).isInstanceOfSatisfying(SQLException.class,
                e -> assertThat(e.getSQLState()).isEqualTo("08006"));
        assertThat(c.isClosed()).isTrue();
    }

    @Test
    void isValidGivesUpWhenAnotherThreadHoldsTheConnectionLongerThanItsTimeout() throws Exception {
        CountDownLatch executing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (Connection c = connect((req, conn) -> {
            if (req instanceof Message.Ping) return ScriptedServer.one(new Message.Pong());
            executing.countDown();
            release.await(30, TimeUnit.SECONDS);
            return ScriptedServer.one(new Message.UpdateResult(0, List.of(), List.of(), List.of()));
        })) {
            Thread runner = new Thread(() -> {
                try (Statement s = c.createStatement()) {
                    s.execute("UPDATE slow");
                } catch (SQLException ignored) {
                    // not what this test looks at
                }
            });
            runner.start();
            assertThat(executing.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(c.isValid(1)).isFalse();
            release.countDown();
            runner.join(30_000);
            assertThat(c.isValid(5)).isTrue();
        }
    }

    @Test
    void aSilentServerHitsTheLoginTimeout() throws Exception {
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress())) {
            String url = "jdbc:shepherd://127.0.0.1:" + silent.getLocalPort() + "/db?user=a&password=b&loginTimeout=1";
            assertThatThrownBy(() -> DriverManager.getConnection(url)).isInstanceOfSatisfying(SQLException.class, e -> {
                assertThat(e.getSQLState()).isEqualTo("08001");
                assertThat(e.getMessage()).contains("timed out");
            });
        }
    }

    @Test
    void theSocketTimeoutClosesAConnectionWhoseAnswerDoesNotCome() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        server = new ScriptedServer((req, conn) -> {
            release.await(30, TimeUnit.SECONDS);
            return List.of();
        });
        try (Connection c = DriverManager.getConnection(server.url() + "&socketTimeout=1"); Statement s = c.createStatement()) {
            assertThat(c.getNetworkTimeout()).isEqualTo(1000);
            assertThatThrownBy(() -> s.execute("SELECT 1")).isInstanceOfSatisfying(SQLNonTransientConnectionException.class,
                    e -> assertThat(e.getMessage()).contains("socket timeout"));
            assertThat(c.isClosed()).isTrue();
        } finally {
            release.countDown();
        }
    }

    @Test
    void dataSourceConnectsWithSettersOnly() throws Exception {
        server = new ScriptedServer((req, conn) -> ScriptedServer.one(new Message.Pong()));
        ShepherdDataSource ds = new ShepherdDataSource();
        ds.setServerName("127.0.0.1");
        ds.setPortNumber(server.port());
        ds.setDatabaseName("db");
        ds.setUser(ScriptedServer.USER);
        ds.setPassword(ScriptedServer.PASSWORD);
        ds.setFetchSize(10);
        ds.setApplicationName("tests");
        try (Connection c = ds.getConnection()) {
            assertThat(c.isValid(5)).isTrue();
            assertThat(c.getClientInfo("ApplicationName")).isEqualTo("tests");
            c.setClientInfo("ClientUser", "alice");
            assertThat((Object) c.getWarnings()).isNull();
            c.setClientInfo("Shoe size", "43");
            assertThat(c.getWarnings().getMessage()).contains("Shoe size");
            assertThat(c.getClientInfo()).containsEntry("ApplicationName", "tests").containsEntry("ClientUser", "alice")
                    .containsEntry("Shoe size", "43");
            c.setClientInfo("ClientUser", null);
            assertThat(c.getClientInfo("ClientUser")).isNull();
            java.util.Properties replacing = new java.util.Properties();
            replacing.setProperty("ClientHostname", "desk-7");
            c.setClientInfo(replacing);
            assertThat(c.getClientInfo()).containsOnlyKeys("ClientHostname");
            // what a tool that saves and restores the schema or catalog does (no round trip: this server only pongs);
            // another catalog is refused, naming itself
            c.setSchema(c.getSchema());
            c.setCatalog(c.getCatalog());
            assertThatThrownBy(() -> c.setCatalog("other")).isInstanceOf(SQLFeatureNotSupportedException.class)
                    .hasMessageContaining("setCatalog(\"other\")");
        }
        assertThatThrownBy(() -> ds.getConnection("bob", "nope")).isInstanceOf(SQLInvalidAuthorizationSpecException.class);
    }
}
