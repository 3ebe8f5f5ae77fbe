package org.shepherd.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.shepherd.replica.jdbc.ReplicaSpec;

/**
 * Every key of the shepherd's configuration file, defined once: name, default, description and how the value is
 * checked. {@code docs/configuration.md} holds {@link #markdownTable()} verbatim (a test keeps them equal).
 *
 * <p>Keys containing {@code <name>} are families: {@code replica.r1.url}, {@code user.alice.password}, ...
 */
public enum ConfigKey {
    LISTEN("listen", "127.0.0.1:7654",
            "Address clients connect to, as host:port. Any address other than loopback requires at least one "
                    + "user.<name>.password.",
            HostPort::parse),
    F("f", "1",
            "Number of faulty replicas tolerated. Modes cbs, ss and serial need at least 2f+1 replicas.",
            v -> parseInt(v, 0, 16)),
    MODE("mode", "cbs",
            "Execution mode: " + Mode.choices() + ". passthrough sends every statement to the primary replica "
                    + "only (no voting; other replicas are left alone).",
            Mode::parse),
    DATA_DIR("data.dir", "shepherd-data",
            "Directory for the shepherd's own files (embedded replicas, credentials, WAL). Relative paths are "
                    + "resolved against the working directory.",
            ConfigKey::parsePath),
    PRIMARY("primary", "",
            "Name of the initial primary replica. Empty: the first replica by name.",
            v -> v),
    USER_PASSWORD("user.<name>.password", null,
            "Password of the client user <name> (clients authenticate with SCRAM-SHA-256; the password never "
                    + "crosses the wire). No users: only loopback listening is allowed, and any user name logs in with "
                    + "an empty password.",
            ConfigKey::parseNonEmpty),
    USER_ADMIN("user.<name>.admin", "false",
            "Whether client user <name> may run the shepherd's admin actions (shepherd restore), which change what the"
                    + " shepherd does; reading status and divergences needs no admin. Without users (loopback only) anyone"
                    + " may. The embedded default's user may.",
            ConfigKey::parseBoolean),
    REPLICA_URL("replica.<name>.url", null,
            "JDBC URL of replica <name>. Declaring this key declares the replica; two replicas may not name one database."
                    + " Read again, with .user and .password, by `shepherd restore --copied <name>` (a replica restored on"
                    + " another machine).",
            ConfigKey::parseJdbcUrl),
    REPLICA_USER("replica.<name>.user", "",
            "User the shepherd logs in to replica <name> with. Empty: none (the driver's default).",
            v -> v),
    REPLICA_PASSWORD("replica.<name>.password", "",
            "Password for replica.<name>.user. Never sent to clients.",
            v -> v),
    REPLICA_DIALECT("replica.<name>.dialect", "",
            "SQL dialect of replica <name>: " + String.join("|", ReplicaSpec.DIALECTS)
                    + ". Empty: inferred from the URL.",
            ConfigKey::parseDialect),
    CLIENT_DIALECT("client.dialect", "",
            "SQL dialect the applications write: " + String.join("|", ReplicaSpec.DIALECTS) + ". Empty: the primary's. The"
                    + " shepherd translates it for every replica, the primary too, so that an application written for an"
                    + " engine that cannot be the primary (PostgreSQL) keeps its SQL; modes cbs, ss and serial only. Clients"
                    + " are told this dialect (the product name stays the primary's: tell an ORM its dialect).",
            ConfigKey::parseDialect),
    PROTOCOL_MAX_FRAME_BYTES("protocol.max.frame.bytes", "16777216",
            "Largest wire protocol frame accepted or sent, in bytes. A row (LOBs included) must fit in one frame.",
            v -> parseInt(v, 1024, 1 << 30)),
    FETCH_SIZE_DEFAULT("fetch.size.default", "1000",
            "Rows per result batch when the client's fetch size is 0.",
            v -> parseInt(v, 1, 1_000_000)),
    METRICS_LISTEN("metrics.listen", "",
            "Address (host:port) of an HTTP endpoint serving the shepherd's metrics in Prometheus' text format at /metrics:"
                    + " commits, aborts, each replica's state and lag, divergences, view changes, the write-ahead log, commit"
                    + " latency and the JVM's own. Empty: no endpoint. It has no authentication: bind it to loopback or to a"
                    + " network only the monitoring reaches.",
            v -> v.isEmpty() ? v : HostPort.parse(v)),
    TLS_ENABLED("tls.enabled", "false",
            "Whether clients must connect with TLS (then tls.cert and tls.key are required).",
            ConfigKey::parseBoolean),
    TLS_CERT("tls.cert", "",
            "PEM file with the server certificate chain.",
            v -> v.isEmpty() ? v : parsePath(v)),
    TLS_KEY("tls.key", "",
            "PEM file with the server's PKCS#8 private key (unencrypted).",
            v -> v.isEmpty() ? v : parsePath(v)),
    IO_THREADS("io.threads", "2",
            "Netty event loop threads (network I/O only; statements run on workers).",
            v -> parseInt(v, 1, 64)),
    WORKERS_MAX("workers.max", "64",
            "Threads that run client requests against the coordinator. A session uses at most one at a time.",
            v -> parseInt(v, 1, 4096)),
    SESSIONS_MAX("sessions.max", "1000",
            "Client connections open at once; more are refused with an error.",
            v -> parseInt(v, 1, 1_000_000)),
    SESSION_QUEUED_REQUESTS_MAX("session.queued.requests.max", "64",
            "Requests one client may send ahead before the server closes its connection.",
            v -> parseInt(v, 1, 100_000)),
    SESSION_IDLE_TIMEOUT_MS("session.idle.timeout.ms", "0",
            "Close a client connection that sent nothing for this long. 0: never.",
            v -> parseLong(v, 0, Long.MAX_VALUE)),
    TRANSACTION_IDLE_TIMEOUT_MS("transaction.idle.timeout.ms", "0",
            "Close a client connection whose transaction (outside autocommit) has been open with no request running and"
                + " nothing sent either way for this long, as PostgreSQL's idle_in_transaction_session_timeout does: the"
                + " transaction is rolled back on every replica and its locks are released, so a client that forgot to"
                + " commit cannot block the others. 0: never.",
            v -> parseLong(v, 0, Long.MAX_VALUE)),
    HANDSHAKE_TIMEOUT_MS("handshake.timeout.ms", "10000",
            "Close a connection that has not authenticated within this time.",
            v -> parseLong(v, 1, 3_600_000)),
    SHUTDOWN_TIMEOUT_MS("shutdown.timeout.ms", "10000",
            "On shutdown, how long running requests may take to finish before their sessions are closed.",
            v -> parseLong(v, 0, 3_600_000)),
    REPLICA_POOL_SIZE_MAX("replica.pool.size.max", "10",
            "Connections the shepherd keeps open at most per replica for transactions (one per transaction in progress"
                + " there; more clients than this queue at the primary); metadata reads use up to 2 more. Fewer"
                + " transactions at once cost a CPU-bound replica less CPU per transaction (docs/cbs.md).",
            v -> parseInt(v, 1, 10_000)),
    REPLICA_CONNECT_TIMEOUT_MS("replica.connect.timeout.ms", "10000",
            "How long a transaction waits for a connection of the primary while all are in use (then it fails with"
                + " SQLState 40001), and how long opening a replica connection may take (then 08001).",
            v -> parseLong(v, 250, 3_600_000)),
    REPLICA_PROBE_MS("replica.probe.ms", "1000",
            "After a replica goes down, how long until the shepherd tries to reach it again; the wait doubles after"
                + " each failed try, up to replica.probe.max.ms. Once reached, it replays the committed transactions"
                + " it missed and serves again.",
            v -> parseLong(v, 10, 3_600_000)),
    REPLICA_PROBE_MAX_MS("replica.probe.max.ms", "30000",
            "The longest wait between two tries to reach a replica that is down (at least replica.probe.ms).",
            v -> parseLong(v, 10, 3_600_000)),
    VIEW_CHANGE("view.change", "true",
            "When the primary goes down, an up secondary that may be primary takes over once it has committed every"
                + " committed transaction (its uncommitted transactions are aborted with 40001: retry). false: statements"
                + " fail with 08006 until the primary is back.",
            ConfigKey::parseBoolean),
    VIEW_CHANGE_OUTVOTED("view.change.outvoted", "1",
            "With view.change: a primary that is up is replaced as if it went down once this many of its answers were"
                + " outvoted (f+1 replicas agreed on another answer, so with at most f faulty replicas the primary's was"
                + " wrong) since the last view change; it serves on as a secondary. 0: never.",
            v -> parseInt(v, 0, 1_000_000)),
    VIEW_CHANGE_UNRESPONSIVE_MS("view.change.unresponsive.ms", "5000",
            "With view.change: when a request has been running at the primary this long, the shepherd pings it on a"
                + " connection of its own; no answer within this long either, and the primary is replaced as if it went"
                + " down (a stalled or paused server keeps its connections open). A long query answers the ping and"
                + " runs on. A COMMIT running at the primary this long, and 4 times as long as theirs, while f other"
                + " replicas committed the same transaction replaces it too (its commits are stuck: a commit waits for no"
                + " lock). Doubled for each"
                + " view change in a row (at most 64 times), back to this value once a primary has committed 100"
                + " transactions in its view. 0: never.",
            v -> parseLong(v, 0, 3_600_000)),
    REPLICA_RECOVERY_LOG_MAX("replica.recovery.log.max", "100000",
            "Committed transactions the shepherd keeps in memory, while a replica is down, to replay on it when it is"
                + " back. Older ones are read back from the write-ahead log on disk (modes cbs, ss, serial), which keeps"
                + " every transaction a replica that is down lacks. A restart also keeps at most this many of the"
                + " logged transactions in memory.",
            v -> parseInt(v, 1, 100_000_000)),
    REPLICA_TXLOG_TRUNCATE_BARRIERS("replica.txlog.truncate.barriers", "4096",
            "Modes cbs, ss, serial: each replica's shepherd_txlog (one row per transaction that wrote) is truncated once"
                + " every replica committed this many more transactions, the write-ahead log recorded that, and the"
                + " count of the deleted rows is kept in shepherd_txlog_base; so the table stays small. 0: never.",
            v -> parseLong(v, 0, 1L << 40)),
    RESULT_SPILL_BYTES_MAX("result.spill.bytes.max", "4294967296",
            "Disk space, in bytes, that autocommit results waiting for the client may take under data.dir/spill, "
                    + "all sessions together (an autocommit result is answered after its vote, so the primary's rows "
                    + "are held: in memory up to a small bound, then in a temporary file). A statement that needs more "
                    + "fails with SQLState 54000. 0: autocommit results beyond the memory bound fail.",
            v -> parseLong(v, 0, Long.MAX_VALUE)),
    DIVERGENCE_FILE_BYTES_MAX("divergence.file.bytes.max", "67108864",
            "Modes cbs, ss, serial: every divergence report (a replica answer that differed from the accepted one) is"
                + " appended to data.dir/divergences.jsonl, one JSON object per line, so that reports survive a restart;"
                + " past this many bytes the file becomes divergences.1.jsonl (replacing the older one) and a new one"
                + " starts. `shepherd divergences` serves the newest 1000. 0: reports are kept in memory only.",
            v -> parseLong(v, 0, Long.MAX_VALUE)),
    VERIFY_INTERVAL_S("verify.interval.s", "0",
            "Modes cbs, ss, serial: every this many seconds after the last pass ended, the shepherd compares every table on"
                    + " every replica in the background, as `shepherd verify` does (transactions of 1000 rows in"
                    + " primary-key order, voted), and logs a WARN line for each table that differs; the differences are"
                    + " in `shepherd divergences`. 0: only on demand.",
            v -> parseLong(v, 0, 1L << 31)),
    VERIFY_CHUNK_PAUSE_MS("verify.chunk.pause.ms", "100",
            "The background comparison (verify.interval.s) waits this long between two transactions of 1000 rows, so"
                    + " that it takes a bounded share of the replicas.",
            v -> parseLong(v, 0, 60_000)),
    VERIFY_REPAIR("verify.repair", "false",
            "true: the background comparison (verify.interval.s) also repairs what it finds, as `shepherd verify --repair`:"
                    + " each range of 1000 keys where a secondary differed is rewritten there, in one transaction at its"
                    + " place in the serial order, to the rows f+1 replicas agree on, and the table is compared again (an"
                    + " INFO line per repaired table). Also, with or without the background comparison, a table that a"
                    + " committed statement changed and a secondary was outvoted on (its answer differed from f+1 replicas':"
                    + " a row it lacked, a constraint only it has) is compared and repaired so at once, at most once per 10 s"
                    + " per table. false: differences are only reported.",
            ConfigKey::parseBoolean),
    VERIFY_SCHEMAS("verify.schemas", "",
            "The background comparison (verify.interval.s) covers the tables of the primary's default schema and of these"
                    + " schemas (MySQL/MariaDB: databases), comma-separated, each as `shepherd verify --schema S` would;"
                    + " a schema missing on the primary is skipped with a WARN line. Empty: the default schema only.",
            ConfigKey::parseNameList),
    WAL_SYNC("wal.sync", "true",
            "Modes cbs, ss, serial: a transaction that wrote is acknowledged (and committed at the replicas) only once it is"
                    + " in the write-ahead log under data.dir/wal and the log was forced to disk (one force for every"
                    + " transaction committed meanwhile). false: written but not forced, so an acknowledged commit survives a"
                    + " crash of the shepherd process but not of the machine.",
            ConfigKey::parseBoolean),
    WAL_RETAIN_BYTES_MAX("wal.retain.bytes.max", "0",
            "Modes cbs, ss, serial: the write-ahead log keeps every transaction a replica that is down (or catching up)"
                    + " lacks. When keeping them for one secondary would take more than this many bytes on disk, that"
                    + " replica is declared lost (restore it from a copy of an up-to-date replica) and the log is released"
                    + " past it. A primary that is down is waited for, never lost. 0: no bound; else at least twice"
                    + " wal.segment.bytes.max.",
            v -> parseLong(v, 0, Long.MAX_VALUE)),
    WAL_SEGMENT_BYTES_MAX("wal.segment.bytes.max", "67108864",
            "Size, in bytes, at which the write-ahead log starts a new segment file. Segments whose transactions every"
                    + " replica has committed are deleted.",
            v -> parseLong(v, 4096, 1L << 40));

    /** A key of a {@code <name>} family, as written in a file. */
    private static final Pattern FAMILY_NAME = Pattern.compile("[A-Za-z0-9_-]+");

    private final String key;
    private final String defaultValue;
    private final String description;
    private final Function<String, Object> parser;

    ConfigKey(String key, String defaultValue, String description, Function<String, Object> parser) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.description = description;
        this.parser = parser;
    }

    /** The key as documented; families contain {@code <name>}. */
    public String key() {
        return key;
    }

    /** The default as written in a file, or null when the key has none (families without a default). */
    public String defaultValue() {
        return defaultValue;
    }

    public String description() {
        return description;
    }

    public boolean isFamily() {
        return key.contains("<name>");
    }

    /** Whether values must be masked in logs and printed configurations. */
    public boolean isSecret() {
        return this == USER_PASSWORD || this == REPLICA_PASSWORD;
    }

    /** The key of family member {@code name}, e.g. {@code REPLICA_URL.forName("r1")} is {@code replica.r1.url}. */
    public String forName(String name) {
        if (!isFamily()) throw new IllegalStateException(key + " is not a <name> family");
        if (!FAMILY_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("names may contain letters, digits, '_' and '-' only: " + name);
        }
        return key.replace("<name>", name);
    }

    /** Checks and converts a value; throws {@link IllegalArgumentException} saying what is expected. */
    Object parse(String value) {
        return parser.apply(value.trim());
    }

    /** The key this file key is an instance of, with the family member name; null when unknown. */
    static Match match(String fileKey) {
        for (ConfigKey k : values()) {
            if (!k.isFamily()) {
                if (k.key.equals(fileKey)) return new Match(k, null);
                continue;
            }
            int at = k.key.indexOf("<name>");
            String prefix = k.key.substring(0, at);
            String suffix = k.key.substring(at + "<name>".length());
            if (fileKey.startsWith(prefix) && fileKey.endsWith(suffix)
                    && fileKey.length() > prefix.length() + suffix.length()) {
                String name = fileKey.substring(prefix.length(), fileKey.length() - suffix.length());
                Matcher m = FAMILY_NAME.matcher(name);
                if (m.matches()) return new Match(k, name);
            }
        }
        return null;
    }

    record Match(ConfigKey key, String name) {
    }

    /** The documentation table of every key, in declaration order. */
    public static String markdownTable() {
        StringBuilder b = new StringBuilder();
        b.append("| key | default | description |\n");
        b.append("|---|---|---|\n");
        for (ConfigKey k : values()) {
            String def = k.defaultValue == null ? "(none)" : k.defaultValue.isEmpty() ? "(empty)" : "`" + k.defaultValue + "`";
            b.append("| `").append(k.key).append("` | ").append(def).append(" | ")
                    .append(k.description.replace("|", "\\|").replace("<name>", "&lt;name&gt;")).append(" |\n");
        }
        return b.toString();
    }

    private static Object parseInt(String v, int min, int max) {
        long n = parseLong(v, min, max);
        return (int) n;
    }

    private static long parseLong(String v, long min, long max) {
        long n;
        try {
            n = Long.parseLong(v.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a whole number between " + min + " and " + max);
        }
        if (n < min || n > max) throw new IllegalArgumentException("expected a whole number between " + min + " and " + max);
        return n;
    }

    private static Object parseBoolean(String v) {
        switch (v.toLowerCase(Locale.ROOT)) {
            case "true":
                return Boolean.TRUE;
            case "false":
                return Boolean.FALSE;
            default:
                throw new IllegalArgumentException("expected true or false");
        }
    }

    private static Object parsePath(String v) {
        if (v.isEmpty()) throw new IllegalArgumentException("expected a path");
        try {
            return Path.of(v);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("not a valid path: " + e.getMessage());
        }
    }

    /** Comma-separated names (blanks around them dropped), as a list; empty for an empty value. */
    private static Object parseNameList(String v) {
        java.util.List<String> names = new java.util.ArrayList<>();
        for (String part : v.split(",", -1)) {
            String name = part.trim();
            if (name.isEmpty()) {
                if (v.isBlank()) break;
                throw new IllegalArgumentException("an empty name in the list '" + v + "'");
            }
            if (name.contains(".") || name.contains("*")) {
                throw new IllegalArgumentException("'" + name + "' is not a schema's name (no '.' or '*')");
            }
            names.add(name);
        }
        return java.util.List.copyOf(names);
    }

    private static Object parseNonEmpty(String v) {
        if (v.isEmpty()) throw new IllegalArgumentException("must not be empty");
        return v;
    }

    private static Object parseJdbcUrl(String v) {
        if (!v.startsWith("jdbc:")) throw new IllegalArgumentException("expected a JDBC URL starting with jdbc:");
        return v;
    }

    private static Object parseDialect(String v) {
        if (v.isEmpty()) return v;
        String d = v.toLowerCase(Locale.ROOT);
        if (!ReplicaSpec.DIALECTS.contains(d)) {
            throw new IllegalArgumentException("expected one of " + String.join("|", ReplicaSpec.DIALECTS));
        }
        return d;
    }
}
