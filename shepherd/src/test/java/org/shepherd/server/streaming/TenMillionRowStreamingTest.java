package org.shepherd.server.streaming;

import java.nio.file.Files;
import java.nio.file.Path;
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
            server.readTenMillionRowsThrough(dir, CHILD_TIMEOUT_SECONDS, "passthrough");
        } finally {
            server.stop(30);
        }
    }
}
