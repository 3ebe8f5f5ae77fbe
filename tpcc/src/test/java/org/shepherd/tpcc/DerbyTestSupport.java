package org.shepherd.tpcc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Embedded Derby for the tests. Loading a small warehouse takes seconds, so it is loaded once per JVM and backed
 * up; each test gets a fresh in-memory copy of that backup ({@code createFrom}) in about a second.
 */
final class DerbyTestSupport {

    static final long SEED = 42;
    static final Scale SCALE = new Scale(1, true);
    static final Clock LOAD_CLOCK = Clock.fixed(Instant.parse("2026-01-02T03:04:05.678Z"), ZoneOffset.UTC);
    private static final String GOLDEN = "tpcc-golden";
    private static Path backupDir;

    private DerbyTestSupport() {
    }

    /** Derby looks for deadlocks only after 20 s of waiting by default; tests should not sit that long. */
    static void shortLockTimeouts() {
        System.setProperty("derby.locks.deadlockTimeout", "2");
        System.setProperty("derby.locks.waitTimeout", "10");
        System.setProperty("derby.stream.error.file", "target/derby.log");
    }

    static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }

    /** Loads one small warehouse (seed {@link #SEED}, load time {@link #LOAD_CLOCK}) into a new database. */
    static void load(Jdbc db) throws SQLException, InterruptedException {
        new Loader(db, new Loader.Options(SCALE, SEED, Dialect.DERBY, 500, 1, LOAD_CLOCK), quiet(), false).load();
    }

    /** Creates the in-memory database {@code name} as a copy of the loaded one; returns its URL. */
    static synchronized String loadedCopy(String name) throws SQLException, InterruptedException {
        shortLockTimeouts();
        if (backupDir == null) {
            Jdbc golden = new Jdbc("jdbc:derby:memory:" + GOLDEN + ";create=true", null, null);
            load(golden);
            try {
                backupDir = Files.createTempDirectory("tpcc-derby-backup-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteRecursively(backupDir)));
            try (Connection c = golden.connect(); CallableStatement backup =
                     c.prepareCall("CALL SYSCS_UTIL.SYSCS_BACKUP_DATABASE(?)")) {
                backup.setString(1, backupDir.toString());
                backup.execute();
            }
            dropInMemory(GOLDEN);
        }
        DriverManager.getConnection("jdbc:derby:memory:" + name + ";createFrom=" + backupDir.resolve(GOLDEN)).close();
        return "jdbc:derby:memory:" + name;
    }

    /** Frees an in-memory Derby database; Derby answers a successful drop with an exception. */
    static void dropInMemory(String name) {
        try {
            DriverManager.getConnection("jdbc:derby:memory:" + name + ";drop=true").close();
        } catch (SQLException expected) {
            // SQLState 08006 means dropped
        }
    }

    private static void deleteRecursively(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind
        }
    }
}
