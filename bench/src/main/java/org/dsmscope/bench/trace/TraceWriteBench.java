package org.dsmscope.bench.trace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.dsmscope.trace.Codec;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceWriter;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Writing speed of the SMAIT writer (issue 2: ≥200 M simple records/s): memory-access records from preallocated
 * arrays into a file in the page cache. One operation is one simple record.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class TraceWriteBench {
    static final int N = 8 << 20;

    @Param({"NONE"})
    public String codec;

    private Path dir;
    private Path file;
    private final long[] addr = new long[1 << 16];
    private final int[] type = new int[1 << 16];

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("dsmscope-bench");
        file = dir.resolve("t");
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < addr.length; i++) {
            addr[i] = 0x1000_0000L + 8L * rnd.nextInt(1 << 20);
            type[i] = rnd.nextInt(3) == 0 ? MemType.encode(MemType.STORE, 8, MemType.FLOAT)
                    : MemType.encode(MemType.LOAD, 4, MemType.FIXED);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    /** N memory records, classic format, to a file. */
    @Benchmark
    @OperationsPerInvocation(N)
    public long write() throws IOException {
        try (TraceWriter w = TraceWriter.create(file, TraceWriter.Options.classic().codec(Codec.valueOf(codec)))) {
            int m = addr.length - 1;
            for (int i = 0; i < N; i++) {
                w.memoryType(type[i & m], addr[i & m]);
            }
            return w.bytesWritten();
        }
    }
}
