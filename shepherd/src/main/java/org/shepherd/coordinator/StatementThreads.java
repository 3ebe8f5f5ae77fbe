package org.shepherd.coordinator;

/**
 * Threads that parse, translate or run a client's statement: the server's session workers (which run the primary's
 * call themselves), the replicas' workers and the threads that replay or compare. They all get the same stack, larger
 * than the JVM's default 1 MB: the SQL parser and the translator recurse once per nesting level (a generated statement
 * with thousands of ORs needs more), and an embedded replica (Derby) runs the statement on the calling thread, so
 * threads with different stacks would make one replica fail a statement that another runs, and the vote would see
 * a fault where there is none. Address space is reserved; memory is used only as deep as a statement goes.
 */
public final class StatementThreads {

    /** The stack of every statement thread. */
    public static final long STACK_BYTES = 16L << 20;

    private StatementThreads() {
    }

    /** A daemon thread named {@code name} with {@link #STACK_BYTES} of stack. */
    public static Thread newThread(Runnable r, String name) {
        Thread t = new Thread(null, r, name, STACK_BYTES);
        t.setDaemon(true);
        return t;
    }
}
