package org.shepherd.coordinator.cbs;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.shepherd.admin.AdminView;
import org.shepherd.config.ConfigKey;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.BufferedCursor;
import org.shepherd.coordinator.Coordinator;
import org.shepherd.coordinator.DatabaseInfo;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.MetadataRequest;
import org.shepherd.coordinator.Session;
import org.shepherd.coordinator.StatementThreads;
import org.shepherd.divergence.Divergence;
import org.shepherd.divergence.DivergenceLog;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;
import org.shepherd.replica.jdbc.ConnectionPreparer;
import org.shepherd.replica.jdbc.JdbcExecution;
import org.shepherd.replica.jdbc.JdbcValues;
import org.shepherd.replica.jdbc.MetadataCalls;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.replica.jdbc.ReplicaSpec;
import org.shepherd.replica.setup.ReplicaRefusedException;
import org.shepherd.replica.setup.ReplicaSetup;
import org.shepherd.replica.setup.StatementGate;
import org.shepherd.recovery.RestartPlan;
import org.shepherd.schedule.ExecutionMode;
import org.shepherd.schedule.Txn;
import org.shepherd.time.Clock;
import org.shepherd.translator.DeterminismSource;
import org.shepherd.translator.SchemaCatalog;
import org.shepherd.translator.SequenceDefinition;
import org.shepherd.translator.SessionSetting;
import org.shepherd.translator.Translation;
import org.shepherd.translator.Translator;
import org.shepherd.translator.dialect.Dialect;
import org.shepherd.time.ExecutorScheduler;
import org.shepherd.wal.CommitLog;
import org.shepherd.wal.WalRecord;
import org.shepherd.wal.WriteAheadLog;

/**
 * The replicated coordinator for modes {@code cbs}, {@code ss} and {@code serial}: one {@link CbsCore} on its own
 * event thread, one {@link JdbcReplicaEndpoint} per replica, sessions that wait for the core's answers.
 */
public final class CbsCoordinator implements Coordinator, AdminView {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CbsCoordinator.class);

    /** Heap one held autocommit result may take (the primary's rows, until the client reads them); then it spills. */
    public static final long RESULT_MEMORY_BYTES_MAX = 8L << 20;
    /** Distinct statement texts whose translation is cached. */
    public static final int TRANSLATION_CACHE_MAX = 10_000;
    /** Metadata rows returned at most. */
    public static final int METADATA_ROWS_MAX = 100_000;
    /** How long {@code shepherd verify} waits, after its last read, for every replica that is up to have answered. */
    static final long VERIFY_WAIT_MS = 60_000;

    private final CbsCore<JdbcStatement> core;
    private final ExecutorScheduler scheduler;
    private final List<JdbcReplicaEndpoint> endpoints;
    private final DivergenceLog divergences;
    private final CbsCore.Settings settings;
    private final SpillSpace spill;
    private final long statementTimeoutMs;
    private final Set<CbsSession> sessions = ConcurrentHashMap.newKeySet();
    private final Translator translator;
    private final ClockDeterminism determinism;
    private final boolean homogeneous;
    /** The replica dialect that allows one savepoint at a time (Derby), or null when every replica nests them. */
    private final Dialect oneSavepointAtATime;
    /** A replica dialect whose DDL commits the open transaction (MySQL, MariaDB), or null. */
    private final Dialect ddlCommitsTransaction;
    private final Dialect keepsReplacedSavepoints;
    private final Map<String, Optional<String>> identityColumns = new ConcurrentHashMap<>();
    private final NamedLocks namedLocks = new NamedLocks();
    /** The replica that was primary when the shepherd started: its dialect is the one clients speak. */
    private final JdbcReplicaEndpoint clientEngine;
    /** The session this thread works for ({@link #onBehalfOf}): the primary's catalog is read as it sees it. */
    private final ThreadLocal<CbsSession> reader = new ThreadLocal<>();
    private final WriteAheadLog wal;
    /** The log as the core uses it; null without a log. */
    private final JdbcCommitLog commitLogReader;
    private final Object identityLookup = new Object();
    private volatile boolean closed;
    private volatile Thread backgroundVerify;
    /** Repairs the tables secondaries were outvoted on ({@link #repairWhereOutvoted}), or null. */
    private volatile Thread outvotedRepair;
    /** What the last comparison of the replicas found, for {@code status}; empty before the first. */
    private volatile String lastComparison = "";
    /** Where a restored replica is looked for again: the configuration file the shepherd started from, if any. */
    private volatile MovedReplica moves = new MovedReplica(null);

    /**
     * @param pools the replicas, opened; closed with this coordinator
     * @param primaryIndex which of them is the primary
     * @param statementTimeoutMs how long a session waits for the core at most (statement or commit)
     */
    public CbsCoordinator(List<ReplicaPool> pools, int primaryIndex, CbsCore.Settings settings, int workerThreadsMax,
            int fetchSize, long statementTimeoutMs, DivergenceLog divergences) throws SQLException {
        this(pools, primaryIndex, settings, workerThreadsMax, fetchSize, statementTimeoutMs, divergences,
                SpillSpace.temporary(Long.parseLong(ConfigKey.RESULT_SPILL_BYTES_MAX.defaultValue())));
    }

    /** As above; held autocommit results spill into {@code spill}, closed with this coordinator. */
    CbsCoordinator(List<ReplicaPool> pools, int primaryIndex, CbsCore.Settings settings, int workerThreadsMax,
            int fetchSize, long statementTimeoutMs, DivergenceLog divergences, SpillSpace spill) throws SQLException {
        this(pools, primaryIndex, settings, workerThreadsMax, fetchSize, statementTimeoutMs, divergences, spill, null);
    }

    /**
     * As above; committed transactions that wrote are made durable in {@code wal} (closed with this coordinator) before
     * they are acknowledged, and what an earlier run logged is replayed on the replicas that lack it. Null: no log (a
     * shepherd crash may lose acknowledged commits).
     */
    CbsCoordinator(List<ReplicaPool> pools, int primaryIndex, CbsCore.Settings settings, int workerThreadsMax,
            int fetchSize, long statementTimeoutMs, DivergenceLog divergences, SpillSpace spill, WriteAheadLog wal)
            throws SQLException {
        this.spill = spill;
        this.wal = wal;
        List<ReplicaSpec> specs = new ArrayList<>();
        for (ReplicaPool p : pools) specs.add(p.spec());
        verifyRoles(specs, primaryIndex);
        this.divergences = divergences;
        this.settings = settings;
        this.statementTimeoutMs = statementTimeoutMs;
        this.endpoints = new ArrayList<>();
        for (ReplicaPool p : pools) endpoints.add(new JdbcReplicaEndpoint(p, workerThreadsMax, fetchSize, spill, RESULT_MEMORY_BYTES_MAX));
        String[] unreachable = new String[endpoints.size()];
        long[][] highWater = new long[endpoints.size()][];
        long[] lastBarriers = new long[endpoints.size()];
        for (int i = 0; i < endpoints.size(); i++) {
            highWater[i] = readable(i, unreachable);
            lastBarriers[i] = highWater[i] == null ? -1 : highWater[i][1];
        }
        requireReachable(unreachable, settings.f());
        this.clientEngine = endpoints.get(primaryIndex);
        Dialect client = settings.clientDialect().isEmpty() ? clientEngine.dialect() : Dialect.forName(settings.clientDialect());
        Set<Dialect> targets = new LinkedHashSet<>();
        for (JdbcReplicaEndpoint e : endpoints) targets.add(e.dialect());
        this.homogeneous = targets.stream().allMatch(d -> d.family() == client.family());
        this.oneSavepointAtATime = targets.stream().filter(d -> !d.nestsSavepoints()).findFirst().orElse(null);
        this.ddlCommitsTransaction = targets.stream().filter(Dialect::ddlCommitsTransaction).findFirst().orElse(null);
        this.keepsReplacedSavepoints = targets.stream().filter(Dialect::keepsReplacedSavepoints).findFirst().orElse(null);
        // Column types: from the DDL translated here, else from the primary's metadata (tables made before we started).
        this.translator = new Translator(client, targets, TRANSLATION_CACHE_MAX,
                new SchemaCatalog(table -> readPrimaryCatalog(c -> SchemaCatalog.columnsOf(c, table))))
                .withHiddenTables(ReservedTables.NAMES)
                .withDefaultSchema(clientEngine.pool().databaseInfoIfKnown().defaultSchema())
                .withServerVersion(clientEngine.pool().databaseInfoIfKnown().productVersion())
                .withDdlClock(this::ddlTime);
        this.determinism = new ClockDeterminism(settings.pinning().clock(), settings.pinning().seed());
        this.determinism.adoptFrom(this::primarysSequence);
        this.scheduler = new ExecutorScheduler("cbs-core");
        RestartPlan.LogState logState = logState(wal);
        long floor = RestartPlan.floorToRead(logState, lastBarriers);
        List<RestartPlan.ReplicaLog> replicaLogs = new ArrayList<>();
        for (int i = 0; i < endpoints.size(); i++) {
            JdbcReplicaEndpoint e = endpoints.get(i);
            replicaLogs.add(unreachable[i] == null ? e.readTxlog(highWater[i], floor)
                    : RestartPlan.ReplicaLog.unreachable(e.name(), e.canBePrimary(), unreachable[i]));
        }
        RestartPlan.Plan plan;
        try {
            plan = RestartPlan.plan(logState, replicaLogs, primaryIndex, settings.recovery().viewChange());
        } catch (RestartPlan.NoPrimaryException e) {
            scheduler.close();
            throw new SQLException(e.getMessage(), "55000", e);
        }
        if (!plan.primaryNote().isEmpty()) LOG.warn("{}", plan.primaryNote());
        CommitLog<JdbcStatement> commitLog = CommitLog.none();
        JdbcCommitLog jdbcLog = null;
        List<Txn<JdbcStatement>> logged = new ArrayList<>();
        if (wal != null) {
            jdbcLog = new JdbcCommitLog(wal, targets, endpoints.size());
            commitLog = jdbcLog;
            if (!logState.history() && floor >= 0) {
                LOG.warn("the write-ahead log has no history but the replicas committed transactions up to barrier {}: an"
                        + " earlier run's acknowledged commits that had not reached every replica cannot be replayed (first"
                        + " start with a log, or its directory was removed)", floor);
                try {
                    wal.recordFloor(floor); // what the replicas held before this log began
                } catch (java.io.IOException e) {
                    scheduler.close();
                    throw new SQLException("cannot write the write-ahead log: " + e.getMessage(), "58030", e);
                }
            }
            for (WalRecord r : wal.recovered()) {
                if (r.barrier() > logState.floor()) logged.add(JdbcCommitLog.replayable(r, endpoints.size()));
            }
        }
        if (settings.recovery().txlogTruncateBarriers() > 0) truncateTxlogsAtStart(plan, floor, highWater);
        this.commitLogReader = jdbcLog;
        this.core = new CbsCore<>(endpoints, plan.primary(), settings, scheduler, divergences, commitLog);
        long onDiskOnly = wal != null ? wal.recoveredSummary().droppedThrough() : -1;
        onCore(f -> {
            core.resume(plan.lastTxId(), plan.nextBarrier(), logged, onDiskOnly, plan.replicas());
            f.complete(null);
        });
        if (wal != null) wal.forgetRecovered();
        awaitPrimaryServing(plan);
    }

    /**
     * Creates replica {@code i}'s transaction log if it has none and returns its high water ({@code [last txid, last
     * barrier]}); a replica that does not answer (unreachable when its pool started, or now) gets the reason in
     * {@code unreachable} instead, and null: it starts down and is probed. Other failures stop the start.
     */
    private long[] readable(int i, String[] unreachable) throws SQLException {
        JdbcReplicaEndpoint e = endpoints.get(i);
        SQLException atStart = e.pool().unreachableAtStart();
        try {
            e.createTxlogIfMissing();
            return e.txlogHighWater();
        } catch (SQLException failure) {
            if (atStart == null && !org.shepherd.vote.ErrorOutcome.isConnectionFailure(failure)) throw failure;
            unreachable[i] = (atStart != null ? atStart : failure).getMessage();
            LOG.warn("replica {} does not answer at start ({}); it is probed until it does", e.name(), unreachable[i]);
            return null;
        }
    }

    /**
     * Deletes the transaction log rows up to {@code floor} (what the log recorded, or the replicas held before it began)
     * of each replica that holds them all, before any transaction runs: rows the last run did not truncate (it truncates
     * only what it committed while every replica was up), or every row of a database an earlier version served. A
     * failure leaves the rows, and the start goes on.
     */
    private void truncateTxlogsAtStart(RestartPlan.Plan plan, long floor, long[][] highWater) {
        for (int i = 0; i < endpoints.size(); i++) {
            if (!plan.replicas().get(i).holdsFloor()) continue;
            try {
                endpoints.get(i).truncateTxlogThrough(floor, highWater[i]);
            } catch (SQLException e) {
                LOG.warn("cannot truncate the transaction log of replica {} through barrier {}: {}", endpoints.get(i).name(), floor,
                        e.toString());
            }
        }
    }

    /** At least f+1 replicas must answer at start: fewer could commit nothing. */
    private void requireReachable(String[] unreachable, int f) throws SQLException {
        List<String> down = new ArrayList<>();
        for (int i = 0; i < unreachable.length; i++) {
            if (unreachable[i] != null) down.add(endpoints.get(i).name() + " (" + unreachable[i] + ")");
        }
        if (down.isEmpty() || unreachable.length - down.size() >= f + 1) return; // too few configured: CbsCore says so
        throw new SQLException("only " + (unreachable.length - down.size()) + " of " + unreachable.length + " replicas answer,"
                + " and at least f+1 = " + (f + 1) + " are needed to commit anything: " + String.join(", ", down)
                + "; start them and try again", "08001");
    }

    /** What the write-ahead log kept of earlier runs; no log: nothing, and no history. */
    private static RestartPlan.LogState logState(WriteAheadLog wal) {
        if (wal == null) return new RestartPlan.LogState(false, -1, new long[0], -1);
        WriteAheadLog.Recovered found = wal.recoveredSummary();
        return new RestartPlan.LogState(wal.history(), wal.floor(), found.barriers(), found.lastTxId());
    }

    /**
     * A primary that must first replay transactions of the earlier run serves once it has them: waits for that, so that
     * the shepherd announces itself ready only when it can answer. Gives up waiting (clients then get 08006 or 40001 until
     * it serves) when no replay progress was seen for a while.
     */
    private void awaitPrimaryServing(RestartPlan.Plan plan) throws SQLException {
        if (plan.replicas().get(plan.primary()).start() != RestartPlan.Start.REPLAY) return;
        long stallLimitMs = 60_000;
        long lastProgressAt = System.nanoTime();
        String lastState = "";
        while (true) {
            CbsCore.ReplicaStatus p = replicaStatus().stream().filter(CbsCore.ReplicaStatus::primary).findFirst().orElseThrow();
            if ("up".equals(p.state())) return;
            if (!p.state().equals(lastState)) {
                lastState = p.state();
                lastProgressAt = System.nanoTime();
                LOG.info("waiting for the primary {} before serving: {}", p.name(), p.state());
            } else if (System.nanoTime() - lastProgressAt > TimeUnit.MILLISECONDS.toNanos(stallLimitMs)) {
                LOG.warn("the primary {} does not serve yet ({}); serving anyway: statements fail until it does", p.name(),
                        p.state());
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while the primary replayed the write-ahead log", "57014", e);
            }
        }
    }

    /** The coordinator the configuration asks for ({@code mode} = cbs, ss or serial). */
    public static CbsCoordinator open(ShepherdConfig config) throws SQLException {
        ExecutionMode mode = ExecutionMode.parse(config.mode().name());
        List<ReplicaPool> pools = new ArrayList<>();
        int primary = -1;
        for (int i = 0; i < config.replicas().size(); i++) {
            if (config.replicas().get(i).name().equals(config.primary().name())) primary = i;
        }
        verifyRoles(config.replicas(), primary);
        WriteAheadLog wal = null;
        try {
            for (ReplicaSpec spec : config.replicas()) {
                pools.add(ReplicaPool.startingUnreachable(spec, ConnectionPreparer.defaults(spec.dialect()),
                        config.replicaPoolSizeMax(), config.replicaConnectTimeoutMs()));
            }
            SpillSpace spill;
            try {
                spill = new SpillSpace(config.dataDir().resolve("spill"), config.resultSpillBytesMax());
            } catch (java.io.IOException e) {
                throw new SQLException("cannot use " + config.dataDir().resolve("spill") + " for held results: " + e.getMessage(),
                        "58030", e);
            }
            java.nio.file.Path walDir = config.dataDir().resolve("wal");
            try {
                // what a restart replays: the newest replica.recovery.log.max records in memory, the others read back
                wal = WriteAheadLog.open(walDir, new WriteAheadLog.Options(config.walSync(), config.walSegmentBytesMax(),
                        config.replicaRecoveryLogMax()));
            } catch (java.io.IOException e) {
                spill.close();
                throw new SQLException("cannot open the write-ahead log in " + walDir + ": " + e.getMessage(), "58030", e);
            }
            DivergenceLog divergences;
            try {
                divergences = config.divergenceFileBytesMax() == 0 ? new DivergenceLog()
                        : DivergenceLog.open(config.dataDir(), DivergenceLog.DEFAULT_CAPACITY, config.divergenceFileBytesMax());
            } catch (java.io.IOException e) {
                spill.close(); // the write-ahead log is closed below
                throw new SQLException("cannot keep divergence reports in " + config.dataDir() + ": " + e.getMessage(), "58030", e);
            }
            Sequences sequences;
            java.nio.file.Path sequencesFile = config.dataDir().resolve("sequences.properties");
            try {
                sequences = Sequences.open(sequencesFile);
            } catch (java.io.IOException e) {
                spill.close(); // the write-ahead log is closed below
                divergences.close();
                throw new SQLException("cannot read the sequences in " + sequencesFile + ": " + e.getMessage(), "58030", e);
            }
            CbsCoordinator coordinator = new CbsCoordinator(pools, primary, CbsCore.Settings.defaults(config.f(), mode)
                    .withConnectionWaitMs(config.replicaConnectTimeoutMs())
                    .withClientDialect(config.clientDialect())
                    .withRecovery(new CbsCore.Recovery(config.replicaProbeMs(), config.replicaProbeMaxMs(),
                            config.replicaRecoveryLogMax(), config.viewChange(), config.viewChangeOutvoted(),
                            config.viewChangeUnresponsiveMs(), config.replicaTxlogTruncateBarriers(),
                            config.walRetainBytesMax())),
                    config.replicaPoolSizeMax(),
                    config.fetchSizeDefault(), 120_000, divergences, spill, wal);
            coordinator.determinism.useSequences(sequences);
            coordinator.moves = new MovedReplica(config);
            if (config.verifyIntervalS() > 0) {
                coordinator.verifyInBackground(TimeUnit.SECONDS.toMillis(config.verifyIntervalS()), config.verifyChunkPauseMs(),
                        config.verifyRepair(), config.verifySchemas());
            }
            if (config.verifyRepair()) coordinator.repairWhereOutvoted(config.verifyChunkPauseMs(), REPAIR_AGAIN_MS);
            return coordinator;
        } catch (SQLException | RuntimeException e) {
            pools.forEach(ReplicaPool::close);
            if (wal != null) wal.close();
            throw e;
        }
    }

    /**
     * Refuses a replica set whose primary cannot take its role ({@link ReplicaSetup#canBePrimary()} false). Every
     * replica may be a secondary: one that needs {@link StatementGate#PREDECESSORS_COMMITTED} gets a commit-gated
     * pool ({@link JdbcReplicaEndpoint#commitGated()}).
     */
    static void verifyRoles(List<ReplicaSpec> replicas, int primaryIndex) throws ReplicaRefusedException {
        if (primaryIndex < 0 || primaryIndex >= replicas.size()) return;
        ReplicaSpec spec = replicas.get(primaryIndex);
        try {
            ReplicaSetup.forDialect(spec.dialect()).verifyPrimary();
        } catch (ReplicaRefusedException e) {
            throw new ReplicaRefusedException("replica " + spec.name() + " (" + spec.dialect() + "): " + e.getMessage());
        }
    }

    @Override
    public Session openSession(String user, String database) throws SQLException {
        if (closed) throw new SQLException("the shepherd is shutting down", "57P01");
        CbsSession s = new CbsSession(this, user);
        sessions.add(s);
        return s;
    }

    void sessionClosed(CbsSession s) {
        sessions.remove(s);
    }

    /**
     * The statement for the replicas: translated per dialect and bound once. Statements the parser does not know
     * (42000) still run unchanged when every replica speaks the client's dialect family, unless they hold something
     * each replica would evaluate for itself. A statement that names one of the shepherd's own tables is refused (42501,
     * {@link ReservedTables}).
     */
    Translation translate(String sql) throws SQLException {
        return translate(sql, null);
    }

    /**
     * {@link #translate(String)} in a session whose default schema is {@code schema} (an SQL identifier; null: the
     * replicas' own): its tables are named in that schema. A statement the parser does not know cannot be, and is
     * refused then.
     */
    Translation translate(String sql, String schema) throws SQLException {
        ReservedTables.refuseIfNamed(sql, translator.clientDialect().backslashEscapesInStrings());
        try {
            return translator.translate(sql, schema);
        } catch (SQLException e) {
            if (!"42000".equals(e.getSQLState()) || !homogeneous) throw e;
            if (schema != null) {
                throw new SQLFeatureNotSupportedException("with a session schema set (SET SCHEMA " + schema + "), a statement"
                        + " the shepherd's parser does not read cannot be sent: the schema cannot be named in it; qualify its"
                        + " tables and SET SCHEMA DEFAULT first (" + e.getMessage() + ")", "0A000", e);
            }
            translator.refuseEvaluatedPerReplica(sql); // it runs unchanged: nothing in it may differ per replica
            return null;
        }
    }

    /**
     * A statement the parser does not read ({@link #translate} returned null), as every replica runs it: unchanged but for
     * a qualifier naming the primary's own schema or database, which each replica names otherwise
     * ({@link Translator#withoutDefaultSchema}).
     */
    String asWritten(String sql) {
        return translator.withoutDefaultSchema(sql);
    }

    /** MySQL's named locks, kept here for every session. */
    NamedLocks namedLocks() {
        return namedLocks;
    }

    /**
     * Whether {@code identifier} names the schema a connection of the primary (of the client's dialect) starts in: that
     * name stands for each replica's own default schema (a Derby replica's is its user's, a MariaDB replica's its
     * database), as an unqualified name does, so that a tool that sets the schema it found (Flyway's {@code SET SCHEMA
     * "APP"}) changes nothing.
     */
    boolean isDefaultSchema(String identifier) {
        String primaryDefault = databaseInfo().defaultSchema();
        return !primaryDefault.isEmpty() && SessionSetting.storedName(identifier, clientDialect()).equals(primaryDefault);
    }

    /** Fails with 3F000 unless {@code identifier} (plain or double-quoted) names a schema (or MySQL database) on the primary. */
    void checkSchemaExists(String identifier) throws SQLException {
        readPrimaryCatalog(c -> TableVerifier.place(c, c.getMetaData(), SessionSetting.storedName(identifier, clientDialect())));
    }

    /** One read of a connection's catalog. */
    @FunctionalInterface
    interface CatalogRead<T> {
        T read(Connection c) throws SQLException;
    }

    /** A session's work that may read the primary's catalog. */
    @FunctionalInterface
    interface SessionWork<T> {
        T run() throws SQLException;
    }

    /**
     * Runs {@code work} for {@code session} on this thread: the primary's catalog is read as that session sees it
     * ({@link #readPrimaryCatalog}).
     */
    <T> T onBehalfOf(CbsSession session, SessionWork<T> work) throws SQLException {
        reader.set(session);
        try {
            return work.run();
        } finally {
            reader.remove();
        }
    }

    /**
     * Reads the primary's catalog (a table's columns or identity column, a schema, a client's catalog query or
     * {@link java.sql.DatabaseMetaData} call): on a connection of its own, outside any transaction, rolled back after;
     * but in the transaction of the session this thread works for ({@link #onBehalfOf}), on its connection, when that
     * transaction may have changed the schema and holds a connection at the primary it ran on. There the read sees the
     * transaction's own changes, and does not wait for the catalog locks the transaction holds (Derby's DDL is
     * transactional: read on another connection, it waited until the lock timeout).
     */
    <T> T readPrimaryCatalog(CatalogRead<T> read) throws SQLException {
        int primaryIndex = core.primaryIndex();
        JdbcReplicaEndpoint p = endpoints.get(primaryIndex);
        CbsSession session = reader.get();
        Txn<JdbcStatement> t = session == null ? null : session.schemaChangedIn();
        // the transaction's statements ran there as the primary's (never a secondary's replay: that runs on its own)
        Connection own = t == null || t.primary() != primaryIndex ? null : p.transactionConnection(t.id());
        if (own != null) return read.read(own);
        return readCatalog(p, read);
    }

    /** Reads {@code replica}'s catalog on a connection of its own, outside any transaction, rolled back after. */
    private static <T> T readCatalog(JdbcReplicaEndpoint replica, CatalogRead<T> read) throws SQLException {
        try (Connection c = replica.pool().acquireForMetadata()) {
            T result;
            try {
                result = read.read(c);
            } catch (SQLException | RuntimeException e) {
                try {
                    if (!c.getAutoCommit()) c.rollback();
                } catch (SQLException also) {
                    e.addSuppressed(also);
                }
                throw e;
            }
            if (!c.getAutoCommit()) c.rollback();
            return result;
        }
    }

    /**
     * The identity (auto-increment) column of {@code table} on the primary, if any; cached until the next DDL
     * statement ({@link #forgetIdentityColumns()}).
     */
    Optional<String> identityColumn(String table) throws SQLException {
        String key = table.toUpperCase(java.util.Locale.ROOT);
        Optional<String> cached = identityColumns.get(key);
        if (cached != null) return cached;
        synchronized (identityLookup) { // sessions inserting into a new table at once look it up once, not each
            cached = identityColumns.get(key);
            if (cached != null) return cached;
            Optional<String> found = lookUpIdentityColumn(table);
            identityColumns.put(key, found);
            return found;
        }
    }

    /** The identity column as the client's SQL names it: quoted when its stored name is not what folding gives. */
    private Optional<String> lookUpIdentityColumn(String table) throws SQLException {
        String quote = String.valueOf(clientDialect().identifierQuote());
        String[] found = {null};
        readPrimaryCatalog(c -> {
            // restricted to the connection's own database and schema, or the one named: others may hold a namesake
            return SchemaCatalog.eachColumn(c, table.replace("\"", "").replace("`", ""), rs -> {
                if ("YES".equalsIgnoreCase(rs.getString("IS_AUTOINCREMENT"))) {
                    found[0] = TableVerifier.sqlName(c.getMetaData(), quote, rs.getString("COLUMN_NAME"));
                }
            });
        });
        return Optional.ofNullable(found[0]);
    }

    /** Forgets column types learned or loaded (a DDL failed or was rolled back); they are loaded again when needed. */
    void forgetSchema() {
        translator.catalog().forgetAll();
        identityColumns.clear();
    }

    void forgetIdentityColumns() {
        identityColumns.clear();
    }

    /** The SELECT of a translated INSERT ... SELECT as a query of its own ({@link Translator#insertSelect}). */
    Translation insertSelect(Translation insert, String schema) throws SQLException {
        return translator.insertSelect(insert, schema);
    }

    /** The dialect the translator reads client SQL in (the first primary's). */
    Dialect clientDialect() {
        return translator.clientDialect();
    }

    /**
     * A sequence of the primary the shepherd does not keep (created before it ran, or behind its back), named as the
     * primary stores it: its definition from the primary's catalog, and one draw there, whose value the shepherd's first
     * draw gives (the primary's own sequence is not used again). Null when the primary has none of that name (or its
     * engine none the shepherd reads: Derby, HSQLDB and MariaDB are read).
     */
    private Sequences.Found primarysSequence(String name) throws SQLException {
        Dialect d = primary().dialect();
        String quoted = JdbcReplicaEndpoint.quoted(String.valueOf(d.identifierQuote()), name);
        String definition;
        String draw;
        switch (d.family()) {
            case DERBY:
                definition = "SELECT s.SEQUENCEDATATYPE, s.STARTVALUE, s.INCREMENT, s.MINIMUMVALUE, s.MAXIMUMVALUE, s.CYCLEOPTION"
                        + " FROM SYS.SYSSEQUENCES s WHERE s.SEQUENCENAME = ? AND s.SCHEMAID = (SELECT c.SCHEMAID FROM"
                        + " SYS.SYSSCHEMAS c WHERE c.SCHEMANAME = CURRENT SCHEMA)";
                draw = "VALUES NEXT VALUE FOR " + quoted;
                break;
            case HSQLDB:
                definition = "SELECT DATA_TYPE, START_VALUE, INCREMENT, MINIMUM_VALUE, MAXIMUM_VALUE, CYCLE_OPTION FROM"
                        + " INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_NAME = ? AND SEQUENCE_SCHEMA = CURRENT_SCHEMA";
                draw = "VALUES NEXT VALUE FOR " + quoted;
                break;
            case MYSQL:
                definition = "SELECT 'BIGINT', start_value, increment, minimum_value, maximum_value, cycle_option FROM "
                        + quoted + " WHERE ? IS NOT NULL";
                draw = "SELECT NEXTVAL(" + quoted + ")";
                break;
            default:
                return null;
        }
        try (Connection c = primary().pool().acquireForMetadata()) {
            try {
                SequenceDefinition found;
                try (java.sql.PreparedStatement ps = c.prepareStatement(definition)) {
                    ps.setString(1, name);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) return null;
                        String cycle = rs.getString(6).trim();
                        found = new SequenceDefinition(rs.getString(1).trim().toUpperCase(java.util.Locale.ROOT),
                                Long.parseLong(rs.getString(2).trim()), Long.parseLong(rs.getString(3).trim()),
                                Long.parseLong(rs.getString(4).trim()), Long.parseLong(rs.getString(5).trim()),
                                cycle.equalsIgnoreCase("Y") || cycle.equalsIgnoreCase("YES") || cycle.equals("1"));
                    }
                } catch (SQLException noSuchTable) {
                    if (d.family() != Dialect.Family.MYSQL) throw noSuchTable;
                    return null; // MySQL has no sequences, and MariaDB no table of that name
                }
                long next;
                try (java.sql.Statement st = c.createStatement(); ResultSet rs = st.executeQuery(draw)) {
                    rs.next();
                    next = rs.getLong(1);
                }
                c.commit();
                LOG.info("sequence {} of the primary {} is kept by the shepherd from now on, from {}", name, primary().name(), next);
                return new Sequences.Found(found, next);
            } finally {
                c.rollback();
            }
        }
    }

    /** Runs a CREATE or DROP SEQUENCE: the shepherd keeps the sequences ({@link Sequences}). */
    void applySequence(org.shepherd.translator.SequenceStatement st) throws SQLException {
        determinism.sequences().apply(st);
    }

    DeterminismSource determinism() {
        return determinism;
    }

    /** Whether every replica is of the client's dialect family. */
    boolean homogeneous() {
        return homogeneous;
    }

    /**
     * A replica dialect whose DDL commits the open transaction and itself (MySQL, MariaDB, HSQLDB), or null: then DDL does so on
     * every replica ({@link CbsSession}), else a ROLLBACK after it would undo it, and what the transaction did before it,
     * on some replicas only.
     */
    Dialect ddlCommitsTransaction() {
        return ddlCommitsTransaction;
    }

    /** A replica dialect that allows one savepoint at a time, or null. */
    Dialect oneSavepointAtATime() {
        return oneSavepointAtATime;
    }

    /** A replica dialect whose {@code SAVEPOINT x} keeps an older savepoint x instead of replacing it, or null. */
    Dialect keepsReplacedSavepoints() {
        return keepsReplacedSavepoints;
    }

    CbsCore<JdbcStatement> core() {
        return core;
    }

    public DivergenceLog divergences() {
        return divergences;
    }

    public List<JdbcReplicaEndpoint> endpoints() {
        return List.copyOf(endpoints);
    }

    public JdbcReplicaEndpoint primary() {
        return endpoints.get(core.primaryIndex());
    }

    /** Core counters, read on the core thread. */
    public CbsCore.Stats stats() throws SQLException {
        return onCore(f -> f.complete(core.stats()));
    }

    /** Per replica: role, up/down, the last barrier it committed, transactions in its pool (read on the core thread). */
    public List<CbsCore.ReplicaStatus> replicaStatus() throws SQLException {
        return onCore(f -> f.complete(core.replicaStatus()));
    }

    /** Whether every replica that is up has finished (committed or rolled back) each of {@code txIds}. */
    boolean finishedEverywhere(java.util.Collection<Long> txIds) throws SQLException {
        return onCore(f -> f.complete(core.finishedEverywhere(txIds)));
    }

    /** The next commit barrier B (the number of transactions committed since start). */
    public long currentBarrier() throws SQLException {
        return onCore(f -> f.complete(core.currentBarrier()));
    }

    /**
     * The dialect and product of the SQL the shepherd reads: those of the replica that was primary when it started (its
     * translator's client dialect), also after a view change made a replica of another engine primary, so that a client
     * (and a tool that picks its SQL by product name) goes on speaking the dialect that is read.
     */
    @Override
    public DatabaseInfo databaseInfo() {
        DatabaseInfo info = clientEngine.pool().databaseInfoIfKnown();
        if (info == DatabaseInfo.UNKNOWN) info = primary().pool().databaseInfoIfKnown(); // the primary answered: known
        if (settings.clientDialect().isEmpty() || info == DatabaseInfo.UNKNOWN) return info;
        // client.dialect: the clients write that dialect and quote names its way; the product stays the primary's
        Dialect client = clientDialect();
        return new DatabaseInfo(client.name(), String.valueOf(client.identifierQuote()), info.productName(),
                info.productVersion(), info.defaultSchema());
    }

    @Override
    public ViewStatus viewStatus() throws SQLException {
        CbsCore.Stats stats = stats();
        WriteAheadLog.Stats log = wal == null ? null : wal.stats();
        return new ViewStatus(settings.mode().name().toLowerCase(Locale.ROOT), settings.f(), currentBarrier(),
                primary().name(), endpoints.size(), stats.commits(), stats.aborts(), stats.voteAborts(), divergences.total(),
                core.view(), log == null ? -1 : log.bytesOnDisk(), log == null ? 0 : log.segments(),
                wal == null ? -1 : wal.releasedUpTo(), stats.commitWait().p50Ms(), stats.commitWait().p99Ms(),
                stats.commitLatency().p50Ms(), stats.commitLatency().p99Ms(), stats.commitLatency().maxMs(),
                core.lastViewChange(), lastComparison);
    }

    /**
     * The time the rows already there get from a column added with a clock DEFAULT: the determinism source's, as pinned
     * values are (read when such an ALTER TABLE is translated).
     */
    private java.time.LocalDateTime ddlTime() {
        return java.time.LocalDateTime.ofInstant(determinism.now(), determinism.zone());
    }

    /** The clock of the core's scheduler, for waits outside the core. */
    Clock clock() {
        return scheduler.clock();
    }

    @Override
    public List<ReplicaRow> statusRows() throws SQLException {
        Map<String, Long> divergent = new HashMap<>();
        for (Divergence d : divergences.snapshot()) divergent.merge(d.replica(), 1L, Long::sum);
        long barrier = currentBarrier();
        Map<String, String> locations = new HashMap<>();
        for (JdbcReplicaEndpoint e : endpoints) locations.put(e.name(), e.pool().spec().location());
        List<ReplicaRow> rows = new ArrayList<>();
        for (CbsCore.ReplicaStatus r : replicaStatus()) {
            String state = r.state();
            long lag = Math.max(0, barrier - 1 - r.lastCommittedBarrier());
            rows.add(new ReplicaRow(r.name(), r.primary() ? "primary" : "secondary", state, r.lastCommittedBarrier(), lag,
                    r.transactionsInPool(), r.reruns(), divergent.getOrDefault(r.name(), 0L), locations.get(r.name())));
        }
        return rows;
    }

    @Override
    public String restore(String replica, AdminView.RestoreStep step) throws SQLException {
        CbsCore.Move move = step == AdminView.RestoreStep.COPIED ? moves.find(replica, endpoints) : null;
        onCore(f -> {
            java.util.function.Consumer<SQLException> done = e -> {
                if (e == null) {
                    f.complete(null);
                } else {
                    f.completeExceptionally(e);
                }
            };
            if (step == AdminView.RestoreStep.COPIED) {
                core.restoreCopied(replica, move, done);
            } else {
                core.restore(replica, step == AdminView.RestoreStep.TAKE_OUT, done);
            }
        });
        for (AdminView.ReplicaRow r : statusRows()) {
            if (r.replica().equals(replica)) return r.state();
        }
        return "unknown";
    }

    /** Compares every table ({@code table} null or empty) or one on every replica: {@link #verify(String, boolean)}. */
    public List<AdminView.VerifyRow> verify(String table) throws SQLException {
        return verify(table, false);
    }

    @Override
    public List<AdminView.VerifyRow> verify(String table, boolean repair) throws SQLException {
        return compared(new TableVerifier(this, VERIFY_WAIT_MS, 0).verify(table, repair), "on demand", repair);
    }

    /** Keeps a summary of a comparison's result for {@code status} ({@link ViewStatus#lastComparison}); returns it. */
    private List<AdminView.VerifyRow> compared(List<AdminView.VerifyRow> rows, String how, boolean repair) {
        List<String> repaired = new ArrayList<>();
        List<String> unequal = new ArrayList<>();
        for (AdminView.VerifyRow r : rows) {
            if (!r.repaired().isEmpty()) repaired.add(r.table() + " (" + r.repaired() + ")");
            if (!"equal".equals(r.result())) unequal.add(r.table());
        }
        StringBuilder s = new StringBuilder(java.time.Instant.ofEpochMilli(clock().nowMillis()).toString()).append(", ")
                .append(how).append(repair ? ", with repair: " : ": ").append(rows.size() - unequal.size()).append(" of ")
                .append(rows.size()).append(rows.size() == 1 ? " table" : " tables").append(" equal on every replica");
        if (!repaired.isEmpty()) s.append("; repaired ").append(firstFew(repaired));
        if (!unequal.isEmpty()) s.append("; not equal: ").append(firstFew(unequal));
        lastComparison = s.toString();
        return rows;
    }

    /** At most five of {@code items}, then how many more: a status line stays a line. */
    private static String firstFew(List<String> items) {
        int shown = Math.min(5, items.size());
        String few = String.join(", ", items.subList(0, shown));
        return shown == items.size() ? few : few + " and " + (items.size() - shown) + " more";
    }

    /**
     * Compares every table on every replica in the background ({@code verify.interval.s}): {@code intervalMs} after the
     * last pass ended, with {@code chunkPauseMs} between two chunks; a WARN line per table that differs; with
     * {@code repair} ({@code verify.repair}) the differences are repaired, an INFO line per table repaired. Covers the
     * tables of the primary's default schema and of {@code schemas} ({@code verify.schemas}). Stops with {@link #close}.
     */
    public void verifyInBackground(long intervalMs, long chunkPauseMs, boolean repair, List<String> schemas) {
        if (intervalMs <= 0) throw new IllegalArgumentException("intervalMs must be > 0");
        TableVerifier verifier = new TableVerifier(this, VERIFY_WAIT_MS, chunkPauseMs);
        backgroundVerify = inBackground("shepherd-verify", "background comparison of the replicas", () -> {
            Thread.sleep(intervalMs);
            if (closed) return;
            List<AdminView.VerifyRow> rows = new ArrayList<>(verifier.verify(null, repair));
            for (String schema : schemas) {
                try {
                    rows.addAll(verifier.verify(schema + ".*", repair));
                } catch (SQLException e) {
                    if (closed) return;
                    LOG.warn("background comparison of schema {} failed: {}", schema, e.getMessage());
                }
            }
            logVerification(compared(rows, "in the background", repair));
        });
    }

    /** A pass of a background thread ({@link #inBackground}). */
    private interface Pass {
        void run() throws SQLException, InterruptedException;
    }

    /**
     * Starts a thread that runs {@code pass} over and over until {@link #close}: a pass that fails is a WARN line
     * ({@code what} failed), an interrupt ends it.
     */
    private Thread inBackground(String name, String what, Pass pass) {
        Thread t = StatementThreads.newThread(() -> {
            while (!closed) {
                try {
                    pass.run();
                } catch (InterruptedException e) {
                    return;
                } catch (SQLException | RuntimeException e) {
                    if (closed) return;
                    LOG.warn("{} failed: {}", what, e.getMessage());
                }
            }
        }, name);
        t.start();
        return t;
    }

    /** A table repaired after a secondary was outvoted on it is repaired again for that reason at most this often. */
    static final long REPAIR_AGAIN_MS = 10_000;

    /**
     * Compares and repairs, at once and on a thread of its own, each table that a committed statement changed and a
     * secondary answered otherwise than f+1 replicas on ({@code verify.repair}): a row it lacked (an UPDATE's count 0
     * where the others changed 1), a constraint or a failure of its own. Its rows then differ, masked by the vote until
     * the next background comparison, if any, would have found them. A table is queued once however many statements
     * were outvoted on it, and repaired for this reason at most once per {@code againMs} (a replica that keeps refusing a
     * write is not repaired in a loop: each repair that fails is a WARN line). Stops with {@link #close}.
     */
    public void repairWhereOutvoted(long chunkPauseMs, long againMs) {
        java.util.concurrent.BlockingQueue<String> suspects = new java.util.concurrent.LinkedBlockingQueue<>();
        Set<String> queued = ConcurrentHashMap.newKeySet();
        core.onOutvotedSecondary((statement, replica) -> {
            String table = statement.changedTable();
            if (table != null && queued.add(table)) suspects.add(table);
        });
        TableVerifier verifier = new TableVerifier(this, VERIFY_WAIT_MS, chunkPauseMs);
        Map<String, Long> repairedAt = new HashMap<>(); // read and written by the repair thread only
        outvotedRepair = inBackground("shepherd-outvoted-repair", "repair of a table a secondary was outvoted on", () -> {
            String table = suspects.take();
            Long last = repairedAt.get(table);
            long wait = last == null ? 0 : last + againMs - clock().nowMillis();
            if (wait > 0) Thread.sleep(wait);
            queued.remove(table);
            if (closed) return;
            repairedAt.put(table, clock().nowMillis());
            LOG.info("a secondary was outvoted on a change of table {}: comparing and repairing it", table);
            logVerification(compared(verifier.verify(table, true), "after a secondary was outvoted", true));
        });
    }

    private static void logVerification(List<AdminView.VerifyRow> rows) {
        long equal = 0;
        for (AdminView.VerifyRow r : rows) {
            if (!r.repaired().isEmpty()) LOG.info("background repair: table {}: {}", r.table(), r.repaired());
            if ("equal".equals(r.result())) {
                equal++;
            } else {
                LOG.warn("background comparison: table {} ({} rows): {}", r.table(), r.rows(), r.result());
            }
        }
        LOG.info("background comparison: {} of {} tables equal on every replica", equal, rows.size());
    }

    @Override
    public List<Divergence> divergenceRows() {
        return divergences.snapshot();
    }

    /** Waits until every transaction is committed or rolled back on every live replica (tests, shutdown). */
    public boolean awaitIdle(long timeoutMs) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() < deadline) {
            Boolean idle = onCore(f -> f.complete(core.idle()));
            if (idle) return true;
            Thread.sleep(10);
        }
        return false;
    }

    /** Runs {@code action} on the core thread and waits for the future it completes (bounded). */
    <T> T onCore(Consumer<CompletableFuture<T>> action) throws SQLException {
        CompletableFuture<T> f = new CompletableFuture<>();
        return await(f, () -> action.accept(f), "the coordinator");
    }

    <T> T await(CompletableFuture<T> f, Runnable onCoreAction, String what) throws SQLException {
        return await(f, onCoreAction, what, -1);
    }

    /**
     * As above; a statement of transaction {@code inlineTxId} that the core sends to the primary runs on this
     * thread ({@link InlineWork}) before the wait.
     */
    <T> T await(CompletableFuture<T> f, Runnable onCoreAction, String what, long inlineTxId) throws SQLException {
        if (inlineTxId >= 0) InlineWork.open(inlineTxId);
        try {
            scheduler.execute(() -> {
                try {
                    onCoreAction.run();
                } catch (RuntimeException e) {
                    f.completeExceptionally(e);
                    throw e;
                }
            });
        } finally {
            Runnable primaryCall = inlineTxId >= 0 ? InlineWork.close() : null;
            if (primaryCall != null) primaryCall.run();
        }
        try {
            return f.get(statementTimeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for " + what, "57014", e);
        } catch (TimeoutException e) {
            throw new SQLException("no answer from " + what + " within " + statementTimeoutMs + " ms", "57014", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof SQLException s) throw s;
            throw new SQLException("internal error: " + c, "XX000", c);
        }
    }

    /**
     * A {@link java.sql.DatabaseMetaData} call answered by the primary (not voted), outside any transaction, without the
     * shepherd's own tables. {@code database}: the database a session chose with {@code USE} (null: its URL's), which a
     * MySQL-family primary's null catalog means ({@link MetadataCalls#inDatabase}).
     */
    Answer metadata(MetadataRequest request, String database) throws SQLException {
        JdbcValues values = JdbcValues.forDialect(primary().pool().spec().dialect());
        boolean mysql = primary().dialect().family() == Dialect.Family.MYSQL;
        return readPrimaryCatalog(c -> {
            MetadataRequest asked = mysql ? MetadataCalls.inDatabase(request, database != null ? database : c.getCatalog())
                    : request;
            try (ResultSet rs = MetadataCalls.invoke(c.getMetaData(), asked)) {
                return buffered(rs, values, "metadata", true);
            }
        });
    }

    /**
     * A query of the catalog ({@code information_schema}, Derby's {@code SYS}, ...), answered by the primary like a
     * {@link java.sql.DatabaseMetaData} call (not voted, outside any transaction): another engine's catalog has other
     * tables, or none of that name, and replicas of one engine name their schemas (MySQL: databases) each its own way,
     * while a client names the primary's. {@code sql} and {@code params} are for the primary's dialect.
     */
    Answer catalogQuery(JdbcReplicaEndpoint replica, String sql, List<Param> params) throws SQLException {
        JdbcValues values = JdbcValues.forDialect(replica.pool().spec().dialect());
        CatalogRead<Answer> read = c -> {
            try (java.sql.Statement st = JdbcExecution.create(c, sql, !params.isEmpty(), ExecOptions.DEFAULT, 1000)) {
                if (!JdbcExecution.execute(st, sql, params, values, ExecOptions.DEFAULT)) {
                    throw new SQLException("a query of the catalog gave no rows to read: " + sql, "XX000");
                }
                try (ResultSet rs = st.getResultSet()) {
                    return buffered(rs, values, "catalog query", false); // the session leaves out reserved rows
                }
            }
        };
        return replica == primary() ? readPrimaryCatalog(read) : readCatalog(replica, read);
    }

    /**
     * Refuses DDL {@code tr} that names an index (or a UNIQUE constraint or key) as an index of another table is named
     * in the primary's catalog, where the primary is of the MySQL family and a replica is not: MySQL and MariaDB name
     * indexes per table, Derby, HSQLDB, PostgreSQL and Db2 per schema, so those replicas would refuse the statement after
     * the primary made the index (its DDL commits at once) and the schemas would differ. Names are compared without
     * their case, as those engines fold unquoted names.
     */
    void refuseIndexNameOfAnotherTable(Translation tr) throws SQLException {
        if (tr.namedIndexes().isEmpty() || primary().dialect().family() != Dialect.Family.MYSQL) return;
        List<String> perSchema = endpoints.stream().filter(e -> e.dialect().family() != Dialect.Family.MYSQL)
                .map(JdbcReplicaEndpoint::name).toList();
        if (perSchema.isEmpty()) return;
        // one statement's indexes are of one table: one question to the primary's catalog
        List<String> table = SessionSetting.storedParts(tr.namedIndexes().get(0).table(), clientDialect());
        List<String> names = new ArrayList<>();
        for (Translation.NamedIndex i : tr.namedIndexes()) {
            List<String> name = SessionSetting.storedParts(i.name(), clientDialect());
            if (name != null && name.size() == 1) names.add(name.get(0));
        }
        if (table == null || table.isEmpty() || table.size() > 2 || names.isEmpty()) return;
        String[] other = readPrimaryCatalog(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT INDEX_NAME, TABLE_NAME FROM information_schema.STATISTICS"
                    + " WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME <> ? AND UPPER(INDEX_NAME) IN ("
                    + String.join(", ", java.util.Collections.nCopies(names.size(), "UPPER(?)")) + ")"
                    + " ORDER BY INDEX_NAME, TABLE_NAME LIMIT 1")) {
                ps.setString(1, table.size() == 2 ? table.get(0) : null);
                ps.setString(2, table.get(table.size() - 1));
                for (int k = 0; k < names.size(); k++) ps.setString(3 + k, names.get(k));
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? new String[] {rs.getString(1), rs.getString(2)} : null;
                }
            }
        });
        if (other != null) {
            String mine = table.get(table.size() - 1);
            String name = names.stream().filter(n -> n.equalsIgnoreCase(other[0])).findFirst().orElse(other[0]);
            throw new SQLFeatureNotSupportedException("Shepherd refuses to name an index of " + mine + " " + name + ": table "
                    + other[1] + " has an index of that name, which MySQL allows (it names indexes per table) but replicas "
                    + String.join(", ", perSchema) + " do not (their engines name indexes per schema); give this one a name of"
                    + " its own, e.g. " + mine + "_" + name, "0A000");
        }
    }

    /** How long a query of the client's catalog waits for a secondary of its engine to commit what is committed. */
    static final long CATALOG_WAIT_MS = 5_000;

    /**
     * The replica that answers a query of the catalog in the client's words ({@link #catalogQuery}): the primary, unless
     * it is of another engine family than the client (after a view change: a MySQL client's information_schema, a Derby
     * primary that has none), when a secondary of the client's family that is up answers once it has committed every
     * transaction committed so far (waiting at most {@link #CATALOG_WAIT_MS}). The primary still where none is, where
     * it stays behind, or where the session's transaction may have changed the schema (only the primary's connection
     * sees that).
     */
    JdbcReplicaEndpoint catalogReplica() throws SQLException {
        JdbcReplicaEndpoint primary = primary();
        Dialect.Family family = clientDialect().family();
        CbsSession session = reader.get();
        if (primary.dialect().family() == family || session != null && session.schemaChangedIn() != null) return primary;
        long barrier = currentBarrier() - 1;
        long deadline = clock().nowMillis() + CATALOG_WAIT_MS;
        while (true) {
            boolean candidate = false;
            for (CbsCore.ReplicaStatus r : replicaStatus()) {
                JdbcReplicaEndpoint e = endpoints.stream().filter(x -> x.name().equals(r.name())).findFirst().orElse(null);
                if (e == null || r.primary() || r.down() || e.dialect().family() != family) continue;
                if (r.lastCommittedBarrier() >= barrier) return e;
                candidate = true;
            }
            if (!candidate || clock().nowMillis() > deadline) return primary;
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while waiting for a replica to answer a query of the catalog", "57014", e);
            }
        }
    }

    /**
     * The rows of a result the primary gave outside any transaction, in memory (at most {@link #METADATA_ROWS_MAX}:
     * 54000 beyond), without those naming the shepherd's own tables when {@code hideReserved}.
     */
    private static Answer buffered(ResultSet rs, JdbcValues values, String what, boolean hideReserved) throws SQLException {
        List<ColumnInfo> cols = JdbcValues.columns(rs.getMetaData());
        int[] tableColumns = hideReserved ? ReservedTables.tableColumns(cols) : null;
        List<Object[]> rows = new ArrayList<>();
        while (rs.next()) {
            if (rows.size() == METADATA_ROWS_MAX) {
                throw new SQLException(what + " result larger than " + METADATA_ROWS_MAX + " rows", "54000");
            }
            Object[] row = values.readRow(rs, cols);
            if (!hideReserved || !ReservedTables.namesReserved(row, tableColumns)) rows.add(row);
        }
        return new Answer.Rows(new BufferedCursor(cols, rows), List.of());
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        List<Thread> background = new ArrayList<>();
        for (Thread t : new Thread[] {backgroundVerify, outvotedRepair}) {
            if (t != null) {
                t.interrupt();
                background.add(t);
            }
        }
        for (CbsSession s : List.copyOf(sessions)) s.close();
        for (Thread t : background) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            awaitIdle(5_000);
        } catch (SQLException | InterruptedException e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
        }
        scheduler.close();
        for (JdbcReplicaEndpoint e : endpoints) {
            e.close();
            e.pool().close();
        }
        if (commitLogReader != null) commitLogReader.close();
        if (wal != null) wal.close();
        spill.close();
        divergences.close();
    }
}
