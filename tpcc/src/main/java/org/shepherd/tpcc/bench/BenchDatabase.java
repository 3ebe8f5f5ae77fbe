package org.shepherd.tpcc.bench;

import java.io.IOException;
import java.nio.file.Path;
import org.shepherd.tpcc.Jdbc;

/** A database server process the benchmark starts, measures against and stops. */
interface BenchDatabase extends AutoCloseable {

    String name();

    /** derby | mariadb | hsqldb | postgresql, as the shepherd's {@code replica.<name>.dialect}. */
    String dialect();

    String jdbcUrl();

    String user();

    String password();

    /** Connections to the server as {@link #user()}. */
    default Jdbc jdbc() {
        return new Jdbc(jdbcUrl(), user(), password());
    }

    /** The server's process id (its descendants are found from it). */
    long pid();

    /** Stops the server cleanly so that its data directory can be copied. */
    void stop();

    /** SIGKILL to the server and its children: a crash, no clean shutdown. */
    void kill();

    /** SIGSTOP to the server: it holds its connections and answers nothing until {@link #resume()}. */
    void pause();

    /** SIGCONT to a paused server. */
    void resume();

    /** Starts the server again on the same data directory and port (after {@link #kill()} or {@link #stop()}). */
    void restart() throws IOException;

    /** Stops the server if it runs; never throws. */
    @Override
    void close();

    /** Starts database servers of one engine, each in its own root directory with its files under {@code data/}. */
    interface Engine {
        String name();

        BenchDatabase start(String name, Path rootDir) throws IOException;

        /** The directory under {@code rootDir} that holds the engine's files and is copied to restore data. */
        default Path dataDir(Path rootDir) {
            return rootDir.resolve("data");
        }
    }
}
