package org.dsmscope.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A one-line progress display on standard error while long work runs ({@code dsmscope ciat}, {@code convert},
 * {@code import}; SPEC §10: "long work shows progress on a terminal and stays quiet in a pipe"): {@code ciat: 182.4
 * M of 404.5 M records (45%), 7.1 M records/s, about 31 s left}, rewritten in place ({@code \r}) every {@value
 * #INTERVAL_MS} ms by a daemon thread that reads a counter ({@link org.dsmscope.replay.Replay#progress}) and the
 * expected total ({@code -1}: not known, e.g. before the prescan has counted the records, or for {@code convert}
 * and {@code import}). Modes: {@link Mode#AUTO} (the default) shows it only when the JVM has a console (standard
 * input and output are a terminal) and only after the work has run {@value #QUIET_MS} ms, and clears the line at
 * the end, so that a short run or a pipe sees nothing; {@link Mode#ALWAYS} ({@code --progress}) shows it from the
 * start whatever standard error is, and ends with a line that stays: {@code ciat: 404489231 records replayed, 57.3
 * s} (the time since the display started, prescan included); {@link Mode#NEVER} ({@code --no-progress}) shows
 * nothing.
 */
final class Progress implements AutoCloseable {
    /** When a progress line is shown. */
    enum Mode {
        AUTO, ALWAYS, NEVER;

        /** The mode of a negatable {@code --progress} option: null (not given) is {@link #AUTO}. */
        static Mode of(Boolean option) {
            return option == null ? AUTO : option ? ALWAYS : NEVER;
        }
    }

    /** Time between two updates of the line. */
    static final long INTERVAL_MS = 500;
    /** {@link Mode#AUTO}: no line for work shorter than this. */
    static final long QUIET_MS = 1000;

    private final String what;
    private final String verb;
    private final PrintWriter err;
    private final LongSupplier done;
    private final LongSupplier total;
    private final boolean keepLast;
    private final long intervalMs;
    private final long t0 = System.nanoTime();
    private final Thread ticker;
    /** Time and count of the first sample with work done: the rate is measured from there (not the prescan). */
    private long startNanos;
    private long startDone = -1;
    /** Length of the line on screen (0: nothing shown). */
    private int shown;
    private boolean closed;

    private Progress(String what, String verb, PrintWriter err, LongSupplier done, LongSupplier total,
            boolean keepLast, long quietMs, long intervalMs) {
        this.what = what;
        this.verb = verb;
        this.err = err;
        this.done = done;
        this.total = total;
        this.keepLast = keepLast;
        this.intervalMs = intervalMs;
        ticker = new Thread(() -> tick(quietMs), "dsmscope-progress");
        ticker.setDaemon(true);
        ticker.start();
    }

    /**
     * Starts the display of {@code what}'s progress (the command's name; {@code verb} for the final line, e.g.
     * "replayed"), or returns null when {@code mode} says nothing is shown ({@link #close(Progress)} takes null).
     */
    static Progress start(Mode mode, String what, String verb, PrintWriter err, LongSupplier done,
            LongSupplier total) {
        boolean on = mode == Mode.ALWAYS || mode == Mode.AUTO && System.console() != null;
        if (!on) {
            return null;
        }
        return new Progress(what, verb, err, done, total, mode == Mode.ALWAYS, mode == Mode.ALWAYS ? 0 : QUIET_MS,
                INTERVAL_MS);
    }

    /** For tests: always on, with the given pause before the first line and between lines. */
    static Progress startForTest(String what, PrintWriter err, LongSupplier done, LongSupplier total,
            boolean keepLast, long quietMs, long intervalMs) {
        return new Progress(what, "replayed", err, done, total, keepLast, quietMs, intervalMs);
    }

    private void tick(long quietMs) {
        try {
            Thread.sleep(quietMs);
            for (;;) {
                synchronized (this) {
                    if (closed) {
                        return;
                    }
                    long d = sample();
                    show(line(what, d, total.getAsLong(), rate(d)));
                }
                Thread.sleep(intervalMs);
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    /** The counter now, remembering when work was first seen. */
    private long sample() {
        long d = done.getAsLong();
        if (startDone < 0 && d > 0) {
            startDone = d;
            startNanos = System.nanoTime();
        }
        return d;
    }

    /** The rate since work was first seen, per second (0 until a second sample). */
    private double rate(long d) {
        double s = startDone < 0 ? 0 : (System.nanoTime() - startNanos) / 1e9;
        return s > 0 && d > startDone ? (d - startDone) / s : 0;
    }

    private void show(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8).append('\r').append(s);
        for (int i = s.length(); i < shown; i++) {
            b.append(' ');
        }
        err.print(b);
        err.flush();
        shown = Math.max(s.length(), 1);
    }

    /**
     * The progress line: {@code done} of {@code total} records (total &lt; 0: not known) at {@code rate} records per
     * second (0: not measured yet).
     */
    static String line(String what, long done, long total, double rate) {
        if (done <= 0) {
            return what + ": starting";
        }
        String r = rate > 0 ? ", " + count(rate) + " records/s" : "";
        if (total <= 0) {
            return what + ": " + count(done) + " records" + r;
        }
        long pct = Math.min(99, done * 100 / total);
        String left = rate > 0 && done < total ? ", about " + duration((total - done) / rate) + " left" : "";
        return what + ": " + count(done) + " of " + count(total) + " records (" + pct + "%)" + r + left;
    }

    /** A count as shown: below a million in full, then in millions (M) or billions (G) with one decimal. */
    static String count(double n) {
        if (n < 999_999.5) {
            return Long.toString(Math.round(n));
        }
        if (n < 1e9) {
            return String.format(Locale.ROOT, "%.1f M", n / 1e6);
        }
        return String.format(Locale.ROOT, "%.1f G", n / 1e9);
    }

    /** Seconds as shown: {@code 31 s}, {@code 4 min}, {@code 2 h 5 min}. */
    static String duration(double s) {
        long r = Math.round(s);
        if (r < 120) {
            return r + " s";
        }
        long min = Math.round(s / 60);
        return min < 120 ? min + " min" : min / 60 + " h " + min % 60 + " min";
    }

    /** Ends the display: the line is cleared, or in {@link Mode#ALWAYS} replaced by the final count. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        ticker.interrupt();
        try {
            ticker.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (shown > 0) {
                err.print("\r" + " ".repeat(shown) + "\r");
            }
            if (keepLast) {
                err.println(String.format(Locale.ROOT, "%s: %d records %s, %.1f s", what, done.getAsLong(), verb,
                        (System.nanoTime() - t0) / 1e9));
            }
            err.flush();
        }
    }

    /** {@link #close()} if {@code p} is not null. */
    static void close(Progress p) {
        if (p != null) {
            p.close();
        }
    }
}
