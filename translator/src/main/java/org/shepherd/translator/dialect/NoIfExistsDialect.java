package org.shepherd.translator.dialect;

import java.sql.SQLException;
import java.util.Set;

/**
 * The grammar Derby and Db2 share: no IF [NOT] EXISTS on CREATE/DROP (the translator emulates it by recognising the
 * engine's already-exists and does-not-exist SQLStates) and LENGTH for character length.
 */
abstract class NoIfExistsDialect extends Dialect {

    private final Set<String> alreadyExistsStates;
    private final Set<String> doesNotExistStates;

    NoIfExistsDialect(Set<String> alreadyExistsStates, Set<String> doesNotExistStates) {
        this.alreadyExistsStates = alreadyExistsStates;
        this.doesNotExistStates = doesNotExistStates;
    }

    @Override
    public boolean supportsCreateTableIfNotExists() {
        return false;
    }

    @Override
    public boolean supportsDropTableIfExists() {
        return false;
    }

    @Override
    public boolean supportsCreateIndexIfNotExists() {
        return false;
    }

    @Override
    public boolean supportsDropIndexIfExists() {
        return false;
    }

    /** Derby and Db2: {@code RENAME TABLE t TO u}. */
    @Override
    public String renameTable(String alterTable, String table, String schema, String newName) {
        return "RENAME TABLE " + table + " TO " + newName;
    }

    @Override
    public boolean isAlreadyExistsError(SQLException e) {
        return stateIn(e, alreadyExistsStates);
    }

    @Override
    public boolean isDoesNotExistError(SQLException e) {
        return stateIn(e, doesNotExistStates);
    }

    @Override
    public String charLengthFunction() {
        return "LENGTH";
    }

    @Override
    public boolean supportsBeginStatement() {
        return false;
    }

    @Override
    public String savepointClause() {
        return " ON ROLLBACK RETAIN CURSORS";
    }

    /** Derby and Db2: DECIMAL(31, s) at most. */
    @Override
    public int maxDecimalPrecision() {
        return 31;
    }
}
