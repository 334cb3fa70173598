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
 * Writing speed of the SMAIT writer (issue 2: ≥200 M simple records/s uncompressed): the records of the realistic
 * generated trace, held in primitive arrays, written through the public API into a file in the page cache, beside a
 * plain loop of {@code putLong} into a direct buffer written to the same file. One operation is one simple record.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class TraceWriteBench {
    /** Records per invocation (all simple: the generator's rare call records are left out of the arrays). */
    static final int N = 8 << 20;

    @Param({"NONE", "LZ4", "ZSTD"})
    public String codec;

    private Path dir;
    private Path file;
    private int[] kind;
    private int[] type;
    private long[] a;
    private long[] b;
    private final ByteBuffer plain = ByteBuffer.allocateDirect(1 << 20);

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("dsmscope-bench");
        file = dir.resolve("t");
        RealisticTrace.write(file, TraceWriter.Options.classic(), N + (N >> 4), 42);
        kind = new int[N];
        type = new int[N];
        a = new long[N];
        b = new long[N];
        int i = 0;
        try (TraceReader r = TraceReader.open(file)) {
            for (int k = r.next(); k != RecordKind.EOF && i < N; k = r.next()) {
                if (k == RecordKind.CALL) {
                    continue;
                }
                kind[i] = k;
                type[i] = k == RecordKind.MEMORY ? r.memType() : 0;
                a[i] = r.address();
                b[i] = r.source();
                i++;
            }
        }
        if (i != N) {
            throw new IllegalStateException("generator gave " + i + " simple records");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    /** N records through the public writer API, classic format, to a file. */
    @Benchmark
    @OperationsPerInvocation(N)
    public long write() throws IOException {
        try (TraceWriter w = TraceWriter.create(file, TraceWriter.Options.classic().codec(Codec.valueOf(codec)))) {
            for (int i = 0; i < N; i++) {
                switch (kind[i]) {
                    case RecordKind.MEMORY: w.memoryType(type[i], a[i]); break;
                    case RecordKind.BRANCH: w.branch(b[i], a[i]); break;
                    case RecordKind.PROC_CALL: w.procCall(b[i], a[i]); break;
                    default: w.procStart(a[i]); break;
                }
            }
            return w.bytesWritten();
        }
    }

    /** Baseline: the same count of 8-byte values put into a direct buffer and written to the file (NONE only). */
    @Benchmark
    @OperationsPerInvocation(N)
    public long plainPutLongLoop() throws IOException {
        if (!codec.equals("NONE")) {
            return 0;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = plain;
            int cap = buf.capacity();
            int p = 0;
            for (int i = 0; i < N; i++) {
                if (p == cap) {
                    buf.clear();
                    while (buf.hasRemaining()) {
                        ch.write(buf);
                    }
                    p = 0;
                }
                buf.putLong(p, ((long) type[i] << 32) | (a[i] & 0xFFFFFFFFL));
                p += 8;
            }
            buf.limit(p).position(0);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            buf.clear();
            return ch.size();
        }
    }
}
