package org.shepherd.translator.dialect;

import java.sql.SQLException;
import java.util.Locale;
import java.util.Set;

/** PostgreSQL 12+: folds unquoted names to lower case, TEXT and BYTEA, no YEAR()/MONTH() functions. */
public class PostgresqlDialect extends Dialect {

    private static final Set<String> ALREADY_EXISTS = Set.of("42P07", "42710");
    private static final Set<String> DOES_NOT_EXIST = Set.of("42P01", "42704");

    @Override
    public String productName() {
        return "PostgreSQL";
    }

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public Family family() {
        return Family.POSTGRESQL;
    }

    @Override
    public String foldUnquotedIdentifier(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    @Override
    public boolean supportsLimitOffset() {
        return true;
    }

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

    @Override
    public boolean supportsDatePartFunctions() {
        return false;
    }

    @Override
    public String columnType(TypeKind kind, int length, int scale) {
        switch (kind) {
            case TEXT: return "TEXT";
            case BLOB: return "BYTEA";
            default: return super.columnType(kind, length, scale);
        }
    }
}
