package org.shepherd.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SchemaStatementTest {

    @Test
    void plainNamesFoldAsTheDialectStoresThem() {
        assertThat(SchemaStatement.parse("SET SCHEMA sales", "derby")).isEqualTo(new SchemaStatement.Chosen("SALES"));
        assertThat(SchemaStatement.parse("set current schema = Sales;", "hsqldb")).isEqualTo(new SchemaStatement.Chosen("SALES"));
        assertThat(SchemaStatement.parse("SET search_path TO Sales", "postgresql")).isEqualTo(new SchemaStatement.Chosen("sales"));
        assertThat(SchemaStatement.parse("USE Shop", "mariadb")).isEqualTo(new SchemaStatement.Chosen("Shop"));
    }

    @Test
    void quotedNamesAreKeptAndDefaultGoesBack() {
        assertThat(SchemaStatement.parse("SET SCHEMA \"My \"\"Big\"\" One\"", "derby"))
                .isEqualTo(new SchemaStatement.Chosen("My \"Big\" One"));
        assertThat(SchemaStatement.parse("USE `odd``name`", "mysql")).isEqualTo(new SchemaStatement.Chosen("odd`name"));
        assertThat(SchemaStatement.parse("SET SCHEMA 'x'", "postgresql")).isEqualTo(new SchemaStatement.Chosen("x"));
        assertThat(SchemaStatement.parse("SET SCHEMA DEFAULT", "derby")).isEqualTo(new SchemaStatement.Chosen(null));
    }

    @Test
    void anythingElseIsNoSchemaStatement() {
        assertThat(SchemaStatement.parse("SET search_path TO a, b", "postgresql")).isNull();
        assertThat(SchemaStatement.parse("SET SCHEMA a; DELETE FROM t", "derby")).isNull();
        assertThat(SchemaStatement.parse("SELECT 'SET SCHEMA a' FROM t", "derby")).isNull();
        assertThat(SchemaStatement.parse("SET NAMES utf8mb4", "mysql")).isNull();
    }
}
