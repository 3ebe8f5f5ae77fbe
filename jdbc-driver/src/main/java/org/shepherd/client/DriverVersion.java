package org.shepherd.client;

/** The driver's version, as reported by {@link java.sql.Driver} and sent to the shepherd. */
public final class DriverVersion {

    public static final String VERSION = "0.1.0";
    public static final int MAJOR = 0;
    public static final int MINOR = 1;

    private DriverVersion() {
    }
}
