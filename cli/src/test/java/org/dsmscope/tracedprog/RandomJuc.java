package org.dsmscope.tracedprog;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Exchanger;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TransferQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

/**
 * A random {@code java.util.concurrent} program (issue 28's property test): {@code RandomJuc SEED} runs 3–6 stages
 * drawn from queues (array, linked, deque, synchronous, transfer; random capacities, 1–2 producers and consumers),
 * a fixed pool with submit / get or invokeAll, {@code CompletableFuture.supplyAsync} / join or a chain of
 * dependants (thenApply, thenCombine, thenCompose, thenAccept, complete, allOf), a {@code RecursiveTask}
 * on a fork-join pool, a parallel stream, a latch, a semaphore, a cyclic barrier, a park / unpark ring and an
 * exchanger. Every stage passes data between threads through one shared array and checks its own result against
 * a closed form; the program prints {@code ok STAGES} or exits with status 1 naming the stage that failed.
 */
public final class RandomJuc {
    private static final int KINDS = 11;
    private static final String[] NAMES = {"queue", "pool", "futures", "forkjoin", "stream", "latch", "semaphore",
        "barrier", "park", "exchanger", "invokeAll"};

    private RandomJuc() {
    }

    public static void main(String[] args) throws Exception {
        Random rnd = new Random(Long.parseLong(args[0]));
        int stages = 3 + rnd.nextInt(4);
        StringBuilder done = new StringBuilder();
        for (int s = 0; s < stages; s++) {
            int kind = rnd.nextInt(KINDS);
            long got = stage(kind, rnd);
            int n = last;
            long want = (long) n * (n - 1) / 2;
            if (got != want) {
                System.out.println("stage " + s + " (" + NAMES[kind] + ") computed " + got + ", expected " + want);
                System.exit(1);
            }
            done.append(' ').append(NAMES[kind]);
        }
        System.out.println("ok" + done);
    }

    /** Elements of the last stage: each stage sums 0 … last − 1 across threads. */
    private static int last;

    private static long stage(int kind, Random rnd) throws Exception {
        int n = 8 + rnd.nextInt(60);
        last = n;
        long[] data = new long[n];
        for (int i = 0; i < n; i++) {
            data[i] = i;
        }
        switch (kind) {
            case 0:
                return queue(rnd, data);
            case 1:
                return pool(rnd, data);
            case 2:
                return futures(rnd, data);
            case 3:
                return forkJoin(data);
            case 4:
                return stream(rnd, data);
            case 5:
                return latch(rnd, data);
            case 6:
                return semaphore(rnd, data);
            case 7:
                return barrier(rnd, data);
            case 8:
                return park(rnd, data);
            case 9:
                return exchanger(data);
            default:
                return invokeAll(rnd, data);
        }
    }

    /** Producers put the indices of their share, consumers take and add the elements; −1 ends a consumer. */
    private static long queue(Random rnd, long[] data) throws Exception {
        int type = rnd.nextInt(5);
        int cap = 1 + rnd.nextInt(4);
        BlockingQueue<Integer> q = type == 0 ? new ArrayBlockingQueue<>(cap) : type == 1
                ? new LinkedBlockingQueue<>(cap) : type == 2 ? new LinkedBlockingDeque<>(cap) : type == 3
                ? new SynchronousQueue<>() : new LinkedTransferQueue<>();
        int producers = 1 + rnd.nextInt(2);
        int consumers = 1 + rnd.nextInt(2);
        long[] sums = new long[consumers];
        List<Thread> ts = new ArrayList<>();
        for (int c = 0; c < consumers; c++) {
            int me = c;
            ts.add(new Thread(() -> {
                try {
                    while (true) {
                        int i = type == 2 ? ((BlockingDeque<Integer>) q).takeFirst() : q.take();
                        if (i < 0) {
                            return;
                        }
                        sums[me] += data[i];
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (int p = 0; p < producers; p++) {
            int me = p;
            ts.add(new Thread(() -> {
                try {
                    for (int i = me; i < data.length; i += producers) {
                        if (type == 4) {
                            ((TransferQueue<Integer>) q).transfer(i);
                        } else if (type == 2) {
                            ((BlockingDeque<Integer>) q).putLast(i);
                        } else {
                            q.put(i);
                        }
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (Thread t : ts) {
            t.start();
        }
        for (int p = 0; p < producers; p++) {
            ts.get(consumers + p).join();
        }
        for (int c = 0; c < consumers; c++) {
            q.put(-1);
        }
        long sum = 0;
        for (int c = 0; c < consumers; c++) {
            ts.get(c).join();
            sum += sums[c];
        }
        return sum;
    }

    /** Tasks on a fixed pool each add a stripe of the elements; main gets them. */
    private static long pool(Random rnd, long[] data) throws Exception {
        int workers = 1 + rnd.nextInt(3);
        int tasks = 1 + rnd.nextInt(6);
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<Future<Long>> fs = new ArrayList<>();
            for (int t = 0; t < tasks; t++) {
                int me = t;
                fs.add(pool.submit(() -> stripe(data, me, tasks)));
            }
            long sum = 0;
            for (Future<Long> f : fs) {
                sum += f.get();
            }
            return sum;
        } finally {
            shut(pool);
        }
    }

    /** The same with invokeAll, or invokeAny of a single task. */
    private static long invokeAll(Random rnd, long[] data) throws Exception {
        int tasks = 1 + rnd.nextInt(5);
        ExecutorService pool = Executors.newFixedThreadPool(1 + rnd.nextInt(3));
        try {
            if (rnd.nextBoolean()) {
                List<Callable<Long>> one = List.of(() -> stripe(data, 0, 1));
                return pool.invokeAny(one);
            }
            List<Callable<Long>> cs = new ArrayList<>();
            for (int t = 0; t < tasks; t++) {
                int me = t;
                cs.add(() -> stripe(data, me, tasks));
            }
            long sum = 0;
            for (Future<Long> f : pool.invokeAll(cs)) {
                sum += f.get();
            }
            return sum;
        } finally {
            shut(pool);
        }
    }

    /** supplyAsync stripes on a pool or the common pool, joined or got. */
    private static long futures(Random rnd, long[] data) throws Exception {
        int tasks = 1 + rnd.nextInt(5);
        boolean own = rnd.nextBoolean();
        ExecutorService pool = own ? Executors.newFixedThreadPool(2) : null;
        try {
            List<CompletableFuture<Long>> fs = new ArrayList<>();
            for (int t = 0; t < tasks; t++) {
                int me = t;
                fs.add(own ? CompletableFuture.supplyAsync(() -> stripe(data, me, tasks), pool)
                        : CompletableFuture.supplyAsync(() -> stripe(data, me, tasks)));
            }
            if (rnd.nextBoolean()) {
                // a chain: each stripe mapped, then all folded with thenCombine, then composed and completed by hand
                CompletableFuture<Long> acc = fs.get(0).thenApply(x -> x + 0);
                for (int t = 1; t < tasks; t++) {
                    acc = acc.thenCombine(fs.get(t).thenApplyAsync(x -> x * 1), Long::sum);
                }
                CompletableFuture<Long> done = new CompletableFuture<>();
                acc.thenCompose(x -> CompletableFuture.supplyAsync(() -> x)).thenAccept(x -> done.complete(x));
                CompletableFuture.allOf(fs.toArray(new CompletableFuture[0])).join();
                return done.get();
            }
            long sum = 0;
            for (int t = 0; t < tasks; t++) {
                sum += (t & 1) == 0 ? fs.get(t).join() : fs.get(t).get();
            }
            return sum;
        } finally {
            if (pool != null) {
                shut(pool);
            }
        }
    }

    /** Sums a range in halves, forking the left one. */
    static final class Sum extends RecursiveTask<Long> {
        private final long[] a;
        private final int from;
        private final int to;

        Sum(long[] a, int from, int to) {
            this.a = a;
            this.from = from;
            this.to = to;
        }

        @Override
        protected Long compute() {
            if (to - from <= 8) {
                long s = 0;
                for (int i = from; i < to; i++) {
                    s += a[i];
                }
                return s;
            }
            int mid = (from + to) >>> 1;
            Sum left = new Sum(a, from, mid);
            left.fork();
            long right = new Sum(a, mid, to).compute();
            return left.join() + right;
        }
    }

    private static long forkJoin(long[] data) {
        ForkJoinPool pool = new ForkJoinPool(2);
        try {
            return pool.invoke(new Sum(data, 0, data.length));
        } finally {
            pool.shutdown();
        }
    }

    private static long stream(Random rnd, long[] data) throws Exception {
        if (rnd.nextBoolean()) {
            return IntStream.range(0, data.length).parallel().mapToLong(i -> data[i]).sum();
        }
        ForkJoinPool pool = new ForkJoinPool(2);
        try {
            return pool.submit(() -> IntStream.range(0, data.length).parallel().mapToLong(i -> data[i]).sum()).get();
        } finally {
            pool.shutdown();
        }
    }

    /** Workers write their stripe's sum into a cell and count down; main awaits and adds the cells. */
    private static long latch(Random rnd, long[] data) throws Exception {
        int workers = 1 + rnd.nextInt(3);
        CountDownLatch done = new CountDownLatch(workers);
        long[] cells = new long[workers];
        for (int w = 0; w < workers; w++) {
            int me = w;
            new Thread(() -> {
                cells[me] = stripe(data, me, workers);
                done.countDown();
            }).start();
        }
        done.await();
        long sum = 0;
        for (long c : cells) {
            sum += c;
        }
        return sum;
    }

    /** Workers take turns on a one-permit semaphore adding their stripe into one shared total. */
    private static long semaphore(Random rnd, long[] data) throws Exception {
        int workers = 1 + rnd.nextInt(3);
        Semaphore s = new Semaphore(1);
        long[] total = new long[1];
        List<Thread> ts = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            int me = w;
            ts.add(new Thread(() -> {
                for (int i = me; i < data.length; i += workers) {
                    s.acquireUninterruptibly();
                    total[0] += data[i];
                    s.release();
                }
            }));
        }
        for (Thread t : ts) {
            t.start();
        }
        for (Thread t : ts) {
            t.join();
        }
        return total[0];
    }

    /** Parties write their stripe's sum, meet at the barrier, then each reads the cell of the next party. */
    private static long barrier(Random rnd, long[] data) throws Exception {
        int parties = 2 + rnd.nextInt(2);
        CyclicBarrier b = new CyclicBarrier(parties);
        long[] cells = new long[parties];
        long[] seen = new long[parties];
        List<Thread> ts = new ArrayList<>();
        for (int w = 0; w < parties; w++) {
            int me = w;
            ts.add(new Thread(() -> {
                cells[me] = stripe(data, me, parties);
                try {
                    b.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                seen[me] = cells[(me + 1) % parties];
            }));
        }
        for (Thread t : ts) {
            t.start();
        }
        for (Thread t : ts) {
            t.join();
        }
        long sum = 0;
        for (long v : seen) {
            sum += v;
        }
        return sum;
    }

    /** A ring of threads passing a running total with park / unpark, each adding its stripe once. */
    private static long park(Random rnd, long[] data) throws Exception {
        int k = 2 + rnd.nextInt(2);
        Thread[] ring = new Thread[k];
        long[] total = new long[1];
        java.util.concurrent.atomic.AtomicInteger turn = new java.util.concurrent.atomic.AtomicInteger();
        for (int w = 0; w < k; w++) {
            int me = w;
            ring[w] = new Thread(() -> {
                while (turn.get() != me) {
                    LockSupport.park();
                }
                total[0] += stripe(data, me, k);
                turn.set(me + 1);
                if (me + 1 < k) {
                    LockSupport.unpark(ring[me + 1]);
                }
            });
        }
        for (Thread t : ring) {
            t.start();
        }
        for (Thread t : ring) {
            t.join();
        }
        return total[0];
    }

    /** Two threads swap their stripes' sums through an exchanger; main adds what each got. */
    private static long exchanger(long[] data) throws Exception {
        Exchanger<Long> x = new Exchanger<>();
        long[] got = new long[2];
        List<Thread> ts = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int me = w;
            ts.add(new Thread(() -> {
                try {
                    got[me] = x.exchange(stripe(data, me, 2));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (Thread t : ts) {
            t.start();
        }
        for (Thread t : ts) {
            t.join();
        }
        return got[0] + got[1];
    }

    /** Σ data[i] for i ≡ me (mod of). */
    static long stripe(long[] data, int me, int of) {
        long s = 0;
        for (int i = me; i < data.length; i += of) {
            s += data[i];
        }
        return s;
    }

    private static void shut(ExecutorService pool) throws InterruptedException {
        pool.shutdown();
        if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the pool did not end");
        }
    }
}
