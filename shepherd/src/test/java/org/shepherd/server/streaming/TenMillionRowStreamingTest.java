package org.shepherd.server.streaming;

import static org.assertj.core.api.Assertions.assertThat;

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
        ChildJvm server = ChildJvm.start(StreamingServerMain.class, config.toString(), dir, "server");
        try {
            int port = server.awaitPort(CHILD_TIMEOUT_SECONDS);
            String url = "jdbc:shepherd://127.0.0.1:" + port + "/shepherd?user=app&password=pw";

            long start = System.nanoTime();
            ChildJvm client = ChildJvm.start(StreamingClientMain.class, url, dir, "client");
            String clientOut = client.awaitExit(CHILD_TIMEOUT_SECONDS);
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            System.out.println("10,000,000 rows through the shepherd (-Xmx256m server and client): " + clientOut.trim()
                    + "; client JVM total " + seconds + " s");
            assertThat(client.process.exitValue()).as("client output: %s stderr: %s", clientOut, client.stderr())
                    .isZero();
            assertThat(clientOut).contains("ROWS 10000000 SUM 49999995000000");
            assertThat(clientOut).contains("MAXHEAP " + maxHeapOf256m(clientOut));
        } finally {
            server.stop(30);
        }
    }

    /** The heap bound the child JVM reported, to show -Xmx256m was in force (JVMs report slightly less). */
    private static String maxHeapOf256m(String out) {
        String reported = out.substring(out.indexOf("MAXHEAP ") + 8).trim().split("\\s")[0];
        assertThat(Long.parseLong(reported)).isLessThanOrEqualTo(256L * 1024 * 1024);
        return reported;
    }
}
