package org.dsmscope.progs;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Test program: every executor and queue call the agent records (issue 28): submit (Callable, Runnable, Runnable
 * with a result), execute of a FutureTask, {@code get} with and without a timeout, {@code CompletableFuture}'s
 * supplyAsync on the pool and runAsync on the common pool with join and get; put / take on an
 * ArrayBlockingQueue, offer (with and without a timeout) / poll (with and without) on a LinkedBlockingQueue;
 * invokeAll of two tasks and invokeAny of one.
 */
public final class JucProg {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        long[] cells = new long[4];
        List<Future<?>> fs = new ArrayList<>();
        fs.add(pool.submit(() -> 40L + n));
        fs.add(pool.submit(() -> {
            cells[1] = 7;
        }));
        fs.add(pool.submit(() -> {
            cells[2] = 9;
        }, "done"));
        FutureTask<Long> ft = new FutureTask<>(() -> 2L);
        pool.execute(ft);
        fs.get(1).get(10, TimeUnit.SECONDS); // the cells written by tasks 1 and 2 are read only after their gets
        String done = (String) fs.get(2).get();
        long sum = (Long) fs.get(0).get() + ft.get() + cells[1] + cells[2];
        CompletableFuture<Long> c1 = CompletableFuture.supplyAsync(() -> 5L, pool);
        CompletableFuture<Void> c2 = CompletableFuture.runAsync(() -> {
            cells[3] = 11;
        });
        long cs = c1.join();
        c2.get();
        sum += cs + cells[3];

        BlockingQueue<Integer> a = new ArrayBlockingQueue<>(4);
        BlockingQueue<Integer> b = new LinkedBlockingQueue<>();
        Future<Long> consumer = pool.submit(() -> {
            long s = 0;
            for (int k = 0; k < n; k++) {
                s += a.take();
            }
            for (int k = 0; k < n; k++) {
                Integer v = (k & 1) == 0 ? b.poll(10, TimeUnit.SECONDS) : b.poll();
                while (v == null) {
                    v = b.poll();
                }
                s += v;
            }
            return s;
        });
        for (int k = 0; k < n; k++) {
            a.put(k);
        }
        for (int k = 0; k < n; k++) {
            boolean ok = (k & 1) == 0 ? b.offer(k) : b.offer(k, 1, TimeUnit.SECONDS);
            if (!ok) {
                throw new IllegalStateException("offer refused");
            }
        }
        long s = consumer.get();
        List<java.util.concurrent.Callable<Long>> two = List.of(() -> 1L, () -> 2L);
        long inv = 0;
        for (Future<Long> f : pool.invokeAll(two)) {
            inv += f.get();
        }
        List<java.util.concurrent.Callable<Long>> one = List.of(() -> 3L);
        inv += pool.invokeAny(one);
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);
        System.out.println("check " + sum + " " + done + " " + s + " " + inv);
    }
}
