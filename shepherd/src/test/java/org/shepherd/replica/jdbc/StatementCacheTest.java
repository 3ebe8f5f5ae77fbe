package org.shepherd.replica.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.shepherd.coordinator.ExecOptions;

class StatementCacheTest {

    private static final ExecOptions PLAIN = new ExecOptions(0, 0, 0, false);

    @Test
    void aReleasedStatementIsReusedOnTheSameConnectionUntilDdlRuns() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:derby:memory:stmtcache;create=true")) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            }
            StatementCache cache = new StatementCache();
            String sql = "SELECT id FROM t WHERE id = ?";
            PreparedStatement first = cache.prepare(c, sql, PLAIN, 10);
            cache.release(c, sql, first, false);
            PreparedStatement second = cache.prepare(c, sql, PLAIN, 10);
            assertThat(second).isSameAs(first);
            assertThat(cache.prepare(c, sql, PLAIN, 10)).as("a statement in use is not handed out twice").isNotSameAs(second);
            cache.release(c, sql, second, false);

            cache.invalidateAfter("SELECT 1 FROM t");
            assertThat(cache.prepare(c, sql, PLAIN, 10)).isSameAs(first);
            cache.release(c, sql, first, false);
            cache.invalidateAfter("ALTER TABLE t ADD COLUMN v INTEGER");
            PreparedStatement afterDdl = cache.prepare(c, sql, PLAIN, 10);
            assertThat(afterDdl).isNotSameAs(first);
            assertThat(first.isClosed()).isTrue();
        }
    }

    @Test
    void onlyQueriesAndDmlKeepTheCache() {
        assertThat(StatementCache.isQueryOrDml("  select 1")).isTrue();
        assertThat(StatementCache.isQueryOrDml("(SELECT 1)")).isTrue();
        assertThat(StatementCache.isQueryOrDml("update t set x = 1")).isTrue();
        assertThat(StatementCache.isQueryOrDml("CREATE TABLE t (x INT)")).isFalse();
        assertThat(StatementCache.isQueryOrDml("DROP TABLE t")).isFalse();
        assertThat(StatementCache.isQueryOrDml("CALL p()")).isFalse();
    }
}
