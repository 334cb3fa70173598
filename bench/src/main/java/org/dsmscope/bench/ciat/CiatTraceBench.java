package org.dsmscope.bench.ciat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.dsmscope.bench.replay.ReplayBench;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.ciat.ParallelCiat;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 4's measurement as a JMH benchmark: the whole of {@code dsmscope ciat} except writing files (prescan,
 * replay and the full CIAT with exact per-thread byte-granularity access age) on the generated 16-thread trace
 * with 30% shared accesses (`dsmscope gen forkjoin --threads 16 --instructions 250000 --shared 0.3`: 4,041,450
 * accesses), serial ({@code partitions = 1}) and on worker threads ({@code 2}). Time per analysis; accesses per
 * second = 4,041,450 / that time (the count is checked at setup). With {@code -prof gc} it shows the allocation
 * per run (state, no per-record allocation). Run: {@code java -jar bench/target/benchmarks.jar CiatTraceBench
 * -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgs = {"-Xmx4g"})
public class CiatTraceBench {
    /** Worker threads: 1 = the serial analysis on the replay thread. */
    @Param({"1", "2"})
    public int partitions;

    private Path dir;
    private TraceSet trace;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("ciattracebench");
        trace = ReplayBench.forkJoin16(dir);
        System.out.println("\naccesses: " + accesses(analyse()));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        ReplayBench.deleteTree(dir);
    }

    private static long accesses(CiatResult r) {
        return r.aggregate.mix.totalLoads(-1) + r.aggregate.mix.totalStores(-1);
    }

    /** One analysis of the trace. */
    @Benchmark
    public CiatResult analyse() {
        CiatOptions o = new CiatOptions();
        o.writeFiles = false;
        Replay r = new Replay(trace, null, new ReplayOptions());
        if (partitions == 1) {
            Ciat c = new Ciat(o);
            r.add(c);
            r.run();
            return c.result();
        }
        try (ParallelCiat c = new ParallelCiat(o, partitions)) {
            r.add(c);
            r.run();
            return c.result();
        }
    }
}
