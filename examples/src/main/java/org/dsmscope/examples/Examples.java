package org.dsmscope.examples;

import java.util.List;
import java.util.Locale;

/**
 * The registry of example workloads (issue 3, "Example workloads"): name &rarr; main class, default arguments,
 * a size small enough to trace at level 3 in a test, and a one-line description, so the {@code demo} command,
 * the benchmarks and the tests can iterate over them. Run it to print the table.
 */
public final class Examples {

    /**
     * One example program.
     *
     * @param name short lower-case name (as on the demo command line)
     * @param mainClass the class whose {@code main(String[])} takes {@code [THREADS [SIZE]]}
     * @param defaultThreads thread count of the default run
     * @param defaultSize size of the default run (well under a second uninstrumented)
     * @param smallSize a size for traced end-to-end tests (a few milliseconds uninstrumented)
     * @param sizeMeaning what the size argument counts
     * @param description one line: the kernel, its sharing pattern and its synchronization
     * @param workload the program as a function, for running it in-process
     */
    public record Entry(String name, Class<?> mainClass, int defaultThreads, int defaultSize, int smallSize,
                        String sizeMeaning, String description, Workload workload) {

        /** The default command-line arguments: {@code [defaultThreads, defaultSize]}. */
        public List<String> defaultArgs() {
            return List.of(Integer.toString(defaultThreads), Integer.toString(defaultSize));
        }

        /** The command-line arguments for {@code threads} threads at the small size. */
        public List<String> smallArgs(int threads) {
            return List.of(Integer.toString(threads), Integer.toString(smallSize));
        }

        /** Runs the example in this JVM (no exit, no output). */
        public Result run(int threads, int size) {
            return workload.run(threads, size);
        }
    }

    private static final List<Entry> ALL = List.of(
            new Entry("matmul", MatMul.class, Cli.DEFAULT_THREADS, MatMul.DEFAULT_SIZE, 32, "matrix order",
                    "dense matrix multiply, rows of C per thread; A and B read-shared; spawn/join only",
                    MatMul::run),
            new Entry("sor", Sor.class, Cli.DEFAULT_THREADS, Sor.DEFAULT_SIZE, 16, "interior grid side",
                    "red-black SOR stencil; neighbour rows shared between threads; 2 barriers per iteration",
                    Sor::run),
            new Entry("lu", Lu.class, Cli.DEFAULT_THREADS, Lu.DEFAULT_SIZE, 48, "matrix order",
                    "blocked LU, 2-D scattered 16x16 blocks; moving panels read by many; 3 barriers per step",
                    Lu::run),
            new Entry("radix", RadixSort.class, Cli.DEFAULT_THREADS, RadixSort.DEFAULT_SIZE, 4096, "keys",
                    "LSD radix sort; shared histograms, all-to-all scatter; 2 barriers per pass",
                    RadixSort::run),
            new Entry("fft", Fft.class, Cli.DEFAULT_THREADS, Fft.DEFAULT_SIZE, 1024, "complex points (power of 4)",
                    "six-step 1-D FFT; private row FFTs, all-to-all transposes; barrier per step",
                    Fft::run),
            new Entry("cg", ConjugateGradient.class, Cli.DEFAULT_THREADS, ConjugateGradient.DEFAULT_SIZE, 32,
                    "grid side (size^2 rows)",
                    "sparse CSR conjugate gradient; halo reads of p, chunked reductions; 3 barriers per iteration",
                    ConjugateGradient::run),
            new Entry("workqueue", WorkQueue.class, Cli.DEFAULT_THREADS, WorkQueue.DEFAULT_SIZE, 1024, "items",
                    "lock-heavy shared task queue; ReentrantLock, Condition, synchronized totals, atomic counter",
                    WorkQueue::run),
            new Entry("pipeline", Pipeline.class, Pipeline.DEFAULT_THREADS, Pipeline.DEFAULT_SIZE, 500,
                    "items (THREADS transformers + 2 threads)",
                    "producer -> transformers -> consumer; wait/notifyAll buffer, then lock/Condition buffer",
                    Pipeline::run),
            new Entry("masterworker", MasterWorker.class, Cli.DEFAULT_THREADS, MasterWorker.DEFAULT_SIZE, 50,
                    "tasks (THREADS workers + the master)",
                    "master hands tasks to workers in nested monitors; wait/notify both ways (issue 22's pattern)",
                    MasterWorker::run),
            new Entry("parkring", ParkRing.class, Cli.DEFAULT_THREADS, ParkRing.DEFAULT_SIZE, 200, "steps",
                    "a token ring on LockSupport.park/unpark; a shared block migrates with the token",
                    ParkRing::run),
            new Entry("spinbarrier", SpinBarrier.class, Cli.DEFAULT_THREADS, SpinBarrier.DEFAULT_SIZE, 20, "rounds",
                    "unequal work per thread between sense-reversing spin barriers (a volatile flag re-read)",
                    SpinBarrier::run),
            new Entry("prodcons", ProducerConsumer.class, Cli.DEFAULT_THREADS, ProducerConsumer.DEFAULT_SIZE, 4,
                    "rounds", "thread 0 fills a shared buffer, the others read it; 2 barriers per round (issue 26)",
                    ProducerConsumer::run),
            new Entry("migratory", MigratoryCounter.class, Cli.DEFAULT_THREADS, MigratoryCounter.DEFAULT_SIZE, 200,
                    "increments", "one shared counter read and written in turn under a lock (issue 26)",
                    MigratoryCounter::run),
            new Entry("falsesharing", FalseSharing.class, Cli.DEFAULT_THREADS, FalseSharing.DEFAULT_SIZE, 2000,
                    "increments", "per-thread counters side by side in one long[]: false sharing (issue 26)",
                    FalseSharing::run),
            new Entry("padded", FalseSharingPadded.class, Cli.DEFAULT_THREADS, FalseSharing.DEFAULT_SIZE, 2000,
                    "increments", "the false-sharing counters a 64-byte line apart: the fix (issue 26)",
                    FalseSharingPadded::run),
            new Entry("fieldsharing", FieldFalseSharing.class, Cli.DEFAULT_THREADS, FieldFalseSharing.DEFAULT_SIZE,
                    2000, "items", "Counter.hits written by one thread, Counter.misses by another: false sharing"
                            + " between fields (issue 26)", FieldFalseSharing::run),
            new Entry("fieldpadded", FieldFalseSharingPadded.class, Cli.DEFAULT_THREADS,
                    FieldFalseSharing.DEFAULT_SIZE, 2000, "items", "the two fields 64 bytes apart (seven padding"
                            + " longs): the fix (issue 26)", FieldFalseSharingPadded::run),
            new Entry("queue", QueueHandoff.class, Cli.DEFAULT_THREADS, QueueHandoff.DEFAULT_SIZE, 200,
                    "items (THREADS consumers + a producer)",
                    "a producer puts items into an ArrayBlockingQueue, consumers take them (issue 28)",
                    QueueHandoff::run),
            new Entry("executor", ExecutorTasks.class, Cli.DEFAULT_THREADS, ExecutorTasks.DEFAULT_SIZE, 2000,
                    "elements (a pool of THREADS workers + main)",
                    "8 tasks submitted to a fixed thread pool, collected with Future.get (issue 28)",
                    ExecutorTasks::run),
            new Entry("parallelsum", ParallelSum.class, Cli.DEFAULT_THREADS, ParallelSum.DEFAULT_SIZE, 4000,
                    "elements (a ForkJoinPool of THREADS workers + main)",
                    "a parallel stream sums an array main filled; the JDK forks and joins (issue 28)",
                    ParallelSum::run));

    private Examples() {
    }

    /** Every example, in a fixed order. */
    public static List<Entry> all() {
        return ALL;
    }

    /** The example called {@code name}. */
    public static Entry byName(String name) {
        for (Entry e : ALL) {
            if (e.name().equals(name)) {
                return e;
            }
        }
        throw new UsageException("unknown example '" + name + "'; known: " + names());
    }

    /** The names of all examples, comma-separated. */
    public static String names() {
        StringBuilder sb = new StringBuilder();
        for (Entry e : ALL) {
            sb.append(sb.length() == 0 ? "" : ", ").append(e.name());
        }
        return sb.toString();
    }

    /** Prints one line per example: name, main class, default arguments, size meaning and description. */
    public static void main(String[] args) {
        for (Entry e : ALL) {
            System.out.println(String.format(Locale.ROOT, "%-10s %-45s %-10s size=%s; %s", e.name(),
                    e.mainClass().getName(), String.join(" ", e.defaultArgs()), e.sizeMeaning(), e.description()));
        }
    }
}
