package org.dsmscope.trace.lackey;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.Codec;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.TraceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lackey import against a plain regex reference, on a real Valgrind 3.19 excerpt and on inline lines: one file per
 * thread, a hand-off pair at every switch, the records of one line together, bad lines named.
 */
class LackeyImporterTest {
    @TempDir
    Path dir;

    private static final Pattern ACCESS = Pattern.compile("^(I | L| S| M) ([0-9a-f]+),([0-9]+)$");
    private static final Pattern SCHED = Pattern.compile("^--\\d+-- +SCHED\\[(\\d+)\\]:  acquired lock.*");

    private static final Pattern EXIT = Pattern.compile("^--\\d+-- +SCHED\\[(\\d+)\\]: release lock in VG_\\(exit_thread\\)");

    /**
     * Reference: per thread instance in the order they first ran (a Valgrind id seen again after its thread exited
     * is a new one) → records as text, from a regex reading of the whole input; with {@code split}, each switch
     * from one instance to another adds "turn_release n" to the one and "turn_acquire n" to the other.
     */
    private static TreeMap<Integer, List<String>> reference(List<String> lines, boolean split) {
        TreeMap<Integer, List<String>> m = new TreeMap<>();
        java.util.Map<Integer, Integer> instance = new java.util.HashMap<>();
        java.util.Set<Integer> exited = new java.util.HashSet<>();
        Integer cur = null;
        long turn = 0;
        for (String l : lines) {
            Matcher x = EXIT.matcher(l);
            if (x.matches() && split) {
                exited.add(Integer.parseInt(x.group(1)));
                continue;
            }
            Matcher s = SCHED.matcher(l);
            if (s.matches() && split) {
                int tid = Integer.parseInt(s.group(1));
                if (!instance.containsKey(tid) || exited.remove(tid)) {
                    instance.put(tid, m.size());
                    m.put(m.size(), new ArrayList<>());
                }
                Integer next = instance.get(tid);
                if (cur != null && !cur.equals(next)) {
                    turn++;
                    m.get(cur).add("turn_release " + turn);
                    m.get(next).add("turn_acquire " + turn);
                }
                cur = next;
                continue;
            }
            Matcher a = ACCESS.matcher(l);
            if (!a.matches()) {
                continue;
            }
            if (cur == null) {
                instance.put(1, m.size());
                m.put(m.size(), new ArrayList<>());
                cur = instance.get(1);
            }
            List<String> out = m.get(cur);
            long addr = Long.parseUnsignedLong(a.group(2), 16);
            String size = a.group(3);
            switch (a.group(1).trim()) {
                case "I": out.add("fetch " + size + " " + addr); break;
                case "L": out.add("load " + size + " " + addr); break;
                case "S": out.add("store " + size + " " + addr); break;
                default: out.add("load " + size + " " + addr); out.add("store " + size + " " + addr); break;
            }
        }
        if (m.isEmpty()) {
            m.put(0, new ArrayList<>());
        }
        return m;
    }

    private static List<String> read(Path f) throws IOException {
        List<String> out = new ArrayList<>();
        try (TraceReader r = TraceReader.open(f)) {
            assertTrue(r.extended() && r.addr64());
            for (int k = r.next(); k != RecordKind.EOF; k = r.next()) {
                if (k == RecordKind.FETCH) {
                    out.add("fetch " + r.size() + " " + r.address());
                } else if (k == RecordKind.CALL) {
                    String what = CallType.name(r.callType()) + " " + CallType.wide(r.arg(1), r.arg(2));
                    out.add(r.callType() == CallType.SYNC_RANGE ? what + " " + r.arg(3) : what);
                } else {
                    assertEquals(RecordKind.MEMORY, k);
                    assertEquals(2, r.regType());
                    out.add((r.isStore() ? "store " : "load ") + r.size() + " " + r.address());
                }
            }
        }
        return out;
    }

    private Path fixture() throws IOException {
        Path f = dir.resolve("pthreads-2.lackey");
        try (InputStream in = getClass().getResourceAsStream("/lackey/pthreads-2.lackey")) {
            Files.copy(in, f);
        }
        return f;
    }

    @Test
    void realValgrindExcerpt_splitsThreadsBySchedulerLines() throws IOException {
        Path in = fixture();
        String name = dir.resolve("pt").toString();
        LackeyImporter.Result r = new LackeyImporter(new TraceWriter.Options(), true, false).run(in, name);
        TreeMap<Integer, List<String>> ref = reference(Files.readAllLines(in, StandardCharsets.UTF_8), true);
        assertEquals(3, r.files.size());
        assertArrayEquals(new int[] {1, 2, 3}, r.valgrindThreads);
        int t = 0;
        long total = 0;
        for (List<String> recs : ref.values()) {
            assertEquals(Path.of(name + ".3." + t), r.files.get(t));
            assertEquals(recs, read(r.files.get(t)));
            total += recs.size();
            t++;
        }
        assertEquals(total, r.records);
        assertTrue(ref.get(0).contains("store 8 " + 0x1fff000778L), "64-bit stack address kept");
        long acquires = ref.values().stream().flatMap(List::stream).filter(x -> x.startsWith("turn_acquire")).count();
        assertTrue(acquires >= 4, "the excerpt switches threads: " + acquires);
    }

    /**
     * Many threads, each with records far apart in the input, and the background writing of a bulk import: each
     * writer after the first {@link org.dsmscope.trace.OpenFiles#FULL_BUFFER_FILES} gets a small buffer, and
     * every record still lands in its thread's file (checked against the reference reading). A child JVM with 96 MiB of direct
     * memory imports 1,000 threads: with about 1 MiB of buffers per writer (as before) it ran out.
     */
    @Test
    void thousandsOfThreads_fitInDirectMemory_andEveryRecordLandsInItsThreadsFile() throws Exception {
        int threads = 1000;
        List<String> lines = new ArrayList<>();
        for (int round = 0; round < 2; round++) {
            for (int t = 1; t <= threads; t++) {
                lines.add("--7--   SCHED[" + t + "]:  acquired lock (LL_UnlockRecord)");
                for (int i = 0; i < 3; i++) {
                    lines.add(String.format(" %s %x,%d", (t + i) % 2 == 0 ? "L" : "S", 0x10000L * t + 8 * i + round,
                            1 << (i % 4)));
                }
            }
        }
        importInChildJvm(dir, lines, threads, "-XX:MaxDirectMemorySize=96m");
    }

    /**
     * More threads than the process may open files (a child JVM under {@code ulimit -n 256}, importing 1,000
     * threads whose records alternate between them): every thread's file is complete and correct, written through
     * a bounded set of open files (before, the import failed at the 250th thread with "Too many open files").
     */
    @Test
    void moreThreadsThanOpenFiles_stillImportsEveryThreadExactly() throws Exception {
        int threads = 1000;
        List<String> lines = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int t = 1; t <= threads; t++) {
                lines.add("--7--   SCHED[" + t + "]:  acquired lock (LL_UnlockRecord)");
                lines.add(String.format(" L %x,4", 0x10000L * t + 4 * round));
            }
        }
        Path sub = Files.createDirectory(dir.resolve("limited"));
        importInChildJvm(sub, lines, threads, "ulimit -n 256");
        try (var files = Files.list(sub)) {
            assertEquals(threads + 1, files.count(), "the input and one file per thread, no temporary file left");
        }
    }

    /**
     * Imports {@code lines} (as {@code many.lackey} in {@code in}) into {@code many} there in a child JVM with
     * {@code -Xmx256m} and {@code limit} ({@code ulimit -n N} for the shell, else a JVM option), then checks every
     * one of the {@code threads} files against the reference reading.
     */
    private static void importInChildJvm(Path in, List<String> lines, int threads, String limit) throws Exception {
        Path input = in.resolve("many.lackey");
        Files.write(input, lines);
        String name = in.resolve("many").toString();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        boolean ulimit = limit.startsWith("ulimit ");
        List<String> cmd = new ArrayList<>(ulimit ? List.of("bash", "-c", limit + " && exec \"$0\" \"$@\"", java)
                : List.of(java, limit));
        cmd.addAll(List.of("-Xmx256m", "-cp", System.getProperty("java.class.path"), ImportMain.class.getName(),
                input.toString(), name));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        TreeMap<Integer, List<String>> ref = reference(lines, true);
        assertEquals(threads, ref.size());
        int t = 0;
        for (List<String> recs : ref.values()) {
            assertEquals(recs, read(Path.of(name + "." + threads + "." + t)), "thread " + (t + 1));
            t++;
        }
    }

    /** The import of {@link #importInChildJvm}: a bulk import with background writing, as the command does. */
    static final class ImportMain {
        public static void main(String[] a) throws IOException {
            new LackeyImporter(new TraceWriter.Options().background(true), true, false).run(Path.of(a[0]), a[1]);
        }
    }

    @Test
    void aLogThatIsOneOfTheOutputFiles_isRefused_andKept() throws IOException {
        byte[] log = Files.readAllBytes(fixture());
        Path in = Files.write(dir.resolve("one.1.0"), log);
        BadInputException e = assertThrows(BadInputException.class,
                () -> new LackeyImporter(new TraceWriter.Options(), false, false).run(in, dir.resolve("one")
                        .toString()));
        assertTrue(e.getMessage().contains("never replaces an input"), e.getMessage());
        assertArrayEquals(log, Files.readAllBytes(in));
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            assertEquals(2, s.count(), "a temporary file left behind"); // the fixture and the log
        }
    }

    @Test
    void withoutThreadSplitting_everythingGoesToOneFile() throws IOException {
        Path in = fixture();
        String name = dir.resolve("one").toString();
        LackeyImporter.Result r = new LackeyImporter(new TraceWriter.Options().codec(Codec.LZ4), false, false)
                .run(in, name);
        assertEquals(List.of(Path.of(name + ".1.0")), r.files);
        assertEquals(reference(Files.readAllLines(in), false).get(0), read(r.files.get(0)));
    }

    @Test
    void modifyLine_isLoadThenStore_andOddSizesUseWideRecords() throws IOException {
        Path in = dir.resolve("in");
        Files.write(in, List.of("==1== Lackey", " M 0422c0a8,4", " L 10,10", "I  401000,15", " S ffffffffffffff00,64"));
        LackeyImporter.Result r = new LackeyImporter(new TraceWriter.Options(), true, false)
                .run(in, dir.resolve("m").toString());
        assertEquals(List.of("load 4 " + 0x0422c0a8L, "store 4 " + 0x0422c0a8L, "load 10 16", "fetch 15 " + 0x401000,
                "store 64 " + 0xffffffffffffff00L), read(r.files.get(0)));
    }

    /**
     * Valgrind gives the id of an exited thread to the next thread created (a program that creates and joins
     * threads one after another): after {@code release lock in VG_(exit_thread)} the id names a new thread, which
     * gets its own file; before, both threads' records went to one file and their communication looked private.
     */
    @Test
    void threadIdReusedAfterExit_startsANewThreadFile() throws IOException {
        Path in = dir.resolve("in");
        Files.write(in, List.of(" L 10,4",
                "--7--   SCHED[2]:  acquired lock (thread_wrapper(starting new thread))", " S 20,4",
                "--7--   SCHED[2]: exiting VG_(scheduler)", "--7--   SCHED[2]: release lock in VG_(exit_thread)",
                "--7--   SCHED[1]:  acquired lock (VG_(client_syscall)[async])", " L 30,4",
                "--7--   SCHED[2]:  acquired lock (thread_wrapper(starting new thread))", " S 40,4",
                "--7--   SCHED[3]:  acquired lock (thread_wrapper(starting new thread))", " L 50,4",
                "--7--   SCHED[2]:  acquired lock (VG_(vg_yield))", " L 60,4"));
        LackeyImporter.Result r = new LackeyImporter(new TraceWriter.Options(), true, false)
                .run(in, dir.resolve("s").toString());
        assertArrayEquals(new int[] {1, 2, 2, 3}, r.valgrindThreads, "files in the order the threads first ran");
        assertEquals(List.of("load 4 16", "turn_release 1", "turn_acquire 2", "load 4 48", "turn_release 3"),
                read(r.files.get(0)));
        assertEquals(List.of("turn_acquire 1", "store 4 32", "turn_release 2"), read(r.files.get(1)));
        assertEquals(List.of("turn_acquire 3", "store 4 64", "turn_release 4", "turn_acquire 5", "load 4 96"),
                read(r.files.get(2)));
        assertEquals(List.of("turn_acquire 4", "load 4 80", "turn_release 5"), read(r.files.get(3)));
        assertEquals(6 + 2 * 5, r.records, "six accesses, five hand-off pairs");
    }

    @Test
    void schedulerLinesOnlyForOtherThreads_stillKeepEarlierRecordsOnThread1() throws IOException {
        Path in = dir.resolve("in");
        Files.write(in, List.of(" L 10,4", "--7--   SCHED[2]:  acquired lock (x)", " S 20,4",
                "--7--   SCHED[2]: releasing lock (x) -> VgTs_WaitSys", "--7-- some other message"));
        LackeyImporter.Result r = new LackeyImporter(new TraceWriter.Options(), true, false)
                .run(in, dir.resolve("s").toString());
        assertEquals(2, r.files.size());
        assertEquals(List.of("load 4 16", "turn_release 1"), read(r.files.get(0)));
        assertEquals(List.of("turn_acquire 1", "store 4 32"), read(r.files.get(1)));
    }

    /**
     * Scheduler lines that name the running thread again (after a system call) are no switch: no hand-off; a switch
     * writes the release into the stopping thread's file after its last record and the acquire into the next one's
     * before its first, with turns numbered 1, 2, ... over the whole set.
     */
    @Test
    void switches_writeOneHandoffPairEach_andReacquiringTheSameThreadWritesNone() throws IOException {
        Path in = dir.resolve("in");
        Files.write(in, List.of("--7--   SCHED[1]:  acquired lock (x)", "I  401000,3", " M 5000,4",
                "--7--   SCHED[1]: releasing lock (VG_(client_syscall)[async]) -> VgTs_WaitSys",
                "--7--   SCHED[1]:  acquired lock (VG_(client_syscall)[async])", " L 6000,8",
                "--7--   SCHED[1]: releasing lock (VG_(vg_yield)) -> VgTs_Yielding",
                "--7--   SCHED[2]:  acquired lock (thread_wrapper(starting new thread))", "I  402000,2", " M 5000,4",
                "--7--   SCHED[1]:  acquired lock (VG_(vg_yield))", " S 6000,8"));
        LackeyImporter imp = new LackeyImporter(new TraceWriter.Options(), true, false);
        LackeyImporter.Result r = imp.run(in, dir.resolve("h").toString());
        assertEquals(List.of("fetch 3 " + 0x401000, "load 4 " + 0x5000, "store 4 " + 0x5000, "load 8 " + 0x6000,
                "turn_release 1", "turn_acquire 2", "store 8 " + 0x6000), read(r.files.get(0)));
        assertEquals(List.of("turn_acquire 1", "fetch 2 " + 0x402000, "load 4 " + 0x5000, "store 4 " + 0x5000,
                "turn_release 2"), read(r.files.get(1)));
        assertEquals(2, imp.handoffs());
        assertEquals(8 + 4, r.records, "eight accesses and fetches, two hand-off pairs");
    }

    /** Named synchronization ranges go at the start of the first file, one sync_range record each. */
    @Test
    void syncRanges_areDeclaredAtTheStartOfTheFirstFile() throws IOException {
        Path in = dir.resolve("in");
        Files.write(in, List.of(" L 10c0a0,4", "--7--   SCHED[2]:  acquired lock (x)", " M 10c0a0,4"));
        LackeyImporter.Result r = new LackeyImporter(new TraceWriter.Options(), true, false)
                .syncRanges(SyncAddresses.parseList("test", "0x10c0a0+40,0x1ffefff000"))
                .run(in, dir.resolve("s").toString());
        assertEquals(List.of("sync_range " + 0x10c0a0 + " 40", "sync_range " + 0x1ffefff000L + " 1",
                "load 4 " + 0x10c0a0, "turn_release 1"), read(r.files.get(0)));
        assertEquals(List.of("turn_acquire 1", "load 4 " + 0x10c0a0, "store 4 " + 0x10c0a0), read(r.files.get(1)));
    }

    @Test
    void syncAddresses_badEntries_areNamed() throws IOException {
        assertEquals("option --sync-addresses: 'x1' is not an address (hex 0x... or decimal, optionally +BYTES)",
                assertThrows(BadInputException.class, () -> SyncAddresses.parseList("option --sync-addresses",
                        "0x10,x1")).getMessage());
        assertEquals("o: '0x10+0': the byte count after '+' must be 1 to 65536",
                assertThrows(BadInputException.class, () -> SyncAddresses.parse("o", "0x10+0")).getMessage());
        assertEquals("o: '0xfffffffffffffff0+17' runs past the end of the 64-bit address space",
                assertThrows(BadInputException.class, () -> SyncAddresses.parse("o", "0xfffffffffffffff0+17"))
                        .getMessage());
        Path f = dir.resolve("sync.txt");
        Files.write(f, List.of("# the mutex and the barrier", "0x10c0a0+40 0x10c080+32  # both", "", "7,zz"));
        BadInputException e = assertThrows(BadInputException.class, () -> SyncAddresses.read(f));
        assertEquals(f + ": line 4: 'zz' is not an address (hex 0x... or decimal, optionally +BYTES)", e.getMessage());
        Files.write(f, List.of("# the mutex and the barrier", "0x10c0a0+40 0x10c080+32  # both", "", "7"));
        List<long[]> l = SyncAddresses.read(f);
        assertEquals(3, l.size());
        assertArrayEquals(new long[] {0x10c080, 32}, l.get(1));
        assertArrayEquals(new long[] {7, 1}, l.get(2));
    }

    /**
     * An access whose bytes run past the end of the 64-bit address space is refused at the import, naming the log's
     * line (before, it was imported and only the analysis refused it, naming a byte offset of the trace); one that
     * ends at the last address is fine; with skipping on it is counted and left out.
     */
    @Test
    void accessPastTheEndOfTheAddressSpace_isRefusedNamingTheLine() throws IOException {
        Path in = dir.resolve("in");
        Files.write(in, List.of(" L 10,4", " S fffffffffffffff8,8", " L ffffffffffffffff,8", " L 20,4"));
        BadInputException e = assertThrows(BadInputException.class,
                () -> new LackeyImporter(new TraceWriter.Options(), true, false).run(in, dir.resolve("x").toString()));
        assertEquals(in + ": line 3: an access of 8 bytes at 0xffffffffffffffff runs past the end of the 64-bit"
                + " address space: ' L ffffffffffffffff,8'", e.getMessage());
        LackeyImporter.Result r = new LackeyImporter(new TraceWriter.Options(), true, true)
                .run(in, dir.resolve("y").toString());
        assertEquals(1, r.skipped);
        assertEquals(List.of("load 4 16", "store 8 " + 0xfffffffffffffff8L, "load 4 32"), read(r.files.get(0)));
    }

    @Test
    void lineThatDoesNotParse_namesFileLineAndWhat_andLeavesNoFiles() throws IOException {
        Path in = dir.resolve("in");
        Files.write(in, List.of("==1== Lackey", " L 10,4", " L 1x0,4", " S 20,4"));
        String name = dir.resolve("bad").toString();
        BadInputException e = assertThrows(BadInputException.class,
                () -> new LackeyImporter(new TraceWriter.Options(), true, false).run(in, name));
        assertEquals(in + ": line 3: bad address (expected hex digits then ',SIZE'): ' L 1x0,4'", e.getMessage());
        try (var s = Files.list(dir)) {
            assertEquals(List.of(in), s.toList());
        }
    }

    @Test
    void programOutputMixedIn_isReportedUnlessSkipped() throws IOException {
        Path in = dir.resolve("in");
        Files.write(in, List.of(" L 10,4", "hello world", " S 20,0", " S 20,4"));
        BadInputException e = assertThrows(BadInputException.class,
                () -> new LackeyImporter(new TraceWriter.Options(), true, false).run(in, dir.resolve("x").toString()));
        assertTrue(e.getMessage().startsWith(in + ": line 2: not a Lackey line"), e.getMessage());
        LackeyImporter.Result r = new LackeyImporter(new TraceWriter.Options(), true, true)
                .run(in, dir.resolve("y").toString());
        assertEquals(2, r.skipped);
        assertEquals(List.of("load 4 16", "store 4 32"), read(r.files.get(0)));
    }

    @Test
    void emptyInput_givesOneThreadWithNoRecords() throws IOException {
        Path in = dir.resolve("in");
        Files.write(in, new byte[0]);
        LackeyImporter.Result r = new LackeyImporter(new TraceWriter.Options(), true, false)
                .run(in, dir.resolve("e").toString());
        assertEquals(1, r.files.size());
        assertEquals(List.of(), read(r.files.get(0)));
    }

    @Test
    void missingInput_isABadInput() {
        BadInputException e = assertThrows(BadInputException.class, () -> new LackeyImporter(
                new TraceWriter.Options(), true, false).run(dir.resolve("nope"), dir.resolve("x").toString()));
        assertEquals(dir.resolve("nope") + ": no such Lackey output file", e.getMessage());
    }
}
