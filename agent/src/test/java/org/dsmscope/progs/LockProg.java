package org.dsmscope.progs;

import java.util.concurrent.locks.ReentrantLock;

/** Test program: synchronized blocks (nested), synchronized methods (one throws), ReentrantLock (nested). */
public final class LockProg {
    static final Object MON = new Object();
    static final ReentrantLock LOCK = new ReentrantLock();
    static long total;
    static long viaLock;
    static long viaMethod;

    static synchronized void syncMethod(int k) {
        viaMethod += k;
        if (k == 7) {
            throw new IllegalStateException("seven");
        }
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            ts[i] = new Thread(() -> {
                for (int k = 0; k < 20; k++) {
                    synchronized (MON) {
                        synchronized (MON) {
                            total++;
                        }
                    }
                    try {
                        syncMethod(k);
                    } catch (IllegalStateException e) {
                        Thread.yield();
                    }
                    LOCK.lock();
                    try {
                        LOCK.lock();
                        viaLock += k;
                        LOCK.unlock();
                    } finally {
                        LOCK.unlock();
                    }
                }
            });
            ts[i].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        System.out.println("check " + total + " " + viaMethod + " " + viaLock);
    }
}
