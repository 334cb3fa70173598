package org.dsmscope.bench.explain;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.dsmscope.bench.ciat.AccessStream;
import org.dsmscope.bench.ciat.StreamDriver;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.age.AccessAge;
import org.dsmscope.explain.CostModel;
import org.dsmscope.explain.DirectContext;
import org.dsmscope.explain.DsmSimulator;
import org.dsmscope.explain.Explainer;
import org.dsmscope.explain.FaultTrace;
import org.dsmscope.explain.Profiles;
import org.dsmscope.explain.Sources;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.trace.CallType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * EXPLAIN's speed (issue 26): the DSM simulation on CIAT's generated 16-thread stream ({@code CiatBench}'s
 * {@code shared16}: 4 M accesses, 30% shared), pages and lines, beside CIAT on the same stream (accesses per
 * second); and the explanation of a fault trace (causes and patterns; and with the profiles) made by the
 * simulation of a synthetic program of 8 processors with locks and barriers (faults per second). Run: {@code java
 * -jar bench/target/benchmarks.jar ExplainBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgs = {"-Xmx4g"})
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
public class ExplainBench {
    private static final int ACCESSES = 4_000_000;
    /** Faults of the synthetic fault trace (about). */
    public static final int FAULTS = 1_000_000;

    private StreamDriver shared16;
    private FaultTrace faults;

    /** Generates the stream and the fault trace once. */
    @Setup(Level.Trial)
    public void setUp() {
        shared16 = new StreamDriver(AccessStream.shared(16, ACCESSES, 0.30, 16, 42));
        faults = synthetic(8, FAULTS, 7);
    }

    /**
     * A fault trace from the page simulation of a random program: 8 processors over 512 pages, reads and writes,
     * a lock acquire / release every 40 accesses, a barrier every 5000; stops at {@code target} faults.
     */
    public static FaultTrace synthetic(int n, int target, long seed) {
        FaultTrace t = new FaultTrace(false, 4096, n);
        DsmSimulator sim = new DsmSimulator(false, 4096, t, null);
        sim.begin(new DirectContext(n));
        SplittableRandom r = new SplittableRandom(seed);
        CallEvent c = new CallEvent();
        for (long clock = 1; t.faults() < target; clock++) {
            int p = r.nextInt(n);
            if (clock % 5000 == 0) {
                c.type = CallType.BARRIER;
                c.arg1 = 0xB00;
                c.arg2 = n;
                for (int u = 0; u < n; u++) {
                    sim.call(u, u, clock, c);
                }
            } else if (clock % 40 == 0) {
                c.type = CallType.BEGIN_CRITICAL;
                c.arg1 = 0x100 + r.nextInt(4);
                sim.call(p, p, clock, c);
                c.type = CallType.END_CRITICAL;
                sim.call(p, p, clock, c);
            } else {
                long page = r.nextInt(4) == 0 ? r.nextInt(512) : p * 64 + r.nextInt(64);
                sim.access(p, p, clock, 0, 8, r.nextInt(3) == 0, page * 4096 + 8 * r.nextInt(512));
            }
        }
        return t;
    }

    /** The page-based LRC simulation, faults kept in memory (no file). */
    @Benchmark
    @OperationsPerInvocation(ACCESSES)
    public Object lrcPages() {
        FaultTrace t = new FaultTrace(false, 4096, 16);
        shared16.run(new DsmSimulator(false, 4096, t, null));
        return t;
    }

    /** The line simulation (64-byte lines, with the byte masks for false sharing). */
    @Benchmark
    @OperationsPerInvocation(ACCESSES)
    public Object lines() {
        FaultTrace t = new FaultTrace(true, 64, 16);
        shared16.run(new DsmSimulator(true, 64, t, null));
        return t;
    }

    /** CIAT on the same stream (exact per-thread access age), side by side. */
    @Benchmark
    @OperationsPerInvocation(ACCESSES)
    public Object ciat() {
        CiatOptions o = new CiatOptions();
        o.ageScope = AccessAge.Scope.THREAD;
        o.ageGranularity = 1;
        return shared16.run(o).result();
    }

    /** Causes, intervals and patterns of every fault. */
    @Benchmark
    @OperationsPerInvocation(FAULTS)
    public Object explain() {
        return new Explainer(faults, CostModel.pages());
    }

    /** Causes and patterns, then the profiles, explanations and merged explanations. */
    @Benchmark
    @OperationsPerInvocation(FAULTS)
    public Object explainWithProfiles() {
        Explainer e = new Explainer(faults, CostModel.pages());
        return new Profiles(e, new Sources(faults, null, null, true), 0.1);
    }
}
