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
 * median round of each and the range. Temporary files go to {@code java.io.tmpdir}. Run: {@code java -cp bench/target/benchmarks.jar org.dsmscope.bench.trace.TraceSpeed}.
 */
public final class TraceSpeed {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    private static long sink;

    private TraceSpeed() {
    }

    /** Runs the rounds and prints M simple records per CPU second. */
    public static void main(String[] args) throws IOException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 12;
        Path dir = Files.createTempDirectory("dsmscope-speed");
        Codec[] codecs = Codec.values();
        Path[] files = new Path[codecs.length];
        int n;
        if (args.length > 1) {
            // a given trace file (for instance a Lackey import) instead of the generated one
            Path given = Path.of(args[1]);
            n = (int) (Files.size(given) / 8);
            for (int c = 0; c < codecs.length; c++) {
                files[c] = dir.resolve("t." + codecs[c]);
                copy(given, files[c], codecs[c], true);
            }
        } else {
            n = TraceReadBench.N;
            for (int c = 0; c < codecs.length; c++) {
                files[c] = dir.resolve("t." + codecs[c]);
                RealisticTrace.write(files[c], TraceWriter.Options.classic().codec(codecs[c]), n, 42);
            }
        }
        Path out = dir.resolve("out");
        String[] names = {"plain getLong loop", "read NONE", "read LZ4", "read ZSTD", "write NONE", "write LZ4",
            "write ZSTD", "plain putLong loop", "write NONE, discard", "plain putLong, discard", "read NONE, batch",
            "read LZ4, batch", "read ZSTD, batch", "read NONE, run", "read LZ4, run", "read ZSTD, run",
            "write NONE, bg (wall)", "write LZ4, bg (wall)", "write ZSTD, bg (wall)", "plain putLong (wall)",
            "memoryType, discard", "memoryType, file", "words, discard"};
        Records recs = new Records(files[0], n);
        double[][] all = new double[names.length][rounds];
        ByteBuffer plain = ByteBuffer.allocateDirect(1 << 20);
        for (int r = 0; r < rounds; r++) {
            measure(all, names, 0, r, n, () -> plainLoop(files[0], plain));
            for (int c = 0; c < codecs.length; c++) {
                Path f = files[c];
                measure(all, names, 1 + c, r, n, () -> read(f));
            }
            for (int c = 0; c < codecs.length; c++) {
                Path src = files[0];
                Codec codec = codecs[c];
                measure(all, names, 4 + c, r, recs.n, () -> recs.write(out, codec, args.length > 1, false));
                // Background writes overlap encoding with compression and I/O on a second core: wall time.
                if (names[16 + c].matches(System.getProperty("only", ".*"))) {
                    all[16 + c][r] = wallRate(recs.n, () -> recs.write(out, codec, args.length > 1, true));
                }
            }
            if (names[19].matches(System.getProperty("only", ".*"))) {
                all[19][r] = wallRate(recs.n, () -> recs.plainWrite(out, plain, false));
            }
            measure(all, names, 7, r, recs.n, () -> recs.plainWrite(out, plain, false));
            measure(all, names, 8, r, recs.n, () -> recs.discardWrite());
            measure(all, names, 9, r, recs.n, () -> recs.plainWrite(out, plain, true));
            measure(all, names, 20, r, recs.n, () -> recs.memoryTypeWrite(null));
            measure(all, names, 21, r, recs.n, () -> recs.memoryTypeWrite(out));
            measure(all, names, 22, r, recs.n, () -> recs.wordsWrite());
            for (int c = 0; c < codecs.length; c++) {
                Path f = files[c];
                measure(all, names, 10 + c, r, n, () -> readBatch(f));
            }
            for (int c = 0; c < codecs.length; c++) {
                Path f = files[c];
                measure(all, names, 13 + c, r, n, () -> readRun(f));
            }
        }
        System.out.println("M simple records per CPU second ('wall': per second of wall time) over " + rounds + " rounds: median (min-max)");
        for (int i = 0; i < names.length; i++) {
            double[] a = all[i];
            java.util.Arrays.sort(a);
            if (a[a.length - 1] == 0) {
                continue;
            }
            System.out.printf("%-24s %7.1f  (%.1f-%.1f)%n", names[i], median(a), a[0], a[a.length - 1]);
        }
        System.out.println("(" + n + " simple records; writes from primitive arrays of " + recs.n
                + " records, calls left out; sink " + (sink & 1) + ")");
        for (Path f : files) {
            Files.delete(f);
        }
        Files.deleteIfExists(out);
        Files.delete(dir);
    }

    /** Runs benchmark {@code i} in round {@code r} unless the system property {@code only} (a regex) excludes it. */
    private static void measure(double[][] all, String[] names, int i, int r, int n, Work w) throws IOException {
        if (names[i].matches(System.getProperty("only", ".*"))) {
            all[i][r] = rate(n, w);
        }
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
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

    private static double wallRate(int n, Work w) throws IOException {
        long t0 = System.nanoTime();
        w.run();
        return n / ((System.nanoTime() - t0) / 1e3);
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

    private static final long[] BATCH = new long[1024];

    /** The reader's batch form: runs of memory and branch records as raw words, the rest through next(). */
    static long readBatch(Path f) throws IOException {
        long sum = 0;
        long[] batch = BATCH;
        try (TraceReader r = TraceReader.open(f)) {
            for (;;) {
                int n = r.nextBatch(batch, 0, batch.length);
                if (n == 0) {
                    int k = r.next();
                    if (k == RecordKind.EOF) {
                        break;
                    }
                    sum += r.address() + k;
                    continue;
                }
                long hi = r.addressHigh();
                for (int i = 0; i < n; i++) {
                    long w = batch[i];
                    sum += (hi | (w & 0xFFFFFFFFL)) + TraceReader.wordKind(w);
                }
            }
        }
        sink += sum;
        return sum;
    }

    /** The reader's zero-copy batch form: runs of up to 1024 memory and branch records in the reader's array. */
    static long readRun(Path f) throws IOException {
        long sum = 0;
        try (TraceReader r = TraceReader.open(f)) {
            for (;;) {
                int n = r.nextRun(1024);
                if (n == 0) {
                    int k = r.next();
                    if (k == RecordKind.EOF) {
                        break;
                    }
                    sum += r.address() + k;
                    continue;
                }
                long hi = r.addressHigh();
                long[] words = r.runWords();
                for (int i = r.runStart(), end = i + n; i < end; i++) {
                    long w = words[i];
                    sum += (hi | (w & 0xFFFFFFFFL)) + TraceReader.wordKind(w);
                }
            }
        }
        sink += sum;
        return sum;
    }

    /**
     * The records of a trace held in primitive arrays, written through the public API or as plain longs. Writes
     * cycle over the first {@link #window}+1 records (16 Ki, cache-resident), as a tracer produces records from
     * registers: the source's own memory traffic is not charged to the writer (it was a third of the time).
     */
    private static final class Records {
        int window;
        final int[] kind;
        final int[] size;
        final long[] a;
        final long[] b;
        int n;

        Records(Path f, int max) throws IOException {
            kind = new int[max];
            size = new int[max];
            a = new long[max];
            b = new long[max];
            try (TraceReader r = TraceReader.open(f)) {
                for (int k = r.next(); k != RecordKind.EOF; k = r.next()) {
                    if (k == RecordKind.CALL) {
                        continue;
                    }
                    kind[n] = k;
                    size[n] = k == RecordKind.MEMORY ? r.memType() : r.size();
                    a[n] = r.address();
                    b[n] = r.source();
                    n++;
                }
            }
            window = Math.min(1 << 14, Integer.highestOneBit(Math.max(1, n))) - 1;
        }

        void write(Path out, Codec codec, boolean addr64, boolean background) throws IOException {
            try (TraceWriter w = TraceWriter.create(out,
                    TraceWriter.Options.classic().codec(codec).addr64(addr64).background(background))) {
                // Compressed writes take every record: a repeated window would compress unrealistically well.
                int m = codec == Codec.NONE ? window : -1;
                for (int i = 0; i < n; i++) {
                    int j = i & m;
                    switch (kind[j]) {
                        case RecordKind.MEMORY: w.memoryType(size[j], a[j]); break;
                        case RecordKind.FETCH: w.fetch(a[j], size[j]); break;
                        case RecordKind.BRANCH: w.branch(b[j], a[j]); break;
                        case RecordKind.PROC_CALL: w.procCall(b[j], a[j]); break;
                        default: w.procStart(a[j]); break;
                    }
                }
            }
        }

        /** The writer's encoding alone: records into a channel that drops the bytes. */
        void discardWrite() throws IOException {
            try (TraceWriter w = new TraceWriter(new Discard(), "discard", TraceWriter.Options.classic())) {
                for (int i = 0; i < n; i++) {
                    int j = i & window;
                    switch (kind[j]) {
                        case RecordKind.MEMORY: w.memoryType(size[j], a[j]); break;
                        case RecordKind.BRANCH: w.branch(b[j], a[j]); break;
                        case RecordKind.PROC_CALL: w.procCall(b[j], a[j]); break;
                        default: w.procStart(a[j]); break;
                    }
                }
            }
        }

        /**
         * The writer's per-record call alone, like for like with {@link #plainWrite}: the same two arrays, one
         * {@code memoryType} per record and no dispatch on the kind (into a dropping channel, or to a file).
         */
        void memoryTypeWrite(Path out) throws IOException {
            try (TraceWriter w = out == null ? new TraceWriter(new Discard(), "discard", TraceWriter.Options.classic())
                    : TraceWriter.create(out, TraceWriter.Options.classic())) {
                for (int i = 0; i < n; i++) {
                    int j = i & window;
                    w.memoryType(size[j], a[j]);
                }
            }
        }

        private long[] words;

        /** The batch form: the same records as words, 1024 per {@code words} call, into a dropping channel. */
        void wordsWrite() throws IOException {
            if (words == null) {
                words = new long[window + 1];
                for (int j = 0; j <= window; j++) {
                    words[j] = ((long) size[j] << 32) | (a[j] & 0xFFFFFFFFL);
                }
            }
            try (TraceWriter w = new TraceWriter(new Discard(), "discard", TraceWriter.Options.classic())) {
                int batch = Math.min(1024, window + 1);
                for (int i = 0; i < n; i += batch) {
                    w.words(words, i & window & ~(batch - 1), Math.min(batch, n - i), 0);
                }
            }
        }

        void plainWrite(Path out, ByteBuffer buf, boolean discard) throws IOException {
            try (java.nio.channels.WritableByteChannel ch = discard ? new Discard() : FileChannel.open(out,
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                int p = 0;
                for (int i = 0; i < n; i++) {
                    int j = i & window;
                    if (p == buf.capacity()) {
                        buf.clear();
                        while (buf.hasRemaining()) {
                            ch.write(buf);
                        }
                        p = 0;
                    }
                    buf.putLong(p, ((long) size[j] << 32) | (a[j] & 0xFFFFFFFFL));
                    p += 8;
                }
                buf.limit(p).position(0);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                buf.clear();
            }
        }
    }

    /** A channel that consumes and drops every byte. */
    private static final class Discard implements java.nio.channels.WritableByteChannel {
        @Override
        public int write(ByteBuffer src) {
            int k = src.remaining();
            sink += src.get(src.limit() - 1);
            src.position(src.limit());
            return k;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    private static void copy(Path src, Path dst, Codec codec, boolean addr64) throws IOException {
        try (TraceReader r = TraceReader.open(src);
                TraceWriter w = TraceWriter.create(dst, TraceWriter.Options.classic().codec(codec).addr64(addr64))) {
            while (r.next() != RecordKind.EOF) {
                w.copy(r);
            }
        }
    }
}
