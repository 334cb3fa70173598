package org.dsmscope.progs;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Exchanger;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TransferQueue;

/**
 * Test program: the queue hand-offs of issue 28 beyond put / take, each between main (the producer) and one
 * consumer thread: a full {@code ArrayBlockingQueue} of capacity 2 (main waits for slots), a
 * {@code LinkedBlockingDeque} of capacity 3 filled with putLast / offerLast and emptied with takeFirst / pollFirst
 * (timed) / drainTo, a {@code SynchronousQueue} both ways (main puts, then main takes what the consumer puts),
 * {@code LinkedTransferQueue.transfer}, and an {@code Exchanger} swapping boxed values N times.
 * Prints {@code check SUMS} that do not depend on the schedule.
 */
public final class QueueProg {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        BlockingQueue<Integer> abq = new ArrayBlockingQueue<>(2);
        BlockingDeque<Integer> deque = new LinkedBlockingDeque<>(3);
        SynchronousQueue<Integer> sync = new SynchronousQueue<>();
        TransferQueue<Integer> ltq = new LinkedTransferQueue<>();
        Exchanger<Integer> ex = new Exchanger<>();
        long[] sums = new long[5];
        Thread consumer = new Thread(() -> {
            try {
                for (int k = 0; k < n; k++) {
                    sums[0] += abq.take();
                }
                int got = 0;
                List<Integer> drained = new ArrayList<>();
                while (got < n) {
                    Integer v = (got & 1) == 0 ? deque.takeFirst() : deque.pollFirst(10, TimeUnit.SECONDS);
                    sums[1] += v;
                    got++;
                    drained.clear();
                    got += deque.drainTo(drained, n - got);
                    for (int x : drained) {
                        sums[1] += x;
                    }
                }
                for (int k = 0; k < n; k++) {
                    sums[2] += sync.take();
                    sync.put(k * 3);
                }
                for (int k = 0; k < n; k++) {
                    sums[3] += ltq.take();
                }
                for (int k = 0; k < n; k++) {
                    sums[4] += ex.exchange(1000 + k);
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        consumer.start();
        for (int k = 0; k < n; k++) {
            abq.put(k);
        }
        for (int k = 0; k < n; k++) {
            if ((k & 1) == 0) {
                deque.putLast(k);
            } else if (!deque.offerLast(k, 10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("offerLast refused");
            }
        }
        long back = 0;
        for (int k = 0; k < n; k++) {
            sync.put(k);
            back += sync.take();
        }
        for (int k = 0; k < n; k++) {
            ltq.transfer(k);
        }
        long swapped = 0;
        for (int k = 0; k < n; k++) {
            swapped += ex.exchange(k);
        }
        consumer.join();
        System.out.println("check " + sums[0] + " " + sums[1] + " " + sums[2] + " " + back + " " + sums[3] + " "
                + sums[4] + " " + swapped);
    }
}
