package org.shepherd.coordinator.cbs;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.shepherd.admin.AdminView;
import org.shepherd.coordinator.Answer;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.coordinator.ResultCursor;
import org.shepherd.divergence.DivergenceLog;
import org.shepherd.protocol.ColumnInfo;
import org.shepherd.protocol.Param;
import org.shepherd.translator.Translation;
import org.shepherd.translator.dialect.Dialect;

/**
 * Compare-and-repair. The compare step reads every table (or one) through the shepherd, in transactions of at most
 * {@link #CHUNK_ROWS} rows in primary-key order, so that every replica runs the same reads at the same point of the
 * serial order and the vote compares their answers. A replica whose rows differ is reported as for any other answer
 * (the divergence log, {@code shepherd divergences}); this says which tables and replicas.
 *
 * <p>The repair step (when asked) goes back to each key range where some replica differed: one transaction reads the
 * range again through the vote and, in the same transaction, has the replicas that differed rewrite their rows of the
 * range to the agreed ones ({@link RangeRepair}); then the repaired tables are compared again. A table still differing
 * (a row whose foreign key needs a row another table's repair had yet to insert) is repaired again while the last
 * round changed rows, at most {@link #REPAIR_ROUNDS} rounds.
 *
 * <p>Each chunk is a short serializable transaction: writers wait for the rows it reads, for that long only. A table
 * without a primary key is read in one transaction, its rows compared as a multiset.
 */
final class TableVerifier {

    /** Rows per transaction. */
    static final int CHUNK_ROWS = 1000;
    /**
     * Attempts of one chunk aborted for a retryable reason (a deadlock with writers of a hot table, a view change, a busy
     * replica) before the table fails; each waits twice as long as the one before, from 20 ms up to a second.
     */
    private static final int ATTEMPTS_MAX = 8;
    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** Compare-repair rounds at most: a repair is compared again, and repaired again while it still changes rows. */
    static final int REPAIR_ROUNDS = 3;
    /** Rows one repaired range may hold (a range grows between its comparison and its repair when rows are inserted). */
    static final int REPAIR_ROWS_MAX = 100 * CHUNK_ROWS;

    private final CbsCoordinator coordinator;
    private final long waitMs;
    private final long chunkPauseMs;
    /** During {@link #verify}: the transactions it ran, and the replicas that answered each differently. */
    private final Set<Long> ours = ConcurrentHashMap.newKeySet();
    private final Map<Long, Set<String>> differed = new ConcurrentHashMap<>();

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
     * One table of the primary's default schema: its name as stored and as SQL, its primary key's columns in key
     * order, as SQL and as stored (the result's labels), and all its columns in their order, as SQL.
     */
    record Table(String name, String sqlName, List<String> keyColumns, List<String> keyLabels, List<String> columns) {
    }

    /**
     * What to compare: {@code schema} null for the primary's default schema (else as written, case-insensitive),
     * {@code table} null for every table of it.
     */
    record Selection(String schema, String table) {
        static Selection parse(String only) throws SQLException {
            if (only == null || only.isBlank()) return new Selection(null, null);
            String text = only.trim();
            int dot = text.indexOf('.');
            if (dot < 0) return new Selection(null, text);
            String schema = text.substring(0, dot).trim();
            String table = text.substring(dot + 1).trim();
            if (schema.isEmpty() || table.isEmpty()) {
                throw new SQLException("name a table as TABLE, SCHEMA.TABLE or SCHEMA.*, not '" + only + "'", "42601");
            }
            return new Selection(schema, "*".equals(table) ? null : table);
        }
    }

    /**
     * Where the tables of a selection are in the primary's metadata: its catalog and schema arguments, and the schema's
     * name as stored (null for the default schema), which prefixes the tables' names and SQL.
     */
    record Place(String catalog, String schema, String storedSchema) {
    }

    /**
     * Compares {@code only}, or every table of the primary's default schema when it is null or empty: a table name
     * (case-insensitive) of that schema, {@code SCHEMA.TABLE}, or {@code SCHEMA.*} for every table of another schema (a
     * MySQL-family database); with {@code repair}, rewrites the key ranges where a replica differed on that replica, then
     * compares again.
     */
    List<AdminView.VerifyRow> verify(String only, boolean repair) throws SQLException {
        Selection selection = Selection.parse(only);
        List<Table> tables = tables(selection); // fails when the one table asked for is not there
        if (tables.isEmpty()) return List.of(); // nothing to compare is not a difference
        ours.clear();
        differed.clear();
        // a transaction's differences are reported once it is decided, after it was added to ours
        try (DivergenceLog.Watch watch = coordinator.divergences().watch(d -> {
            if (ours.contains(d.txId())) differed.computeIfAbsent(d.txId(), k -> ConcurrentHashMap.newKeySet()).add(d.replica());
        }); CbsSession session = (CbsSession) coordinator.openSession("shepherd-verify", "")) {
            session.setAutoCommit(false);
            List<Scan> scans = compare(session, tables);
            if (!repair) return rows(scans);
            for (Scan s : scans) s.foundDiffering.addAll(s.differing);
            for (int round = 1; round <= REPAIR_ROUNDS; round++) {
                List<Scan> differing = new ArrayList<>();
                for (Scan s : scans) {
                    if (s.failure == null && !s.differing.isEmpty()) differing.add(s);
                }
                if (differing.isEmpty()) break;
                boolean changed = false;
                List<Table> again = new ArrayList<>();
                for (Scan s : differing) {
                    if (!again.isEmpty()) pause();
                    changed |= repair(session, s);
                    again.add(s.table);
                }
                List<Scan> compared = compare(session, again);
                for (int i = 0; i < differing.size(); i++) {
                    Scan before = differing.get(i);
                    Scan after = compared.get(i);
                    after.inheritRepairs(before);
                    scans.set(scans.indexOf(before), after);
                }
                if (!changed) break;
            }
            return rows(scans);
        }
    }

    /** Reads {@code tables}; then, once the replicas that are up have answered, names those whose answers differed. */
    private List<Scan> compare(CbsSession session, List<Table> tables) throws SQLException {
        List<Scan> scans = new ArrayList<>();
        for (Table t : tables) {
            if (!scans.isEmpty()) pause();
            scans.add(scan(session, t));
        }
        List<Long> read = new ArrayList<>();
        for (Scan s : scans) {
            read.addAll(s.txIds);
            for (ChunkRange c : s.ranges) read.addAll(c.txIds);
        }
        List<String> notCompared = awaitSecondaries(read);
        for (Scan s : scans) {
            s.notCompared = notCompared;
            for (long tx : s.txIds) s.differing.addAll(differed.getOrDefault(tx, Set.of()));
            for (ChunkRange c : s.ranges) {
                for (long tx : c.txIds) c.differing.addAll(differed.getOrDefault(tx, Set.of()));
                s.differing.addAll(c.differing);
            }
        }
        return scans;
    }

    private static List<AdminView.VerifyRow> rows(List<Scan> scans) {
        List<AdminView.VerifyRow> out = new ArrayList<>();
        for (Scan s : scans) out.add(s.row());
        return out;
    }

    /** One chunk as compared: its transactions, its key range (bounds null: open), the replicas whose answer differed. */
    private static final class ChunkRange {
        final Set<Long> txIds;
        final List<Object> after;
        final List<Object> last;
        final List<Integer> keyTypes;
        final Set<String> differing = new TreeSet<>();

        ChunkRange(Set<Long> txIds, List<Object> after, List<Object> last, List<Integer> keyTypes) {
            this.txIds = Set.copyOf(txIds);
            this.after = after;
            this.last = last;
            this.keyTypes = keyTypes;
        }
    }

    private static final class Scan {
        final Table table;
        final List<ChunkRange> ranges = new ArrayList<>();
        /** The transactions of a chunk that failed (its retries): their divergences count, though not compared to the end. */
        final Set<Long> txIds = new HashSet<>();
        final Set<String> differing = new TreeSet<>();
        List<String> notCompared = List.of();
        long rows;
        long chunks;
        String failure;
        /** With repair: the replicas the first comparison found differing, rows each repair changed, failures. */
        final Set<String> foundDiffering = new TreeSet<>();
        final Map<String, RangeRepair.Done> changedRows = new TreeMap<>();
        final Map<String, String> repairFailures = new TreeMap<>();

        Scan(Table table) {
            this.table = table;
        }

        /** Takes over what the repairs before this comparison did; their failures only while it still differs. */
        void inheritRepairs(Scan before) {
            foundDiffering.addAll(before.foundDiffering);
            before.changedRows.forEach((r, d) -> changedRows.merge(r, d, RangeRepair.Done::plus));
            if (!differing.isEmpty()) repairFailures.putAll(before.repairFailures);
        }

        AdminView.VerifyRow row() {
            String result;
            if (failure != null) {
                result = "not compared: " + failure;
            } else if (!differing.isEmpty()) {
                result = "DIFFERS on " + String.join(", ", differing) + ": see `shepherd divergences`";
                if (!repairFailures.isEmpty()) {
                    List<String> why = new ArrayList<>();
                    repairFailures.forEach((r, e) -> why.add(r + ": " + e));
                    result += "; the repair failed on " + String.join("; ", why);
                } else {
                    result += ", then repair " + (differing.size() == 1 ? "it" : "them") + " (`shepherd verify --repair`)"
                            + " or restore " + (differing.size() == 1 ? "it" : "them") + " from a copy of a replica that agrees";
                }
            } else {
                result = "equal";
            }
            if (failure == null && !notCompared.isEmpty()) result += "; not compared on " + String.join(", ", notCompared);
            Set<String> named = foundDiffering.isEmpty() ? differing : foundDiffering;
            List<String> repaired = new ArrayList<>();
            changedRows.forEach((r, d) -> repaired.add(r + ": " + d));
            return new AdminView.VerifyRow(table.name, rows, chunks, String.join(",", named), result, String.join("; ", repaired));
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
                boolean end = t.keyColumns.isEmpty() || chunk.rows < CHUNK_ROWS;
                scan.ranges.add(new ChunkRange(chunk.txIds, after, end ? null : chunk.lastKey, end ? keyTypes : chunk.keyTypes));
                if (end) return scan;
                after = chunk.lastKey;
                keyTypes = chunk.keyTypes;
            }
        } catch (SQLException e) {
            scan.failure = e.getMessage() + " (SQLState " + e.getSQLState() + ")"; // its chunk was rolled back
            return scan;
        }
    }

    /** A chunk read: the transactions it took (retries included), its rows, the last row's key and its types. */
    private record Chunk(Set<Long> txIds, long rows, List<Object> lastKey, List<Integer> keyTypes) {
    }

    /** Before attempt {@code attempt + 1} of a transaction aborted for a retryable reason. */
    private static void backOff(int attempt) throws SQLException {
        try {
            Thread.sleep(Math.min(1_000L, 20L << (attempt - 1)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("the comparison was stopped", "57014", e);
        }
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
        List<Param> params = after == null ? List.of() : boundParams(after, keyTypes);
        Set<Long> txIds = new HashSet<>();
        for (int attempt = 1; ; attempt++) {
            try {
                return readChunk(session, txIds, t, sql, params);
            } catch (SQLException e) {
                try {
                    session.rollback();
                } catch (SQLException ignored) {
                    // the attempt is over either way
                }
                if (!"40001".equals(e.getSQLState()) || attempt == ATTEMPTS_MAX) {
                    scan.txIds.addAll(txIds);
                    throw e;
                }
                backOff(attempt);
            }
        }
    }

    private Chunk readChunk(CbsSession session, Set<Long> txIds, Table t, String sql, List<Param> params) throws SQLException {
        Answer.Rows answer = (Answer.Rows) session.execute(sql, params, new ExecOptions(0, CHUNK_ROWS, 0, false));
        txIds.add(session.transactionId());
        ours.add(session.transactionId());
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
        if (last == null || t.keyColumns.isEmpty()) return new Chunk(txIds, rows, null, null);
        List<Object> key = new ArrayList<>();
        List<Integer> types = new ArrayList<>();
        for (String k : t.keyLabels) {
            int at = columnIndex(columns, k);
            key.add(last[at]);
            types.add(columns.get(at).jdbcType());
        }
        return new Chunk(txIds, rows, key, types);
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
        if (after) sql.append(" WHERE ").append(keyBound(t.keyColumns, " >", " >"));
        sql.append(" ORDER BY ").append(String.join(", ", t.keyColumns));
        return sql.append(" FETCH FIRST ").append(CHUNK_ROWS).append(" ROWS ONLY").toString();
    }

    /**
     * The repairs of one table's differing ranges, until their targets say what they did. The agreed rows they carry
     * are let go in batches ({@link #settle}), so that repairing a table a replica lost whole holds at most about
     * {@link #REPAIR_ROWS_MAX} rows at a time.
     */
    private final class Repairs {
        final Scan scan;
        final List<Ran> ranges = new ArrayList<>();
        long rows;
        boolean changed;

        Repairs(Scan scan) {
            this.scan = scan;
        }

        void add(Ran r) throws SQLException {
            ranges.add(r);
            rows += r.repair().rows();
            if (rows >= REPAIR_ROWS_MAX) settle();
        }

        /**
         * Waits for the targets to commit the repairs so far, adds what each did to the scan, and lets go of their rows:
         * a target that runs one of them only now refuses it (compared again, it still differs).
         */
        void settle() throws SQLException {
            if (ranges.isEmpty()) return;
            awaitSecondaries(ranges.stream().map(Ran::txId).toList());
            for (Ran ran : ranges) {
                RangeRepair r = ran.repair();
                Map<String, RangeRepair.Done> done = r.release();
                for (String target : r.targetNames()) {
                    RangeRepair.Done d = done.get(target);
                    if (d == null) {
                        scan.repairFailures.putIfAbsent(target, "it did not run " + r.description() + " within " + waitMs
                                + " ms (down, or behind)");
                    } else if (d.error() != null) {
                        scan.repairFailures.putIfAbsent(target, d.error());
                    } else {
                        scan.changedRows.merge(target, d, RangeRepair.Done::plus);
                        changed |= d.changed() > 0;
                    }
                }
            }
            ranges.clear();
            rows = 0;
        }
    }

    /**
     * Repairs each key range of {@code scan} where some secondary differed: a transaction each, which reads the range
     * through the vote and has the replicas that differed rewrite it ({@link RangeRepair}). Returns whether some target
     * changed a row.
     */
    private boolean repair(CbsSession session, Scan scan) throws SQLException {
        Repairs out = new Repairs(scan);
        scan.repairFailures.clear(); // a round's failures are those of its own repairs
        Table t = scan.table;
        RangeRepair.Template delete = template(deleteSql(t));
        RangeRepair.Template update = t.columns.size() > t.keyColumns.size() ? template(updateSql(t)) : null;
        RangeRepair.Template insert = template(insertSql(t));
        boolean first = true;
        for (ChunkRange c : scan.ranges) {
            Set<String> targets = new TreeSet<>(c.differing);
            targets.remove(coordinator.primary().name()); // its answer was the agreed one, or the view changed
            if (targets.isEmpty()) continue;
            if (!first) pause();
            first = false;
            try {
                out.add(repairRange(session, t, c, targets, delete, update, insert));
            } catch (SQLException e) {
                for (String r : targets) {
                    scan.repairFailures.putIfAbsent(r, "the repair's transaction failed: " + e.getMessage() + " (SQLState "
                            + e.getSQLState() + ")");
                }
            }
        }
        out.settle();
        return out.changed;
    }

    /** A repair committed at the primary, and its transaction. */
    private record Ran(RangeRepair repair, long txId) {
    }

    private Ran repairRange(CbsSession session, Table t, ChunkRange c, Set<String> targets, RangeRepair.Template delete,
            RangeRepair.Template update, RangeRepair.Template insert) throws SQLException {
        String sql = rangeSql(t, c.after != null, c.last != null);
        List<Param> params = new ArrayList<>();
        if (c.after != null) params.addAll(boundParams(c.after, c.keyTypes));
        if (c.last != null) params.addAll(boundParams(c.last, c.keyTypes));
        RangeRepair.Template read = template(sql);
        String what = "repair of " + t.name + (c.after == null ? "" : " after key " + c.after)
                + (c.last == null ? "" : " through key " + c.last) + " on " + String.join(", ", targets);
        for (int attempt = 1; ; attempt++) {
            try {
                Answer.Rows answer = (Answer.Rows) session.execute(sql, params, new ExecOptions(0, CHUNK_ROWS, 0, false));
                List<Object[]> rows = new ArrayList<>();
                List<ColumnInfo> columns;
                try (ResultCursor cursor = answer.cursor()) {
                    columns = cursor.columns();
                    while (!cursor.exhausted()) {
                        rows.addAll(cursor.fetch(CHUNK_ROWS));
                        if (rows.size() > REPAIR_ROWS_MAX) {
                            throw new SQLException(t.keyColumns.isEmpty()
                                    ? "a table without a primary key is repaired whole, and this one holds more than "
                                            + REPAIR_ROWS_MAX + " rows; give it a primary key, or restore the replica from a copy"
                                    : "the range holds more than " + REPAIR_ROWS_MAX + " rows now; compare again", "54000");
                        }
                    }
                }
                int[] keys = new int[t.keyLabels.size()];
                for (int i = 0; i < keys.length; i++) keys[i] = columnIndex(columns, t.keyLabels.get(i));
                RangeRepair repair = new RangeRepair(what, targets,
                        new RangeRepair.Statements(read.bind(params), delete, update, insert), columns, keys, rows);
                session.executeOwn(JdbcStatement.repair(repair));
                long txId = session.transactionId();
                ours.add(txId);
                session.commit();
                return new Ran(repair, txId);
            } catch (SQLException e) {
                try {
                    session.rollback();
                } catch (SQLException ignored) {
                    // the attempt is over either way
                }
                if (!"40001".equals(e.getSQLState()) || attempt == ATTEMPTS_MAX) throw e;
                backOff(attempt);
            }
        }
    }

    /** A statement in the primary's SQL, translated once and bound for every replica's dialect on each use. */
    private RangeRepair.Template template(String sql) throws SQLException {
        Translation tr = coordinator.translate(sql);
        return params -> new JdbcStatement(sql, params, ExecOptions.DEFAULT,
                tr == null ? null : tr.bind(params, coordinator.determinism(), JdbcStatement::valueOf));
    }

    /** The parameters of a lexicographic key bound written as {@link #keyBound}: the key's first i+1 values per disjunct. */
    private static List<Param> boundParams(List<Object> key, List<Integer> types) {
        List<Param> params = new ArrayList<>();
        for (int i = 0; i < key.size(); i++) {
            for (int j = 0; j <= i; j++) params.add(new Param(types.get(j), key.get(j)));
        }
        return params;
    }

    /** {@code (k1 op ?) OR (k1 = ? AND k2 op ?) OR ...}, the last disjunct with {@code lastOp}. */
    private static String keyBound(List<String> keys, String op, String lastOp) {
        StringBuilder sql = new StringBuilder();
        for (int i = 0; i < keys.size(); i++) {
            sql.append(i == 0 ? "(" : " OR (");
            for (int j = 0; j < i; j++) sql.append(keys.get(j)).append(" = ? AND ");
            sql.append(keys.get(i)).append(i == keys.size() - 1 ? lastOp : op).append(" ?)");
        }
        return sql.toString();
    }

    /** The table's rows after the key {@code after} and up to the key {@code last} (each optional), in key order. */
    static String rangeSql(Table t, boolean after, boolean last) {
        StringBuilder sql = new StringBuilder("SELECT ").append(String.join(", ", t.columns)).append(" FROM ").append(t.sqlName);
        if (after || last) sql.append(" WHERE ");
        if (after) sql.append('(').append(keyBound(t.keyColumns, " >", " >")).append(')');
        if (after && last) sql.append(" AND ");
        if (last) sql.append('(').append(keyBound(t.keyColumns, " <", " <=")).append(')');
        if (!t.keyColumns.isEmpty()) sql.append(" ORDER BY ").append(String.join(", ", t.keyColumns));
        return sql.toString();
    }

    static String deleteSql(Table t) {
        StringBuilder sql = new StringBuilder("DELETE FROM ").append(t.sqlName);
        if (!t.keyColumns.isEmpty()) sql.append(" WHERE ").append(String.join(" = ? AND ", t.keyColumns)).append(" = ?");
        return sql.toString();
    }

    static String updateSql(Table t) {
        List<String> set = new ArrayList<>();
        for (String c : t.columns) {
            if (!t.keyColumns.contains(c)) set.add(c + " = ?");
        }
        return "UPDATE " + t.sqlName + " SET " + String.join(", ", set) + " WHERE " + String.join(" = ? AND ", t.keyColumns) + " = ?";
    }

    static String insertSql(Table t) {
        return "INSERT INTO " + t.sqlName + " (" + String.join(", ", t.columns) + ") VALUES ("
                + String.join(", ", java.util.Collections.nCopies(t.columns.size(), "?")) + ")";
    }

    /**
     * The tables of a selection (the primary's current schema, or another), without the shepherd's own; each with its
     * primary key.
     */
    private List<Table> tables(Selection selection) throws SQLException {
        TreeMap<String, Table> out = new TreeMap<>();
        String quote = String.valueOf(coordinator.clientDialect().identifierQuote()); // the translator reads this SQL
        try (Connection c = coordinator.primary().pool().acquireForMetadata()) {
            DatabaseMetaData md = c.getMetaData();
            Place place = place(c, md, selection.schema());
            String catalog = place.catalog();
            String schema = place.schema();
            String prefix = place.storedSchema() == null ? "" : place.storedSchema() + ".";
            Spelling spelled = caseSensitiveSpelling(place.storedSchema());
            String sqlPrefix = place.storedSchema() == null ? ""
                    : (spelled.database() != null && PLAIN_IDENTIFIER.matcher(spelled.database()).matches() ? spelled.database()
                            : sqlName(md, quote, place.storedSchema())) + ".";
            List<String> names = new ArrayList<>();
            try (ResultSet rs = md.getTables(catalog, schema, "%", new String[] {"TABLE"})) {
                while (rs.next()) names.add(rs.getString("TABLE_NAME"));
            }
            for (String name : names) {
                if (ReservedTables.isReserved(name)) continue;
                if (selection.table() != null && !name.equalsIgnoreCase(selection.table())) continue;
                TreeMap<Short, String> key = new TreeMap<>();
                try (ResultSet rs = md.getPrimaryKeys(catalog, schema, name)) {
                    while (rs.next()) key.put(rs.getShort("KEY_SEQ"), rs.getString("COLUMN_NAME"));
                }
                List<String> keySql = new ArrayList<>();
                for (String k : key.values()) keySql.add(sqlName(md, quote, k));
                TreeMap<Integer, String> columns = new TreeMap<>();
                String escape = md.getSearchStringEscape();
                String pattern = escape == null || escape.isEmpty() ? name
                        : name.replace(escape, escape + escape).replace("_", escape + "_").replace("%", escape + "%");
                try (ResultSet rs = md.getColumns(catalog, schema, pattern, "%")) {
                    while (rs.next()) {
                        if (name.equals(rs.getString("TABLE_NAME"))) {
                            columns.put(rs.getInt("ORDINAL_POSITION"), sqlName(md, quote, rs.getString("COLUMN_NAME")));
                        }
                    }
                }
                String spelling = spelled.tables().get(name.toLowerCase(Locale.ROOT));
                String tableSql = spelling != null && PLAIN_IDENTIFIER.matcher(spelling).matches() ? spelling
                        : sqlName(md, quote, name);
                out.put(name, new Table(prefix + name, sqlPrefix + tableSql, keySql, List.copyOf(key.values()),
                        List.copyOf(columns.values())));
            }
            if (!c.getAutoCommit()) c.rollback();
            if (out.isEmpty() && selection.table() != null) {
                throw new SQLException("no table " + selection.table() + " in " + (place.storedSchema() == null
                        ? "the primary's schema" : "schema " + place.storedSchema()), "42P01");
            }
        }
        return List.copyOf(out.values());
    }

    /**
     * Where {@code schema} (null: the connection's default) is on the primary: one of its schemas, or else one of its
     * catalogs (a MySQL-family database); the name as stored matched exactly first, then ignoring case.
     */
    static Place place(Connection c, DatabaseMetaData md, String schema) throws SQLException {
        if (schema == null) return new Place(c.getCatalog(), c.getSchema(), null);
        String stored = matching(md.getSchemas(), "TABLE_SCHEM", schema);
        if (stored != null) return new Place(c.getCatalog(), stored, stored);
        stored = matching(md.getCatalogs(), "TABLE_CAT", schema);
        if (stored != null) return new Place(stored, null, stored);
        throw new SQLException("no schema " + schema + " on the primary", "3F000");
    }

    private static String matching(ResultSet rs, String column, String name) throws SQLException {
        String ignoringCase = null;
        try (rs) {
            while (rs.next()) {
                String stored = rs.getString(column);
                if (name.equals(stored)) return stored;
                if (ignoringCase == null && name.equalsIgnoreCase(stored)) ignoringCase = stored;
            }
        }
        return ignoringCase;
    }

    /**
     * How a replica whose names are case-sensitive (MySQL family) spells the selection's database ({@code database}, null
     * for the selection of its default one) and its tables (by their lower-case form): Derby, HSQLDB and PostgreSQL fold
     * unquoted names, so that spelling, unquoted, names them on every replica.
     */
    private record Spelling(String database, Map<String, String> tables) {
        static final Spelling NONE = new Spelling(null, Map.of());
    }

    /**
     * The {@link Spelling} of the first MySQL-family replica that answers and holds {@code database} (a schema of the
     * selection as the primary stores it; null: each replica's default); {@link Spelling#NONE} when there is none.
     */
    private Spelling caseSensitiveSpelling(String database) {
        for (JdbcReplicaEndpoint e : coordinator.endpoints()) {
            if (e.dialect().family() != Dialect.Family.MYSQL) continue;
            Map<String, String> names = new HashMap<>();
            try (Connection c = e.pool().acquireForMetadata()) {
                DatabaseMetaData md = c.getMetaData();
                String catalog = database == null ? c.getCatalog() : matching(md.getCatalogs(), "TABLE_CAT", database);
                if (catalog == null) continue; // no such database there
                try (ResultSet rs = md.getTables(catalog, database == null ? c.getSchema() : null, "%", new String[] {"TABLE"})) {
                    while (rs.next()) names.putIfAbsent(rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT), rs.getString("TABLE_NAME"));
                }
                if (!c.getAutoCommit()) c.rollback();
                return new Spelling(database == null ? null : catalog, names);
            } catch (SQLException | RuntimeException down) {
                // another one may answer; without any, the primary's names are used as they are
            }
        }
        return Spelling.NONE;
    }

    /**
     * Names that some engine reserves as words and that schemas and tables get (HSQLDB's default schema PUBLIC is a
     * reserved word in Derby): always quoted.
     */
    private static final java.util.Set<String> RESERVED = java.util.Set.of("PUBLIC", "USER", "ORDER", "GROUP", "TABLE",
            "VALUES", "KEY", "CHECK", "DEFAULT", "SCHEMA", "SYSTEM", "SESSION");

    /**
     * The identifier as the primary's SQL writes it: plain where its case folding gives it back and it is no word an
     * engine reserves ({@link #RESERVED}), so that every replica folds it its own way, as when the table was created;
     * else quoted.
     */
    static String sqlName(DatabaseMetaData md, String quote, String stored) throws SQLException {
        boolean plain = PLAIN_IDENTIFIER.matcher(stored).matches() && !RESERVED.contains(stored.toUpperCase(Locale.ROOT))
                && (md.storesUpperCaseIdentifiers() ? stored.equals(stored.toUpperCase(Locale.ROOT))
                        : !md.storesLowerCaseIdentifiers() || stored.equals(stored.toLowerCase(Locale.ROOT)));
        return plain ? stored : JdbcReplicaEndpoint.quoted(quote, stored);
    }

    /**
     * Waits (at most {@link #waitMs}) until every replica that is up has finished each of {@code txIds}, so that each
     * one's answers were compared and any difference reported; returns the replicas not compared, with why. (A replica's
     * last committed barrier is not enough: it may commit a read-only transaction after a later one.)
     */
    private List<String> awaitSecondaries(Collection<Long> txIds) throws SQLException {
        long deadline = coordinator.clock().nowMillis() + waitMs;
        long barrier = coordinator.currentBarrier() - 1;
        while (true) {
            boolean finished = coordinator.finishedEverywhere(txIds);
            List<String> behind = new ArrayList<>();
            List<String> down = new ArrayList<>();
            for (CbsCore.ReplicaStatus r : coordinator.replicaStatus()) {
                if (r.down()) {
                    down.add(r.name() + " (" + r.state() + ")");
                } else if (r.lastCommittedBarrier() < barrier) {
                    behind.add(r.name() + " (still behind after " + waitMs + " ms)");
                }
            }
            if (finished) return down;
            if (coordinator.clock().nowMillis() > deadline) {
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
