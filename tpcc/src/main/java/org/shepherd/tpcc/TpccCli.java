package org.shepherd.tpcc;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bin/tpcc load|run|check}: exit 0 ok, 1 the job failed, 2 bad usage. */
@Command(name = "tpcc", mixinStandardHelpOptions = true, version = "tpcc 0.1",
    description = "TPC-C loader, driver and consistency checker over any JDBC URL (a database or a shepherd).",
    subcommands = {TpccCli.Load.class, TpccCli.Run.class, TpccCli.Check.class, CommandLine.HelpCommand.class})
public final class TpccCli {

    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_USAGE = 2;

    public static void main(String[] args) {
        System.exit(execute(System.out, System.err, args));
    }

    /** Runs the command line with the given streams and returns the exit code. */
    public static int execute(PrintStream out, PrintStream err, String... args) {
        CommandLine cli = new CommandLine(new TpccCli());
        cli.setOut(new java.io.PrintWriter(out, true));
        cli.setErr(new java.io.PrintWriter(err, true));
        cli.setExitCodeExceptionMapper(TpccCli::exitCode);
        cli.setExecutionExceptionHandler((e, command, parseResult) -> {
            err.println("tpcc: " + describe(e));
            return exitCode(e);
        });
        for (CommandLine sub : cli.getSubcommands().values()) {
            if (sub.getCommand() instanceof Base base) {
                base.out = out;
                base.err = err;
            }
        }
        return cli.execute(args);
    }

    static int exitCode(Throwable e) {
        return e instanceof IllegalArgumentException || e instanceof CommandLine.ParameterException ? EXIT_USAGE : EXIT_FAILED;
    }

    private static String describe(Throwable e) {
        if (e instanceof SQLException sql) return sql.getMessage() + " (SQLState " + sql.getSQLState() + ")";
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** --url, --user, --password, --dialect. */
    static final class ConnectionOptions {
        @Option(names = "--url", required = true, description = "JDBC URL of the database or shepherd")
        String url;
        @Option(names = "--user", description = "database user")
        String user;
        @Option(names = "--password", description = "database password")
        String password;
        @Option(names = "--dialect", description = "DDL dialect: portable, derby, hsqldb, postgresql, mariadb, mysql"
            + " (default: from the URL; portable for jdbc:shepherd:)")
        String dialect;

        Jdbc jdbc() {
            return new Jdbc(url, user, password);
        }

        Dialect dialect() {
            return dialect == null ? Dialect.fromUrl(url) : Dialect.parse(dialect);
        }
    }

    abstract static class Base implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;
        @Mixin
        ConnectionOptions connection = new ConnectionOptions();
        @Option(names = "--small", description = "1/6-size warehouses as in the HRDB paper (see docs/benchmarks.md)")
        boolean small;
        @Option(names = "--seed", defaultValue = "1", description = "random seed (default: ${DEFAULT-VALUE})")
        long seed;
        @Option(names = "--json", description = "also write the results to this JSON file")
        Path json;
        PrintStream out = System.out;
        PrintStream err = System.err;

        void writeJson(Object value) throws IOException {
            if (json != null) Report.writeJson(json, value);
        }
    }

    @Command(name = "load", mixinStandardHelpOptions = true,
        description = "Drop and create the TPC-C tables and load them (clause 4.3.3.1).")
    static final class Load extends Base {
        @Option(names = "--warehouses", required = true, description = "number of warehouses")
        int warehouses;
        @Option(names = "--batch-rows", defaultValue = "" + Loader.DEFAULT_BATCH_ROWS,
            description = "rows per JDBC batch and per commit (default: ${DEFAULT-VALUE})")
        int batchRows;
        @Option(names = "--loader-threads", defaultValue = "1",
            description = "warehouses loaded in parallel, one connection each (default: ${DEFAULT-VALUE})")
        int threads;

        @Override
        public Integer call() throws Exception {
            Loader.Options options = new Loader.Options(new Scale(warehouses, small), seed, connection.dialect(), batchRows,
                threads, Clock.systemUTC());
            Loader.Result result = new Loader(connection.jdbc(), options, err, System.console() != null).load();
            Report.printLoad(result, out);
            out.println("check it with: tpcc check --after-load --url ...");
            writeJson(result);
            return EXIT_OK;
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run the TPC-C transaction mix and print throughput and latency per transaction type.")
    static final class Run extends Base {
        @Option(names = "--warehouses", required = true, description = "warehouses to use (at most the number loaded)")
        int warehouses;
        @Option(names = "--terminals", defaultValue = "10", description = "concurrent terminals (default: ${DEFAULT-VALUE})")
        int terminals;
        @Option(names = "--duration", defaultValue = "60", description = "measured seconds (default: ${DEFAULT-VALUE})")
        double durationS;
        @Option(names = "--warmup", defaultValue = "0", description = "unmeasured seconds first (default: ${DEFAULT-VALUE})")
        double warmupS;
        @Option(names = "--think-ms", defaultValue = "0",
            description = "pause between a terminal's transactions, MIN-MAX ms uniform, e.g. 180-220 (default: none)")
        String thinkMs;
        @Option(names = "--max-retries", defaultValue = "10",
            description = "re-runs of a transaction after serialization failures (default: ${DEFAULT-VALUE})")
        int maxRetries;
        @Option(names = "--transactions", defaultValue = "0",
            description = "stop each terminal after this many transactions (default: no limit)")
        long transactionsPerTerminal;
        @Option(names = "--progress-s", defaultValue = "5", description = "seconds between progress lines (default: ${DEFAULT-VALUE})")
        double progressS;
        @Option(names = "--reconnect", arity = "0..1", paramLabel = "S", defaultValue = "0", fallbackValue = "60",
            description = "a terminal whose connection breaks (SQLState class 08) opens a new one, trying for up to S"
                + " seconds (60 when S is left out), and runs the transaction again as a new one; one whose COMMIT failed"
                + " that way is counted in doubt, not run again (default: off, the transaction is an error)")
        double reconnectS;
        @Option(names = "--isolation", defaultValue = "default",
            description = "transaction isolation: default (the driver's), read-committed, repeatable-read, serializable")
        String isolation;

        @Override
        public Integer call() throws Exception {
            int[] think = parseRange(thinkMs);
            Scale scale = new Scale(warehouses, small);
            int level = isolationLevel(isolation);
            Jdbc plain = connection.jdbc();
            Jdbc jdbc = level < 0 ? plain : new Jdbc(plain.url(), plain.user(), plain.password(),
                c -> c.setTransactionIsolation(level));
            try (Connection c = jdbc.connect()) {
                verifyScale(c, scale);
            }
            Runner.Options options = new Runner.Options(scale, terminals, durationS, warmupS, seed, think[0], think[1],
                maxRetries, progressS, transactionsPerTerminal, reconnectS, Clock.systemUTC());
            RunResult result = new Runner(jdbc, options, err).run();
            Report.printRun(result, out);
            writeJson(result);
            if (result.errors() > 0) {
                err.println("tpcc: " + result.errors() + " transaction(s) failed; first: " + result.firstErrors().get(0));
                return EXIT_FAILED;
            }
            if (result.transactions() == 0) {
                err.println("tpcc: no transaction completed in the measured time");
                return EXIT_FAILED;
            }
            return EXIT_OK;
        }
    }

    /** The JDBC isolation constant for {@code --isolation}, or -1 for the driver's default. */
    static int isolationLevel(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "default":
                return -1;
            case "read-committed":
                return Connection.TRANSACTION_READ_COMMITTED;
            case "repeatable-read":
                return Connection.TRANSACTION_REPEATABLE_READ;
            case "serializable":
                return Connection.TRANSACTION_SERIALIZABLE;
            default:
                throw new IllegalArgumentException("--isolation must be default, read-committed, repeatable-read or"
                    + " serializable, was '" + name + "'");
        }
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
        description = "Check the 12 consistency conditions of TPC-C clause 3.3.2; optionally print a per-table digest.")
    static final class Check extends Base {
        @Option(names = "--warehouses", description = "ignored; the checker reads every warehouse present")
        Integer warehouses;
        @Option(names = "--after-load", description = "the database was just loaded: also check condition 11")
        boolean afterLoad;
        @Option(names = "--digest", description = "print table -> row count and order-independent content hash")
        boolean digest;

        @Override
        public Integer call() throws Exception {
            Map<String, Object> json = new LinkedHashMap<>();
            try (Connection c = connection.jdbc().connect()) {
                Scale scale = detectScale(c);
                List<Checker.Condition> conditions = new Checker(c, scale).checkAll(afterLoad);
                Report.printConditions(conditions, out);
                json.put("conditions", conditions);
                boolean failed = conditions.stream().anyMatch(x -> x.status() == Checker.Status.FAIL);
                if (digest) {
                    List<Digest.TableDigest> digests = Digest.ofTables(c);
                    out.println();
                    Report.printDigest(digests, out);
                    json.put("digest", digests);
                }
                json.put("passed", !failed);
                writeJson(json);
                out.println(failed ? "consistency check FAILED" : "consistency check passed");
                return failed ? EXIT_FAILED : EXIT_OK;
            }
        }
    }

    /** Parses "MIN-MAX" or a single number of milliseconds. */
    static int[] parseRange(String text) {
        String[] parts = text.trim().split("-", -1);
        try {
            if (parts.length == 1) {
                int v = Integer.parseInt(parts[0].trim());
                return new int[] {v, v};
            }
            if (parts.length == 2) return new int[] {Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim())};
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--think-ms must look like 180-220, was '" + text + "'", e);
        }
        throw new IllegalArgumentException("--think-ms must look like 180-220, was '" + text + "'");
    }

    static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Fails with a usage error when the database was loaded with another scale than the one asked for. */
    static void verifyScale(Connection c, Scale scale) throws SQLException {
        long loaded = count(c, TpccSql.COUNT_WAREHOUSES);
        if (loaded < scale.warehouses()) {
            throw new IllegalArgumentException("the database holds " + loaded + " warehouses; pass --warehouses "
                + loaded + " or load more");
        }
        long items = count(c, TpccSql.COUNT_ITEMS);
        if (items != scale.items()) {
            throw new IllegalArgumentException("the database holds " + items + " items but " + (scale.small() ? "small"
                : "standard") + " warehouses have " + scale.items() + "; " + (scale.small() ? "omit" : "add") + " --small");
        }
    }

    static Scale detectScale(Connection c) throws SQLException {
        long warehouses = count(c, TpccSql.COUNT_WAREHOUSES);
        long items = count(c, TpccSql.COUNT_ITEMS);
        if (warehouses < 1) throw new SQLException("the database holds no warehouse; run tpcc load first");
        return new Scale((int) warehouses, items == new Scale(1, true).items());
    }
}
