package org.dsmscope.examples;

/**
 * A migratory counter (issue 26, seed 003's migratory pattern): the threads take turns (increment i is thread i mod
 * THREADS's, which waits on the lock until the count is i), each reading a shared counter object and writing it
 * back, then doing some private work, so the counter's page (line) passes from processor to processor, each reading
 * then writing it, however the threads are scheduled. Padding arrays allocated around the counter keep it alone
 * on its page, so nothing else shares it.
 */
public final class MigratoryCounter {
    /** Default number of increments (all threads together). */
    public static final int DEFAULT_SIZE = 20_000;

    /** The shared counter. */
    static final class Counter {
        long total;
        long count;
    }

    private MigratoryCounter() {
    }

    /** Runs {@code MigratoryCounter [THREADS [INCREMENTS]]}. */
    public static void main(String[] args) {
        Cli.main("MigratoryCounter", args, DEFAULT_SIZE, MigratoryCounter::run);
    }

    /** Adds {@code n} seeded values to one shared counter in turns under a lock on {@code threads} threads; checks. */
    public static Result run(int threads, int n) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 1 && n <= 10_000_000, "size (increments) must be 1..10000000, was " + n);
        Phases.begin(Phases.INIT);
        long[] before = new long[1024];
        Counter counter = new Counter();
        long[] after = new long[1024];
        Object lock = new Object();
        Phases.begin(Phases.COMPUTE);
        Team.run("migratory", threads, id -> {
            for (int i = id; i < n; i += threads) {
                long v = work(i);
                synchronized (lock) {
                    while (counter.count != i) {
                        lock.wait();
                    }
                    counter.total += v;
                    counter.count++;
                    lock.notifyAll();
                }
            }
        });
        Phases.begin(Phases.VERIFY);
        long expected = 0;
        for (int i = 0; i < n; i++) {
            expected += work(i);
        }
        String problem = counter.count != n ? "count " + counter.count + ", expected " + n
                : counter.total != expected ? "total " + counter.total + ", expected " + expected : null;
        return Result.checked(Long.toString(counter.total), "pad=" + (before.length + after.length), problem);
    }

    /** Private work between increments: a few rounds of an integer hash. */
    private static long work(int i) {
        long x = i * 0x9E3779B97F4A7C15L;
        for (int k = 0; k < 8; k++) {
            x ^= x >>> 29;
            x *= 0xBF58476D1CE4E5B9L;
        }
        return x & 0xFF;
    }
}
