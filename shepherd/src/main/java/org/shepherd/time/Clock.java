package org.shepherd.time;

/** The only source of time in the shepherd's core: real in production, simulated in tests. */
@FunctionalInterface
public interface Clock {

    long nowMillis();

    Clock SYSTEM = System::currentTimeMillis;
}
