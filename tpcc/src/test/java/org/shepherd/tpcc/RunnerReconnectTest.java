package org.shepherd.tpcc;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code --reconnect} against embedded Derby behind a driver that breaks connections on purpose (SQLState 08006) and
 * refuses the next connection attempts: a transaction that lost its connection before its COMMIT runs again on a new
 * connection; one whose COMMIT failed is in doubt, reported to the recorder and not run again.
 */
class RunnerReconnectTest {

    private static final String DATABASE = "tpcc-reconnect";
    private static final int TRANSACTIONS = 60;
    private static final int REFUSED_CONNECTS = 3;

    private final FlakyDriver driver = new FlakyDriver();
    private String derbyUrl;

    @BeforeEach
    void register() throws Exception {
        derbyUrl = DerbyTestSupport.loadedCopy(DATABASE);
        DriverManager.registerDriver(driver);
    }

    @AfterEach
    void deregister() throws SQLException {
        DriverManager.deregisterDriver(driver);
        DerbyTestSupport.dropInMemory(DATABASE);
    }

    @Test
    void aTransactionWhoseCommitLostTheConnectionIsInDoubtAndNotRunAgain() throws Exception {
        driver.commitThenBreakAtNewOrder = 3;
        driver.breakInsteadOfCommitAtNewOrder = 6;
        driver.breakBeforeStatement = 100;
        NewOrderLedger ledger = new NewOrderLedger();
        long ordersBefore;
        try (Connection c = DriverManager.getConnection(derbyUrl)) {
            ordersBefore = TpccCli.count(c, "SELECT COUNT(*) FROM orders");
        }
        Runner.Options options = new Runner.Options(DerbyTestSupport.SCALE, 1, 600, 0, DerbyTestSupport.SEED, 0, 0, 10, 60,
            TRANSACTIONS, 10, Clock.systemUTC());
        Jdbc flaky = new Jdbc(FlakyDriver.PREFIX + derbyUrl.substring("jdbc:derby:".length()), null, null);

        RunResult result = new Runner(flaky, options, DerbyTestSupport.quiet(), ledger).run();

        assertThat(result.errors()).as(String.valueOf(result.firstErrors())).isZero();
        assertThat(result.connectionLosses()).isEqualTo(3);
        assertThat(result.inDoubt()).isEqualTo(2);
        assertThat(result.retries()).as("the transaction that lost its connection before COMMIT ran again").isPositive();
        assertThat(result.transactions()).isEqualTo(TRANSACTIONS - 2);
        assertThat(driver.refusedConnects).hasValue(3 * REFUSED_CONNECTS);
        assertThat(ledger.inDoubtCount()).isEqualTo(2);
        try (Connection c = DriverManager.getConnection(derbyUrl)) {
            NewOrderLedger.Audit audit = ledger.audit(c);
            assertThat(audit.lost()).as(audit.lostExamples().toString()).isZero();
            assertThat(audit.acknowledgedFound()).isEqualTo(ledger.acknowledgedCount()).isPositive();
            assertThat(audit.inDoubtFound()).as("the one committed before its connection broke").isEqualTo(1);
            assertThat(TpccCli.count(c, "SELECT COUNT(*) FROM orders") - ordersBefore)
                .as("no New-Order ran twice").isEqualTo(audit.acknowledgedFound() + audit.inDoubtFound());
            assertThat(new Checker(c, DerbyTestSupport.SCALE).checkAll(false))
                .allSatisfy(x -> assertThat(x.status()).as(x.toString()).isNotEqualTo(Checker.Status.FAIL));
        }
    }

    @Test
    void aReadOnlyTransactionWhoseCommitLostTheConnectionRunsAgainInsteadOfBeingInDoubt() throws Exception {
        driver.breakInsteadOfCommitAtReadOnly = 2;
        Runner.Options options = new Runner.Options(DerbyTestSupport.SCALE, 1, 600, 0, DerbyTestSupport.SEED, 0, 0, 10, 60,
            TRANSACTIONS, 10, Clock.systemUTC());
        Jdbc flaky = new Jdbc(FlakyDriver.PREFIX + derbyUrl.substring("jdbc:derby:".length()), null, null);

        RunResult result = new Runner(flaky, options, DerbyTestSupport.quiet(), new NewOrderLedger()).run();

        assertThat(result.connectionLosses()).as("the read-only COMMIT that broke").isEqualTo(1);
        assertThat(result.inDoubt()).as("nothing it did can be lost or doubled").isZero();
        assertThat(result.errors()).as(String.valueOf(result.firstErrors())).isZero();
        assertThat(result.retries()).as("it ran again").isPositive();
        assertThat(result.transactions()).isEqualTo(TRANSACTIONS);
    }

    @Test
    void aLedgerOrderIsHeldOnlyWithItsCustomerAndLines() {
        List<TxInput.OrderLine> lines = List.of(new TxInput.OrderLine(5, 1, 3), new TxInput.OrderLine(9, 1, 1));
        TxInput.NewOrder in = new TxInput.NewOrder(1, 2, 7, lines);
        Runner.PlacedOrder placed = new Runner.PlacedOrder(in, 3001);
        assertThat(NewOrderLedger.mismatch(placed, new NewOrderLedger.HeldOrder(7, 2, in.lines()))).isNull();
        assertThat(NewOrderLedger.mismatch(placed, null)).contains("order 1/2/3001", "not in ORDERS");
        assertThat(NewOrderLedger.mismatch(placed, new NewOrderLedger.HeldOrder(8, 2, in.lines())))
            .contains("another order under its id");
        assertThat(NewOrderLedger.mismatch(placed, new NewOrderLedger.HeldOrder(7, 2, List.of(in.lines().get(0),
            new TxInput.OrderLine(9, 1, 2))))).contains("another order under its id");
    }

    /**
     * {@code jdbc:flaky:X} opens {@code jdbc:derby:X} and breaks the connection (08006, then 08003 for every call) at the
     * planned New-Order COMMITs or before the planned statement; after each break it refuses the next connection attempts
     * (08001).
     */
    private static final class FlakyDriver implements Driver {
        static final String PREFIX = "jdbc:flaky:";

        int commitThenBreakAtNewOrder;
        int breakInsteadOfCommitAtNewOrder;
        int breakBeforeStatement;
        int breakInsteadOfCommitAtReadOnly;
        private final AtomicInteger readOnlyCommits = new AtomicInteger();
        final AtomicInteger refusedConnects = new AtomicInteger();
        private final AtomicInteger newOrderCommits = new AtomicInteger();
        private final AtomicInteger statements = new AtomicInteger();
        private final AtomicInteger toRefuse = new AtomicInteger();

        @Override
        public Connection connect(String url, Properties info) throws SQLException {
            if (!acceptsURL(url)) return null;
            if (toRefuse.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                refusedConnects.incrementAndGet();
                throw new SQLException("connection refused", "08001");
            }
            Connection real = DriverManager.getConnection("jdbc:derby:" + url.substring(PREFIX.length()), info);
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                new Broken(real));
        }

        /** One connection: delegates until it breaks. */
        private final class Broken implements InvocationHandler {
            private final Connection real;
            private boolean broken;
            private boolean wroteOrder;
            private boolean wrote;

            Broken(Connection real) {
                this.real = real;
            }

            @Override
            public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
                if (m.getName().equals("isClosed")) return broken || real.isClosed();
                if (m.getName().equals("close") && broken) return null;
                if (broken) throw new SQLException("no connection", "08003");
                if (m.getName().equals("prepareStatement")) {
                    PreparedStatement ps = (PreparedStatement) call(real, m, args);
                    boolean insertsOrder = ((String) args[0]).startsWith("INSERT INTO orders ");
                    boolean writes = !((String) args[0]).startsWith("SELECT");
                    return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {PreparedStatement.class},
                        (p, sm, sargs) -> statement(ps, insertsOrder, writes, sm, sargs));
                }
                if (m.getName().equals("commit") && !wrote && readOnlyCommits.incrementAndGet() == breakInsteadOfCommitAtReadOnly) {
                    throw breakNow();
                }
                if (m.getName().equals("commit") || m.getName().equals("rollback")) wrote = false;
                if (m.getName().equals("commit") && wroteOrder) {
                    wroteOrder = false;
                    int n = newOrderCommits.incrementAndGet();
                    if (n == commitThenBreakAtNewOrder) {
                        real.commit();
                        throw breakNow();
                    }
                    if (n == breakInsteadOfCommitAtNewOrder) throw breakNow();
                }
                if (m.getName().equals("rollback")) wroteOrder = false;
                return call(real, m, args);
            }

            private Object statement(PreparedStatement ps, boolean insertsOrder, boolean writes, Method m, Object[] args)
                    throws Throwable {
                if (m.getName().startsWith("execute")) {
                    if (broken) throw new SQLException("no connection", "08003");
                    if (statements.incrementAndGet() == breakBeforeStatement) throw breakNow();
                    if (insertsOrder) wroteOrder = true;
                    if (writes) wrote = true;
                }
                return call(ps, m, args);
            }

            private SQLException breakNow() throws SQLException {
                broken = true;
                real.rollback();
                real.close();
                toRefuse.set(REFUSED_CONNECTS);
                return new SQLException("connection reset", "08006");
            }
        }

        private static Object call(Object target, Method m, Object[] args) throws Throwable {
            try {
                return m.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        @Override
        public boolean acceptsURL(String url) {
            return url != null && url.startsWith(PREFIX);
        }

        @Override
        public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
            return new DriverPropertyInfo[0];
        }

        @Override
        public int getMajorVersion() {
            return 1;
        }

        @Override
        public int getMinorVersion() {
            return 0;
        }

        @Override
        public boolean jdbcCompliant() {
            return false;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getLogger("flaky");
        }
    }
}
