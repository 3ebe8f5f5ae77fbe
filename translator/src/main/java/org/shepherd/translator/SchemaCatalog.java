package org.shepherd.translator;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.alter.Alter;
import net.sf.jsqlparser.statement.alter.AlterExpression;
import net.sf.jsqlparser.statement.alter.AlterOperation;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.table.Index;
import net.sf.jsqlparser.statement.create.view.CreateView;
import net.sf.jsqlparser.statement.drop.Drop;

import org.shepherd.translator.dialect.Dialect;
import org.shepherd.translator.dialect.Dialect.TypeKind;

/**
 * Column types of the tables the translator renders statements for. Learned from the DDL the {@link Translator}
 * translates (CREATE TABLE, ALTER TABLE ADD/DROP COLUMN, DROP TABLE) and, for a table it has not seen, looked up once
 * through a {@link TableLoader} (e.g. {@link #jdbcLoader} over the primary's metadata). A table the catalog does not
 * know has columns of unknown type, which the translator renders as it always did. Names are case-insensitive.
 * Thread-safe.
 */
public final class SchemaCatalog {

    /**
     * A column's canonical type: length for CHAR/VARCHAR, precision for DECIMAL and TIMESTAMP; scale for DECIMAL; and,
     * when its DEFAULT reads the clock ({@code DEFAULT CURRENT_TIMESTAMP}), the clock's type (TIMESTAMP, DATE or TIME; see
     * {@link ClockDefaults}), else null; likewise {@code clockOnUpdate} for MySQL's {@code ON UPDATE CURRENT_TIMESTAMP};
     * {@code keySeq}: its position in the table's primary key (1-based), 0 when it is not in it; {@code sqlName}: the
     * column's name as a statement writes it (as the DDL wrote it, or as the database stores it, quoted when that is not
     * how an unquoted name folds), null when not known.
     */
    public record ColumnType(TypeKind kind, int length, int scale, TypeKind clockDefault, TypeKind clockOnUpdate, int keySeq,
            String sqlName) {

        public ColumnType(TypeKind kind, int length, int scale) {
            this(kind, length, scale, null, null, 0, null);
        }

        /** This type with the clock default {@code d}. */
        ColumnType withClockDefault(TypeKind d) {
            return new ColumnType(kind, length, scale, d, clockOnUpdate, keySeq, sqlName);
        }

        /** This type set to clock {@code d} by every UPDATE of its row that does not set it (MySQL's ON UPDATE). */
        ColumnType withClockOnUpdate(TypeKind d) {
            return new ColumnType(kind, length, scale, clockDefault, d, keySeq, sqlName);
        }

        /** This type as column {@code seq} (1-based) of the primary key. */
        ColumnType withKeySeq(int seq) {
            return new ColumnType(kind, length, scale, clockDefault, clockOnUpdate, seq, sqlName);
        }

        /** This type of the column a statement names {@code name}. */
        ColumnType withSqlName(String name) {
            return new ColumnType(kind, length, scale, clockDefault, clockOnUpdate, keySeq, name);
        }

        public boolean isInteger() {
            return kind == TypeKind.SMALLINT || kind == TypeKind.INTEGER || kind == TypeKind.BIGINT;
        }

        /** Exact numbers: integers and DECIMAL. */
        public boolean isExactNumber() {
            return isInteger() || kind == TypeKind.DECIMAL;
        }

        /** VARCHAR: compared as written (CHAR columns are padded by every engine and TEXT is not comparable everywhere). */
        public boolean isVarchar() {
            return kind == TypeKind.VARCHAR;
        }
    }

    /** Reads one table's columns from outside (the primary's metadata); null when there is no such table. */
    @FunctionalInterface
    public interface TableLoader {
        Map<String, ColumnType> columns(String table) throws SQLException;
    }

    /** Opens a connection for one metadata lookup; the loader closes it. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection open() throws SQLException;
    }

    private static final Map<String, ColumnType> ABSENT = Collections.emptyMap();

    private final TableLoader loader;
    private final ConcurrentHashMap<String, Map<String, ColumnType>> tables = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong();

    /** A catalog that knows only the tables whose DDL the translator has translated. */
    public SchemaCatalog() {
        this(null);
    }

    /** A catalog that asks {@code loader} about tables it has not seen (once per table until the next DDL). */
    public SchemaCatalog(TableLoader loader) {
        this.loader = loader;
    }

    /** Changes whenever what the catalog knows changes; translations made at another version are stale. */
    public long version() {
        return version.get();
    }

    /**
     * The columns of {@code table} (as written in SQL, optionally qualified and quoted) by upper-case name, or null when
     * the table is unknown. A table not found, or one the loader cannot name (a runtime failure), is remembered as
     * unknown until the next DDL. A read of the loader's database that fails (an SQLException) answers unknown for this
     * lookup only and is not remembered: the statement goes on to the primary, whose failure the coordinator must see
     * (a view change), and the next lookup reads again.
     */
    public Map<String, ColumnType> columns(String table) {
        String key = key(table);
        Map<String, ColumnType> known = tables.get(key);
        if (known == null && loader != null) {
            long before = version.get();
            try {
                Map<String, ColumnType> loaded = loader.columns(unquoted(table));
                known = loaded == null || loaded.isEmpty() ? ABSENT : Collections.unmodifiableMap(upperCaseKeys(loaded));
            } catch (SQLException e) {
                return null;
            } catch (RuntimeException e) {
                known = ABSENT;
            }
            synchronized (this) {
                if (version.get() == before) {
                    Map<String, ColumnType> raced = tables.putIfAbsent(key, known);
                    known = raced != null ? raced : known;
                }
            }
        }
        return known == null || known == ABSENT ? null : known;
    }

    /** The type of one column, or null when the table or the column is unknown. */
    public ColumnType column(String table, String column) {
        Map<String, ColumnType> columns = columns(table);
        return columns == null ? null : columns.get(key(column));
    }

    /** Declares (or replaces) a table's columns, e.g. for a table created behind the translator's back. */
    public synchronized void define(String table, Map<String, ColumnType> columns) {
        tables.put(key(table), Collections.unmodifiableMap(upperCaseKeys(columns)));
        version.incrementAndGet();
    }

    /** Forgets everything learned or loaded: the next lookups ask the loader again. */
    public synchronized void forgetAll() {
        tables.clear();
        version.incrementAndGet();
    }

    /** Applies the effect of a DDL statement the translator accepted. */
    synchronized void learn(Statement ddl, Dialect client) {
        Map<String, Map<String, ColumnType>> before = new HashMap<>(tables);
        if (ddl instanceof CreateTable) {
            CreateTable ct = (CreateTable) ddl;
            String key = key(ct.getTable().getFullyQualifiedName());
            Map<String, ColumnType> existing = tables.get(key);
            if (!(ct.isIfNotExists() && existing != null && existing != ABSENT) && ct.getColumnDefinitions() != null) {
                Map<String, ColumnType> columns = new LinkedHashMap<>();
                for (ColumnDefinition cd : ct.getColumnDefinitions()) {
                    columns.put(key(cd.getColumnName()), declared(cd, client));
                    if (primaryKeySpec(cd.getColumnSpecs())) markKey(columns, List.of(cd.getColumnName()));
                }
                if (ct.getIndexes() != null) {
                    for (Index index : ct.getIndexes()) {
                        if ("PRIMARY KEY".equalsIgnoreCase(index.getType())) markKey(columns, index.getColumnsNames());
                    }
                }
                tables.put(key, Collections.unmodifiableMap(columns));
            }
        } else if (ddl instanceof Alter) {
            alter((Alter) ddl, client);
        } else if (ddl instanceof Drop) {
            String type = ((Drop) ddl).getType();
            if ("TABLE".equalsIgnoreCase(type) || "VIEW".equalsIgnoreCase(type)) {
                tables.remove(key(((Drop) ddl).getName().getFullyQualifiedName()));
            }
        } else if (ddl instanceof CreateView) {
            tables.remove(key(((CreateView) ddl).getView().getFullyQualifiedName()));
        }
        // Any DDL may change what a lookup finds (and forgets tables the loader did not find).
        tables.values().removeIf(columns -> columns == ABSENT);
        // a DDL that changes no table's columns (CREATE INDEX, a repeated CREATE) leaves cached translations valid
        if (!tables.equals(before)) version.incrementAndGet();
    }

    private void alter(Alter alter, Dialect client) {
        String key = key(alter.getTable().getFullyQualifiedName());
        if (alter.getAlterExpressions() != null && alter.getAlterExpressions().stream()
                .anyMatch(change -> change.getOperation() == AlterOperation.RENAME_TABLE)) {
            tables.clear(); // a table's name, cached as each statement wrote it (qualified or not), now means another
            return;
        }
        Map<String, ColumnType> existing = tables.get(key);
        if (existing == null || existing == ABSENT || alter.getAlterExpressions() == null) {
            forgetTable(key);
            return;
        }
        Map<String, ColumnType> columns = new LinkedHashMap<>(existing);
        for (AlterExpression change : alter.getAlterExpressions()) {
            if (change.getOperation() == AlterOperation.ADD && change.getColDataTypeList() != null) {
                for (AlterExpression.ColumnDataType cd : change.getColDataTypeList()) {
                    if (placed(cd)) {
                        // MySQL's FIRST / AFTER c: the columns' order is the database's to say (the metadata, next time)
                        tables.remove(key);
                        return;
                    }
                    columns.put(key(cd.getColumnName()), declared(cd, client));
                }
            } else if (change.getOperation() == AlterOperation.DROP && change.getColumnName() != null) {
                columns.remove(key(change.getColumnName()));
            } else if (change.getOperation() == AlterOperation.ADD && change.getPkColumns() != null) {
                markKey(columns, change.getPkColumns());
            } else if (change.getOperation() == AlterOperation.ADD && change.getIndex() != null
                    && "PRIMARY KEY".equalsIgnoreCase(change.getIndex().getType())) {
                markKey(columns, change.getIndex().getColumnsNames());
            } else if (change.getOperation() != AlterOperation.ADD) {
                // a constraint dropped (the primary key, perhaps), a column renamed, retyped, given another default or
                // nullability: the metadata says what the table is now, next time
                forgetTable(key);
                return;
            }
        }
        tables.put(key, Collections.unmodifiableMap(columns));
    }

    /** Forgets what is known of the table {@code key} names, under any name (qualified or not) a statement gave it. */
    private void forgetTable(String key) {
        String name = key.substring(key.lastIndexOf('.') + 1);
        tables.keySet().removeIf(k -> k.equals(name) || k.endsWith("." + name));
    }

    /** Whether a column definition's tokens declare it the primary key ({@code PRIMARY KEY}). */
    private static boolean primaryKeySpec(List<String> specs) {
        if (specs == null) return false;
        for (int i = 0; i + 1 < specs.size(); i++) {
            if (specs.get(i).equalsIgnoreCase("PRIMARY") && specs.get(i + 1).equalsIgnoreCase("KEY")) return true;
        }
        return false;
    }

    /** Makes {@code keyColumns} (in key order) the primary key of {@code columns}. */
    private static void markKey(Map<String, ColumnType> columns, List<String> keyColumns) {
        columns.replaceAll((name, type) -> type.keySeq() > 0 ? type.withKeySeq(0) : type);
        for (int i = 0; i < keyColumns.size(); i++) {
            String k = key(keyColumns.get(i));
            ColumnType type = columns.get(k);
            if (type != null) columns.put(k, type.withKeySeq(i + 1));
        }
    }

    /** Whether an added column is placed (MySQL's {@code FIRST} or {@code AFTER c}) rather than added last. */
    static boolean placed(ColumnDefinition cd) {
        return cd.getColumnSpecs() != null && cd.getColumnSpecs().stream()
                .anyMatch(t -> t.equalsIgnoreCase("FIRST") || t.equalsIgnoreCase("AFTER"));
    }

    /** The type a column gets on every replica: CHAR(n) is declared VARCHAR(n) (see {@link SqlTypes.Spec#column}). */
    private static ColumnType declared(ColumnDefinition cd, Dialect client) {
        SqlTypes.Spec spec = SqlTypes.parse(cd.getColDataType().toString(), client);
        TypeKind clock = ClockDefaults.ofSpecs(cd.getColumnSpecs(), client);
        return new ColumnType(spec.columnKind(), spec.length(), spec.scale(),
                clock, ClockDefaults.onUpdateOfSpecs(cd.getColumnSpecs(), client), 0, cd.getColumnName());
    }

    /**
     * A loader reading {@link DatabaseMetaData#getColumns} on connections from {@code source} ({@link #columnsOf}), each
     * closed after one lookup, rolled back first unless in autocommit mode.
     */
    public static TableLoader jdbcLoader(ConnectionSource source) {
        return table -> {
            try (Connection c = source.open()) {
                try {
                    return columnsOf(c, table);
                } finally {
                    if (!c.getAutoCommit()) {
                        c.rollback();
                    }
                }
            }
        };
    }

    /**
     * The columns of {@code table} as {@code c}'s metadata gives them ({@link #eachColumn}), with their clock defaults
     * and primary key, or null when there is no such table. Columns of types without a canonical equivalent are left out
     * (unknown). Leaves {@code c}'s transaction as it is.
     */
    public static Map<String, ColumnType> columnsOf(Connection c, String table) throws SQLException {
        Map<String, ColumnType> columns = new LinkedHashMap<>();
        char folds = folds(c.getMetaData());
        String[] place = new String[3];
        boolean found = eachColumn(c, table, rs -> {
            place[0] = rs.getString("TABLE_CAT");
            place[1] = rs.getString("TABLE_SCHEM");
            place[2] = rs.getString("TABLE_NAME");
            ColumnType type = fromJdbc(rs.getInt("DATA_TYPE"), rs.getInt("COLUMN_SIZE"), rs.getInt("DECIMAL_DIGITS"));
            if (type == null) return;
            String name = rs.getString("COLUMN_NAME");
            TypeKind clock = ClockDefaults.ofExpression(rs.getString("COLUMN_DEF"), null);
            if (clock != null) type = type.withClockDefault(clock);
            columns.put(name, type.withSqlName(sqlName(name, folds)));
        });
        if (!found) return null;
        onUpdateClocks(c, place, columns);
        try (ResultSet keys = c.getMetaData().getPrimaryKeys(place[0], place[1], place[2])) {
            while (keys.next()) {
                ColumnType type = columns.get(keys.getString("COLUMN_NAME"));
                if (type != null) columns.put(keys.getString("COLUMN_NAME"), type.withKeySeq(keys.getShort("KEY_SEQ")));
            }
        }
        return columns;
    }

    /**
     * On MySQL and MariaDB, the columns of {@code columns} (of the table at {@code place}: catalog, schema, name) that an
     * UPDATE sets to the clock ({@code ON UPDATE CURRENT_TIMESTAMP}), which JDBC's metadata does not tell: read from
     * {@code information_schema.COLUMNS.EXTRA}.
     */
    private static void onUpdateClocks(Connection c, String[] place, Map<String, ColumnType> columns) throws SQLException {
        String product = c.getMetaData().getDatabaseProductName();
        if (product == null || !(product.contains("MySQL") || product.contains("MariaDB"))) return;
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, EXTRA FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, place[0] != null ? place[0] : place[1]); // the database: JDBC's catalog, or its schema
            ps.setString(2, place[2]);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String extra = rs.getString(2) == null ? "" : rs.getString(2).toLowerCase(Locale.ROOT);
                    int at = extra.indexOf("on update ");
                    ColumnType type = columns.get(rs.getString(1));
                    if (at < 0 || type == null) continue;
                    TypeKind clock = ClockDefaults.ofExpression(extra.substring(at + "on update ".length()).split(" ")[0], null);
                    if (clock != null) columns.put(rs.getString(1), type.withClockOnUpdate(clock));
                }
            }
        }
    }

    /** One row of {@link DatabaseMetaData#getColumns}. */
    @FunctionalInterface
    public interface ColumnRow {
        void accept(ResultSet row) throws SQLException;
    }

    /**
     * Calls {@code each} with every column of {@code table} ({@code name} or {@code schema.name}, without quotes) in
     * {@code c}'s metadata, and says whether the table was found. An unqualified table is looked up in the connection's
     * own catalog and schema; a qualified one in that schema of the connection's catalog, or else in the catalog of that
     * name (a MySQL-family database). Names are tried as written, upper- and lower-case, as engines fold them.
     */
    public static boolean eachColumn(Connection c, String table, ColumnRow each) throws SQLException {
        String bare = table;
        String schema = null;
        int dot = bare.lastIndexOf('.');
        if (dot >= 0) {
            schema = bare.substring(0, dot);
            bare = bare.substring(dot + 1);
        }
        DatabaseMetaData md = c.getMetaData();
        String catalog = c.getCatalog() == null || c.getCatalog().isEmpty() ? null : c.getCatalog();
        List<String[]> places = new ArrayList<>(); // catalog, schema pattern, and the result column naming the qualifier
        if (schema == null) {
            places.add(new String[] {catalog, c.getSchema(), null});
        } else {
            for (String s : spellings(schema)) places.add(new String[] {catalog, s, "TABLE_SCHEM"});
            for (String s : spellings(schema)) places.add(new String[] {s, null, "TABLE_CAT"});
        }
        for (String[] place : places) {
            for (String name : spellings(bare)) {
                boolean found = false;
                try (ResultSet rs = md.getColumns(place[0], place[1], name, null)) {
                    while (rs.next()) {
                        // a driver without schemas may ignore the pattern: only the qualifier's rows count
                        if (place[2] != null && !schema.equalsIgnoreCase(rs.getString(place[2]))) continue;
                        found = true;
                        each.accept(rs);
                    }
                }
                if (found) return true;
            }
        }
        return false;
    }

    /** A name an unquoted identifier may be: letters, digits and underscores. */
    private static final java.util.regex.Pattern PLAIN_NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * How a statement names a column the database stores as {@code stored}: unquoted when an unquoted name folds back to
     * it (the database folds unquoted names to upper case, to lower case, or keeps them: {@code folds} 'U', 'L' or 'M').
     */
    static String sqlName(String stored, char folds) {
        boolean same = switch (folds) {
            case 'U' -> stored.equals(stored.toUpperCase(Locale.ROOT));
            case 'L' -> stored.equals(stored.toLowerCase(Locale.ROOT));
            default -> true;
        };
        return PLAIN_NAME.matcher(stored).matches() && same ? stored : '"' + stored.replace("\"", "\"\"") + '"';
    }

    /** How the database of {@code md} folds unquoted names, for {@link #sqlName}. */
    static char folds(java.sql.DatabaseMetaData md) throws java.sql.SQLException {
        return md.storesUpperCaseIdentifiers() ? 'U' : md.storesLowerCaseIdentifiers() ? 'L' : 'M';
    }

    /** A name as written, upper- and lower-case (without repeats). */
    private static Set<String> spellings(String name) {
        return new LinkedHashSet<>(List.of(name, name.toUpperCase(Locale.ROOT), name.toLowerCase(Locale.ROOT)));
    }

    /** The canonical type of a JDBC column description, or null when it has none. */
    static ColumnType fromJdbc(int jdbcType, int size, int digits) {
        switch (jdbcType) {
            case Types.TINYINT:
            case Types.SMALLINT: return new ColumnType(TypeKind.SMALLINT, 0, 0);
            case Types.INTEGER: return new ColumnType(TypeKind.INTEGER, 0, 0);
            case Types.BIGINT: return new ColumnType(TypeKind.BIGINT, 0, 0);
            case Types.DECIMAL:
            case Types.NUMERIC: return new ColumnType(TypeKind.DECIMAL, size, digits);
            case Types.REAL: return new ColumnType(TypeKind.REAL, 0, 0);
            case Types.FLOAT:
            case Types.DOUBLE: return new ColumnType(TypeKind.DOUBLE, 0, 0);
            case Types.BIT:
            case Types.BOOLEAN: return new ColumnType(TypeKind.BOOLEAN, 0, 0);
            case Types.CHAR:
            case Types.NCHAR: return new ColumnType(TypeKind.CHAR, size, 0);
            case Types.VARCHAR:
            case Types.NVARCHAR: return new ColumnType(TypeKind.VARCHAR, size, 0);
            case Types.LONGVARCHAR:
            case Types.LONGNVARCHAR:
            case Types.CLOB:
            case Types.NCLOB: return new ColumnType(TypeKind.TEXT, 0, 0);
            case Types.BINARY:
            case Types.VARBINARY:
            case Types.LONGVARBINARY:
            case Types.BLOB: return new ColumnType(TypeKind.BLOB, 0, 0);
            case Types.DATE: return new ColumnType(TypeKind.DATE, 0, 0);
            case Types.TIME: return new ColumnType(TypeKind.TIME, 0, 0);
            // MariaDB's driver gives a DATETIME(6) no DECIMAL_DIGITS but its width: 19 characters, a point, the fraction
            case Types.TIMESTAMP: return new ColumnType(TypeKind.TIMESTAMP, digits > 0 || size <= 20 ? digits : size - 20, 0);
            default: return null;
        }
    }

    private static Map<String, ColumnType> upperCaseKeys(Map<String, ColumnType> columns) {
        Map<String, ColumnType> out = new LinkedHashMap<>();
        columns.forEach((name, type) -> out.put(key(name), type));
        return out;
    }

    /** How a table or column name is looked up: without quotes, in upper case. */
    public static String key(String name) {
        return unquoted(name).toUpperCase(Locale.ROOT);
    }

    /** The name without quote characters around it or its parts. */
    static String unquoted(String name) {
        return name.trim().replace("\"", "").replace("`", "");
    }
}
