package org.shepherd.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.shepherd.recovery.RestartPlan.LogState;
import org.shepherd.recovery.RestartPlan.NoPrimaryException;
import org.shepherd.recovery.RestartPlan.Plan;
import org.shepherd.recovery.RestartPlan.ReplicaLog;
import org.shepherd.recovery.RestartPlan.ReplicaStart;
import org.shepherd.recovery.RestartPlan.Start;

/**
 * How a restarted shepherd decides, from its write-ahead log and the replicas' transaction logs, which replica serves at
 * once, which replays what it lacks, which is lost, and which one is the primary.
 */
class RestartPlanTest {

    /** The log's floor in most cases: barriers 0..4 are committed everywhere, the log holds what came after. */
    private static final long FLOOR = 4;

    private static LogState log(long floor, long lastTxId, long... barriers) {
        return new LogState(true, floor, barriers, lastTxId);
    }

    private static final LogState NO_HISTORY = new LogState(false, -1, new long[0], -1);

    /** A replica that may be primary, holding {@code upToFloor} barriers up to the floor and {@code above} above it. */
    private static ReplicaLog replica(String name, long lastTxId, long upToFloor, long... above) {
        return replica(name, true, lastTxId, upToFloor, above);
    }

    private static ReplicaLog replica(String name, boolean canBePrimary, long lastTxId, long upToFloor, long... above) {
        long last = above.length > 0 ? above[above.length - 1] : upToFloor > 0 ? FLOOR : -1;
        return new ReplicaLog(name, canBePrimary, lastTxId, last, upToFloor, above);
    }

    /** A replica as seen without log history: its last barrier and how many barriers up to the highest it holds. */
    private static ReplicaLog endingAt(String name, long lastTxId, long lastBarrier, long upToHighest) {
        return new ReplicaLog(name, true, lastTxId, lastBarrier, upToHighest, new long[0]);
    }

    private static List<Start> starts(Plan p) {
        return p.replicas().stream().map(ReplicaStart::start).toList();
    }

    @Nested
    @DisplayName("with a log history")
    class WithLog {

        @Test
        @DisplayName("every replica holds every logged transaction: all serve at once, the configured primary stays")
        void allUp() throws Exception {
            Plan p = RestartPlan.plan(log(FLOOR, 40, 5, 7), List.of(replica("r1", 41, 5, 5, 6, 7), replica("r2", 41, 5, 5, 6, 7),
                    replica("r3", 41, 5, 5, 6, 7)), 0, true);
            assertThat(starts(p)).containsExactly(Start.UP, Start.UP, Start.UP);
            assertThat(p.replicas()).allSatisfy(s -> {
                assertThat(s.reason()).isEmpty();
                assertThat(s.replayCursor()).isEqualTo(-1);
                assertThat(s.lastCommittedBarrier()).isEqualTo(7);
            });
            assertThat(p.primary()).isZero();
            assertThat(p.primaryNote()).isEmpty();
        }

        @Test
        @DisplayName("the floor is above every barrier left (the one decided there was lost with the crash): new barriers come"
                + " after the floor, so that a replica replaying from the floor gets them (simulation seed 20665)")
        void newBarriersComeAfterTheFloor() throws Exception {
            // barriers 0..4 settled everywhere; the replicas' logs end at 3 (barrier 4's transaction was not durable)
            Plan p = RestartPlan.plan(log(FLOOR, 40), List.of(
                    new ReplicaLog("r1", true, 40, 3, 4, new long[0]), new ReplicaLog("r2", true, 40, 3, 4, new long[0]),
                    ReplicaLog.unreachable("r3", true, "r3 crashed")), 0, true);
            assertThat(p.nextBarrier()).isEqualTo(FLOOR + 1);
            assertThat(p.replicas().get(2).start()).isEqualTo(Start.UNREACHABLE);
            assertThat(p.replicas().get(2).replayCursor()).isLessThan(p.nextBarrier());
        }

        @Test
        @DisplayName("a replica lacking logged transactions above the floor replays them from the floor; the reason names them")
        void replicaLackingLoggedTransactionsReplays() throws Exception {
            Plan p = RestartPlan.plan(log(FLOOR, 40, 5, 7, 9), List.of(replica("r1", 41, 5, 5, 7, 9), replica("r2", 41, 5, 5, 7, 9),
                    replica("r3", 33, 5, 5)), 0, true);
            assertThat(starts(p)).containsExactly(Start.UP, Start.UP, Start.REPLAY);
            ReplicaStart r3 = p.replicas().get(2);
            assertThat(r3.replayCursor()).isEqualTo(FLOOR);
            assertThat(r3.lastCommittedBarrier()).isEqualTo(5);
            assertThat(r3.reason()).contains("lacks 2 committed transactions").contains("barriers 7 to 9")
                    .contains("replaying them from the write-ahead log");
        }

        @Test
        @DisplayName("a replica lacking one logged transaction: the reason names that one barrier")
        void replicaLackingOneLoggedTransaction() throws Exception {
            Plan p = RestartPlan.plan(log(FLOOR, 40, 5, 7), List.of(replica("r1", 41, 5, 5, 7), replica("r2", 39, 5, 7),
                    replica("r3", 41, 5, 5, 7)), 0, true);
            assertThat(starts(p)).containsExactly(Start.UP, Start.REPLAY, Start.UP);
            assertThat(p.replicas().get(1).reason()).contains("lacks 1 committed transaction of").contains("(barriers 5)")
                    .doesNotContain("7");
        }

        @Test
        @DisplayName("a replica holding fewer barriers up to the floor than the others missed what the log dropped: lost")
        void fewerBarriersUpToTheFloorIsLost() throws Exception {
            Plan p = RestartPlan.plan(log(FLOOR, 40, 5), List.of(replica("r1", 41, 5, 5), replica("r2", 41, 4, 5),
                    replica("r3", 41, 5, 5)), 0, true);
            assertThat(starts(p)).containsExactly(Start.UP, Start.LOST, Start.UP);
            ReplicaStart r2 = p.replicas().get(1);
            assertThat(r2.reason()).contains("holds 4 committed transactions up to barrier 4 where other replicas hold 5")
                    .contains("restore it from a copy");
            assertThat(r2.replayCursor()).isEqualTo(-1);
        }

        @Test
        @DisplayName("a barrier above the floor that no log record holds (a transaction that wrote nothing) may be missing:"
                + " the replica is not lost")
        void unloggedBarrierAboveTheFloorMayBeMissing() throws Exception {
            Plan p = RestartPlan.plan(log(FLOOR, 40, 5), List.of(replica("r1", 41, 5, 5, 6), replica("r2", 41, 5, 5, 6),
                    replica("r3", 40, 5, 5)), 0, true);
            assertThat(starts(p)).containsExactly(Start.UP, Start.UP, Start.UP);

            Plan lacksBoth = RestartPlan.plan(log(FLOOR, 40, 5), List.of(replica("r1", 41, 5, 5, 6), replica("r2", 41, 5, 5, 6),
                    replica("r3", 30, 5)), 0, true);
            assertThat(starts(lacksBoth)).containsExactly(Start.UP, Start.UP, Start.REPLAY);
            assertThat(lacksBoth.replicas().get(2).reason()).contains("lacks 1 committed transaction").contains("(barriers 5)")
                    .doesNotContain("6");
        }

        @Test
        @DisplayName("a log without a floor yet: counts up to it are all zero, only the logged barriers decide")
        void noFloorYet() throws Exception {
            Plan p = RestartPlan.plan(log(-1, 3, 0, 1, 2), List.of(new ReplicaLog("r1", true, 3, 2, 0, new long[] {0, 1, 2}),
                    new ReplicaLog("r2", true, 3, 2, 0, new long[] {0, 1, 2}), new ReplicaLog("r3", true, 1, 0, 0, new long[] {0})),
                    0, true);
            assertThat(starts(p)).containsExactly(Start.UP, Start.UP, Start.REPLAY);
            assertThat(p.replicas().get(2).replayCursor()).isEqualTo(-1);
            assertThat(p.replicas().get(2).reason()).contains("barriers 1 to 2");
            assertThat(p.nextBarrier()).isEqualTo(3);
        }
    }

    @Nested
    @DisplayName("without a log history")
    class WithoutLog {

        @Test
        @DisplayName("the floor to read against is the highest barrier any readable replica holds")
        void floorIsTheHighestBarrier() {
            assertThat(RestartPlan.floorToRead(NO_HISTORY, 9, -1, 7)).isEqualTo(9);
            assertThat(RestartPlan.floorToRead(log(FLOOR, 1), 9, 7)).as("with history: the log's").isEqualTo(FLOOR);
        }

        @Test
        @DisplayName("a replica holding fewer barriers up to the highest is lost, a hole included; the rest serve")
        void replicaBehindIsLost() throws Exception {
            // read against floor 9: r1 and r2 hold the ten barriers 0..9, r3 ends at 7, r4 ends at 9 but lacks 8
            Plan p = RestartPlan.plan(NO_HISTORY, List.of(endingAt("r1", 20, 9, 10), endingAt("r2", 20, 9, 10),
                    endingAt("r3", 17, 7, 8), endingAt("r4", 20, 9, 9)), 0, true);
            assertThat(starts(p)).containsExactly(Start.UP, Start.UP, Start.LOST, Start.LOST);
            assertThat(p.replicas().get(2).reason()).contains("holds 8 committed transactions up to barrier 9 where other"
                    + " replicas hold 10").contains("no write-ahead log").contains("restore it from a copy");
            assertThat(p.replicas().get(2).lastCommittedBarrier()).isEqualTo(7);
            assertThat(p.nextBarrier()).isEqualTo(10);
            assertThat(p.lastTxId()).isEqualTo(20);
        }

        @Test
        @DisplayName("a first start on empty replicas: all serve, ids and barriers start at the beginning")
        void emptyReplicas() throws Exception {
            Plan p = RestartPlan.plan(NO_HISTORY, List.of(endingAt("r1", -1, -1, 0), endingAt("r2", -1, -1, 0),
                    endingAt("r3", -1, -1, 0)), 0, true);
            assertThat(starts(p)).containsExactly(Start.UP, Start.UP, Start.UP);
            assertThat(p.nextBarrier()).isZero();
            assertThat(p.lastTxId()).isEqualTo(-1);
        }
    }

    @Nested
    @DisplayName("a replica that cannot be read at start")
    class Unreachable {

        @Test
        @DisplayName("starts unreachable, to hold as many barriers up to the floor as the others and replay from there")
        void secondaryIsProbedAndChecked() throws Exception {
            Plan p = RestartPlan.plan(log(FLOOR, 40, 5, 7), List.of(replica("r1", 41, 5, 5, 6, 7), replica("r2", 41, 5, 5, 6, 7),
                    ReplicaLog.unreachable("r3", true, "connection refused")), 0, true);
            assertThat(starts(p)).containsExactly(Start.UP, Start.UP, Start.UNREACHABLE);
            ReplicaStart r3 = p.replicas().get(2);
            assertThat(r3.replayCursor()).isEqualTo(FLOOR);
            assertThat(r3.expectedUpToCursor()).isEqualTo(5);
            assertThat(r3.reason()).contains("connection refused").contains("5 committed transactions up to barrier " + FLOOR);
            assertThat(p.nextBarrier()).isEqualTo(8);
        }

        @Test
        @DisplayName("an unreachable configured primary: with view changes another serves, without the start is refused")
        void primary() throws Exception {
            List<ReplicaLog> logs = List.of(ReplicaLog.unreachable("r1", true, "connection refused"),
                    replica("r2", 41, 5, 5, 6, 7), replica("r3", 41, 5, 5, 6, 7));
            Plan p = RestartPlan.plan(log(FLOOR, 40, 5, 7), logs, 0, true);
            assertThat(p.primary()).isEqualTo(1);
            assertThat(p.primaryNote()).contains("r1 is not reachable").contains("r2 is the primary");
            assertThatThrownBy(() -> RestartPlan.plan(log(FLOOR, 40, 5, 7), logs, 0, false))
                    .isInstanceOf(NoPrimaryException.class).hasMessageContaining("r1 is not reachable")
                    .hasMessageContaining("start r1");
        }
    }


    @Nested
    @DisplayName("the primary")
    class Primary {

        private final LogState log = log(FLOOR, 40, 5, 7);
        private final ReplicaLog up1 = replica("r1", 41, 5, 5, 7);
        private final ReplicaLog up2 = replica("r2", 41, 5, 5, 7);
        private final ReplicaLog up3 = replica("r3", 41, 5, 5, 7);
        private final ReplicaLog replays1 = replica("r1", 38, 5, 5);
        private final ReplicaLog replays3 = replica("r3", 38, 5, 5);
        private final ReplicaLog lost1 = replica("r1", 38, 3, 5, 7);
        private final ReplicaLog lost2 = replica("r2", 38, 3, 5, 7);
        private final ReplicaLog lost3 = replica("r3", 38, 3, 5, 7);

        @Test
        @DisplayName("the configured primary serves at once: it stays, whichever index it has")
        void configuredUpStays() throws Exception {
            Plan p = RestartPlan.plan(log, List.of(up1, up2, up3), 1, true);
            assertThat(p.primary()).isEqualTo(1);
            assertThat(p.primaryNote()).isEmpty();
        }

        @Test
        @DisplayName("the configured primary must replay first, another serves at once: with view changes that one is the"
                + " primary, and the note says why")
        void configuredReplaysOtherUpWithViewChange() throws Exception {
            Plan p = RestartPlan.plan(log, List.of(replays1, up2, up3), 0, true);
            assertThat(starts(p)).containsExactly(Start.REPLAY, Start.UP, Start.UP);
            assertThat(p.primary()).isEqualTo(1);
            assertThat(p.primaryNote()).contains("the configured primary r1 must replay transactions first")
                    .contains("r2 is the primary (view change at start)");
        }

        @Test
        @DisplayName("the configured primary must replay first: without view changes it stays (it serves once it replayed)")
        void configuredReplaysWithoutViewChange() throws Exception {
            Plan p = RestartPlan.plan(log, List.of(replays1, up2, up3), 0, false);
            assertThat(p.primary()).isZero();
            assertThat(p.primaryNote()).isEmpty();
        }

        @Test
        @DisplayName("every replica must replay: the configured primary stays, even with view changes")
        void allReplayKeepsConfigured() throws Exception {
            Plan p = RestartPlan.plan(log, List.of(replica("r1", 38, 5), replica("r2", 38, 5), replica("r3", 38, 5)), 2, true);
            assertThat(starts(p)).containsExactly(Start.REPLAY, Start.REPLAY, Start.REPLAY);
            assertThat(p.primary()).isEqualTo(2);
        }

        @Test
        @DisplayName("the configured primary is lost: with view changes the first up replica is the primary, the note says"
                + " it is lost")
        void configuredLostOtherUp() throws Exception {
            Plan p = RestartPlan.plan(log, List.of(up1, up2, lost3), 2, true);
            assertThat(p.primary()).isZero();
            assertThat(p.primaryNote()).contains("the configured primary r3 is lost").contains("r1 is the primary");
        }

        @Test
        @DisplayName("the configured primary is lost and only a replica that must replay is left: that one is the primary")
        void configuredLostOtherReplays() throws Exception {
            Plan p = RestartPlan.plan(log, List.of(lost1, lost2, replays3), 0, true);
            assertThat(starts(p)).containsExactly(Start.LOST, Start.LOST, Start.REPLAY);
            assertThat(p.primary()).isEqualTo(2);
            assertThat(p.primaryNote()).contains("r1 is lost").contains("r3 is the primary");
        }

        @Test
        @DisplayName("a replica that may not be primary is never chosen, even when it is the only one up")
        void replicasThatMayNotBePrimaryAreSkipped() throws Exception {
            ReplicaLog pgUp = replica("r2", false, 41, 5, 5, 7);
            Plan p = RestartPlan.plan(log, List.of(lost1, pgUp, replays3), 0, true);
            assertThat(starts(p)).containsExactly(Start.LOST, Start.UP, Start.REPLAY);
            assertThat(p.primary()).as("r2 is up but may not be primary; r3 replays first, then serves").isEqualTo(2);

            ReplicaLog pgReplays = replica("r3", false, 38, 5, 5);
            assertThatThrownBy(() -> RestartPlan.plan(log, List.of(lost1, pgUp, pgReplays), 0, true))
                    .isInstanceOf(NoPrimaryException.class).hasMessageContaining("no other replica that may be primary is usable");
        }

        @Test
        @DisplayName("the configured primary is lost and no other is usable: the shepherd refuses to start and says what to do")
        void noPrimaryWithViewChange() {
            ReplicaLog pgUp = replica("r3", false, 41, 5, 5, 7);
            assertThatThrownBy(() -> RestartPlan.plan(log, List.of(lost1, lost2, pgUp), 0, true))
                    .isInstanceOf(NoPrimaryException.class)
                    .hasMessageContaining("the configured primary r1 is lost and no other replica that may be primary is usable")
                    .hasMessageContaining("r2: lost (its transaction log holds 3 committed transactions up to barrier 4")
                    .hasMessageContaining("r3: up]")
                    .hasMessageContaining("restore r1 from a copy of an up-to-date replica")
                    .hasMessageNotContaining("primary=");
        }

        @Test
        @DisplayName("the configured primary is lost and view changes are off: refused, even though others are up; the message"
                + " says to choose another primary or restore it")
        void noPrimaryWithoutViewChange() {
            assertThatThrownBy(() -> RestartPlan.plan(log, List.of(lost1, up2, up3), 0, false))
                    .isInstanceOf(NoPrimaryException.class)
                    .hasMessageContaining("the configured primary r1 is lost and view.change is false")
                    .hasMessageContaining("r2: up;")
                    .hasMessageContaining("primary=").hasMessageContaining("restore r1 from a copy");
        }
    }

    @Nested
    @DisplayName("ids and barriers go on after the highest known")
    class Continuation {

        @Test
        @DisplayName("the log holds a durable transaction no replica committed: barriers and ids continue after it")
        void logAhead() throws Exception {
            Plan p = RestartPlan.plan(log(FLOOR, 57, 5, 9), List.of(replica("r1", 44, 5, 5), replica("r2", 44, 5, 5),
                    replica("r3", 43, 5, 5)), 0, true);
            assertThat(p.nextBarrier()).isEqualTo(10);
            assertThat(p.lastTxId()).isEqualTo(57);
            assertThat(starts(p)).containsExactly(Start.REPLAY, Start.REPLAY, Start.REPLAY);
        }

        @Test
        @DisplayName("a replica committed a transaction that wrote nothing after the last logged one: they continue after it")
        void replicaAhead() throws Exception {
            Plan p = RestartPlan.plan(log(FLOOR, 40, 5), List.of(replica("r1", 41, 5, 5), replica("r2", 61, 5, 5, 12),
                    replica("r3", 41, 5, 5)), 0, true);
            assertThat(p.nextBarrier()).isEqualTo(13);
            assertThat(p.lastTxId()).isEqualTo(61);
        }

        @Test
        @DisplayName("an empty log after a floor: the next barrier follows the replicas")
        void emptyLogWithFloor() throws Exception {
            Plan p = RestartPlan.plan(log(FLOOR, -1), List.of(replica("r1", 41, 5), replica("r2", 41, 5), replica("r3", 41, 5)),
                    0, true);
            assertThat(starts(p)).containsExactly(Start.UP, Start.UP, Start.UP);
            assertThat(p.nextBarrier()).isEqualTo(FLOOR + 1);
            assertThat(p.lastTxId()).isEqualTo(41);
        }
    }
}
