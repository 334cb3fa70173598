package org.dsmscope.progs;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Test program: blocking queues handed through wider interface types (issue 28's leftover), each between main
 * (the producer) and one consumer thread that spins until the element is there: an {@code ArrayBlockingQueue}
 * held as a {@code Queue} ({@code offer} / {@code poll}), a {@code LinkedBlockingDeque} held as a {@code Deque}
 * ({@code push}, {@code offerFirst}, {@code addFirst} / {@code pollLast}), a {@code LinkedBlockingQueue} held as a
 * {@code Collection} ({@code add} / {@code remove(o)}), and one held as a {@code Queue} reached through method
 * references ({@code items.forEach(q::add)}, a lambda calling {@code q.offer}, {@code Supplier<T> take = q::poll}),
 * and a bounded {@code LinkedBlockingDeque} held as a {@code Deque} ({@code addLast}, {@code offerLast} /
 * {@code pollFirst}, {@code pop}, {@code removeFirst}).
 * Before each hand-off main writes {@code WORK} elements of an array, so that in the replay the producer is the
 * slower thread and the consumer waits. Args: {@code N WORK}; prints {@code check SUMS}.
 */
public final class WideQueueProg {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int work = Integer.parseInt(args[1]);
        Queue<Integer> queue = new ArrayBlockingQueue<>(n);
        Deque<Integer> deque = new LinkedBlockingDeque<>();
        Collection<Integer> coll = new LinkedBlockingQueue<>();
        Queue<Integer> viaRefs = new LinkedBlockingQueue<>();
        Deque<Integer> line = new LinkedBlockingDeque<>(n);
        long[] data = new long[work + 1];
        long[] sums = new long[5];
        Thread consumer = new Thread(() -> {
            Integer v;
            for (int k = 0; k < n; k++) {
                while ((v = queue.poll()) == null) {
                    Thread.onSpinWait();
                }
                sums[0] += v;
            }
            for (int k = 0; k < n; k++) {
                while ((v = deque.pollLast()) == null) {
                    Thread.onSpinWait();
                }
                sums[1] += v;
            }
            for (int k = 0; k < n; k++) {
                while (!coll.remove(k)) {
                    Thread.onSpinWait();
                }
                sums[2] += k;
            }
            Supplier<Integer> take = viaRefs::poll;
            for (int k = 0; k < 2 * n; k++) {
                while ((v = take.get()) == null) {
                    Thread.onSpinWait();
                }
                sums[3] += v;
            }
            for (int k = 0; k < n; k++) {
                while (line.peekFirst() == null) {
                    Thread.onSpinWait();
                }
                // one consumer: the head it saw is still there
                sums[4] += k % 3 == 0 ? line.pollFirst() : k % 3 == 1 ? line.pop() : line.removeFirst();
            }
        });
        consumer.start();
        for (int k = 0; k < n; k++) {
            produce(data, k);
            if (!queue.offer(k)) {
                throw new IllegalStateException("offer refused");
            }
        }
        for (int k = 0; k < n; k++) {
            produce(data, k);
            if (k % 3 == 0) {
                deque.push(k);
            } else if (k % 3 == 1) {
                deque.offerFirst(k);
            } else {
                deque.addFirst(k);
            }
        }
        for (int k = 0; k < n; k++) {
            produce(data, k);
            coll.add(k);
        }
        List<Integer> items = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            produce(data, k);
            items.add(k);
        }
        items.forEach(viaRefs::add);
        Consumer<Integer> offer = x -> viaRefs.offer(x);
        for (int k = 0; k < n; k++) {
            produce(data, k);
            offer.accept(k);
        }
        for (int k = 0; k < n; k++) {
            produce(data, k);
            if (k % 2 == 0) {
                line.addLast(k);
            } else if (!line.offerLast(k)) {
                throw new IllegalStateException("offerLast refused");
            }
        }
        consumer.join();
        System.out.println("check " + sums[0] + " " + sums[1] + " " + sums[2] + " " + sums[3] + " " + sums[4] + " "
                + data[work]);
    }

    /** Main's work before a hand-off: WORK array stores. */
    private static void produce(long[] data, int k) {
        for (int i = 0; i < data.length; i++) {
            data[i] = k + i;
        }
    }
}
