package org.shepherd.tpcc.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One column of the comparison: a {@link BenchConfig} and, for an A/B of shepherd settings, a named variant of it
 * ({@code cbs@pool8}: mode cbs with the settings of variant {@code pool8}). Runs of a variant are interleaved with
 * the others like any configuration, so the A/B is measured side by side.
 *
 * @param kind the configuration
 * @param variant the variant's name, or null
 * @param settings shepherd config keys of the variant (on top of {@code --shepherd-set})
 * @param javaOpts the variant's shepherd JAVA_OPTS, or null for {@code --shepherd-java-opts}
 */
record Setup(BenchConfig kind, String variant, Map<String, String> settings, String javaOpts) {

    /** The variant key that sets the shepherd's JAVA_OPTS instead of a config key. */
    static final String JAVA_OPTS_KEY = "java-opts";

    Setup {
        settings = Map.copyOf(settings);
    }

    String label() {
        return variant == null ? kind.label() : kind.label() + "@" + variant;
    }

    /**
     * Parses {@code --configs} entries against the {@code --variant} definitions ({@code NAME:KEY=VALUE}, one key
     * per definition, a name may be defined several times).
     */
    static List<Setup> parse(List<String> configs, List<String> variantDefinitions) {
        Map<String, Map<String, String>> variants = new LinkedHashMap<>();
        for (String d : variantDefinitions) {
            int colon = d.indexOf(':');
            int eq = d.indexOf('=', Math.max(colon, 0));
            if (colon <= 0 || eq <= colon + 1) {
                throw new IllegalArgumentException("--variant must look like NAME:KEY=VALUE (e.g. pool8:replica.pool.size.max=8),"
                    + " was '" + d + "'");
            }
            String name = d.substring(0, colon).trim();
            if (!name.matches("[A-Za-z0-9_-]+")) {
                throw new IllegalArgumentException("--variant name '" + name + "': use letters, digits, '_' and '-'");
            }
            variants.computeIfAbsent(name, k -> new LinkedHashMap<>()).put(d.substring(colon + 1, eq).trim(), d.substring(eq + 1));
        }
        List<Setup> setups = configs.stream().map(String::trim).distinct().map(c -> {
            int at = c.indexOf('@');
            BenchConfig kind = BenchConfig.parse(at < 0 ? c : c.substring(0, at));
            if (at < 0) return new Setup(kind, null, Map.of(), null);
            String name = c.substring(at + 1);
            Map<String, String> v = variants.get(name);
            if (v == null) throw new IllegalArgumentException("configuration '" + c + "': no --variant " + name + ":KEY=VALUE given");
            if (!kind.viaShepherd()) {
                throw new IllegalArgumentException("configuration '" + c + "': only shepherd configurations have variants");
            }
            Map<String, String> settings = new LinkedHashMap<>(v);
            String javaOpts = settings.remove(JAVA_OPTS_KEY);
            ShepherdProcess.checkSettings(settings);
            return new Setup(kind, name, settings, javaOpts);
        }).toList();
        for (String name : variants.keySet()) {
            if (setups.stream().noneMatch(s -> name.equals(s.variant()))) {
                throw new IllegalArgumentException("--variant " + name + " is defined but no configuration uses it (e.g. cbs@"
                    + name + ")");
            }
        }
        return setups;
    }
}
