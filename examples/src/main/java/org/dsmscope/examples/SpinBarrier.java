package org.dsmscope.examples;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Rounds of unequal work separated by a sense-reversing spin barrier (the barrier of the SPLASH-2 and Java Grande
 * style benchmarks that wait by spinning on a volatile flag instead of blocking; seed 001 &sect;5.3's load
 * imbalance, made visible as spin time: ciat/README.md "Spin time"). In each of SIZE rounds the threads fold an
 * array of {@value #WORK} longs, thread i a block proportional to i + 1, so the higher threads arrive later and the
 * others spin.
 *
 * <p>Sharing pattern: the array is written by the main thread in the initialization and then read in blocks, each
 * by its owner only; the barrier's {@code sense} flag is read by every waiting thread and written by the last to arrive.
 * Synchronization: spawn and join; the barrier counts arrivals with an {@code AtomicInteger} (a load-and-clear-word
 * record) and waits by re-reading {@code sense} (one 1-byte load per test, nothing else: the loop the trace shows is
 * exactly the spin). Self-check: every block's fold against a closed form, and the number of barrier episodes.
 *
 * <p>The spin is known by construction: {@link #run} counts every test of {@code sense} each thread makes in its
 * waits (each one load of the trace); {@code main} prints the counts on standard error as {@code SpinBarrier
 * sense_loads N0 N1 ...} (not on the result line, which must not depend on timing).
 */
public final class SpinBarrier {
    /** Default number of rounds. */
    public static final int DEFAULT_SIZE = 200;
    /** Longs folded per round by all threads together. */
    static final int WORK = 4096;
    /** Tests of the flag between two {@code Thread.yield()} calls (so that spinners leave a small machine's cores). */
    static final int YIELD_EVERY = 1024;

    private SpinBarrier() {
    }

    /** Runs {@code SpinBarrier [THREADS [SIZE]]}: SIZE rounds. */
    public static void main(String[] args) {
        Cli.main("SpinBarrier", args, DEFAULT_SIZE, (threads, rounds) -> {
            long[] counts = new long[threads];
            Result r = run(threads, rounds, counts);
            StringBuilder sb = new StringBuilder("SpinBarrier sense_loads");
            for (long c : counts) {
                sb.append(' ').append(c);
            }
            System.err.println(sb);
            return r;
        });
    }

    /** Runs the rounds on {@code threads} threads and checks the folds. */
    public static Result run(int threads, int rounds) {
        return run(threads, rounds, new long[threads]);
    }

    /** As {@link #run(int, int)}; {@code senseLoads[i]} gets the tests of the flag thread i made while waiting. */
    public static Result run(int threads, int rounds, long[] senseLoads) {
        Cli.checkThreads(threads);
        UsageException.require(rounds >= 1 && rounds <= 1_000_000, "size (rounds) must be 1..1000000, was " + rounds);
        Phases.begin(Phases.INIT);
        long[] data = new long[WORK];
        for (int k = 0; k < data.length; k++) {
            data[k] = k + 1;
        }
        long[] folds = new long[threads];
        Barrier barrier = new Barrier(threads);

        Phases.begin(Phases.COMPUTE);
        Team.run("spinbarrier", threads, id -> {
            int lo = share(id, threads);
            int hi = share(id + 1, threads);
            long acc = 0;
            long tests = 0;
            boolean sense = false;
            for (int r = 0; r < rounds; r++) {
                for (int k = lo; k < hi; k++) {
                    acc += data[k] * (r + 1);
                }
                sense = !sense;
                tests += barrier.await(sense);
            }
            folds[id] = acc;
            senseLoads[id] = tests;
        });

        Phases.begin(Phases.VERIFY);
        long check = 0;
        String problem = null;
        long roundSum = (long) rounds * (rounds + 1) / 2;
        for (int i = 0; i < threads; i++) {
            long lo = share(i, threads);
            long hi = share(i + 1, threads);
            long expected = (hi * (hi + 1) / 2 - lo * (lo + 1) / 2) * roundSum;
            if (folds[i] != expected && problem == null) {
                problem = "thread " + i + " folded " + folds[i] + ", expected " + expected;
            }
            check += folds[i];
        }
        if (problem == null && barrier.episodes != rounds && threads > 1) {
            problem = "barrier opened " + barrier.episodes + " times, expected " + rounds;
        }
        return Result.checked(Long.toString(check), "rounds=" + rounds, problem);
    }

    /** Start of thread i's block of the array: thread i gets a share proportional to i + 1. */
    static int share(int i, int threads) {
        return (int) ((long) WORK * i * (i + 1) / ((long) threads * (threads + 1)));
    }

    /**
     * A sense-reversing spin barrier. Threading: {@link #arrived} counts arrivals atomically; the last thread of an
     * episode resets it and then writes {@link #sense} (volatile), which the others re-read until it equals theirs;
     * {@link #episodes} is written only by the last arriver, before the flag, and read after everyone is joined.
     */
    static final class Barrier {
        private final int parties;
        private final AtomicInteger arrived = new AtomicInteger();
        private volatile boolean sense;
        private int episodes;

        Barrier(int parties) {
            this.parties = parties;
        }

        /** Waits for all parties; {@code mine} is the caller's sense for this episode. Returns the flag's tests. */
        long await(boolean mine) {
            if (arrived.incrementAndGet() == parties) {
                arrived.set(0);
                episodes++;
                sense = mine;
                return 0;
            }
            long tests = 0;
            boolean seen;
            do {
                seen = sense;
                tests++;
                if (tests % YIELD_EVERY == 0) {
                    Thread.yield();
                } else {
                    Thread.onSpinWait();
                }
            } while (seen != mine);
            return tests;
        }
    }
}
