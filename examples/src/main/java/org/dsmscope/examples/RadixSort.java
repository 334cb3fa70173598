package org.dsmscope.examples;

import java.util.concurrent.CyclicBarrier;

/**
 * Parallel least-significant-digit radix sort of 32-bit signed integers, 8-bit digits, four passes (the SPLASH-2
 * Radix kernel's structure, an application of the CIAT study, seed 001 &sect;4), each thread owning a contiguous block of the source array.
 *
 * <p>Sharing pattern: per pass every thread builds a histogram of its own block in its own row of a shared
 * histogram table; after a barrier every thread reads all rows to compute where its keys go (read sharing of the
 * table), then scatters its keys across the whole destination array (all-to-all writes: the permutation is the
 * communication), then a barrier before the next pass swaps source and destination. Synchronization: two
 * {@code CyclicBarrier} waits per pass. The sort is stable and its output unique, so the check value (a
 * polynomial hash of the sorted keys) is the same for every thread count. Self-check: sorted order and the
 * multiset of keys (count, sum and a sum of hashes) preserved.
 */
public final class RadixSort {
    /** Default number of keys. */
    public static final int DEFAULT_SIZE = 1 << 18;
    /** Digits per pass. */
    static final int RADIX = 256;
    /** Passes over 32-bit keys. */
    static final int PASSES = 4;
    private static final long SEED = 0x5241444958L;

    private RadixSort() {
    }

    /** Runs {@code RadixSort [THREADS [SIZE]]}: SIZE is the number of keys. */
    public static void main(String[] args) {
        Cli.main("RadixSort", args, DEFAULT_SIZE, RadixSort::run);
    }

    /** Sorts {@code size} seeded random ints on {@code threads} threads and checks the output. */
    public static Result run(int threads, int size) {
        Cli.checkThreads(threads);
        UsageException.require(size >= 1 && size <= (1 << 26), "size (keys) must be 1.." + (1 << 26) + ", was " + size);
        Phases.begin(Phases.INIT);
        int[] keys = new int[size];
        Prng rng = new Prng(SEED);
        for (int i = 0; i < size; i++) {
            keys[i] = rng.nextInt();
        }
        long[] before = multiset(keys);

        Phases.begin(Phases.COMPUTE);
        sort(keys, threads);

        Phases.begin(Phases.VERIFY);
        String problem = null;
        for (int i = 1; i < size && problem == null; i++) {
            if (keys[i - 1] > keys[i]) {
                problem = "keys[" + (i - 1) + "] = " + keys[i - 1] + " > keys[" + i + "] = " + keys[i];
            }
        }
        long[] after = multiset(keys);
        if (problem == null && (before[0] != after[0] || before[1] != after[1])) {
            problem = "the sorted keys are not a permutation of the input";
        }
        long hash = 0;
        for (int k : keys) {
            hash = hash * 31 + k;
        }
        return Result.checked(Long.toString(hash), "", problem);
    }

    /** Sorts {@code keys} ascending (signed order) with a stable 4-pass radix sort on {@code threads} threads. */
    public static void sort(int[] keys, int threads) {
        int n = keys.length;
        int[] buffer = new int[n];
        int[][] histograms = new int[threads][RADIX];
        CyclicBarrier barrier = new CyclicBarrier(threads);
        Team.run("radix", threads, id -> {
            int lo = Team.lo(id, threads, n);
            int hi = Team.hi(id, threads, n);
            int[] offsets = new int[RADIX];
            int[] src = keys;
            int[] dst = buffer;
            for (int pass = 0; pass < PASSES; pass++) {
                int[] mine = histograms[id];
                for (int d = 0; d < RADIX; d++) {
                    mine[d] = 0;
                }
                for (int i = lo; i < hi; i++) {
                    mine[digit(src[i], pass)]++;
                }
                barrier.await();
                // keys with digit d from thread id go after all smaller digits and after digit d of threads < id
                int base = 0;
                for (int d = 0; d < RADIX; d++) {
                    int before = 0;
                    int total = 0;
                    for (int t = 0; t < threads; t++) {
                        int count = histograms[t][d];
                        if (t < id) {
                            before += count;
                        }
                        total += count;
                    }
                    offsets[d] = base + before;
                    base += total;
                }
                for (int i = lo; i < hi; i++) {
                    int k = src[i];
                    dst[offsets[digit(k, pass)]++] = k;
                }
                barrier.await();
                int[] t = src;
                src = dst;
                dst = t;
            }
        });
        // PASSES is even, so the last pass wrote the sorted keys back into the caller's array
    }

    /** Digit {@code pass} of {@code key}; the top digit has its sign bit flipped so negatives sort first. */
    static int digit(int key, int pass) {
        int d = (key >>> (8 * pass)) & 0xFF;
        return pass == PASSES - 1 ? d ^ 0x80 : d;
    }

    /** An order-independent fingerprint of a multiset of ints: the sum and the sum of SplitMix64 hashes. */
    static long[] multiset(int[] keys) {
        long sum = 0;
        long hashSum = 0;
        for (int k : keys) {
            sum += k;
            hashSum += Prng.mix(k);
        }
        return new long[] {sum, hashSum};
    }
}
