package org.shepherd.orm;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.Map;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.shepherd.jdbc.ShepherdDataSource;
import org.shepherd.server.ShepherdServer;

/**
 * Schema changes with Liquibase, unchanged, through a shepherd in mode cbs: Liquibase picks its SQL by the product the
 * driver reports, takes its lock (a row of DATABASECHANGELOGLOCK), applies a changelog of five change sets (a table
 * with an identity key and a clock default, an index, rows, an added column and an update, that column renamed and made
 * NOT NULL, a table renamed, the column retyped and given a default: Liquibase writes MySQL's CHANGE, MODIFY and
 * {@code ALTER TABLE s.t RENAME s.u} for a MariaDB primary, which Derby secondaries run in their words, MODIFY as a
 * statement per part, and Derby's RENAME COLUMN t.c, ALTER COLUMN c NOT NULL and RENAME TABLE for a Derby primary),
 * records them in
 * DATABASECHANGELOG, and finds nothing left to run afterwards. Every table is then equal on every replica and no
 * replica answered differently.
 */
class LiquibaseThroughShepherdTest {

    @RegisterExtension
    static final ShepherdOverReplicas REPLICAS = new ShepherdOverReplicas("lqb");

    @Test
    void overDerby() throws Exception {
        update(REPLICAS.derbyReplicas("r1"));
    }

    @Test
    void overHsqldbWithDerbySecondaries() throws Exception {
        update(REPLICAS.hsqldbPrimary());
    }

    @Test
    void overMariaDbWithDerbySecondaries() throws Exception {
        update(REPLICAS.mariadbPrimary());
    }

    @Test
    void overMariaDb() throws Exception {
        update(REPLICAS.threeMariaDb());
    }

    @SuppressWarnings("deprecation") // Liquibase's own façade, as applications call it
    private static void update(Map<String, String> set) throws Exception {
        try (ShepherdServer server = REPLICAS.start(set)) {
            ShepherdDataSource ds = ShepherdOverReplicas.dataSource(server);
            try (Connection c = ds.getConnection()) {
                Database database = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(c));
                Liquibase liquibase = new Liquibase("liquibase/changelog.xml", new ClassLoaderResourceAccessor(), database);
                liquibase.update(new Contexts(), new LabelExpression());
                assertThat(liquibase.listUnrunChangeSets(new Contexts(), new LabelExpression())).as("all ran").isEmpty();
                liquibase.update(new Contexts(), new LabelExpression()); // nothing to do
            }
            ShepherdOverReplicas.assertMigrated(server, ds, "mail", "none", "person", "databasechangelog", "databasechangeloglock");
        }
    }
}
