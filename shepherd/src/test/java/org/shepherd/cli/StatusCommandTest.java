package org.shepherd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusCommandTest {

    private static Map<String, Object> viewRow(String lastViewChange) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("mode", "cbs");
        row.put("f", 1L);
        row.put("barrier", 42L);
        row.put("primary", "r2");
        row.put("replicas", 3L);
        row.put("commits", 41L);
        row.put("aborts", 3L);
        row.put("vote_aborts", 1L);
        row.put("divergences_total", 0L);
        row.put("view", 1L);
        row.put("wal_bytes", 2_097_152L);
        row.put("wal_segments", 1L);
        row.put("wal_floor", 40L);
        row.put("commit_wait_p50_ms", 1L);
        row.put("commit_wait_p99_ms", 9L);
        row.put("commit_p50_ms", 4L);
        row.put("commit_p99_ms", 20L);
        row.put("commit_max_ms", 31L);
        if (lastViewChange != null) row.put("last_view_change", lastViewChange);
        return row;
    }

    @Test
    void theLastViewChangeIsPrintedWithItsReasonAfterTheView() {
        String change = "view 1: r2 replaced r1 (down: stuck commit: the COMMIT of T7 has been running there for 5012 ms"
                + " while 2 other replicas committed it, and a commit waits for no lock)";
        assertThat(StatusCommand.viewLines(viewRow(change))).containsExactly(
                "view 1: mode cbs, f=1, barrier 42, primary r2 (3 replicas)",
                "transactions: 41 committed, 3 aborted (1 by a failed vote); divergences on record: 0",
                "last view change: " + change,
                "commit latency since start: p50 4 ms, p99 20 ms, max 31 ms; of which waiting for f+1 ready, agreeing"
                        + " replicas: p50 1 ms, p99 9 ms",
                "write-ahead log: 2.0 MiB in 1 segment(s), released up to barrier 40");
    }

    @Test
    void noLineForAViewThatNeverChangedOrAShepherdThatDoesNotSay() {
        assertThat(StatusCommand.viewLines(viewRow(""))).noneMatch(l -> l.startsWith("last view change"));
        assertThat(StatusCommand.viewLines(viewRow(null))).hasSize(4);
    }
}
