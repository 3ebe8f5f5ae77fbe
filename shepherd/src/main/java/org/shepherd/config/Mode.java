package org.shepherd.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How the shepherd runs statements on its replicas (ARCHITECTURE.md section 3). */
public enum Mode {
    /** One replica, no voting: every statement goes to the primary only. */
    PASSTHROUGH,
    /** Commit barrier scheduling over 2f+1 replicas. */
    CBS,
    /** Secondaries run a transaction only after it committed on the primary, one at a time. */
    SS,
    /** One transaction at a time on all replicas. */
    SERIAL;

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True for the modes that vote and therefore need at least 2f+1 replicas. */
    public boolean replicated() {
        return this != PASSTHROUGH;
    }

    public static Mode parse(String value) {
        for (Mode m : values()) {
            if (m.configName().equals(value.trim().toLowerCase(Locale.ROOT))) return m;
        }
        throw new IllegalArgumentException("expected one of " + choices());
    }

    public static String choices() {
        return Arrays.stream(values()).map(Mode::configName).collect(Collectors.joining("|"));
    }
}
