package org.dsmscope.progs;

import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** Test program: a one-slot mailbox with wait/notifyAll, then one with Condition await/signal. */
public final class WaitProg {
    static final Object BOX = new Object();
    static Integer slot;
    static final ReentrantLock LOCK = new ReentrantLock();
    static final Condition NOT_EMPTY = LOCK.newCondition();
    static final ArrayDeque<Integer> QUEUE = new ArrayDeque<>();

    public static void main(String[] args) throws Exception {
        int n = 50;
        long[] sums = new long[2];
        Thread consumer = new Thread(() -> {
            try {
                for (int i = 0; i < n; i++) {
                    synchronized (BOX) {
                        while (slot == null) {
                            BOX.wait();
                        }
                        sums[0] += slot;
                        slot = null;
                        BOX.notifyAll();
                    }
                }
                for (int i = 0; i < n; i++) {
                    LOCK.lock();
                    try {
                        while (QUEUE.isEmpty()) {
                            NOT_EMPTY.await();
                        }
                        sums[1] += QUEUE.poll();
                    } finally {
                        LOCK.unlock();
                    }
                }
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
        });
        consumer.start();
        for (int i = 0; i < n; i++) {
            synchronized (BOX) {
                while (slot != null) {
                    BOX.wait();
                }
                slot = i;
                BOX.notifyAll();
            }
        }
        for (int i = 0; i < n; i++) {
            LOCK.lock();
            try {
                QUEUE.add(i);
                NOT_EMPTY.signal();
            } finally {
                LOCK.unlock();
            }
            if (i % 10 == 0) {
                Thread.sleep(2);
            }
        }
        consumer.join();
        System.out.println("check " + sums[0] + " " + sums[1]);
    }
}
