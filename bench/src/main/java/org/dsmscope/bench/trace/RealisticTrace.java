package org.dsmscope.bench.trace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.Codec;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.SmaitFormat;
import org.dsmscope.trace.TraceWriter;

/**
 * A deterministic generator of one thread's trace shaped like a level-3 SMAIT trace of seed 000's mat_mul (a
 * 256×256 double matrix multiply taking rows from a shared work queue): per inner iteration two strided array
 * loads, the loop variable's load and store and the taken back branch; per k block the accumulation into c; per
 * column a helper call; per row a critical section on the queue. Exactly {@code n} simple records are written.
 */
public final class RealisticTrace {
    private RealisticTrace() {
    }

    /** Writes exactly {@code n} simple records (plus the header, if the options ask for one) to {@code file}. */
    public static void write(Path file, TraceWriter.Options o, long n, long seed) throws IOException {
        try (TraceWriter w = TraceWriter.create(file, o)) {
            generate(w, n, seed);
        }
    }

    /** The generator proper: exactly {@code n} simple records to {@code w}. */
    public static void generate(TraceWriter w, long n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        final long a = 0x1000_0000L;
        final long b = 0x1080_0000L;
        final long c = 0x1100_0000L;
        final long queue = 0x0F00_0040L;
        final long stack = 0x7FFF_E000L - 0x400 * rnd.nextInt(4);
        final int dim = 256;
        final int block = 64;
        final long loop = 0x4C00;
        long left = n;
        long time = 0;
        int i = 0;
        int j = 0;
        int k = 0;
        while (left > 0) {
            if (left < 16) {
                w.memory(MemType.LOAD, 4, MemType.FIXED, stack);
                left--;
                continue;
            }
            // inner loop body of c[i][j] += a[i][k] * b[k][j]: two array loads, the loop variable, the back branch
            w.memory(MemType.LOAD, 8, MemType.FLOAT, a + ((long) i * dim + k) * 8);
            w.memory(MemType.LOAD, 8, MemType.FLOAT, b + ((long) k * dim + j) * 8);
            w.memory(MemType.LOAD, 4, MemType.FIXED, stack - 8);
            w.memory(MemType.STORE, 4, MemType.FIXED, stack - 8);
            w.branch(loop + 0x28, loop + 0x10);
            left -= 5;
            k++;
            if (k % block != 0) {
                continue;
            }
            // end of a k block: accumulate into c, advance j, now and then call a helper
            w.memory(MemType.LOAD, 8, MemType.FLOAT, c + ((long) i * dim + j) * 8);
            w.memory(MemType.STORE, 8, MemType.FLOAT, c + ((long) i * dim + j) * 8);
            w.branch(loop + 0x40, loop + 0x08);
            left -= 3;
            if (k == dim) {
                k = 0;
                j++;
                w.procCall(loop + 0x4C, 0x5630);
                w.procStart(0x5630);
                w.memory(MemType.LOAD, 4, MemType.FIXED, queue + 4 * rnd.nextInt(4));
                w.memory(MemType.STORE, 4, MemType.FIXED, stack - 0x20);
                left -= 4;
                if (j == dim) {
                    // next row from the shared work queue, inside a critical section
                    j = 0;
                    i = rnd.nextInt(dim);
                    if (left >= 6 + 16) {
                        time += 50 + rnd.nextInt(400);
                        w.call(CallType.BEGIN_CRITICAL, time, time + 1 + rnd.nextInt(3), queue, 0, 0, 0);
                        left -= 6;
                    }
                }
            }
        }
    }

    /**
     * Prints the compression ratio of each codec on a generated trace of {@code args[0]} simple records, and on
     * the trace files named after it: {@code java -cp benchmarks.jar org.dsmscope.bench.trace.RealisticTrace N F…}.
     */
    public static void main(String[] args) throws IOException {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 8_000_000L;
        Path dir = Files.createTempDirectory("dsmscope-ratio");
        try {
            Path raw = dir.resolve("raw");
            write(raw, TraceWriter.Options.classic(), n, 42);
            long rawSize = Files.size(raw);
            System.out.printf("generated trace: %d simple records, %d bytes%n", n, rawSize);
            for (Codec codec : new Codec[] {Codec.LZ4, Codec.ZSTD}) {
                Path f = dir.resolve(codec.name());
                write(f, TraceWriter.Options.classic().codec(codec), n, 42);
                long size = Files.size(f);
                System.out.printf("%-5s %10d bytes  ratio %.2f%n", codec, size, (double) rawSize / size);
                Files.delete(f);
            }
            for (String extra : args.length > 1 ? java.util.Arrays.copyOfRange(args, 1, args.length) : new String[0]) {
                Path in = Path.of(extra);
                long s0 = Files.size(in);
                for (Codec codec : new Codec[] {Codec.LZ4, Codec.ZSTD}) {
                    Path f = dir.resolve("x" + codec);
                    org.dsmscope.trace.TraceConverter.convert(org.dsmscope.trace.TraceSet.of(extra,
                            java.util.List.of(in)), f.toString().substring(0, f.toString().length()),
                            TraceWriter.Options.classic().codec(codec), org.dsmscope.trace.TraceConverter.Variant.SAME,
                            new org.dsmscope.trace.TraceReader.Options());
                    Path out = Path.of(f + ".0");
                    System.out.printf("%s %-5s %10d -> %10d bytes  ratio %.2f%n", in, codec, s0, Files.size(out),
                            (double) s0 / Files.size(out));
                    Files.delete(out);
                }
            }
            Files.delete(raw);
        } finally {
            Files.delete(dir);
        }
    }
}
