package org.dsmscope.tracedprog;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Test program for on-the-fly CIAT: {@code BlockedWorker SMALL BIG KIB}. Worker A makes SMALL load-store steps and
 * then blocks in {@code BlockingQueue.take()} (JDK code, not traced: no hook hands its records over, only the
 * agent's timer can); worker B makes BIG steps and ends. The main thread joins B and then waits until the analysis
 * has read KIB KiB of records ({@code dsmscope.live.analysed}) before it releases A, so it ends only if the analysis
 * progresses while the program runs and past the blocked thread's last records. Exit status 3 if it did not within
 * 60 s.
 */
public final class BlockedWorker {
    static final BlockingQueue<Integer> Q = new ArrayBlockingQueue<>(1);

    public static void main(String[] args) throws Exception {
        int small = Integer.parseInt(args[0]);
        int big = Integer.parseInt(args[1]);
        long want = Long.parseLong(args[2]) << 10;
        long[] out = new long[2];
        Thread a = new Thread(() -> {
            out[0] = work(small);
            try {
                out[0] += Q.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread b = new Thread(() -> out[1] = work(big));
        a.start();
        b.start();
        b.join();
        long deadline = System.nanoTime() + 60_000_000_000L;
        long seen = 0;
        while (seen < want) {
            if (System.nanoTime() > deadline) {
                System.out.println("BlockedWorker: the analysis read only " + seen + " bytes while the program ran");
                System.exit(3);
            }
            Thread.sleep(20);
            seen = Long.parseLong(System.getProperty("dsmscope.live.analysed", "0"));
        }
        Q.put(1);
        a.join();
        System.out.println("BlockedWorker check " + out[0] + " " + out[1]);
    }

    static long work(int steps) {
        int[] mine = new int[1024];
        for (int i = 0; i < steps; i++) {
            mine[i & 1023] += i;
        }
        long s = 0;
        for (int v : mine) {
            s += v;
        }
        return s;
    }
}
