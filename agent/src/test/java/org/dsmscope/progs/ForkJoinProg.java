package org.dsmscope.progs;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

/**
 * Test program: fork / join where the JDK forks and joins (issue 28): main fills an array, sums it with a parallel
 * stream (the common pool), then with a {@code RecursiveTask} (fork, compute, join) on a pool of 2 workers, and
 * prints {@code check SUM SUM}.
 */
public final class ForkJoinProg {
    /** Sums a range of the array, split in halves down to 1,000 elements. */
    static final class Sum extends RecursiveTask<Long> {
        private final long[] a;
        private final int from;
        private final int to;

        Sum(long[] a, int from, int to) {
            this.a = a;
            this.from = from;
            this.to = to;
        }

        @Override
        protected Long compute() {
            if (to - from <= 1000) {
                long s = 0;
                for (int i = from; i < to; i++) {
                    s += a[i];
                }
                return s;
            }
            int mid = (from + to) >>> 1;
            Sum left = new Sum(a, from, mid);
            left.fork();
            long right = new Sum(a, mid, to).compute();
            return left.join() + right;
        }
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        long s1 = Arrays.stream(a).parallel().sum();
        ForkJoinPool pool = new ForkJoinPool(2);
        long s2 = pool.invoke(new Sum(a, 0, n));
        pool.shutdown();
        System.out.println("check " + s1 + " " + s2);
    }
}
