package org.dsmscope.examples;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A lock-heavy shared work queue: one task covers the item range [0, n); a worker takes a task, splits a range
 * longer than {@value #GRAIN} items into two halves and puts them back, or processes a short range (the Collatz
 * stopping time of each item + 1) and adds its totals to a shared accumulator.
 *
 * <p>Sharing pattern: the queue (a growable ring of task objects) and the accumulator are the only shared data;
 * each is touched only inside a critical section, so almost all communication is lock-protected migratory
 * sharing. Synchronization: the queue's {@code ReentrantLock} (take, put, done), its {@code Condition} (an idle
 * worker waits while the queue is empty but tasks are still running; the last task signals everyone), the
 * accumulator's {@code synchronized} methods, and an {@code AtomicInteger} task counter (atomic read-modify-write).
 * All totals are sums of integers, so they do not depend on which thread ran which task. Self-check: every item
 * processed exactly once (count, sum and sum of squares of item indices in closed form) and the number of tasks
 * equal to that of the split tree.
 */
public final class WorkQueue {
    /** Default number of items. */
    public static final int DEFAULT_SIZE = 1 << 16;
    /** Longest range processed without splitting. */
    static final int GRAIN = 16;

    private WorkQueue() {
    }

    /** Runs {@code WorkQueue [THREADS [SIZE]]}: SIZE is the number of items n. */
    public static void main(String[] args) {
        Cli.main("WorkQueue", args, DEFAULT_SIZE, WorkQueue::run);
    }

    /** A range of items [lo, hi). */
    static final class Task {
        final int lo;
        final int hi;

        Task(int lo, int hi) {
            this.lo = lo;
            this.hi = hi;
        }
    }

    /**
     * The shared queue: a ring buffer of tasks that grows when full, and the number of tasks put but not yet done.
     * Threading: every field is guarded by {@link #lock}; {@link #changed} is signalled when a task is put and
     * when the last pending task is done.
     */
    static final class TaskQueue {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition changed = lock.newCondition();
        private Task[] ring = new Task[64];
        private int head;
        private int count;
        private int pending;

        /** Adds a task; it stays pending until a worker calls {@link #done()} for it. */
        void put(Task t) {
            lock.lock();
            try {
                if (count == ring.length) {
                    Task[] bigger = new Task[2 * ring.length];
                    for (int i = 0; i < count; i++) {
                        bigger[i] = ring[(head + i) % ring.length];
                    }
                    ring = bigger;
                    head = 0;
                }
                ring[(head + count) % ring.length] = t;
                count++;
                pending++;
                changed.signal();
            } finally {
                lock.unlock();
            }
        }

        /** The next task, waiting while the queue is empty and tasks are pending; null when all work is done. */
        Task take() throws InterruptedException {
            lock.lock();
            try {
                while (count == 0 && pending > 0) {
                    changed.await();
                }
                if (count == 0) {
                    return null;
                }
                Task t = ring[head];
                ring[head] = null;
                head = (head + 1) % ring.length;
                count--;
                return t;
            } finally {
                lock.unlock();
            }
        }

        /** Marks one taken task finished (after putting any tasks it created); wakes everyone after the last. */
        void done() {
            lock.lock();
            try {
                pending--;
                if (pending == 0) {
                    changed.signalAll();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** The shared totals. Threading: guarded by this object's monitor. */
    static final class Totals {
        private long items;
        private long indexSum;
        private long indexSquareSum;
        private long steps;

        /** Adds one processed range's totals. */
        synchronized void add(long items, long indexSum, long indexSquareSum, long steps) {
            this.items += items;
            this.indexSum += indexSum;
            this.indexSquareSum += indexSquareSum;
            this.steps += steps;
        }
    }

    /** Processes n items on {@code threads} threads through the shared queue and checks that none was lost. */
    public static Result run(int threads, int n) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 1 && n <= (1 << 28), "size (items) must be 1.." + (1 << 28) + ", was " + n);
        Phases.begin(Phases.INIT);
        TaskQueue queue = new TaskQueue();
        Totals totals = new Totals();
        AtomicInteger tasksRun = new AtomicInteger();
        queue.put(new Task(0, n));

        Phases.begin(Phases.COMPUTE);
        Team.run("workqueue", threads, id -> work(queue, totals, tasksRun));

        Phases.begin(Phases.VERIFY);
        long nn = n;
        int tasks = taskCount(n);
        String problem = null;
        if (totals.items != nn || totals.indexSum != nn * (nn - 1) / 2 || totals.indexSquareSum != squareSum(nn)) {
            problem = "items processed " + totals.items + " (sum " + totals.indexSum + "), expected " + nn
                    + " (sum " + nn * (nn - 1) / 2 + ")";
        } else if (tasksRun.get() != tasks) {
            problem = tasksRun.get() + " tasks run, expected " + tasks;
        }
        return Result.checked(Long.toString(totals.steps), "tasks=" + tasks, problem);
    }

    private static void work(TaskQueue queue, Totals totals, AtomicInteger tasksRun) throws InterruptedException {
        Task t;
        while ((t = queue.take()) != null) {
            if (t.hi - t.lo > GRAIN) {
                int mid = (t.lo + t.hi) >>> 1;
                queue.put(new Task(t.lo, mid));
                queue.put(new Task(mid, t.hi));
            } else {
                long indexSum = 0;
                long indexSquareSum = 0;
                long steps = 0;
                for (int i = t.lo; i < t.hi; i++) {
                    indexSum += i;
                    indexSquareSum += (long) i * i;
                    steps += collatzSteps(i + 1L);
                }
                totals.add(t.hi - t.lo, indexSum, indexSquareSum, steps);
            }
            tasksRun.incrementAndGet();
            queue.done();
        }
    }

    /** The number of 3x+1 / x/2 steps from x to 1 (0 for x = 1). */
    static long collatzSteps(long x) {
        long steps = 0;
        while (x != 1) {
            x = (x & 1) == 0 ? x >>> 1 : 3 * x + 1;
            steps++;
        }
        return steps;
    }

    /** The number of tasks the split tree of [0, n) has: one per node. */
    static int taskCount(int n) {
        return n <= GRAIN ? 1 : 1 + taskCount(n >>> 1) + taskCount(n - (n >>> 1));
    }

    /** &Sigma; i&sup2; for i in [0, n), modulo 2^64 like the workers' sums. */
    static long squareSum(long n) {
        return java.math.BigInteger.valueOf(n - 1).multiply(java.math.BigInteger.valueOf(n))
                .multiply(java.math.BigInteger.valueOf(2 * n - 1)).divide(java.math.BigInteger.valueOf(6)).longValue();
    }
}
