package org.shepherd.vote;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.shepherd.protocol.ColumnInfo;

/**
 * A streaming digest of a result: rows are added one at a time and never kept, so a secondary's answer costs
 * constant memory whatever its size.
 *
 * <p>Rows are compared as a multiset: each row's canonical encoding is hashed (SHA-256, first 128 bits) and the
 * hashes are added modulo 2^128, which does not depend on the order rows arrive in. When the query fixes an
 * order (its order-key columns, from the translator), the sequence of order-key values is hashed in arrival
 * order as well: ties may come back in any order, but the ordering itself must match.
 */
public final class AnswerDigest {

    /** The digest of every error of SQLState class 42 ({@link #error}). */
    private static final String REFUSAL_DIGEST = errorDigest("42");

    private final List<ColumnInfo> columns;
    private final int[] orderKeyIndexes;
    private final MessageDigest rowHash = sha256();
    private final MessageDigest orderHash = sha256();
    private long sumHigh;
    private long sumLow;
    private long rowCount;

    private AnswerDigest(List<ColumnInfo> columns, int[] orderKeyIndexes) {
        this.columns = List.copyOf(columns);
        this.orderKeyIndexes = orderKeyIndexes;
    }

    /**
     * A digest for a result with these columns. {@code orderKeyColumns} are the labels of the columns the query
     * orders by (empty: row order is not compared). Labels not in the result are ignored.
     */
    public static AnswerDigest forRows(List<ColumnInfo> columns, List<String> orderKeyColumns) {
        List<Integer> idx = new ArrayList<>();
        for (String key : orderKeyColumns) {
            for (int i = 0; i < columns.size(); i++) {
                if (columns.get(i).label().equalsIgnoreCase(key)) {
                    idx.add(i);
                    break;
                }
            }
        }
        return new AnswerDigest(columns, idx.stream().mapToInt(Integer::intValue).toArray());
    }

    /** A digest ordering by the columns at these 1-based positions (the translator's order keys); empty: multiset only. */
    public static AnswerDigest forRows(List<ColumnInfo> columns, int[] orderKeyPositions) {
        List<Integer> idx = new ArrayList<>();
        for (int p : orderKeyPositions) {
            if (p >= 1 && p <= columns.size()) idx.add(p - 1);
        }
        return new AnswerDigest(columns, idx.stream().mapToInt(Integer::intValue).toArray());
    }

    public void addRow(Object[] row) {
        if (row.length != columns.size()) {
            throw new IllegalArgumentException("row has " + row.length + " values, result has " + columns.size() + " columns");
        }
        byte[] h = rowHash.digest(encodeRow(row, null));
        ByteBuffer b = ByteBuffer.wrap(h);
        long high = b.getLong();
        long low = b.getLong();
        long newLow = sumLow + low;
        long carry = Long.compareUnsigned(newLow, sumLow) < 0 ? 1 : 0;
        sumLow = newLow;
        sumHigh = sumHigh + high + carry;
        if (orderKeyIndexes.length > 0) {
            orderHash.update(encodeRow(row, orderKeyIndexes));
        }
        rowCount++;
    }

    public long rowCount() {
        return rowCount;
    }

    public Ballot finish() {
        MessageDigest d = sha256();
        StringBuilder meta = new StringBuilder("rows;");
        for (ColumnInfo c : columns) {
            meta.append(CanonicalValues.label(c.label())).append(':').append(TypeFamily.of(c.jdbcType())).append(';');
        }
        d.update(meta.toString().getBytes(StandardCharsets.UTF_8));
        d.update(ByteBuffer.allocate(24).putLong(rowCount).putLong(sumHigh).putLong(sumLow).array());
        if (orderKeyIndexes.length > 0) d.update(orderHash.digest());
        String summary = rowCount + (rowCount == 1 ? " row" : " rows");
        return new Ballot(HexFormat.of().formatHex(d.digest()), summary);
    }

    /** The ballot of an update count, with the generated keys the client asked for (empty lists when none). */
    public static Ballot updateCount(long count, List<ColumnInfo> keyColumns, List<Object[]> generatedKeys) {
        MessageDigest d = sha256();
        d.update(("update;" + count + ";").getBytes(StandardCharsets.UTF_8));
        String summary = "update count " + count;
        if (!generatedKeys.isEmpty()) {
            AnswerDigest keys = forRows(keyColumns, List.of());
            generatedKeys.forEach(keys::addRow);
            d.update(keys.finish().digest().getBytes(StandardCharsets.UTF_8));
            summary += ", " + generatedKeys.size() + " generated keys";
        }
        return new Ballot(HexFormat.of().formatHex(d.digest()), summary);
    }

    /** The ballot of an error: its {@link ErrorOutcome}. */
    public static Ballot error(SQLException e) {
        String outcome = ErrorOutcome.of(e);
        String summary = (ErrorOutcome.RETRY.equals(outcome) ? "retryable error" : "error") + " (SQLState " + e.getSQLState() + ")";
        return new Ballot(errorDigest(outcome), summary);
    }

    private static String errorDigest(String outcome) {
        return HexFormat.of().formatHex(sha256().digest(("error;" + outcome).getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Whether {@code b} is the ballot of an error of SQLState class 42 (syntax error or access rule violation: the engine
     * does not take the statement, e.g. a function it lacks).
     */
    public static boolean isRefusal(Ballot b) {
        return b != null && REFUSAL_DIGEST.equals(b.digest());
    }

    /** The SQLState of an error's ballot ({@link #error}), else {@code otherwise}. */
    public static String sqlStateOf(Ballot b, String otherwise) {
        String summary = b == null ? null : b.summary();
        int at = summary == null ? -1 : summary.lastIndexOf("(SQLState ");
        if (at < 0 || !summary.endsWith(")")) return otherwise;
        String state = summary.substring(at + "(SQLState ".length(), summary.length() - 1);
        return state.length() == 5 ? state : otherwise;
    }

    /** A ballot for a plain value answer (used by simulated replicas and tests). */
    public static Ballot ofText(String canonicalText) {
        return new Ballot(HexFormat.of().formatHex(sha256().digest(canonicalText.getBytes(StandardCharsets.UTF_8))),
                canonicalText);
    }

    private byte[] encodeRow(Object[] row, int[] only) {
        return (canonicalText(row, columns, only) + '|').getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The canonical text of the values of {@code row} at {@code only} (every value when null), each length-prefixed:
     * two rows' texts are equal exactly when the vote finds those values equal.
     */
    public static String canonicalText(Object[] row, List<ColumnInfo> columns, int[] only) {
        StringBuilder sb = new StringBuilder();
        int n = only == null ? row.length : only.length;
        for (int k = 0; k < n; k++) {
            int i = only == null ? k : only[k];
            String v = CanonicalValues.of(row[i], columns.get(i).jdbcType());
            sb.append(v.length()).append(':').append(v);
        }
        return sb.toString();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
