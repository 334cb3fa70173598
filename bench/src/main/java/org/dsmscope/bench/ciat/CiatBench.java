package org.dsmscope.bench.ciat;

import java.util.concurrent.TimeUnit;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.age.AccessAge;
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
 * CIAT's full analysis (mix, communication, exact per-thread access age at byte granularity, memory usage) driven
 * directly with generated access streams of about 4 M accesses; the score is accesses per second (each
 * invocation analyses the whole stream into fresh state). Workloads: {@code shared16} and {@code shared16Uniform}
 * (16 threads, 30% shared; see {@link AccessStream#shared}) and {@code matmul4} (4 threads, 128 × 128 doubles).
 * Run: {@code java -jar bench/target/benchmarks.jar CiatBench -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgs = {"-Xmx6g"})
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
public class CiatBench {
    /** Accesses per invocation of the shared16 workload. */
    public static final int ACCESSES = 4_000_000;
    /** Matrix order of the matmul workload (4 threads): 128 rows × 128 × 257 accesses = 4,210,688. */
    public static final int MATMUL_N = 128;
    /** Accesses of the matmul workload. */
    public static final int MATMUL_ACCESSES = MATMUL_N * MATMUL_N * (2 * MATMUL_N + 1);

    /** Access-age mode: exact (rate 1) or sampled. */
    @Param({"1"})
    public double sample;

    private StreamDriver shared16;
    private StreamDriver shared16Uniform;
    private StreamDriver matmul4;

    /** Generates the streams once. */
    @Setup(Level.Trial)
    public void setUp() {
        shared16 = new StreamDriver(AccessStream.shared(16, ACCESSES, 0.30, 16, 42));
        shared16Uniform = new StreamDriver(AccessStream.shared(16, ACCESSES, 0.30, 1, 42));
        matmul4 = new StreamDriver(AccessStream.matMul(4, MATMUL_N));
    }

    private CiatOptions options() {
        CiatOptions o = new CiatOptions();
        o.ageScope = AccessAge.Scope.THREAD;
        o.ageGranularity = 1;
        o.sampleRate = sample;
        return o;
    }

    /** 16 threads, 30% shared accesses, shared words read in runs of 16 on average. */
    @Benchmark
    @OperationsPerInvocation(ACCESSES)
    public Object shared16() {
        return shared16.run(options()).result();
    }

    /** 16 threads, 30% shared accesses, every shared access a uniformly random word of 4 MiB (cache-hostile). */
    @Benchmark
    @OperationsPerInvocation(ACCESSES)
    public Object shared16Uniform() {
        return shared16Uniform.run(options()).result();
    }

    /** 4-thread matrix multiply. */
    @Benchmark
    @OperationsPerInvocation(MATMUL_ACCESSES)
    public Object matmul4() {
        return matmul4.run(options()).result();
    }
}
