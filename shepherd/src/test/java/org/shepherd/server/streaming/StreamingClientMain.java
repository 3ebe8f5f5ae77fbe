package org.shepherd.server.streaming;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Reads {@code 10^7} generated rows (a 7-way cross join of a 10-row table) through the driver in its own small-heap
 * JVM and checks the count and the sum of every value; prints "ROWS n SUM s MS t".
 */
public final class StreamingClientMain {

    static final int TABLES = 7;

    private StreamingClientMain() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.executeUpdate("CREATE TABLE digits (d INT)");
            st.executeUpdate("INSERT INTO digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)");
            StringBuilder value = new StringBuilder();
            StringBuilder from = new StringBuilder();
            long expectedRows = 1;
            for (int i = 0; i < TABLES; i++) {
                if (i > 0) {
                    value.append(" + ");
                    from.append(", ");
                }
                value.append("CAST(t").append(i).append(".d AS BIGINT) * ").append((long) Math.pow(10, i));
                from.append("digits t").append(i);
                expectedRows *= 10;
            }
            st.setFetchSize(1000);
            long start = System.nanoTime();
            long rows = 0;
            long sum = 0;
            try (ResultSet rs = st.executeQuery("SELECT " + value + " FROM " + from)) {
                while (rs.next()) {
                    sum += rs.getLong(1);
                    rows++;
                }
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            long expectedSum = expectedRows * (expectedRows - 1) / 2;
            System.out.println("ROWS " + rows + " SUM " + sum + " MS " + ms + " MAXHEAP " + Runtime.getRuntime().maxMemory());
            if (rows != expectedRows || sum != expectedSum) {
                System.out.println("MISMATCH expected " + expectedRows + " rows summing to " + expectedSum);
                System.exit(1);
            }
        }
    }
}
