package org.shepherd.coordinator.cbs;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.shepherd.admin.AdminView;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.ResultCursor;
import org.shepherd.divergence.Divergence;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;

/**
 * The compare step of compare-and-repair: reads every table (or one) through the shepherd, in transactions of at most
 * {@link #CHUNK_ROWS} rows in primary-key order, so that every replica runs the same reads at the same point of the
 * serial order and the vote compares their answers. A replica whose rows differ is reported as for any other answer
 * (the divergence log, {@code shepherd divergences}); this says which tables and replicas. Repair is a restore from a
 * copy of a replica that agrees ({@code shepherd restore}).
 *
 * <p>Each chunk is a short serializable transaction: writers wait for the rows it reads, for that long only. A table
 * without a primary key is read in one transaction, its rows compared as a multiset.
 */
final class TableVerifier {

    /** Rows per transaction. */
    static final int CHUNK_ROWS = 1000;
    /** Attempts of one chunk aborted for a retryable reason (a view change, a busy replica) before the table fails. */
    private static final int ATTEMPTS_MAX = 5;
    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final CbsCoordinator coordinator;
    private final long waitMs;
    private final long chunkPauseMs;

    /**
     * @param waitMs how long to wait, after the last read, for every replica that is up to have answered
     * @param chunkPauseMs pause between two chunks (a background pass takes a bounded share of the replicas); 0: none
     */
    TableVerifier(CbsCoordinator coordinator, long waitMs, long chunkPauseMs) {
        this.coordinator = coordinator;
        this.waitMs = waitMs;
        this.chunkPauseMs = chunkPauseMs;
    }

    /**
     * One table of the primary's default schema: its name as stored and as SQL, and its primary key's columns in key
     * order, as SQL and as stored (the result's labels).
     */
    record Table(String name, String sqlName, List<String> keyColumns, List<String> keyLabels) {
    }

    /** Compares {@code only} (a table name as stored, case-insensitive), or every table when it is null or empty. */
    List<AdminView.VerifyRow> verify(String only) throws SQLException {
        boolean one = only != null && !only.isEmpty();
        List<Table> tables = tables(only);
        if (tables.isEmpty()) {
            if (!one) return List.of(); // nothing to compare is not a difference
            throw new SQLException("no table " + only + " in the primary's schema", "42P01");
        }
        List<Scan> scans = new ArrayList<>();
        try (CbsSession session = (CbsSession) coordinator.openSession("shepherd-verify", "")) {
            session.setAutoCommit(false);
            for (Table t : tables) {
                if (!scans.isEmpty()) pause();
                scans.add(scan(session, t));
            }
        }
        List<String> notCompared = awaitSecondaries(coordinator.currentBarrier() - 1);
        List<Divergence> divergences = coordinator.divergences().snapshot();
        List<AdminView.VerifyRow> out = new ArrayList<>();
        for (Scan s : scans) {
            Set<String> differing = new TreeSet<>();
            for (Divergence d : divergences) {
                if (s.txIds.contains(d.txId())) differing.add(d.replica());
            }
            out.add(s.row(differing, notCompared));
        }
        return out;
    }

    private static final class Scan {
        final Table table;
        final Set<Long> txIds = new HashSet<>();
        long rows;
        long chunks;
        String failure;

        Scan(Table table) {
            this.table = table;
        }

        AdminView.VerifyRow row(Set<String> differing, List<String> notCompared) {
            String result;
            if (failure != null) {
                result = "not compared: " + failure;
            } else if (!differing.isEmpty()) {
                result = "DIFFERS on " + String.join(", ", differing) + ": see `shepherd divergences`, then restore "
                        + (differing.size() == 1 ? "it" : "them") + " from a copy of a replica that agrees";
            } else {
                result = "equal";
            }
            if (failure == null && !notCompared.isEmpty()) result += "; not compared on " + String.join(", ", notCompared);
            return new AdminView.VerifyRow(table.name, rows, chunks, String.join(",", differing), result);
        }
    }

    private Scan scan(CbsSession session, Table t) {
        Scan scan = new Scan(t);
        List<Object> after = null;
        List<Integer> keyTypes = null;
        try {
            while (true) {
                if (scan.chunks > 0) pause();
                Chunk chunk = chunk(session, scan, t, after, keyTypes);
                scan.chunks++;
                scan.rows += chunk.rows;
                if (t.keyColumns.isEmpty() || chunk.rows < CHUNK_ROWS) return scan;
                after = chunk.lastKey;
                keyTypes = chunk.keyTypes;
            }
        } catch (SQLException e) {
            scan.failure = e.getMessage() + " (SQLState " + e.getSQLState() + ")"; // its chunk was rolled back
            return scan;
        }
    }

    private record Chunk(long rows, List<Object> lastKey, List<Integer> keyTypes) {
    }

    private void pause() throws SQLException {
        if (chunkPauseMs <= 0) return;
        try {
            Thread.sleep(chunkPauseMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("the comparison was stopped", "57014", e);
        }
    }

    /** One transaction: the rows after {@code after} (null: from the first), read to the end, then committed. */
    private Chunk chunk(CbsSession session, Scan scan, Table t, List<Object> after, List<Integer> keyTypes)
            throws SQLException {
        String sql = chunkSql(t, after != null);
        List<Param> params = new ArrayList<>();
        if (after != null) {
            // (k1 > ?) OR (k1 = ? AND k2 > ?) OR ...: each disjunct binds the key's first i+1 values
            for (int i = 0; i < after.size(); i++) {
                for (int j = 0; j <= i; j++) params.add(new Param(keyTypes.get(j), after.get(j)));
            }
        }
        for (int attempt = 1; ; attempt++) {
            try {
                return readChunk(session, scan, t, sql, params);
            } catch (SQLException e) {
                try {
                    session.rollback();
                } catch (SQLException ignored) {
                    // the attempt is over either way
                }
                if (!"40001".equals(e.getSQLState()) || attempt == ATTEMPTS_MAX) throw e;
            }
        }
    }

    private Chunk readChunk(CbsSession session, Scan scan, Table t, String sql, List<Param> params) throws SQLException {
        Answer.Rows answer = (Answer.Rows) session.execute(sql, params, new ExecOptions(0, CHUNK_ROWS, 0, false));
        scan.txIds.add(session.transactionId());
        long rows = 0;
        Object[] last = null;
        List<ColumnInfo> columns;
        try (ResultCursor cursor = answer.cursor()) {
            columns = cursor.columns();
            while (!cursor.exhausted()) {
                for (Object[] row : cursor.fetch(CHUNK_ROWS)) {
                    rows++;
                    last = row;
                }
            }
        }
        session.commit();
        if (last == null || t.keyColumns.isEmpty()) return new Chunk(rows, null, null);
        List<Object> key = new ArrayList<>();
        List<Integer> types = new ArrayList<>();
        for (String k : t.keyLabels) {
            int at = columnIndex(columns, k);
            key.add(last[at]);
            types.add(columns.get(at).jdbcType());
        }
        return new Chunk(rows, key, types);
    }

    private static int columnIndex(List<ColumnInfo> columns, String name) throws SQLException {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).label().equalsIgnoreCase(name)) return i;
        }
        throw new SQLException("the primary key column " + name + " is not in the result", "XX000");
    }

    static String chunkSql(Table t, boolean after) {
        StringBuilder sql = new StringBuilder("SELECT * FROM ").append(t.sqlName);
        if (t.keyColumns.isEmpty()) return sql.toString();
        if (after) {
            sql.append(" WHERE ");
            for (int i = 0; i < t.keyColumns.size(); i++) {
                sql.append(i == 0 ? "(" : " OR (");
                for (int j = 0; j < i; j++) sql.append(t.keyColumns.get(j)).append(" = ? AND ");
                sql.append(t.keyColumns.get(i)).append(" > ?)");
            }
        }
        sql.append(" ORDER BY ").append(String.join(", ", t.keyColumns));
        return sql.append(" FETCH FIRST ").append(CHUNK_ROWS).append(" ROWS ONLY").toString();
    }

    /** The tables of the primary's current schema, without the shepherd's own; each with its primary key. */
    private List<Table> tables(String only) throws SQLException {
        TreeMap<String, Table> out = new TreeMap<>();
        String quote = coordinator.primary().pool().databaseInfo().identifierQuote();
        try (Connection c = coordinator.primary().pool().acquireForMetadata()) {
            DatabaseMetaData md = c.getMetaData();
            String catalog = c.getCatalog();
            String schema = c.getSchema();
            List<String> names = new ArrayList<>();
            try (ResultSet rs = md.getTables(catalog, schema, "%", new String[] {"TABLE"})) {
                while (rs.next()) names.add(rs.getString("TABLE_NAME"));
            }
            for (String name : names) {
                if (ReservedTables.isReserved(name)) continue;
                if (only != null && !only.isEmpty() && !name.equalsIgnoreCase(only)) continue;
                TreeMap<Short, String> key = new TreeMap<>();
                try (ResultSet rs = md.getPrimaryKeys(catalog, schema, name)) {
                    while (rs.next()) key.put(rs.getShort("KEY_SEQ"), rs.getString("COLUMN_NAME"));
                }
                List<String> keySql = new ArrayList<>();
                for (String k : key.values()) keySql.add(sqlName(md, quote, k));
                out.put(name, new Table(name, sqlName(md, quote, name), keySql, List.copyOf(key.values())));
            }
            if (!c.getAutoCommit()) c.rollback();
        }
        return List.copyOf(out.values());
    }

    /**
     * The identifier as the primary's SQL writes it: plain where its case folding gives it back (so that every replica
     * folds it its own way, as when the table was created), else quoted.
     */
    private static String sqlName(DatabaseMetaData md, String quote, String stored) throws SQLException {
        boolean plain = PLAIN_IDENTIFIER.matcher(stored).matches()
                && (md.storesUpperCaseIdentifiers() ? stored.equals(stored.toUpperCase(Locale.ROOT))
                        : !md.storesLowerCaseIdentifiers() || stored.equals(stored.toLowerCase(Locale.ROOT)));
        return plain ? stored : JdbcReplicaEndpoint.quoted(quote, stored);
    }

    /**
     * Waits (at most {@link #waitMs}) until every replica that is up committed every transaction up to {@code barrier},
     * so that each one's answers were compared; returns the replicas not compared, with why.
     */
    private List<String> awaitSecondaries(long barrier) throws SQLException {
        long deadline = coordinator.clock().nowMillis() + waitMs;
        while (true) {
            List<String> behind = new ArrayList<>();
            List<String> down = new ArrayList<>();
            for (CbsCore.ReplicaStatus r : coordinator.replicaStatus()) {
                if (r.down()) {
                    down.add(r.name() + " (" + r.state() + ")");
                } else if (r.lastCommittedBarrier() < barrier) {
                    behind.add(r.name() + " (still behind after " + waitMs + " ms)");
                }
            }
            if (behind.isEmpty() || coordinator.clock().nowMillis() > deadline) {
                down.addAll(behind);
                return down;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while waiting for the secondaries", "57014", e);
            }
        }
    }
}
