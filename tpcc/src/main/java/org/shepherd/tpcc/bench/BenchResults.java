package org.shepherd.tpcc.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The runs of one benchmark and what follows from them: median throughput per configuration and client count,
 * and ratios between configurations taken per repeat (the same repeat ran the same seeded transactions) and then
 * reduced to their median.
 */
final class BenchResults {

    /** One measured run. */
    record Run(String config, int terminals, int repeat, double tps, double tpmC, long transactions, long errors,
               long retries, double newOrderP90Ms, Map<String, CpuMeter.Usage> cpu) {
        Run {
            cpu = Map.copyOf(cpu);
        }

        Run(String config, int terminals, int repeat, double tps, double tpmC, long transactions, long errors,
            long retries, double newOrderP90Ms) {
            this(config, terminals, repeat, tps, tpmC, transactions, errors, retries, newOrderP90Ms, Map.of());
        }

        /** CPU milliseconds the role used per completed transaction in the measured window. */
        Optional<Double> cpuMsPerTransaction(String role) {
            CpuMeter.Usage u = cpu.get(role);
            return u == null || transactions == 0 ? Optional.empty() : Optional.of(u.cpuSeconds() * 1000 / transactions);
        }
    }

    /** The roles whose CPU {@code bench} measures, in table order. */
    static final List<String> CPU_ROLES = List.of("client", "shepherd", "databases");
    /** Prefix of the role of one database process of a replicated configuration ("database r1" is the first replica). */
    static final String DATABASE_ROLE_PREFIX = "database ";

    /** The pairs the paper's Figure 7 discussion compares. */
    static final List<String[]> PAIRS = List.of(
        new String[] {"passthrough", "direct"}, new String[] {"cbs", "direct"}, new String[] {"ss", "direct"},
        new String[] {"serial", "direct"}, new String[] {"cbs", "ss"}, new String[] {"cbs", "serial"});

    private final List<String> configs;
    private final List<Integer> terminals;
    private final List<Run> runs = new ArrayList<>();
    private final Map<String, String> failures = new LinkedHashMap<>();

    BenchResults(List<String> configs, List<Integer> terminals) {
        this.configs = List.copyOf(configs);
        this.terminals = List.copyOf(terminals);
    }

    synchronized void add(Run run) {
        runs.add(run);
    }

    synchronized void fail(String config, String reason) {
        failures.putIfAbsent(config, reason);
    }

    synchronized boolean failed(String config) {
        return failures.containsKey(config);
    }

    synchronized Map<String, String> failures() {
        return new LinkedHashMap<>(failures);
    }

    synchronized List<Run> runs() {
        return List.copyOf(runs);
    }

    List<String> configs() {
        return configs;
    }

    List<Integer> terminals() {
        return terminals;
    }

    /** The largest client count: the paper compares at saturation. */
    int saturationTerminals() {
        return terminals.stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    synchronized List<Double> throughputs(String config, int t) {
        return runs.stream().filter(r -> r.config.equals(config) && r.terminals == t).map(Run::tps).toList();
    }

    Optional<Double> medianThroughput(String config, int t) {
        return median(throughputs(config, t));
    }

    Optional<Double> stddevThroughput(String config, int t) {
        List<Double> values = throughputs(config, t);
        if (values.size() < 2) return Optional.empty();
        double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double var = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum() / (values.size() - 1);
        return Optional.of(Math.sqrt(var));
    }

    /** Median over repeats of throughput(a) / throughput(b), both measured with {@code t} clients in the same repeat. */
    synchronized Optional<Double> ratio(String a, String b, int t) {
        Map<Integer, Double> byRepeatA = new TreeMap<>();
        Map<Integer, Double> byRepeatB = new TreeMap<>();
        for (Run r : runs) {
            if (r.terminals != t) continue;
            if (r.config.equals(a)) byRepeatA.put(r.repeat, r.tps);
            if (r.config.equals(b)) byRepeatB.put(r.repeat, r.tps);
        }
        List<Double> ratios = new ArrayList<>();
        byRepeatA.forEach((repeat, tpsA) -> {
            Double tpsB = byRepeatB.get(repeat);
            if (tpsB != null && tpsB > 0) ratios.add(tpsA / tpsB);
        });
        return median(ratios);
    }

    /** CPU per transaction and cores used per role at saturation (medians over repeats): where the time went. */
    private void appendCpuTable(StringBuilder sb, int sat) {
        List<Run> measured = runs().stream().filter(r -> r.terminals == sat && !r.cpu.isEmpty()).toList();
        if (measured.isEmpty()) return;
        sb.append("\nCPU at ").append(sat).append(" clients, median over repeats: ms per transaction (cores used)\n\n| config |");
        for (String role : CPU_ROLES) sb.append(' ').append(role).append(" |");
        sb.append("\n|---|");
        for (int i = 0; i < CPU_ROLES.size(); i++) sb.append("---:|");
        sb.append('\n');
        for (String c : configs) {
            List<Run> own = measured.stream().filter(r -> r.config.equals(c)).toList();
            if (own.isEmpty()) continue;
            sb.append("| ").append(c).append(" |");
            for (String role : CPU_ROLES) {
                Optional<Double> ms = median(own.stream().flatMap(r -> r.cpuMsPerTransaction(role).stream()).toList());
                Optional<Double> cores = median(own.stream().filter(r -> r.cpu.containsKey(role))
                    .map(r -> r.cpu.get(role).cores()).toList());
                sb.append(' ').append(ms.map(v -> String.format(Locale.ROOT, "%.2f (%.2f)", v, cores.orElse(0.0)))
                    .orElse("—")).append(" |");
            }
            sb.append('\n');
        }
    }

    static Optional<Double> median(List<Double> values) {
        if (values.isEmpty()) return Optional.empty();
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        int n = sorted.size();
        return Optional.of(n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2);
    }

    /** The JSON document: {@code configs.<name>.throughput} and {@code .ratio_to_direct} at saturation, and more. */
    Map<String, Object> toJson(Map<String, Object> settings) {
        Map<String, Object> root = new LinkedHashMap<>(settings);
        int sat = saturationTerminals();
        root.put("saturation_terminals", sat);
        Map<String, Object> configsJson = new LinkedHashMap<>();
        for (String c : configs) {
            Map<String, Object> cj = new LinkedHashMap<>();
            cj.put("throughput", medianThroughput(c, sat).orElse(null));
            cj.put("ratio_to_direct", ratio(c, "direct", sat).orElse(null));
            Map<String, Object> byT = new LinkedHashMap<>();
            for (int t : terminals) {
                Map<String, Object> tj = new LinkedHashMap<>();
                tj.put("median_tps", medianThroughput(c, t).orElse(null));
                tj.put("stddev_tps", stddevThroughput(c, t).orElse(null));
                tj.put("ratio_to_direct", ratio(c, "direct", t).orElse(null));
                tj.put("tps_per_repeat", throughputs(c, t));
                byT.put(Integer.toString(t), tj);
            }
            cj.put("by_terminals", byT);
            cj.put("failure", failures().get(c));
            configsJson.put(c, cj);
        }
        root.put("configs", configsJson);
        Map<String, Object> pairs = new LinkedHashMap<>();
        for (String[] pair : PAIRS) {
            if (configs.contains(pair[0]) && configs.contains(pair[1])) {
                pairs.put(pair[0] + "/" + pair[1], ratio(pair[0], pair[1], sat).orElse(null));
            }
        }
        root.put("ratios", pairs);
        root.put("runs", runs());
        return root;
    }

    /** Throughput (median tx/s ± stddev) per configuration and client count, and the ratios at saturation. */
    String markdown() {
        StringBuilder sb = new StringBuilder();
        int sat = saturationTerminals();
        sb.append("| config |");
        for (int t : terminals) sb.append(" ").append(t).append(" clients (tx/s) |");
        sb.append(" ratio to direct @").append(sat).append(" |\n|---|");
        for (int i = 0; i <= terminals.size(); i++) sb.append("---:|");
        sb.append('\n');
        for (String c : configs) {
            sb.append("| ").append(c).append(" |");
            for (int t : terminals) {
                Optional<Double> m = medianThroughput(c, t);
                Optional<Double> sd = stddevThroughput(c, t);
                sb.append(' ').append(m.map(v -> fmt(v) + sd.map(s -> " ± " + fmt(s)).orElse("")).orElse("—")).append(" |");
            }
            sb.append(' ').append(ratio(c, "direct", sat).map(BenchResults::fmtRatio).orElse("—")).append(" |\n");
        }
        List<String> pairLines = new ArrayList<>();
        for (String[] pair : PAIRS) {
            if (configs.contains(pair[0]) && configs.contains(pair[1])) {
                Optional<Double> r = ratio(pair[0], pair[1], sat);
                pairLines.add(pair[0] + "/" + pair[1] + " = " + r.map(BenchResults::fmtRatio).orElse("—"));
            }
        }
        if (!pairLines.isEmpty()) {
            sb.append("\nMedian ratios at ").append(sat).append(" clients: ").append(String.join(", ", pairLines)).append('\n');
        }
        failures().forEach((c, why) -> sb.append("\n**").append(c).append(" failed:** ").append(why).append('\n'));
        appendCpuTable(sb, sat);
        return sb.toString();
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String fmtRatio(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
