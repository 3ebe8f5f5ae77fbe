package org.shepherd.server.streaming;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 10,000,000-row autocommit SELECT through CBS over three embedded Derby replicas (f=1), the shepherd and the
 * client each in its own JVM with -Xmx256m. The answer is held until its vote: the primary's rows spill to
 * data.dir/spill and stream back from there; the file is gone afterwards. Run alone with
 * {@code mvn -pl shepherd -am verify -Dgroups=streaming -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("streaming")
class TenMillionRowCbsAutocommitTest {

    private static final long CHILD_TIMEOUT_SECONDS = 900;

    @Test
    void tenMillionRowAutocommitResultIsVotedAndReadWithA256MegabyteHeapOnBothSides(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("shepherd.properties");
        Path data = dir.resolve("data");
        StringBuilder props = new StringBuilder("mode=cbs\nf=1\nlisten=127.0.0.1:0\nuser.app.password=pw\n");
        props.append("data.dir=").append(data).append('\n');
        for (String r : List.of("r1", "r2", "r3")) {
            props.append("replica.").append(r).append(".url=jdbc:derby:memory:cbs10m-").append(r).append(";create=true\n");
        }
        Files.writeString(config, props.toString());
        ChildJvm server = ChildJvm.start(StreamingServerMain.class, config.toString(), dir, "server");
        try {
            int port = server.awaitPort(CHILD_TIMEOUT_SECONDS);
            String url = "jdbc:shepherd://127.0.0.1:" + port + "/shepherd?user=app&password=pw";

            long start = System.nanoTime();
            ChildJvm client = ChildJvm.start(StreamingClientMain.class, url, dir, "client");
            String clientOut = client.awaitExit(CHILD_TIMEOUT_SECONDS);
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            System.out.println("10,000,000 rows, CBS autocommit (-Xmx256m server and client): " + clientOut.trim()
                    + "; client JVM total " + seconds + " s");
            assertThat(client.process.exitValue()).as("client output: %s stderr: %s server stderr: %s", clientOut,
                    client.stderr(), server.stderr()).isZero();
            assertThat(clientOut).contains("ROWS 10000000 SUM 49999995000000");
            assertThat(Long.parseLong(clientOut.substring(clientOut.indexOf("MAXHEAP ") + 8).trim().split("\\s")[0]))
                    .isLessThanOrEqualTo(256L * 1024 * 1024);
            assertThat(spillFiles(data.resolve("spill"))).as("spill file deleted once the result was read").isEmpty();
        } finally {
            server.stop(60);
        }
        assertThat(server.process.exitValue()).as("server stderr: %s", server.stderr()).isZero();
    }

    private static List<Path> spillFiles(Path spillDir) throws IOException {
        try (Stream<Path> files = Files.list(spillDir)) {
            return files.toList();
        }
    }
}
