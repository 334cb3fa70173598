package org.dsmscope.progs;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** Test program: CyclicBarrier, Phaser, CountDownLatch, Semaphore and atomics with n threads. */
public final class SyncProg {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        CyclicBarrier barrier = new CyclicBarrier(n);
        Phaser phaser = new Phaser(n);
        CountDownLatch latch = new CountDownLatch(n);
        Semaphore sem = new Semaphore(0);
        AtomicInteger counter = new AtomicInteger();
        AtomicLong cas = new AtomicLong();
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            ts[i] = new Thread(() -> {
                try {
                    for (int r = 0; r < 3; r++) {
                        counter.incrementAndGet();
                        barrier.await();
                    }
                    phaser.arriveAndAwaitAdvance();
                    long v;
                    do {
                        v = cas.get();
                    } while (!cas.compareAndSet(v, v + 2));
                    latch.countDown();
                    sem.release();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            ts[i].start();
        }
        latch.await();
        sem.acquire(n);
        for (Thread t : ts) {
            t.join();
        }
        System.out.println("check " + counter.get() + " " + cas.get());
    }
}
