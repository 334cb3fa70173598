package org.dsmscope.tracedprog;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.StampedLock;

/**
 * A {@code StampedLock} used every way: two readers holding read stamps at once, each waiting there for the other's
 * latch count-down (then the same through the read-lock view), a write stamp, an optimistic read validated, an
 * optimistic read converted to a write, a read converted to a write and back to a read, and the write-lock view;
 * prints a check value. Each section's records must name the lock, read stamps in shared mode, so that the replay
 * neither misses the sections nor reports a deadlock.
 */
public final class StampedInside {
    private static final int[] DATA = new int[64];

    private StampedInside() {
    }

    public static void main(String[] args) throws InterruptedException {
        StampedLock sl = new StampedLock();
        readersInside(sl, false);
        readersInside(sl, true);
        long w = sl.writeLock();
        try {
            DATA[5] = 7;
        } finally {
            sl.unlockWrite(w);
        }
        long o = sl.tryOptimisticRead();
        int seen = DATA[5];
        if (!sl.validate(o)) {
            seen = -1;
        }
        long c = sl.tryConvertToWriteLock(sl.tryOptimisticRead());
        if (c != 0) {
            DATA[6] = seen + 1;
            sl.unlock(c);
        }
        long r = sl.readLock();
        long x = sl.tryConvertToWriteLock(r);
        if (x == 0) {
            sl.unlockRead(r);
        } else {
            DATA[7] = 3;
            long back = sl.tryConvertToReadLock(x);
            int s = DATA[7];
            sl.unlockRead(back);
            DATA[8] = s;
        }
        Lock wv = sl.asWriteLock();
        wv.lock();
        try {
            DATA[9] = 1;
        } finally {
            wv.unlock();
        }
        System.out.println("check " + (DATA[0] + DATA[1] + DATA[5] + DATA[6] + DATA[7] + DATA[8] + DATA[9]));
    }

    /** Two threads inside read sections at once (stamps, or the read-lock view), each waiting for the other. */
    private static void readersInside(StampedLock sl, boolean view) throws InterruptedException {
        CountDownLatch both = new CountDownLatch(2);
        Thread[] ts = new Thread[2];
        for (int i = 0; i < 2; i++) {
            int me = i;
            ts[i] = new Thread(() -> {
                Lock rv = sl.asReadLock();
                long stamp = 0;
                if (view) {
                    rv.lock();
                } else {
                    stamp = sl.readLock();
                }
                try {
                    ReadersInside.readTogether(DATA, me, both);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    if (view) {
                        rv.unlock();
                    } else {
                        sl.unlockRead(stamp);
                    }
                }
            });
            ts[i].start();
        }
        for (Thread t : ts) {
            t.join();
        }
    }
}
