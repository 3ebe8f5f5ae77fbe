package org.shepherd.tpcc.bench;

import java.util.List;
import org.shepherd.tpcc.Jdbc;
import org.shepherd.tpcc.Runner;

/**
 * What a scenario adds to one run of {@link Bench}: faults during the measured window, checks once the clients stopped.
 * Every method does nothing by default.
 */
interface RunHooks {

    /** A throughput run: nothing added. */
    RunHooks NONE = new RunHooks() {
    };

    /** Seconds between the clients' progress lines in a run of {@code durationS} measured seconds. */
    default double progressIntervalS(double durationS) {
        return Math.max(5, durationS / 6);
    }

    /** Seconds a client tries to reconnect after its connection broke; 0: it does not (the transaction is an error). */
    default double reconnectS() {
        return 0;
    }

    /** Told what became of every transaction. */
    default Runner.Recorder recorder() {
        return Runner.Recorder.NONE;
    }

    /** The measured window starts; {@code shepherd} is null for {@code direct}. */
    default void measureStarted(List<BenchDatabase> servers, ShepherdProcess shepherd, Jdbc target) {
    }

    /** The last client has stopped. */
    default void measureEnded() {
    }

    /** After {@link #measureEnded()}, while the shepherd and the database servers still run. */
    default void afterRun(List<BenchDatabase> servers, ShepherdProcess shepherd, Jdbc target) throws Exception {
    }
}
