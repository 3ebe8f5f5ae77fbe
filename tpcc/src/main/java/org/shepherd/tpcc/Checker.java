package org.shepherd.tpcc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The consistency conditions of TPC-C clause 3.3.2, each checked with portable SQL and compared exactly. */
public final class Checker {

    /** PASS and FAIL are results; SKIP is condition 11 outside the moment right after the load. */
    public enum Status { PASS, FAIL, SKIP }

    /** The result of one condition; {@code detail} names the first violations or what was checked. */
    public record Condition(int number, String rule, Status status, String detail) {
    }

    private static final int VIOLATIONS_SHOWN = 3;

    private final Connection connection;
    private final Scale scale;

    public Checker(Connection connection, Scale scale) {
        this.connection = connection;
        this.scale = scale;
    }

    /** All 12 conditions; condition 11 is evaluated only when {@code rightAfterLoad}. */
    public List<Condition> checkAll(boolean rightAfterLoad) throws SQLException {
        Map<Key, BigDecimal> warehouseYtd = numbers(TpccSql.CHECK_WAREHOUSE_YTD, 1);
        Map<Key, BigDecimal> districtYtdSum = numbers(TpccSql.CHECK_DISTRICT_YTD_SUM, 1);
        Map<Key, Object[]> districts = rows(TpccSql.CHECK_DISTRICTS, 2);
        Map<Key, Object[]> orders = rows(TpccSql.CHECK_ORDERS_PER_DISTRICT, 2);
        Map<Key, Object[]> newOrders = rows(TpccSql.CHECK_NEW_ORDERS_PER_DISTRICT, 2);
        Map<Key, BigDecimal> orderLines = numbers(TpccSql.CHECK_ORDER_LINES_PER_DISTRICT, 2);
        Map<Key, BigDecimal> historyPerWarehouse = numbers(TpccSql.CHECK_HISTORY_PER_WAREHOUSE, 1);
        Map<Key, BigDecimal> historyPerDistrict = numbers(TpccSql.CHECK_HISTORY_PER_DISTRICT, 2);

        List<Condition> result = new ArrayList<>();
        result.add(compare(1, "W_YTD = sum(D_YTD) for each warehouse", warehouseYtd, districtYtdSum, "warehouses"));

        Violations v2 = new Violations();
        Violations v3 = new Violations();
        for (Map.Entry<Key, Object[]> e : districts.entrySet()) {
            BigDecimal nextMinusOne = ((BigDecimal) e.getValue()[0]).subtract(BigDecimal.ONE);
            Object[] o = orders.get(e.getKey());
            Object[] no = newOrders.get(e.getKey());
            BigDecimal maxOrder = o == null ? null : (BigDecimal) o[0];
            BigDecimal maxNewOrder = no == null ? null : (BigDecimal) no[0];
            if (!same(nextMinusOne, maxOrder) || (no != null && !same(nextMinusOne, maxNewOrder))) {
                v2.add(e.getKey() + ": D_NEXT_O_ID-1=" + plain(nextMinusOne) + " max(O_ID)=" + plain(maxOrder)
                    + " max(NO_O_ID)=" + plain(maxNewOrder));
            }
            if (no != null) {
                BigDecimal span = ((BigDecimal) no[0]).subtract((BigDecimal) no[1]).add(BigDecimal.ONE);
                if (!same(span, (BigDecimal) no[2])) {
                    v3.add(e.getKey() + ": max-min+1=" + plain(span) + " count=" + plain((BigDecimal) no[2]));
                }
            }
        }
        result.add(v2.condition(2, "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) for each district",
            districts.size() + " districts"));
        result.add(v3.condition(3, "max(NO_O_ID) - min(NO_O_ID) + 1 = count of NEW_ORDER rows for each district",
            newOrders.size() + " districts with new orders"));

        Map<Key, BigDecimal> olCntSum = new LinkedHashMap<>();
        orders.forEach((k, o) -> olCntSum.put(k, (BigDecimal) o[2]));
        result.add(compare(4, "sum(O_OL_CNT) = count of ORDER_LINE rows for each district", olCntSum, orderLines,
            "districts"));

        result.add(listed(5, "O_CARRIER_ID is null iff the order has a NEW_ORDER row", TpccSql.CHECK_CARRIER_VS_NEW_ORDER,
            "orders"));
        result.add(orderLineCounts());
        result.add(listed(7, "OL_DELIVERY_D is null iff O_CARRIER_ID is null", TpccSql.CHECK_DELIVERY_VS_CARRIER,
            "order lines"));
        result.add(compare(8, "W_YTD = sum(H_AMOUNT) for each warehouse", warehouseYtd, historyPerWarehouse,
            "warehouses"));
        Map<Key, BigDecimal> districtYtd = new LinkedHashMap<>();
        districts.forEach((k, d) -> districtYtd.put(k, (BigDecimal) d[1]));
        result.add(compare(9, "D_YTD = sum(H_AMOUNT) for each district", districtYtd, historyPerDistrict, "districts"));

        List<Condition> customerConditions = customerBalances();
        result.add(customerConditions.get(0));
        result.add(afterLoad(rightAfterLoad, orders, newOrders));
        result.add(customerConditions.get(1));
        return result;
    }

    private Condition afterLoad(boolean rightAfterLoad, Map<Key, Object[]> orders, Map<Key, Object[]> newOrders) {
        int expected = scale.lastDeliveredOrderId();
        String rule = "count(ORDERS) - count(NEW_ORDER) = " + expected + " for each district";
        if (!rightAfterLoad) {
            return new Condition(11, rule, Status.SKIP,
                "holds only right after the load (run check --after-load then); transactions change it");
        }
        Violations v = new Violations();
        for (Map.Entry<Key, Object[]> e : orders.entrySet()) {
            BigDecimal count = (BigDecimal) e.getValue()[1];
            Object[] no = newOrders.get(e.getKey());
            BigDecimal diff = count.subtract(no == null ? BigDecimal.ZERO : (BigDecimal) no[2]);
            if (diff.compareTo(BigDecimal.valueOf(expected)) != 0) v.add(e.getKey() + ": " + plain(diff));
        }
        return v.condition(11, rule, orders.size() + " districts");
    }

    private Condition orderLineCounts() throws SQLException {
        Violations v = new Violations();
        long checked = 0;
        for (int w : warehouseIds()) {
            Map<Key, BigDecimal> declared = numbers(TpccSql.CHECK_ORDER_LINE_COUNTS_OF_WAREHOUSE, 2, w);
            Map<Key, BigDecimal> actual = numbers(TpccSql.CHECK_ORDER_LINES_PER_ORDER_OF_WAREHOUSE, 2, w);
            checked += declared.size();
            for (Map.Entry<Key, BigDecimal> e : declared.entrySet()) {
                BigDecimal lines = actual.getOrDefault(e.getKey(), BigDecimal.ZERO);
                if (!same(e.getValue(), lines)) {
                    v.add("order " + w + "/" + e.getKey() + ": O_OL_CNT=" + plain(e.getValue()) + " lines=" + plain(lines));
                }
            }
        }
        return v.condition(6, "O_OL_CNT = count of its ORDER_LINE rows for each order", checked + " orders");
    }

    /** Conditions 10 and 12, which compare each customer with its delivered order lines and its payments. */
    private List<Condition> customerBalances() throws SQLException {
        Violations v10 = new Violations();
        Violations v12 = new Violations();
        long checked = 0;
        for (int w : warehouseIds()) {
            Map<Key, Object[]> customers = rows(TpccSql.CHECK_CUSTOMERS_OF_WAREHOUSE, 2, w);
            Map<Key, BigDecimal> delivered = numbers(TpccSql.CHECK_DELIVERED_PER_CUSTOMER_OF_WAREHOUSE, 2, w);
            Map<Key, BigDecimal> paid = numbers(TpccSql.CHECK_PAID_PER_CUSTOMER_OF_WAREHOUSE, 2, w);
            checked += customers.size();
            for (Map.Entry<Key, Object[]> e : customers.entrySet()) {
                BigDecimal balance = (BigDecimal) e.getValue()[0];
                BigDecimal ytdPayment = (BigDecimal) e.getValue()[1];
                BigDecimal deliveredSum = delivered.getOrDefault(e.getKey(), BigDecimal.ZERO);
                BigDecimal paidSum = paid.getOrDefault(e.getKey(), BigDecimal.ZERO);
                String who = "customer " + w + "/" + e.getKey();
                if (!same(balance, deliveredSum.subtract(paidSum))) {
                    v10.add(who + ": C_BALANCE=" + plain(balance) + " delivered-paid=" + plain(deliveredSum.subtract(paidSum)));
                }
                if (!same(balance.add(ytdPayment), deliveredSum)) {
                    v12.add(who + ": C_BALANCE+C_YTD_PAYMENT=" + plain(balance.add(ytdPayment)) + " delivered="
                        + plain(deliveredSum));
                }
            }
        }
        return List.of(
            v10.condition(10, "C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT) for each customer", checked + " customers"),
            v12.condition(12, "C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT) for each customer",
                checked + " customers"));
    }

    private List<Integer> warehouseIds() throws SQLException {
        List<Integer> ids = new ArrayList<>();
        for (Key k : numbers(TpccSql.CHECK_WAREHOUSE_YTD, 1).keySet()) ids.add(k.a);
        return ids;
    }

    private Condition compare(int number, String rule, Map<Key, BigDecimal> left, Map<Key, BigDecimal> right,
                              String what) {
        Violations v = new Violations();
        Map<Key, BigDecimal> all = new LinkedHashMap<>(left);
        right.forEach(all::putIfAbsent);
        for (Key k : all.keySet()) {
            BigDecimal l = left.get(k);
            BigDecimal r = right.get(k);
            if (!same(l, r)) v.add(k + ": " + plain(l) + " vs " + plain(r));
        }
        return v.condition(number, rule, all.size() + " " + what);
    }

    private Condition listed(int number, String rule, String violationsQuery, String what) throws SQLException {
        Violations v = new Violations();
        try (PreparedStatement ps = connection.prepareStatement(violationsQuery); ResultSet rs = ps.executeQuery()) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder key = new StringBuilder();
                for (int i = 1; i <= columns; i++) key.append(i == 1 ? "" : "/").append(rs.getInt(i));
                v.add(key.toString());
            }
        }
        return v.condition(number, rule, "all " + what);
    }

    /** Rows keyed by their first {@code keyColumns} integer columns, the rest read as BigDecimal. */
    private Map<Key, Object[]> rows(String sql, int keyColumns, Object... params) throws SQLException {
        Map<Key, Object[]> result = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) ps.setObject(i + 1, params[i]);
            try (ResultSet rs = ps.executeQuery()) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    int[] key = new int[3];
                    for (int i = 0; i < keyColumns; i++) key[i] = rs.getInt(i + 1);
                    Object[] values = new Object[columns - keyColumns];
                    for (int i = keyColumns; i < columns; i++) values[i - keyColumns] = rs.getBigDecimal(i + 1);
                    result.put(new Key(key[0], key[1], key[2], keyColumns), values);
                }
            }
        }
        return result;
    }

    private Map<Key, BigDecimal> numbers(String sql, int keyColumns, Object... params) throws SQLException {
        Map<Key, BigDecimal> result = new HashMap<>();
        rows(sql, keyColumns, params).forEach((k, v) -> result.put(k, (BigDecimal) v[0]));
        return result;
    }

    private static boolean same(BigDecimal a, BigDecimal b) {
        if (a == null || b == null) return Objects.equals(a, b);
        return a.compareTo(b) == 0;
    }

    private static String plain(BigDecimal v) {
        return v == null ? "none" : Digest.canonicalNumber(v);
    }

    private record Key(int a, int b, int c, int size) {
        @Override
        public String toString() {
            return size == 1 ? Integer.toString(a) : size == 2 ? a + "/" + b : a + "/" + b + "/" + c;
        }
    }

    private static final class Violations {
        private final List<String> shown = new ArrayList<>();
        private long count;

        void add(String violation) {
            if (shown.size() < VIOLATIONS_SHOWN) shown.add(violation);
            count++;
        }

        Condition condition(int number, String rule, String checked) {
            if (count == 0) return new Condition(number, rule, Status.PASS, checked);
            return new Condition(number, rule, Status.FAIL,
                count + " violation(s), e.g. " + String.join("; ", shown));
        }
    }
}
