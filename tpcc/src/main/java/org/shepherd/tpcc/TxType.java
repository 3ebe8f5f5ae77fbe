package org.shepherd.tpcc;

import java.util.List;

/** The five TPC-C transactions and their share of the mix in percent (clause 5.2.3 minimums, rest New-Order). */
public enum TxType {
    NEW_ORDER("NewOrder", 45, true),
    PAYMENT("Payment", 43, true),
    ORDER_STATUS("OrderStatus", 4, false),
    DELIVERY("Delivery", 4, true),
    STOCK_LEVEL("StockLevel", 4, false);

    public static final List<TxType> ALL = List.of(values());
    private static final int TOTAL_WEIGHT = 100;

    private final String label;
    private final int weightPercent;
    private final boolean writes;

    TxType(String label, int weightPercent, boolean writes) {
        this.label = label;
        this.weightPercent = weightPercent;
        this.writes = writes;
    }

    /** False for the read-only ones (Order-Status, Stock-Level): whether or not their COMMIT took, nothing changed. */
    public boolean writes() {
        return writes;
    }

    public String label() {
        return label;
    }

    /** Draws the next transaction type from the mix. */
    public static TxType next(TpccRandom r) {
        int x = r.uniform(1, TOTAL_WEIGHT);
        for (TxType t : ALL) {
            if (x <= t.weightPercent) return t;
            x -= t.weightPercent;
        }
        throw new IllegalStateException("transaction mix weights do not add up to " + TOTAL_WEIGHT);
    }
}
