package org.dsmscope.examples;

/**
 * The classic false-sharing bug (issue 26): per-thread counters in one {@code long[]}, each thread incrementing its
 * own element, so the elements share a cache line although no two threads touch the same bytes. {@link
 * FalseSharingPadded} is the fix: each thread's counter 8 longs (64 bytes) apart.
 */
public final class FalseSharing {
    /** Default number of increments (all threads together). */
    public static final int DEFAULT_SIZE = 200_000;
    /** Longs between two threads' counters in the padded version: one 64-byte line. */
    static final int PAD = 8;

    private FalseSharing() {
    }

    /** Runs {@code FalseSharing [THREADS [INCREMENTS]]}. */
    public static void main(String[] args) {
        Cli.main("FalseSharing", args, DEFAULT_SIZE, FalseSharing::run);
    }

    /** The bug: counters side by side. */
    public static Result run(int threads, int n) {
        return count(threads, n, 1);
    }

    /** Counts {@code n} seeded increments on {@code threads} threads, counters {@code stride} longs apart. */
    static Result count(int threads, int n, int stride) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 1 && n <= 100_000_000, "size (increments) must be 1..100000000, was " + n);
        Phases.begin(Phases.INIT);
        long[] counts = new long[threads * stride];
        Phases.begin(Phases.COMPUTE);
        Team.run("falsesharing", threads, id -> {
            int slot = id * stride;
            for (int i = Team.lo(id, threads, n); i < Team.hi(id, threads, n); i++) {
                counts[slot] += i % 7;
            }
        });
        Phases.begin(Phases.VERIFY);
        long total = 0;
        for (int id = 0; id < threads; id++) {
            total += counts[id * stride];
        }
        long expected = 0;
        for (int i = 0; i < n; i++) {
            expected += i % 7;
        }
        return Result.checked(Long.toString(total), "", total == expected ? null
                : "total " + total + ", expected " + expected);
    }
}
