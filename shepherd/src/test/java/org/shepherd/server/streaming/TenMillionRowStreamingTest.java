package org.shepherd.server.streaming;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 10,000,000-row SELECT streams from an embedded Derby replica through a shepherd to a JDBC client, each in its
 * own JVM with -Xmx256m (buffering the result would need several times that). Run alone with
 * {@code mvn -pl shepherd -am verify -Dgroups=streaming -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("streaming")
class TenMillionRowStreamingTest {

    private static final long CHILD_TIMEOUT_SECONDS = 600;

    @Test
    void tenMillionRowsStreamWithA256MegabyteHeapOnBothSides(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("shepherd.properties");
        Files.writeString(config, "mode=passthrough\nlisten=127.0.0.1:0\nuser.app.password=pw\n"
                + "replica.r1.url=jdbc:derby:memory:streaming;create=true\n");
        Process server = ChildJvm.start(StreamingServerMain.class, config.toString(), dir.resolve("server.err"));
        try {
            BufferedReader serverOut = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            String first = serverOut.readLine();
            assertThat(first).as("server JVM did not start; stderr: %s", ChildJvm.stderr(dir.resolve("server.err"))).startsWith("PORT ");
            int port = Integer.parseInt(first.split(" ")[1]);
            String url = "jdbc:shepherd://127.0.0.1:" + port + "/shepherd?user=app&password=pw";

            long start = System.nanoTime();
            Process client = ChildJvm.start(StreamingClientMain.class, url, dir.resolve("client.err"));
            String clientOut = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(client.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            System.out.println("10,000,000 rows through the shepherd (-Xmx256m server and client): " + clientOut.trim()
                    + "; client JVM total " + seconds + " s");
            assertThat(client.exitValue()).as("client output: %s stderr: %s", clientOut, ChildJvm.stderr(dir.resolve("client.err")))
                    .isZero();
            assertThat(clientOut).contains("ROWS 10000000 SUM 49999995000000");
            assertThat(clientOut).contains("MAXHEAP " + maxHeapOf256m(clientOut));
        } finally {
            server.getOutputStream().close();
            if (!server.waitFor(30, TimeUnit.SECONDS)) server.destroyForcibly().waitFor();
        }
    }

    /** The heap bound the child JVM reported, to show -Xmx256m was in force (JVMs report slightly less). */
    private static String maxHeapOf256m(String out) {
        String reported = out.substring(out.indexOf("MAXHEAP ") + 8).trim().split("\\s")[0];
        assertThat(Long.parseLong(reported)).isLessThanOrEqualTo(256L * 1024 * 1024);
        return reported;
    }
}
