package org.dsmscope.tracedprog;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;

/**
 * Locks that outlive their sections, both legal in Java: thread 1 ends holding a {@code ReentrantLock} and a read
 * stamp of a {@code StampedLock}; thread 2, a daemon, is inside another lock when main calls {@code System.exit}.
 * The traces must replay without "ended inside critical section".
 */
public final class LocksOutliveThreads {
    private static final int[] DATA = new int[16];

    private LocksOutliveThreads() {
    }

    public static void main(String[] args) throws InterruptedException {
        ReentrantLock kept = new ReentrantLock();
        StampedLock stamped = new StampedLock();
        Thread t1 = new Thread(() -> {
            kept.lock();
            stamped.readLock();
            DATA[1] = 1;
        });
        t1.start();
        t1.join();
        ReentrantLock busy = new ReentrantLock();
        CountDownLatch inside = new CountDownLatch(1);
        Thread t2 = new Thread(() -> {
            busy.lock();
            try {
                inside.countDown();
                while (true) {
                    DATA[2]++;
                }
            } finally {
                busy.unlock();
            }
        });
        t2.setDaemon(true);
        t2.start();
        inside.await();
        System.out.println("check " + DATA[1] + " " + kept.isLocked() + " " + stamped.isReadLocked());
        System.exit(0);
    }
}
