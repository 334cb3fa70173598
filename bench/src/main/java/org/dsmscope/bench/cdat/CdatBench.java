package org.dsmscope.bench.cdat;

import java.util.concurrent.TimeUnit;
import org.dsmscope.bench.ciat.AccessStream;
import org.dsmscope.bench.ciat.StreamDriver;
import org.dsmscope.cdat.Cdat;
import org.dsmscope.cdat.CdatOptions;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.cdat.config.ThreadMap;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * CDAT's simulation (caches, directory, protocol, counting; no trace files) driven directly with the generated access
 * streams of {@code CiatBench}; the score is accesses per second, each invocation simulating the whole stream on a
 * fresh machine. {@code shared16}: 16 threads, 30% shared, on 4 nodes of 4 processors; {@code matmul4}: the 4-thread
 * 128 × 128 matrix multiply on 4 one-processor nodes. 32 KiB 4-way data caches, 64-byte lines, RR1, protocol
 * {@code variant}. Run: {@code java -jar bench/target/benchmarks.jar CdatBench -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgs = {"-Xmx4g"})
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
public class CdatBench {
    private static final int ACCESSES = 4_000_000;
    private static final int MATMUL_N = 128;
    private static final int MATMUL_ACCESSES = MATMUL_N * MATMUL_N * (2 * MATMUL_N + 1);

    /** Protocol variant (seed 000 Table 2). */
    @Param({"1", "3"})
    public int variant;

    private StreamDriver shared16;
    private StreamDriver matmul4;
    private CdatConfig sixteen;
    private CdatConfig four;

    /** Generates the streams and configurations once. */
    @Setup(Level.Trial)
    public void setUp() {
        shared16 = new StreamDriver(AccessStream.shared(16, ACCESSES, 0.30, 16, 42));
        matmul4 = new StreamDriver(AccessStream.matMul(4, MATMUL_N));
        sixteen = CdatConfig.builder().nodes(4).processorsPerNode(4).protocol(variant).threadMap(ThreadMap.FILL)
                .build();
        four = CdatConfig.builder().nodes(4).processorsPerNode(1).protocol(variant).build();
    }

    private static Object simulate(StreamDriver d, CdatConfig cfg) {
        CdatOptions o = new CdatOptions();
        o.writeFiles = false;
        Cdat c = new Cdat(cfg, o);
        d.run(c);
        return c.result();
    }

    /** 16 threads, 30% shared accesses, on 16 processors in 4 nodes. */
    @Benchmark
    @OperationsPerInvocation(ACCESSES)
    public Object shared16() {
        return simulate(shared16, sixteen);
    }

    /** The 4-thread matrix multiply on 4 nodes. */
    @Benchmark
    @OperationsPerInvocation(MATMUL_ACCESSES)
    public Object matmul4() {
        return simulate(matmul4, four);
    }
}
