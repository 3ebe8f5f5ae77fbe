package org.shepherd.translator;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.ParserKeywordsUtils;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.parser.TokenMgrException;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.Commit;
import net.sf.jsqlparser.statement.ResetStatement;
import net.sf.jsqlparser.statement.ReturningClause;
import net.sf.jsqlparser.statement.RollbackStatement;
import net.sf.jsqlparser.statement.SavepointStatement;
import net.sf.jsqlparser.statement.SetStatement;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.UseStatement;
import net.sf.jsqlparser.statement.alter.Alter;
import net.sf.jsqlparser.statement.alter.RenameTableStatement;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.view.CreateView;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.drop.Drop;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperation;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.UnionOp;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.truncate.Truncate;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.upsert.Upsert;
import net.sf.jsqlparser.statement.upsert.UpsertType;

import org.shepherd.translator.dialect.Dialect;

/**
 * Parses client SQL once per distinct statement text and hands out {@link Translation}s from a bounded LRU cache.
 * A cache hit neither parses nor renders. Thread-safe.
 */
public final class Translator {

    private static final Pattern BEGIN = Pattern.compile("(?is)^(START\\s+TRANSACTION|BEGIN(\\s+(WORK|TRANSACTION))?)$");
    private static final Pattern COMMIT = Pattern.compile("(?is)^COMMIT(\\s+WORK)?$");
    private static final Pattern ROLLBACK = Pattern.compile("(?is)^ROLLBACK(\\s+WORK)?$");
    private static final Pattern ROLLBACK_TO =
            Pattern.compile("(?is)^ROLLBACK(\\s+WORK)?\\s+TO\\s+(SAVEPOINT\\s+)?([A-Za-z_][A-Za-z0-9_]*)$");
    /** Derby's and Db2's form ends with {@code ON ROLLBACK RETAIN CURSORS} (and optionally {@code ... LOCKS}). */
    private static final Pattern SAVEPOINT = Pattern.compile(
            "(?is)^SAVEPOINT\\s+([A-Za-z_][A-Za-z0-9_]*)(\\s+(UNIQUE\\s+)?(\\s*ON\\s+ROLLBACK\\s+RETAIN\\s+(CURSORS|LOCKS))+)?$");
    /** Derby's and Db2's form is {@code RELEASE [TO] SAVEPOINT name}. */
    private static final Pattern RELEASE =
            Pattern.compile("(?is)^RELEASE(\\s+(TO\\s+)?SAVEPOINT)?\\s+([A-Za-z_][A-Za-z0-9_]*)$");
    private static final Pattern SESSION_PASSTHROUGH = Pattern.compile("(?is)^SET\\s+[A-Za-z_@].*");

    private final Dialect client;
    /** The client engine's default schema as it stores the name ({@link #withDefaultSchema}), or null. */
    private volatile String defaultSchema;
    private volatile String serverVersion;
    private final List<Dialect> eagerTargets;
    /**
     * Every replica is MySQL or MariaDB: statements only MySQL reads (CREATE TABLE with an unnamed KEY) run as written,
     * and MySQL names what they leave unnamed.
     */
    private final boolean mysqlTargetsOnly;
    private final int cacheSizeMax;
    private final Map<String, Cached> cache;
    private final SchemaCatalog catalog;
    /** The replicas mix engines that compare strings PAD SPACE and NO PAD. */
    private final boolean mixedPadding;
    /** How long one statement may take to parse ({@link #withParseTimeoutMs}). */
    private volatile long parseTimeoutMs = PARSE_TIMEOUT_MS_DEFAULT;
    /** Tables a query of the catalog leaves out ({@link #withHiddenTables}). */
    private volatile Set<String> hiddenTables = Set.of();
    /** The time a column added with a clock DEFAULT gives the rows already there ({@link #withDdlClock}). */
    private volatile java.util.function.Supplier<java.time.LocalDateTime> ddlClock = java.time.LocalDateTime::now;

    /** The default of {@link #withParseTimeoutMs}: far beyond any ordinary statement's few milliseconds. */
    public static final long PARSE_TIMEOUT_MS_DEFAULT = 5_000;

    /** A translation or its rejection, made when the catalog was at {@code schemaVersion}. */
    private record Cached(Object result, long schemaVersion) {
    }

    /**
     * @param clientDialect the dialect applications write (default: the primary's family)
     * @param cacheSizeMax most statements kept (LRU); at least 1
     */
    public Translator(Dialect clientDialect, int cacheSizeMax) {
        this(clientDialect, List.of(), cacheSizeMax);
    }

    /**
     * Like {@link #Translator(Dialect, int)}, and renders every statement for {@code targets} during {@link #translate},
     * so a statement that one replica's engine cannot run is rejected before anything executes.
     */
    public Translator(Dialect clientDialect, Collection<Dialect> targets, int cacheSizeMax) {
        this(clientDialect, targets, cacheSizeMax, new SchemaCatalog());
    }

    /**
     * Like {@link #Translator(Dialect, Collection, int)}, with column types from {@code catalog}, which also learns the
     * DDL this translator translates. Cached translations made before a DDL statement are translated again.
     */
    public Translator(Dialect clientDialect, Collection<Dialect> targets, int cacheSizeMax, SchemaCatalog catalog) {
        if (cacheSizeMax < 1) {
            throw new IllegalArgumentException("cacheSizeMax must be at least 1, was " + cacheSizeMax);
        }
        this.client = clientDialect;
        this.eagerTargets = List.copyOf(targets);
        this.mysqlTargetsOnly = !eagerTargets.isEmpty() && eagerTargets.stream().allMatch(d -> d.family() == Dialect.Family.MYSQL);
        this.mixedPadding = eagerTargets.stream().anyMatch(Dialect::comparesStringsPadSpace)
                && !eagerTargets.stream().allMatch(Dialect::comparesStringsPadSpace);
        this.catalog = catalog;
        this.cacheSizeMax = cacheSizeMax;
        this.cache = new LinkedHashMap<>(Math.min(cacheSizeMax, 1024), 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
                return size() > Translator.this.cacheSizeMax;
            }
        };
    }

    /**
     * Tables that queries of the catalog ({@link #readsCatalog}) leave out, in the query itself ({@link
     * HiddenCatalogRows}): the shepherd's own tables on each replica. Set before the first translation. Returns this
     * translator.
     */
    public Translator withHiddenTables(Set<String> names) {
        this.hiddenTables = Set.copyOf(names);
        return this;
    }

    /**
     * The version of the client's engine (the primary's when the shepherd started, as its driver reports it): what
     * {@code VERSION()} answers (each replica would answer its own server's). Null leaves it refused. Returns this
     * translator.
     */
    public Translator withServerVersion(String version) {
        this.serverVersion = version == null || version.isBlank() ? null : version.strip();
        return this;
    }

    /**
     * The schema (MySQL, MariaDB: the database) a connection of the client's engine starts in, as that engine stores its
     * name: what {@code CURRENT SCHEMA}, {@code DATABASE()} and their spellings answer in a session that chose none
     * (each replica would answer its own); a table qualified with it stands for each replica's own default schema, as an
     * unqualified one does ({@link SchemaQualifier#withoutDefaultSchema}). Set before the first statement; null or ""
     * leaves them refused. Returns this translator.
     */
    public Translator withDefaultSchema(String stored) {
        this.defaultSchema = stored == null || stored.isEmpty() ? null : stored;
        return this;
    }

    /**
     * The clock an {@code ALTER TABLE ... ADD COLUMN} with a DEFAULT that reads the clock reads once, at translation, in
     * the zone pinned values are local to: the rows already there get that time on every replica (each would fill them
     * with its own), then the column's DEFAULT becomes the clock ({@link DdlRenderer#alter}). The system clock unless set.
     * Returns this translator.
     */
    public Translator withDdlClock(java.util.function.Supplier<java.time.LocalDateTime> clock) {
        this.ddlClock = clock;
        return this;
    }

    /**
     * How long one statement may take to parse before it is refused with SQLState 54001 (not cached: a machine that
     * stalled may parse it in time later). Returns this translator.
     */
    public Translator withParseTimeoutMs(long ms) {
        if (ms < 1) throw new IllegalArgumentException("parse timeout must be at least 1 ms, was " + ms);
        this.parseTimeoutMs = ms;
        return this;
    }

    public Dialect clientDialect() {
        return client;
    }

    /** The column types this translator renders with. */
    public SchemaCatalog catalog() {
        return catalog;
    }

    /** Statements currently cached. */
    public int cacheSize() {
        synchronized (cache) {
            return cache.size();
        }
    }

    /**
     * The translation of one client statement. Throws SQLState 42000 (syntax, with the parser's position) or 0A000 (a
     * construct that would make replicas diverge, with how to rewrite it). Rejections are cached too.
     */
    public Translation translate(String clientSql) throws SQLException {
        return translate(clientSql, null);
    }

    /**
     * Like {@link #translate(String)} in a session whose default schema is {@code schema} (an SQL identifier as
     * {@link SessionSetting#schema()} spells it; null: the replicas' own default): every table the statement does not
     * qualify is named in that schema ({@link SchemaQualifier}), so that the translation means the same on every replica
     * and pooled connection. A statement that cannot be qualified is refused (0A000).
     */
    public Translation translate(String clientSql, String schema) throws SQLException {
        if (clientSql == null || clientSql.isBlank()) {
            throw new SQLException("Empty SQL statement", "42000");
        }
        long schemaVersion = catalog.version();
        String key = schema == null ? clientSql : schema + '\u0000' + clientSql;
        Cached cached;
        synchronized (cache) {
            cached = cache.get(key);
        }
        Object hit = cached != null && cached.schemaVersion() == schemaVersion ? cached.result() : null;
        if (hit == null) {
            try {
                Translation t = analyze(clientSql, schema);
                for (Dialect d : eagerTargets) {
                    t.sqlFor(d);
                }
                hit = t;
            } catch (TranslationException e) {
                hit = e;
            } catch (SQLException e) {
                hit = new TranslationException(e.getSQLState(), e.getMessage());
            } catch (RuntimeException e) {
                hit = new TranslationException("XX000", "Shepherd's translator failed on this statement (" + e
                        + "); please report it with the statement");
            } catch (StackOverflowError e) {
                hit = new TranslationException("54001", "statement too complex: it nests expressions or subqueries too"
                        + " deeply for the SQL parser; split it or nest less");
            }
            if (!(hit instanceof TranslationException te && te.isParseTimeout())) {
                synchronized (cache) {
                    cache.put(key, new Cached(hit, schemaVersion));
                }
            }
        }
        if (hit instanceof Translation && ((Translation) hit).kind() == StatementKind.DDL) {
            ((Translation) hit).learnInto(catalog);
        }
        if (hit instanceof TranslationException) {
            throw ((TranslationException) hit).toSqlException();
        }
        return (Translation) hit;
    }

    private Translation analyze(String clientSql, String schema) {
        Translation.Builder b = new Translation.Builder();
        b.clientSql = clientSql;
        b.client = client;
        b.catalog = catalog;
        b.mixedPadding = mixedPadding;
        String sql = stripTerminator(clientSql);
        if (transaction(withoutLeadingComments(sql), b)) {
            return new Translation(b);
        }
        String text = client.backslashEscapesInStrings() ? SqlText.mysqlLiteralsToStandard(sql) : sql;
        String current = schema;
        String defaultStored = defaultSchema;
        if (current == null && defaultStored != null) current = '"' + defaultStored.replace("\"", "\"\"") + '"';
        if (current != null || serverVersion != null) {
            text = SchemaQualifier.sessionValuesAsLiterals(text, current, serverVersion, client);
        }
        if (client.family() == Dialect.Family.MYSQL) text = SessionSetting.keptVariablesAsValues(text, true);
        if (client.family() == Dialect.Family.MYSQL) text = SHARED_LOCKING_READ.matcher(text).replaceFirst("");
        text = DdlRenderer.dropForeignKeyAsConstraint(text);
        text = DdlRenderer.dropIndexOnQualifiedTable(text);
        text = DdlRenderer.signedNumberDefaults(text);
        text = DdlRenderer.columnChangesAsParsed(text);
        text = DdlRenderer.unnamedConstraints(text);
        if (client.family() == Dialect.Family.MYSQL && !mysqlTargetsOnly) text = DdlRenderer.unnamedKeys(text);
        text = SequenceStatement.callAsValues(text);
        List<DdlRenderer.IdentityOptions> identityOptions = new ArrayList<>();
        if (text.regionMatches(true, 0, "CREATE", 0, "CREATE".length())) {
            text = DdlRenderer.extractIdentityOptions(text, identityOptions);
        }
        b.identityOptions = identityOptions;
        Statement st;
        try {
            // a session statement the parser does not read runs as written: no keyword of it read as a name
            st = parse(text, SESSION_PASSTHROUGH.matcher(sql).matches() ? null : client, parseTimeoutMs);
        } catch (TranslationException e) {
            if (SESSION_PASSTHROUGH.matcher(sql).matches() && sql.indexOf('?') < 0) {
                b.kind = StatementKind.SESSION;
                b.passthroughParameters = 0;
                return new Translation(b);
            }
            throw e;
        }
        return analyzeParsed(b, st, schema);
    }

    /**
     * The SELECT of a translated {@code INSERT INTO t (columns) SELECT ...} as a query of its own, with the same client
     * parameter markers (they are all in the SELECT): for a coordinator that runs the SELECT, voted, and then inserts its
     * rows itself ({@link Translation#insertSelectSql()}). Made once per translation of the INSERT.
     */
    public Translation insertSelect(Translation insert, String schema) throws SQLException {
        Translation made = insert.insertSelectQuery();
        if (made != null) return made;
        String select = insert.insertSelectSql();
        if (select == null) throw new SQLException("not an INSERT ... SELECT: " + insert.clientSql(), "0A000");
        Translation.Builder b = new Translation.Builder();
        b.clientSql = select;
        b.client = client;
        b.catalog = catalog;
        b.mixedPadding = mixedPadding;
        b.identityOptions = List.of();
        try {
            Translation t = analyzeParsed(b, parse(select, client, parseTimeoutMs), schema);
            for (Dialect d : eagerTargets) t.sqlFor(d);
            insert.insertSelectQuery(t); // the INSERT's translation is cached per schema and catalog version: so is this
            return t;
        } catch (TranslationException e) {
            throw e.toSqlException();
        }
    }

    /**
     * Derby's and Db2's {@code INSERT ... VALUES 1, 2} (rows of one column without parentheses) as {@code VALUES (1), (2)},
     * which every engine reads, so that every rewrite of an INSERT's rows sees one list per row.
     */
    @SuppressWarnings("unchecked")
    private static void parenthesizeRows(Values values) {
        ExpressionList<?> expressions = values.getExpressions();
        if (expressions instanceof ParenthesedExpressionList) return; // one row
        ExpressionList<Expression> rows = new ExpressionList<>();
        for (Object row : expressions) {
            rows.add(row instanceof ExpressionList ? (ExpressionList<Expression>) row
                    : new ParenthesedExpressionList<>((Expression) row));
        }
        values.setExpressions(rows);
    }

    /**
     * A VALUES statement of one row ({@code VALUES 1}, {@code VALUES (1, 'a')}, {@code VALUES CURRENT_TIMESTAMP}) as
     * {@code SELECT 1 AS "1", 'a' AS "2"}: engines label a VALUES statement's columns differently (Derby 1, 2, ...; HSQLDB
     * C1, C2, ...), which the vote would take for different answers, and MySQL spells it VALUES ROW(...). The labels are
     * Derby's. A VALUES of several rows is the UNION ALL of such SELECTs, the first one naming the columns.
     */
    private static Statement valuesAsSelect(Values values) {
        parenthesizeRows(values);
        List<ExpressionList<Expression>> rows = ClockDefaults.rows(values);
        List<Select> selects = new ArrayList<>();
        for (ExpressionList<Expression> row : rows) {
            PlainSelect select = new PlainSelect();
            for (int i = 0; i < row.size(); i++) {
                SelectItem<?> item = SelectItem.from(row.get(i));
                if (selects.isEmpty()) item.withAlias(new Alias("\"" + (i + 1) + "\"", true)); // the first branch names them
                select.addSelectItems(item);
            }
            selects.add(select);
        }
        if (selects.size() == 1) return selects.get(0);
        List<SetOperation> unions = new ArrayList<>();
        for (int i = 1; i < selects.size(); i++) unions.add(new UnionOp().withAll(true));
        return new SetOperationList().withSelects(selects).withOperations(unions);
    }

    /** Classifies and checks a parsed statement (of {@code b.clientSql}) and fills the rest of {@code b}. */
    private Translation analyzeParsed(Translation.Builder b, Statement parsed, String schema) {
        Statement st = parsed instanceof Values values ? valuesAsSelect(values)
                : parsed instanceof RenameTableStatement rename ? DdlRenderer.renameAsAlter(rename) : parsed;
        if (b.clientSql.toUpperCase(Locale.ROOT).contains("CURRENT")) ReservedNames.bareCurrentAsColumn(st, client);
        b.ast = st;
        b.kind = classify(st);
        if (b.kind == StatementKind.TRANSACTION) {
            transaction(st, b);
            return new Translation(b);
        }
        if (schema != null && b.kind != StatementKind.SESSION) SchemaQualifier.qualify(st, b.kind, schema);
        String defaultStored = defaultSchema;
        if (defaultStored != null && b.clientSql.toUpperCase(Locale.ROOT).contains(defaultStored.toUpperCase(Locale.ROOT))) {
            SchemaQualifier.withoutDefaultSchema(st, b.kind, defaultStored, client); // only where the SQL names it
        }
        b.defaultSchema = defaultStored;
        if (st instanceof Alter && schema == null) {
            b.alterChangesAsWritten = DdlRenderer.changesAsWritten(stripTerminator(b.clientSql), defaultStored, client);
        }
        if (st instanceof Alter alter && DdlRenderer.addsClockColumn(alter, client)) b.addedAt = ddlClock.get();
        if (st instanceof Insert insert && insert.getSelect() instanceof Values values) parenthesizeRows(values);
        if (b.kind == StatementKind.WRITE || b.kind == StatementKind.DDL) ClockDefaults.fillIn(st, catalog, client);
        b.readsCatalog = b.kind == StatementKind.READ && readsCatalog(b.clientSql);
        if (b.readsCatalog) HiddenCatalogRows.leaveOut(st, hiddenTables);
        if (b.kind == StatementKind.READ && !b.readsCatalog) OrderTieBreaker.complete(st, catalog);
        if (st instanceof Insert insert && insert.getReturningClause() != null && hasReturning(client)) b.returning = returned(insert);
        check(st);
        if (st instanceof Select) {
            b.orderKeyColumns = orderKeyColumns((Select) st);
        } else if (st instanceof Insert) {
            b.insertTable = ((Insert) st).getTable().getFullyQualifiedName();
            b.upsert = ((Insert) st).isUseDuplicate();
        } else if (st instanceof Upsert) { // MySQL's REPLACE INTO (check refused the others)
            b.insertTable = ((Upsert) st).getTable().getFullyQualifiedName();
            b.upsert = true;
        } else if (st instanceof CreateTable) {
            CreateTable ct = (CreateTable) st;
            b.identityColumns = DdlRenderer.identityColumns(ct, client);
            b.existence = ct.isIfNotExists() ? Translation.Existence.IF_NOT_EXISTS : Translation.Existence.NONE;
        } else if (st instanceof CreateIndex) {
            b.existence = ((CreateIndex) st).isUsingIfNotExists() ? Translation.Existence.IF_NOT_EXISTS : Translation.Existence.NONE;
        } else if (st instanceof Drop) {
            b.existence = ((Drop) st).isIfExists() ? Translation.Existence.IF_EXISTS : Translation.Existence.NONE;
        } else if (st instanceof Alter) {
            Alter alter = (Alter) st;
            boolean ifTable = alter.isUseTableIfExists();
            boolean ifPart = alter.getAlterExpressions() != null && alter.getAlterExpressions().stream().anyMatch(a -> a.isUsingIfExists());
            b.existence = ifTable && ifPart ? Translation.Existence.IF_EXISTS : ifTable ? Translation.Existence.IF_TABLE_EXISTS
                    : ifPart ? Translation.Existence.IF_PART_EXISTS : Translation.Existence.NONE;
        }
        return new Translation(b);
    }

    /**
     * A query of the catalog: the SQL standard's INFORMATION_SCHEMA (MySQL, MariaDB, HSQLDB, PostgreSQL), Derby's SYS and
     * Db2's SYSCAT / SYSIBM tables, qualified by their schema as such queries are written.
     */
    private static final Pattern CATALOG = Pattern.compile("\\b(?:information_schema|sys|syscat|sysibm)\\s*\\.",
            Pattern.CASE_INSENSITIVE);

    /** Whether {@code sql} names a table of the catalog (its rows may name the shepherd's own tables). */
    public static boolean readsCatalog(String sql) {
        return sql.length() < 65_536 && CATALOG.matcher(sql).find();
    }

    /**
     * {@code sql}, a statement sent as the client wrote it to every replica of its dialect family, without the qualifier
     * that names the schema a connection of the primary starts in ({@link #withDefaultSchema}; a MySQL database's name,
     * which each replica names otherwise): unqualified, a name means each replica's own schema, as in the statements the
     * translator renders. Unchanged when no default schema is known.
     */
    public String withoutDefaultSchema(String sql) {
        String stored = defaultSchema;
        return stored == null ? sql : SqlText.withoutSchemaQualifier(sql, stored, client);
    }

    /**
     * Refuses (0A000) a statement the parser could not read, which runs unchanged on replicas of the client's dialect
     * family, when it holds something each replica would evaluate for itself ({@code NOW()}, {@code CURRENT_TIMESTAMP},
     * {@code NEXT VALUE FOR}, a variable, ...): translated statements have those pinned or refused, this one cannot.
     */
    public void refuseEvaluatedPerReplica(String sql) throws SQLException {
        try {
            SqlText.refuseEvaluatedPerReplica(sql, client.backslashEscapesInStrings());
        } catch (TranslationException e) {
            throw e.toSqlException();
        }
    }

    /**
     * {@code sql} rendered for dialect {@code d} when it is a savepoint statement (SAVEPOINT, ROLLBACK TO SAVEPOINT or
     * RELEASE SAVEPOINT, in any dialect's spelling), else null: for a mode that otherwise sends the client's SQL
     * unchanged to its one database.
     */
    public static String savepointStatementFor(String sql, Dialect d) throws SQLException {
        Translation.Builder b = new Translation.Builder();
        b.clientSql = sql;
        b.client = d;
        if (!transaction(withoutLeadingComments(stripTerminator(sql)), b) || !b.control.insideTransaction()) return null;
        return new Translation(b).sqlFor(d);
    }

    static String stripTerminator(String sql) {
        String s = sql.strip();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).strip();
        }
        return s;
    }

    private static boolean transaction(String sql, Translation.Builder b) {
        Matcher m;
        if (BEGIN.matcher(sql).matches()) {
            b.control = TransactionControl.BEGIN;
        } else if (COMMIT.matcher(sql).matches()) {
            b.control = TransactionControl.COMMIT;
        } else if (ROLLBACK.matcher(sql).matches()) {
            b.control = TransactionControl.ROLLBACK;
        } else if ((m = ROLLBACK_TO.matcher(sql)).matches()) {
            b.control = TransactionControl.ROLLBACK_TO_SAVEPOINT;
            b.savepointName = m.group(3);
        } else if ((m = SAVEPOINT.matcher(sql)).matches()) {
            b.control = TransactionControl.SAVEPOINT;
            b.savepointName = m.group(1);
        } else if ((m = RELEASE.matcher(sql)).matches()) {
            b.control = TransactionControl.RELEASE_SAVEPOINT;
            b.savepointName = m.group(3);
        } else {
            return false;
        }
        b.kind = StatementKind.TRANSACTION;
        b.passthroughParameters = 0;
        return true;
    }

    /** Transaction statements the parser recognized (e.g. behind a comment the patterns do not skip). */
    private static void transaction(Statement st, Translation.Builder b) {
        b.passthroughParameters = 0;
        b.ast = null;
        if (st instanceof Commit) {
            b.control = TransactionControl.COMMIT;
        } else if (st instanceof SavepointStatement) {
            b.control = TransactionControl.SAVEPOINT;
            b.savepointName = ((SavepointStatement) st).getSavepointName();
        } else {
            String savepoint = ((RollbackStatement) st).getSavepointName();
            b.control = savepoint == null ? TransactionControl.ROLLBACK : TransactionControl.ROLLBACK_TO_SAVEPOINT;
            b.savepointName = savepoint;
        }
    }

    /** The first words of the statements MySQL and MariaDB commit the open transaction before, and commit after. */
    private static final Pattern COMMITS_IMPLICITLY = Pattern.compile("(?i)(?:ALTER|CREATE(?!\\s+TEMPORARY\\b)"
            + "|DROP(?!\\s+TEMPORARY\\b)|RENAME|TRUNCATE|ANALYZE|OPTIMIZE|REPAIR|CHECK|FLUSH|GRANT|REVOKE|INSTALL|UNINSTALL"
            + "|CACHE|RESET)\\b.*", Pattern.DOTALL);

    /**
     * Whether MySQL and MariaDB commit the open transaction at {@code sql} and commit it too: DDL (but CREATE/DROP
     * TEMPORARY TABLE), the table maintenance statements (ANALYZE, OPTIMIZE, REPAIR, CHECK TABLE), FLUSH, GRANT, REVOKE
     * and the like, by their first word. For statements sent as the client wrote them, whose kind the translator does
     * not know.
     */
    public static boolean commitsImplicitlyOnMySql(String sql) {
        return COMMITS_IMPLICITLY.matcher(withoutLeadingComments(sql.strip())).matches();
    }

    static String withoutLeadingComments(String sql) {
        String s = sql;
        while (true) {
            if (s.startsWith("--")) {
                int end = s.indexOf('\n');
                s = end < 0 ? "" : s.substring(end + 1).strip();
            } else if (s.startsWith("/*")) {
                int end = s.indexOf("*/");
                s = end < 0 ? "" : s.substring(end + 2).strip();
            } else {
                return s;
            }
        }
    }

    /** At most this many parses are tried with keywords quoted as names ({@link #parse(String, Dialect, long)}). */
    private static final int MAX_KEYWORD_RETRIES = 8;

    /** The words JSqlParser refuses as names wherever they stand (besides those it refuses in some places only). */
    private static final Set<String> PARSER_KEYWORDS = parserKeywords();

    private static Set<String> parserKeywords() {
        Set<String> words = new java.util.HashSet<>();
        for (String w : ParserKeywordsUtils.getReservedKeywords(ParserKeywordsUtils.RESTRICTED_JSQLPARSER)) {
            words.add(w.strip().toUpperCase(Locale.ROOT));
        }
        return Set.copyOf(words);
    }

    /**
     * Parses exactly one statement ({@link #parse(String, long, long)}) and reads as a name a keyword of the parser's
     * that the client's engine takes as a name: JSqlParser refuses some words as names (a MySQL column {@code current} or
     * {@code global}, {@code REFERENCES user (id)}, {@code DROP COLUMN year}). Where the parse fails, the word it failed at
     * (or read just before), or else a later word of JSqlParser's keywords, if unquoted and not reserved by the client's
     * engine ({@link Dialect#reservesWord}), is put in backticks (which JSqlParser reads as a name whatever the client)
     * and the statement parsed again; a quoting is kept when the parse then gets further. Once the statement parses,
     * the quoted names in its tree lose their backticks again: the client wrote them unquoted, so each target folds
     * them as any unquoted name (and {@link ReservedNames} quotes them where the target reserves them). A statement that
     * still fails is refused with the first error. Only a statement the parser refuses is changed, and only into one
     * that parses whole. Without a {@code client} no keyword is read as a name.
     */
    static Statement parse(String sql, Dialect client, long timeoutMs) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        String text;
        SyntaxError failed;
        try {
            return parse(sql, deadline, timeoutMs);
        } catch (SyntaxError e) {
            if (client == null) throw e.error;
            text = sql;
            failed = e;
        }
        SyntaxError first = failed;
        Set<String> quotedWords = new java.util.HashSet<>();
        int retries = 0;
        while (retries < MAX_KEYWORD_RETRIES) {
            boolean progressed = false;
            for (int[] word : keywordsToQuote(text, failed, client)) {
                if (retries++ == MAX_KEYWORD_RETRIES) break;
                String quoted = text.substring(word[0], word[1]);
                String next = text.substring(0, word[0]) + '`' + quoted + '`' + text.substring(word[1]);
                try {
                    Statement st = parse(next, deadline, timeoutMs);
                    quotedWords.add(quoted);
                    ReservedNames.unquoteWords(st, quotedWords);
                    return st;
                } catch (SyntaxError e) {
                    if (e.offset(next) > failed.offset(text) + 2) {
                        quotedWords.add(quoted);
                        text = next;
                        failed = e;
                        progressed = true;
                        break;
                    }
                }
            }
            if (!progressed) break;
        }
        throw first.error;
    }

    /**
     * The words of {@code sql} worth quoting after {@code failed}: the tokens it failed at and read before, then
     * JSqlParser's keywords after them; each bare, unquoted and not reserved by the client's engine.
     */
    private static List<int[]> keywordsToQuote(String sql, SyntaxError failed, Dialect client) {
        List<int[]> words = new ArrayList<>();
        int at = offsetOf(sql, failed.at);
        int before = offsetOf(sql, failed.before);
        int from = before >= 0 ? before : at;
        if (from < 0) return words;
        SqlWords.scan(sql, false, (text, start, end) -> {
            if (end <= from) return;
            String word = text.substring(start, end);
            boolean tokenAtFailure = start == at || start == before;
            if ((tokenAtFailure || PARSER_KEYWORDS.contains(word.toUpperCase(Locale.ROOT))) && ReservedNames.isBare(word)
                    && !client.reservesWord(word) && !Character.isDigit(word.charAt(0))) {
                words.add(new int[] {start, end});
            }
        });
        return words;
    }

    /** Where {@code token} starts in {@code sql}; -1 where it is not there. */
    private static int offsetOf(String sql, Token token) {
        if (token == null || token.image == null || token.image.isEmpty()) return -1;
        int offset = 0;
        for (int line = 1; line < token.beginLine; line++) {
            offset = sql.indexOf('\n', offset) + 1;
            if (offset == 0) return -1;
        }
        offset += token.beginColumn - 1;
        return offset >= 0 && sql.regionMatches(offset, token.image, 0, token.image.length()) ? offset : -1;
    }

    /**
     * A statement the parser refused, with the token it stopped at and the one it read before it (a keyword read as
     * the start of a clause fails at the next token: {@code (id, current, ...)} at the comma); null where the tokenizer
     * failed.
     */
    private static final class SyntaxError extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient TranslationException error;
        final transient Token before;
        final transient Token at;

        SyntaxError(TranslationException error, Token before, Token at) {
            super(null, null, false, false);
            this.error = error;
            this.before = before;
            this.at = at;
        }

        /** Where in {@code sql} the parser stopped: how far it got (-1 where the tokenizer failed). */
        int offset(String sql) {
            return offsetOf(sql, at);
        }
    }

    /**
     * Parses exactly one statement on the calling thread (JSqlParser's own helpers start a thread per parse), giving up
     * at {@code deadline} ({@link System#nanoTime}): JSqlParser's lookahead takes exponential time on some inputs
     * (twenty nested parentheses in a select list run for minutes), and a worker thread must not be held that long by
     * one statement.
     */
    private static Statement parse(String sql, long deadline, long timeoutMs) {
        TranslationException first = null;
        ParseException furthest = null;
        for (boolean complex : new boolean[] {false, true}) {
            CCJSqlParser parser = CCJSqlParserUtil.newParser(sql).withAllowComplexParsing(complex);
            long left = deadline - System.nanoTime();
            ScheduledFuture<?> stop = left <= 0 ? null
                    : PARSE_DEADLINES.schedule(() -> parser.interrupted = true, left, TimeUnit.NANOSECONDS);
            if (stop == null) parser.interrupted = true;
            try {
                Statement st = parser.Statement();
                Token next = parser.getNextToken();
                while (next.kind == CCJSqlParserConstants.ST_SEMICOLON) {
                    next = parser.getNextToken();
                }
                if (next.kind != CCJSqlParserConstants.EOF) {
                    throw new TranslationException("42000", "Syntax error: one statement per call; unexpected '" + next.image
                            + "' at line " + next.beginLine + ", column " + next.beginColumn);
                }
                return st;
            } catch (ParseException | TokenMgrException e) {
                if (parser.interrupted) {
                    throw TranslationException.parseTimeout(timeoutMs);
                }
                if (first == null) {
                    first = new TranslationException("42000", "Syntax error: " + firstLine(e.getMessage()));
                }
                if (e instanceof ParseException pe && pe.currentToken != null && pe.currentToken.next != null
                        && (furthest == null || isAfter(pe.currentToken.next, furthest.currentToken.next))) {
                    furthest = pe;
                }
            } finally {
                if (stop != null) stop.cancel(false);
            }
        }
        throw furthest == null ? new SyntaxError(first, null, null)
                : new SyntaxError(first, furthest.currentToken, furthest.currentToken.next);
    }

    private static boolean isAfter(Token a, Token b) {
        return a.beginLine > b.beginLine || (a.beginLine == b.beginLine && a.beginColumn > b.beginColumn);
    }

    /**
     * Ends parses that run past their deadline ({@link #parse}): one daemon thread for every translator, which ends
     * when no parse has been running for a second.
     */
    private static final ScheduledThreadPoolExecutor PARSE_DEADLINES = parseDeadlines();

    private static ScheduledThreadPoolExecutor parseDeadlines() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "translator-parse-deadline");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        timer.setKeepAliveTime(1, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true);
        return timer;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unparseable statement";
        }
        String m = message.strip().replaceAll("\\s+", " ");
        int expecting = m.indexOf(" Was expecting");
        if (expecting > 0) {
            m = m.substring(0, expecting);
        }
        return m.length() > 300 ? m.substring(0, 300) + "..." : m;
    }

    private static StatementKind classify(Statement st) {
        if (st instanceof Select) {
            Select s = (Select) st;
            if (s.getForMode() != null || s instanceof PlainSelect && ((PlainSelect) s).getForMode() != null) {
                return StatementKind.WRITE;
            }
            return StatementKind.READ;
        }
        if (st instanceof Insert || st instanceof Update || st instanceof Delete || st instanceof Merge || st instanceof Upsert) {
            return StatementKind.WRITE;
        }
        if (st instanceof CreateTable || st instanceof CreateIndex || st instanceof CreateView || st instanceof Drop
                || st instanceof Alter || st instanceof Truncate) {
            return StatementKind.DDL;
        }
        if (st instanceof Commit || st instanceof RollbackStatement || st instanceof SavepointStatement) {
            return StatementKind.TRANSACTION;
        }
        if (st instanceof SetStatement || st instanceof UseStatement || st instanceof ResetStatement) {
            return StatementKind.SESSION;
        }
        return StatementKind.OTHER;
    }

    /** Whether the client's engine has {@code INSERT ... RETURNING}: MariaDB (10.5 on) and PostgreSQL. */
    private static boolean hasReturning(Dialect client) {
        return client.family() == Dialect.Family.POSTGRESQL || client == Dialect.MARIADB;
    }

    /**
     * The columns of an INSERT's RETURNING clause, taken off the statement (no engine but MariaDB and PostgreSQL has it):
     * plain columns only, each as written and its label (the alias, else the name).
     */
    private static List<Translation.Returned> returned(Insert insert) {
        ReturningClause clause = insert.getReturningClause();
        if (clause.getDataItems() != null && !clause.getDataItems().isEmpty()) {
            throw TranslationException.unsupported("RETURNING ... INTO is not portable; read the keys with Statement.getGeneratedKeys()");
        }
        List<Translation.Returned> out = new ArrayList<>();
        for (SelectItem<?> item : clause) {
            if (!(item.getExpression() instanceof Column column)) {
                throw TranslationException.unsupported("INSERT ... RETURNING " + item + ": Shepherd returns the generated key"
                        + " column only; read other values with a SELECT");
            }
            String label = item.getAlias() != null ? item.getAlias().getName() : column.getColumnName();
            out.add(new Translation.Returned(column.getColumnName(), SchemaCatalog.unquoted(label)));
        }
        insert.setReturningClause(null);
        return out;
    }

    /**
     * MySQL's shared locking read, {@code SELECT ... LOCK IN SHARE MODE} (or {@code FOR SHARE}), which the parser does not
     * read and the other engines do not have: every replica runs SERIALIZABLE (the replica setup), where a plain SELECT
     * takes the same shared locks (InnoDB turns it into exactly this), so the clause is left out.
     */
    private static final Pattern SHARED_LOCKING_READ = Pattern.compile("(?is)\\s+(?:LOCK\\s+IN\\s+SHARE\\s+MODE|FOR\\s+SHARE)\\s*$");

    /** Rejections that do not depend on the target dialect. */
    private void check(Statement st) {
        if (st instanceof Update && ((Update) st).getLimit() != null || st instanceof Delete && ((Delete) st).getLimit() != null) {
            throw TranslationException.unsupported("UPDATE/DELETE ... LIMIT changes rows chosen in an engine-specific order (and "
                    + "is MySQL-only); select the rows by key in the WHERE clause instead");
        }
        if (st instanceof Update && ((Update) st).getOrderByElements() != null
                || st instanceof Delete && ((Delete) st).getOrderByElements() != null) {
            throw TranslationException.unsupported("UPDATE/DELETE ... ORDER BY is MySQL-only; select the rows in the WHERE clause");
        }
        if (st instanceof Upsert u && !(u.getUpsertType() == UpsertType.REPLACE && client.family() == Dialect.Family.MYSQL)) {
            throw TranslationException.unsupported("REPLACE/UPSERT is not portable; use UPDATE, then INSERT when no row changed");
        }
        if (st instanceof Insert) {
            Insert insert = (Insert) st;
            if (insert.getConflictAction() != null || insert.isUseDuplicate() && client.family() != Dialect.Family.MYSQL) {
                throw TranslationException.unsupported("INSERT ... ON DUPLICATE KEY / ON CONFLICT is not portable; use UPDATE, then "
                        + "INSERT when no row changed");
            }
            if (insert.isModifierIgnore()) {
                throw TranslationException.unsupported("INSERT IGNORE hides per-replica errors; use a plain INSERT");
            }
            if (insert.getReturningClause() != null || insert.getOutputClause() != null) {
                throw TranslationException.unsupported("INSERT ... RETURNING / OUTPUT is not " + client.name() + "'s; use"
                        + " Statement.getGeneratedKeys()");
            }
            if (insert.isUseSet()) {
                throw TranslationException.unsupported("INSERT ... SET is MySQL-only; write INSERT INTO t (columns) VALUES (...)");
            }
        }
        if (st instanceof Update && ((Update) st).getReturningClause() != null
                || st instanceof Delete && ((Delete) st).getReturningClause() != null) {
            throw TranslationException.unsupported("RETURNING is not portable; query the rows in a separate SELECT");
        }
    }

    /** See {@link Translation#orderKeyColumns()}. */
    static int[] orderKeyColumns(Select s) {
        List<OrderByElement> order = s.getOrderByElements();
        if (order == null || order.isEmpty()) {
            return null;
        }
        List<SelectItem<?>> items = null;
        if (s instanceof PlainSelect) {
            items = ((PlainSelect) s).getSelectItems();
        } else if (s instanceof SetOperationList && ((SetOperationList) s).getSelect(0) instanceof PlainSelect) {
            items = ((PlainSelect) ((SetOperationList) s).getSelect(0)).getSelectItems();
        }
        if (items == null) {
            return null;
        }
        boolean star = items.stream()
                .anyMatch(i -> i.getExpression() instanceof AllColumns || i.getExpression() instanceof AllTableColumns);
        int[] keys = new int[order.size()];
        for (int k = 0; k < keys.length; k++) {
            Expression e = order.get(k).getExpression();
            if (e instanceof LongValue) {
                long position = ((LongValue) e).getValue();
                if (position < 1 || !star && position > items.size()) {
                    return null;
                }
                keys[k] = (int) position;
                continue;
            }
            if (star) {
                return null;
            }
            int found = resolve(items, e);
            if (found < 1) {
                return null;
            }
            keys[k] = found;
        }
        return keys;
    }

    private static int resolve(List<SelectItem<?>> items, Expression e) {
        String text = e.toString();
        if (e instanceof Column && ((Column) e).getTable() == null) {
            String name = unquote(((Column) e).getColumnName());
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i).getAlias() != null && unquote(items.get(i).getAlias().getName()).equalsIgnoreCase(name)) {
                    return i + 1;
                }
            }
        }
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).getAlias() == null && items.get(i).getExpression().toString().equalsIgnoreCase(text)) {
                return i + 1;
            }
        }
        if (e instanceof Column) {
            Column c = (Column) e;
            int match = -1;
            for (int i = 0; i < items.size(); i++) {
                Expression item = items.get(i).getExpression();
                if (items.get(i).getAlias() == null && item instanceof Column
                        && unquote(((Column) item).getColumnName()).equalsIgnoreCase(unquote(c.getColumnName()))
                        && (c.getTable() == null || ((Column) item).getTable() == null)) {
                    if (match > 0) {
                        return -1;
                    }
                    match = i + 1;
                }
            }
            return match;
        }
        return -1;
    }

    private static String unquote(String name) {
        String n = name.trim();
        if (n.length() >= 2 && (n.charAt(0) == '"' || n.charAt(0) == '`')) {
            return n.substring(1, n.length() - 1);
        }
        return n.toLowerCase(Locale.ROOT);
    }
}
