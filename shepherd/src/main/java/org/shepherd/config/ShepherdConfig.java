package org.shepherd.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import org.shepherd.replica.jdbc.ReplicaSpec;

/**
 * The shepherd's validated configuration (a properties file, keys in {@link ConfigKey}). Immutable; every
 * problem is reported as a {@link ConfigException} naming the key and what to write instead.
 */
public final class ShepherdConfig {

    private final Map<String, String> raw;
    private final EnumMap<ConfigKey, Object> values = new EnumMap<>(ConfigKey.class);
    private final Map<String, String> users;
    private final java.util.Set<String> admins;
    private final List<ReplicaSpec> replicas;
    private final ReplicaSpec primary;
    /** The file it was read from ({@link #load(Path)}), or null. */
    private final Path source;

    private ShepherdConfig(Map<String, String> raw, Path source) throws ConfigException {
        this.raw = Collections.unmodifiableMap(new TreeMap<>(raw));
        this.source = source;
        Map<String, String> userPasswords = new TreeMap<>();
        java.util.Set<String> adminUsers = new java.util.TreeSet<>();
        Map<String, Map<ConfigKey, String>> replicaKeys = new TreeMap<>();
        for (Map.Entry<String, String> e : this.raw.entrySet()) {
            String fileKey = e.getKey().trim();
            ConfigKey.Match m = ConfigKey.match(fileKey);
            if (m == null) throw new ConfigException(unknownKeyMessage(fileKey));
            Object parsed = parse(m.key(), fileKey, e.getValue());
            if (m.name() == null) {
                values.put(m.key(), parsed);
            } else if (m.key() == ConfigKey.USER_PASSWORD) {
                userPasswords.put(m.name(), (String) parsed);
            } else if (m.key() == ConfigKey.USER_ADMIN) {
                if ((Boolean) parsed) adminUsers.add(m.name());
            } else {
                replicaKeys.computeIfAbsent(m.name(), n -> new EnumMap<>(ConfigKey.class)).put(m.key(), (String) parsed);
            }
        }
        for (ConfigKey k : ConfigKey.values()) {
            if (!k.isFamily() && !values.containsKey(k)) values.put(k, parse(k, k.key(), k.defaultValue()));
        }
        this.users = Collections.unmodifiableMap(userPasswords);
        this.admins = Collections.unmodifiableSet(adminUsers);
        this.replicas = List.copyOf(replicaSpecs(replicaKeys));
        this.primary = choosePrimary();
        validate();
    }

    /**
     * Reads a properties file (ISO-8859-1 escapes as in {@link Properties}, read here as UTF-8). A value may name
     * environment variables, so that secrets need not be written in the file: {@code ${NAME}} (it must be set),
     * {@code ${NAME:-default}} (the default when it is unset or empty); {@code $${} is a literal {@code ${}.
     */
    public static ShepherdConfig load(Path file) throws ConfigException {
        return load(file, System::getenv);
    }

    /** {@link #load(Path)} with the environment variables of {@code env} (null: not set). */
    static ShepherdConfig load(Path file, java.util.function.UnaryOperator<String> env) throws ConfigException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (NoSuchFileException e) {
            throw new ConfigException("config file " + file + " does not exist; pass an existing file to --config "
                    + "or omit --config to run the embedded default");
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException("cannot read config file " + file + ": " + e.getMessage(), e);
        }
        for (String name : p.stringPropertyNames()) p.setProperty(name, expand(name, p.getProperty(name), env));
        Map<String, String> m = new TreeMap<>();
        for (String name : p.stringPropertyNames()) m.put(name, p.getProperty(name));
        return new ShepherdConfig(m, file);
    }

    private static final java.util.regex.Pattern VARIABLE =
            java.util.regex.Pattern.compile("\\$\\$\\{|\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");

    /** {@code value} of key {@code key} with its {@code ${NAME}} references replaced (see {@link #load(Path)}). */
    static String expand(String key, String value, java.util.function.UnaryOperator<String> env) throws ConfigException {
        if (value.indexOf('$') < 0) return value;
        java.util.regex.Matcher m = VARIABLE.matcher(value);
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (m.find()) {
            out.append(literal(key, value, at, m.start()));
            at = m.end();
            if (m.group(1) == null) {
                out.append("${");
                continue;
            }
            String set = env.apply(m.group(1));
            if (set != null && !set.isEmpty()) {
                out.append(set);
            } else if (m.group(2) != null) {
                out.append(m.group(2));
            } else {
                throw new ConfigException(key + " refers to the environment variable " + m.group(1) + ", which is not set;"
                        + " set it, or write ${" + m.group(1) + ":-default}");
            }
        }
        return out.append(literal(key, value, at, value.length())).toString();
    }

    /** Text between references, which must hold no other {@code ${}. */
    private static String literal(String key, String value, int from, int to) throws ConfigException {
        String text = value.substring(from, to);
        int open = text.indexOf("${");
        if (open >= 0) {
            throw new ConfigException(key + ": '" + text.substring(open) + "' is not a reference to an environment variable;"
                    + " write ${NAME} or ${NAME:-default}, or $${ for a literal ${");
        }
        return text;
    }

    public static ShepherdConfig fromProperties(Properties properties) throws ConfigException {
        Map<String, String> m = new TreeMap<>();
        for (String name : properties.stringPropertyNames()) m.put(name, properties.getProperty(name));
        return new ShepherdConfig(m, null);
    }

    public static ShepherdConfig fromMap(Map<String, String> keyValues) throws ConfigException {
        return new ShepherdConfig(keyValues, null);
    }

    /**
     * The file this configuration was read from, if it was: a replica that moved is found there again while the
     * shepherd runs ({@code shepherd restore --copied}).
     */
    public java.util.Optional<Path> source() {
        return java.util.Optional.ofNullable(source);
    }

    /** A copy with one key set (or removed when {@code value} is null), validated again. */
    public ShepherdConfig with(String key, String value) throws ConfigException {
        Map<String, String> m = new TreeMap<>(raw);
        if (value == null) m.remove(key);
        else m.put(key, value);
        return new ShepherdConfig(m, source);
    }

    /** The keys as given (defaults not filled in), secrets masked when asked. */
    public Map<String, String> asMap(boolean maskSecrets) {
        Map<String, String> m = new TreeMap<>();
        for (Map.Entry<String, String> e : raw.entrySet()) {
            ConfigKey.Match match = ConfigKey.match(e.getKey());
            boolean secret = match != null && match.key().isSecret();
            m.put(e.getKey(), maskSecrets && secret ? "********" : e.getValue());
        }
        return m;
    }

    public HostPort listen() {
        return (HostPort) values.get(ConfigKey.LISTEN);
    }

    public int f() {
        return (Integer) values.get(ConfigKey.F);
    }

    public Mode mode() {
        return (Mode) values.get(ConfigKey.MODE);
    }

    public Path dataDir() {
        return (Path) values.get(ConfigKey.DATA_DIR);
    }

    /** Replicas sorted by name. */
    public List<ReplicaSpec> replicas() {
        return replicas;
    }

    /** The initial primary: {@code primary} if set, else the first replica by name. */
    public ReplicaSpec primary() {
        return primary;
    }

    /** Client users and their passwords, sorted by name; empty when none are configured. */
    public Map<String, String> users() {
        return users;
    }

    /**
     * Whether {@code user} may run admin actions ({@code shepherd restore}): a user with {@code user.<name>.admin=true},
     * or anyone when no users are configured (loopback only, no authentication).
     */
    public boolean mayAdminister(String user) {
        return users.isEmpty() || admins.contains(user);
    }

    /** The dialect clients write ({@code client.dialect}), "" for the primary's. */
    public String clientDialect() {
        return (String) values.get(ConfigKey.CLIENT_DIALECT);
    }

    public int maxFrameBytes() {
        return (Integer) values.get(ConfigKey.PROTOCOL_MAX_FRAME_BYTES);
    }

    public int fetchSizeDefault() {
        return (Integer) values.get(ConfigKey.FETCH_SIZE_DEFAULT);
    }

    public boolean tlsEnabled() {
        return (Boolean) values.get(ConfigKey.TLS_ENABLED);
    }

    /** Where the metrics endpoint listens; null when there is none. */
    public HostPort metricsListen() {
        Object v = values.get(ConfigKey.METRICS_LISTEN);
        return v instanceof HostPort ? (HostPort) v : null;
    }

    /** Null when not set. */
    public Path tlsCert() {
        return pathOrNull(ConfigKey.TLS_CERT);
    }

    /** Null when not set. */
    public Path tlsKey() {
        return pathOrNull(ConfigKey.TLS_KEY);
    }

    public int ioThreads() {
        return (Integer) values.get(ConfigKey.IO_THREADS);
    }

    public int workersMax() {
        return (Integer) values.get(ConfigKey.WORKERS_MAX);
    }

    public int sessionsMax() {
        return (Integer) values.get(ConfigKey.SESSIONS_MAX);
    }

    public int sessionQueuedRequestsMax() {
        return (Integer) values.get(ConfigKey.SESSION_QUEUED_REQUESTS_MAX);
    }

    /** 0: never. */
    public long sessionIdleTimeoutMs() {
        return (Long) values.get(ConfigKey.SESSION_IDLE_TIMEOUT_MS);
    }

    /** How long a transaction may stay open and idle before its connection is closed; 0: for ever. */
    public long transactionIdleTimeoutMs() {
        return (Long) values.get(ConfigKey.TRANSACTION_IDLE_TIMEOUT_MS);
    }

    public long handshakeTimeoutMs() {
        return (Long) values.get(ConfigKey.HANDSHAKE_TIMEOUT_MS);
    }

    public long shutdownTimeoutMs() {
        return (Long) values.get(ConfigKey.SHUTDOWN_TIMEOUT_MS);
    }

    public int replicaPoolSizeMax() {
        return (Integer) values.get(ConfigKey.REPLICA_POOL_SIZE_MAX);
    }

    public long replicaConnectTimeoutMs() {
        return (Long) values.get(ConfigKey.REPLICA_CONNECT_TIMEOUT_MS);
    }

    public long replicaProbeMs() {
        return (Long) values.get(ConfigKey.REPLICA_PROBE_MS);
    }

    public long replicaProbeMaxMs() {
        return (Long) values.get(ConfigKey.REPLICA_PROBE_MAX_MS);
    }

    public int replicaRecoveryLogMax() {
        return (Integer) values.get(ConfigKey.REPLICA_RECOVERY_LOG_MAX);
    }

    /** Every how many barriers each replica's shepherd_txlog is truncated; 0: never. */
    public long replicaTxlogTruncateBarriers() {
        return (Long) values.get(ConfigKey.REPLICA_TXLOG_TRUNCATE_BARRIERS);
    }

    public boolean viewChange() {
        return (Boolean) values.get(ConfigKey.VIEW_CHANGE);
    }

    public long viewChangeUnresponsiveMs() {
        return (Long) values.get(ConfigKey.VIEW_CHANGE_UNRESPONSIVE_MS);
    }

    public int viewChangeOutvoted() {
        return (Integer) values.get(ConfigKey.VIEW_CHANGE_OUTVOTED);
    }

    /** Seconds between background comparisons of the replicas' tables; 0: none. */
    public long verifyIntervalS() {
        return (Long) values.get(ConfigKey.VERIFY_INTERVAL_S);
    }

    /** Pause between two chunks of a background comparison. */
    public long verifyChunkPauseMs() {
        return (Long) values.get(ConfigKey.VERIFY_CHUNK_PAUSE_MS);
    }

    public boolean verifyRepair() {
        return (Boolean) values.get(ConfigKey.VERIFY_REPAIR);
    }

    /** Schemas besides the default one that the background comparison covers. */
    @SuppressWarnings("unchecked")
    public java.util.List<String> verifySchemas() {
        return (java.util.List<String>) values.get(ConfigKey.VERIFY_SCHEMAS);
    }

    /** The write-ahead log's disk use beyond which a replica that is down is declared lost; 0: no bound. */
    public long walRetainBytesMax() {
        return (Long) values.get(ConfigKey.WAL_RETAIN_BYTES_MAX);
    }

    /** Whether the write-ahead log is forced to disk before a commit is acknowledged. */
    public boolean walSync() {
        return (Boolean) values.get(ConfigKey.WAL_SYNC);
    }

    public long walSegmentBytesMax() {
        return (Long) values.get(ConfigKey.WAL_SEGMENT_BYTES_MAX);
    }

    /** Size past which data.dir/divergences.jsonl is rotated; 0: divergence reports are kept in memory only. */
    public long divergenceFileBytesMax() {
        return (Long) values.get(ConfigKey.DIVERGENCE_FILE_BYTES_MAX);
    }

    /** Bytes of disk that held autocommit results may take, all sessions together. */
    public long resultSpillBytesMax() {
        return (Long) values.get(ConfigKey.RESULT_SPILL_BYTES_MAX);
    }

    private Path pathOrNull(ConfigKey k) {
        Object v = values.get(k);
        return v instanceof Path ? (Path) v : null;
    }

    private static Object parse(ConfigKey key, String fileKey, String value) throws ConfigException {
        try {
            return key.parse(value == null ? "" : value);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(fileKey + "=" + (key.isSecret() ? "********" : value) + " is not valid: "
                    + e.getMessage() + " (" + key.description() + ")");
        }
    }

    private static List<ReplicaSpec> replicaSpecs(Map<String, Map<ConfigKey, String>> replicaKeys) throws ConfigException {
        List<ReplicaSpec> specs = new ArrayList<>();
        for (Map.Entry<String, Map<ConfigKey, String>> e : replicaKeys.entrySet()) {
            String name = e.getKey();
            Map<ConfigKey, String> keys = e.getValue();
            String url = keys.get(ConfigKey.REPLICA_URL);
            if (url == null) {
                throw new ConfigException("replica " + name + " has settings but no URL: add "
                        + ConfigKey.REPLICA_URL.forName(name) + "=jdbc:...");
            }
            String dialect = keys.getOrDefault(ConfigKey.REPLICA_DIALECT, "");
            if (dialect.isEmpty()) dialect = ReplicaSpec.inferDialect(url);
            if (dialect == null) {
                throw new ConfigException("cannot tell the SQL dialect of " + ConfigKey.REPLICA_URL.forName(name) + "=" + url
                        + ": add " + ConfigKey.REPLICA_DIALECT.forName(name) + "=" + String.join("|", ReplicaSpec.DIALECTS));
            }
            specs.add(new ReplicaSpec(name, url, keys.getOrDefault(ConfigKey.REPLICA_USER, ""),
                    keys.getOrDefault(ConfigKey.REPLICA_PASSWORD, ""), dialect));
        }
        return specs;
    }

    private ReplicaSpec choosePrimary() throws ConfigException {
        String name = (String) values.get(ConfigKey.PRIMARY);
        if (replicas.isEmpty()) return null;
        if (name.isEmpty()) return replicas.get(0);
        for (ReplicaSpec r : replicas) {
            if (r.name().equals(name)) return r;
        }
        throw new ConfigException("primary=" + name + " names no configured replica; use one of "
                + replicas.stream().map(ReplicaSpec::name).toList() + " or remove the key");
    }

    private void validate() throws ConfigException {
        if (replicas.isEmpty()) {
            throw new ConfigException("no replicas configured: add replica.<name>.url=jdbc:... (for example "
                    + "replica.r1.url=jdbc:derby:shepherd-data/r1;create=true)");
        }
        Mode mode = mode();
        int needed = 2 * f() + 1;
        if (mode.replicated() && replicas.size() < needed) {
            throw new ConfigException("mode=" + mode.configName() + " with f=" + f() + " needs at least 2f+1 = " + needed
                    + " replicas but " + replicas.size() + " are configured: add replicas, lower f, or use mode=passthrough");
        }
        if (!clientDialect().isEmpty() && !mode.replicated() && !clientDialect().equals(primary().dialect())) {
            throw new ConfigException(ConfigKey.CLIENT_DIALECT.key() + "=" + clientDialect() + " needs mode cbs, ss or serial:"
                    + " mode=" + mode.configName() + " sends every statement unchanged to " + primary().name() + " ("
                    + primary().dialect() + "); remove the key or set " + ConfigKey.CLIENT_DIALECT.key() + "="
                    + primary().dialect());
        }
        Map<String, String> databases = new java.util.HashMap<>();
        for (ReplicaSpec r : replicas) {
            String other = databases.putIfAbsent(r.database(), r.name());
            if (other != null) {
                throw new ConfigException("replicas " + other + " and " + r.name() + " name the same database ("
                        + r.location() + "): each replica must be a database of its own, or the shepherd would run every"
                        + " statement on it twice and count its answer twice");
            }
        }
        HostPort listen = listen();
        if (users.isEmpty() && !listen.isLoopback()) {
            throw new ConfigException("listen=" + listen + " accepts connections from other machines but no client users "
                    + "are configured: add user.<name>.password=<secret> (clients then authenticate), "
                    + "or listen on 127.0.0.1");
        }
        for (String admin : admins) {
            if (!users.containsKey(admin)) {
                throw new ConfigException(ConfigKey.USER_ADMIN.forName(admin) + "=true names no user: add "
                        + ConfigKey.USER_PASSWORD.forName(admin) + "=<secret>");
            }
        }
        if (replicaProbeMaxMs() < replicaProbeMs()) {
            throw new ConfigException(ConfigKey.REPLICA_PROBE_MAX_MS.key() + "=" + replicaProbeMaxMs() + " is below "
                    + ConfigKey.REPLICA_PROBE_MS.key() + "=" + replicaProbeMs() + ": raise it or lower replica.probe.ms");
        }
        if (walRetainBytesMax() > 0 && walRetainBytesMax() < 2 * walSegmentBytesMax()) {
            // the newest segment is always kept: a smaller bound would lose a replica as soon as it goes down
            throw new ConfigException(ConfigKey.WAL_RETAIN_BYTES_MAX.key() + "=" + walRetainBytesMax() + " is below twice "
                    + ConfigKey.WAL_SEGMENT_BYTES_MAX.key() + "=" + walSegmentBytesMax() + ": raise it, lower the segment size,"
                    + " or set 0 (no bound)");
        }
        if (tlsEnabled()) {
            checkReadable(ConfigKey.TLS_CERT, tlsCert());
            checkReadable(ConfigKey.TLS_KEY, tlsKey());
        }
    }

    private static void checkReadable(ConfigKey key, Path file) throws ConfigException {
        if (file == null) {
            throw new ConfigException("tls.enabled=true needs " + key.key() + "=<PEM file>: " + key.description());
        }
        if (!Files.isReadable(file)) {
            throw new ConfigException(key.key() + "=" + file + ": file does not exist or is not readable");
        }
    }

    private static String unknownKeyMessage(String fileKey) {
        TreeSet<String> known = new TreeSet<>();
        for (ConfigKey k : ConfigKey.values()) known.add(k.key());
        return "unknown configuration key '" + fileKey + "'; known keys: " + String.join(", ", known)
                + " (see docs/configuration.md)";
    }

    @Override
    public String toString() {
        return "ShepherdConfig" + asMap(true);
    }
}
