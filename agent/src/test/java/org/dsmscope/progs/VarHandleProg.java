package org.dsmscope.progs;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test program for {@code jdk=true}'s {@code VarHandle} accesses (issue 28): a completer thread completes N
 * {@code CompletableFuture}s that main joins (the result is set by a {@code VarHandle} compare-and-set), then a
 * producer offers N values to a {@code ConcurrentLinkedQueue} that main polls (a node's item is set by a {@code
 * VarHandle} in its constructor and cleared by a {@code VarHandle} compare-and-set), then a pool of two workers
 * sums 0..N-1 by forking halves (a fork stores the task in a work queue's slot through an array element {@code
 * VarHandle}, a pop or steal takes it out through another). Prints {@code check SUM} and {@code forks K}.
 */
public final class VarHandleProg {
    private VarHandleProg() {
    }

    private static final AtomicInteger FORKS = new AtomicInteger();

    /** The sum of [lo, hi), forking the lower half while more than 16 values are left. */
    static final class Sum extends RecursiveTask<Long> {
        private static final long serialVersionUID = 1L;
        private final int lo;
        private final int hi;

        Sum(int lo, int hi) {
            this.lo = lo;
            this.hi = hi;
        }

        @Override
        protected Long compute() {
            if (hi - lo <= 16) {
                long s = 0;
                for (int i = lo; i < hi; i++) {
                    s += i;
                }
                return s;
            }
            int mid = (lo + hi) >>> 1;
            Sum left = new Sum(lo, mid);
            left.fork();
            FORKS.incrementAndGet();
            return new Sum(mid, hi).compute() + left.join();
        }
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        @SuppressWarnings("unchecked")
        CompletableFuture<Integer>[] futures = new CompletableFuture[n];
        for (int i = 0; i < n; i++) {
            futures[i] = new CompletableFuture<>();
        }
        Thread completer = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                futures[i].complete(i);
            }
        });
        completer.start();
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += futures[i].join();
        }
        completer.join();
        ConcurrentLinkedQueue<Integer> queue = new ConcurrentLinkedQueue<>();
        Thread producer = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                queue.offer(i);
            }
        });
        producer.start();
        for (int got = 0; got < n;) {
            Integer v = queue.poll();
            if (v != null) {
                sum += v;
                got++;
            } else {
                Thread.onSpinWait();
            }
        }
        producer.join();
        ForkJoinPool pool = new ForkJoinPool(2);
        sum += pool.invoke(new Sum(0, n));
        pool.shutdown();
        System.out.println("check " + sum);
        System.out.println("forks " + FORKS.get());
    }
}
