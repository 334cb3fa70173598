package org.dsmscope.examples;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * A token ring on {@code LockSupport.park} / {@code unpark} (issue 28's fallback synchronizer, traced as acquire /
 * release pairs on the parked thread): SIZE steps are done one at a time, step k by thread k mod THREADS; a thread
 * parks until the step counter reaches its step, updates every word of a shared block with the step number, advances
 * the counter and unparks the thread of the next step.
 *
 * <p>Sharing pattern: the block migrates from thread to thread with the token (each step reads and writes all of
 * it). Synchronization: the volatile step counter and park / unpark only. Threading: {@link Ring#step} is
 * volatile; the block is written only by the thread whose step it is, after it read the counter its predecessor
 * wrote. The check value depends on the steps alone, so it is the same for every thread count.
 */
public final class ParkRing {
    /** Default number of steps. */
    public static final int DEFAULT_SIZE = 20_000;
    /** Words of the shared block. */
    static final int WORDS = 64;

    private ParkRing() {
    }

    /** Runs {@code ParkRing [THREADS [SIZE]]}: THREADS threads (default 4), SIZE steps. */
    public static void main(String[] args) {
        Cli.main("ParkRing", args, DEFAULT_SIZE, ParkRing::run);
    }

    /** The ring: the step counter, the threads by member index, the block. */
    static final class Ring {
        volatile int step;
        final AtomicReferenceArray<Thread> members;
        final long[] block = new long[WORDS];

        Ring(int threads) {
            members = new AtomicReferenceArray<>(threads);
        }
    }

    /** Runs {@code n} steps on {@code threads} threads and checks the block against a serial run. */
    public static Result run(int threads, int n) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 0 && n <= (1 << 24), "size (steps) must be 0.." + (1 << 24) + ", was " + n);
        Phases.begin(Phases.INIT);
        Ring ring = new Ring(threads);
        Phases.begin(Phases.COMPUTE);
        Team.run("parkring", threads, id -> member(ring, id, threads, n));
        Phases.begin(Phases.VERIFY);
        long[] expected = new long[WORDS];
        for (int k = 0; k < n; k++) {
            apply(expected, k);
        }
        long check = 0;
        String problem = ring.step == n ? null : "the ring stopped at step " + ring.step + " of " + n;
        for (int j = 0; j < WORDS; j++) {
            check = check * 31 + ring.block[j];
            if (problem == null && ring.block[j] != expected[j]) {
                problem = "word " + j + " differs from the serial run";
            }
        }
        return Result.checked(Long.toHexString(check), "steps=" + n, problem);
    }

    private static void member(Ring ring, int id, int threads, int n) {
        ring.members.set(id, Thread.currentThread());
        for (int k = id; k < n; k += threads) {
            while (ring.step != k) {
                LockSupport.park(ring);
                if (Thread.interrupted()) {
                    throw new IllegalStateException("interrupted at step " + k);
                }
            }
            apply(ring.block, k);
            ring.step = k + 1;
            LockSupport.unpark(ring.members.get((k + 1) % threads));
        }
    }

    /** Step k: every word of the block mixed with k. */
    static void apply(long[] block, int k) {
        for (int j = 0; j < block.length; j++) {
            block[j] = Prng.mix(block[j] + k);
        }
    }
}
