package org.shepherd.replica.setup;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.shepherd.replica.SqlErrors;

/**
 * MariaDB and MySQL with InnoDB: SERIALIZABLE turns every plain read into a locking read (next-key locks), which
 * is strict two-phase locking. Commits are durable only with {@code innodb_flush_log_at_trx_commit=1}.
 */
final class MySqlFamilySetup implements ReplicaSetup {
    /**
     * Errors instead of silent truncation or zero dates, division by zero is an error as on the other engines,
     * no engine substitution, no ambiguous GROUP BY, and an explicit 0 in an auto-increment column is kept (the
     * coordinator pins generated keys on the secondaries).
     */
    static final String SQL_MODE = "STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,"
            + "NO_ENGINE_SUBSTITUTION,ONLY_FULL_GROUP_BY,NO_AUTO_VALUE_ON_ZERO";

    /** ER_LOCK_DEADLOCK, ER_LOCK_WAIT_TIMEOUT, ER_CHECKREAD (record changed since last read). */
    private static final Set<Integer> RETRY_CODES = Set.of(1213, 1205, 1020);
    private static final int ER_SP_DOES_NOT_EXIST = 1305;

    private final String dialect;
    /** Case-sensitive, NO PAD: 'a' &lt;&gt; 'A' and 'a' &lt;&gt; 'a '. */
    private final String collation;
    private final List<String> isolationVariables;

    private MySqlFamilySetup(String dialect, String collation, List<String> isolationVariables) {
        this.dialect = dialect;
        this.collation = collation;
        this.isolationVariables = isolationVariables;
    }

    static MySqlFamilySetup mariaDb() {
        return new MySqlFamilySetup("mariadb", "utf8mb4_nopad_bin", List.of("@@SESSION.tx_isolation", "@@SESSION.transaction_isolation"));
    }

    static MySqlFamilySetup mySql() {
        return new MySqlFamilySetup("mysql", "utf8mb4_0900_bin", List.of("@@SESSION.transaction_isolation", "@@SESSION.tx_isolation"));
    }

    String collation() {
        return collation;
    }

    @Override
    public String dialect() {
        return dialect;
    }

    /** The default character set and collation of the replica's database, for the tables created from now on. */
    @Override
    public void prepareDatabase(Connection c) throws SQLException {
        String schema = Sql.queryString(c, "SELECT DATABASE()");
        if (schema != null) {
            Sql.execute(c, "ALTER DATABASE `" + schema.replace("`", "``") + "` CHARACTER SET utf8mb4 COLLATE " + collation);
        }
        Sql.commitIfManual(c);
    }

    @Override
    public void prepareConnection(Connection c) throws SQLException {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        Sql.execute(c, "SET NAMES utf8mb4 COLLATE " + collation);
        Sql.execute(c, "SET SESSION sql_mode = '" + SQL_MODE + "', innodb_lock_wait_timeout = " + LOCK_WAIT_TIMEOUT_SECONDS
                + ", default_storage_engine = InnoDB, time_zone = '+00:00', foreign_key_checks = 1, sql_safe_updates = 0"
                + ", unique_checks = 1"); // the values SessionSetting.KEPT_VARIABLES answers
    }

    @Override
    public void verify(Connection c) throws SQLException {
        String flush = Sql.queryString(c, "SELECT @@GLOBAL.innodb_flush_log_at_trx_commit");
        String isolation = sessionIsolation(c);
        String engine = Sql.queryString(c, "SELECT @@SESSION.default_storage_engine");
        List<String> nonTransactional = Sql.queryStrings(c, "SELECT CONCAT(TABLE_NAME, ' (', COALESCE(ENGINE, '?'), ')') "
                + "FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' "
                + "AND (ENGINE IS NULL OR ENGINE <> 'InnoDB') ORDER BY TABLE_NAME");
        Sql.commitIfManual(c);
        if (!"1".equals(flush)) {
            throw new ReplicaRefusedException(dialect + " replica has innodb_flush_log_at_trx_commit=" + flush
                    + ": a commit may be lost in a crash; set innodb_flush_log_at_trx_commit=1 in the server configuration");
        }
        if (!"SERIALIZABLE".equalsIgnoreCase(isolation)) {
            throw new ReplicaRefusedException(dialect + " replica runs at " + isolation + " instead of SERIALIZABLE");
        }
        if (!"InnoDB".equalsIgnoreCase(engine)) {
            throw new ReplicaRefusedException(dialect + " replica's default storage engine is " + engine
                    + ", not InnoDB: tables would not be transactional; enable InnoDB");
        }
        if (!nonTransactional.isEmpty()) {
            throw new ReplicaRefusedException(dialect + " replica has tables that are not InnoDB, so neither "
                    + "transactional nor locked row by row: " + String.join(", ", nonTransactional)
                    + "; convert them with ALTER TABLE ... ENGINE=InnoDB");
        }
    }

    @Override
    public boolean isRetryable(SQLException e) {
        return SqlErrors.anyInChain(e, s -> RETRY_CODES.contains(s.getErrorCode()) || "40001".equals(s.getSQLState()));
    }

    /** MySQL's and MariaDB's "SAVEPOINT x does not exist" is error 1305 with SQLState 42000; the standard's is 3B001. */
    @Override
    public SQLException standardized(SQLException e) {
        // the driver may prefix the server's message, e.g. "(conn=12) SAVEPOINT b does not exist"
        if (e.getErrorCode() == ER_SP_DOES_NOT_EXIST && e.getMessage() != null && e.getMessage().contains("SAVEPOINT ")) {
            return new SQLException(e.getMessage(), "3B001", e.getErrorCode(), e);
        }
        return e;
    }

    private String sessionIsolation(Connection c) throws SQLException {
        SQLException last = null;
        for (String variable : isolationVariables) {
            try {
                String value = Sql.queryString(c, "SELECT " + variable);
                return value == null ? null : value.replace('-', ' ').toUpperCase(Locale.ROOT).trim();
            } catch (SQLException e) {
                last = e;
            }
        }
        throw last;
    }
}
