package org.dsmscope.bench.trace;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.dsmscope.trace.Codec;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;
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
 * Decoding speed of the SMAIT reader (issue 2: ≥300 M simple records/s uncompressed from the page cache, ≥150 M/s
 * LZ4, ≥80 M/s zstd), beside a plain {@code getLong} loop over the same file through a direct buffer. One operation
 * is one simple record; the score is simple records per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class TraceReadBench {
    /** Simple records in the benchmark trace (64 MB uncompressed). */
    static final int N = 8 << 20;

    @Param({"NONE", "LZ4", "ZSTD"})
    public String codec;

    private Path dir;
    private Path file;
    private final ByteBuffer plain = ByteBuffer.allocateDirect(1 << 20);

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("dsmscope-bench");
        file = dir.resolve("t");
        RealisticTrace.write(file, TraceWriter.Options.classic().codec(Codec.valueOf(codec)), N, 42);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    /** The reader: every record decoded and classified, call records reassembled. */
    @Benchmark
    @OperationsPerInvocation(N)
    public long read() throws IOException {
        long sum = 0;
        try (TraceReader r = TraceReader.open(file)) {
            for (int k = r.next(); k != RecordKind.EOF; k = r.next()) {
                sum += r.address() + k;
            }
        }
        return sum;
    }

    /** The reader's batch form ({@code nextBatch}): runs of memory and branch records as raw words. */
    @Benchmark
    @OperationsPerInvocation(N)
    public long readBatch() throws IOException {
        return TraceSpeed.readBatch(file);
    }

    /** The reader's zero-copy batch form ({@code nextRun}): runs of up to 1024 records in the reader's array. */
    @Benchmark
    @OperationsPerInvocation(N)
    public long readRun() throws IOException {
        return TraceSpeed.readRun(file);
    }

    /** Baseline: a plain loop of getLong over the file's bytes through one direct buffer (NONE only). */
    @Benchmark
    @OperationsPerInvocation(N)
    public long plainGetLongLoop() throws IOException {
        if (!codec.equals("NONE")) {
            return 0;
        }
        long sum = 0;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = plain;
            for (;;) {
                b.clear();
                int n = ch.read(b);
                if (n < 0) {
                    break;
                }
                for (int i = 0; i + 8 <= n; i += 8) {
                    sum += b.getLong(i);
                }
            }
        }
        return sum;
    }
}
