package org.shepherd.admin;

import java.sql.SQLException;
import java.util.List;
import java.util.function.IntSupplier;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * The shepherd's state as Prometheus metrics, read from the same {@link AdminView} as {@code shepherd status} once per
 * scrape (so that one scrape's figures belong together). Counters count since the shepherd started; names begin with
 * {@code shepherd_}, and every per-replica series has a {@code replica} label.
 */
public final class ShepherdMetrics implements MultiCollector {

    private final AdminView view;
    private final IntSupplier sessions;
    private final IntSupplier connections;
    private final String version;

    /**
     * @param sessions authenticated client sessions open now
     * @param connections client connections open now
     */
    public ShepherdMetrics(AdminView view, IntSupplier sessions, IntSupplier connections, String version) {
        this.view = view;
        this.sessions = sessions;
        this.connections = connections;
        this.version = version;
    }

    @Override
    public MetricSnapshots collect() {
        MetricSnapshots.Builder out = MetricSnapshots.builder();
        out.metricSnapshot(gauge("shepherd_sessions", "Authenticated client sessions open", sessions.getAsInt()));
        out.metricSnapshot(gauge("shepherd_connections", "Client connections open (authenticated or not)",
                connections.getAsInt()));
        AdminView.ViewStatus status;
        List<AdminView.ReplicaRow> replicas;
        try {
            status = view.viewStatus();
            replicas = view.statusRows();
        } catch (SQLException | RuntimeException e) {
            // the state could not be read (the coordinator is closing): say so, and keep the endpoint answering
            out.metricSnapshot(gauge("shepherd_status_readable", "1 when the shepherd's state could be read", 0));
            return out.build();
        }
        out.metricSnapshot(gauge("shepherd_status_readable", "1 when the shepherd's state could be read", 1));
        out.metricSnapshot(InfoSnapshot.builder().name("shepherd").help("The shepherd's version, mode and f")
                .dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder().labels(Labels.of("version", version, "mode",
                        status.mode(), "f", Integer.toString(status.f()), "primary", status.primary())).build()).build());
        out.metricSnapshot(gauge("shepherd_barrier", "The next commit barrier", status.barrier()));
        out.metricSnapshot(counter("shepherd_commits", "Transactions committed", status.commits()));
        out.metricSnapshot(counter("shepherd_aborts", "Transactions aborted or rolled back", status.aborts()));
        out.metricSnapshot(counter("shepherd_vote_aborts", "Transactions aborted because the replicas' answers did not agree"
                + " (the client got 40001)", status.voteAborts()));
        out.metricSnapshot(counter("shepherd_divergences", "Divergence reports: a replica answered differently from the"
                + " accepted answer (those on record at start included)", status.divergencesTotal()));
        out.metricSnapshot(counter("shepherd_view_changes", "View changes: a new primary took over", status.view()));
        if (status.walBytes() >= 0) {
            out.metricSnapshot(gauge("shepherd_wal_bytes", "Bytes of the write-ahead log on disk", status.walBytes()));
            out.metricSnapshot(gauge("shepherd_wal_segments", "Segment files of the write-ahead log", status.walSegments()));
        }
        latency(out, "shepherd_commit_seconds", "From a client's COMMIT to its answer, since start", status.commitP50Ms(),
                status.commitP99Ms(), status.commitMaxMs());
        latency(out, "shepherd_commit_vote_wait_seconds", "From a client's COMMIT to the decision (f+1 replicas ready and"
                + " agreeing), since start", status.commitWaitP50Ms(), status.commitWaitP99Ms(), -1);
        replicaMetrics(out, replicas);
        return out.build();
    }

    private static void replicaMetrics(MetricSnapshots.Builder out, List<AdminView.ReplicaRow> replicas) {
        GaugeSnapshot.Builder up = GaugeSnapshot.builder().name("shepherd_replica_up")
                .help("1 when the replica serves, 0 when it is down (recovering, lost, restoring, outvoted...)");
        GaugeSnapshot.Builder primary = GaugeSnapshot.builder().name("shepherd_replica_primary")
                .help("1 for the primary, 0 for a secondary");
        GaugeSnapshot.Builder lag = GaugeSnapshot.builder().name("shepherd_replica_lag_transactions")
                .help("Committed transactions the replica has not committed yet");
        GaugeSnapshot.Builder last = GaugeSnapshot.builder().name("shepherd_replica_committed_barrier")
                .help("The highest commit barrier the replica committed (-1: none)");
        GaugeSnapshot.Builder pool = GaugeSnapshot.builder().name("shepherd_replica_open_transactions")
                .help("Transactions in the replica's pool now");
        CounterSnapshot.Builder reruns = CounterSnapshot.builder().name("shepherd_replica_reruns")
                .help("Transactions the replica rolled back and ran again");
        GaugeSnapshot.Builder divergences = GaugeSnapshot.builder().name("shepherd_replica_divergence_reports")
                .help("Retained divergence reports naming the replica");
        for (AdminView.ReplicaRow r : replicas) {
            Labels replica = Labels.of("replica", r.replica());
            up.dataPoint(point(replica, "up".equals(r.state()) ? 1 : 0));
            primary.dataPoint(point(replica, "primary".equals(r.role()) ? 1 : 0));
            lag.dataPoint(point(replica, r.lagBarriers()));
            last.dataPoint(point(replica, r.lastCommittedBarrier()));
            pool.dataPoint(point(replica, r.poolSize()));
            reruns.dataPoint(CounterDataPointSnapshot.builder().labels(replica).value(r.reruns()).build());
            divergences.dataPoint(point(replica, r.divergences()));
        }
        out.metricSnapshot(up.build()).metricSnapshot(primary.build()).metricSnapshot(lag.build())
                .metricSnapshot(last.build()).metricSnapshot(pool.build()).metricSnapshot(reruns.build())
                .metricSnapshot(divergences.build());
    }

    /** Quantiles measured by the coordinator (milliseconds, -1 when nothing was measured) as a gauge in seconds. */
    private static void latency(MetricSnapshots.Builder out, String name, String help, long p50Ms, long p99Ms, long maxMs) {
        GaugeSnapshot.Builder g = GaugeSnapshot.builder().name(name).help(help + ", by quantile").unit(Unit.SECONDS);
        boolean any = false;
        String[] quantiles = {"0.5", "0.99", "1"};
        long[] values = {p50Ms, p99Ms, maxMs};
        for (int i = 0; i < quantiles.length; i++) {
            if (values[i] < 0) continue;
            g.dataPoint(point(Labels.of("quantile", quantiles[i]), values[i] / 1000.0));
            any = true;
        }
        if (any) out.metricSnapshot(g.build());
    }

    private static GaugeSnapshot gauge(String name, String help, double value) {
        return GaugeSnapshot.builder().name(name).help(help).dataPoint(point(Labels.EMPTY, value)).build();
    }

    private static CounterSnapshot counter(String name, String help, double value) {
        return CounterSnapshot.builder().name(name).help(help)
                .dataPoint(CounterDataPointSnapshot.builder().value(value).build()).build();
    }

    private static GaugeDataPointSnapshot point(Labels labels, double value) {
        return GaugeDataPointSnapshot.builder().labels(labels).value(value).build();
    }
}
