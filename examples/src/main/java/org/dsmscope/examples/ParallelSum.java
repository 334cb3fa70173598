package org.dsmscope.examples;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * A parallel stream sums an array that main filled (issue 28: fork / join structure where the JDK forks and joins):
 * main fills SIZE longs, then a parallel {@code IntStream} over the indices, run in a {@code ForkJoinPool} of
 * THREADS workers (so the thread count does not depend on the machine's common pool), maps each element and sums.
 *
 * <p>Sharing pattern: the array is written by main and read by the pool's workers (main &rarr; workers
 * communication). Synchronization: the JDK's own fork / join of the stream's tasks, main's {@code get} of the
 * submitted stream. Threading: the workers only read the array; each task's partial sum is combined by the JDK.
 */
public final class ParallelSum {
    /** Default number of elements. */
    public static final int DEFAULT_SIZE = 200_000;

    private ParallelSum() {
    }

    /** Runs {@code ParallelSum [THREADS [SIZE]]}: a pool of THREADS workers (default 4), SIZE elements. */
    public static void main(String[] args) {
        Cli.main("ParallelSum", args, DEFAULT_SIZE, ParallelSum::run);
    }

    /** Sums the mapped elements with a parallel stream on {@code threads} workers; checks against a serial sum. */
    public static Result run(int threads, int n) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 0 && n <= (1 << 24), "size (elements) must be 0.." + (1 << 24) + ", was " + n);
        Phases.begin(Phases.INIT);
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = Prng.mix(i);
        }
        Phases.begin(Phases.COMPUTE);
        ForkJoinPool pool = new ForkJoinPool(threads);
        long sum;
        try {
            sum = pool.submit(() -> IntStream.range(0, n).parallel().mapToLong(i -> a[i] >>> 3).sum()).get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("the stream failed: " + e, e);
        } finally {
            pool.shutdown();
        }
        try {
            if (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the pool did not end");
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException("interrupted waiting for the pool", e);
        }
        Phases.begin(Phases.VERIFY);
        long expected = 0;
        for (int i = 0; i < n; i++) {
            expected += Prng.mix(i) >>> 3;
        }
        String problem = sum == expected ? null : "the parallel sum differs from the serial sum";
        return Result.checked(Long.toHexString(sum), "elements=" + n, problem);
    }
}
