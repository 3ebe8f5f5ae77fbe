package org.shepherd.tpcc.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Runs {@code bin/bench} in-process with its output captured, and writes a {@code bin/shepherd} stand-in for it. */
final class BenchTestSupport {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    int bench(String... args) {
        return Bench.execute(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    /** Everything bench printed on stdout so far. */
    String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Everything bench printed on stderr so far. */
    String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** Writes into {@code dir} a launcher that runs the shepherd's CLI from the test class path in a JVM of its own. */
    static Path shepherdLauncher(Path dir) throws IOException {
        Path launcher = dir.resolve("shepherd-launcher");
        Files.writeString(launcher, "#!/usr/bin/env bash\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
            + "' -cp '" + System.getProperty("java.class.path") + "' org.shepherd.cli.ShepherdCli \"$@\"\n");
        assertThat(launcher.toFile().setExecutable(true)).isTrue();
        return launcher;
    }
}
