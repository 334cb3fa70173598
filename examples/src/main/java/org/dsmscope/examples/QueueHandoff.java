package org.dsmscope.examples;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A producer hands items to consumers through an {@code ArrayBlockingQueue} (issue 28: {@code java.util.concurrent}
 * seen as synchronization, an element's put ordered before its take): one producer thread fills SIZE items of
 * {@link #WORDS} longs and {@code put}s them into a queue of {@link #CAPACITY}; THREADS consumers (the main thread
 * among them) {@code take} them until an end item and fold their words.
 *
 * <p>Sharing pattern: each item is written by the producer and read by the one consumer that takes it (producer
 * &rarr; consumer communication). Synchronization: the queue alone; the consumers wait when it is empty, the
 * producer when it is full. Threading: an item is not touched by the producer after its put; each consumer writes
 * only its own slot of the sums, read by main after the team joined. The check value depends on the items alone.
 */
public final class QueueHandoff {
    /** Default number of items. */
    public static final int DEFAULT_SIZE = 20_000;
    /** Items the queue holds. */
    static final int CAPACITY = 16;
    /** Words per item. */
    static final int WORDS = 8;

    private QueueHandoff() {
    }

    /** Runs {@code QueueHandoff [THREADS [SIZE]]}: THREADS consumers (default 4) and a producer, SIZE items. */
    public static void main(String[] args) {
        Cli.main("QueueHandoff", args, DEFAULT_SIZE, QueueHandoff::run);
    }

    /** Hands {@code n} items to {@code threads} consumers and checks their sums against a serial run. */
    public static Result run(int threads, int n) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 0 && n <= (1 << 22), "size (items) must be 0.." + (1 << 22) + ", was " + n);
        Phases.begin(Phases.INIT);
        BlockingQueue<long[]> queue = new ArrayBlockingQueue<>(CAPACITY);
        long[] end = new long[0];
        long[] sums = new long[threads];
        int[] counts = new int[threads];
        Throwable[] failure = new Throwable[1];
        Phases.begin(Phases.COMPUTE);
        Thread producer = new Thread(() -> {
            try {
                for (int k = 0; k < n; k++) {
                    long[] item = new long[WORDS];
                    fill(item, k);
                    queue.put(item);
                }
                for (int c = 0; c < threads; c++) {
                    queue.put(end);
                }
            } catch (InterruptedException | RuntimeException e) {
                failure[0] = e;
            }
        }, "queue-producer");
        producer.start();
        Team.run("queue", threads, id -> {
            long sum = 0;
            int count = 0;
            for (long[] item = queue.take(); item != end; item = queue.take()) {
                for (long w : item) {
                    sum += w;
                }
                count++;
            }
            sums[id] = sum;
            counts[id] = count;
        });
        try {
            producer.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException("interrupted waiting for the producer", e);
        }
        Phases.begin(Phases.VERIFY);
        long sum = 0;
        long count = 0;
        for (int c = 0; c < threads; c++) {
            sum += sums[c];
            count += counts[c];
        }
        long[] item = new long[WORDS];
        long expected = 0;
        for (int k = 0; k < n; k++) {
            fill(item, k);
            for (long w : item) {
                expected += w;
            }
        }
        String problem = failure[0] != null ? "the producer failed: " + failure[0]
                : count != n ? count + " items taken of " + n
                : sum != expected ? "the sum differs from the serial run" : null;
        return Result.checked(Long.toHexString(sum), "items=" + n, problem);
    }

    /** Item k's words. */
    static void fill(long[] item, int k) {
        for (int j = 0; j < item.length; j++) {
            item[j] = Prng.mix((long) k * WORDS + j);
        }
    }
}
