package org.dsmscope.progs;

import java.util.concurrent.CountDownLatch;

/**
 * {@code N} threads alive at once: each waits until all have started, then adds its number to a shared slot in a
 * critical section and stores to its own slot; prints a check value.
 */
public final class ManyThreadsProg {
    private static final Object LOCK = new Object();
    private static long sum;

    private ManyThreadsProg() {
    }

    public static void main(String[] args) throws InterruptedException {
        int n = Integer.parseInt(args[0]);
        int[] own = new int[n];
        CountDownLatch started = new CountDownLatch(n);
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            int me = i;
            ts[i] = new Thread(() -> {
                started.countDown();
                try {
                    started.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                synchronized (LOCK) {
                    sum += me;
                }
                own[me] = me + 1;
            });
            ts[i].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        long check = sum;
        for (int v : own) {
            check += v;
        }
        System.out.println("threads " + n + " check " + check + (check == (long) n * n ? " ok" : " WRONG"));
    }
}
