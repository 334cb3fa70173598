package org.dsmscope.tracedprog;

import java.util.concurrent.locks.StampedLock;

/**
 * A trace no replay can schedule: main takes a {@code StampedLock}'s write stamp and another thread releases it
 * (legal in Java; not recorded there, so main's section ends at main's end, agent/README.md), then a third thread
 * takes the lock while main joins it. The replay reports a deadlock. Exits with status 3 after its work, so that a
 * caller can tell the program's status from the analysis'.
 */
public final class StampedHandOff {
    private StampedHandOff() {
    }

    public static void main(String[] args) throws InterruptedException {
        StampedLock lock = new StampedLock();
        long stamp = lock.writeLock();
        Thread releaser = new Thread(() -> lock.unlockWrite(stamp));
        releaser.start();
        releaser.join();
        Thread taker = new Thread(() -> lock.unlockWrite(lock.writeLock()));
        taker.start();
        taker.join();
        System.out.println("handed off " + lock.isWriteLocked());
        System.exit(3);
    }
}
