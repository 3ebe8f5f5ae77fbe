package org.shepherd.translator.dialect;

import java.util.Locale;

/** PostgreSQL 12+: folds unquoted names to lower case, TEXT and BYTEA, no YEAR()/MONTH() functions. */
public class PostgresqlDialect extends Dialect {

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public Family family() {
        return Family.POSTGRESQL;
    }

    @Override
    public boolean keepsReplacedSavepoints() {
        return true;
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

    @Override
    public boolean supportsForShare() {
        return true;
    }

    @Override
    public boolean supportsKeyLockModes() {
        return true;
    }

    @Override
    public boolean sumOfBigintIsNumeric() {
        return true;
    }

    @Override
    public boolean identifiersMayStartWithUnderscore() {
        return true;
    }

    @Override
    public boolean supportsAlterIfExists() {
        return true;
    }

    @Override
    public boolean takesEmptyLikeEscape() {
        return true;
    }

    @Override
    public boolean likeEscapesWithBackslash() {
        return true;
    }

    @Override
    public boolean groupsByStringConstants() {
        return false;
    }

    @Override
    public boolean takesSeveralAlterChanges() {
        return true;
    }
}
