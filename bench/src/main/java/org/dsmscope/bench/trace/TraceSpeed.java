package org.dsmscope.bench.trace;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.dsmscope.trace.Codec;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.TraceWriter;

/**
 * The trace benchmarks measured in CPU time of the measuring thread, interleaved with their baselines in every
 * round: on a shared machine wall-clock scores (JMH's) move with the other load, CPU time much less. Prints the
 * best round of each. Run: {@code java -cp bench/target/benchmarks.jar org.dsmscope.bench.trace.TraceSpeed}.
 */
public final class TraceSpeed {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    private static long sink;

    private TraceSpeed() {
    }

    /** Runs the rounds and prints M simple records per CPU second. */
    public static void main(String[] args) throws IOException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 12;
        int n = TraceReadBench.N;
        Path dir = Files.createTempDirectory("dsmscope-speed");
        Codec[] codecs = Codec.values();
        Path[] files = new Path[codecs.length];
        for (int c = 0; c < codecs.length; c++) {
            files[c] = dir.resolve("t." + codecs[c]);
            RealisticTrace.write(files[c], TraceWriter.Options.classic().codec(codecs[c]), n, 42);
        }
        Path out = dir.resolve("out");
        String[] names = {"plain getLong loop", "read NONE", "read LZ4", "read ZSTD", "write NONE", "write LZ4",
            "write ZSTD"};
        double[] best = new double[names.length];
        ByteBuffer plain = ByteBuffer.allocateDirect(1 << 20);
        for (int r = 0; r < rounds; r++) {
            best[0] = Math.max(best[0], rate(n, () -> plainLoop(files[0], plain)));
            for (int c = 0; c < codecs.length; c++) {
                Path f = files[c];
                best[1 + c] = Math.max(best[1 + c], rate(n, () -> read(f)));
            }
            for (int c = 0; c < codecs.length; c++) {
                Path src = files[0];
                Codec codec = codecs[c];
                best[4 + c] = Math.max(best[4 + c], rate(n, () -> copy(src, out, codec)));
            }
        }
        for (int i = 0; i < names.length; i++) {
            System.out.printf("%-20s %7.1f M simple records per CPU second%n", names[i], best[i]);
        }
        System.out.println("(write figures include reading the source records; sink " + (sink & 1) + ")");
        for (Path f : files) {
            Files.delete(f);
        }
        Files.deleteIfExists(out);
        Files.delete(dir);
    }

    private interface Work {
        void run() throws IOException;
    }

    private static double rate(int n, Work w) throws IOException {
        long c0 = MX.getCurrentThreadCpuTime();
        w.run();
        long c1 = MX.getCurrentThreadCpuTime();
        return n / ((c1 - c0) / 1e3);
    }

    private static void plainLoop(Path f, ByteBuffer b) throws IOException {
        long sum = 0;
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            for (;;) {
                b.clear();
                int k = ch.read(b);
                if (k < 0) {
                    break;
                }
                for (int i = 0; i + 8 <= k; i += 8) {
                    sum += b.getLong(i);
                }
            }
        }
        sink += sum;
    }

    private static void read(Path f) throws IOException {
        long sum = 0;
        try (TraceReader r = TraceReader.open(f)) {
            for (int k = r.next(); k != RecordKind.EOF; k = r.next()) {
                sum += r.address() + k;
            }
        }
        sink += sum;
    }

    private static void copy(Path src, Path dst, Codec codec) throws IOException {
        try (TraceReader r = TraceReader.open(src);
                TraceWriter w = TraceWriter.create(dst, TraceWriter.Options.classic().codec(codec))) {
            while (r.next() != RecordKind.EOF) {
                w.copy(r);
            }
        }
    }
}
