package org.dsmscope.tracedprog;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A fast producer and a slow consumer on an {@code ArrayBlockingQueue} of capacity 2 (issue 28: the producer's wait
 * on a full queue): {@code BoundedHandOff N} puts N items of 16 longs, the consumer folds each item 64 times. The
 * producer waits for a slot almost every time; the consumer reads what the producer wrote. Prints {@code check SUM}.
 */
public final class BoundedHandOff {
    private BoundedHandOff() {
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        BlockingQueue<long[]> q = new ArrayBlockingQueue<>(2);
        long[] sum = new long[1];
        Thread consumer = new Thread(() -> {
            try {
                for (int k = 0; k < n; k++) {
                    long[] item = q.take();
                    long s = 0;
                    for (int r = 0; r < 64; r++) {
                        for (long v : item) {
                            s += v ^ r;
                        }
                    }
                    sum[0] += s;
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        consumer.start();
        for (int k = 0; k < n; k++) {
            long[] item = new long[16];
            for (int i = 0; i < item.length; i++) {
                item[i] = k * 16L + i;
            }
            q.put(item);
        }
        consumer.join();
        long want = 0;
        for (int k = 0; k < n; k++) {
            for (int r = 0; r < 64; r++) {
                for (int i = 0; i < 16; i++) {
                    want += (k * 16L + i) ^ r;
                }
            }
        }
        System.out.println(sum[0] == want ? "check " + want : "wrong " + sum[0] + " != " + want);
    }
}
