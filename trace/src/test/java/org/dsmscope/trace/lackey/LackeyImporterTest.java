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
import org.dsmscope.trace.Codec;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.TraceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lackey import against a plain regex reference, on a real Valgrind 3.19 excerpt and on inline lines. */
class LackeyImporterTest {
    @TempDir
    Path dir;

    private static final Pattern ACCESS = Pattern.compile("^(I | L| S| M) ([0-9a-f]+),([0-9]+)$");
    private static final Pattern SCHED = Pattern.compile("^--\\d+-- +SCHED\\[(\\d+)\\]:  acquired lock.*");

    /** Reference: thread id → records as text, from a regex reading of the whole input. */
    private static TreeMap<Integer, List<String>> reference(List<String> lines, boolean split) {
        TreeMap<Integer, List<String>> m = new TreeMap<>();
        int tid = 1;
        for (String l : lines) {
            Matcher s = SCHED.matcher(l);
            if (s.matches() && split) {
                tid = Integer.parseInt(s.group(1));
                m.computeIfAbsent(tid, k -> new ArrayList<>());
                continue;
            }
            Matcher a = ACCESS.matcher(l);
            if (!a.matches()) {
                continue;
            }
            List<String> out = m.computeIfAbsent(tid, k -> new ArrayList<>());
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
            m.put(1, new ArrayList<>());
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
        assertTrue(ref.get(1).contains("store 8 " + 0x1fff000778L), "64-bit stack address kept");
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
    void withoutThreadSplitting_everythingGoesToOneFile() throws IOException {
        Path in = fixture();
        String name = dir.resolve("one").toString();
        LackeyImporter.Result r = new LackeyImporter(new TraceWriter.Options().codec(Codec.LZ4), false, false)
                .run(in, name);
        assertEquals(List.of(Path.of(name + ".1.0")), r.files);
        assertEquals(reference(Files.readAllLines(in), false).get(1), read(r.files.get(0)));
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
        assertEquals(List.of("load 4 16", "load 4 48"), read(r.files.get(0)));
        assertEquals(List.of("store 4 32"), read(r.files.get(1)));
        assertEquals(List.of("store 4 64", "load 4 96"), read(r.files.get(2)));
        assertEquals(List.of("load 4 80"), read(r.files.get(3)));
    }

    @Test
    void schedulerLinesOnlyForOtherThreads_stillKeepEarlierRecordsOnThread1() throws IOException {
        Path in = dir.resolve("in");
        Files.write(in, List.of(" L 10,4", "--7--   SCHED[2]:  acquired lock (x)", " S 20,4",
                "--7--   SCHED[2]: releasing lock (x) -> VgTs_WaitSys", "--7-- some other message"));
        LackeyImporter.Result r = new LackeyImporter(new TraceWriter.Options(), true, false)
                .run(in, dir.resolve("s").toString());
        assertEquals(2, r.files.size());
        assertEquals(List.of("load 4 16"), read(r.files.get(0)));
        assertEquals(List.of("store 4 32"), read(r.files.get(1)));
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
