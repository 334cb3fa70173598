package org.dsmscope.examples;

/**
 * The command line every example shares: {@code Main [THREADS [SIZE]]}, one result line on standard output, exit
 * status 0 when the self-check passes, 1 when it fails, 2 for a bad argument (one line on standard error).
 */
public final class Cli {
    /** Threads used when the thread-count argument is omitted (the seed's example ran 4). */
    public static final int DEFAULT_THREADS = 4;
    /** Largest accepted thread count; larger values are almost certainly typing mistakes. */
    public static final int MAX_THREADS = 1024;

    private Cli() {
    }

    /** Parses {@code args} (threads default to {@link #DEFAULT_THREADS}), runs, prints, exits non-zero on failure. */
    public static void main(String name, String[] args, int defaultSize, Workload workload) {
        main(name, args, DEFAULT_THREADS, defaultSize, workload);
    }

    /** Parses {@code args}, runs {@code workload}, prints its line and exits non-zero on failure. */
    public static void main(String name, String[] args, int defaultThreads, int defaultSize, Workload workload) {
        int threads;
        int size;
        Result result;
        try {
            UsageException.require(args.length <= 2, "expected at most 2 arguments (THREADS SIZE), got " + args.length);
            threads = args.length > 0 ? parse(args[0], "thread count") : defaultThreads;
            size = args.length > 1 ? parse(args[1], "size") : defaultSize;
            checkThreads(threads);
            result = workload.run(threads, size);
        } catch (UsageException e) {
            System.err.println(name + ": " + e.getMessage() + " (usage: " + name + " [THREADS [SIZE]])");
            System.exit(2);
            return;
        }
        System.out.println(result.line(name, threads, size));
        if (!result.ok()) {
            System.exit(1);
        }
    }

    /** Throws a UsageException unless 1 &le; threads &le; {@link #MAX_THREADS}. */
    public static void checkThreads(int threads) {
        UsageException.require(threads >= 1 && threads <= MAX_THREADS,
                "thread count must be 1.." + MAX_THREADS + ", was " + threads);
    }

    private static int parse(String text, String what) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new UsageException(what + " must be an integer, was '" + text + "'");
        }
    }
}
