package org.shepherd.server.streaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A test main class in a JVM of its own with -Xmx256m, on this JVM's class path, its stdout and stderr in files
 * ({@code name.out}, {@code name.err}) so that every wait for it is bounded: a hung child fails the test instead of
 * hanging it.
 */
final class ChildJvm {

    static final String HEAP = "-Xmx256m";
    private static final long POLL_MS = 50;

    final Process process;
    private final Path out;
    private final Path err;

    private ChildJvm(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    static ChildJvm start(Class<?> main, String arg, Path dir, String name) throws IOException {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
                "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"), main.getName(), arg);
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return new ChildJvm(p, out, err);
    }

    /** The port the server child prints as its first line ({@code PORT n}), waiting at most {@code timeoutSeconds}. */
    int awaitPort(long timeoutSeconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
                if (line.startsWith("PORT ")) return Integer.parseInt(line.split("\\s+")[1]);
            }
            if (!process.isAlive()) break;
            Thread.sleep(POLL_MS);
        }
        return fail("the server JVM printed no PORT line (alive: %s); stderr: %s", process.isAlive(), stderr());
    }

    /** Waits for the child to exit (killing it after {@code timeoutSeconds}) and returns its stdout. */
    String awaitExit(long timeoutSeconds) throws IOException, InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            fail("the child JVM did not finish within %d s; stdout: %s stderr: %s", timeoutSeconds, stdout(), stderr());
        }
        return stdout();
    }

    /**
     * Runs {@link StreamingClientMain} in its own JVM against the shepherd this server child started, checks that it
     * read all 10,000,000 rows with a heap of at most 256 MiB, and prints what it reported under {@code label}.
     */
    void readTenMillionRowsThrough(Path dir, long timeoutSeconds, String label) throws IOException, InterruptedException {
        String url = "jdbc:shepherd://127.0.0.1:" + awaitPort(timeoutSeconds) + "/shepherd?user=app&password=pw";
        long start = System.nanoTime();
        ChildJvm client = start(StreamingClientMain.class, url, dir, "client");
        String out = client.awaitExit(timeoutSeconds);
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        System.out.println("10,000,000 rows, " + label + " (-Xmx256m server and client): " + out.trim()
                + "; client JVM total " + seconds + " s");
        assertThat(client.process.exitValue()).as("client output: %s stderr: %s server stderr: %s", out, client.stderr(),
                stderr()).isZero();
        assertThat(out).contains("ROWS 10000000 SUM 49999995000000");
        String reportedHeap = out.substring(out.indexOf("MAXHEAP ") + 8).trim().split("\\s")[0];
        // JVMs report slightly less than -Xmx: the bound shows the flag was in force
        assertThat(Long.parseLong(reportedHeap)).isLessThanOrEqualTo(256L * 1024 * 1024);
    }

    /** Closes the child's stdin (the server mains stop on it) and waits, killing it after {@code timeoutSeconds}. */
    void stop(long timeoutSeconds) throws InterruptedException {
        try {
            process.getOutputStream().close();
        } catch (IOException alreadyGone) {
            // the child ended by itself
        }
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) process.destroyForcibly().waitFor();
    }

    String stdout() throws IOException {
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** The child's stderr, for failure messages. */
    String stderr() {
        try {
            return Files.readString(err, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
