package org.shepherd.admin;

import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.BufferedCursor;
import org.shepherd.coordinator.MetadataRequest;
import org.shepherd.divergence.Divergence;
import org.shepherd.protocol.ColumnInfo;

/**
 * The reserved {@code Metadata} method names that answer admin queries instead of a {@link java.sql.DatabaseMetaData}
 * call: {@value #VIEW}, {@value #STATUS} and {@value #DIVERGENCES}. Any authenticated user may call them.
 */
public final class AdminQueries {

    public static final String PREFIX = "shepherd.";
    public static final String VIEW = "shepherd.view";
    public static final String STATUS = "shepherd.status";
    public static final String DIVERGENCES = "shepherd.divergences";
    /** One argument, a replica's name: keeps the log for a lost replica's copy (an action, not a query). */
    public static final String RESTORE = "shepherd.restore";
    /** One argument, a secondary's name: take it out of service, then as {@link #RESTORE} (an action). */
    public static final String RESTORE_TAKE_OUT = "shepherd.restore.takeout";
    /** One argument, a replica's name: its copy is installed, probe and catch it up (an action). */
    public static final String RESTORE_COPIED = "shepherd.restore.copied";
    /**
     * No argument (every table) or one, a table's name: compares the replicas' tables through the vote (an action: it
     * runs transactions and may take long).
     */
    public static final String VERIFY = "shepherd.verify";
    /** As {@link #VERIFY}, then the ranges where a secondary differed are repaired there and compared again (an action). */
    public static final String VERIFY_REPAIR = "shepherd.verify.repair";

    private AdminQueries() {
    }

    /** Whether {@code request} is an admin action (it changes what the shepherd does), not a query. */
    public static boolean isAction(MetadataRequest request) {
        return RESTORE.equals(request.method()) || RESTORE_TAKE_OUT.equals(request.method())
                || RESTORE_COPIED.equals(request.method()) || VERIFY.equals(request.method())
                || VERIFY_REPAIR.equals(request.method());
    }

    /** True for every name in the reserved {@code shepherd.} namespace (no JDBC metadata method starts so). */
    public static boolean reserved(MetadataRequest request) {
        return request.method() != null && request.method().startsWith(PREFIX);
    }

    public static Answer answer(AdminView view, MetadataRequest request) throws SQLException {
        if (VERIFY.equals(request.method()) || VERIFY_REPAIR.equals(request.method())) {
            List<Object> args = request.arguments();
            if (args.size() > 1 || (args.size() == 1 && !(args.get(0) instanceof String))) {
                throw new SQLException(request.method() + " takes no argument (every table) or one, a table's name", "42000");
            }
            List<Object[]> rows = new ArrayList<>();
            boolean repair = VERIFY_REPAIR.equals(request.method());
            for (AdminView.VerifyRow r : view.verify(args.isEmpty() ? null : (String) args.get(0), repair)) {
                rows.add(repair ? new Object[] {r.table(), r.rows(), r.chunks(), r.differing(), r.repaired(), r.result()}
                        : new Object[] {r.table(), r.rows(), r.chunks(), r.differing(), r.result()});
            }
            if (repair) {
                return rows(List.of(text("table"), number("rows"), number("chunks"), text("differing"), text("repaired"),
                        text("result")), rows);
            }
            return rows(verifyColumns(), rows);
        }
        if (isAction(request)) {
            if (request.arguments().size() != 1 || !(request.arguments().get(0) instanceof String replica)) {
                throw new SQLException(request.method() + " takes one argument, the name of the replica", "42000");
            }
            AdminView.RestoreStep step = switch (request.method()) {
                case RESTORE_COPIED -> AdminView.RestoreStep.COPIED;
                case RESTORE_TAKE_OUT -> AdminView.RestoreStep.TAKE_OUT;
                default -> AdminView.RestoreStep.BEGIN;
            };
            String state = view.restore(replica, step);
            return rows(List.of(text("replica"), text("state")), List.<Object[]>of(new Object[] {replica, state}));
        }
        if (!request.arguments().isEmpty()) {
            throw new SQLException(request.method() + " takes no arguments", "42000");
        }
        return switch (request.method()) {
            case VIEW -> rows(viewColumns(), List.<Object[]>of(viewRow(view.viewStatus())));
            case STATUS -> rows(statusColumns(), statusRows(view.statusRows()));
            case DIVERGENCES -> rows(divergenceColumns(), divergenceRows(view.divergenceRows()));
            default -> throw new SQLException("unknown admin query " + request.method() + "; known: " + VIEW + ", " + STATUS
                    + ", " + DIVERGENCES + ", " + RESTORE + ", " + RESTORE_TAKE_OUT + ", " + RESTORE_COPIED + ", " + VERIFY
                    + ", " + VERIFY_REPAIR,
                    "42000");
        };
    }

    private static Object[] viewRow(AdminView.ViewStatus v) {
        return new Object[] {v.mode(), (long) v.f(), v.barrier(), v.primary(), (long) v.replicas(), v.commits(), v.aborts(),
            v.voteAborts(), v.divergencesTotal(), v.view(), v.walBytes(), (long) v.walSegments(), v.walFloor(),
            v.commitWaitP50Ms(), v.commitWaitP99Ms(), v.commitP50Ms(), v.commitP99Ms(), v.commitMaxMs(), v.lastViewChange(),
            v.lastComparison()};
    }

    private static List<Object[]> statusRows(List<AdminView.ReplicaRow> replicas) {
        List<Object[]> rows = new ArrayList<>();
        for (AdminView.ReplicaRow r : replicas) {
            rows.add(new Object[] {r.replica(), r.role(), r.state(), r.lastCommittedBarrier(), r.lagBarriers(),
                (long) r.poolSize(), r.reruns(), r.divergences(), r.location()});
        }
        return rows;
    }

    private static List<Object[]> divergenceRows(List<Divergence> divergences) {
        List<Object[]> rows = new ArrayList<>();
        for (Divergence d : divergences) {
            rows.add(new Object[] {Instant.ofEpochMilli(d.atMillis()).toString(), d.txId(), (long) d.statementIndex(),
                d.statement(), d.replica(), d.accepted(), d.actual(), d.masked()});
        }
        return rows;
    }

    static List<ColumnInfo> viewColumns() {
        return List.of(text("mode"), number("f"), number("barrier"), text("primary"), number("replicas"), number("commits"),
                number("aborts"), number("vote_aborts"), number("divergences_total"), number("view"), number("wal_bytes"),
                number("wal_segments"), number("wal_floor"), number("commit_wait_p50_ms"), number("commit_wait_p99_ms"),
                number("commit_p50_ms"), number("commit_p99_ms"), number("commit_max_ms"), text("last_view_change"),
                text("last_comparison"));
    }

    static List<ColumnInfo> statusColumns() {
        return List.of(text("replica"), text("role"), text("state"), number("last_committed_barrier"),
                number("lag_barriers"), number("pool_size"), number("reruns"), number("divergences"), text("location"));
    }

    static List<ColumnInfo> divergenceColumns() {
        return List.of(text("time"), number("txid"), number("statement_index"), text("statement"), text("replica"),
                text("expected"), text("got"), flag("masked"));
    }

    static List<ColumnInfo> verifyColumns() {
        return List.of(text("table"), number("rows"), number("chunks"), text("differing"), text("result"));
    }

    private static ColumnInfo text(String name) {
        return new ColumnInfo(name, name, Types.VARCHAR, "VARCHAR", 0, 0, 1, "", false);
    }

    private static ColumnInfo number(String name) {
        return new ColumnInfo(name, name, Types.BIGINT, "BIGINT", 19, 0, 0, "", false);
    }

    private static ColumnInfo flag(String name) {
        return new ColumnInfo(name, name, Types.BOOLEAN, "BOOLEAN", 1, 0, 0, "", false);
    }

    private static Answer rows(List<ColumnInfo> columns, List<Object[]> rows) {
        return new Answer.Rows(new BufferedCursor(columns, rows), List.of());
    }
}
