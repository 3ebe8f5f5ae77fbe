package org.shepherd.orm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jooq.impl.DSL.constraint;
import static org.jooq.impl.DSL.count;
import static org.jooq.impl.DSL.exists;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.selectOne;
import static org.jooq.impl.DSL.sum;
import static org.jooq.impl.DSL.table;

import java.math.BigDecimal;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record1;
import org.jooq.Record3;
import org.jooq.Result;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.shepherd.jdbc.ShepherdDataSource;
import org.shepherd.server.ShepherdServer;

/**
 * An application on jOOQ (3.19, its SQL rendered for the primary's engine, as a jOOQ user configures it: DERBY, HSQLDB,
 * MARIADB or MYSQL), unchanged but for its JDBC URL, through a shepherd in mode cbs, over Derby, HSQLDB and MariaDB
 * primaries with Derby secondaries, and over three Derby and three MariaDB replicas: jOOQ's DDL (quoted lower-case
 * names, an identity key, DECIMAL money, a foreign key, an index), a multi-row INSERT asked for its keys, a join with
 * GROUP BY / HAVING, a page (LIMIT / OFFSET as each engine writes it), an UPDATE relative to the old value with an
 * EXISTS subquery, a batch, a transaction rolled back by an exception and one committed, a DELETE. Afterwards both
 * tables are equal on every replica and no replica answered differently.
 */
class JooqThroughShepherdTest {

    @RegisterExtension
    static final ShepherdOverReplicas REPLICAS = new ShepherdOverReplicas("jooq");

    private static final Table<Record> CUSTOMER = table(name("customer"));
    private static final Table<Record> PURCHASE = table(name("purchase"));
    private static final Field<Integer> ID = field(name("id"), SQLDataType.INTEGER);
    private static final Field<String> NAME = field(name("name"), SQLDataType.VARCHAR(40));
    private static final Field<BigDecimal> BALANCE = field(name("balance"), SQLDataType.DECIMAL(10, 2));
    private static final Field<Integer> CUSTOMER_ID = field(name("customer_id"), SQLDataType.INTEGER);
    private static final Field<Integer> THE_CUSTOMERS_ID = field(name("customer", "id"), SQLDataType.INTEGER);
    private static final Field<BigDecimal> AMOUNT = field(name("amount"), SQLDataType.DECIMAL(10, 2));

    @Test
    void overDerby() throws Exception {
        run(REPLICAS.derbyReplicas("r1"), SQLDialect.DERBY);
    }

    @Test
    void overHsqldb() throws Exception {
        run(REPLICAS.hsqldbPrimary(), SQLDialect.HSQLDB);
    }

    /** jOOQ's MARIADB dialect asks for keys with {@code INSERT ... RETURNING}, which the shepherd answers with them. */
    @Test
    void overMariaDbWithDerbySecondaries() throws Exception {
        run(REPLICAS.mariadbPrimary(), SQLDialect.MARIADB);
    }

    @Test
    void overMariaDb() throws Exception {
        run(REPLICAS.threeMariaDb(), SQLDialect.MYSQL);
    }

    private static void run(Map<String, String> set, SQLDialect dialect) throws Exception {
        try (ShepherdServer server = REPLICAS.start(set)) {
            ShepherdDataSource ds = ShepherdOverReplicas.dataSource(server);
            try (Connection c = ds.getConnection()) {
                program(DSL.using(c, dialect), dialect);
            }
            ShepherdOverReplicas.assertReplicasEqual(server, "customer", "purchase");
        }
    }

    private static void program(DSLContext db, SQLDialect dialect) {
        db.createTable(CUSTOMER)
                .column(ID, SQLDataType.INTEGER.identity(true))
                .column(NAME, SQLDataType.VARCHAR(40).nullable(false))
                .column(BALANCE, SQLDataType.DECIMAL(10, 2).nullable(false))
                .constraints(constraint("pk_customer").primaryKey(ID))
                .execute();
        db.createTable(PURCHASE)
                .column(ID, SQLDataType.INTEGER.identity(true))
                .column(CUSTOMER_ID, SQLDataType.INTEGER.nullable(false))
                .column(AMOUNT, SQLDataType.DECIMAL(10, 2).nullable(false))
                .constraints(constraint("pk_purchase").primaryKey(ID),
                        constraint("fk_purchase_customer").foreignKey(CUSTOMER_ID).references(CUSTOMER, ID))
                .execute();
        db.createIndex("ix_purchase_customer").on(PURCHASE, CUSTOMER_ID).execute();

        Result<Record1<Integer>> keys = db.insertInto(CUSTOMER, NAME, BALANCE)
                .values("ada", new BigDecimal("100.00"))
                .values("alan", new BigDecimal("50.50"))
                .values("grace", new BigDecimal("0.00"))
                .returningResult(ID).fetch();
        // without generated code (the identity column unknown to it) jOOQ learns the keys from HSQLDB, and through
        // MariaDB's RETURNING; from Derby and with the MYSQL dialect it gets none, directly either
        boolean learnsKeys = dialect == SQLDialect.HSQLDB || dialect == SQLDialect.MARIADB;
        assertThat(keys.getValues(ID)).isEqualTo(learnsKeys ? List.of(1, 2, 3) : List.of());
        if (dialect == SQLDialect.MARIADB) {
            // RETURNING another column than the generated key: refused before the INSERT runs
            assertThatThrownBy(() -> db.insertInto(CUSTOMER, NAME, BALANCE).values("eve", BigDecimal.TEN).returningResult(NAME)
                    .fetch()).hasRootCauseInstanceOf(java.sql.SQLFeatureNotSupportedException.class).hasMessageContaining("RETURNING");
            db.connection(c -> { // nor in a batch, where its rows would be lost
                try (java.sql.Statement st = c.createStatement()) {
                    st.addBatch("INSERT INTO customer (name, balance) VALUES ('eve', 1) RETURNING id");
                    assertThatThrownBy(st::executeBatch).hasMessageContaining("RETURNING");
                }
            });
            assertThat(db.fetchCount(CUSTOMER)).isEqualTo(3);
        }
        db.batch(db.insertInto(PURCHASE, CUSTOMER_ID, AMOUNT).values((Integer) null, (BigDecimal) null))
                .bind(1, new BigDecimal("10.00")).bind(1, new BigDecimal("15.25")).bind(2, new BigDecimal("7.75"))
                .bind(1, new BigDecimal("1.00"))
                .execute();

        Result<Record3<String, Integer, BigDecimal>> spent = db.select(NAME, count().as("purchases"), sum(AMOUNT).as("spent"))
                .from(CUSTOMER).join(PURCHASE).on(CUSTOMER_ID.eq(THE_CUSTOMERS_ID))
                .groupBy(NAME).having(count().gt(0)).orderBy(NAME).fetch();
        assertThat(spent).hasSize(2);
        assertThat(spent.get(0).value2()).isEqualTo(3);
        assertThat(spent.get(0).value3()).isEqualByComparingTo("26.25");
        assertThat(spent.get(1).get(NAME)).isEqualTo("alan");

        List<String> page = db.select(NAME).from(CUSTOMER).orderBy(NAME.desc()).limit(2).offset(1).fetch(NAME);
        assertThat(page).containsExactly("alan", "ada");

        // charge every customer who bought something: the new balance from the old one, in SQL
        int charged = db.update(CUSTOMER).set(BALANCE, BALANCE.minus(new BigDecimal("5.00")))
                .where(exists(selectOne().from(PURCHASE).where(CUSTOMER_ID.eq(THE_CUSTOMERS_ID)))).execute();
        assertThat(charged).isEqualTo(2);

        assertThatThrownBy(() -> db.transaction(tx -> {
            tx.dsl().insertInto(CUSTOMER, NAME, BALANCE).values("ghost", BigDecimal.ONE).execute();
            throw new IllegalStateException("changed my mind");
        })).hasMessageContaining("changed my mind");
        db.transaction(tx -> {
            tx.dsl().update(CUSTOMER).set(BALANCE, BALANCE.plus(new BigDecimal("20.00"))).where(NAME.eq("grace")).execute();
            tx.dsl().insertInto(PURCHASE, CUSTOMER_ID, AMOUNT).values(3, new BigDecimal("20.00")).execute();
        });
        assertThat(db.deleteFrom(PURCHASE).where(AMOUNT.lt(new BigDecimal("2.00"))).execute()).isEqualTo(1);

        assertThat(db.select(NAME, BALANCE).from(CUSTOMER).orderBy(ID).fetch().map(r -> r.get(NAME) + " "
                + r.get(BALANCE).setScale(2))).containsExactly("ada 95.00", "alan 45.50", "grace 20.00");
        assertThat(db.fetchCount(PURCHASE)).isEqualTo(4);
    }
}
