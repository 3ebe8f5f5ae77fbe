package org.shepherd.tpcc;

/**
 * The size of a TPC-C database. Standard warehouses follow TPC-C clause 4.3; small warehouses are the HRDB
 * paper's 1/6-size warehouses: 16,667 items (and stock rows per warehouse), 500 customers, 500 orders and
 * 150 undelivered (new) orders per district, i.e. every per-warehouse count divided by 6 (items rounded up,
 * the others exactly), 10 districts per warehouse as in the standard. W_YTD and D_YTD start at the sum of the
 * loaded payments (50,000.00 and 5,000.00 instead of 300,000.00 and 30,000.00) so that conditions 8 and 9 hold.
 */
public record Scale(int warehouses, boolean small) {

    public static final int DISTRICTS_PER_WAREHOUSE = 10;
    private static final int SMALL_DIVISOR = 6;
    private static final int STANDARD_ITEMS = 100_000;
    private static final int STANDARD_CUSTOMERS_PER_DISTRICT = 3_000;
    private static final int STANDARD_NEW_ORDERS_PER_DISTRICT = 900;
    private static final int LAST_NAME_SPACE = 1_000;

    public Scale {
        if (warehouses < 1) throw new IllegalArgumentException("--warehouses must be at least 1, was " + warehouses);
    }

    public int items() {
        return small ? (STANDARD_ITEMS + SMALL_DIVISOR - 1) / SMALL_DIVISOR : STANDARD_ITEMS;
    }

    public int customersPerDistrict() {
        return small ? STANDARD_CUSTOMERS_PER_DISTRICT / SMALL_DIVISOR : STANDARD_CUSTOMERS_PER_DISTRICT;
    }

    /** Orders loaded per district; equals the customers per district (one order per customer). */
    public int ordersPerDistrict() {
        return customersPerDistrict();
    }

    /** The last this many loaded orders of each district are undelivered and have a NEW_ORDER row. */
    public int newOrdersPerDistrict() {
        return small ? STANDARD_NEW_ORDERS_PER_DISTRICT / SMALL_DIVISOR : STANDARD_NEW_ORDERS_PER_DISTRICT;
    }

    /** Loaded orders with an id up to this one are delivered (carrier set). */
    public int lastDeliveredOrderId() {
        return ordersPerDistrict() - newOrdersPerDistrict();
    }

    /**
     * Upper bound of the last-name number used at run time. Customers 1..1000 of a district carry the names
     * 0..999; with fewer customers only names 0..customers-1 are sure to exist, so the run picks from those.
     */
    public int maxLastNameNumber() {
        return Math.min(LAST_NAME_SPACE, customersPerDistrict()) - 1;
    }
}
