package org.shepherd.translator.dialect;

import java.util.Set;

/** MariaDB 10.6+/11: MySQL's grammar plus CREATE INDEX IF NOT EXISTS and DROP INDEX IF EXISTS. */
public class MariaDbDialect extends MySqlDialect {


    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    public boolean supportsCreateIndexIfNotExists() {
        return true;
    }

    @Override
    public boolean supportsDropIndexIfExists() {
        return true;
    }

    /** FOR SHARE is not sent to MariaDB: its plain reads take shared locks under SERIALIZABLE. */
    @Override
    public boolean supportsForShare() {
        return false;
    }

    @Override
    public boolean supportsValuesStatement() {
        return true;
    }

    @Override
    public boolean supportsAlterIfExists() {
        return true;
    }

    /** {@code MODIFY c <the rest as the replica has it> [NOT] NULL} ({@link #RESTATED_COLUMN}). */
    @Override
    public String columnNullability(String alterTable, String column, boolean notNull) {
        return alterTable + "MODIFY " + column + " " + RESTATED_COLUMN + (notNull ? " NOT NULL" : " NULL");
    }

    /** {@code MODIFY c type <the rest as the replica has it>} ({@link #RESTATED_COLUMN}). */
    @Override
    public String columnType(String alterTable, String column, String type, TypeKind kind) {
        return alterTable + "MODIFY " + column + " " + type + " " + RESTATED_COLUMN;
    }

    @Override
    public Set<String> missingFunctions() {
        return MARIADB_MISSING_FUNCTIONS;
    }
}
