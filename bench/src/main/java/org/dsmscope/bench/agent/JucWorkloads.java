package org.dsmscope.bench.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

/**
 * Issue 28's four programs, as a new user wrote them, for the level-2 slowdown harness
 * ({@code bench/scripts/juc_slowdown.py}): {@code JucWorkloads queue|pool|futures|stream N}. queue: a producer
 * {@code put}s N ints into an {@code ArrayBlockingQueue(64)}, a consumer {@code take}s them into an
 * {@code AtomicLong}; pool: 4 tasks submitted to a fixed pool of 4 write interleaved elements of one array of N,
 * {@code Future.get} collects; futures: 4 {@code CompletableFuture.supplyAsync} sums of a quarter each, joined;
 * stream: a parallel stream sums an array of N that main filled. Prints {@code check VALUE}.
 */
public final class JucWorkloads {
    private JucWorkloads() {
    }

    /** Entry point: {@code JucWorkloads PROGRAM N}. */
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[1]);
        long check;
        switch (args[0]) {
            case "queue":
                check = queue(n);
                break;
            case "pool":
                check = pool(n);
                break;
            case "futures":
                check = futures(n);
                break;
            case "stream":
                check = stream(n);
                break;
            default:
                throw new IllegalArgumentException("program: queue, pool, futures or stream, was " + args[0]);
        }
        System.out.println("check " + check);
    }

    static long queue(int n) throws InterruptedException {
        BlockingQueue<Integer> q = new ArrayBlockingQueue<>(64);
        AtomicLong sum = new AtomicLong();
        Thread consumer = new Thread(() -> {
            try {
                for (int k = 0; k < n; k++) {
                    sum.addAndGet(q.take());
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        consumer.start();
        for (int k = 0; k < n; k++) {
            q.put(k);
        }
        consumer.join();
        return sum.get();
    }

    static long pool(int n) throws Exception {
        long[] a = new long[n];
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int me = t;
            fs.add(pool.submit(() -> {
                for (int i = me; i < n; i += 4) {
                    a[i] = (long) i * i;
                }
            }));
        }
        for (Future<?> f : fs) {
            f.get();
        }
        pool.shutdown();
        long s = 0;
        for (long v : a) {
            s += v;
        }
        return s;
    }

    static long futures(int n) {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        List<CompletableFuture<Long>> fs = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int from = t * n / 4;
            int to = (t + 1) * n / 4;
            fs.add(CompletableFuture.supplyAsync(() -> {
                long s = 0;
                for (int i = from; i < to; i++) {
                    s += a[i];
                }
                return s;
            }));
        }
        long s = 0;
        for (CompletableFuture<Long> f : fs) {
            s += f.join();
        }
        return s;
    }

    static long stream(int n) {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return IntStream.range(0, n).parallel().mapToLong(i -> a[i]).sum();
    }
}
