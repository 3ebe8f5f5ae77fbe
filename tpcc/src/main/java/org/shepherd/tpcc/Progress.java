package org.shepherd.tpcc;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/** A progress bar on stderr; without a terminal, one line per 10%. Thread-safe. */
final class Progress {

    private static final int BAR_WIDTH = 30;
    private static final int NON_INTERACTIVE_STEP_PERCENT = 10;

    private final PrintStream out;
    private final String label;
    private final long total;
    private final boolean interactive;
    private final long startNanos = System.nanoTime();
    private final AtomicLong done = new AtomicLong();
    private int shownPercent = -1;

    Progress(PrintStream out, String label, long total, boolean interactive) {
        this.out = out;
        this.label = label;
        this.total = Math.max(1, total);
        this.interactive = interactive;
    }

    void add(long rows) {
        long now = done.addAndGet(rows);
        int percent = (int) Math.min(99, now * 100 / total);
        synchronized (this) {
            if (percent <= shownPercent) return;
            if (!interactive && shownPercent >= 0 && percent / NON_INTERACTIVE_STEP_PERCENT
                == shownPercent / NON_INTERACTIVE_STEP_PERCENT) {
                return;
            }
            shownPercent = percent;
            print(percent, now, false);
        }
    }

    synchronized void finish() {
        shownPercent = 100;
        print(100, done.get(), true);
    }

    long rows() {
        return done.get();
    }

    private void print(int percent, long rows, boolean last) {
        int filled = percent * BAR_WIDTH / 100;
        String bar = "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled);
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        String line = String.format(Locale.ROOT, "%s [%s] %3d%% %,d rows %.1fs", label, bar, percent, rows, seconds);
        if (interactive) {
            out.print("\r" + line + (last ? System.lineSeparator() : ""));
        } else {
            out.println(line);
        }
        out.flush();
    }
}
