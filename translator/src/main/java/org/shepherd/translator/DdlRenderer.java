package org.shepherd.translator;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.alter.Alter;
import net.sf.jsqlparser.statement.alter.AlterExpression;
import net.sf.jsqlparser.statement.alter.AlterOperation;
import net.sf.jsqlparser.statement.alter.RenameTableStatement;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.table.Index;
import net.sf.jsqlparser.statement.create.view.CreateView;
import net.sf.jsqlparser.statement.drop.Drop;
import net.sf.jsqlparser.statement.truncate.Truncate;

import org.shepherd.translator.dialect.Dialect;
import org.shepherd.translator.dialect.Dialect.TypeKind;

/** Renders DDL per dialect. JSqlParser keeps column specs as tokens, so this works on the tokens, not on an expression tree. */
final class DdlRenderer {

    /** START WITH / INCREMENT BY of one identity column, taken out of the text before parsing (the parser rejects them). */
    record IdentityOptions(long startWith, long incrementBy) {
        static final IdentityOptions DEFAULT = new IdentityOptions(1, 1);
    }

    private static final Pattern IDENTITY_OPTIONS = Pattern.compile("(?i)\\bAS\\s+IDENTITY\\s*\\(([^()]*)\\)");
    private static final Pattern START_WITH = Pattern.compile("(?i)^START\\s+WITH\\s+(-?\\d+)$");
    private static final Pattern INCREMENT_BY = Pattern.compile("(?i)^INCREMENT\\s+BY\\s+(-?\\d+)$");

    private DdlRenderer() {
    }

    /** Removes {@code AS IDENTITY (START WITH n, INCREMENT BY m)} options from the text, returning them in column order. */
    static String extractIdentityOptions(String sql, List<IdentityOptions> options) {
        Matcher m = IDENTITY_OPTIONS.matcher(sql);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            long start = 1;
            long increment = 1;
            for (String part : m.group(1).split(",")) {
                String p = part.trim().replaceAll("\\s+", " ");
                Matcher s = START_WITH.matcher(p);
                Matcher i = INCREMENT_BY.matcher(p);
                if (s.matches()) {
                    start = Long.parseLong(s.group(1));
                } else if (i.matches()) {
                    increment = Long.parseLong(i.group(1));
                } else if (!p.isEmpty()) {
                    throw TranslationException.unsupported("Identity option '" + p + "' is not portable; only START WITH and "
                            + "INCREMENT BY are supported");
                }
            }
            options.add(new IdentityOptions(start, increment));
            m.appendReplacement(out, "AS IDENTITY");
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Names of the identity columns a CREATE TABLE declares, as written. */
    static List<String> identityColumns(CreateTable ct, Dialect client) {
        List<String> names = new ArrayList<>();
        if (ct.getColumnDefinitions() == null) {
            return names;
        }
        for (ColumnDefinition cd : ct.getColumnDefinitions()) {
            List<String> specs = upper(cd.getColumnSpecs());
            if (specs.contains("AUTO_INCREMENT") || specs.contains("AUTOINCREMENT") || specs.contains("IDENTITY")
                    || SqlTypes.parse(cd.getColDataType().toString(), client).identity()) {
                names.add(cd.getColumnName());
            }
        }
        return names;
    }

    /**
     * CREATE TABLE for {@code target}; with {@code clockDefaults} false, the columns' clock DEFAULTs ({@link ClockDefaults})
     * are left out (the text the check for per-replica values reads).
     */
    static String createTable(CreateTable ct, Dialect client, Dialect target, List<IdentityOptions> identityOptions,
            boolean clockDefaults) {
        if (ct.getCreateOptionsStrings() != null && !ct.getCreateOptionsStrings().isEmpty()) {
            throw TranslationException.unsupported("CREATE " + String.join(" ", ct.getCreateOptionsStrings())
                    + " TABLE is not portable; create an ordinary table");
        }
        if (ct.getSelect() != null || ct.getLikeTable() != null || ct.isOrReplace()) {
            throw TranslationException.unsupported("CREATE TABLE ... AS SELECT / LIKE / OR REPLACE is not portable; "
                    + "create the table with its columns, then INSERT INTO ... SELECT");
        }
        if (ct.getColumnDefinitions() == null || ct.getColumnDefinitions().isEmpty()) {
            throw TranslationException.unsupported("CREATE TABLE needs column definitions");
        }
        StringBuilder out = new StringBuilder("CREATE TABLE ");
        if (ct.isIfNotExists() && target.supportsCreateTableIfNotExists()) {
            out.append("IF NOT EXISTS ");
        }
        out.append(ct.getTable().getFullyQualifiedName()).append(" (");
        int identityIndex = 0;
        long tableOptionStart = 1;
        int identityCount = 0;
        List<String> parts = new ArrayList<>();
        for (ColumnDefinition cd : ct.getColumnDefinitions()) {
            ColumnRendering c = column(cd, client, target,
                    identityIndex < identityOptions.size() ? identityOptions.get(identityIndex) : IdentityOptions.DEFAULT,
                    clockDefaults);
            if (c.consumedOptions) {
                identityIndex++;
            }
            if (c.identity != null) {
                identityCount++;
                tableOptionStart = c.identity.startWith;
            }
            parts.add(c.text);
        }
        // MySQL's KEY and INDEX inside CREATE TABLE: a CREATE INDEX after it where the engine has none there
        List<String> indexes = new ArrayList<>();
        if (ct.getIndexes() != null) {
            String table = ct.getTable().getFullyQualifiedName();
            for (Index index : ct.getIndexes()) {
                String type = index.getType() == null ? "" : index.getType().toUpperCase(Locale.ROOT);
                if (type.startsWith("FULLTEXT") || type.startsWith("SPATIAL")) {
                    throw TranslationException.unsupported("A " + type + " index (" + index + ") is MySQL-only");
                }
                if (target.family() != Dialect.Family.MYSQL && isPlainKey(index)) {
                    // the table made IF NOT EXISTS as written: so is each index (an emulated clause skips them all)
                    boolean ifNotExists = ct.isIfNotExists() && target.supportsCreateTableIfNotExists();
                    if (ifNotExists && !target.supportsCreateIndexIfNotExists()) {
                        throw TranslationException.unsupported("CREATE TABLE IF NOT EXISTS with a KEY on " + target.name()
                                + ": create the index in a statement of its own");
                    }
                    indexes.add(createIndex(index, table, ifNotExists));
                } else if (target.family() != Dialect.Family.MYSQL && isUniqueKey(index)) {
                    parts.add((index.getName() == null ? "" : "CONSTRAINT " + index.getName() + " ") + "UNIQUE ("
                            + indexColumns(index, false) + ")");
                } else {
                    parts.add(index.toString());
                }
            }
        }
        if (identityCount > 1) {
            throw TranslationException.unsupported("A table can have only one identity column on Derby, MySQL and HSQLDB");
        }
        out.append(String.join(", ", parts)).append(')');
        if (tableOptionStart != 1 && target.identityStartIsTableOption()) {
            out.append(" AUTO_INCREMENT = ").append(tableOptionStart);
        }
        for (String index : indexes) out.append(Dialect.THEN).append(index);
        return out.toString();
    }

    /** Whether {@code index} is MySQL's {@code KEY name (columns)} or {@code INDEX name (columns)}: no constraint. */
    static boolean isPlainKey(Index index) {
        if (index == null || index.getClass() != Index.class) return false;
        String type = index.getType() != null ? index.getType() : index.getIndexKeyword(); // ALTER TABLE's ADD INDEX: the latter
        return type != null && (type.equalsIgnoreCase("KEY") || type.equalsIgnoreCase("INDEX"));
    }

    /** Whether {@code index} is MySQL's {@code UNIQUE KEY} or {@code UNIQUE INDEX} (a UNIQUE constraint elsewhere). */
    static boolean isUniqueKey(Index index) {
        if (index == null || index.getType() == null) return false;
        String type = index.getType().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        return type.equals("UNIQUE KEY") || type.equals("UNIQUE INDEX");
    }

    /**
     * MySQL's {@code KEY name (columns)} of {@code table} as a CREATE INDEX, for an engine whose CREATE TABLE and ALTER
     * TABLE have none. Its USING and COMMENT are left out (they choose a structure, or document); an index without a
     * name (MySQL names it after its first column) and a column prefix ({@code name(10)}) are refused.
     */
    static String createIndex(Index index, String table, boolean ifNotExists) {
        if (index.getName() == null) {
            throw TranslationException.unsupported("MySQL's KEY without a name (" + index + ") is named by MySQL after its first"
                    + " column; name it (KEY name (columns)), so that every engine's index has that name");
        }
        return "CREATE INDEX " + (ifNotExists ? "IF NOT EXISTS " : "") + index.getName() + " ON " + table + " ("
                + indexColumns(index, true) + ")";
    }

    /** An index's columns, each with ASC or DESC where written and {@code ordered}; a column prefix is refused. */
    private static String indexColumns(Index index, boolean ordered) {
        List<String> columns = new ArrayList<>();
        for (Index.ColumnParams p : index.getColumns()) {
            List<String> params = p.getParams() == null ? List.of() : p.getParams();
            boolean order = params.size() == 1 && (params.get(0).equalsIgnoreCase("ASC") || params.get(0).equalsIgnoreCase("DESC"));
            if (!params.isEmpty() && (!order || !ordered)) {
                throw TranslationException.unsupported("An index column " + p + " (" + index + ") is MySQL-only (a column prefix,"
                        + " or an order in a UNIQUE constraint); index the whole column");
            }
            columns.add(p.getColumnName() + (params.isEmpty() ? "" : " " + params.get(0).toUpperCase(Locale.ROOT)));
        }
        return String.join(", ", columns);
    }

    private record ColumnRendering(String text, IdentityOptions identity, boolean consumedOptions) {
    }

    private static ColumnRendering column(ColumnDefinition cd, Dialect client, Dialect target, IdentityOptions options,
            boolean clockDefaults) {
        return column(cd, client, target, options, clockDefaults, null);
    }

    /** As above; with {@code clockAt}, a clock DEFAULT is rendered as that time instead (ALTER TABLE's added column). */
    private static ColumnRendering column(ColumnDefinition cd, Dialect client, Dialect target, IdentityOptions options,
            boolean clockDefaults, java.time.LocalDateTime clockAt) {
        SqlTypes.Spec type = SqlTypes.parse(cd.getColDataType().toString(), client);
        List<String> specs = cd.getColumnSpecs() == null ? List.of() : cd.getColumnSpecs();
        TypeKind clock = ClockDefaults.ofSpecs(specs, client);
        if (clock != null) {
            if (clock != type.columnKind()) {
                throw TranslationException.unsupported("Column " + cd.getColumnName() + " is " + type.columnKind() + " but its"
                        + " DEFAULT reads a " + clock + "; use the clock of the column's type (CURRENT_TIMESTAMP, CURRENT_DATE"
                        + " or CURRENT_TIME)");
            }
            specs = ClockDefaults.withoutClockDefault(specs, client);
        }
        TypeKind onUpdate = null;
        int[] onUpdateClause = ClockDefaults.onUpdateClause(specs);
        if (onUpdateClause != null) {
            onUpdate = ClockDefaults.onUpdateOfSpecs(specs, client);
            if (client.family() != Dialect.Family.MYSQL || onUpdate != TypeKind.TIMESTAMP || type.columnKind() != TypeKind.TIMESTAMP) {
                throw TranslationException.unsupported(String.join(" ", specs.subList(onUpdateClause[0], onUpdateClause[1]))
                        + " in the definition of column " + cd.getColumnName() + " is not supported: Shepherd takes only"
                        + " MySQL's ON UPDATE CURRENT_TIMESTAMP, of a TIMESTAMP or DATETIME column");
            }
            List<String> rest = new ArrayList<>(specs.subList(0, onUpdateClause[0]));
            rest.addAll(specs.subList(onUpdateClause[1], specs.size()));
            specs = rest;
        }
        List<String> kept = new ArrayList<>();
        String dflt = null;
        boolean identity = type.identity();
        boolean consumed = false;
        for (int i = 0; i < specs.size(); i++) {
            String token = specs.get(i);
            String u = token.toUpperCase(Locale.ROOT);
            if (u.equals("AUTO_INCREMENT") || u.equals("AUTOINCREMENT") || u.equals("IDENTITY")) {
                identity = true;
            } else if (u.equals("GENERATED")) {
                int j = i + 1;
                while (j < specs.size() && !specs.get(j).equalsIgnoreCase("AS")) {
                    j++;
                }
                if (j + 1 >= specs.size() || !specs.get(j + 1).equalsIgnoreCase("IDENTITY")) {
                    throw TranslationException.unsupported("Generated column " + cd.getColumnName() + " is not portable; "
                            + "compute the value in the statements that write it");
                }
                identity = true;
                consumed = true;
                i = j + 1;
            } else if (u.equals("NULL") && (i == 0 || !specs.get(i - 1).equalsIgnoreCase("NOT"))
                    && (i == 0 || !specs.get(i - 1).equalsIgnoreCase("DEFAULT"))) {
                if (target.supportsNullColumnConstraint()) {
                    kept.add(token);
                }
            } else if ((u.equals("FIRST") || u.equals("AFTER")) && target.family() != Dialect.Family.MYSQL) {
                throw TranslationException.unsupported("ADD COLUMN ... " + u + " is MySQL-only (" + target.name() + " adds a"
                        + " column last); leave the position out");
            } else if (u.equals("COMMENT") && i + 1 < specs.size()) {
                i++;
            } else if (client.family() == Dialect.Family.MYSQL && (u.equals("COLLATE") || u.equals("CHARSET"))
                    && i + 1 < specs.size()) {
                i++; // the replica setup fixes one character set and collation for every replica, as for a table's
            } else if (client.family() == Dialect.Family.MYSQL && u.equals("CHARACTER") && i + 2 < specs.size()
                    && specs.get(i + 1).equalsIgnoreCase("SET")) {
                i += 2;
            } else if (u.equals("COLLATE") || u.equals("CHARACTER") || u.equals("CHARSET") || u.equals("UNSIGNED")
                    || u.equals("ZEROFILL")) {
                throw TranslationException.unsupported(token + " in a column definition is not portable; the replica setup "
                        + "fixes character sets and collations");
            } else {
                if (u.equals("DEFAULT") && i + 1 < specs.size()) {
                    checkDefaultFits(cd.getColumnName(), specs.get(i + 1), type.columnKind(), type.length());
                    // before the constraints, as the standard orders them: HSQLDB refuses NOT NULL DEFAULT v
                    dflt = token + " " + bareNumber(specs.get(++i));
                    continue;
                }
                kept.add(token);
            }
        }
        StringBuilder out = new StringBuilder(cd.getColumnName()).append(' ').append(type.column(target));
        IdentityOptions used = null;
        if (identity) {
            if (!type.isInteger()) {
                throw TranslationException.unsupported("Identity column " + cd.getColumnName() + " must be SMALLINT, INTEGER or BIGINT");
            }
            used = consumed ? options : IdentityOptions.DEFAULT;
            String clause = target.identityClause(used.startWith, used.incrementBy);
            if (clause == null) {
                throw TranslationException.unsupported("Identity column " + cd.getColumnName() + " increments by "
                        + used.incrementBy + ", which " + target.name() + " cannot do; increment by 1");
            }
            out.append(' ').append(clause);
        }
        if (clock != null && clockDefaults) {
            out.append(" DEFAULT ").append(clockAt != null ? timeLiteral(clockAt, clock, type.length())
                    : target.clockDefault(clock, type.length()));
        }
        if (dflt != null) out.append(' ').append(dflt);
        if (onUpdate != null && clockDefaults && target.family() == Dialect.Family.MYSQL) {
            // kept where the engine has it, so that the catalog learns it again from a MySQL primary's metadata; every
            // UPDATE sets the column itself (ClockDefaults), with one time for every replica
            out.append(" ON UPDATE ").append(target.clockDefault(onUpdate, type.length()));
        }
        for (String token : kept) {
            out.append(' ').append(token);
        }
        return new ColumnRendering(out.toString(), used, consumed);
    }

    static String createIndex(CreateIndex ci, Dialect target) {
        Index index = ci.getIndex();
        if (ci.getTailParameters() != null && !ci.getTailParameters().isEmpty() || index.getUsing() != null) {
            throw TranslationException.unsupported("Index options (" + ci + ") are not portable; write "
                    + "CREATE [UNIQUE] INDEX name ON table (columns)");
        }
        String type = index.getType() == null ? "" : index.getType().toUpperCase(Locale.ROOT);
        if (!type.isEmpty() && !type.equals("UNIQUE")) {
            throw TranslationException.unsupported("CREATE " + type + " INDEX is not portable; write CREATE [UNIQUE] INDEX");
        }
        StringBuilder out = new StringBuilder("CREATE ");
        if (!type.isEmpty()) {
            out.append("UNIQUE ");
        }
        out.append("INDEX ");
        if (ci.isUsingIfNotExists() && target.supportsCreateIndexIfNotExists()) {
            out.append("IF NOT EXISTS ");
        }
        out.append(index.getName()).append(" ON ").append(ci.getTable().getFullyQualifiedName()).append(" (");
        List<String> columns = new ArrayList<>();
        for (Index.ColumnParams c : index.getColumns()) {
            columns.add(c.toString());
        }
        return out.append(String.join(", ", columns)).append(')').toString();
    }

    static String drop(Drop drop, Dialect client, Dialect target) {
        String type = drop.getType().toUpperCase(Locale.ROOT);
        List<String> params = drop.getParameters() == null ? List.of() : drop.getParameters();
        StringBuilder out = new StringBuilder("DROP ").append(type).append(' ');
        switch (type) {
            case "TABLE":
            case "VIEW":
                // RESTRICT is every engine's default; a table's CASCADE is emulated (Translation.dropsCascade)
                String option = params.size() == 1 ? params.get(0).toUpperCase(Locale.ROOT) : null;
                if (!params.isEmpty() && !"RESTRICT".equals(option) && !("CASCADE".equals(option) && type.equals("TABLE"))) {
                    throw TranslationException.unsupported("DROP " + type + " ... " + String.join(" ", params)
                            + " is not portable; drop dependent objects first");
                }
                if (drop.isIfExists() && target.supportsDropTableIfExists()) {
                    out.append("IF EXISTS ");
                }
                return out.append(drop.getName().getFullyQualifiedName()).toString();
            case "INDEX":
                String table = null;
                if (params.size() == 2 && params.get(0).equalsIgnoreCase("ON")) {
                    table = params.get(1);
                } else if (!params.isEmpty()) {
                    throw TranslationException.unsupported("DROP INDEX ... " + String.join(" ", params) + " is not portable");
                }
                if (drop.isIfExists() && target.supportsDropIndexIfExists()) {
                    out.append("IF EXISTS ");
                }
                if (!target.dropIndexNamesTable()) {
                    out.append(drop.getName().getFullyQualifiedName());
                    // MySQL's DROP INDEX of a UNIQUE KEY: a UNIQUE constraint there
                    return client.dropIndexNamesTable() ? out.append(' ').append(Dialect.UNIQUE_KEY).toString() : out.toString();
                }
                if (table == null && client.dropIndexNamesTable()) {
                    throw TranslationException.unsupported("MySQL/MariaDB need the table of the index; write DROP INDEX "
                            + drop.getName() + " ON <table>");
                }
                if (table == null) {
                    // another engine's client names no table, which the replica reads from its own catalog
                    return out.append(drop.getName().getFullyQualifiedName()).append(' ').append(Dialect.INDEX_TABLE).toString();
                }
                // an index is in its table's schema (dropIndexOnQualifiedTable): MySQL names the schema at the table
                String schema = drop.getName().getSchemaName();
                return out.append(drop.getName().getName()).append(" ON ").append(schema == null ? "" : schema + ".")
                        .append(table).toString();
            default:
                throw TranslationException.unsupported("DROP " + type + " is not supported across engines");
        }
    }

    /** Whether {@code drop} is {@code DROP TABLE ... CASCADE}. */
    static boolean dropsCascade(Drop drop) {
        return "TABLE".equalsIgnoreCase(drop.getType()) && drop.getParameters() != null && drop.getParameters().size() == 1
                && drop.getParameters().get(0).equalsIgnoreCase("CASCADE");
    }

    static String truncate(Truncate truncate, Dialect target) {
        if (truncate.getCascade() || truncate.getTables() != null && truncate.getTables().size() > 1) {
            throw TranslationException.unsupported("TRUNCATE of several tables or with CASCADE is not portable; truncate one table");
        }
        String sql = "TRUNCATE TABLE " + truncate.getTable().getFullyQualifiedName();
        return sql + target.truncateTableClause();
    }

    static String createView(CreateView view, String renderedSelect) {
        if (view.isOrReplace() || view.isMaterialized() || view.isIfNotExists()) {
            throw TranslationException.unsupported("CREATE OR REPLACE / MATERIALIZED VIEW is not portable; DROP VIEW, then CREATE VIEW");
        }
        StringBuilder out = new StringBuilder("CREATE VIEW ").append(view.getView().getFullyQualifiedName());
        if (view.getColumnNames() != null && !view.getColumnNames().isEmpty()) {
            out.append(" (").append(view.getColumnNames()).append(')');
        }
        return out.append(" AS ").append(renderedSelect).toString();
    }

    /**
     * ALTER TABLE with one change (several: {@link #changes}): ADD [COLUMN] definition, DROP [COLUMN] name, ADD/DROP
     * CONSTRAINT, ADD PRIMARY KEY, RENAME TO, RENAME COLUMN, a column's ALTER ({@link #alterColumn}), and MySQL's MODIFY
     * and CHANGE (on other engines a statement per part, {@link #restatedElsewhere}). {@code ALTER TABLE IF EXISTS} and
     * {@code DROP COLUMN/CONSTRAINT IF EXISTS} keep the clause where the target has it and are emulated elsewhere
     * ({@link Translation#existenceCheckEmulated}).
     * {@code altered} is the column the change concerns as the catalog knew it at translation, or null. Anything else
     * (several changes, an engine's own clauses: ENGINE, COMMENT, ADD INDEX, ALGORITHM ...) goes to an engine of the
     * client's family as the client wrote it, {@code asWritten} ({@link #changesAsWritten}), and is refused elsewhere;
     * {@code asWritten} null: refused everywhere (several changes: an IllegalStateException, they come one by one).
     */
    static String alter(Alter alter, Dialect client, Dialect target, SchemaCatalog.ColumnType altered, String asWritten) {
        return alter(alter, client, target, altered, asWritten, null);
    }

    /**
     * As above; {@code addedAt} is the time the rows already there get when the statement adds a column whose DEFAULT
     * reads the clock (each replica would fill them with its own): the column is added with that time as its DEFAULT, then
     * the DEFAULT becomes the clock, two statements joined by {@link Dialect#THEN}.
     */
    static String alter(Alter alter, Dialect client, Dialect target, SchemaCatalog.ColumnType altered, String asWritten,
            java.time.LocalDateTime addedAt) {
        List<AlterExpression> changes = alter.getAlterExpressions();
        String ifExists = target.supportsAlterIfExists() ? "IF EXISTS " : "";
        String prefix = "ALTER TABLE " + (alter.isUseTableIfExists() ? ifExists : "") + alter.getTable().getFullyQualifiedName()
                + " ";
        if (!oneChange(changes)) {
            // several changes: to an engine that takes them (Translation renders them one by one for the others)
            if (asWritten != null) return prefix + asWritten;
            if (changes == null || changes.isEmpty()) throw TranslationException.unsupported("ALTER TABLE without a change");
            throw new IllegalStateException("several changes of one ALTER TABLE: render them one by one");
        }
        AlterExpression change = changes.get(0);
        String dropIfExists = change.isUsingIfExists() ? ifExists : "";
        AlterOperation op = change.getOperation();
        if (op == AlterOperation.ADD && change.getColDataTypeList() != null) {
            ColumnDefinition added = change.getColDataTypeList().get(0);
            TypeKind clock = ClockDefaults.ofSpecs(added.getColumnSpecs(), client);
            if (clock != null && addedAt == null) {
                throw new IllegalStateException("no time for the rows of a column added with a clock DEFAULT");
            }
            if (clock != null || ClockDefaults.onUpdateClause(added.getColumnSpecs()) != null) {
                // nothing else in it may be evaluated per replica (the text keeps a clock: SqlText's last pass is skipped)
                SqlText.refuseEvaluatedPerReplica(column(added, client, target, IdentityOptions.DEFAULT, false, null).text,
                        target.backslashEscapesInStrings());
            }
            ColumnRendering c = column(added, client, target, IdentityOptions.DEFAULT, true, addedAt);
            if (c.identity != null) {
                throw TranslationException.unsupported("Derby cannot add an identity column to an existing table; "
                        + "declare it in CREATE TABLE");
            }
            if (clock == null) return prefix + "ADD COLUMN " + c.text;
            int precision = SqlTypes.parse(added.getColDataType().toString(), client).length();
            return prefix + "ADD COLUMN " + c.text + Dialect.THEN + prefix + "ALTER COLUMN " + added.getColumnName()
                    + " SET DEFAULT " + target.clockDefault(clock, precision);
        }
        if (op == AlterOperation.DROP && change.getColumnName() != null && change.getConstraintName() == null
                && change.getIndex() == null) {
            return prefix + "DROP COLUMN " + dropIfExists + change.getColumnName();
        }
        if (op == AlterOperation.DROP && change.getConstraintName() != null && change.getColumnName() == null) {
            return prefix + "DROP CONSTRAINT " + dropIfExists + change.getConstraintName();
        }
        if (op == AlterOperation.DROP && isPlainKey(change.getIndex()) && asWritten == null) {
            // MySQL's DROP INDEX|KEY i: an index is in its table's schema elsewhere; or it is a UNIQUE KEY, a constraint there
            String schema = alter.getTable().getSchemaName();
            return "DROP INDEX " + (schema == null ? "" : schema + ".") + change.getIndex().getName() + " " + Dialect.UNIQUE_KEY;
        }
        if (op == AlterOperation.ADD && change.getIndex() == null && change.getUkColumns() != null
                && !change.getUkColumns().isEmpty() && asWritten == null) {
            // MySQL's ADD UNIQUE [KEY | INDEX] [name] (columns)
            return prefix + "ADD " + (change.getUkName() == null ? "" : "CONSTRAINT " + change.getUkName() + " ") + "UNIQUE ("
                    + String.join(", ", change.getUkColumns()) + ")";
        }
        if (op == AlterOperation.ADD && isUniqueKey(change.getIndex()) && asWritten == null) {
            // ADD CONSTRAINT name UNIQUE KEY (columns)
            Index uk = change.getIndex();
            return prefix + "ADD " + (uk.getName() == null ? "" : "CONSTRAINT " + uk.getName() + " ") + "UNIQUE ("
                    + indexColumns(uk, false) + ")";
        }
        if (op == AlterOperation.ADD && change.getColumnName() == null
                && (change.getIndex() != null || change.getPkColumns() != null)) {
            // a plain Index is MySQL's [FULLTEXT | SPATIAL] INDEX or KEY; constraints are its subclasses
            if (change.getIndex() != null && change.getIndex().getClass() == Index.class) {
                if (asWritten != null) return prefix + asWritten;
                if (isPlainKey(change.getIndex())) return createIndex(change.getIndex(), alter.getTable().getFullyQualifiedName(), false);
                throw TranslationException.unsupported("ALTER TABLE ... ADD " + change.getIndex() + " is MySQL-only; use CREATE"
                        + " INDEX");
            }
            return prefix + change;
        }
        String table = alter.getTable().getFullyQualifiedName();
        if (op == AlterOperation.RENAME_TABLE) {
            return target.renameTable(prefix, table, alter.getTable().getSchemaName(), change.getNewTableName());
        }
        if (op == AlterOperation.RENAME && change.getColOldName() != null && change.getColumnName() != null) {
            return target.renameColumn(prefix, table, change.getColOldName(), change.getColumnName());
        }
        if (op == AlterOperation.ALTER) {
            return alterColumn(change, prefix, client, target, altered, asWritten);
        }
        if (op == AlterOperation.MODIFY || op == AlterOperation.CHANGE) {
            if (target.family() != Dialect.Family.MYSQL) return restatedElsewhere(table, change, prefix, client, target, altered);
            if (change.getColDataTypeList() == null || change.getColDataTypeList().size() != 1) {
                throw TranslationException.unsupported("ALTER TABLE ... " + op + " restates one column per statement");
            }
            // the column's definition as ADD COLUMN renders it (the catalog reads the column back); a clock DEFAULT may
            // stay in it (SqlText's last pass is skipped then: setsClockDefault), so the rest is checked as CREATE TABLE's
            ColumnDefinition cd = change.getColDataTypeList().get(0);
            SqlText.refuseEvaluatedPerReplica(column(cd, client, target, IdentityOptions.DEFAULT, false).text,
                    target.backslashEscapesInStrings());
            String definition = column(cd, client, target, IdentityOptions.DEFAULT, true).text;
            return prefix + (op == AlterOperation.CHANGE ? "CHANGE " + change.getColOldName() + " " : "MODIFY ") + definition;
        }
        if (asWritten != null) return prefix + asWritten;
        throw TranslationException.unsupported("ALTER TABLE ... " + change + " is not translated across engines; supported: "
                + "ADD [COLUMN], DROP [COLUMN], ADD CONSTRAINT, ADD PRIMARY KEY, DROP CONSTRAINT, RENAME TO u, "
                + COLUMN_CHANGES);
    }

    /**
     * The changes of {@code alter} as ALTER TABLEs of one change each (several changes, MySQL's {@code ADD (a INT, b INT)}),
     * for an engine that takes one per statement or a client of another dialect family: in the order in which each can
     * run after the ones before it, as the one statement would: constraints dropped, columns dropped, columns changed,
     * columns added, constraints and keys added, each kind in the order written. Each keeps the table's IF EXISTS. One
     * change: {@code alter} alone. Refused (0A000): RENAME TO among other changes, and a column that two changes name
     * (their order would matter).
     */
    static List<Alter> changes(Alter alter) {
        List<AlterExpression> changes = alter.getAlterExpressions();
        if (changes == null || oneChange(changes)) return List.of(alter);
        List<List<AlterExpression>> phases = new ArrayList<>();
        for (int i = 0; i < 5; i++) phases.add(new ArrayList<>());
        Set<String> columns = new HashSet<>();
        for (AlterExpression change : changes) {
            AlterOperation op = change.getOperation();
            if (op == AlterOperation.RENAME_TABLE) {
                throw TranslationException.unsupported("RENAME TO among other changes of one ALTER TABLE: rename the table in"
                        + " a statement of its own");
            }
            for (String column : columnsNamed(change)) {
                if (!columns.add(SchemaCatalog.key(column))) {
                    throw TranslationException.unsupported("Two changes of one ALTER TABLE name column " + column + ": make"
                            + " them one after the other, an ALTER TABLE each");
                }
            }
            if (op == AlterOperation.ADD && change.getColDataTypeList() != null) {
                for (AlterExpression.ColumnDataType cd : change.getColDataTypeList()) {
                    AlterExpression one = new AlterExpression();
                    one.setOperation(AlterOperation.ADD);
                    one.hasColumn(true);
                    one.addColDataType(cd);
                    phases.get(3).add(one);
                }
            } else if (op == AlterOperation.ADD) {
                phases.get(4).add(change);
            } else if (op == AlterOperation.DROP) {
                boolean column = change.getColumnName() != null && change.getConstraintName() == null && change.getIndex() == null;
                phases.get(column ? 1 : 0).add(change);
            } else {
                phases.get(2).add(change);
            }
        }
        List<Alter> parts = new ArrayList<>();
        for (List<AlterExpression> phase : phases) {
            for (AlterExpression change : phase) {
                Alter part = new Alter();
                part.setTable(alter.getTable());
                part.setUseTableIfExists(alter.isUseTableIfExists());
                part.addAlterExpression(change);
                parts.add(part);
            }
        }
        return parts;
    }

    /** Whether {@code changes} is one change (not MySQL's {@code ADD (a INT, b INT)}). */
    private static boolean oneChange(List<AlterExpression> changes) {
        if (changes == null || changes.size() != 1) return false;
        AlterExpression change = changes.get(0);
        return change.getOperation() != AlterOperation.ADD || change.getColDataTypeList() == null
                || change.getColDataTypeList().size() == 1;
    }

    /** The columns {@code change} adds, drops, renames or changes (a constraint's columns are not counted). */
    private static List<String> columnsNamed(AlterExpression change) {
        List<String> names = new ArrayList<>();
        AlterOperation op = change.getOperation();
        if (op == AlterOperation.ADD || op == AlterOperation.ALTER || op == AlterOperation.MODIFY || op == AlterOperation.CHANGE) {
            if (change.getColDataTypeList() != null) change.getColDataTypeList().forEach(cd -> names.add(cd.getColumnName()));
        }
        if (change.getColumnSetDefaultList() != null) change.getColumnSetDefaultList().forEach(c -> names.add(c.getColumnName()));
        if (change.getColumnDropDefaultList() != null) change.getColumnDropDefaultList().forEach(c -> names.add(c.getColumnName()));
        if (change.getColumnDropNotNullList() != null) change.getColumnDropNotNullList().forEach(c -> names.add(c.getColumnName()));
        if (op == AlterOperation.CHANGE || op == AlterOperation.RENAME) {
            if (change.getColOldName() != null) names.add(change.getColOldName());
            if (op == AlterOperation.RENAME && change.getColumnName() != null) names.add(change.getColumnName());
        }
        if (op == AlterOperation.DROP && change.getColumnName() != null && change.getConstraintName() == null) {
            names.add(change.getColumnName());
        }
        return names;
    }

    /**
     * {@code RENAME TABLE t TO u} (MySQL's, Derby's and Db2's words) as {@code ALTER TABLE t RENAME TO u}, which the rest
     * of the translator knows; one table per statement.
     */
    static Alter renameAsAlter(RenameTableStatement rename) {
        if (rename.getTableNamesSize() != 1 || rename.getWaitDirective() != null && !rename.getWaitDirective().isBlank()) {
            throw TranslationException.unsupported("RENAME TABLE of several tables (or with WAIT) is MySQL-only; rename one"
                    + " table per statement");
        }
        Map.Entry<Table, Table> names = rename.getTableNames().iterator().next();
        Table from = names.getKey();
        Table to = names.getValue();
        // the new name in the table's own schema (as Liquibase writes it for MySQL) is the name alone: it follows the
        // table's schema as the session's schema qualifies or leaves it (the only way a new name comes qualified: the
        // parser reads none in ALTER TABLE ... RENAME TO)
        if (to.getSchemaName() != null && (from.getSchemaName() == null
                || !SchemaCatalog.key(to.getSchemaName()).equals(SchemaCatalog.key(from.getSchemaName())))) {
            throw TranslationException.unsupported("RENAME TO " + to.getFullyQualifiedName() + " moves the table to another"
                    + " schema, which only MySQL does; rename it within its schema (an unqualified new name)");
        }
        AlterExpression change = new AlterExpression();
        change.setOperation(AlterOperation.RENAME_TABLE);
        change.setNewTableName(to.getName());
        Alter alter = new Alter();
        alter.setTable(names.getKey());
        alter.setUseTableIfExists(rename.isUsingIfExistsKeyword());
        alter.addAlterExpression(change);
        return alter;
    }

    private static TranslationException notTranslated(AlterExpression change) {
        return TranslationException.unsupported("ALTER TABLE ... " + change + " is not translated across engines; change one"
                + " thing per statement: " + COLUMN_CHANGES);
    }

    private static final String COLUMN_CHANGES = "RENAME COLUMN c TO d, ALTER COLUMN c SET DEFAULT v, ALTER COLUMN c DROP"
            + " DEFAULT, ALTER COLUMN c SET NOT NULL, ALTER COLUMN c DROP NOT NULL, ALTER COLUMN c SET DATA TYPE t";

    /**
     * One column's ALTER: SET DEFAULT v / DROP DEFAULT (the standard's words, which every engine takes; a clock default
     * in the target's words for the column's type, from the catalog), SET NOT NULL / DROP NOT NULL (also as Derby writes
     * them, {@code ALTER COLUMN c [NOT] NULL}, and HSQLDB's {@code SET NULL}) and a new type ({@code SET DATA TYPE t},
     * PostgreSQL's {@code TYPE t}, HSQLDB's bare {@code t}), each where the target can ({@link Dialect#columnNullability},
     * {@link Dialect#columnType}).
     */
    private static String alterColumn(AlterExpression change, String prefix, Dialect client, Dialect target,
            SchemaCatalog.ColumnType altered, String asWritten) {
        if (change.getColumnSetDefaultList() != null && change.getColumnSetDefaultList().size() == 1) {
            AlterExpression.ColumnSetDefault set = change.getColumnSetDefaultList().get(0);
            String value = bareNumber(set.getDefaultValue());
            TypeKind clock = ClockDefaults.ofExpression(value, client);
            if (clock != null) value = clockDefault(set.getColumnName(), clock, target, altered);
            if (altered != null) checkDefaultFits(set.getColumnName(), value, altered.kind(), altered.length());
            return prefix + "ALTER COLUMN " + ReservedNames.name(set.getColumnName(), client, target) + " SET DEFAULT " + value;
        }
        if (change.getColumnDropDefaultList() != null && change.getColumnDropDefaultList().size() == 1) {
            return target.dropDefault(prefix, ReservedNames.name(change.getColumnDropDefaultList().get(0).getColumnName(), client,
                    target));
        }
        if (change.getColDataTypeList() == null || change.getColDataTypeList().size() != 1) {
            if (asWritten != null) return prefix + asWritten;
            throw notTranslated(change);
        }
        AlterExpression.ColumnDataType cd = change.getColDataTypeList().get(0);
        String column = cd.getColumnName();
        String type = cd.getColDataType() == null ? null : cd.getColDataType().toString();
        List<String> specs = upper(cd.getColumnSpecs());
        Boolean notNull = nullability(type, specs);
        if (notNull != null) {
            String sql = target.columnNullability(prefix, column, notNull);
            if (sql == null) {
                throw TranslationException.unsupported("MySQL changes a column's nullability only by restating its whole"
                        + " definition (MODIFY), which other engines do not take; on replicas of MySQL/MariaDB only, use MODIFY");
            }
            return sql;
        }
        if (type == null || !specs.isEmpty()) {
            if (asWritten != null) return prefix + asWritten;
            throw notTranslated(change);
        }
        SqlTypes.Spec spec = SqlTypes.parse(type, client);
        if (spec.identity()) {
            throw TranslationException.unsupported("A column cannot become an identity column in place; declare it in CREATE TABLE");
        }
        String sql = target.columnType(prefix, column, spec.column(target), spec.columnKind());
        if (sql == null) {
            throw TranslationException.unsupported(target.family() == Dialect.Family.MYSQL
                    ? "MySQL changes a column's type only by restating its whole definition (MODIFY), which other engines do"
                            + " not take; on replicas of MySQL/MariaDB only, use MODIFY"
                    : NO_TYPE_CHANGE_ON_DERBY);
        }
        return sql;
    }

    /**
     * MySQL's {@code MODIFY c t [NOT NULL | NULL] [DEFAULT v] [COMMENT 'x']} (and {@code CHANGE old c t ...}) on an engine
     * that changes one thing per statement. The column becomes what the statement says and nothing more, as on MySQL,
     * which drops what it does not restate: RENAME COLUMN (CHANGE), SET DATA TYPE where t is not the type the catalog
     * knows ({@code current}, read when the statement was translated), SET or DROP NOT NULL (a key column stays NOT
     * NULL, as MySQL keeps it), SET or DROP DEFAULT; joined by {@link Dialect#THEN}, which the replica runs one after the
     * other. AUTO_INCREMENT, ON UPDATE and other attributes are refused.
     */
    private static String restatedElsewhere(String table, AlterExpression change, String prefix, Dialect client, Dialect target,
            SchemaCatalog.ColumnType current) {
        AlterExpression.ColumnDataType cd = change.getColDataTypeList() == null || change.getColDataTypeList().size() != 1
                ? null : change.getColDataTypeList().get(0);
        if (cd == null || cd.getColDataType() == null) {
            throw notTranslated(change);
        }
        String column = cd.getColumnName();
        boolean notNull = false;
        String dflt = null;
        List<String> specs = cd.getColumnSpecs() == null ? List.of() : cd.getColumnSpecs();
        for (int i = 0; i < specs.size(); i++) {
            String u = specs.get(i).toUpperCase(Locale.ROOT);
            if (u.equals("NOT") && i + 1 < specs.size() && specs.get(i + 1).equalsIgnoreCase("NULL")) {
                notNull = true;
                i++;
            } else if (u.equals("DEFAULT") && i + 1 < specs.size()) {
                dflt = bareNumber(specs.get(++i));
                if (i + 1 < specs.size() && specs.get(i + 1).startsWith("(")) dflt += specs.get(++i);
            } else if (u.equals("COMMENT") && i + 1 < specs.size()) {
                i++; // comments are left out everywhere, as in CREATE TABLE
            } else if (!u.equals("NULL")) {
                throw TranslationException.unsupported("ALTER TABLE ... " + change.getOperation() + " with " + specs.get(i) + " is"
                        + " MySQL-only; for replicas of other engines restate a column's type, NULL or NOT NULL and DEFAULT only");
            }
        }
        if (current == null) {
            throw TranslationException.unsupported("ALTER TABLE ... " + change.getOperation() + " needs what column "
                    + (change.getColOldName() != null ? change.getColOldName() : column) + " is now, which is not known: the"
                    + " table is not there or not readable");
        }
        SqlTypes.Spec spec = SqlTypes.parse(cd.getColDataType().toString(), client);
        if (spec.identity()) {
            throw TranslationException.unsupported("A column cannot become an identity column in place; declare it in CREATE TABLE");
        }
        List<String> parts = new ArrayList<>();
        boolean renamed = !SchemaCatalog.key(change.getColOldName() == null ? column : change.getColOldName())
                .equals(SchemaCatalog.key(column));
        if (change.getOperation() == AlterOperation.CHANGE && renamed) {
            parts.add(target.renameColumn(prefix, table, change.getColOldName(), column));
        }
        if (spec.columnKind() != current.kind() || spec.length() != current.length() || spec.scale() != current.scale()) {
            String sql = target.columnType(prefix, column, spec.column(target), spec.columnKind());
            if (sql == null) throw TranslationException.unsupported(NO_TYPE_CHANGE_ON_DERBY);
            parts.add(sql);
        }
        parts.add(target.columnNullability(prefix, column, notNull || current.keySeq() > 0));
        if (dflt == null) {
            parts.add(target.dropDefault(prefix, column));
        } else {
            TypeKind clock = ClockDefaults.ofExpression(dflt, client);
            if (clock != null) {
                dflt = clockDefault(column, clock, target, new SchemaCatalog.ColumnType(spec.columnKind(), spec.length(), spec.scale()));
            }
            checkDefaultFits(column, dflt, spec.columnKind(), spec.length());
            parts.add(prefix + "ALTER COLUMN " + column + " SET DEFAULT " + dflt);
        }
        return String.join(Dialect.THEN, parts);
    }

    /**
     * Refuses (22001) a string DEFAULT longer than the CHAR or VARCHAR column it is for (of {@code length}): Derby takes
     * it and refuses every INSERT that would use it, HSQLDB and MySQL refuse the DDL, so the replicas would disagree.
     * Refuses (0A000) PostgreSQL's clock strings ('now', 'today', ...) as the DEFAULT of a DATE, TIME or TIMESTAMP
     * column: each replica would fix its own time when it creates the table.
     */
    static void checkDefaultFits(String column, String literal, TypeKind kind, int length) {
        String quoted = literal.strip();
        if ((kind == TypeKind.DATE || kind == TypeKind.TIME || kind == TypeKind.TIMESTAMP) && quoted.length() >= 2
                && quoted.charAt(0) == '\'' && quoted.charAt(quoted.length() - 1) == '\'') {
            SqlText.refuseClockString(quoted.substring(1, quoted.length() - 1)); // PostgreSQL's DEFAULT 'now'
        }
        if (kind != TypeKind.VARCHAR && kind != TypeKind.CHAR || length <= 0) return;
        String v = literal.strip();
        if (v.length() < 2 || v.charAt(0) != '\'' || v.charAt(v.length() - 1) != '\'') return;
        String body = v.substring(1, v.length() - 1).replace("''", "'");
        int chars = body.codePointCount(0, body.length());
        if (chars > length) {
            throw new TranslationException("22001", "The DEFAULT of column " + column + " (" + v + ", " + chars
                    + " characters) is longer than the column's " + length + ": Derby would take it and refuse every INSERT"
                    + " that uses it, the other engines refuse it here");
        }
    }

    private static final String NO_TYPE_CHANGE_ON_DERBY = "Derby changes no column's type in place but a VARCHAR's length;"
            + " add a column of the new type, copy the values over (UPDATE), drop the old one and rename the new one";

    /**
     * Whether a column ALTER sets NOT NULL (true) or drops it (false), as the parser splits it ({@code SET NOT NULL} is
     * the type "SET" with specs NOT NULL; {@code DROP NOT NULL}, Derby's {@code NOT NULL} and {@code NULL} no type);
     * null when it changes something else.
     */
    private static Boolean nullability(String type, List<String> specs) {
        if (type != null && !type.equalsIgnoreCase("SET")) return null;
        if (specs.equals(List.of("NOT", "NULL"))) return true;
        if (specs.equals(List.of("NULL")) || type == null && specs.equals(List.of("DROP", "NOT", "NULL"))) return false;
        return null;
    }

    /**
     * Whether {@code alter} sets a column's DEFAULT to the clock: the one place besides CREATE TABLE where a clock may stay
     * in a statement (INSERTs name such a column: {@link ClockDefaults}), and nothing else in it is evaluated.
     */
    static boolean setsClockDefault(Alter alter, Dialect client) {
        List<AlterExpression> changes = alter.getAlterExpressions();
        if (changes == null || changes.size() != 1) return false;
        AlterExpression change = changes.get(0);
        ColumnDefinition added = onlyAddedColumn(alter);
        if (added != null) {
            // then SET DEFAULT CURRENT_TIMESTAMP; or MySQL's ON UPDATE CURRENT_TIMESTAMP, kept on MySQL
            return ClockDefaults.ofSpecs(added.getColumnSpecs(), client) != null
                    || ClockDefaults.onUpdateClause(added.getColumnSpecs()) != null;
        }
        if (change.getOperation() == AlterOperation.MODIFY || change.getOperation() == AlterOperation.CHANGE) {
            // MySQL's column restated with DEFAULT CURRENT_TIMESTAMP: a column definition, as in CREATE TABLE
            return change.getColDataTypeList() != null && change.getColDataTypeList().size() == 1
                    && ClockDefaults.ofSpecs(change.getColDataTypeList().get(0).getColumnSpecs(), client) != null;
        }
        return change.getOperation() == AlterOperation.ALTER && change.getColumnSetDefaultList() != null
                && change.getColumnSetDefaultList().size() == 1
                && ClockDefaults.ofExpression(change.getColumnSetDefaultList().get(0).getDefaultValue(), client) != null;
    }

    /**
     * The column {@code alter} changes, as the catalog knows it when the statement is translated (the table's columns are
     * forgotten once it ran): the one whose DEFAULT it sets (a clock in the words for its type, a string checked against
     * its length: {@link #checkDefaultFits}), or MySQL's MODIFY or CHANGE restates ({@link #restatedElsewhere}); else null.
     */
    static SchemaCatalog.ColumnType alteredColumn(Alter alter, Dialect client, SchemaCatalog catalog) {
        List<AlterExpression> changes = alter.getAlterExpressions();
        if (catalog == null || changes == null || changes.size() != 1) return null;
        AlterExpression change = changes.get(0);
        String column = null;
        if (change.getOperation() == AlterOperation.ALTER && change.getColumnSetDefaultList() != null
                && change.getColumnSetDefaultList().size() == 1) {
            column = change.getColumnSetDefaultList().get(0).getColumnName();
        } else if (change.getOperation() == AlterOperation.CHANGE) {
            column = change.getColOldName();
        } else if (change.getOperation() == AlterOperation.MODIFY && change.getColDataTypeList() != null
                && change.getColDataTypeList().size() == 1) {
            column = change.getColDataTypeList().get(0).getColumnName();
        }
        return column == null ? null : catalog.column(alter.getTable().getFullyQualifiedName(), column);
    }

    /** A clock DEFAULT set on an existing column of type {@code type}, in the target's words. */
    private static String clockDefault(String column, TypeKind clock, Dialect target, SchemaCatalog.ColumnType type) {
        if (type == null) {
            throw TranslationException.unsupported("SET DEFAULT of a clock needs the type of column " + column + ", which is not"
                    + " known: the table is not there or not readable");
        }
        if (type.kind() != clock) {
            throw TranslationException.unsupported("Column " + column + " is " + type.kind() + " but its DEFAULT reads a " + clock
                    + "; use the clock of the column's type (CURRENT_TIMESTAMP, CURRENT_DATE or CURRENT_TIME)");
        }
        return target.clockDefault(clock, type.length());
    }

    /**
     * {@code at} as a string literal of a column of {@code kind} with {@code precision} fractional digits (at most 6, as
     * pinned times have): a DEFAULT every engine takes for a DATE, TIME or TIMESTAMP column, as the same value.
     */
    static String timeLiteral(java.time.LocalDateTime at, TypeKind kind, int precision) {
        if (kind == TypeKind.DATE) return "'" + at.toLocalDate() + "'";
        java.time.LocalTime time = at.toLocalTime().withNano(0);
        String hms = String.format(Locale.ROOT, "%02d:%02d:%02d", time.getHour(), time.getMinute(), time.getSecond());
        if (kind == TypeKind.TIME) return "'" + hms + "'";
        int digits = Math.max(0, Math.min(6, precision));
        String fraction = digits == 0 ? "" : "." + String.format(Locale.ROOT, "%06d", at.getNano() / 1000).substring(0, digits);
        return "'" + at.toLocalDate() + " " + hms + fraction + "'";
    }

    /** The column {@code alter} adds when that is all it does ({@code ALTER TABLE t ADD [COLUMN] c ...}), else null. */
    private static ColumnDefinition onlyAddedColumn(Alter alter) {
        List<AlterExpression> changes = alter.getAlterExpressions();
        if (changes == null || changes.size() != 1) return null;
        AlterExpression change = changes.get(0);
        return change.getOperation() == AlterOperation.ADD && change.getColDataTypeList() != null
                && change.getColDataTypeList().size() == 1 ? change.getColDataTypeList().get(0) : null;
    }

    /**
     * Whether {@code alter} adds a column whose DEFAULT reads the clock, alone or among other changes ({@link #alter}'s
     * {@code addedAt}, one time for all of them).
     */
    static boolean addsClockColumn(Alter alter, Dialect client) {
        if (alter.getAlterExpressions() == null) return false;
        for (AlterExpression change : alter.getAlterExpressions()) {
            if (change.getOperation() != AlterOperation.ADD || change.getColDataTypeList() == null) continue;
            for (ColumnDefinition added : change.getColDataTypeList()) {
                if (ClockDefaults.ofSpecs(added.getColumnSpecs(), client) != null) return true;
            }
        }
        return false;
    }

    private static final Pattern ALTER_TABLE = Pattern.compile("(?is)\\s*ALTER\\s+TABLE\\b.*");
    private static final Pattern DROP_FOREIGN_KEY = Pattern.compile("(?i)\\bDROP\\s+FOREIGN\\s+KEY\\s+(?=IF\\s+EXISTS\\s|[\\p{L}_`\"])");

    /**
     * MySQL's {@code ALTER TABLE t DROP FOREIGN KEY name}, which the parser does not read, as the standard
     * {@code DROP CONSTRAINT name} (MySQL 8.0.19+ and MariaDB take it for a foreign key too).
     */
    static String dropForeignKeyAsConstraint(String sql) {
        return ALTER_TABLE.matcher(sql).matches() ? DROP_FOREIGN_KEY.matcher(sql).replaceAll("DROP CONSTRAINT ") : sql;
    }

    /** {@code DEFAULT -1.5}: a signed number with a fraction or an exponent, which the parser reads only in parentheses. */
    private static final Pattern SIGNED_DEFAULT = Pattern.compile(
            "(?i)\\bDEFAULT\\s+([+-])\\s*(\\d+\\.\\d*(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?|\\d+[eE][+-]?\\d+)\\b");
    /** A DEFAULT that is a parenthesized signed number ({@link #signedNumberDefaults}). */
    private static final Pattern PARENTHESIZED_NUMBER = Pattern.compile("\\(\\s*([+-]\\s*[0-9.]+(?:[eE][+-]?\\d+)?)\\s*\\)");

    /** {@code token} without the parentheses {@link #signedNumberDefaults} put around a signed number, else itself. */
    private static String bareNumber(String token) {
        Matcher number = PARENTHESIZED_NUMBER.matcher(token);
        return number.matches() ? number.group(1).replace(" ", "") : token;
    }

    /**
     * CREATE and ALTER TABLE with {@code DEFAULT -1.5} (or {@code +1.5}, {@code -1e3}), which the parser refuses in a
     * column definition, with the number in parentheses; {@link #column} and SET DEFAULT write it back bare, as every
     * engine takes it (Derby and HSQLDB refuse it in parentheses). A match inside a string literal is left.
     */
    static String signedNumberDefaults(String sql) {
        if (!sql.regionMatches(true, 0, "CREATE", 0, 6) && !sql.regionMatches(true, 0, "ALTER", 0, 5)) return sql;
        Matcher m = SIGNED_DEFAULT.matcher(sql);
        StringBuilder out = new StringBuilder();
        int from = 0;
        while (m.find()) {
            if (sql.substring(0, m.start()).chars().filter(ch -> ch == '\'').count() % 2 != 0) continue;
            out.append(sql, from, m.start()).append("DEFAULT (").append(m.group(1)).append(m.group(2)).append(')');
            from = m.end();
        }
        return from == 0 ? sql : out.append(sql, from, sql.length()).toString();
    }

    private static final String NAME = "(?:\"(?:[^\"]|\"\")*\"|`[^`]*`|[\\p{L}_][\\p{L}\\p{N}_$#]*)";

    /** {@code ALTER TABLE [IF EXISTS] name changes}, the name plain or quoted, qualified or not: the changes in group 1. */
    private static final Pattern ALTER_TABLE_CHANGES = Pattern.compile("(?is)ALTER\\s+TABLE\\s+(?:IF\\s+EXISTS\\s+)?"
            + "(?:" + NAME + ")(?:\\s*\\.\\s*(?:" + NAME + ")){0,2}\\s+(\\S.*)");

    /**
     * The changes of {@code sql}, an ALTER TABLE as the client wrote it (without its terminator), as written: for an
     * engine of the client's family, where what the translator does not render means what it means to the client's engine.
     * A qualifier naming {@code defaultSchema} (the primary's own schema, null: none) is taken off the names in it, as
     * the translator takes it off the table's. Null when the statement is not of that shape (another first word, MariaDB's
     * {@code ALTER ONLINE TABLE}, comments before the changes).
     */
    static String changesAsWritten(String sql, String defaultSchema, Dialect client) {
        Matcher m = ALTER_TABLE_CHANGES.matcher(Translator.withoutLeadingComments(sql));
        if (!m.matches()) return null;
        String changes = m.group(1);
        return defaultSchema == null ? changes : SqlText.withoutSchemaQualifier(changes, defaultSchema, client);
    }

    private static final Pattern DROP_INDEX_ON_QUALIFIED = Pattern.compile("(?is)(\\s*DROP\\s+INDEX\\s+(?:IF\\s+EXISTS\\s+)?)("
            + NAME + ")(\\s+ON\\s+)(" + NAME + ")\\s*\\.\\s*(" + NAME + "\\s*)");

    /**
     * MySQL's {@code DROP INDEX ix ON s.t} (as Liquibase writes it for MySQL), whose qualified table the parser does not
     * read, as {@code DROP INDEX s.ix ON t}: an index is in its table's schema, as Derby, HSQLDB and PostgreSQL name it;
     * {@link #drop} writes it back as MySQL's for MySQL, and the schema is a name's like any other (the primary's own
     * taken off, the session's put on).
     */
    static String dropIndexOnQualifiedTable(String sql) {
        Matcher m = DROP_INDEX_ON_QUALIFIED.matcher(sql);
        return m.matches() ? m.group(1) + m.group(4) + "." + m.group(2) + m.group(3) + m.group(5) : sql;
    }

    private static final Pattern SET_DATA_TYPE = Pattern.compile("(?i)(\\bALTER\\s+(?:COLUMN\\s+)?" + NAME
            + "\\s+)SET\\s+DATA\\s+TYPE\\b");
    private static final Pattern WITH_DEFAULT = Pattern.compile("(?i)(\\bALTER\\s+(?:COLUMN\\s+)?" + NAME
            + "\\s+)(?:WITH\\s+)?DEFAULT\\b");
    private static final Pattern DERBY_RENAME_COLUMN = Pattern.compile("(?is)\\s*RENAME\\s+COLUMN\\s+((?:" + NAME
            + "\\s*\\.\\s*)?" + NAME + ")\\s*\\.\\s*(" + NAME + ")\\s+TO\\s+(" + NAME + ")\\s*");
    private static final Pattern MYSQL_RENAME_TABLE = Pattern.compile("(?is)\\s*ALTER\\s+TABLE\\s+(" + NAME + "(?:\\s*\\.\\s*"
            + NAME + ")?)\\s+RENAME\\s+(?:(?:TO|AS)\\s+)?(" + NAME + "(?:\\s*\\.\\s*" + NAME + ")?)\\s*");
    private static final Pattern HSQLDB_RENAME_COLUMN = Pattern.compile("(?is)(\\s*ALTER\\s+TABLE\\s+.+?\\s)ALTER\\s+(?:COLUMN\\s+)?("
            + NAME + ")\\s+RENAME\\s+TO\\s+(" + NAME + ")\\s*");

    /**
     * The column changes the parser does not read, in words it reads: the standard's {@code SET DATA TYPE t} as
     * PostgreSQL's {@code TYPE t}, Derby's {@code ALTER COLUMN c [WITH] DEFAULT v} as {@code SET DEFAULT v}, Derby's
     * {@code RENAME COLUMN t.c TO d} and HSQLDB's {@code ALTER TABLE t ALTER COLUMN c RENAME TO d} as
     * {@code ALTER TABLE t RENAME COLUMN c TO d}; MySQL's {@code ALTER TABLE t RENAME [TO | AS] [s.]u} (what Liquibase
     * writes for MySQL) as {@code RENAME TABLE t TO [s.]u}.
     */
    static String columnChangesAsParsed(String sql) {
        Matcher m = DERBY_RENAME_COLUMN.matcher(sql);
        if (m.matches()) return "ALTER TABLE " + m.group(1) + " RENAME COLUMN " + m.group(2) + " TO " + m.group(3);
        m = MYSQL_RENAME_TABLE.matcher(sql);
        if (m.matches() && !m.group(2).equalsIgnoreCase("COLUMN")) return "RENAME TABLE " + m.group(1) + " TO " + m.group(2);
        if (!ALTER_TABLE.matcher(sql).matches()) return sql;
        m = HSQLDB_RENAME_COLUMN.matcher(sql);
        if (m.matches()) return m.group(1) + "RENAME COLUMN " + m.group(2) + " TO " + m.group(3);
        String text = SET_DATA_TYPE.matcher(sql).replaceFirst("$1TYPE");
        return WITH_DEFAULT.matcher(text).replaceFirst("$1SET DEFAULT");
    }

    private static final Pattern CREATE_OR_ALTER_TABLE = Pattern.compile("(?is)^\\s*(?:CREATE|ALTER)\\s+TABLE\\b.*");
    private static final Pattern UNNAMED_CONSTRAINT = Pattern.compile("(?i)\\bCONSTRAINT\\s+(?=(?:PRIMARY|UNIQUE|FOREIGN|CHECK)\\b)");

    /**
     * A constraint that says CONSTRAINT without a name ({@code CONSTRAINT PRIMARY KEY (id)}, which MySQL takes and
     * Flyway writes for MariaDB), which the parser does not read, without the word: the engine names it either way.
     */
    static String unnamedConstraints(String sql) {
        return CREATE_OR_ALTER_TABLE.matcher(sql).matches() ? UNNAMED_CONSTRAINT.matcher(sql).replaceAll("") : sql;
    }

    private static final Pattern TABLE_NAMED = Pattern.compile(
            "(?is)^\\s*CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?([`\"\\w$.]+)");
    /** Longest name given to an unnamed KEY (PostgreSQL cuts names at 63 bytes). */
    private static final int KEY_NAME_MAX = 60;

    /**
     * A MySQL client's KEY or INDEX without a name in CREATE TABLE ({@code KEY (a)}, {@code UNIQUE INDEX (a,
     * b)}), which the parser does not read, with one: the table's name and the first column's, joined by {@code _}
     * ({@code t_a}; {@code t_a_2} for a second on the same column). MySQL would name it after the column alone, but the
     * other engines name indexes per schema, where two tables' {@code KEY (a)} would collide; every replica gets this
     * name. PRIMARY KEY and FOREIGN KEY stay as written.
     */
    static String unnamedKeys(String sql) {
        Matcher table = TABLE_NAMED.matcher(sql);
        if (!table.find()) return sql;
        String[] parts = table.group(1).replace("`", "").replace("\"", "").split("\\.");
        String tableName = parts[parts.length - 1];
        List<Integer> at = new ArrayList<>();
        Set<String> used = new HashSet<>();
        String[] previous = {""};
        SqlWords.scan(sql, true, new SqlWords.Visitor() {
            @Override
            public void word(String text, int start, int end) {
                String w = text.substring(start, end).toUpperCase(Locale.ROOT);
                if ((w.equals("KEY") || w.equals("INDEX")) && !previous[0].equals("PRIMARY") && !previous[0].equals("FOREIGN")) {
                    int k = end;
                    while (k < text.length() && Character.isWhitespace(text.charAt(k))) k++;
                    if (k < text.length() && text.charAt(k) == '(') at.add(end);
                }
                previous[0] = w;
                used.add(w);
            }
        });
        if (at.isEmpty()) return sql;
        List<String> names = new ArrayList<>();
        for (int end : at) {
            int open = sql.indexOf('(', end);
            int close = open + 1;
            while (close < sql.length() && ",()".indexOf(sql.charAt(close)) < 0) close++;
            String column = sql.substring(open + 1, close).trim().replace("`", "").replace("\"", "").split("\\s+")[0];
            String base = tableName + "_" + column;
            if (base.length() > KEY_NAME_MAX) base = base.substring(0, KEY_NAME_MAX);
            String name = base;
            for (int n = 2; used.contains(name.toUpperCase(Locale.ROOT)); n++) name = base + "_" + n;
            used.add(name.toUpperCase(Locale.ROOT));
            names.add(name);
        }
        StringBuilder out = new StringBuilder(sql);
        for (int i = at.size() - 1; i >= 0; i--) out.insert(at.get(i), " " + names.get(i));
        return out.toString();
    }

    private static List<String> upper(List<String> tokens) {
        List<String> result = new ArrayList<>();
        if (tokens != null) {
            for (String t : tokens) {
                result.add(t.toUpperCase(Locale.ROOT));
            }
        }
        return result;
    }
}
