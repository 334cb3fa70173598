package org.dsmscope.examples;

import java.util.function.LongSupplier;

/**
 * False sharing between two fields of one object (issue 26, seed 003's patterns at line granularity): one thread
 * counts the hits of a stream of items (every third a miss) in {@code Counter.hits}, another counts its misses in {@code Counter.misses};
 * no thread touches the other's field, yet both fields lie in one cache line. {@link FieldFalseSharingPadded} is the
 * fix: seven longs of padding between the two fields, so they are 64 bytes apart.
 */
public final class FieldFalseSharing {
    /** Default number of items (each a hit or a miss). */
    public static final int DEFAULT_SIZE = 200_000;

    /** The bug: the two fields side by side. */
    static final class Counter {
        long hits;
        long misses;
    }

    private FieldFalseSharing() {
    }

    /** Runs {@code FieldFalseSharing [THREADS [ITEMS]]}. */
    public static void main(String[] args) {
        Cli.main("FieldFalseSharing", args, DEFAULT_SIZE, FieldFalseSharing::run);
    }

    /** The bug: hits and misses in one line. */
    public static Result run(int threads, int n) {
        Counter c = new Counter();
        return count(threads, n, () -> c.hits++, () -> c.misses++, () -> c.hits, () -> c.misses);
    }

    /** Whether item {@code i} of the stream is a miss (every third item). */
    static boolean isMiss(int i) {
        return i % 3 == 0;
    }

    /**
     * Classifies {@code n} items: thread 0 counts the hits, the last thread the misses (thread 0 both on one
     * thread; the threads between have nothing to do) through {@code hit} and {@code miss}; checks both counts.
     */
    static Result count(int threads, int n, Runnable hit, Runnable miss, LongSupplier hits, LongSupplier misses) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 1 && n <= 100_000_000, "size (items) must be 1..100000000, was " + n);
        Phases.begin(Phases.INIT);
        Phases.begin(Phases.COMPUTE);
        Team.run("fieldsharing", threads, id -> {
            boolean countsHits = id == 0;
            boolean countsMisses = id == threads - 1;
            for (int i = 0; i < n; i++) {
                if (isMiss(i)) {
                    if (countsMisses) {
                        miss.run();
                    }
                } else if (countsHits) {
                    hit.run();
                }
            }
        });
        Phases.begin(Phases.VERIFY);
        long expectedMisses = (n + 2) / 3;
        long expectedHits = n - expectedMisses;
        long h = hits.getAsLong();
        long m = misses.getAsLong();
        String problem = h != expectedHits ? "hits " + h + ", expected " + expectedHits
                : m != expectedMisses ? "misses " + m + ", expected " + expectedMisses : null;
        return Result.checked(h + "/" + m, "", problem);
    }
}
