package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.tracedprog.TwoThreads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End-to-end tests of {@code dsmscope trace}. */
class TraceCommandTest {
    @TempDir
    Path dir;

    private static String testClasses() {
        return Paths.get("target", "test-classes").toAbsolutePath().toString();
    }

    private static String java() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Traces {@code main} (from the test classes) at level 2 into trace set {@code base} in the test folder. */
    private String traceLevel2(String base, Class<?> main) {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String name = dir.resolve(base).toString();
        StringWriter err = new StringWriter();
        int status = run(err, "trace", "--level", "2", "-o", name, "--", java(), "-cp", testClasses(),
                main.getName());
        assertEquals(0, status, err.toString());
        return name;
    }

    private static int run(StringWriter err, String... args) {
        picocli.CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void traceLevel2_runsTheProgram_writesOneReadableFilePerThread_andPassesStatusThrough() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String name = dir.resolve("tt").toString();
        StringWriter err = new StringWriter();
        int status = run(err, "trace", "--level", "2", "-o", name, "--", java(), "-cp", testClasses(),
                TwoThreads.class.getName(), "0");
        assertEquals(0, status, err.toString());
        for (int t = 0; t < 2; t++) {
            int begins = 0;
            int mem = 0;
            int last = -1;
            try (TraceReader r = TraceReader.open(Paths.get(name + ".2." + t))) {
                for (int k = r.next(); k != RecordKind.EOF; k = r.next()) {
                    if (k == RecordKind.CALL) {
                        last = r.callType();
                        begins += r.callType() == CallType.BEGIN_CRITICAL ? 1 : 0;
                    } else if (k == RecordKind.MEMORY) {
                        mem++;
                    }
                }
            }
            assertEquals(1000, begins);
            assertTrue(mem >= 2000, "counter load and store per iteration");
            assertEquals(CallType.END_TRACE, last);
        }
    }

    /**
     * A read lock is recorded in shared mode (argument 2 = 1) and the replay lets readers hold it together: two
     * readers waiting for each other inside it replay without a deadlock (before: "deadlock: no thread can
     * proceed"), and the write lock stays exclusive (argument 2 = 0). Both name one lock (the synchronizer the
     * read and the write lock share), so that a writer waits for the readers of the same lock.
     */
    @Test
    void readLocks_areSharedInTheTraceAndTheReplay() throws Exception {
        String name = traceLevel2("rw", org.dsmscope.tracedprog.ReadersInside.class);
        java.util.Map<Long, Integer> modes = new java.util.TreeMap<>();
        java.util.Set<Long> locks = new java.util.HashSet<>();
        for (int t = 0; t < 3; t++) {
            for (long[] c : calls(name + ".3." + t)) {
                if (c[0] == CallType.BEGIN_CRITICAL || c[0] == CallType.END_CRITICAL) {
                    modes.merge(c[2], 1, Integer::sum);
                    locks.add(c[1]);
                }
            }
        }
        assertEquals(java.util.Map.of(0L, 2, 1L, 4), modes, "the write lock's section and the readers' two");
        assertEquals(1, locks.size(), "read and write sections name one lock: " + locks);
        StringWriter cerr = new StringWriter();
        assertEquals(0, run(cerr, "ciat", name + ".3"), cerr.toString());
    }

    /**
     * A {@code StampedLock}'s sections are recorded and name the lock: read stamps and the read-lock view in shared
     * mode (two readers wait for each other inside, and the replay completes), write stamps, conversions (optimistic
     * to write, read to write to read) and the write-lock view exclusive; optimistic reads hold nothing. Before,
     * none of these was recorded.
     */
    @Test
    void stampedLocks_areRecordedAsSharedAndExclusiveSections() throws Exception {
        String name = traceLevel2("sl", org.dsmscope.tracedprog.StampedInside.class);
        java.util.List<String> main = new java.util.ArrayList<>();
        java.util.Map<Long, Integer> modes = new java.util.TreeMap<>();
        java.util.Set<Long> locks = new java.util.HashSet<>();
        for (int t = 0; t < 5; t++) {
            for (long[] c : calls(name + ".5." + t)) {
                if (c[0] == CallType.BEGIN_CRITICAL || c[0] == CallType.END_CRITICAL) {
                    modes.merge(c[2], 1, Integer::sum);
                    locks.add(c[1]);
                    if (t == 0) {
                        main.add((c[0] == CallType.BEGIN_CRITICAL ? "begin " : "end ") + c[2]);
                    }
                }
            }
        }
        assertEquals(1, locks.size(), "every section names the one lock: " + locks);
        assertEquals(java.util.List.of("begin 0", "end 0", // write stamp
                "begin 0", "end 0", // optimistic read converted to a write
                "begin 1", "end 1", "begin 0", "end 0", "begin 1", "end 1", // read -> write -> read
                "begin 0", "end 0"), main, "main thread's sections"); // write-lock view
        assertEquals(java.util.Map.of(0L, 8, 1L, 12), modes, "4 readers' sections, the main thread's");
        StringWriter cerr = new StringWriter();
        assertEquals(0, run(cerr, "ciat", name + ".5"), cerr.toString());
    }

    /**
     * Locks that outlive their sections replay: a thread that ends holding a {@code ReentrantLock} and a read
     * stamp gets their sections' ends before its thread_end, and a thread inside a lock when the program exits has
     * its end_trace marked (argument 2 = 1), so that {@code ciat} releases the lock at its end. Before, both
     * traces were refused: "thread N ended inside critical section".
     */
    @Test
    void locksHeldAtAThreadsEndOrAtTheExit_replay() throws Exception {
        String name = traceLevel2("lo", org.dsmscope.tracedprog.LocksOutliveThreads.class);
        java.util.List<String> t1 = new java.util.ArrayList<>();
        for (long[] c : calls(name + ".3.1")) {
            if (c[0] != CallType.START_TRACE) {
                t1.add(CallType.name((int) c[0]) + " " + c[2]);
            }
        }
        assertEquals(java.util.List.of("begin_critical 0", "begin_critical 1", "end_critical 0", "end_critical 1",
                "thread_end 0", "end_trace 0"), sortedEnds(t1), "thread 1");
        long cut = -1;
        for (long[] c : calls(name + ".3.2")) {
            if (c[0] == CallType.END_TRACE) {
                cut = c[2];
            }
        }
        assertEquals(1, cut, "thread 2 was cut off by the exit");
        StringWriter cerr = new StringWriter();
        assertEquals(0, run(cerr, "ciat", name + ".3"), cerr.toString());
    }

    /** The call records of a trace file in order: {type, argument 1, argument 2, argument 3} each. */
    private static java.util.List<long[]> calls(String file) throws java.io.IOException {
        java.util.List<long[]> out = new java.util.ArrayList<>();
        try (TraceReader r = TraceReader.open(Paths.get(file))) {
            for (int k = r.next(); k != RecordKind.EOF; k = r.next()) {
                if (k == RecordKind.CALL) {
                    out.add(new long[] {r.callType(), r.arg(1), r.arg(2), r.arg(3)});
                }
            }
        }
        return out;
    }

    /** The two section ends at a thread's end come in no set order: sorted between the begins and thread_end. */
    private static java.util.List<String> sortedEnds(java.util.List<String> calls) {
        java.util.List<String> out = new java.util.ArrayList<>(calls);
        int a = out.indexOf("end_critical 0");
        int b = out.indexOf("end_critical 1");
        if (a > b && b >= 0) {
            out.set(b, "end_critical 0");
            out.set(a, "end_critical 1");
        }
        return out;
    }

    /**
     * A Phaser barrier's parties are the threads that await the phase: after one thread leaves it
     * (arriveAndDeregister), the later phases have two, and the replay completes (before: the registered parties,
     * read before arriving, kept 3 and `ciat` reported a deadlock at the barrier).
     */
    @Test
    void phaserBarrier_countsTheThreadsThatAwaitEachPhase() throws Exception {
        String name = traceLevel2("ph", org.dsmscope.tracedprog.PhaserLeave.class);
        for (int t = 1; t <= 3; t++) {
            java.util.List<Long> parties = new java.util.ArrayList<>();
            for (long[] c : calls(name + ".4." + t)) {
                if (c[0] == CallType.BARRIER) {
                    parties.add(c[2]);
                }
            }
            assertEquals(t == 3 ? java.util.List.of(3L, 3L) : java.util.List.of(3L, 3L, 2L, 2L), parties,
                    "thread " + t);
        }
        StringWriter cerr = new StringWriter();
        assertEquals(0, run(cerr, "ciat", name + ".4"), cerr.toString());
    }

    @Test
    void programExitingNonZero_keepsItsStatus_andItsTraces() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String name = dir.resolve("nz").toString();
        StringWriter err = new StringWriter();
        int status = run(err, "trace", "--type", "compressed", "-o", name, "--", java(), "-cp", testClasses(),
                TwoThreads.class.getName(), "7");
        assertEquals(7, status);
        try (TraceReader r = TraceReader.open(Paths.get(name + ".2.0"))) {
            int last = -1;
            for (int k = r.next(); k != RecordKind.EOF; k = r.next()) {
                if (k == RecordKind.CALL) {
                    last = r.callType();
                }
            }
            assertEquals(CallType.END_TRACE, last);
            assertEquals(org.dsmscope.trace.Codec.ZSTD, r.codec());
        }
    }

    @Test
    void badInput_givesOneLineErrorAndStatus2() {
        String cp = testClasses();
        String[][] cases = {
            {"unknown level", "trace", "--level", "4", "--", java(), "-cp", cp, "X"},
            {"unknown trace type", "trace", "--type", "fancy", "--", java(), "-cp", cp, "X"},
            {"give --config FILE", "trace", "--type", "to_cdat", "--", java(), "-cp", cp, "X"},
            {"--config goes with --type to_cdat", "trace", "--config", "x.cfg", "--", java(), "-cp", cp, "X"},
            {"x.cfg: no such CDAT configuration file", "trace", "--type", "to_cdat", "--config", "x.cfg", "--", java(), "-cp", cp, "X"},
            {"--ciat-options goes with --type to_ciat", "trace", "--ciat-options", "-p", "-o",
                dir.resolve("t").toString(), "--", java(), "-cp", cp, TwoThreads.class.getName()},
            {"--ciat-options: option --partitions: value 5000 out of range (0..1024)", "trace", "--type", "to_ciat",
                "--ciat-options", "--partitions 5000", "-o", dir.resolve("t").toString(), "--", java(), "-cp", cp,
                TwoThreads.class.getName()},
            {"no such directory", "trace", "-o", dir.resolve("missing/t").toString(), "--", java(), "-cp", cp, "X"},
            {"main class org.nowhere.Main not found", "trace", "-o", dir.resolve("t").toString(), "--", java(),
                "-cp", cp, "org.nowhere.Main"},
            {"no program to trace", "trace", "-o", dir.resolve("t").toString()},
        };
        for (String[] c : cases) {
            StringWriter err = new StringWriter();
            String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
            assertEquals(2, run(err, args), c[0]);
            assertTrue(err.toString().startsWith("dsmscope: ") && err.toString().contains(c[0]), err.toString());
            assertEquals(1, err.toString().strip().split("\n").length, "one line: " + err);
        }
    }

    @Test
    void unwritableDirectory_isRefusedBeforeRunning() throws Exception {
        Path ro = Files.createDirectory(dir.resolve("ro"));
        assumeTrue(ro.toFile().setWritable(false) && !Files.isWritable(ro), "running as a user who can write anywhere");
        StringWriter err = new StringWriter();
        assertEquals(2, run(err, "trace", "-o", ro.resolve("t").toString(), "--", java(), "-cp", testClasses(),
                TwoThreads.class.getName(), "0"));
        assertTrue(err.toString().contains("not writable"), err.toString());
    }

    /** Issue 23 item 1: an input of the run (here the to_cdat configuration) named like one of its outputs. */
    @Test
    void outputOverTheConfiguration_isRefusedBeforeRunning() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        byte[] cfg = Files.readAllBytes(CdatCommandTest.config("dsm4.cfg"));
        Path report = Files.write(dir.resolve("t.3.cdat_report"), cfg);
        Path link = Files.createSymbolicLink(dir.resolve("machine.cfg"), Path.of("t.3.cdat_report"));
        for (Path given : List.of(report, link)) {
            StringWriter err = new StringWriter();
            assertEquals(2, run(err, "trace", "--type", "to_cdat", "--config", given.toString(), "-o",
                    dir.resolve("t").toString(), "--", java(), "-cp", testClasses(), TwoThreads.class.getName(),
                    "0"), err.toString());
            assertTrue(err.toString().startsWith("dsmscope: " + given + ": is "), err.toString());
            assertTrue(err.toString().contains("an output never replaces an input"), err.toString());
            assertEquals(1, err.toString().lines().count(), err.toString());
            assertArrayEquals(cfg, Files.readAllBytes(report));
            try (java.util.stream.Stream<Path> s = Files.list(dir)) {
                assertEquals(List.of(link, report), s.sorted().toList(), "the program ran");
            }
        }
    }

    /**
     * Issue 23: outputs named inside --ciat-options / --cdat-options are checked like every other output before the
     * program runs: not over an input (the configuration, a class path file), not over a file of the trace set the
     * run writes, not over each other, and writable.
     */
    @Test
    void outputsInsideAnalysisOptions_areRefusedBeforeRunning() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        Path cfg = Files.write(dir.resolve("machine.cfg"), Files.readAllBytes(CdatCommandTest.config("dsm4.cfg")));
        Path jarLike = Files.write(dir.resolve("app.jar"), new byte[] {1, 2, 3});
        String t = dir.resolve("t").toString();
        String cp = testClasses() + java.io.File.pathSeparator + jarLike;
        String[][] cases = {
            {cfg + ": is an input of this run", "--type", "to_cdat", "--config", cfg.toString(), "--cdat-options",
                "--json " + cfg},
            {jarLike + ": is an input of this run", "--type", "to_ciat", "--ciat-options", "-p --json " + jarLike},
            {t + ".2.ciat_report: is a file name of the trace set " + t + ".p", "--type", "to_ciat",
                "--ciat-options", "--json " + t + ".2.ciat_report"},
            {dir + ": cannot write: is a directory", "--type", "to_ciat", "--ciat-options", "--json " + dir},
            {"/proc/x.json: cannot write: folder /proc ", "--type", "to_ciat",
                "--ciat-options", "--json /proc/x.json"},
        };
        for (String[] c : cases) {
            List<String> args = new java.util.ArrayList<>(List.of("trace"));
            args.addAll(List.of(c).subList(1, c.length));
            args.addAll(List.of("-o", t, "--", java(), "-cp", cp, TwoThreads.class.getName(), "0"));
            StringWriter err = new StringWriter();
            assertEquals(2, run(err, args.toArray(new String[0])), err.toString());
            assertTrue(err.toString().startsWith("dsmscope: " + c[0]), c[0] + " / " + err);
            assertEquals(1, err.toString().lines().count(), err.toString());
            try (java.util.stream.Stream<Path> s = Files.list(dir)) {
                assertEquals(List.of(jarLike, cfg), s.sorted().toList(), "the program ran");
            }
        }
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(jarLike));
    }

    /** Issue 22: where a user first traces, the trace's size, and for a large level 2 trace the compressed type. */
    @Test
    void traceSize_isSaid_andALargeNormalTraceSuggestsCompression() throws Exception {
        Path out = dir.resolve("big");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(dir.resolve("big.2.0").toFile(), "rw")) {
            f.setLength(TraceCommand.LARGE); // sparse: no disk used
        }
        Files.write(dir.resolve("big.2.1"), new byte[1000]);
        Files.write(dir.resolve("big.2.datamap"), new byte[5000]);  // not a trace file
        assertEquals("trace: 2 trace files, 268.4 MB (8 bytes per memory access): --type compressed writes about 0.4 to"
                + " 0.7 bytes per access, and every command reads it", TraceCommand.sizeNote(out, false, 2));
        assertEquals("trace: 2 trace files, 268.4 MB", TraceCommand.sizeNote(out, true, 2));
        assertEquals("trace: 2 trace files, 268.4 MB", TraceCommand.sizeNote(out, false, 1), "level 1: calls only");
        Files.delete(dir.resolve("big.2.0"));
        assertEquals("trace: 1 trace file, 0.0 MB", TraceCommand.sizeNote(out, false, 2));
        assertEquals(null, TraceCommand.sizeNote(dir.resolve("none"), false, 2));
    }
}
