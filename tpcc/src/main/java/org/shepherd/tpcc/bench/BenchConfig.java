package org.shepherd.tpcc.bench;

import java.util.Locale;

/** A configuration the benchmark compares: the database directly, or a shepherd in one of its modes. */
enum BenchConfig {
    DIRECT(1, null, 0),
    PASSTHROUGH(1, "passthrough", 0),
    CBS(3, "cbs", 1),
    SS(3, "ss", 1),
    SERIAL(3, "serial", 1);

    private final int databases;
    private final String mode;
    private final int f;

    BenchConfig(int databases, String mode, int f) {
        this.databases = databases;
        this.mode = mode;
        this.f = f;
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    int databases() {
        return databases;
    }

    boolean viaShepherd() {
        return mode != null;
    }

    /** The shepherd's {@code mode=} value. */
    String mode() {
        return mode;
    }

    int f() {
        return f;
    }

    static BenchConfig parse(String name) {
        for (BenchConfig c : values()) {
            if (c.label().equals(name.trim().toLowerCase(Locale.ROOT))) return c;
        }
        throw new IllegalArgumentException("unknown configuration '" + name + "'; use direct,passthrough,cbs,ss,serial");
    }
}
