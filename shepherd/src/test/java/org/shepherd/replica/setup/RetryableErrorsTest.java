package org.shepherd.replica.setup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** The vendor codes, including DB2's, whose server does not run here. */
class RetryableErrorsTest {
    @Test
    void vendorDeadlockAndLockTimeoutCodesAreRetryableAndOthersAreNot() {
        assertThat(retryable("mariadb", new SQLException("deadlock", "40001", 1213))).isTrue();
        assertThat(retryable("mariadb", new SQLException("lock wait timeout", "HY000", 1205))).isTrue();
        assertThat(retryable("mysql", new SQLException("record changed", "HY000", 1020))).isTrue();
        assertThat(retryable("mariadb", new SQLException("duplicate", "23000", 1062))).isFalse();
        assertThat(retryable("derby", new SQLException("lock timeout", "40XL1"))).isTrue();
        assertThat(retryable("derby", new SQLException("lock timeout, dump", "40XL2"))).isTrue();
        assertThat(retryable("derby", new SQLException("deadlock", "40001"))).isTrue();
        assertThat(retryable("derby", new SQLException("duplicate key", "23505"))).isFalse();
        assertThat(retryable("hsqldb", new SQLException("serialization failure", "40001"))).isTrue();
        assertThat(retryable("postgresql", new SQLException("deadlock", "40P01"))).isTrue();
        assertThat(retryable("postgresql", new SQLException("lock timeout", "55P03"))).isTrue();
        assertThat(retryable("postgresql", new SQLException("unique", "23505"))).isFalse();
        assertThat(retryable("db2", new SQLException("deadlock or timeout", "40001", -911))).isTrue();
        assertThat(retryable("db2", new SQLException("deadlock, not rolled back", "57033", -913))).isTrue();
        assertThat(retryable("db2", new SQLException("syntax", "42601", -104))).isFalse();
    }

    @Test
    void wrappedAndChainedErrorsAreFound() {
        SQLException batch = new BatchUpdateException("batch failed", "HY000", new int[0]);
        batch.setNextException(new SQLException("deadlock", "40001", 1213));
        assertThat(retryable("mariadb", batch)).isTrue();
        assertThat(retryable("derby", new SQLException("wrapper", "XJ001", new SQLException("timeout", "40XL1")))).isTrue();
    }

    @Test
    void unknownDialectIsAnError() {
        assertThatThrownBy(() -> ReplicaSetup.forDialect("oracle")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("oracle");
        assertThat(ReplicaSetup.forDialect("MariaDB").dialect()).isEqualTo("mariadb");
    }

    private static boolean retryable(String dialect, SQLException e) {
        return ReplicaSetup.forDialect(dialect).isRetryable(e);
    }
}
