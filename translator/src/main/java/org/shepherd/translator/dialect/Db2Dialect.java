package org.shepherd.translator.dialect;

import java.sql.SQLException;
import java.util.Set;

/** Db2 for LUW 11.5: OFFSET/FETCH, BOOLEAN, no IF [NOT] EXISTS (emulated), LENGTH and TRUNCATE. */
public class Db2Dialect extends Dialect {

    private static final Set<String> ALREADY_EXISTS = Set.of("42710");
    private static final Set<String> DOES_NOT_EXIST = Set.of("42704");

    @Override
    public String productName() {
        return "DB2";
    }

    @Override
    public String name() {
        return "db2";
    }

    @Override
    public Family family() {
        return Family.DB2;
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

    @Override
    public boolean isAlreadyExistsError(SQLException e) {
        return stateIn(e, ALREADY_EXISTS);
    }

    @Override
    public boolean isDoesNotExistError(SQLException e) {
        return stateIn(e, DOES_NOT_EXIST);
    }

    @Override
    public String charLengthFunction() {
        return "LENGTH";
    }

    @Override
    public String truncateFunction() {
        return "TRUNCATE";
    }
}
