package org.shepherd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.server.ShepherdServer;

/** {@code shepherd serve} on the embedded default, used through {@code shepherd sql} as a user would. */
class ServeEndToEndTest {

    /** Safety bound for a child JVM; the test never asserts on durations. */
    private static final long CHILD_PROCESS_BOUND_SECONDS = 120;

    @Test
    void sqlWithoutUrlCreatesInsertsAndReadsBackEveryCommonType(@TempDir Path dir) {
        Path dataDir = dir.resolve("shepherd-data");
        ServeCommand.Running running = CliRun.serveEmbedded(dataDir);
        try (ShepherdServer server = running.server()) {
            assertThat(running.readyLine())
                    .matches("Shepherd ready: jdbc:shepherd://127\\.0\\.0\\.1:\\d+/shepherd\\?user=shepherd&password=\\S+");

            CliRun write = CliRun.of("sql", "--data-dir", dataDir.toString(),
                    "-e", "create table kinds(id int primary key, si smallint, bi bigint, de decimal(12,4), db double, "
                            + "re real, vc varchar(20), ch char(4), dt date, tm time, ts timestamp, bo boolean, "
                            + "bin varchar(4) for bit data)",
                    "-e", "insert into kinds values (1, -32768, 9223372036854775807, -12345678.1234, 0.5, 2.25, "
                            + "'Grüße; ''x''', 'ab', '1999-12-31', '23:59:58', '2024-02-29 12:34:56.789', true, x'00ff10'); "
                            + "insert into kinds (id) values (2)");
            assertThat(write.exitCode()).as(write.err()).isZero();
            assertThat(write.out()).contains("1 row affected");

            CliRun read = CliRun.of("sql", "--data-dir", dataDir.toString(), "-e", "select * from kinds order by id");
            assertThat(read.exitCode()).as(read.err()).isZero();
            List<String> cells = cellsOfRow(read.out(), 0);
            assertThat(cells).containsExactly("1", "-32768", "9223372036854775807", "-12345678.1234", "0.5", "2.25",
                    "Grüße; 'x'", "ab", "1999-12-31", "23:59:58", "2024-02-29 12:34:56.789", "true", "0x00FF10");
            assertThat(cellsOfRow(read.out(), 1)).containsExactly("2", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL",
                    "NULL", "NULL", "NULL", "NULL", "NULL", "NULL");
            assertThat(read.out()).contains("2 rows (");

            CliRun failing = CliRun.of("sql", "--data-dir", dataDir.toString(), "-e", "insert into kinds (id) values (1)");
            assertThat(failing.exitCode()).isEqualTo(1);
            assertThat(failing.err()).startsWith("ERROR 23505 (");
        }
    }

    @Test
    void serveRunsUntilSigtermThenShutsDownGracefully(@TempDir Path dir) throws Exception {
        Path dataDir = dir.resolve("shepherd-data");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path stdoutFile = dir.resolve("stdout.txt");
        Path stderrFile = dir.resolve("stderr.txt");
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ShepherdCli.class.getName(), "serve", "--data-dir", dataDir.toString(), "--listen", "127.0.0.1:0")
                .redirectOutput(stdoutFile.toFile())
                .redirectError(stderrFile.toFile())
                .start();
        try {
            String readyLine = awaitFirstLine(stdoutFile, process);
            assertThat(readyLine).as(Files.readString(stderrFile)).startsWith("Shepherd ready: jdbc:shepherd://");
            int port = Integer.parseInt(readyLine.replaceAll(".*127\\.0\\.0\\.1:(\\d+)/.*", "$1"));

            CliRun query = CliRun.of("sql", "--data-dir", dataDir.toString(), "-e", "values 7");
            assertThat(query.exitCode()).as(query.err()).isZero();
            assertThat(query.out()).contains("| 7 |");

            process.destroy();
            assertThat(process.waitFor(CHILD_PROCESS_BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).as("exit status after SIGTERM").isEqualTo(143);
            assertThat(Files.readString(stderrFile)).contains("shepherd stopped");
            assertThat(Files.readAllLines(stdoutFile)).as("the URL is printed once").containsExactly(readyLine);
            assertThat(refusesConnections(port)).isTrue();
        } finally {
            process.destroyForcibly();
        }
    }

    private static String awaitFirstLine(Path file, Process process) throws IOException, InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(CHILD_PROCESS_BOUND_SECONDS);
        while (System.nanoTime() < deadlineNs) {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            int newline = text.indexOf('\n');
            if (newline >= 0) {
                return text.substring(0, newline);
            }
            if (!process.isAlive()) {
                return "(serve exited with " + process.exitValue() + " before printing a line)";
            }
            Thread.sleep(50);
        }
        return "(no line within " + CHILD_PROCESS_BOUND_SECONDS + " s)";
    }

    @Test
    void busyPortFailsWithExitOneAndSaysHowToMove(@TempDir Path dir) throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CliRun run = CliRun.of("serve", "--data-dir", dir.resolve("shepherd-data").toString(),
                    "--listen", "127.0.0.1:" + taken.getLocalPort());

            assertThat(run.exitCode()).isEqualTo(1);
            assertThat(run.err()).contains("cannot listen on 127.0.0.1:" + taken.getLocalPort()).contains("--listen HOST:PORT");
            assertThat(run.out()).isEmpty();
        }
    }

    private static boolean refusesConnections(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            return false;
        } catch (ConnectException expected) {
            return true;
        }
    }

    /** The cells of data row {@code index} of the first table in {@code output}. */
    private static List<String> cellsOfRow(String output, int index) {
        List<String> rows = new ArrayList<>();
        int rules = 0;
        for (String line : output.split("\\R")) {
            if (line.startsWith("+")) {
                rules++;
            } else if (line.startsWith("|") && rules == 2) {
                rows.add(line);
            }
        }
        List<String> cells = new ArrayList<>();
        for (String cell : rows.get(index).substring(1).split("\\|")) {
            cells.add(cell.strip());
        }
        return cells;
    }
}
