package org.dsmscope.examples;

/**
 * The master / worker pattern on monitors, the most common hand-written Java concurrency (issue 22, part 1): the
 * master (thread 0), inside {@code synchronized (master)}, hands each worker a task ({@code synchronized (worker)
 * { task = i; done = false; worker.notify(); }}), then waits {@code while (!worker.done) master.wait()} for each
 * worker in turn; each worker, inside {@code synchronized (this)}, waits while {@code done}, computes its task, and
 * reports {@code synchronized (master) { result; done = true; master.notify(); }}. SIZE tasks are handed out in
 * rounds of THREADS (the workers); the run has THREADS + 1 threads: 0 the master, 1..THREADS the workers.
 *
 * <p>Sharing pattern: the master writes the input (one block of {@value #CHUNK} longs per task) in the serial
 * phase; the worker of task i reads block i and writes result i, which the master reads (producer-consumer through
 * monitors). Synchronization: nested monitors (worker's, then master's), {@code wait}/{@code notify} on both. The
 * master's wait is woken by the first worker's notify, but it gets its monitor back only after the other workers'
 * sections on it: a replay that does not follow the recorded lock order gives it the monitor at once and then
 * deadlocks (master waiting for a worker's monitor, that worker for the master's). Self-check: the sum of the
 * results against a serial recomputation, and every task done exactly once.
 */
public final class MasterWorker {
    /** Default number of tasks. */
    public static final int DEFAULT_SIZE = 2000;
    /** Longs of input per task. */
    static final int CHUNK = 1024;
    private static final long SEED = 0x4D575354L;

    private MasterWorker() {
    }

    /** Runs {@code MasterWorker [THREADS [SIZE]]}: THREADS workers (default 4), SIZE tasks. */
    public static void main(String[] args) {
        Cli.main("MasterWorker", args, Cli.DEFAULT_THREADS, DEFAULT_SIZE, MasterWorker::run);
    }

    /** The master's monitor; the results are written and read under it. */
    static final class Master {
        final long[] results;
        final int[] runs;

        Master(int tasks) {
            results = new long[tasks];
            runs = new int[tasks];
        }
    }

    /**
     * One worker. Threading: {@link #task} and {@link #stop} are written by the master holding this worker's
     * monitor and read by the worker holding it; {@link #done} is written holding this monitor (and the master's,
     * by the worker) and read holding either.
     */
    static final class Worker {
        private final Master master;
        private final long[] input;
        boolean done = true;
        boolean stop;
        int task = -1;

        Worker(Master master, long[] input) {
            this.master = master;
            this.input = input;
        }

        /** Waits for tasks and computes them until told to stop. */
        void work() throws InterruptedException {
            synchronized (this) {
                while (true) {
                    while (done) {
                        wait();
                    }
                    if (stop) {
                        return;
                    }
                    long r = compute(input, task);
                    synchronized (master) {
                        master.results[task] = r;
                        master.runs[task]++;
                        done = true;
                        master.notify();
                    }
                }
            }
        }
    }

    /** Runs {@code n} tasks on {@code threads} workers and checks the results. */
    public static Result run(int threads, int n) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 0 && n <= (1 << 20), "size (tasks) must be 0.." + (1 << 20) + ", was " + n);
        Phases.begin(Phases.INIT);
        long[] input = new long[n * CHUNK];
        Prng rng = new Prng(SEED);
        for (int i = 0; i < input.length; i++) {
            input[i] = rng.nextLong();
        }
        Master master = new Master(n);
        Worker[] workers = new Worker[threads];
        for (int w = 0; w < threads; w++) {
            workers[w] = new Worker(master, input);
        }

        Phases.begin(Phases.COMPUTE);
        Team.run("masterworker", threads + 1, id -> {
            if (id == 0) {
                lead(master, workers, n);
            } else {
                workers[id - 1].work();
            }
        });

        Phases.begin(Phases.VERIFY);
        long sum = 0;
        long expected = 0;
        String problem = null;
        for (int i = 0; i < n; i++) {
            sum += master.results[i];
            expected += compute(input, i);
            if (master.runs[i] != 1 && problem == null) {
                problem = "task " + i + " ran " + master.runs[i] + " times";
            }
        }
        if (problem == null && sum != expected) {
            problem = "results differ from the serial recomputation";
        }
        return Result.checked(Long.toHexString(sum), "tasks=" + n, problem);
    }

    /** The master: hands out the tasks in rounds of one per worker, waits for each round, then stops the workers. */
    private static void lead(Master master, Worker[] workers, int n) throws InterruptedException {
        synchronized (master) {
            for (int base = 0; base < n; base += workers.length) {
                int k = Math.min(workers.length, n - base);
                for (int i = 0; i < k; i++) {
                    Worker w = workers[i];
                    synchronized (w) {
                        w.task = base + i;
                        w.done = false;
                        w.notify();
                    }
                }
                for (int i = 0; i < k; i++) {
                    while (!workers[i].done) {
                        master.wait();
                    }
                }
            }
            for (Worker w : workers) {
                synchronized (w) {
                    w.stop = true;
                    w.done = false;
                    w.notify();
                }
            }
        }
    }

    /** Task {@code i}: its block of the input, each value mixed with the task number, summed modulo 2^64. */
    static long compute(long[] input, int i) {
        long s = 0;
        for (int j = i * CHUNK, end = j + CHUNK; j < end; j++) {
            s += Prng.mix(input[j] + i);
        }
        return s;
    }
}
