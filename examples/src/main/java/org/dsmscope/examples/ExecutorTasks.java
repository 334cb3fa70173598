package org.dsmscope.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Tasks on a fixed thread pool collected with {@code Future.get} (issue 28: {@code java.util.concurrent} seen as
 * synchronization, a task ordered after its submit and a get after its task's end): main fills an input array of
 * SIZE longs, submits {@link #TASKS} tasks to {@code Executors.newFixedThreadPool(THREADS)}, task t mixing the
 * elements i with i mod TASKS = t into an output array and returning their sum, and adds the sums as it gets them.
 *
 * <p>Sharing pattern: the input is written by main and read by the workers, the output written by the workers
 * (interleaved elements of one array) and read by main. Synchronization: submit, {@code Future.get}, the pool's
 * shutdown. Threading: each element of the output is written by one task only and read by main after every get.
 */
public final class ExecutorTasks {
    /** Default number of elements. */
    public static final int DEFAULT_SIZE = 200_000;
    /** Tasks submitted. */
    static final int TASKS = 8;

    private ExecutorTasks() {
    }

    /** Runs {@code ExecutorTasks [THREADS [SIZE]]}: a pool of THREADS workers (default 4), SIZE elements. */
    public static void main(String[] args) {
        Cli.main("ExecutorTasks", args, DEFAULT_SIZE, ExecutorTasks::run);
    }

    /** Runs the tasks on {@code threads} workers and checks the output and the sum against a serial run. */
    public static Result run(int threads, int n) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 0 && n <= (1 << 24), "size (elements) must be 0.." + (1 << 24) + ", was " + n);
        Phases.begin(Phases.INIT);
        long[] in = new long[n];
        for (int i = 0; i < n; i++) {
            in[i] = Prng.mix(i);
        }
        long[] out = new long[n];
        Phases.begin(Phases.COMPUTE);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long sum = 0;
        try {
            List<Future<Long>> results = new ArrayList<>();
            for (int t = 0; t < TASKS; t++) {
                int task = t;
                results.add(pool.submit(() -> task(in, out, task)));
            }
            for (Future<Long> f : results) {
                sum += f.get();
            }
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("a task failed: " + e, e);
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
        String problem = null;
        for (int i = 0; i < n; i++) {
            long v = Prng.mix(Prng.mix(i) + i % TASKS);
            expected += v;
            if (problem == null && out[i] != v) {
                problem = "element " + i + " differs from the serial run";
            }
        }
        if (problem == null && sum != expected) {
            problem = "the sum of the tasks differs from the serial run";
        }
        return Result.checked(Long.toHexString(sum), "tasks=" + TASKS, problem);
    }

    /** Task t: the elements i with i mod TASKS = t, mixed with t; returns their sum. */
    static long task(long[] in, long[] out, int t) {
        long sum = 0;
        for (int i = t; i < in.length; i += TASKS) {
            out[i] = Prng.mix(in[i] + t);
            sum += out[i];
        }
        return sum;
    }
}
