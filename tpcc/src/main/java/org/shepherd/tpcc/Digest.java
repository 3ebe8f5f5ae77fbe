package org.shepherd.tpcc;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * An order-independent digest of each TPC-C table, equal on two databases of any vendor that hold the same
 * rows: each row is canonicalized (columns by lower-case name; exact numbers as plain decimals without trailing
 * zeros; CHAR without trailing spaces; timestamps at millisecond precision), hashed with SHA-256, and the
 * first 128 bits of the row hashes are summed modulo 2^128.
 */
public final class Digest {

    private static final DateTimeFormatter TIMESTAMP_FORMAT =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", Locale.ROOT);
    private static final String NULL_MARKER = "\u0000NULL";

    /** Row count and hash (32 hex digits) of one table. */
    public record TableDigest(String table, long rows, String hash) {
    }

    private Digest() {
    }

    public static List<TableDigest> ofTables(Connection c) throws SQLException {
        List<TableDigest> result = new ArrayList<>();
        for (String table : TpccSql.TABLES) result.add(ofTable(c, table));
        result.sort(Comparator.comparing(TableDigest::table));
        return result;
    }

    public static TableDigest ofTable(Connection c, String table) throws SQLException {
        MessageDigest sha = sha256();
        long high = 0;
        long low = 0;
        long rows = 0;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(TpccSql.selectAll(table))) {
            ResultSetMetaData md = rs.getMetaData();
            Integer[] order = new Integer[md.getColumnCount()];
            String[] names = new String[order.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i + 1;
                names[i] = md.getColumnLabel(i + 1).toLowerCase(Locale.ROOT);
            }
            Arrays.sort(order, Comparator.comparing(i -> names[i - 1]));
            StringBuilder row = new StringBuilder();
            while (rs.next()) {
                row.setLength(0);
                for (int column : order) {
                    String value = canonical(rs, column, md.getColumnType(column));
                    row.append(names[column - 1]).append('=').append(value.length()).append(':').append(value).append(';');
                }
                ByteBuffer hash = ByteBuffer.wrap(sha.digest(row.toString().getBytes(StandardCharsets.UTF_8)));
                long h = hash.getLong();
                long l = hash.getLong();
                long sum = low + l;
                high += h + (Long.compareUnsigned(sum, low) < 0 ? 1 : 0);
                low = sum;
                rows++;
            }
        }
        return new TableDigest(table, rows, String.format(Locale.ROOT, "%016x%016x", high, low));
    }

    /** The canonical text of one value; see the class comment. */
    static String canonical(ResultSet rs, int column, int sqlType) throws SQLException {
        switch (sqlType) {
            case Types.TINYINT:
            case Types.SMALLINT:
            case Types.INTEGER:
            case Types.BIGINT:
            case Types.DECIMAL:
            case Types.NUMERIC: {
                BigDecimal v = rs.getBigDecimal(column);
                return v == null ? NULL_MARKER : canonicalNumber(v);
            }
            case Types.CHAR:
            case Types.NCHAR: {
                String v = rs.getString(column);
                return v == null ? NULL_MARKER : v.stripTrailing();
            }
            case Types.DATE:
            case Types.TIMESTAMP:
            case Types.TIMESTAMP_WITH_TIMEZONE: {
                Timestamp v = rs.getTimestamp(column);
                return v == null ? NULL_MARKER
                    : TIMESTAMP_FORMAT.format(v.toLocalDateTime().truncatedTo(ChronoUnit.MILLIS));
            }
            case Types.REAL:
            case Types.FLOAT:
            case Types.DOUBLE: {
                double v = rs.getDouble(column);
                return rs.wasNull() ? NULL_MARKER : Double.toString(v);
            }
            case Types.BOOLEAN:
            case Types.BIT: {
                boolean v = rs.getBoolean(column);
                return rs.wasNull() ? NULL_MARKER : Boolean.toString(v);
            }
            default: {
                String v = rs.getString(column);
                return v == null ? NULL_MARKER : v;
            }
        }
    }

    static String canonicalNumber(BigDecimal v) {
        return v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
