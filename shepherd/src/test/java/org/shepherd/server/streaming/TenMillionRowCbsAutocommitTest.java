package org.shepherd.server.streaming;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
            server.readTenMillionRowsThrough(dir, CHILD_TIMEOUT_SECONDS, "CBS autocommit");
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
