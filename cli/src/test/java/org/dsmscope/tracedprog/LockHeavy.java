package org.dsmscope.tracedprog;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Test program for on-the-fly CIAT: {@code LockHeavy THREADS ROUNDS WORK}. Each thread runs ROUNDS rounds; a round
 * updates shared counters inside a critical section (a {@code synchronized} block on even rounds, a
 * {@code ReentrantLock} on odd ones) and then does WORK load-and-store steps on its own array. At level 2 a round
 * costs about 16 × WORK + 100 bytes of trace. Prints a check value that does not depend on the interleaving.
 */
public final class LockHeavy {
    static final Object MONITOR = new Object();
    static final ReentrantLock LOCK = new ReentrantLock();
    static final long[] SHARED = new long[64];

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int work = Integer.parseInt(args[2]);
        Thread[] ts = new Thread[threads];
        long[] own = new long[threads];
        for (int k = 0; k < threads; k++) {
            int me = k;
            ts[k] = new Thread(() -> own[me] = run(me, rounds, work));
            ts[k].start();
        }
        long sum = 0;
        for (int k = 0; k < threads; k++) {
            ts[k].join();
            sum += own[k];
        }
        long shared = 0;
        for (long v : SHARED) {
            shared += v;
        }
        System.out.println("LockHeavy check " + shared + " " + sum);
    }

    static long run(int me, int rounds, int work) {
        int[] mine = new int[1024];
        for (int r = 0; r < rounds; r++) {
            if ((r & 1) == 0) {
                synchronized (MONITOR) {
                    SHARED[r & 63] += r;
                }
            } else {
                LOCK.lock();
                try {
                    SHARED[(r + me) & 63] += 1;
                } finally {
                    LOCK.unlock();
                }
            }
            for (int i = 0; i < work; i++) {
                mine[i & 1023] += i;
            }
        }
        long s = 0;
        for (int v : mine) {
            s += v;
        }
        return s;
    }
}
