package org.shepherd.tpcc;

import java.util.List;
import java.util.Map;

/**
 * Every SQL statement the TPC-C loader, driver and checker send, in one place. All of it is portable SQL with
 * {@code ?} parameters: standard types, composite primary keys, no vendor syntax, no NOW(), no FETCH FIRST.
 * Only the CREATE TABLE statements vary by {@link Dialect} (timestamp type and MySQL's table suffix).
 *
 * <p>Money is DECIMAL and changed relatively ({@code SET w_ytd = w_ytd + ?}); a row that a transaction reads
 * and then changes is updated first and read afterwards, so the update's row lock orders concurrent
 * transactions under any isolation level and no {@code SELECT ... FOR UPDATE} is needed. Every multi-row read
 * has an ORDER BY on a key.
 */
public final class TpccSql {

    /** The nine TPC-C tables, children before parents (the order to drop them in). */
    public static final List<String> TABLES = List.of(
        "order_line", "new_order", "orders", "history", "customer", "district", "stock", "item", "warehouse");

    // ---- New-Order (TPC-C clause 2.4) ----
    public static final String NEW_ORDER_WAREHOUSE_TAX = "SELECT w_tax FROM warehouse WHERE w_id = ?";
    public static final String NEW_ORDER_DISTRICT_NEXT_ID =
        "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?";
    /** Read after {@link #NEW_ORDER_DISTRICT_NEXT_ID}: this order's id is {@code d_next_o_id - 1}. */
    public static final String NEW_ORDER_DISTRICT =
        "SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?";
    public static final String NEW_ORDER_CUSTOMER =
        "SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    public static final String NEW_ORDER_INSERT_ORDER =
        "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)"
            + " VALUES (?, ?, ?, ?, ?, NULL, ?, ?)";
    public static final String NEW_ORDER_INSERT_NEW_ORDER =
        "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)";
    /** No row for the unused item id: the 1% of New-Order transactions that roll back. */
    public static final String NEW_ORDER_ITEM = "SELECT i_price, i_name, i_data FROM item WHERE i_id = ?";
    /** Parameters: ol_quantity + 10, ol_quantity, ol_quantity (the +91 refill), ol_quantity, remote 0|1, w, i. */
    public static final String NEW_ORDER_STOCK_UPDATE =
        "UPDATE stock SET s_quantity = CASE WHEN s_quantity >= ? THEN s_quantity - ? ELSE s_quantity - ? + 91 END,"
            + " s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ?"
            + " WHERE s_w_id = ? AND s_i_id = ?";
    public static final String NEW_ORDER_STOCK =
        "SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07,"
            + " s_dist_08, s_dist_09, s_dist_10 FROM stock WHERE s_w_id = ? AND s_i_id = ?";
    public static final String NEW_ORDER_INSERT_ORDER_LINE =
        "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,"
            + " ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)";

    // ---- Payment (clause 2.5) ----
    public static final String PAYMENT_WAREHOUSE_YTD = "UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?";
    public static final String PAYMENT_WAREHOUSE =
        "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = ?";
    public static final String PAYMENT_DISTRICT_YTD =
        "UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?";
    public static final String PAYMENT_DISTRICT =
        "SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE d_w_id = ? AND d_id = ?";
    /** The customer is the one at position ceil(n/2) of this list (clause 2.5.2.2). */
    public static final String CUSTOMER_IDS_BY_LAST_NAME =
        "SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first, c_id";
    public static final String PAYMENT_CUSTOMER_BALANCE =
        "UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?,"
            + " c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    public static final String PAYMENT_CUSTOMER =
        "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since,"
            + " c_credit, c_credit_lim, c_discount, c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    public static final String PAYMENT_CUSTOMER_DATA =
        "SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    public static final String PAYMENT_CUSTOMER_DATA_UPDATE =
        "UPDATE customer SET c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    public static final String PAYMENT_INSERT_HISTORY =
        "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

    // ---- Order-Status (clause 2.6) ----
    public static final String ORDER_STATUS_CUSTOMERS_BY_LAST_NAME =
        "SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first, c_id";
    public static final String ORDER_STATUS_CUSTOMER =
        "SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    public static final String ORDER_STATUS_LAST_ORDER_ID =
        "SELECT MAX(o_id) FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ?";
    public static final String ORDER_STATUS_ORDER =
        "SELECT o_entry_d, o_carrier_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?";
    public static final String ORDER_STATUS_ORDER_LINES =
        "SELECT ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line"
            + " WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ? ORDER BY ol_number";

    // ---- Delivery (clause 2.7) ----
    public static final String DELIVERY_OLDEST_NEW_ORDER =
        "SELECT MIN(no_o_id) FROM new_order WHERE no_w_id = ? AND no_d_id = ?";
    /** Deletes nothing when a concurrent Delivery took the order first; the driver then retries. */
    public static final String DELIVERY_DELETE_NEW_ORDER =
        "DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?";
    public static final String DELIVERY_ORDER_CUSTOMER =
        "SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?";
    public static final String DELIVERY_ORDER_CARRIER =
        "UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?";
    public static final String DELIVERY_ORDER_LINES_DELIVERED =
        "UPDATE order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?";
    public static final String DELIVERY_ORDER_TOTAL =
        "SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?";
    public static final String DELIVERY_CUSTOMER_BALANCE =
        "UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";

    // ---- Stock-Level (clause 2.8) ----
    public static final String STOCK_LEVEL_NEXT_ORDER_ID =
        "SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?";
    /** Parameters: w, d, first order id (next - 20), next order id, w, threshold. */
    public static final String STOCK_LEVEL_LOW_STOCK =
        "SELECT COUNT(DISTINCT s_i_id) FROM order_line JOIN stock ON s_i_id = ol_i_id"
            + " WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id >= ? AND ol_o_id < ? AND s_w_id = ? AND s_quantity < ?";

    // ---- Loader (clause 4.3.3.1) ----
    public static final String LOAD_ITEM =
        "INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES (?, ?, ?, ?, ?)";
    public static final String LOAD_WAREHOUSE =
        "INSERT INTO warehouse (w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, w_tax, w_ytd)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
    public static final String LOAD_STOCK =
        "INSERT INTO stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05,"
            + " s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, s_remote_cnt, s_data)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    public static final String LOAD_DISTRICT =
        "INSERT INTO district (d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, d_state, d_zip, d_tax, d_ytd,"
            + " d_next_o_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    public static final String LOAD_CUSTOMER =
        "INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city,"
            + " c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment,"
            + " c_payment_cnt, c_delivery_cnt, c_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    public static final String LOAD_HISTORY = PAYMENT_INSERT_HISTORY;
    public static final String LOAD_ORDER =
        "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    public static final String LOAD_ORDER_LINE =
        "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,"
            + " ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    public static final String LOAD_NEW_ORDER = NEW_ORDER_INSERT_NEW_ORDER;

    // ---- Checker: consistency conditions (clause 3.3.2); every result ordered by its group key ----
    public static final String CHECK_WAREHOUSE_YTD = "SELECT w_id, w_ytd FROM warehouse ORDER BY w_id";
    public static final String CHECK_DISTRICT_YTD_SUM =
        "SELECT d_w_id, SUM(d_ytd) FROM district GROUP BY d_w_id ORDER BY d_w_id";
    public static final String CHECK_DISTRICTS =
        "SELECT d_w_id, d_id, d_next_o_id, d_ytd FROM district ORDER BY d_w_id, d_id";
    public static final String CHECK_ORDERS_PER_DISTRICT =
        "SELECT o_w_id, o_d_id, MAX(o_id), COUNT(*), SUM(o_ol_cnt) FROM orders GROUP BY o_w_id, o_d_id"
            + " ORDER BY o_w_id, o_d_id";
    public static final String CHECK_NEW_ORDERS_PER_DISTRICT =
        "SELECT no_w_id, no_d_id, MAX(no_o_id), MIN(no_o_id), COUNT(*) FROM new_order GROUP BY no_w_id, no_d_id"
            + " ORDER BY no_w_id, no_d_id";
    public static final String CHECK_ORDER_LINES_PER_DISTRICT =
        "SELECT ol_w_id, ol_d_id, COUNT(*) FROM order_line GROUP BY ol_w_id, ol_d_id ORDER BY ol_w_id, ol_d_id";
    /** Condition 5 violations: carrier set while a NEW_ORDER row exists, or unset without one. */
    public static final String CHECK_CARRIER_VS_NEW_ORDER =
        "SELECT o_w_id, o_d_id, o_id FROM orders LEFT JOIN new_order"
            + " ON no_w_id = o_w_id AND no_d_id = o_d_id AND no_o_id = o_id"
            + " WHERE (o_carrier_id IS NULL AND no_o_id IS NULL) OR (o_carrier_id IS NOT NULL AND no_o_id IS NOT NULL)"
            + " ORDER BY o_w_id, o_d_id, o_id";
    public static final String CHECK_ORDER_LINE_COUNTS_OF_WAREHOUSE =
        "SELECT o_d_id, o_id, o_ol_cnt FROM orders WHERE o_w_id = ? ORDER BY o_d_id, o_id";
    public static final String CHECK_ORDER_LINES_PER_ORDER_OF_WAREHOUSE =
        "SELECT ol_d_id, ol_o_id, COUNT(*) FROM order_line WHERE ol_w_id = ? GROUP BY ol_d_id, ol_o_id"
            + " ORDER BY ol_d_id, ol_o_id";
    /** Condition 7 violations: delivery date set iff the order's carrier is set. */
    public static final String CHECK_DELIVERY_VS_CARRIER =
        "SELECT ol_w_id, ol_d_id, ol_o_id, ol_number FROM order_line JOIN orders"
            + " ON o_w_id = ol_w_id AND o_d_id = ol_d_id AND o_id = ol_o_id"
            + " WHERE (ol_delivery_d IS NULL AND o_carrier_id IS NOT NULL)"
            + " OR (ol_delivery_d IS NOT NULL AND o_carrier_id IS NULL)"
            + " ORDER BY ol_w_id, ol_d_id, ol_o_id, ol_number";
    public static final String CHECK_HISTORY_PER_WAREHOUSE =
        "SELECT h_w_id, SUM(h_amount) FROM history GROUP BY h_w_id ORDER BY h_w_id";
    public static final String CHECK_HISTORY_PER_DISTRICT =
        "SELECT h_w_id, h_d_id, SUM(h_amount) FROM history GROUP BY h_w_id, h_d_id ORDER BY h_w_id, h_d_id";
    public static final String CHECK_CUSTOMERS_OF_WAREHOUSE =
        "SELECT c_d_id, c_id, c_balance, c_ytd_payment FROM customer WHERE c_w_id = ? ORDER BY c_d_id, c_id";
    public static final String CHECK_DELIVERED_PER_CUSTOMER_OF_WAREHOUSE =
        "SELECT o_d_id, o_c_id, SUM(ol_amount) FROM orders JOIN order_line"
            + " ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id"
            + " WHERE o_w_id = ? AND ol_delivery_d IS NOT NULL GROUP BY o_d_id, o_c_id ORDER BY o_d_id, o_c_id";
    public static final String CHECK_PAID_PER_CUSTOMER_OF_WAREHOUSE =
        "SELECT h_c_d_id, h_c_id, SUM(h_amount) FROM history WHERE h_c_w_id = ? GROUP BY h_c_d_id, h_c_id"
            + " ORDER BY h_c_d_id, h_c_id";
    public static final String COUNT_WAREHOUSES = "SELECT COUNT(*) FROM warehouse";
    public static final String COUNT_ITEMS = "SELECT COUNT(*) FROM item";

    // ---- NewOrderLedger: the orders the driver placed, read back from a district from the lowest id on ----
    public static final String LEDGER_ORDERS =
        "SELECT o_id, o_c_id, o_ol_cnt FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id >= ? ORDER BY o_id";
    public static final String LEDGER_ORDER_LINES =
        "SELECT ol_o_id, ol_i_id, ol_supply_w_id, ol_quantity FROM order_line WHERE ol_w_id = ? AND ol_d_id = ?"
            + " AND ol_o_id >= ? ORDER BY ol_o_id, ol_number";

    private TpccSql() {
    }

    /** A total order for each table's rows: its primary key, or every column for HISTORY, which has none. */
    private static final Map<String, String> ROW_ORDER = Map.of(
        "warehouse", "w_id",
        "district", "d_w_id, d_id",
        "customer", "c_w_id, c_d_id, c_id",
        "history", "h_w_id, h_d_id, h_c_w_id, h_c_d_id, h_c_id, h_date, h_amount, h_data",
        "new_order", "no_w_id, no_d_id, no_o_id",
        "orders", "o_w_id, o_d_id, o_id",
        "order_line", "ol_w_id, ol_d_id, ol_o_id, ol_number",
        "item", "i_id",
        "stock", "s_w_id, s_i_id");

    /** Every row of a table in a total order, for the digest (which itself does not depend on row order). */
    public static String selectAll(String table) {
        if (!TABLES.contains(table)) throw new IllegalArgumentException("not a TPC-C table: " + table);
        return "SELECT * FROM " + table + " ORDER BY " + ROW_ORDER.get(table);
    }

    public static String dropTable(String table) {
        if (!TABLES.contains(table)) throw new IllegalArgumentException("not a TPC-C table: " + table);
        return "DROP TABLE " + table;
    }

    /** CREATE TABLE and CREATE INDEX statements, parents first. */
    public static List<String> createSchema(Dialect dialect) {
        String ts = dialect.timestampType();
        String end = ")" + dialect.tableSuffix();
        return List.of(
            "CREATE TABLE warehouse (w_id INTEGER NOT NULL, w_name VARCHAR(10), w_street_1 VARCHAR(20),"
                + " w_street_2 VARCHAR(20), w_city VARCHAR(20), w_state CHAR(2), w_zip CHAR(9), w_tax DECIMAL(4,4),"
                + " w_ytd DECIMAL(12,2), PRIMARY KEY (w_id)" + end,
            "CREATE TABLE item (i_id INTEGER NOT NULL, i_im_id INTEGER, i_name VARCHAR(24), i_price DECIMAL(5,2),"
                + " i_data VARCHAR(50), PRIMARY KEY (i_id)" + end,
            "CREATE TABLE stock (s_i_id INTEGER NOT NULL, s_w_id INTEGER NOT NULL, s_quantity INTEGER,"
                + " s_dist_01 CHAR(24), s_dist_02 CHAR(24), s_dist_03 CHAR(24), s_dist_04 CHAR(24), s_dist_05 CHAR(24),"
                + " s_dist_06 CHAR(24), s_dist_07 CHAR(24), s_dist_08 CHAR(24), s_dist_09 CHAR(24), s_dist_10 CHAR(24),"
                + " s_ytd INTEGER, s_order_cnt INTEGER, s_remote_cnt INTEGER, s_data VARCHAR(50),"
                + " PRIMARY KEY (s_w_id, s_i_id)" + end,
            "CREATE TABLE district (d_id INTEGER NOT NULL, d_w_id INTEGER NOT NULL, d_name VARCHAR(10),"
                + " d_street_1 VARCHAR(20), d_street_2 VARCHAR(20), d_city VARCHAR(20), d_state CHAR(2), d_zip CHAR(9),"
                + " d_tax DECIMAL(4,4), d_ytd DECIMAL(12,2), d_next_o_id INTEGER, PRIMARY KEY (d_w_id, d_id)" + end,
            "CREATE TABLE customer (c_id INTEGER NOT NULL, c_d_id INTEGER NOT NULL, c_w_id INTEGER NOT NULL,"
                + " c_first VARCHAR(16), c_middle CHAR(2), c_last VARCHAR(16), c_street_1 VARCHAR(20),"
                + " c_street_2 VARCHAR(20), c_city VARCHAR(20), c_state CHAR(2), c_zip CHAR(9), c_phone CHAR(16),"
                + " c_since " + ts + ", c_credit CHAR(2), c_credit_lim DECIMAL(12,2), c_discount DECIMAL(4,4),"
                + " c_balance DECIMAL(12,2), c_ytd_payment DECIMAL(12,2), c_payment_cnt INTEGER, c_delivery_cnt INTEGER,"
                + " c_data VARCHAR(500), PRIMARY KEY (c_w_id, c_d_id, c_id)" + end,
            "CREATE INDEX customer_name ON customer (c_w_id, c_d_id, c_last, c_first)",
            "CREATE TABLE history (h_c_id INTEGER, h_c_d_id INTEGER, h_c_w_id INTEGER, h_d_id INTEGER,"
                + " h_w_id INTEGER, h_date " + ts + ", h_amount DECIMAL(6,2), h_data VARCHAR(24)" + end,
            "CREATE TABLE orders (o_id INTEGER NOT NULL, o_d_id INTEGER NOT NULL, o_w_id INTEGER NOT NULL,"
                + " o_c_id INTEGER, o_entry_d " + ts + ", o_carrier_id INTEGER, o_ol_cnt INTEGER, o_all_local INTEGER,"
                + " PRIMARY KEY (o_w_id, o_d_id, o_id)" + end,
            "CREATE INDEX orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id)",
            "CREATE TABLE new_order (no_o_id INTEGER NOT NULL, no_d_id INTEGER NOT NULL, no_w_id INTEGER NOT NULL,"
                + " PRIMARY KEY (no_w_id, no_d_id, no_o_id)" + end,
            "CREATE TABLE order_line (ol_o_id INTEGER NOT NULL, ol_d_id INTEGER NOT NULL, ol_w_id INTEGER NOT NULL,"
                + " ol_number INTEGER NOT NULL, ol_i_id INTEGER, ol_supply_w_id INTEGER, ol_delivery_d " + ts + ","
                + " ol_quantity INTEGER, ol_amount DECIMAL(6,2), ol_dist_info CHAR(24),"
                + " PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)" + end);
    }
}
