package org.dsmscope.examples;

/**
 * A migratory counter (issue 26, seed 003's migratory pattern): every thread in turn takes a lock, reads a shared
 * counter object and writes it back, then does some private work, so the counter's page (line) passes from
 * processor to processor, each reading then writing it. Padding arrays allocated around the counter keep it alone
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

    /** Adds {@code n} seeded values to one shared counter, in turn, under a lock on {@code threads} threads. */
    public static Result run(int threads, int n) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 1 && n <= 10_000_000, "size (increments) must be 1..10000000, was " + n);
        Phases.begin(Phases.INIT);
        long[] next = new long[1]; // the index added next: the counter passes from thread to thread in turn
        long[] before = new long[1024];
        Counter counter = new Counter();
        long[] after = new long[1024];
        Object lock = new Object();
        Phases.begin(Phases.COMPUTE);
        Team.run("migratory", threads, id -> {
            // thread id adds values id, id + threads, …; the values are added in index order, so each thread reads
            // and writes the counter right after the previous thread did: migratory by construction, whatever order
            // the JVM would otherwise grant the lock in
            for (int i = id; i < n; i += threads) {
                long v = work(i);
                synchronized (lock) {
                    while (next[0] != i) {
                        lock.wait();
                    }
                    counter.total += v;
                    counter.count++;
                    next[0] = i + 1;
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
