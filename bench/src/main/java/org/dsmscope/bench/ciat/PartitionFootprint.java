package org.dsmscope.bench.ciat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dsmscope.cdat.Cdat;
import org.dsmscope.cdat.CdatOptions;
import org.dsmscope.cdat.config.CacheGeometry;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.cdat.config.PagePolicy;
import org.dsmscope.cdat.config.Replacement;
import org.dsmscope.cdat.config.ThreadMap;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.PartitionPlan;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.trace.TraceSet;
import org.openjdk.jol.info.GraphLayout;

/**
 * Per-partition memory of a partitioned CIAT run (issue 27 "Speed": a partition holds only its share of the state;
 * SPEC §4 "Partitioning", ciat/README.md "Parallel analysis"). On a {@link ForkJoinGen} trace set (16 threads by
 * default), for N = 1, 2, 4, 8, 16 partitions ({@code Replay.runInPartitions}, as {@code dsmscope ciat --partitions
 * N} runs trace files) it measures with JOL the retained heap of each partition's CIAT after the run, everything the
 * {@link Ciat} reaches except its replay context: the page state (communication and memory usage, which share the
 * location table), the access-age state, and the rest (phase results, per-thread counters, spin detection). It
 * divides the page state by the byte locations touched on the partition's pages and the access-age state by the
 * (thread, byte) pairs of the partition's threads (both counted exactly by a separate serial pass, the plan taken
 * from the prescan's work profile as every partition takes it), and prints per partition the bytes per touched
 * location, the ratio of its page state per touched page and of its access-age state per pair to the
 * serial run's (above 1.5: the partition holds more than its share) and the rest. Then the same for CDAT on a
 * 16-processor machine with interconnect caches: each partition's caches against 1/N of the serial run's, and the
 * rest (directory, placement) per touched line of its sets. Usage: {@code java -cp bench/target/benchmarks.jar
 * org.dsmscope.bench.ciat.PartitionFootprint [TRACE_PREFIX | THREADS INSTRUCTIONS] [N,N,…]}; without a prefix it
 * writes {@code dsmscope gen forkjoin --threads 16 --instructions 100000 --shared 0.3} into a temporary folder.
 */
public final class PartitionFootprint {
    private PartitionFootprint() {
    }

    /** Prints one line per partition and a summary per N. */
    public static void main(String[] a) throws IOException {
        // JOL reads the offsets of record fields (CDAT's configuration) this way only
        System.setProperty("jol.magicFieldOffset", System.getProperty("jol.magicFieldOffset", "true"));
        Path tmp = null;
        TraceSet set;
        int arg = 0;
        if (a.length > 0 && !a[0].matches("\\d+")) {
            set = TraceSet.ofPrefix(a[arg++]);
        } else {
            ForkJoinGen.Params p = new ForkJoinGen.Params();
            p.threads = a.length > 0 ? Integer.parseInt(a[arg++]) : 16;
            p.instructions = a.length > 1 ? Long.parseLong(a[arg++]) : 100_000;
            p.sharedFraction = 0.3;
            tmp = Files.createTempDirectory("partfoot");
            set = ForkJoinGen.write(tmp, "fj", p);
        }
        String[] ns = (a.length > arg ? a[arg] : "1,2,4,8,16").split(",");
        try {
            Touched touched = Touched.count(set);
            System.out.printf(Locale.ROOT, "# trace %s: %d threads, %d data accesses, %d touched byte locations,"
                    + " %d touched (thread, byte) pairs%n", set.base(), touched.threads, touched.accesses,
                    touched.locations(), touched.pairs());
            double serialPage = 0;
            double serialAge = 0;
            for (String n : ns) {
                int parts = Integer.parseInt(n.trim());
                double[] perUnit = measure(set, parts, touched, serialPage, serialAge);
                if (parts == 1) {
                    serialPage = perUnit[0];
                    serialAge = perUnit[1];
                }
            }
            CdatConfig cfg = cdatConfig();
            System.out.printf(Locale.ROOT, "# CDAT: %s%n", cfg.toText().replace("\n", "; "));
            long serialCaches = 0;
            for (String n : ns) {
                int parts = Integer.parseInt(n.trim());
                long caches = measureCdat(set, cfg, parts, touched, serialCaches);
                if (parts == 1) {
                    serialCaches = caches;
                }
            }
        } finally {
            if (tmp != null) {
                try (var s = Files.walk(tmp)) {
                    s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            }
        }
    }

    /**
     * Runs {@code parts} partitions and prints each one's state; returns the page-state bytes per touched page (the
     * page state is allocated by page, so sparse pages cost more per location) and the access-age bytes per touched
     * pair over all partitions.
     */
    private static double[] measure(TraceSet set, int parts, Touched touched, double serialPage, double serialAge) {
        CiatOptions o = new CiatOptions();
        o.writeFiles = false;
        Replay replay = new Replay(set, null, new ReplayOptions());
        List<Ciat> ps = parts == 1 ? List.of(new Ciat(o)) : replay.runInPartitions(parts, k -> new Ciat(o));
        if (parts == 1) {
            replay.add(ps.get(0));
            replay.run();
        }
        PartitionPlan plan = PartitionPlan.of(parts, touched.threads, false,
                parts == 1 ? null : replay.workProfile());
        long pageSum = 0;
        long ageSum = 0;
        long restMax = 0;
        double worst = 0;
        for (int k = 0; k < parts; k++) {
            Ciat c = ps.get(k);
            long page = GraphLayout.parseInstance(c.communication(), c.memoryUsage()).totalSize();
            long age = GraphLayout.parseInstance(c.accessAge()).totalSize();
            long all = GraphLayout.parseInstance(roots(c, Ciat.class)).totalSize();
            long rest = all - page - age;
            long locs = touched.locations(plan, k);
            long pages = touched.pages(plan, k);
            long pairs = touched.pairs(plan, k);
            double bPerLoc = locs == 0 ? 0 : (double) page / locs;
            double bPerPair = pairs == 0 ? 0 : (double) age / pairs;
            double pageShare = serialPage == 0 || pages == 0 ? 1 : (double) page / pages / serialPage;
            double ageShare = serialAge == 0 || pairs == 0 ? 1 : bPerPair / serialAge;
            worst = Math.max(worst, Math.max(pageShare, ageShare));
            pageSum += page;
            ageSum += age;
            restMax = Math.max(restMax, rest);
            System.out.printf(Locale.ROOT, "N=%d partition %d: page state %d B / %d locations on %d pages = %.2f"
                    + " B/location (per page x%.2f of serial); access age %d B / %d pairs = %.2f B/pair (x%.2f);"
                    + " rest %d B; all %.2f B per touched location of its share%s%n", parts, k, page, locs, pages,
                    bPerLoc, pageShare,
                    age, pairs, bPerPair, ageShare, rest, locs + pairs == 0 ? 0 : (double) all / (locs + pairs),
                    pageShare > 1.5 || ageShare > 1.5 ? "  MORE THAN ITS SHARE" : "");
        }
        double page = (double) pageSum / touched.locations();
        double age = (double) ageSum / touched.pairs();
        System.out.printf(Locale.ROOT, "N=%d: all partitions' page state %.2f B/location, access age %.2f B/pair,"
                + " largest rest %d B, largest ratio to serial %.2f%n", parts, page, age, restMax, worst);
        return new double[] {(double) pageSum / touched.pages.size(), age};
    }

    /**
     * The machine CDAT simulates here: 4 nodes of 4 processors (one per thread of the default trace), 256 KiB data
     * caches (1,024 sets), 32 KiB instruction caches (128 sets: the partitions deal 128 set indexes), 512 KiB
     * interconnect caches, 64-byte lines, protocol 1, 1Touch placement.
     */
    private static CdatConfig cdatConfig() {
        return CdatConfig.builder().name("foot").nodes(4).processorsPerNode(4).banksPerNode(4).lineSize(64)
                .pageSize(4096).protocol(1).pagePolicy(PagePolicy.FIRST_TOUCH).threadMap(ThreadMap.SPREAD)
                .dataCache(new CacheGeometry(256 << 10, 64, 4, Replacement.LRU))
                .instructionCache(new CacheGeometry(32 << 10, 64, 4, Replacement.LRU))
                .interconnectCache(new CacheGeometry(512 << 10, 64, 4, Replacement.LRU)).build();
    }

    /**
     * Runs CDAT in {@code parts} partitions and prints per partition the retained heap of its caches (data,
     * instruction and interconnect: fixed by the configuration, the partition's share of them its share of the
     * set indexes) and of the rest (the directory, one entry per touched line of its sets, placement, counters),
     * per touched line of its sets. Returns the caches' bytes over all partitions.
     */
    private static long measureCdat(TraceSet set, CdatConfig cfg, int parts, Touched touched, long serialCaches) {
        CdatOptions o = new CdatOptions();
        o.writeFiles = false;
        Replay replay = new Replay(set, null, new ReplayOptions());
        List<Cdat> ps;
        if (parts == 1) {
            ps = List.of(new Cdat(cfg, o));
            replay.add(ps.get(0));
            replay.run();
        } else {
            ps = replay.runInPartitions(parts, k -> new Cdat(cfg, o));
        }
        int sets = Cdat.partitionSets(cfg);
        long cacheSum = 0;
        double worst = 0;
        for (int k = 0; k < parts; k++) {
            Object machine = field(ps.get(k), "m");
            long caches = GraphLayout.parseInstance(field(machine, "dcache"), field(machine, "icache"),
                    field(machine, "ic")).totalSize();
            long all = GraphLayout.parseInstance(roots(ps.get(k), Cdat.class)).totalSize();
            long lines = touched.lines(cfg.lineSize, sets, parts, k);
            double share = serialCaches == 0 ? 1 : (double) caches / ((double) serialCaches / parts);
            worst = Math.max(worst, share);
            cacheSum += caches;
            System.out.printf(Locale.ROOT, "CDAT N=%d partition %d: caches %d B (x%.2f of 1/N of serial's); rest %d B"
                    + " / %d touched lines = %.1f B/line%s%n", parts, k, caches, share, all - caches, lines,
                    lines == 0 ? 0 : (double) (all - caches) / lines, share > 1.5 ? "  MORE THAN ITS SHARE" : "");
        }
        System.out.printf(Locale.ROOT, "CDAT N=%d: all partitions' caches %d B (x%.2f of serial's), largest ratio to"
                + " 1/N of serial's %.2f%n", parts, cacheSum, serialCaches == 0 ? 1 : (double) cacheSum / serialCaches,
                worst);
        return cacheSum;
    }

    private static Object field(Object o, String name) {
        try {
            Field f = o.getClass().getDeclaredField(name);
            f.setAccessible(true);
            return f.get(o);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Everything an analysis of {@code type} holds but its replay contexts (the replay's, not the analysis's). */
    private static Object[] roots(Object c, Class<?> type) {
        List<Object> r = new ArrayList<>();
        for (Field f : type.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                continue;
            }
            try {
                f.setAccessible(true);
                Object v = f.get(c);
                if (v != null && !(v instanceof ReplayContext)) {
                    r.add(v);
                }
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        return r.toArray();
    }

    /** The byte locations and (thread, byte) pairs a trace set's data accesses touch, per 4 KiB page. */
    private static final class Touched implements Analysis {
        /** Per page: a bitmap of touched bytes (64 words). */
        final Map<Long, long[]> pages = new HashMap<>();
        /** Per thread, per page: a bitmap of the bytes the thread touched. */
        final List<Map<Long, long[]>> threadPages = new ArrayList<>();
        int threads;
        long accesses;

        static Touched count(TraceSet set) {
            Touched t = new Touched();
            new Replay(set, null, new ReplayOptions()).add(t).run();
            return t;
        }

        @Override
        public void begin(ReplayContext c) {
            threads = c.threads();
            for (int t = 0; t < threads; t++) {
                threadPages.add(new HashMap<>());
            }
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            accesses++;
            for (long b = address; b < address + size; b++) {
                long page = b >>> 12;
                int off = (int) (b & 4095);
                pages.computeIfAbsent(page, p -> new long[64])[off >>> 6] |= 1L << off;
                threadPages.get(thread).computeIfAbsent(page, p -> new long[64])[off >>> 6] |= 1L << off;
            }
        }

        private static long bits(long[] m) {
            long n = 0;
            for (long w : m) {
                n += Long.bitCount(w);
            }
            return n;
        }

        long locations() {
            return pages.values().stream().mapToLong(Touched::bits).sum();
        }

        long pairs() {
            return threadPages.stream().flatMap(m -> m.values().stream()).mapToLong(Touched::bits).sum();
        }

        /**
         * Touched lines of {@code lineSize} bytes whose set index (of {@code sets}) partition {@code k} of {@code
         * parts} simulates ({@code Cdat.partitionSets}: set index × parts / sets, contiguous ranges).
         */
        long lines(int lineSize, int sets, int parts, int k) {
            java.util.HashSet<Long> seen = new java.util.HashSet<>();
            for (Map.Entry<Long, long[]> e : pages.entrySet()) {
                long[] m = e.getValue();
                for (int w = 0; w < m.length; w++) {
                    for (long bits = m[w]; bits != 0; bits &= bits - 1) {
                        long b = (e.getKey() << 12) + w * 64L + Long.numberOfTrailingZeros(bits);
                        long ln = b / lineSize;
                        if ((ln & (sets - 1)) * parts / sets == k) {
                            seen.add(ln);
                        }
                    }
                }
            }
            return seen.size();
        }

        /** Touched pages that partition {@code k} keeps. */
        long pages(PartitionPlan plan, int k) {
            return pages.keySet().stream().filter(p -> plan.pageOwner(p) == k).count();
        }

        /** Touched locations on the pages partition {@code k} keeps. */
        long locations(PartitionPlan plan, int k) {
            return pages.entrySet().stream().filter(e -> plan.pageOwner(e.getKey()) == k)
                    .mapToLong(e -> bits(e.getValue())).sum();
        }

        /** Touched (thread, byte) pairs of the threads whose access age partition {@code k} keeps. */
        long pairs(PartitionPlan plan, int k) {
            long n = 0;
            for (int t = 0; t < threads; t++) {
                if (plan.ageOwner(t) == k) {
                    n += threadPages.get(t).values().stream().mapToLong(Touched::bits).sum();
                }
            }
            return n;
        }
    }
}
