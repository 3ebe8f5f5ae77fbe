package org.shepherd.tpcc;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The input of one transaction, drawn from a terminal's random stream before it runs, so that a retry runs
 * the very same transaction and two configurations with the same seed run the same sequence.
 */
public sealed interface TxInput {

    TxType type();

    /** One order line; lines are sorted by (supply warehouse, item) so stock rows are locked in one order. */
    record OrderLine(int itemId, int supplyWarehouse, int quantity) {
    }

    record NewOrder(int warehouse, int district, int customer, List<OrderLine> lines) implements TxInput {
        public NewOrder {
            lines = List.copyOf(lines);
        }

        public TxType type() {
            return TxType.NEW_ORDER;
        }

        public boolean allLocal() {
            return lines.stream().allMatch(l -> l.supplyWarehouse() == warehouse);
        }
    }

    /** {@code customerId} is null when the customer is chosen by {@code customerLastName}. */
    record Payment(int warehouse, int district, int customerWarehouse, int customerDistrict, Integer customerId,
                   String customerLastName, BigDecimal amount) implements TxInput {
        public TxType type() {
            return TxType.PAYMENT;
        }
    }

    record OrderStatus(int warehouse, int district, Integer customerId, String customerLastName) implements TxInput {
        public TxType type() {
            return TxType.ORDER_STATUS;
        }
    }

    record Delivery(int warehouse, int carrier) implements TxInput {
        public TxType type() {
            return TxType.DELIVERY;
        }
    }

    record StockLevel(int warehouse, int district, int threshold) implements TxInput {
        public TxType type() {
            return TxType.STOCK_LEVEL;
        }
    }

    /** Draws the input of a transaction of {@code type} for a terminal (clauses 2.4.1, 2.5.1, 2.6.1, 2.7.1, 2.8.1). */
    static TxInput draw(TxType type, TpccRandom r, Scale scale, int homeWarehouse, int stockLevelDistrict) {
        switch (type) {
            case NEW_ORDER: {
                int district = r.uniform(1, Scale.DISTRICTS_PER_WAREHOUSE);
                int customer = r.customerId(scale);
                int count = r.uniform(5, 15);
                boolean rollback = r.uniform(1, 100) == 1;
                OrderLine[] lines = new OrderLine[count];
                for (int i = 0; i < count; i++) {
                    int item = rollback && i == count - 1 ? scale.items() + 1 : r.itemId(scale);
                    int supply = homeWarehouse;
                    if (scale.warehouses() > 1 && r.uniform(1, 100) == 1) supply = otherWarehouse(r, scale, homeWarehouse);
                    lines[i] = new OrderLine(item, supply, r.uniform(1, 10));
                }
                Arrays.sort(lines, Comparator.comparingInt(OrderLine::supplyWarehouse).thenComparingInt(OrderLine::itemId));
                return new NewOrder(homeWarehouse, district, customer, Arrays.asList(lines));
            }
            case PAYMENT: {
                int district = r.uniform(1, Scale.DISTRICTS_PER_WAREHOUSE);
                int customerWarehouse = homeWarehouse;
                int customerDistrict = district;
                if (scale.warehouses() > 1 && r.uniform(1, 100) > 85) {
                    customerWarehouse = otherWarehouse(r, scale, homeWarehouse);
                    customerDistrict = r.uniform(1, Scale.DISTRICTS_PER_WAREHOUSE);
                }
                boolean byName = r.uniform(1, 100) <= 60;
                Integer id = byName ? null : r.customerId(scale);
                String last = byName ? r.customerLastName(scale) : null;
                return new Payment(homeWarehouse, district, customerWarehouse, customerDistrict, id, last,
                    r.decimal(100, 500_000, 2));
            }
            case ORDER_STATUS: {
                int district = r.uniform(1, Scale.DISTRICTS_PER_WAREHOUSE);
                boolean byName = r.uniform(1, 100) <= 60;
                Integer id = byName ? null : r.customerId(scale);
                String last = byName ? r.customerLastName(scale) : null;
                return new OrderStatus(homeWarehouse, district, id, last);
            }
            case DELIVERY:
                return new Delivery(homeWarehouse, r.uniform(1, 10));
            case STOCK_LEVEL:
                return new StockLevel(homeWarehouse, stockLevelDistrict, r.uniform(10, 20));
            default:
                throw new IllegalArgumentException("unknown transaction type " + type);
        }
    }

    private static int otherWarehouse(TpccRandom r, Scale scale, int home) {
        int other = r.uniform(1, scale.warehouses() - 1);
        return other >= home ? other + 1 : other;
    }
}
