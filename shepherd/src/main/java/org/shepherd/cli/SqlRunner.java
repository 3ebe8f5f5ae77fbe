package org.shepherd.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs SQL statements on one connection and prints each result as a table, an update count or an error. */
final class SqlRunner {

    /** Rows read before the column widths are fixed; later rows reuse those widths (bounded memory). */
    static final int WIDTH_SAMPLE_ROWS_MAX = 1000;

    private final Connection connection;
    private final PrintWriter out;
    private final PrintWriter err;
    private final LongSupplier nanoTime;
    private volatile Statement running;

    SqlRunner(Connection connection, PrintWriter out, PrintWriter err, LongSupplier nanoTime) {
        this.connection = connection;
        this.out = out;
        this.err = err;
        this.nanoTime = nanoTime;
    }

    /** COMMIT or ROLLBACK, with WORK or not: the shell ends the transaction through JDBC, as ij does. */
    private static final Pattern TRANSACTION_END = Pattern.compile(
            "\\s*(COMMIT|ROLLBACK)(?:\\s+WORK)?\\s*;?\\s*", Pattern.CASE_INSENSITIVE);

    /** BEGIN [WORK|TRANSACTION] or START TRANSACTION: the shell leaves autocommit until the next COMMIT or ROLLBACK. */
    private static final Pattern TRANSACTION_BEGIN = Pattern.compile(
            "\\s*(?:BEGIN(?:\\s+(?:WORK|TRANSACTION))?|START\\s+TRANSACTION)\\s*;?\\s*",
            Pattern.CASE_INSENSITIVE);

    /** SHOW TABLES: the tables and views, from DatabaseMetaData (every dialect, as ij's {@code show tables}). */
    private static final Pattern SHOW_TABLES = Pattern.compile(
            "\\s*SHOW\\s+TABLES\\s*;?\\s*", Pattern.CASE_INSENSITIVE);

    /** DESCRIBE t or DESC t (t plain, or quoted with double quotes or backticks): its columns, from DatabaseMetaData. */
    private static final Pattern DESCRIBE = Pattern.compile(
            "\\s*DESC(?:RIBE)?\\s+(?:\"([^\"]+)\"|`([^`]+)`|([A-Za-z_][A-Za-z0-9_$]*))\\s*;?\\s*",
            Pattern.CASE_INSENSITIVE);

    /** A BEGIN typed in autocommit mode opened the transaction: autocommit comes back when it ends. */
    private boolean explicitTransaction;

    /** Runs one statement; returns false (after printing the error) if it failed. */
    boolean run(String sql) {
        long startNs = nanoTime.getAsLong();
        try {
            if (!beganTransaction(sql, startNs) && !endedTransaction(sql, startNs) && !described(sql, startNs)) {
                execute(sql, startNs);
            }
            // a transaction BEGIN opened that a statement ended (SET AUTOCOMMIT TRUE): a later COMMIT keeps manual mode
            if (explicitTransaction && connection.getAutoCommit()) explicitTransaction = false;
            out.flush();
            return true;
        } catch (SQLException e) {
            out.flush();
            err.println(formatError(e));
            err.flush();
            return false;
        } finally {
            running = null;
        }
    }

    /** Leaves autocommit when {@code sql} is BEGIN in autocommit mode (not every dialect has the statement). */
    private boolean beganTransaction(String sql, long startNs) throws SQLException {
        if (!TRANSACTION_BEGIN.matcher(sql).matches() || !connection.getAutoCommit()) return false;
        connection.setAutoCommit(false);
        explicitTransaction = true;
        out.println("transaction started " + elapsed(startNs));
        return true;
    }

    /**
     * Ends the transaction through JDBC when {@code sql} is COMMIT or ROLLBACK outside autocommit: some dialects
     * (Derby's) have no such statement over JDBC, and a shell user still types them.
     */
    private boolean endedTransaction(String sql, long startNs) throws SQLException {
        Matcher end = TRANSACTION_END.matcher(sql);
        if (!end.matches() || connection.getAutoCommit()) return false;
        boolean commit = end.group(1).equalsIgnoreCase("COMMIT");
        if (commit) {
            connection.commit();
        } else {
            connection.rollback();
        }
        if (explicitTransaction) {
            explicitTransaction = false;
            connection.setAutoCommit(true);
        }
        printWarnings(connection.getWarnings());
        connection.clearWarnings();
        out.println((commit ? "committed " : "rolled back ") + elapsed(startNs));
        return true;
    }

    /** Answers SHOW TABLES and DESCRIBE t from the connection's metadata; false for any other statement. */
    private boolean described(String sql, long startNs) throws SQLException {
        if (SHOW_TABLES.matcher(sql).matches()) {
            showTables(startNs);
            return true;
        }
        Matcher describe = DESCRIBE.matcher(sql);
        if (!describe.matches()) return false;
        DatabaseMetaData md = connection.getMetaData();
        String name = describe.group(3);
        if (name == null) {
            name = describe.group(1) != null ? describe.group(1) : describe.group(2); // quoted: as written
        } else if (md.storesUpperCaseIdentifiers()) {
            name = name.toUpperCase(Locale.ROOT);
        } else if (md.storesLowerCaseIdentifiers()) {
            name = name.toLowerCase(Locale.ROOT);
        }
        describeTable(md, name, startNs);
        return true;
    }

    /** The tables and views in the connection's catalog (a MySQL-family URL: its own database, not every one). */
    private void showTables(long startNs) throws SQLException {
        List<String[]> rows = new ArrayList<>();
        try (ResultSet rs = connection.getMetaData().getTables(connection.getCatalog(), null, "%", new String[] {"TABLE", "VIEW"})) {
            while (rs.next()) {
                String schema = rs.getString("TABLE_SCHEM"); // MySQL's databases are catalogs
                rows.add(new String[] {schema != null ? schema : rs.getString("TABLE_CAT"), rs.getString("TABLE_NAME"),
                    rs.getString("TABLE_TYPE")});
            }
        }
        boolean any = printRows(List.of("schema", "table", "type"), rows);
        out.println((any ? plural(rows.size(), "table") : "no tables") + " " + elapsed(startNs));
    }

    /** The columns of {@code table} (as the database stores its name) and its primary key. */
    private void describeTable(DatabaseMetaData md, String table, long startNs) throws SQLException {
        String catalog = connection.getCatalog();
        Map<String, Short> key = new HashMap<>();
        try (ResultSet rs = md.getPrimaryKeys(catalog, null, table)) {
            while (rs.next()) key.put(rs.getString("COLUMN_NAME"), rs.getShort("KEY_SEQ"));
        }
        List<String[]> rows = new ArrayList<>();
        try (ResultSet rs = md.getColumns(catalog, null, table, "%")) {
            while (rs.next()) {
                String column = rs.getString("COLUMN_NAME");
                Short keySeq = key.get(column);
                rows.add(new String[] {column, typeOf(rs), rs.getString("IS_NULLABLE"), rs.getString("COLUMN_DEF"),
                    keySeq == null ? "" : "PRIMARY KEY (" + keySeq + ")"});
            }
        }
        if (rows.isEmpty()) throw new SQLException("no table or view " + table + " (SHOW TABLES lists them)", "42S02");
        printRows(List.of("column", "type", "nullable", "default", "key"), rows);
        out.println(plural(rows.size(), "column") + " " + elapsed(startNs));
    }

    /** A column's type as DDL writes it: {@code VARCHAR(20)}, {@code DECIMAL(12,2)}, {@code INTEGER}. */
    private static String typeOf(ResultSet column) throws SQLException {
        String type = column.getString("TYPE_NAME");
        int size = column.getInt("COLUMN_SIZE");
        boolean sized = !column.wasNull();
        switch (column.getInt("DATA_TYPE")) {
            case Types.CHAR, Types.VARCHAR, Types.NCHAR, Types.NVARCHAR, Types.BINARY, Types.VARBINARY -> {
                return sized && !type.contains("(") ? type + "(" + size + ")" : type;
            }
            case Types.DECIMAL, Types.NUMERIC -> {
                int scale = column.getInt("DECIMAL_DIGITS");
                return sized && !type.contains("(") ? type + "(" + size + "," + scale + ")" : type;
            }
            default -> {
                return type;
            }
        }
    }

    /** Prints {@code rows} as a table under {@code labels}; false (nothing printed) when there are none. */
    private boolean printRows(List<String> labels, List<String[]> rows) {
        if (rows.isEmpty()) return false;
        List<String[]> shown = new ArrayList<>(rows.size());
        for (String[] row : rows) {
            String[] copy = row.clone();
            for (int i = 0; i < copy.length; i++) {
                if (copy[i] == null) copy[i] = "NULL";
            }
            shown.add(copy);
        }
        TableFormatter table = new TableFormatter(labels, new boolean[labels.size()]);
        table.fit(shown);
        table.printHeader(out);
        table.printRows(out, shown);
        table.printRule(out);
        return true;
    }

    private void execute(String sql, long startNs) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            running = statement;
            boolean isResultSet = statement.execute(sql);
            while (true) {
                if (isResultSet) {
                    long rows;
                    try (ResultSet resultSet = statement.getResultSet()) {
                        rows = printResultSet(resultSet);
                    }
                    out.println(plural(rows, "row") + " " + elapsed(startNs));
                } else {
                    int updateCount = statement.getUpdateCount();
                    if (updateCount == -1) {
                        break;
                    }
                    out.println(plural(updateCount, "row") + " affected " + elapsed(startNs));
                }
                isResultSet = moreResults(statement);
            }
            printWarnings(statement.getWarnings());
        }
    }

    /** Asks the database to cancel the statement in progress, if any (Ctrl-C in the shell). */
    void cancelRunning() {
        Statement statement = running;
        if (statement == null) {
            return;
        }
        try {
            statement.cancel();
        } catch (SQLException e) {
            err.println("cancel failed: " + formatError(e));
            err.flush();
        }
    }

    /** {@code ERROR <SQLState> (<vendor code>): message}. */
    static String formatError(SQLException e) {
        String state = e.getSQLState() == null ? "-----" : e.getSQLState();
        String message = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
        return "ERROR " + state + " (" + e.getErrorCode() + "): " + message;
    }

    private static boolean moreResults(Statement statement) throws SQLException {
        try {
            return statement.getMoreResults();
        } catch (SQLFeatureNotSupportedException e) {
            // A driver without multiple results has nothing more to give; the update count -1 ends the loop.
            return false;
        }
    }

    private long printResultSet(ResultSet resultSet) throws SQLException {
        ResultSetMetaData meta = resultSet.getMetaData();
        int columns = meta.getColumnCount();
        List<String> labels = new ArrayList<>(columns);
        int[] types = new int[columns];
        boolean[] numeric = new boolean[columns];
        for (int c = 0; c < columns; c++) {
            labels.add(meta.getColumnLabel(c + 1));
            types[c] = meta.getColumnType(c + 1);
            numeric[c] = isNumeric(types[c]);
        }
        TableFormatter table = new TableFormatter(labels, numeric);
        List<String[]> sample = new ArrayList<>();
        long rows = 0;
        while (sample.size() < WIDTH_SAMPLE_ROWS_MAX && resultSet.next()) {
            sample.add(readRow(resultSet, types));
            rows++;
        }
        table.fit(sample);
        table.printHeader(out);
        table.printRows(out, sample);
        sample.clear();
        while (resultSet.next()) {
            table.printRows(out, List.<String[]>of(readRow(resultSet, types)));
            rows++;
        }
        if (rows > 0) {
            table.printRule(out);
        }
        return rows;
    }

    private static String[] readRow(ResultSet resultSet, int[] types) throws SQLException {
        String[] row = new String[types.length];
        for (int c = 0; c < types.length; c++) {
            row[c] = readValue(resultSet, c + 1, types[c]);
        }
        return row;
    }

    private static String readValue(ResultSet resultSet, int column, int type) throws SQLException {
        switch (type) {
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> {
                byte[] bytes = resultSet.getBytes(column);
                return bytes == null ? "NULL" : "0x" + HexFormat.of().withUpperCase().formatHex(bytes);
            }
            default -> {
                String value = resultSet.getString(column);
                return value == null ? "NULL" : value;
            }
        }
    }

    private static boolean isNumeric(int type) {
        switch (type) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.REAL, Types.FLOAT, Types.DOUBLE,
                    Types.DECIMAL, Types.NUMERIC -> {
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    private void printWarnings(SQLWarning warning) {
        for (SQLWarning w = warning; w != null; w = w.getNextWarning()) {
            out.println("WARNING " + (w.getSQLState() == null ? "-----" : w.getSQLState()) + " (" + w.getErrorCode() + "): "
                    + w.getMessage());
        }
    }

    private String elapsed(long startNs) {
        double seconds = (nanoTime.getAsLong() - startNs) / 1e9;
        return String.format(Locale.ROOT, "(%.3f s)", seconds);
    }

    private static String plural(long count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }
}
