package org.shepherd.server.streaming;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.server.ShepherdServer;

/** A shepherd in its own JVM for {@link TenMillionRowStreamingTest}: prints its port, serves until stdin closes. */
public final class StreamingServerMain {

    private StreamingServerMain() {
    }

    public static void main(String[] args) throws Exception {
        ShepherdServer server = ShepherdServer.create(ShepherdConfig.load(Path.of(args[0])));
        InetSocketAddress bound = server.start();
        System.out.println("PORT " + bound.getPort() + " MAXHEAP " + Runtime.getRuntime().maxMemory());
        System.out.flush();
        while (System.in.read() >= 0) {
            // serve until the parent closes our stdin
        }
        server.close();
        System.out.println("STOPPED");
    }
}
