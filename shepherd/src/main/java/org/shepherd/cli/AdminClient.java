package org.shepherd.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.shepherd.jdbc.ShepherdConnection;
import picocli.CommandLine.Mixin;

/** The connection options shared by {@code status} and {@code divergences}, and reading their result sets. */
final class AdminClient {

    /** Rows read at most from one admin answer (the divergence log keeps fewer). */
    static final int ROWS_MAX = 100_000;

    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

    /** A table read in full: column labels, whether each is numeric, and the rows as maps in column order. */
    record Table(List<String> labels, boolean[] numeric, List<Map<String, Object>> rows) {

        List<String[]> cells() {
            List<String[]> out = new ArrayList<>();
            for (Map<String, Object> row : rows) {
                String[] cells = new String[labels.size()];
                for (int c = 0; c < cells.length; c++) {
                    Object value = row.get(labels.get(c));
                    cells[c] = value == null ? "NULL" : value.toString();
                }
                out.add(cells);
            }
            return out;
        }

        void print(PrintWriter out) {
            TableFormatter formatter = new TableFormatter(labels, numeric);
            List<String[]> cells = cells();
            formatter.fit(cells);
            formatter.printHeader(out);
            formatter.printRows(out, cells);
            formatter.printRule(out);
        }
    }

    /** Opens a Shepherd connection: exit 2 if the URL is no Shepherd URL, exit 1 if the shepherd cannot be reached. */
    ShepherdConnection connect() {
        ConnectionTarget target = connection.resolve();
        if (!target.url().startsWith("jdbc:shepherd:")) {
            throw CliException.usage("--url must be a jdbc:shepherd:// URL (status and divergences ask the shepherd itself), was "
                    + SqlCommand.redacted(target.url()));
        }
        Connection connection;
        try {
            connection = DriverManager.getConnection(target.url(), target.connectionProperties());
        } catch (SQLException e) {
            throw CliException.failure("cannot reach the shepherd at " + SqlCommand.redacted(target.url()) + ": "
                    + SqlRunner.formatError(e) + " (is `bin/shepherd serve` running?)", e);
        }
        try {
            return connection.unwrap(ShepherdConnection.class);
        } catch (SQLException e) {
            closeQuietly(connection);
            throw CliException.usage("the connection for " + SqlCommand.redacted(target.url()) + " is not a Shepherd connection");
        }
    }

    static Table read(ResultSet resultSet) throws SQLException {
        try (resultSet) {
            ResultSetMetaData md = resultSet.getMetaData();
            List<String> labels = new ArrayList<>();
            boolean[] numeric = new boolean[md.getColumnCount()];
            for (int c = 1; c <= md.getColumnCount(); c++) {
                labels.add(md.getColumnLabel(c));
                int type = md.getColumnType(c);
                numeric[c - 1] = type == Types.BIGINT || type == Types.INTEGER;
            }
            List<Map<String, Object>> rows = new ArrayList<>();
            while (resultSet.next()) {
                if (rows.size() == ROWS_MAX) {
                    throw CliException.failure("the answer has more than " + ROWS_MAX + " rows");
                }
                Map<String, Object> row = new LinkedHashMap<>();
                for (int c = 1; c <= labels.size(); c++) {
                    row.put(labels.get(c - 1), resultSet.getObject(c));
                }
                rows.add(row);
            }
            return new Table(List.copyOf(labels), numeric, rows);
        }
    }

    static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing after a failure: the failure is what gets reported
        }
    }
}
