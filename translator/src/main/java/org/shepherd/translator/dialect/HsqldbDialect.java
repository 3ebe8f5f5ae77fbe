package org.shepherd.translator.dialect;

import java.sql.SQLException;
import java.util.Set;

/** HyperSQL 2.7: standard quoting and types, LIMIT and FETCH, NULLs sort low by default. */
public class HsqldbDialect extends Dialect {

    private static final Set<String> ALREADY_EXISTS = Set.of("42504");
    private static final Set<String> DOES_NOT_EXIST = Set.of("42501");

    @Override
    public String productName() {
        return "HSQL Database Engine";
    }

    @Override
    public String name() {
        return "hsqldb";
    }

    @Override
    public Family family() {
        return Family.HSQLDB;
    }

    @Override
    public boolean supportsLimitOffset() {
        return true;
    }

    @Override
    public boolean nullsSortHighByDefault() {
        return false;
    }

    /** HSQLDB truncates DECIMAL to fewer digits but rounds DOUBLE to DECIMAL. */
    @Override
    public boolean castRoundsNumbers() {
        return true;
    }

    @Override
    public boolean isAlreadyExistsError(SQLException e) {
        return stateIn(e, ALREADY_EXISTS);
    }

    @Override
    public boolean isDoesNotExistError(SQLException e) {
        return stateIn(e, DOES_NOT_EXIST);
    }
}
