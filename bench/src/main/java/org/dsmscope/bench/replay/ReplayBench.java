package org.dsmscope.bench.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.replay.gen.ProcessGen;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.TraceSet;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Replay throughput (replay/README.md): a generated 16-thread fork-join trace (4 M accesses, 30% shared, locks and
 * barriers) replayed with a no-op analysis, beside the plain read of the same records (the bound a replay cannot
 * beat), and a 16-process trace on 4 processors ({@code -i 4}). Time per full replay, prescan included; divide the
 * record count printed at setup by it for records/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
public class ReplayBench {
    private Path dir;
    private TraceSet threads;
    private TraceSet processes;

    /** An analysis that does nothing but keeps its inputs live. */
    public static final class Noop implements Analysis {
        long sink;

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            sink += address;
        }
    }

    /**
     * A per-address analysis standing in for communication tracking: per 8-byte word of its partition, the last
     * writer and a reader bit set, in an open-addressing table (about 40 ns per access on this machine).
     */
    public static final class PerAddress implements Analysis {
        private final long[] keys = new long[1 << 21];
        private final int[] state = new int[1 << 21];
        private org.dsmscope.replay.ReplayContext ctx;
        long events;

        @Override
        public void begin(org.dsmscope.replay.ReplayContext c) {
            ctx = c;
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            if (ctx.partitionOf(address) != ctx.partition()) {
                return;
            }
            long w = (address >>> 3) + 1;
            int mask = keys.length - 1;
            int i = (int) ((w * 0x9E3779B97F4A7C15L) >>> 43) & mask;
            while (keys[i] != 0 && keys[i] != w) {
                i = (i + 1) & mask;
            }
            keys[i] = w;
            int st = state[i];
            int writer = (st & 0xFF) - 1;
            if (store) {
                if ((st >>> 8) != 0 || (writer >= 0 && writer != cpu)) {
                    events++;
                }
                state[i] = cpu + 1;
            } else {
                if (writer >= 0 && writer != cpu && (st & (1 << (8 + (cpu & 15)))) == 0) {
                    events++;
                }
                state[i] = st | (1 << (8 + (cpu & 15)));
            }
        }
    }

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("replaybench");
        threads = forkJoin16(dir);
        ProcessGen.Params q = new ProcessGen.Params();
        q.processes = 16;
        q.slices = 125;
        q.sliceInstructions = 2000;
        processes = ProcessGen.write(dir, "tpc", q);
        System.out.println("\nrecords: fork-join " + read(threads) + ", processes " + read(processes));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        deleteTree(dir);
    }

    /**
     * Writes the benchmarks' generated 16-thread trace {@code dir/fj.16} (`dsmscope gen forkjoin --threads 16
     * --instructions 250000 --shared 0.3`: 4,041,450 accesses, 30% of them to the shared array).
     */
    public static TraceSet forkJoin16(Path dir) {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 16;
        p.instructions = 250_000;
        p.sharedFraction = 0.3;
        return ForkJoinGen.write(dir, "fj", p);
    }

    /** Deletes a directory and everything under it (a benchmark's temporary traces). */
    public static void deleteTree(Path dir) throws IOException {
        try (var s = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(f);
            }
        }
    }

    private static long read(TraceSet set) throws IOException {
        long n = 0;
        for (Path f : set.files()) {
            try (TraceReader r = TraceReader.open(f)) {
                long sum = 0;
                for (int k = r.next(); k != RecordKind.EOF; k = r.next()) {
                    sum += r.address();
                }
                n += r.records() + (sum & 0);
            }
        }
        return n;
    }

    /** Plain sequential read of every record: the baseline. */
    @Benchmark
    public long readOnly16Threads() throws IOException {
        return read(threads);
    }

    /** Full replay (prescan + interleaved replay) of the 16-thread trace with a no-op analysis. */
    @Benchmark
    public long replay16Threads() {
        Noop a = new Noop();
        new Replay(threads, null, new ReplayOptions()).add(a).run();
        return a.sink;
    }

    /** Replay of the 16-thread trace feeding a per-address analysis, one partition (serial). */
    @Benchmark
    public long perAddress1Partition() {
        return Replay.runPartitioned(threads, null, new ReplayOptions(), 1, k -> new PerAddress()).get(0).events;
    }

    /** The same split over 2 partitions on 2 threads (SPEC §4 partitioning); results merge to the serial one. */
    @Benchmark
    public long perAddress2Partitions() {
        long e = 0;
        for (PerAddress a : Replay.runPartitioned(threads, null, new ReplayOptions(), 2, k -> new PerAddress())) {
            e += a.events;
        }
        return e;
    }

    /** Full replay of 16 processes on 4 processors (slice scheduler). */
    @Benchmark
    public long replay16ProcessesOn4() {
        Noop a = new Noop();
        ReplayOptions o = new ReplayOptions();
        o.interleave = 4;
        new Replay(processes, null, o).add(a).run();
        return a.sink;
    }
}
