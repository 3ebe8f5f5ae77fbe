package org.shepherd.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.shepherd.client.Cursor;
import org.shepherd.client.DriverVersion;
import org.shepherd.protocol.v1.Message;

/**
 * Database metadata. Scalar answers come from the driver and from the session handshake ({@link Message.Ready}:
 * dialect, identifier quote, primary's product); every method returning a {@link ResultSet} is forwarded to the
 * shepherd, which answers it from the primary replica's metadata. The product is the one whose SQL the shepherd reads
 * (the replica that was primary when it started; see {@link #getDatabaseProductName}), so that tools that pick their
 * SQL by product name and version (Flyway, Liquibase, Hibernate, Spring Boot) speak that dialect; the driver's name
 * says Shepherd.
 */
final class ShepherdDatabaseMetaData implements DatabaseMetaData {

    private final ShepherdConnection connection;
    private final Message.Ready ready;
    private final String dialect;

    ShepherdDatabaseMetaData(ShepherdConnection connection) {
        this.connection = connection;
        this.ready = connection.ready();
        this.dialect = ready.sqlDialect().toLowerCase(Locale.ROOT);
    }

    // ---------------------------------------------------------------- identity

    /**
     * The product name of the engine whose SQL the shepherd reads, as that engine's own driver reports it (e.g. "Apache
     * Derby", "MariaDB"), or "Shepherd" when the server names none.
     */
    @Override
    public String getDatabaseProductName() {
        return namesProduct(ready.productName()) ? ready.productName().strip() : "Shepherd";
    }

    /**
     * That engine's version as its own driver reports it (e.g. {@code 10.16.1.1}, {@code 11.4.5-MariaDB}), or the
     * shepherd's version when the server names no product.
     */
    @Override
    public String getDatabaseProductVersion() {
        return productVersion(ready.serverVersion(), ready.productName(), ready.productVersion());
    }

    static String productVersion(String serverVersion, String productName, String productVersion) {
        return namesProduct(productName) && !productVersion.isBlank() ? productVersion.strip() : serverVersion;
    }

    /** Whether the server named the engine whose SQL it reads ("Shepherd" or nothing: it did not). */
    private static boolean namesProduct(String productName) {
        return !productName.isBlank() && !productName.strip().equals("Shepherd");
    }

    @Override
    public int getDatabaseMajorVersion() {
        return versionPart(getDatabaseProductVersion(), 0);
    }

    @Override
    public int getDatabaseMinorVersion() {
        return versionPart(getDatabaseProductVersion(), 1);
    }

    static int versionPart(String version, int index) {
        String[] parts = version.split("[^0-9]+");
        int found = 0;
        for (String p : parts) {
            if (p.isEmpty()) continue;
            if (found++ == index) {
                try {
                    return Integer.parseInt(p);
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    @Override
    public String getDriverName() {
        return "Shepherd JDBC Driver";
    }

    @Override
    public String getDriverVersion() {
        return DriverVersion.VERSION;
    }

    @Override
    public int getDriverMajorVersion() {
        return DriverVersion.MAJOR;
    }

    @Override
    public int getDriverMinorVersion() {
        return DriverVersion.MINOR;
    }

    @Override
    public int getJDBCMajorVersion() {
        return 4;
    }

    @Override
    public int getJDBCMinorVersion() {
        return 2;
    }

    @Override
    public String getURL() {
        return ShepherdUrl.redact(connection.url());
    }

    @Override
    public String getUserName() {
        return DriverProperty.USER.get(connection.parsedUrl().properties());
    }

    @Override
    public Connection getConnection() {
        return connection;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        return connection.isReadOnly();
    }

    // ---------------------------------------------------------------- SQL of the clients (the shepherd's dialect)

    @Override
    public String getIdentifierQuoteString() {
        return ready.identifierQuote();
    }

    @Override
    public String getSQLKeywords() {
        return "";
    }

    @Override
    public String getNumericFunctions() {
        return "";
    }

    @Override
    public String getStringFunctions() {
        return "";
    }

    @Override
    public String getSystemFunctions() {
        return "";
    }

    @Override
    public String getTimeDateFunctions() {
        return "";
    }

    @Override
    public String getSearchStringEscape() {
        return "\\";
    }

    @Override
    public String getExtraNameCharacters() {
        return "";
    }

    @Override
    public String getSchemaTerm() {
        return "schema";
    }

    @Override
    public String getProcedureTerm() {
        return "procedure";
    }

    @Override
    public String getCatalogTerm() {
        return "catalog";
    }

    @Override
    public String getCatalogSeparator() {
        return "";
    }

    private boolean mysqlFamily() {
        return dialect.equals("mysql") || dialect.equals("mariadb");
    }

    @Override
    public boolean storesUpperCaseIdentifiers() {
        return dialect.equals("derby") || dialect.equals("db2") || dialect.equals("hsqldb");
    }

    @Override
    public boolean storesLowerCaseIdentifiers() {
        return dialect.equals("postgresql");
    }

    @Override
    public boolean storesMixedCaseIdentifiers() {
        return mysqlFamily();
    }

    @Override
    public boolean supportsMixedCaseIdentifiers() {
        return mysqlFamily();
    }

    @Override
    public boolean storesUpperCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesLowerCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesMixedCaseQuotedIdentifiers() {
        return mysqlFamily();
    }

    @Override
    public boolean nullsAreSortedHigh() {
        return !mysqlFamily() && !dialect.equals("hsqldb");
    }

    @Override
    public boolean nullsAreSortedLow() {
        return mysqlFamily() || dialect.equals("hsqldb");
    }

    /** MySQL and MariaDB commit implicitly before DDL; the other engines keep DDL in the transaction. */
    @Override
    public boolean dataDefinitionCausesTransactionCommit() {
        return mysqlFamily();
    }

    @Override
    public boolean supportsDataDefinitionAndDataManipulationTransactions() {
        return !mysqlFamily();
    }

    @Override
    public boolean supportsDataManipulationTransactionsOnly() {
        return mysqlFamily();
    }

    // ---------------------------------------------------------------- transactions and results

    @Override
    public int getDefaultTransactionIsolation() {
        return Connection.TRANSACTION_SERIALIZABLE;
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int level) {
        return level == Connection.TRANSACTION_SERIALIZABLE;
    }

    @Override
    public boolean supportsResultSetType(int type) {
        return type == ResultSet.TYPE_FORWARD_ONLY || type == ResultSet.TYPE_SCROLL_INSENSITIVE;
    }

    @Override
    public boolean supportsResultSetConcurrency(int type, int concurrency) {
        return supportsResultSetType(type) && concurrency == ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public boolean supportsResultSetHoldability(int holdability) {
        return holdability == ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public int getResultSetHoldability() {
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public int getSQLStateType() {
        return sqlStateSQL;
    }

    @Override
    public RowIdLifetime getRowIdLifetime() {
        return RowIdLifetime.ROWID_UNSUPPORTED;
    }

    @Override
    public boolean supportsConvert() {
        return false;
    }

    @Override
    public boolean supportsConvert(int fromType, int toType) {
        return false;
    }

    @Override
    public boolean ownUpdatesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean ownDeletesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean ownInsertsAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersUpdatesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersDeletesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersInsertsAreVisible(int type) {
        return false;
    }

    @Override
    public boolean updatesAreDetected(int type) {
        return false;
    }

    @Override
    public boolean deletesAreDetected(int type) {
        return false;
    }

    @Override
    public boolean insertsAreDetected(int type) {
        return false;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) return iface.cast(this);
        throw new SQLException("not a wrapper for " + iface.getName(), "22023");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    // ---------------------------------------------------------------- answered by the shepherd from the primary

    private ResultSet query(String method, Object... args) throws SQLException {
        connection.checkOpen();
        List<Object> list = new ArrayList<>(args.length);
        for (Object a : args) list.add(a instanceof String[] s ? s.clone() : a);
        Cursor cursor = connection.executor().metadata(method, list);
        return new ShepherdResultSet(null, cursor);
    }

    // ---------------------------------------------------------------- the rest

    @Override
    public boolean allProceduresAreCallable() throws SQLException {
        return false;
    }

    @Override
    public boolean allTablesAreSelectable() throws SQLException {
        return true;
    }

    @Override
    public boolean autoCommitFailureClosesAllResultSets() throws SQLException {
        return false;
    }

    @Override
    public boolean dataDefinitionIgnoredInTransactions() throws SQLException {
        return false;
    }

    @Override
    public boolean doesMaxRowSizeIncludeBlobs() throws SQLException {
        return false;
    }

    @Override
    public boolean generatedKeyAlwaysReturned() throws SQLException {
        return false;
    }

    @Override
    public ResultSet getAttributes(String arg0, String arg1, String arg2, String arg3) throws SQLException {
        return query("getAttributes", arg0, arg1, arg2, arg3);
    }

    @Override
    public ResultSet getBestRowIdentifier(String arg0, String arg1, String arg2, int arg3, boolean arg4) throws SQLException {
        return query("getBestRowIdentifier", arg0, arg1, arg2, arg3, arg4);
    }

    @Override
    public ResultSet getCatalogs() throws SQLException {
        return query("getCatalogs");
    }

    @Override
    public ResultSet getClientInfoProperties() throws SQLException {
        return query("getClientInfoProperties");
    }

    @Override
    public ResultSet getColumnPrivileges(String arg0, String arg1, String arg2, String arg3) throws SQLException {
        return query("getColumnPrivileges", arg0, arg1, arg2, arg3);
    }

    @Override
    public ResultSet getColumns(String arg0, String arg1, String arg2, String arg3) throws SQLException {
        return query("getColumns", arg0, arg1, arg2, arg3);
    }

    @Override
    public ResultSet getCrossReference(String arg0, String arg1, String arg2, String arg3, String arg4, String arg5) throws SQLException {
        return query("getCrossReference", arg0, arg1, arg2, arg3, arg4, arg5);
    }

    @Override
    public ResultSet getExportedKeys(String arg0, String arg1, String arg2) throws SQLException {
        return query("getExportedKeys", arg0, arg1, arg2);
    }

    @Override
    public ResultSet getFunctionColumns(String arg0, String arg1, String arg2, String arg3) throws SQLException {
        return query("getFunctionColumns", arg0, arg1, arg2, arg3);
    }

    @Override
    public ResultSet getFunctions(String arg0, String arg1, String arg2) throws SQLException {
        return query("getFunctions", arg0, arg1, arg2);
    }

    @Override
    public ResultSet getImportedKeys(String arg0, String arg1, String arg2) throws SQLException {
        return query("getImportedKeys", arg0, arg1, arg2);
    }

    @Override
    public ResultSet getIndexInfo(String arg0, String arg1, String arg2, boolean arg3, boolean arg4) throws SQLException {
        return query("getIndexInfo", arg0, arg1, arg2, arg3, arg4);
    }

    @Override
    public int getMaxBinaryLiteralLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxCatalogNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxCharLiteralLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInGroupBy() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInIndex() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInOrderBy() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInSelect() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInTable() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxConnections() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxCursorNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxIndexLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxProcedureNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxRowSize() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxSchemaNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxStatementLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxStatements() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxTableNameLength() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxTablesInSelect() throws SQLException {
        return 0;
    }

    @Override
    public int getMaxUserNameLength() throws SQLException {
        return 0;
    }

    @Override
    public ResultSet getPrimaryKeys(String arg0, String arg1, String arg2) throws SQLException {
        return query("getPrimaryKeys", arg0, arg1, arg2);
    }

    @Override
    public ResultSet getProcedureColumns(String arg0, String arg1, String arg2, String arg3) throws SQLException {
        return query("getProcedureColumns", arg0, arg1, arg2, arg3);
    }

    @Override
    public ResultSet getProcedures(String arg0, String arg1, String arg2) throws SQLException {
        return query("getProcedures", arg0, arg1, arg2);
    }

    @Override
    public ResultSet getPseudoColumns(String arg0, String arg1, String arg2, String arg3) throws SQLException {
        return query("getPseudoColumns", arg0, arg1, arg2, arg3);
    }

    @Override
    public ResultSet getSchemas() throws SQLException {
        return query("getSchemas");
    }

    @Override
    public ResultSet getSchemas(String arg0, String arg1) throws SQLException {
        return query("getSchemas", arg0, arg1);
    }

    @Override
    public ResultSet getSuperTables(String arg0, String arg1, String arg2) throws SQLException {
        return query("getSuperTables", arg0, arg1, arg2);
    }

    @Override
    public ResultSet getSuperTypes(String arg0, String arg1, String arg2) throws SQLException {
        return query("getSuperTypes", arg0, arg1, arg2);
    }

    @Override
    public ResultSet getTablePrivileges(String arg0, String arg1, String arg2) throws SQLException {
        return query("getTablePrivileges", arg0, arg1, arg2);
    }

    @Override
    public ResultSet getTableTypes() throws SQLException {
        return query("getTableTypes");
    }

    @Override
    public ResultSet getTables(String arg0, String arg1, String arg2, String[] arg3) throws SQLException {
        return query("getTables", arg0, arg1, arg2, arg3);
    }

    @Override
    public ResultSet getTypeInfo() throws SQLException {
        return query("getTypeInfo");
    }

    @Override
    public ResultSet getUDTs(String arg0, String arg1, String arg2, int[] arg3) throws SQLException {
        return query("getUDTs", arg0, arg1, arg2, arg3);
    }

    @Override
    public ResultSet getVersionColumns(String arg0, String arg1, String arg2) throws SQLException {
        return query("getVersionColumns", arg0, arg1, arg2);
    }

    @Override
    public boolean isCatalogAtStart() throws SQLException {
        return false;
    }

    @Override
    public boolean locatorsUpdateCopy() throws SQLException {
        return false;
    }

    @Override
    public boolean nullPlusNonNullIsNull() throws SQLException {
        return true;
    }

    @Override
    public boolean nullsAreSortedAtEnd() throws SQLException {
        return false;
    }

    @Override
    public boolean nullsAreSortedAtStart() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsANSI92EntryLevelSQL() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsANSI92FullSQL() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsANSI92IntermediateSQL() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsAlterTableWithAddColumn() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsAlterTableWithDropColumn() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsBatchUpdates() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsCatalogsInDataManipulation() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsCatalogsInIndexDefinitions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsCatalogsInPrivilegeDefinitions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsCatalogsInProcedureCalls() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsCatalogsInTableDefinitions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsColumnAliasing() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsCoreSQLGrammar() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsCorrelatedSubqueries() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsDifferentTableCorrelationNames() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsExpressionsInOrderBy() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsExtendedSQLGrammar() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsFullOuterJoins() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsGetGeneratedKeys() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsGroupBy() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsGroupByBeyondSelect() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsGroupByUnrelated() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsIntegrityEnhancementFacility() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsLikeEscapeClause() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsLimitedOuterJoins() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsMinimumSQLGrammar() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsMultipleOpenResults() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsMultipleResultSets() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsMultipleTransactions() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsNamedParameters() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsNonNullableColumns() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsOpenCursorsAcrossCommit() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsOpenCursorsAcrossRollback() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsOpenStatementsAcrossCommit() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsOpenStatementsAcrossRollback() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsOrderByUnrelated() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsOuterJoins() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsPositionedDelete() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsPositionedUpdate() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSavepoints() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsSchemasInDataManipulation() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsSchemasInIndexDefinitions() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsSchemasInPrivilegeDefinitions() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSchemasInProcedureCalls() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSchemasInTableDefinitions() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsSelectForUpdate() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsStatementPooling() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsStoredFunctionsUsingCallSyntax() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsStoredProcedures() throws SQLException {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInComparisons() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsSubqueriesInExists() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsSubqueriesInIns() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsSubqueriesInQuantifieds() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsTableCorrelationNames() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsTransactions() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsUnion() throws SQLException {
        return true;
    }

    @Override
    public boolean supportsUnionAll() throws SQLException {
        return true;
    }

    @Override
    public boolean usesLocalFilePerTable() throws SQLException {
        return false;
    }

    @Override
    public boolean usesLocalFiles() throws SQLException {
        return false;
    }
}
