package org.shepherd.config;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The configuration {@code bin/shepherd serve} runs without a config file: three embedded Derby replicas
 * (r1..r3) under the data directory, f=1, listening on 127.0.0.1:7654, one client user {@value #USER} whose
 * random password is generated on the first run and kept in {@code <data.dir>/credentials.properties}
 * (owner-only), so later runs and {@code bin/shepherd sql} from the same directory reuse it.
 */
public final class EmbeddedDefault {

    public static final Path DATA_DIR = Path.of("shepherd-data");
    public static final String USER = "shepherd";
    public static final String DATABASE = "shepherd";
    public static final String CREDENTIALS_FILE = "credentials.properties";
    public static final String LISTEN = "127.0.0.1:7654";
    /** Commit barrier scheduling over the three replicas. */
    public static final Mode MODE = Mode.CBS;
    public static final int REPLICAS = 3;

    private static final int PASSWORD_BYTES = 24;
    private static final String CREDENTIALS_COMMENT =
            "Shepherd embedded default: client credentials (generated; delete the file to get a new password)";

    /** The user and password clients of the embedded default log in with, and the URL it was started with. */
    public record Credentials(String user, String password, String url) {
        @Override
        public String toString() {
            return "Credentials[user=" + user + ", url=" + url + "]";
        }
    }

    private EmbeddedDefault() {
    }

    /** The embedded default under {@link #DATA_DIR} in the working directory. */
    public static ShepherdConfig config() throws ConfigException {
        return config(DATA_DIR, LISTEN);
    }

    /**
     * The embedded default with its files under {@code dataDir}: creates the directory and the credentials
     * file if needed.
     *
     * @param listen host:port to listen on ({@link #LISTEN} normally; tests pass port 0)
     */
    public static ShepherdConfig config(Path dataDir, String listen) throws ConfigException {
        Credentials c;
        try {
            c = credentials(dataDir, listen);
        } catch (IOException e) {
            throw new ConfigException("cannot create the embedded default's files in " + dataDir.toAbsolutePath()
                    + ": " + e.getMessage() + " (run from a writable directory)", e);
        }
        if (System.getProperty("derby.stream.error.file") == null) {
            // keep Derby's log with its databases instead of ./derby.log
            System.setProperty("derby.stream.error.file", dataDir.resolve("derby.log").toAbsolutePath().toString());
        }
        Map<String, String> m = new TreeMap<>();
        m.put(ConfigKey.LISTEN.key(), listen);
        m.put(ConfigKey.F.key(), "1");
        m.put(ConfigKey.MODE.key(), MODE.configName());
        m.put(ConfigKey.DATA_DIR.key(), dataDir.toString());
        m.put(ConfigKey.USER_PASSWORD.forName(c.user()), c.password());
        m.put(ConfigKey.USER_ADMIN.forName(c.user()), "true");
        Path absolute = dataDir.toAbsolutePath().normalize();
        for (int i = 1; i <= REPLICAS; i++) {
            m.put(ConfigKey.REPLICA_URL.forName("r" + i), "jdbc:derby:" + absolute.resolve("r" + i) + ";create=true");
        }
        return ShepherdConfig.fromMap(m);
    }

    /** The credentials file's contents; created with a fresh random password when it does not exist. */
    public static Credentials credentials(Path dataDir, String listen) throws IOException {
        Optional<Credentials> existing = readCredentials(dataDir);
        if (existing.isPresent()) return existing.get();
        Files.createDirectories(dataDir);
        Path file = dataDir.resolve(CREDENTIALS_FILE);
        byte[] random = new byte[PASSWORD_BYTES];
        new SecureRandom().nextBytes(random);
        Credentials c = new Credentials(USER, Base64.getUrlEncoder().withoutPadding().encodeToString(random),
                "jdbc:shepherd://" + HostPort.parse(listen) + "/" + DATABASE);
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(file); // not a POSIX file system
        } catch (FileAlreadyExistsException e) {
            return readCredentials(dataDir).orElseThrow(() -> new IOException(file + " appeared but cannot be read"));
        }
        Properties p = new Properties();
        p.setProperty("user", c.user());
        p.setProperty("password", c.password());
        p.setProperty("url", c.url());
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, CREDENTIALS_COMMENT);
        }
        return c;
    }

    /** The credentials file under {@code dataDir}, if it exists. */
    public static Optional<Credentials> readCredentials(Path dataDir) throws IOException {
        Path file = dataDir.resolve(CREDENTIALS_FILE);
        if (!Files.isRegularFile(file)) return Optional.empty();
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        String user = p.getProperty("user");
        String password = p.getProperty("password");
        if (user == null || password == null || password.isEmpty()) {
            throw new IOException(file + " lacks user or password; delete it to generate new credentials");
        }
        return Optional.of(new Credentials(user, password,
                p.getProperty("url", "jdbc:shepherd://" + LISTEN + "/" + DATABASE)));
    }

    /** {@code jdbc:shepherd://host:port/shepherd?user=..&password=..} for a server bound to {@code address}. */
    public static String jdbcUrl(InetSocketAddress address, Credentials c) {
        return "jdbc:shepherd://" + hostPort(address) + "/" + DATABASE + "?user=" + c.user() + "&password=" + c.password();
    }

    /** The one line the server prints when it is ready. */
    public static String readyLine(InetSocketAddress address, Credentials c) {
        return "Shepherd ready: " + jdbcUrl(address, c);
    }

    /**
     * Call once the server is bound: records the bound address as the {@code url} of the credentials file (so
     * {@code bin/shepherd sql} finds the server) and returns {@link #readyLine} to print.
     */
    public static String announce(Path dataDir, InetSocketAddress bound) throws IOException {
        Credentials c = readCredentials(dataDir).orElseThrow(
                () -> new IOException(dataDir.resolve(CREDENTIALS_FILE) + " is missing; restart the shepherd"));
        String url = "jdbc:shepherd://" + hostPort(bound) + "/" + DATABASE;
        if (!url.equals(c.url())) {
            Properties p = new Properties();
            p.setProperty("user", c.user());
            p.setProperty("password", c.password());
            p.setProperty("url", url);
            try (Writer w = Files.newBufferedWriter(dataDir.resolve(CREDENTIALS_FILE), StandardCharsets.UTF_8)) {
                p.store(w, CREDENTIALS_COMMENT);
            }
        }
        return readyLine(bound, c);
    }

    static String hostPort(InetSocketAddress a) {
        String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }
}
