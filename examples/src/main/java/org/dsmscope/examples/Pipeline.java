package org.dsmscope.examples;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A three-stage producer-consumer pipeline: the main thread produces n seeded items into a bounded buffer built
 * on {@code synchronized} with {@code wait}/{@code notifyAll}; THREADS transformer threads take items, mix each
 * value through {@value #ROUNDS} rounds of a 64-bit hash and put them into a second bounded buffer built on a
 * {@code ReentrantLock} with two {@code Condition}s; one consumer thread folds the results. The run has
 * THREADS + 2 threads: 0 the producer, 1..THREADS the transformers, THREADS + 1 the consumer.
 *
 * <p>Sharing pattern: every item is a small object created by the producer, written by one transformer and read
 * by the consumer (migratory sharing handed over through the buffers); the buffers' slots and indices are shared
 * under their locks. Synchronization: monitor waits and notifications, condition waits and signals, end-of-stream
 * items (one per transformer). Items reach the consumer in a varying order, so the consumer folds with sums of
 * integers modulo 2^64, which do not depend on the order. Self-check: every sequence number exactly once (count and
 * sum in closed form) and the folded values equal to a serial recomputation.
 */
public final class Pipeline {
    /** Default number of items. */
    public static final int DEFAULT_SIZE = 20_000;
    /** Default number of transformers: with the producer and the consumer, 4 threads as in the other examples. */
    public static final int DEFAULT_THREADS = 2;
    /** Capacity of each buffer: small, so that both stages really block. */
    static final int CAPACITY = 16;
    /** Hash rounds per item in the transform stage. */
    static final int ROUNDS = 64;
    private static final long SEED = 0x5049504CL;

    private Pipeline() {
    }

    /** Runs {@code Pipeline [THREADS [SIZE]]}: THREADS transformers (default 2), SIZE items. */
    public static void main(String[] args) {
        Cli.main("Pipeline", args, DEFAULT_THREADS, DEFAULT_SIZE, Pipeline::run);
    }

    /** One unit of work; {@code seq} &lt; 0 marks the end of the stream. */
    static final class Item {
        final int seq;
        long value;

        Item(int seq, long value) {
            this.seq = seq;
            this.value = value;
        }
    }

    /** A bounded FIFO on an object monitor. Threading: all fields guarded by this object's monitor. */
    static final class MonitorBuffer {
        private final Item[] slots = new Item[CAPACITY];
        private int head;
        private int count;

        /** Adds an item, waiting while the buffer is full. */
        synchronized void put(Item item) throws InterruptedException {
            while (count == slots.length) {
                wait();
            }
            slots[(head + count) % slots.length] = item;
            count++;
            notifyAll();
        }

        /** Removes the oldest item, waiting while the buffer is empty. */
        synchronized Item take() throws InterruptedException {
            while (count == 0) {
                wait();
            }
            Item item = slots[head];
            slots[head] = null;
            head = (head + 1) % slots.length;
            count--;
            notifyAll();
            return item;
        }
    }

    /** A bounded FIFO on a lock and two conditions. Threading: all fields guarded by {@link #lock}. */
    static final class ConditionBuffer {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition notFull = lock.newCondition();
        private final Condition notEmpty = lock.newCondition();
        private final Item[] slots = new Item[CAPACITY];
        private int head;
        private int count;

        /** Adds an item, waiting while the buffer is full. */
        void put(Item item) throws InterruptedException {
            lock.lock();
            try {
                while (count == slots.length) {
                    notFull.await();
                }
                slots[(head + count) % slots.length] = item;
                count++;
                notEmpty.signal();
            } finally {
                lock.unlock();
            }
        }

        /** Removes the oldest item, waiting while the buffer is empty. */
        Item take() throws InterruptedException {
            lock.lock();
            try {
                while (count == 0) {
                    notEmpty.await();
                }
                Item item = slots[head];
                slots[head] = null;
                head = (head + 1) % slots.length;
                count--;
                notFull.signal();
                return item;
            } finally {
                lock.unlock();
            }
        }
    }

    /** What the consumer folded. Written by the consumer thread only, read after it is joined. */
    static final class Fold {
        long count;
        long seqSum;
        long valueSum;
        long valueXor;
    }

    /** Streams {@code n} items through {@code threads} transformers and checks what the consumer saw. */
    public static Result run(int threads, int n) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 0 && n <= (1 << 28), "size (items) must be 0.." + (1 << 28) + ", was " + n);
        Phases.begin(Phases.INIT);
        MonitorBuffer raw = new MonitorBuffer();
        ConditionBuffer done = new ConditionBuffer();
        Fold fold = new Fold();

        Phases.begin(Phases.COMPUTE);
        Team.run("pipeline", threads + 2, id -> {
            if (id == 0) {
                produce(raw, n, threads);
            } else if (id <= threads) {
                transform(raw, done);
            } else {
                consume(done, threads, fold);
            }
        });

        Phases.begin(Phases.VERIFY);
        long expectedSum = 0;
        long expectedXor = 0;
        Prng rng = new Prng(SEED);
        for (int i = 0; i < n; i++) {
            long v = mix(rng.nextLong());
            expectedSum += v;
            expectedXor ^= v;
        }
        long nn = n;
        String problem = null;
        if (fold.count != nn || fold.seqSum != nn * (nn - 1) / 2) {
            problem = "consumer saw " + fold.count + " items (sequence sum " + fold.seqSum + "), expected " + nn;
        } else if (fold.valueSum != expectedSum || fold.valueXor != expectedXor) {
            problem = "folded values differ from the serial recomputation";
        }
        return Result.checked(Long.toHexString(fold.valueSum), "", problem);
    }

    private static void produce(MonitorBuffer raw, int n, int transformers) throws InterruptedException {
        Prng rng = new Prng(SEED);
        for (int i = 0; i < n; i++) {
            raw.put(new Item(i, rng.nextLong()));
        }
        for (int t = 0; t < transformers; t++) {
            raw.put(new Item(-1, 0));
        }
    }

    private static void transform(MonitorBuffer raw, ConditionBuffer done) throws InterruptedException {
        while (true) {
            Item item = raw.take();
            if (item.seq >= 0) {
                item.value = mix(item.value);
            }
            done.put(item);
            if (item.seq < 0) {
                return;
            }
        }
    }

    private static void consume(ConditionBuffer done, int transformers, Fold fold) throws InterruptedException {
        int ended = 0;
        while (ended < transformers) {
            Item item = done.take();
            if (item.seq < 0) {
                ended++;
            } else {
                fold.count++;
                fold.seqSum += item.seq;
                fold.valueSum += item.value;
                fold.valueXor ^= item.value;
            }
        }
    }

    /** The transform: {@value #ROUNDS} rounds of SplitMix64's finalizer. */
    static long mix(long v) {
        for (int r = 0; r < ROUNDS; r++) {
            v = Prng.mix(v + r);
        }
        return v;
    }
}
