package org.shepherd.orm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.Version;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hibernate.SessionFactory;
import org.hibernate.StaleStateException;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.shepherd.admin.AdminView;
import org.shepherd.server.ShepherdServer;

/**
 * An application on Hibernate ORM, unchanged but for its JDBC URL, through a shepherd in mode cbs: each test names the
 * Hibernate dialect of its primary's engine (MariaDB, Derby or HSQLDB; the secondaries are Derby) and runs the same
 * program (schema generation with create-drop, identity
 * keys, a large object, a one-to-many with cascades, pagination, a join fetch, aggregates, an HQL bulk update that reads
 * the table it changes, optimistic locking, deletes). Afterwards every table is equal on every replica (the shepherd's
 * own comparison), no replica answered differently, and closing the factory dropped the schema everywhere.
 */
class HibernateThroughShepherdTest {

    private static final String USER = ShepherdOverReplicas.USER;
    private static final String PASSWORD = ShepherdOverReplicas.PASSWORD;

    @RegisterExtension
    static final ShepherdOverReplicas REPLICAS = new ShepherdOverReplicas("orm");

    @Entity(name = "Author")
    public static class Author {
        @Id
        @GeneratedValue(strategy = GenerationType.IDENTITY)
        Long id;

        @Version
        int version;

        @Column(nullable = false, length = 80)
        String name;

        boolean active;

        LocalDateTime joined;

        @OneToMany(mappedBy = "author", cascade = CascadeType.ALL, orphanRemoval = true)
        List<Book> books = new ArrayList<>();

        Book write(String title, String price, String summary) {
            Book b = new Book();
            b.title = title;
            b.price = new BigDecimal(price);
            b.summary = summary;
            b.available = true;
            b.author = this;
            books.add(b);
            return b;
        }
    }

    @Entity(name = "Book")
    public static class Book {
        @Id
        @GeneratedValue(strategy = GenerationType.IDENTITY)
        Long id;

        String title;

        @Column(precision = 38, scale = 2)
        BigDecimal price;

        boolean available;

        @Lob
        String summary;

        @ManyToOne(fetch = FetchType.LAZY)
        Author author;
    }

    /**
     * A key from Hibernate's default generator: a sequence where the engine has them (Derby, HSQLDB, MariaDB: the
     * shepherd keeps it and draws each value once for every replica), a table on MySQL.
     */
    @Entity(name = "Tag")
    public static class Tag {
        @Id
        @GeneratedValue
        Long id;

        String label;
    }

    @Test
    void derbyDialectOverDerby() throws Exception {
        runOn(REPLICAS.derbyReplicas("r1"), "org.hibernate.community.dialect.DerbyDialect", Tag.class);
    }

    @Test
    void mysqlDialectOverMariaDb() throws Exception {
        runOn(REPLICAS.mariadbPrimary(), "org.hibernate.dialect.MySQLDialect", Tag.class);
    }

    @Test
    void mariadbDialectOverMariaDb() throws Exception {
        runOn(REPLICAS.mariadbPrimary(), "org.hibernate.dialect.MariaDBDialect", Tag.class);
    }

    @Test
    void hsqlDialectOverHsqldb() throws Exception {
        runOn(REPLICAS.hsqldbPrimary(), "org.hibernate.dialect.HSQLDialect", Tag.class);
    }

    /**
     * Without a dialect named: Hibernate picks it from the product name and version the driver reports, which are the
     * primary's engine's.
     */
    @Test
    void theDialectFromTheReportedProduct() throws Exception {
        runOn(REPLICAS.mariadbPrimary(), null, Tag.class);
    }

    /** Runs {@link #program} with {@code dialect} over {@code set}, and with {@code more} entities their part too. */
    private static void runOn(Map<String, String> set, String dialect, Class<?>... more) throws Exception {
        try (ShepherdServer server = REPLICAS.start(set)) {
            AdminView admin = (AdminView) server.coordinator();
            try (SessionFactory factory = factory(server.jdbcUrl("orm"), dialect, more)) {
                program(factory);
                if (more.length > 0) tags(factory);
                List<AdminView.VerifyRow> compared = admin.verify(null, false);
                assertThat(compared).extracting(AdminView.VerifyRow::table).map(String::toLowerCase)
                        .contains("author", "book");
                assertThat(compared).allSatisfy(r -> assertThat(r.result()).as("%s", r).isEqualTo("equal"));
            }
            assertThat(admin.verify(null, false)).extracting(AdminView.VerifyRow::table).map(String::toLowerCase)
                    .as("create-drop dropped the tables on every replica").doesNotContain("author", "book");
            assertThat(admin.divergenceRows()).as("no replica answered differently").isEmpty();
        }
    }

    private static SessionFactory factory(String url, String dialect, Class<?>... more) {
        Configuration configuration = new Configuration().addAnnotatedClass(Author.class).addAnnotatedClass(Book.class);
        for (Class<?> c : more) configuration.addAnnotatedClass(c);
        if (dialect != null) configuration.setProperty("hibernate.dialect", dialect);
        return configuration
                .setProperty("jakarta.persistence.jdbc.url", url)
                .setProperty("jakarta.persistence.jdbc.user", USER)
                .setProperty("jakarta.persistence.jdbc.password", PASSWORD)
                .setProperty("hibernate.hbm2ddl.auto", "create-drop")
                .setProperty("hibernate.connection.pool_size", "2")
                .buildSessionFactory();
    }

    /** Keys from the default generator, distinct and increasing. */
    private static void tags(SessionFactory factory) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Tag t = new Tag();
            t.label = "tag" + i;
            factory.inTransaction(s -> s.persist(t));
            ids.add(t.id);
        }
        assertThat(ids).doesNotHaveDuplicates().isSorted();
        List<String> labels = factory.fromSession(s -> s.createSelectionQuery("select t.label from Tag t order by t.id",
                String.class).getResultList());
        assertThat(labels).containsExactly("tag0", "tag1", "tag2");
    }

    /** What the application does; every answer is checked against what it wrote. */
    private static void program(SessionFactory factory) {
        long[] ids = new long[3];
        factory.inTransaction(s -> {
            for (int i = 0; i < 3; i++) {
                Author a = new Author();
                a.name = "author" + i;
                a.active = i != 1;
                a.joined = LocalDateTime.parse("2026-11-2" + i + "T10:15:30");
                for (int j = 0; j < 3; j++) {
                    a.write("title" + i + j, (10 * i + j) + ".25", "summary of " + i + j + " ".repeat(200) + "end");
                }
                s.persist(a);
                ids[i] = a.id;
            }
        });
        assertThat(ids[0]).isPositive();
        assertThat(ids[1]).isGreaterThan(ids[0]);

        factory.inSession(s -> {
            List<Book> page = s.createSelectionQuery("from Book b join fetch b.author a where a.name like :p order by b.title",
                    Book.class).setParameter("p", "author%").setFirstResult(2).setMaxResults(3).getResultList();
            assertThat(page).extracting(b -> b.title).containsExactly("title02", "title10", "title11");
            assertThat(page.get(1).author.name).isEqualTo("author1");
            assertThat(page.get(0).summary).startsWith("summary of 02").endsWith("end").hasSize(216);

            List<Object[]> totals = s.createSelectionQuery("select a.name, count(b), sum(b.price) from Author a join a.books b"
                    + " group by a.name order by a.name", Object[].class).getResultList();
            assertThat(totals).hasSize(3);
            assertThat(totals.get(2)[0]).isEqualTo("author2");
            assertThat(((Number) totals.get(2)[1]).longValue()).isEqualTo(3);
            assertThat((BigDecimal) totals.get(2)[2]).isEqualByComparingTo("63.75");
        });

        int changed = factory.fromTransaction(s -> s.createMutationQuery("update Book set available = false where id in"
                + " (select b.id from Book b where b.price > 15 and b.author.active = true)").executeUpdate());
        assertThat(changed).isEqualTo(3);
        long available = factory.fromSession(s -> s.createSelectionQuery("select count(b) from Book b where b.available = true",
                Long.class).getSingleResult());
        assertThat(available).isEqualTo(6);

        // optimistic locking: a stale copy's change is refused, the fresh one's kept
        Author stale = factory.fromSession(s -> s.find(Author.class, ids[0]));
        factory.inTransaction(s -> s.find(Author.class, ids[0]).name = "renamed");
        stale.name = "lost update";
        assertThatThrownBy(() -> factory.inTransaction(s -> s.merge(stale)))
                .isInstanceOfAny(OptimisticLockException.class, StaleStateException.class);
        factory.inSession(s -> {
            Author a = s.find(Author.class, ids[0]);
            assertThat(a.name).isEqualTo("renamed");
            assertThat(a.version).isEqualTo(1);
            assertThat(a.joined).isEqualTo(LocalDateTime.parse("2026-11-20T10:15:30"));
        });

        factory.inTransaction(s -> s.remove(s.find(Author.class, ids[1])));
        long books = factory.fromSession(s -> s.createSelectionQuery("select count(b) from Book b", Long.class).getSingleResult());
        assertThat(books).as("the author's books went with it").isEqualTo(6);
    }
}
