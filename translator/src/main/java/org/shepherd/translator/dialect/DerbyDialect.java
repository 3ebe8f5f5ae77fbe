package org.shepherd.translator.dialect;

import java.sql.SQLException;
import java.util.Set;

/** Apache Derby 10.16: BOOLEAN since 10.7, OFFSET/FETCH only, no IF [NOT] EXISTS, no CONCAT/ROUND/TRUNC functions. */
public class DerbyDialect extends Dialect {

    private static final Set<String> ALREADY_EXISTS = Set.of("X0Y32");
    private static final Set<String> DOES_NOT_EXIST = Set.of("42Y55", "42X65");

    @Override
    public String productName() {
        return "Apache Derby";
    }

    @Override
    public String name() {
        return "derby";
    }

    @Override
    public Family family() {
        return Family.DERBY;
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
        return null;
    }

    @Override
    public boolean supportsNullColumnConstraint() {
        return false;
    }

    @Override
    public String columnType(TypeKind kind, int length, int scale) {
        // Derby's TIMESTAMP takes no precision and always keeps nanoseconds.
        return kind == TypeKind.TIMESTAMP ? "TIMESTAMP" : super.columnType(kind, length, scale);
    }
}
