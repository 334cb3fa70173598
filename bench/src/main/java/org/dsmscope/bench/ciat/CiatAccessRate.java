package org.dsmscope.bench.ciat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.dsmscope.bench.replay.ReplayBench;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.trace.TraceSet;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * Issue 27's serial speed as accesses per second: the serial {@code dsmscope ciat} with default options (exact
 * per-thread access age at byte granularity, communication, memory usage, mix; no files written) on a generated
 * fork-join trace ({@code dsmscope gen forkjoin --threads 16 --instructions N --shared 0.3}; N = 250,000 gives
 * 4,041,450 accesses, 1,000,000 gives 16,165,822), and the replay alone ({@code analysis = replay}) so that the
 * replay's share is visible. The {@code accesses} line of the result is accesses per second (JMH's
 * {@link AuxCounters}); per core, since the serial run uses one thread. With {@code -prof gc} it shows the
 * allocation per run. Run: {@code java -jar bench/target/benchmarks.jar CiatAccessRate -prof gc} (add {@code -p
 * instructions=1000000} for the trace).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgs = {"-Xmx4g"})
public class CiatAccessRate {
    /** Memory accesses per thread of the generated trace's parallel phase. */
    @Param({"250000"})
    public long instructions;

    /** {@code ciat}: replay and CIAT; {@code replay}: the replay alone (an analysis that only counts). */
    @Param({"ciat", "replay"})
    public String analysis;

    private Path dir;
    private TraceSet trace;
    private long accessesPerRun;

    /** An analysis that only counts the data accesses (and so keeps the replay's work live). */
    static final class Count implements Analysis {
        long accesses;

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            accesses++;
        }
    }

    /** Accesses analysed (JMH reports them per second). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counts {
        /** Data accesses replayed. */
        public long accesses;
    }

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("ciataccessrate");
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 16;
        p.instructions = instructions;
        p.sharedFraction = 0.3;
        trace = ForkJoinGen.write(dir, "fj", p);
        Count n = new Count();
        new Replay(trace, null, new ReplayOptions()).add(n).run();
        accessesPerRun = n.accesses;
        System.out.println("\naccesses per run: " + accessesPerRun);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        ReplayBench.deleteTree(dir);
    }

    /** One serial analysis (or replay) of the trace. */
    @Benchmark
    public Object analyse(Counts c) {
        Replay r = new Replay(trace, null, new ReplayOptions());
        Object out;
        if (analysis.equals("ciat")) {
            CiatOptions o = new CiatOptions();
            o.writeFiles = false;
            Ciat ciat = new Ciat(o);
            r.add(ciat).run();
            out = ciat.result();
        } else {
            Count n = new Count();
            r.add(n).run();
            out = n;
        }
        c.accesses += accessesPerRun;
        return out;
    }
}
