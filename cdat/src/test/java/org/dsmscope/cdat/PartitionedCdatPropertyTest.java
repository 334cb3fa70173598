package org.dsmscope.cdat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.cdat.config.CacheGeometry;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.cdat.config.PagePolicy;
import org.dsmscope.cdat.config.Replacement;
import org.dsmscope.cdat.config.ThreadMap;
import org.dsmscope.cdat.report.CdatJson;
import org.dsmscope.cdat.report.CdatTextReport;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.replay.gen.ProcessGen;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;

/**
 * SPEC §4 "Partitioning" for CDAT: random trace sets (threads with locks, barriers, branches or none, routed (each
 * trace file read once, {@link CdatRouter}; threads with branches whole) or one replay per partition, and page-crossing
 * accesses of 1 to 16 bytes; or {@code -i} process traces with disk I/O) simulated on random machines (every protocol
 * variant, every page policy, {@code -HPUX}, LRU / FIFO / random replacement, with and without interconnect caches,
 * sometimes two configurations in one replay, general and detailed traffic traces on or off) give the same text
 * report, JSON and traffic traces in 2, 3, 7 and 16 partitions as serially, with the coherence checker on in every
 * partition, and leave no hidden part behind.
 */
class PartitionedCdatPropertyTest {
    private static final long SHARED = 0x10000;
    private static final long PRIVATE = 0x4000_0000L; // inside -HPUX's private range
    private static final long LOCKS = 0x8000;
    private static final long BARRIER = 0x9000;
    private static final long CODE = 0x2000;

    /**
     * {@code routed}: the partitions run routed, and they do; with {@code branches} (procedure, branch and
     * procedure-call records, so fetches) the threads go whole to every partition or, in some tries, are routed by
     * address all the same, every partition reconstructing their instruction streams (replay/README.md "Threads
     * with an instruction stream").
     */
    @Property(tries = 30)
    void threadTraces_partitionedRunsEqualTheSerialRun(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 5) int threads, @ForAll boolean routed, @ForAll boolean branches)
            throws IOException {
        Path dir = Files.createTempDirectory("cdat-part");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            TraceSet set = threadTraces(dir, rnd, threads, branches);
            compare(dir, rnd, set, new ReplayOptions(), threads, routed);
        } finally {
            delete(dir);
        }
    }

    /**
     * Trace files cut into chunks of a few records (replay/README.md "Partitioned replay"), routed on several router
     * threads: each chunk's router starts with no first reference noted, and the partitions still place every page
     * (1Touch, Oracle, {@code -HPUX}) and count every set as the serial run does.
     */
    @Property(tries = 30)
    void threadTraces_routedInChunks_equalTheSerialRun(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 5) int threads, @ForAll boolean processes) throws IOException {
        Path dir = Files.createTempDirectory("cdat-chunks");
        String before = System.getProperty(CHUNK_BYTES);
        String beforeRouters = System.getProperty(Replay.ROUTERS_PROPERTY);
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            System.setProperty(CHUNK_BYTES, Long.toString(8L << rnd.nextInt(10)));
            System.setProperty(Replay.ROUTERS_PROPERTY, Integer.toString(1 + rnd.nextInt(4)));
            if (processes) {
                ProcessGen.Params g = new ProcessGen.Params();
                g.processes = 1 + threads;
                g.slices = 4;
                g.sliceInstructions = 60;
                g.poolBytes = 16 << 10;
                g.seed = seed;
                ReplayOptions o = new ReplayOptions();
                o.interleave = 1 + rnd.nextInt(3);
                compare(dir, rnd, ProcessGen.write(dir, "s", g), o, o.interleave, true);
            } else {
                compare(dir, rnd, threadTraces(dir, rnd, threads, false), new ReplayOptions(), threads, true);
            }
        } finally {
            restore(CHUNK_BYTES, before);
            restore(Replay.ROUTERS_PROPERTY, beforeRouters);
            delete(dir);
        }
    }

    /** The replay's chunk size property ({@code Chunks.BYTES_PROPERTY}). */
    private static final String CHUNK_BYTES = "dsmscope.chunkBytes";

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    @Property(tries = 10)
    void processTraces_partitionedRunsEqualTheSerialRun(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 3) int p, @ForAll boolean handleIo, @ForAll boolean distributedIo)
            throws IOException {
        Path dir = Files.createTempDirectory("cdat-part");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            ProcessGen.Params g = new ProcessGen.Params();
            g.processes = 2 + rnd.nextInt(3);
            g.slices = 4;
            g.sliceInstructions = 60;
            g.poolBytes = 16 << 10;
            g.ioBytes = 512;
            g.readRate = 0.3;
            g.writeRate = 0.3;
            g.seed = seed;
            TraceSet set = ProcessGen.write(dir, "s", g);
            ReplayOptions o = new ReplayOptions();
            o.interleave = p;
            o.handleIo = handleIo;
            o.distributedIo = handleIo && distributedIo;
            o.sliceLength = 25;
            o.mhz = 1;
            o.ipc = 1;
            o.diskLatency = 0.05;
            compare(dir, rnd, set, o, p, rnd.nextBoolean());
        } finally {
            delete(dir);
        }
    }

    /**
     * Serial, then 2, 3, 7 and 16 partitions: the same report and JSON for every configuration; {@code routed}:
     * the partitions run routed ({@link PartitionedCdat#runRouted}), and they do (thread traces with branches too:
     * their partitions fetch the instructions of the accesses they skip, as the serial run does).
     */
    private static void compare(Path dir, SplittableRandom rnd, TraceSet set, ReplayOptions o, int cpus,
            boolean routed) throws IOException {
        List<CdatConfig> cfgs = new ArrayList<>();
        int n = rnd.nextInt(4) == 0 ? 2 : 1;
        for (int i = 0; i < n; i++) {
            cfgs.add(config(rnd, "c" + i));
        }
        o.streamsByAddress = rnd.nextBoolean(); // threads with branch records whole, or by address
        CdatOptions opt = new CdatOptions();
        opt.check = true;
        opt.hpux = rnd.nextBoolean();
        opt.memoryFile = usage(dir, rnd, cpus);
        Replay serial = new Replay(set, null, o);
        List<Cdat> one = new ArrayList<>();
        for (CdatConfig c : cfgs) {
            Cdat s = new Cdat(c, options(opt, c, cfgs.size()));
            one.add(s);
            serial.add(s);
        }
        serial.run();
        assertTrue(one.get(0).result().aggregate.streams[Counters.DATA][Counters.MISS] > 0, "a run that simulates");
        java.util.Map<Path, String> files = outputs(dir);
        for (int parts : new int[] {2, 3, 7, 16}) {
            List<Supplier<Cdat>> make = new ArrayList<>();
            for (CdatConfig c : cfgs) {
                make.add(() -> new Cdat(c, options(opt, c, cfgs.size())));
            }
            Replay replay = new Replay(set, null, o);
            List<Cdat> merged = routed ? PartitionedCdat.runRouted(replay, parts, make, cfgs, opt.hpux)
                    : PartitionedCdat.run(replay, parts, make);
            assertEquals(routed ? Replay.MODE_ROUTED : Replay.MODE_REPLAYS,
                    replay.partitionMode(), "the partitions' mode");
            for (int i = 0; i < cfgs.size(); i++) {
                CdatResult want = one.get(i).result();
                CdatResult got = merged.get(i).result();
                String what = parts + " partitions, " + cfgs.get(i).toText();
                assertEquals(text(want), text(got), what);
                assertEquals(CdatJson.tree(want).toPrettyString(), CdatJson.tree(got).toPrettyString(), what);
                assertEquals(one.get(i).written(), merged.get(i).written(), what);
            }
            assertEquals(files, outputs(dir), parts + " partitions: report and traffic traces");
        }
    }

    private static CdatOptions options(CdatOptions o, CdatConfig c, int configs) {
        CdatOptions r = o.copy();
        r.suffix = configs > 1 ? c.name : null;
        return r;
    }

    /** The CDAT outputs in {@code dir} (reports, traffic traces, any hidden leftover), by name. */
    private static java.util.Map<Path, String> outputs(Path dir) throws IOException {
        java.util.Map<Path, String> m = new java.util.TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(f -> f.getFileName().toString().contains("cdat")).toList()) {
                m.put(p.getFileName(), Files.readString(p));
            }
        }
        return m;
    }

    static String text(CdatResult r) throws IOException {
        StringWriter w = new StringWriter();
        CdatTextReport.write(r, w);
        return w.toString();
    }

    /** A random small machine; caches of 1 to 64 sets (fewer sets than partitions leaves partitions idle). */
    static CdatConfig config(SplittableRandom rnd, String name) {
        int line = 16 << rnd.nextInt(3);
        int page = Math.max(line, 256 << rnd.nextInt(5));
        Replacement[] repl = Replacement.values();
        return CdatConfig.builder().name(name).nodes(1 + rnd.nextInt(4)).processorsPerNode(1 + rnd.nextInt(3))
                .banksPerNode(1 + rnd.nextInt(4)).lineSize(line).pageSize(page).protocol(1 + rnd.nextInt(8))
                .pagePolicy(PagePolicy.values()[rnd.nextInt(PagePolicy.values().length)])
                .threadMap(rnd.nextBoolean() ? ThreadMap.FILL : ThreadMap.SPREAD)
                .dataCache(cache(rnd, line, repl)).instructionCache(cache(rnd, line, repl))
                .interconnectCache(rnd.nextBoolean() ? null : cache(rnd, line, repl))
                .generalTrace(rnd.nextBoolean()).detailedTrace(rnd.nextBoolean()).build();
    }

    private static CacheGeometry cache(SplittableRandom rnd, int line, Replacement[] repl) {
        int sets = rnd.nextInt(8) == 0 ? 1 << rnd.nextInt(3) : 16 << rnd.nextInt(3);
        int ways = 1 + rnd.nextInt(3);
        return new CacheGeometry((long) sets * ways * line, line, ways, repl[rnd.nextInt(repl.length)]);
    }

    /** A memory usage file (RR2, Oracle): the code page, shared pages, and private pages owned by their thread. */
    private static Path usage(Path dir, SplittableRandom rnd, int cpus) throws IOException {
        List<long[]> pages = new ArrayList<>();
        pages.add(new long[] {CODE >>> 12, 64, -1});
        for (long p = SHARED >>> 12; p < (SHARED >>> 12) + 4; p++) {
            pages.add(new long[] {p, 0, rnd.nextInt(3) == 0 ? rnd.nextInt(cpus) : -1});
        }
        for (int t = 0; t < cpus; t++) {
            pages.add(new long[] {(PRIVATE >>> 12) + 16L * t, 0, t});
        }
        pages.sort(Comparator.comparingLong(p -> p[0]));
        Path f = dir.resolve("usage.memory");
        PlacementAndIoTest.writeUsage(f, pages.toArray(new long[0][]));
        return f;
    }

    /**
     * Thread 0 initializes the shared pages, spawns the others; every thread runs chunks of random accesses (sizes
     * 1 to 16, a quarter of the shared ones crossing a 4 KiB page boundary), critical sections and branches between
     * barriers, then joins; thread 0 reads the shared pages at the end.
     */
    static TraceSet threadTraces(Path dir, SplittableRandom rnd, int threads, boolean branches) {
        int barriers = rnd.nextInt(3);
        List<Path> files = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Path f = dir.resolve(TraceSet.fileName("t", threads, t));
            try (TraceWriter w = TraceWriter.create(f, TraceWriter.Options.classic().endRecord(true))) {
                new ThreadWriter(w, t, threads, rnd.split(), branches).run(barriers);
                w.finish();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            files.add(f);
        }
        return TraceSet.of(dir.resolve("t." + threads).toString(), files);
    }

    /** One thread's records. */
    private static final class ThreadWriter {
        private final TraceWriter w;
        private final int t;
        private final int threads;
        private final SplittableRandom rnd;
        private long instr;
        private int inLoop;
        private long pc = CODE;

        private final boolean branches;

        ThreadWriter(TraceWriter w, int t, int threads, SplittableRandom rnd, boolean branches) {
            this.branches = branches;
            this.w = w;
            this.t = t;
            this.threads = threads;
            this.rnd = rnd;
        }

        private void call(int type, long a1, long a2) {
            long s = instr / 20;
            w.call(type, s, s + 1, a1, a2, 0, 0);
        }

        private void mem(boolean store, int size, long addr) {
            w.memory(store ? MemType.STORE : MemType.LOAD, size, size == 16 ? MemType.VECTOR : MemType.FIXED, addr);
            instr++;
            pc += 4;
            if (++inLoop == 8 && branches) {
                long target = CODE + 4L * rnd.nextInt(512);
                if (rnd.nextBoolean()) {
                    w.branch(pc + 8, target);
                } else {
                    w.procCall(pc + 8, target);
                    w.procStart(target);
                }
                instr += 2;
                pc = target;
                inLoop = 0;
            }
        }

        void run(int barriers) {
            if (branches) {
                w.procStart(CODE);
            }
            if (t == 0) {
                for (long a = SHARED; a < SHARED + 4 * 4096; a += 256) {
                    mem(true, 8, a);
                }
                if (threads > 1) {
                    call(CallType.SPAWN, 1, threads - 1);
                }
            }
            for (int c = 0; c <= barriers; c++) {
                int n = 100 + rnd.nextInt(300);
                for (int i = 0; i < n; i++) {
                    access();
                }
                if (c < barriers && threads > 1) {
                    call(CallType.BARRIER, BARRIER, threads);
                }
            }
            if (threads > 1) {
                call(CallType.JOIN, 0, 0);
            }
            if (t == 0) {
                for (long a = SHARED; a < SHARED + 4 * 4096; a += 512) {
                    mem(false, 4, a);
                }
            }
        }

        private void access() {
            if (rnd.nextInt(40) == 0) {
                long lock = LOCKS + 64L * rnd.nextInt(3);
                call(CallType.BEGIN_CRITICAL, lock, 0);
                mem(false, 8, lock + 16);
                mem(true, 8, lock + 16);
                call(CallType.END_CRITICAL, lock, 0);
                return;
            }
            int[] sizes = {1, 2, 4, 8, 16};
            int size = sizes[rnd.nextInt(sizes.length)];
            boolean store = rnd.nextInt(3) == 0;
            long a;
            if (rnd.nextInt(2) == 0) {
                long page = (SHARED >>> 12) + 1 + rnd.nextInt(3);
                a = rnd.nextInt(4) == 0 ? (page << 12) - 1 - rnd.nextInt(12) : (page << 12) + rnd.nextInt(2048);
            } else {
                a = PRIVATE + 0x10000L * t + rnd.nextInt(4096);
            }
            mem(store, size, a);
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
