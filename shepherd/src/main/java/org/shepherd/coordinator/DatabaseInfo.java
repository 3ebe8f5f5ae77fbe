package org.shepherd.coordinator;

/**
 * What clients learn about the database when their session opens (the protocol's {@code Ready} message): the SQL
 * dialect they write and the primary replica's product, so that tools pick the right SQL flavour.
 *
 * @param sqlDialect a dialect name as in {@code replica.<name>.dialect} (e.g. "derby")
 * @param identifierQuote {@link java.sql.DatabaseMetaData#getIdentifierQuoteString()}
 * @param productName {@link java.sql.DatabaseMetaData#getDatabaseProductName()} of the primary
 * @param productVersion {@link java.sql.DatabaseMetaData#getDatabaseProductVersion()} of the primary
 * @param defaultSchema the schema (MySQL, MariaDB: the database) a connection of the replica starts in, as the engine
 *     stores its name ({@link java.sql.Connection#getSchema()}, else {@code getCatalog()}); "" when unknown
 */
public record DatabaseInfo(String sqlDialect, String identifierQuote, String productName, String productVersion,
                           String defaultSchema) {

    /** No dialect known: standard SQL quoting, product "Shepherd". */
    public static final DatabaseInfo UNKNOWN = new DatabaseInfo("", "\"", "Shepherd", "", "");

    public DatabaseInfo {
        if (sqlDialect == null || identifierQuote == null || productName == null || productVersion == null
                || defaultSchema == null) {
            throw new IllegalArgumentException("DatabaseInfo fields must not be null (use \"\" for unknown)");
        }
    }
}
