package org.shepherd.server.streaming;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Starts a test main class in a JVM of its own with -Xmx256m, on this JVM's class path. */
final class ChildJvm {

    static final String HEAP = "-Xmx256m";

    private ChildJvm() {
    }

    static Process start(Class<?> main, String arg, Path stderr) throws IOException {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
                "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"), main.getName(), arg);
        return new ProcessBuilder(cmd).redirectError(stderr.toFile()).start();
    }

    /** The child's stderr file, for failure messages. */
    static String stderr(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
