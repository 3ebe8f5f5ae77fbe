package org.shepherd.divergence;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The divergence reports kept in a directory: across a reopen, through a rotation, past a torn or damaged line. */
class DivergenceLogTest {

    private static Divergence report(long tx) {
        return new Divergence(1_764_000_000_000L + tx, tx, (int) (tx % 3), "SELECT bal FROM acct WHERE id = " + tx, "r" + (1 + tx % 3),
                "[[100]]", "[[\"666\" \u00e9]]", tx % 2 == 0);
    }

    private static List<Divergence> reports(long from, long to) {
        List<Divergence> list = new ArrayList<>();
        for (long tx = from; tx <= to; tx++) list.add(report(tx));
        return list;
    }

    @Test
    void reportsSurviveAReopenInOrderWithEveryField(@TempDir Path dir) throws Exception {
        try (DivergenceLog log = DivergenceLog.open(dir, 10, 1 << 20)) {
            assertThat(log.total()).isZero();
            reports(1, 3).forEach(log::report);
        }
        try (DivergenceLog log = DivergenceLog.open(dir, 10, 1 << 20)) {
            assertThat(log.snapshot()).isEqualTo(reports(1, 3));
            assertThat(log.total()).isEqualTo(3);
            log.report(report(4));
        }
        assertThat(Files.readAllLines(dir.resolve(DivergenceLog.FILE))).hasSize(4)
                .allSatisfy(line -> assertThat(line).startsWith("{\"time\":\"2025-11-24T"));
        try (DivergenceLog log = DivergenceLog.open(dir, 2, 1 << 20)) {
            assertThat(log.snapshot()).as("the newest, up to the capacity").isEqualTo(reports(3, 4));
            assertThat(log.total()).as("all of them on record").isEqualTo(4);
        }
    }

    @Test
    void aFullFileIsRotatedAndBothFilesAreReadBack(@TempDir Path dir) throws Exception {
        int line = DivergenceLog.toJson(report(1)).getBytes(StandardCharsets.UTF_8).length + 1; // and its newline
        try (DivergenceLog log = DivergenceLog.open(dir, 100, 3L * line + line / 2)) {
            reports(1, 7).forEach(log::report);
        }
        assertThat(Files.readAllLines(dir.resolve(DivergenceLog.OLDER_FILE))).hasSize(3);
        assertThat(Files.readAllLines(dir.resolve(DivergenceLog.FILE))).hasSize(1);
        try (DivergenceLog log = DivergenceLog.open(dir, 100, 3L * line + line / 2)) {
            assertThat(log.snapshot()).as("reports 1-3 went with the first rotation").isEqualTo(reports(4, 7));
            assertThat(log.total()).isEqualTo(4);
        }
    }

    @Test
    void aTornLastLineIsCutOffAndADamagedLineSkipped(@TempDir Path dir) throws Exception {
        try (DivergenceLog log = DivergenceLog.open(dir, 10, 1 << 20)) {
            log.report(report(1));
        }
        Path file = dir.resolve(DivergenceLog.FILE);
        Files.write(file, "not json\n{\"time\":\"2025-11-24T00:00:00Z\"}\n".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        Files.write(file, DivergenceLog.toJson(report(2)).getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        Files.write(file, "\n{\"time\":\"2025-11-2".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        try (DivergenceLog log = DivergenceLog.open(dir, 10, 1 << 20)) {
            assertThat(log.snapshot()).isEqualTo(reports(1, 2));
            log.report(report(3));
        }
        try (DivergenceLog log = DivergenceLog.open(dir, 10, 1 << 20)) {
            assertThat(log.snapshot()).as("the report after the torn line starts a line of its own").isEqualTo(reports(1, 3));
        }
    }

    @Test
    void aLogInMemoryDropsTheOldestPastItsCapacity() {
        try (DivergenceLog log = new DivergenceLog(2)) {
            reports(1, 3).forEach(log::report);
            assertThat(log.snapshot()).isEqualTo(reports(2, 3));
            assertThat(log.total()).isEqualTo(3);
        }
    }
}
