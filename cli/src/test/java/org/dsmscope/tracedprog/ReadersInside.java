package org.dsmscope.tracedprog;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Two readers inside a read lock at once, each waiting there for the other's latch count-down, then a write under
 * the write lock; prints a check value. A replay that treats the read lock as exclusive reports a deadlock.
 */
public final class ReadersInside {
    private static final int[] DATA = new int[64];

    private ReadersInside() {
    }

    public static void main(String[] args) throws InterruptedException {
        ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
        CountDownLatch both = new CountDownLatch(2);
        Thread[] ts = new Thread[2];
        for (int i = 0; i < 2; i++) {
            int me = i;
            ts[i] = new Thread(() -> {
                rw.readLock().lock();
                try {
                    readTogether(DATA, me, both);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    rw.readLock().unlock();
                }
            });
            ts[i].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        rw.writeLock().lock();
        try {
            DATA[5] = 7;
        } finally {
            rw.writeLock().unlock();
        }
        System.out.println("check " + (DATA[0] + DATA[1] + DATA[5]));
    }

    /**
     * What a reader does inside its read section: sums {@code data}, counts {@code both} down and waits there for
     * the other reader's count-down, then writes its own slot.
     */
    static void readTogether(int[] data, int me, CountDownLatch both) throws InterruptedException {
        int s = 0;
        for (int v : data) {
            s += v;
        }
        both.countDown();
        both.await();
        data[me] = s + me + 1;
    }
}
