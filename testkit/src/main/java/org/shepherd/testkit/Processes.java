package org.shepherd.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * POSIX signals and process trees: the JDK can send only TERM and KILL, and only to one process. Public for
 * {@link #killTree}, which the benchmark uses on the shepherd; the rest serves the database servers here.
 */
public final class Processes {
    private static final long SIGNAL_COMMAND_TIMEOUT_MS = 10_000;
    private static final long STATE_POLL_MS = 5;

    private Processes() {
    }

    /** The process and all its descendants, parents first. */
    static List<ProcessHandle> tree(ProcessHandle root) {
        List<ProcessHandle> all = new ArrayList<>();
        all.add(root);
        root.descendants().forEach(all::add);
        return all;
    }

    static void signal(String signalName, List<ProcessHandle> processes) {
        List<ProcessHandle> alive = processes.stream().filter(ProcessHandle::isAlive).collect(Collectors.toList());
        if (alive.isEmpty()) {
            return;
        }
        List<String> command = new ArrayList<>();
        command.add("kill");
        command.add("-" + signalName);
        alive.forEach(p -> command.add(Long.toString(p.pid())));
        try {
            Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!kill.waitFor(SIGNAL_COMMAND_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill -" + signalName + " did not finish in " + SIGNAL_COMMAND_TIMEOUT_MS + " ms");
            }
            String output = new String(kill.getInputStream().readAllBytes());
            // a process of the tree may exit between listing and signalling: that is not an error
            if (kill.exitValue() != 0 && alive.stream().anyMatch(ProcessHandle::isAlive) && !output.contains("No such process")) {
                throw new IllegalStateException("kill -" + signalName + " failed: " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill -" + signalName, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending " + signalName, e);
        }
    }

    /**
     * Sends SIGSTOP or SIGCONT and waits until every thread of every process shows the new state in /proc: the kernel
     * delivers a group stop asynchronously, and a caller that queries right after pause() must meet a stopped server.
     */
    static void stopOrContinue(List<ProcessHandle> processes, boolean stop, long waitMs) {
        signal(stop ? "STOP" : "CONT", processes);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        while (!processes.stream().allMatch(p -> !p.isAlive() || allThreadsStopped(p.pid()) == stop)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("processes " + processes + " not " + (stop ? "stopped" : "continued")
                        + " within " + waitMs + " ms");
            }
            try {
                Thread.sleep(STATE_POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    private static boolean allThreadsStopped(long pid) {
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.allMatch(task -> threadState(task) == 'T' || threadState(task) == 't');
        } catch (IOException e) {
            return false;
        }
    }

    private static char threadState(Path task) {
        try {
            String stat = Files.readString(task.resolve("stat"));
            // "pid (comm) S ...": comm may contain spaces and parentheses, the state follows the last ')'
            return stat.charAt(stat.lastIndexOf(')') + 2);
        } catch (IOException | RuntimeException e) {
            return '?';
        }
    }

    /**
     * SIGKILL to the whole tree at once (children first would let the parent restart them), then waits for all to be
     * gone (IllegalStateException when one is still alive after {@code waitMs}).
     */
    public static void killTree(ProcessHandle root, long waitMs) {
        List<ProcessHandle> all = tree(root);
        signal("KILL", all);
        awaitExit(all, waitMs);
    }

    static void awaitExit(List<ProcessHandle> processes, long waitMs) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        for (ProcessHandle p : processes) {
            long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            try {
                p.onExit().get(Math.max(leftMs, 1), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + p.pid(), e);
            } catch (Exception e) {
                throw new IllegalStateException("process " + p.pid() + " still alive after " + waitMs + " ms", e);
            }
        }
    }

    static boolean isRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /** Last {@code maxLines} lines of a log, for error messages. */
    static String tail(Path log, int maxLines) {
        try {
            if (!Files.exists(log)) {
                return "(no log at " + log + ")";
            }
            List<String> lines = Files.readAllLines(log, java.nio.charset.StandardCharsets.ISO_8859_1);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - maxLines), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    /** Runs a short command to completion, its output appended to {@code log}; fails with the log's tail. */
    static void run(ProcessBuilder builder, Path log, long timeoutMs) throws IOException {
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        Process p = builder.start();
        try {
            if (!p.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IOException(builder.command() + " did not finish in " + timeoutMs + " ms:\n" + tail(log, 30));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted: " + builder.command(), e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(builder.command() + " exited with " + p.exitValue() + ":\n" + tail(log, 30));
        }
    }
}
