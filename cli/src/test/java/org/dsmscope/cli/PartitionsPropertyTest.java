package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.cdat.config.CacheGeometry;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.cdat.config.PagePolicy;
import org.dsmscope.cdat.config.Replacement;
import org.dsmscope.cdat.config.ThreadMap;
import org.dsmscope.cli.CiatCommandTest.Run;

/**
 * SPEC §4 "Partitioning", end to end (issue 27 "Tests"): random trace sets written as SMAIT files
 * ({@link RandomTraces}: threads with spawn and join, locks, barriers, markers, page-crossing accesses, accesses to
 * the same bytes at equal clocks and synchronization variables; {@code -i} process traces with semop and file I/O)
 * analysed by {@code dsmscope ciat} and {@code dsmscope cdat} serially and with {@code --partitions 2, 3, 7, 16}
 * give the same bytes: CIAT's report, memory file, event trace, JSON and standard output; CDAT's reports, JSON,
 * traffic traces and standard output for every protocol variant, every page policy, with and without an
 * interconnect cache, and no hidden part left behind. Only the public entry point is used (picocli, in-process), so
 * the properties hold whatever the partitioned replay does inside; CIAT's {@code -i} runs also say (with {@code
 * --progress}) that they were routed, each trace file read once.
 */
class PartitionsPropertyTest {
    private static final String[] PARTS = {"2", "3", "7", "16"};
    private static final String[] CIAT_OUTPUTS = {".ciat_report", ".memory", ".ciat_events"};
    /** The {@code --progress} line's end for partitions that run routed. */
    private static final String ROUTED = "routed (each trace file read once)";

    @Property(tries = 8)
    void ciat_threadTraces_partitionedRunsWriteTheSerialRunsBytes(@ForAll @IntRange(min = 1, max = 8) int threads,
            @ForAll @IntRange(min = 1, max = 4) int chunks, @ForAll @IntRange(min = 10, max = 200) int accesses,
            @ForAll long seed, @ForAll boolean globalAge, @ForAll boolean lineGranularity, @ForAll boolean hpux,
            @ForAll boolean sampled) throws IOException {
        inTempDir(dir -> {
            String base = RandomTraces.threads(dir, "t", threads, chunks, accesses, seed);
            List<String> args = ciatArgs(dir, globalAge, lineGranularity);
            if (hpux) {
                args.add("-HPUX");
            }
            if (sampled) {
                args.addAll(List.of("--sample", "0.5"));
            }
            args.add(base);
            // the threads have procedure and branch records: they go whole to every partition, routed
            ciatSameBytes(dir, base, args, true);
        });
    }

    @Property(tries = 6)
    void ciat_processTraces_partitionedRunsWriteTheSerialRunsBytes(
            @ForAll @IntRange(min = 1, max = 5) int processes, @ForAll("scheduler") List<String> scheduler,
            @ForAll long seed, @ForAll boolean globalAge, @ForAll boolean lineGranularity) throws IOException {
        inTempDir(dir -> {
            String base = RandomTraces.processes(dir, "s", processes, seed);
            List<String> args = ciatArgs(dir, globalAge, lineGranularity);
            args.addAll(scheduler);
            args.add(base);
            ciatSameBytes(dir, base, args, true);
        });
    }

    @Property(tries = 3)
    void cdat_threadTraces_everyProtocolPolicyAndInterconnectCache_partitionedRunsWriteTheSerialRunsBytes(
            @ForAll @IntRange(min = 1, max = 8) int threads, @ForAll @IntRange(min = 1, max = 3) int chunks,
            @ForAll @IntRange(min = 10, max = 200) int accesses, @ForAll long seed, @ForAll boolean hpux)
            throws IOException {
        inTempDir(dir -> {
            // a third with branch records, a third with fetch records in every other thread: those threads go
            // whole to every partition, still routed
            int code = new SplittableRandom(seed).nextInt(3);
            String base = RandomTraces.threads(dir, "t", threads, chunks, accesses, seed, code == 1, code == 2);
            cdatEveryVariant(dir, base, hpux ? List.of("-HPUX") : List.of(), new SplittableRandom(seed), ROUTED);
        });
    }

    @Property(tries = 3)
    void cdat_processTraces_everyProtocolPolicyAndInterconnectCache_partitionedRunsWriteTheSerialRunsBytes(
            @ForAll @IntRange(min = 1, max = 5) int processes, @ForAll("scheduler") List<String> scheduler,
            @ForAll long seed) throws IOException {
        inTempDir(dir -> {
            String base = RandomTraces.processes(dir, "s", processes, seed);
            cdatEveryVariant(dir, base, scheduler, new SplittableRandom(seed), ROUTED);
        });
    }

    /**
     * Thread traces in which a marker of one thread stops all threads (command 3) and a later one resumes them (4)
     * while the others are inside their runs of accesses of 0 to 16 bytes: CIAT and every CDAT variant route (a
     * partition's gaps are of one access size, so its engine drops the stopped piece of a gap with its bytes) and
     * write the serial run's bytes.
     */
    @Property(tries = 3)
    void stopAllMarkers_threadTraces_partitionedRunsRouteAndWriteTheSerialRunsBytes(
            @ForAll @IntRange(min = 2, max = 8) int threads, @ForAll @IntRange(min = 2, max = 4) int chunks,
            @ForAll @IntRange(min = 10, max = 200) int accesses, @ForAll long seed, @ForAll boolean branches)
            throws IOException {
        inTempDir(dir -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            String base = RandomTraces.threads(dir, "t", threads, chunks, accesses, seed, branches, false, true);
            List<String> args = ciatArgs(dir, rnd.nextBoolean(), rnd.nextBoolean());
            args.add(base);
            ciatSameBytes(dir, base, args, true);
            cdatEveryVariant(dir, base, List.of(), rnd, ROUTED);
        });
    }

    /**
     * Damaged thread traces (bad records in them, some files cut short) with procedure and branch or fetch records,
     * analysed with {@code --skip-bad-records}: CIAT and every CDAT variant, routed, write the serial run's bytes
     * (the problems and their positions in the trace files included).
     */
    @Property(tries = 3)
    void damagedTraces_skippingBadRecords_partitionedRunsRouteAndWriteTheSerialRunsBytes(
            @ForAll @IntRange(min = 1, max = 8) int threads, @ForAll @IntRange(min = 1, max = 3) int chunks,
            @ForAll @IntRange(min = 10, max = 200) int accesses, @ForAll long seed) throws IOException {
        inTempDir(dir -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            boolean fetches = rnd.nextBoolean();
            String base = RandomTraces.threads(dir, "t", threads, chunks, accesses, seed, !fetches, fetches);
            damage(dir, rnd);
            List<String> args = ciatArgs(dir, rnd.nextBoolean(), false);
            args.add("--skip-bad-records");
            args.add(base);
            ciatSameBytes(dir, base, args, true);
            cdatEveryVariant(dir, base, List.of("--skip-bad-records"), rnd, ROUTED);
        });
    }

    /**
     * Damages the trace files in {@code dir}: in most of them 1 to 4 words after the header replaced by an unknown
     * record tag or call type (the reader skips them, and a call record's parts after one), some cut short.
     */
    private static void damage(Path dir, SplittableRandom rnd) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(f -> f.getFileName().toString().matches(".*\\.\\d+\\.\\d+")).sorted().toList();
        }
        for (Path f : files) {
            long words = Files.size(f) / 8;
            if (words < 4 || rnd.nextInt(4) == 0) {
                continue;
            }
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(f,
                    java.nio.file.StandardOpenOption.WRITE)) {
                for (int i = 0, n = 1 + rnd.nextInt(4); i < n; i++) {
                    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8).putLong(rnd.nextBoolean()
                            ? 0x00001FF0_00000000L : 0x20000000_12345678L).flip();
                    ch.write(b, 8 * (1 + rnd.nextLong(words - 1)));
                }
                if (rnd.nextInt(4) == 0) {
                    ch.truncate(8 * (words / 2) + rnd.nextInt(8));
                }
            }
        }
    }

    /**
     * The slice scheduler's options: {@code -i p} (1 to 4 processors), {@code -s} (10 to 300 instructions), and
     * maybe {@code -k}, {@code -rr_interleaving}, {@code -a} and {@code -handle_io} with a short disk latency.
     */
    @Provide
    Arbitrary<List<String>> scheduler() {
        Arbitrary<Boolean> flag = Arbitraries.of(false, true);
        return Combinators.combine(Arbitraries.integers().between(1, 4), Arbitraries.integers().between(10, 300),
                flag, flag, flag, flag).as((p, slice, keep, rr, affinity, handleIo) -> {
                    List<String> args = new ArrayList<>(List.of("-i", p.toString(), "-s", slice.toString()));
                    if (keep) {
                        args.add("-k");
                    }
                    if (rr) {
                        args.add("-rr_interleaving");
                    }
                    if (affinity) {
                        args.add("-a");
                    }
                    if (handleIo) {
                        args.addAll(List.of("-handle_io", "-disk_latency", "0.05", "-mhz", "1", "-ipc", "1"));
                    }
                    return args;
                });
    }

    /** A body run in a fresh temporary folder. */
    private interface InDir {
        void run(Path dir) throws IOException;
    }

    /** Runs {@code body} in a fresh temporary folder, deleted afterwards. */
    private static void inTempDir(InDir body) throws IOException {
        Path dir = Files.createTempDirectory("partprop");
        try {
            body.run(dir);
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The CIAT options of every run: the event trace, JSON, and the access-age variants asked for. */
    private static List<String> ciatArgs(Path dir, boolean globalAge, boolean lineGranularity) {
        List<String> args = new ArrayList<>(List.of("-ciat_events", "--json", dir.resolve("ciat.json").toString()));
        if (globalAge) {
            args.addAll(List.of("--age-scope", "global"));
        }
        if (lineGranularity) {
            args.addAll(List.of("--age-granularity", "64"));
        }
        return args;
    }

    /**
     * {@code dsmscope ciat ARGS} serially, then in 2, 3, 7 and 16 partitions: the same outputs, byte for byte; if
     * {@code routed}, each partitioned run routed (each trace file read once, as its {@code --progress} says).
     */
    private static void ciatSameBytes(Path dir, String base, List<String> args, boolean routed) throws IOException {
        Map<String, String> want = ciat(dir, base, args, "1", false);
        assertTrue(want.get(".ciat_report").startsWith("# dsmscope-ciat-report 1\n"));
        for (String n : PARTS) {
            sameOutputs(want, ciat(dir, base, args, n, routed), "--partitions " + n + " " + args);
        }
    }

    /**
     * One CIAT run in {@code parts} partitions: its outputs and standard output by name; {@code routed}: the run
     * says (with {@code --progress}, on standard error) that it routed.
     */
    private static Map<String, String> ciat(Path dir, String base, List<String> args, String parts, boolean routed)
            throws IOException {
        List<String> a = new ArrayList<>(List.of("ciat", "--partitions", parts));
        if (routed) {
            a.add("--progress");
        }
        a.addAll(args);
        Run r = CiatCommandTest.run(a.toArray(new String[0]));
        assertEquals(0, r.status(), "--partitions " + parts + " " + args + ": " + r.err());
        if (routed) {
            assertTrue(r.err().contains(parts + " partitions, routed (each trace file read once)"),
                    "--partitions " + parts + " " + args + ": " + r.err());
        }
        Map<String, String> out = new TreeMap<>();
        for (String ext : CIAT_OUTPUTS) {
            out.put(ext, Files.readString(Path.of(base + ext)));
        }
        out.put("json", Files.readString(dir.resolve("ciat.json")));
        out.put("stdout", r.out());
        return out;
    }

    /**
     * CDAT on {@code base} (its memory usage file from a serial CIAT run, for RR2 and Oracle): one run with a
     * configuration per protocol variant (eight), their page policies dealt so that each policy comes twice, half of
     * them with an interconnect cache (which ones, and the other items, random; some writing traffic traces), and
     * one run of a random configuration with {@code --json} and the coherence checker; each serially and in 2, 3, 7
     * and 16 partitions, with the same outputs; the partitions run as {@code mode} says (the {@code --progress}
     * line's end).
     */
    private static void cdatEveryVariant(Path dir, String base, List<String> args, SplittableRandom rnd,
            String mode) throws IOException {
        List<String> c = new ArrayList<>(List.of("ciat"));
        c.addAll(args);
        c.add(base);
        Run ciat = CiatCommandTest.run(c.toArray(new String[0]));
        assertEquals(0, ciat.status(), ciat.err());
        PagePolicy[] policies = PagePolicy.values();
        int policy = rnd.nextInt(policies.length);
        int ic = rnd.nextInt(2);
        List<String> all = new ArrayList<>(args);
        for (int protocol = 1; protocol <= 8; protocol++) {
            CdatConfig cfg = config(rnd, "p" + protocol, protocol, policies[(protocol + policy) % policies.length],
                    (protocol + ic) % 2 == 0, rnd.nextInt(4) == 0, 16);
            all.addAll(List.of("--config", write(dir, cfg).toString()));
        }
        all.add(base);
        cdatSameBytes(dir, all, mode, true);
        CdatConfig one = config(rnd, "one", 1 + rnd.nextInt(8), policies[rnd.nextInt(policies.length)],
                rnd.nextBoolean(), true, rnd.nextInt(4) == 0 ? 1 : 16);
        List<String> single = new ArrayList<>(args);
        single.addAll(List.of("--check", "--json", dir.resolve("cdat.json").toString(), base,
                write(dir, one).toString()));
        cdatSameBytes(dir, single, mode, false);
    }

    /**
     * {@code dsmscope cdat ARGS} serially, then in 2, 3, 7 and 16 partitions: the same outputs, byte for byte; the
     * partitions ran as {@code mode} says ({@code partitioned}: every configuration has sets for 16 partitions, so
     * none runs serially).
     */
    private static void cdatSameBytes(Path dir, List<String> args, String mode, boolean partitioned)
            throws IOException {
        Map<String, String> want = cdat(dir, args, "1");
        assertTrue(want.keySet().stream().anyMatch(k -> k.endsWith(".cdat_report")), want.keySet().toString());
        for (String n : PARTS) {
            Map<String, String> got = cdat(dir, args, n);
            String line = got.remove("progress");
            if (partitioned || line != null) {
                assertEquals("cdat: " + n + " partitions, " + mode, line, "--partitions " + n + " " + args);
            }
            sameOutputs(want, got, "--partitions " + n + " " + args);
        }
    }

    /** The same outputs, each the same bytes (a failure names the first output that differs). */
    private static void sameOutputs(Map<String, String> want, Map<String, String> got, String run) {
        assertEquals(want.keySet(), got.keySet(), run + ": outputs");
        for (String k : want.keySet()) {
            assertEquals(want.get(k), got.get(k), run + ": " + k);
        }
    }

    /**
     * One CDAT run: every CDAT output in {@code dir} (reports, traffic traces, JSON, any hidden part) by name, its
     * standard output, and ({@code progress}) the {@code --progress} line saying how the partitions ran, if any.
     */
    private static Map<String, String> cdat(Path dir, List<String> args, String parts) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(f -> f.getFileName().toString().contains("cdat")).toList()) {
                Files.delete(p);
            }
        }
        List<String> a = new ArrayList<>(List.of("cdat", "--progress", "--partitions", parts));
        a.addAll(args);
        Run r = CiatCommandTest.run(a.toArray(new String[0]));
        assertEquals(0, r.status(), "--partitions " + parts + ": " + r.err());
        Map<String, String> out = new TreeMap<>();
        r.err().lines().filter(l -> l.startsWith("cdat: " + parts + " partitions, ")).findFirst()
                .ifPresent(l -> out.put("progress", l));
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(f -> f.getFileName().toString().contains("cdat")).toList()) {
                out.put(p.getFileName().toString(), Files.readString(p, java.nio.charset.StandardCharsets.ISO_8859_1));
            }
        }
        out.put("stdout", r.out());
        return out;
    }

    /**
     * A small machine with the given protocol, page policy and interconnect cache; caches of at least {@code
     * minSets} sets (16: every partition count up to 16 gets lines; 1: sometimes a fully associative one).
     */
    private static CdatConfig config(SplittableRandom rnd, String name, int protocol, PagePolicy policy, boolean ic,
            boolean traffic, int minSets) {
        int line = 16 << rnd.nextInt(3);
        int page = Math.max(line, 256 << rnd.nextInt(5));
        Replacement[] repl = Replacement.values();
        return CdatConfig.builder().name(name).nodes(1 + rnd.nextInt(4)).processorsPerNode(1 + rnd.nextInt(3))
                .banksPerNode(1 + rnd.nextInt(4)).lineSize(line).pageSize(page).protocol(protocol).pagePolicy(policy)
                .threadMap(rnd.nextBoolean() ? ThreadMap.FILL : ThreadMap.SPREAD)
                .dataCache(cache(rnd, line, repl, minSets)).instructionCache(cache(rnd, line, repl, 16))
                .interconnectCache(ic ? cache(rnd, line, repl, 16) : null)
                .generalTrace(traffic && rnd.nextBoolean()).detailedTrace(traffic).build();
    }

    private static CacheGeometry cache(SplittableRandom rnd, int line, Replacement[] repl, int minSets) {
        int sets = minSets < 16 && rnd.nextBoolean() ? minSets : 16 << rnd.nextInt(3);
        int ways = 1 + rnd.nextInt(3);
        return new CacheGeometry((long) sets * ways * line, line, ways, repl[rnd.nextInt(repl.length)]);
    }

    private static Path write(Path dir, CdatConfig c) throws IOException {
        Path f = dir.resolve(c.name + ".cfg");
        Files.writeString(f, c.toText());
        return f;
    }
}
