package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dsmscope.replay.Replay;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End-to-end runs of {@code dsmscope ciat} on traces written inline (seed 000 §4, Appendix B). */
class CiatCommandTest {
    private static final int N = 8;
    private static final long A = 0x10000;
    private static final long B = 0x20000;
    private static final long C = 0x30000;

    @TempDir
    Path dir;

    /** Output of a run: exit status, stdout, stderr. */
    record Run(int status, String out, String err) {
    }

    static Run run(String... args) {
        return run(Main.commandLine(), args);
    }

    /** Runs {@code args} on the command line {@code cl}, capturing its output. */
    static Run run(picocli.CommandLine cl, String... args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        cl.setOut(new java.io.PrintWriter(out));
        cl.setErr(new java.io.PrintWriter(err));
        int st = cl.execute(args);
        return new Run(st, out.toString(), err.toString());
    }

    /**
     * A 2-thread N×N integer matrix multiply C = A × B: thread 0 initializes A and B in the serial phase, spawns
     * thread 1; each thread computes N/2 rows of C; thread 0 joins and reads C back.
     */
    private String writeMatMul(String name) throws Exception {
        String base = dir.resolve(name + ".2").toString();
        int ld = MemType.encode(MemType.LOAD, 4, MemType.FIXED);
        int st = MemType.encode(MemType.STORE, 4, MemType.FIXED);
        try (TraceWriter t0 = TraceWriter.create(Path.of(base + ".0"), new TraceWriter.Options().endRecord(true));
             TraceWriter t1 = TraceWriter.create(Path.of(base + ".1"), new TraceWriter.Options().endRecord(true))) {
            for (int i = 0; i < N * N; i++) {
                t0.memoryType(st, A + 4L * i);
                t0.memoryType(st, B + 4L * i);
            }
            t0.call(CallType.SPAWN, 10, 11, 1, 1, 1, 0);
            TraceWriter[] w = {t0, t1};
            for (int t = 0; t < 2; t++) {
                for (int i = t * N / 2; i < (t + 1) * N / 2; i++) {
                    for (int j = 0; j < N; j++) {
                        for (int k = 0; k < N; k++) {
                            w[t].memoryType(ld, A + 4L * (i * N + k));
                            w[t].memoryType(ld, B + 4L * (k * N + j));
                        }
                        w[t].memoryType(st, C + 4L * (i * N + j));
                    }
                }
            }
            t0.call(CallType.JOIN, 20, 21, 0, 0, 1, 0);
            for (int i = 0; i < N * N; i++) {
                t0.memoryType(ld, C + 4L * i);
            }
            t0.finish();
            t1.finish();
        }
        return base;
    }

    @Test
    void matrixMultiply_countsFollowFromTheProgram_resultRowsArePrivateWhileComputed() throws Exception {
        String base = writeMatMul("mm");
        Path json = dir.resolve("mm.json");
        Run r = run("ciat", "--json", json.toString(), base);
        assertEquals(0, r.status, r.err);
        assertTrue(r.out.contains("wrote " + base + ".ciat_report"), r.out);
        assertTrue(r.out.contains("wrote " + base + ".memory"), r.out);
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        JsonNode agg = root.get("aggregate");
        assertEquals(2L * N * N * N + N * N, agg.get("accesses").get("loads").asLong());
        assertEquals(3L * N * N, agg.get("accesses").get("stores").asLong());
        JsonNode phases = root.get("phases");
        assertEquals(3, phases.size());
        assertEquals("parallel", phases.get(1).get("kind").asText());
        JsonNode par = phases.get(1).get("communication");
        assertEquals(0, par.get("waw").asLong(), "each thread stores only its own rows of C");
        assertEquals(0, par.get("war").asLong());
        assertEquals(N * N / 2 + N * N, par.get("raw").asLong(), "thread 1 reads its half of A and all of B");
        assertEquals(N * N / 2, phases.get(2).get("communication").get("raw").asLong(),
                "thread 0 reads the rows thread 1 computed");
        String report = Files.readString(Path.of(base + ".ciat_report"));
        assertTrue(report.startsWith("# dsmscope-ciat-report 1\n"));
        String mem = Files.readString(Path.of(base + ".memory"));
        assertTrue(mem.startsWith("# dsmscope-memory 1\n"));
    }

    /**
     * {@code --progress} shows the progress line even here (standard error is not a terminal) and ends with the
     * record count; without it nothing is shown (no console under Maven); the outputs are the same either way, in a
     * serial and a partitioned run.
     */
    @Test
    void progress_forcedShowsTheFinalCount_otherwiseQuiet_outputsUnchanged() throws Exception {
        String base = writeMatMul("pg");
        long records = 3L * N * N + 2 + (long) N * N * (2 * N + 1); // memory records, spawn and join
        Run quiet = run("ciat", base);
        assertEquals(0, quiet.status, quiet.err);
        assertFalse(quiet.err.contains("records"), quiet.err);
        String report = Files.readString(Path.of(base + ".ciat_report"));
        for (String parts : new String[] {"1", "2"}) {
            Run shown = run("ciat", "--progress", "--partitions", parts, base);
            assertEquals(0, shown.status, shown.err);
            // the final line always; lines before it only if the ticker got to run before the end
            assertTrue(shown.err.startsWith("\rciat: ") || shown.err.startsWith("ciat: "), shown.err);
            // a partitioned run says after the count how it ran (a line of its own)
            String err = shown.err.replaceAll("\nciat: \\d+ partitions, [^\n]*\n$", "\n");
            String last = err.substring(err.lastIndexOf('\r') + 1).trim();
            assertTrue(last.matches("ciat: " + records + " records replayed, \\d+\\.\\d s"), last);
            assertEquals(quiet.out, shown.out);
            assertEquals(report, Files.readString(Path.of(base + ".ciat_report")));
        }
        Run never = run("ciat", "--no-progress", base);
        assertEquals(0, never.status, never.err);
        assertEquals("", never.err);
    }

    @Test
    void ciatEvents_writesTheEventTrace() throws Exception {
        String base = writeMatMul("ev");
        Run r = run("ciat", "-ciat_events", base);
        assertEquals(0, r.status, r.err);
        String ev = Files.readString(Path.of(base + ".ciat_events"));
        assertTrue(ev.startsWith("# dsmscope-ciat-events 1\n# fields: clock type processor degree\n"));
        long raws = ev.lines().filter(l -> l.contains(" RAW ")).count();
        assertEquals(N * N / 2 + N * N + N * N / 2, raws);
    }

    @Test
    void hpux_changesRangeSharedPages() throws Exception {
        String base = writeMatMul("hp");
        Path j1 = dir.resolve("a.json");
        Path j2 = dir.resolve("b.json");
        assertEquals(0, run("ciat", "--json", j1.toString(), base).status);
        assertEquals(0, run("ciat", "-HPUX", "--json", j2.toString(), base).status);
        ObjectMapper m = new ObjectMapper();
        JsonNode a = m.readTree(j1.toFile()).get("aggregate").get("memory");
        JsonNode b = m.readTree(j2.toFile()).get("aggregate").get("memory");
        assertEquals(a.get("sharedPages").asLong(), a.get("rangeSharedPages").asLong());
        assertEquals(b.get("touchedPages").asLong(), b.get("rangeSharedPages").asLong(),
                "every page lies outside HP-UX's private range");
    }

    @Test
    void optionsOutOfRange_failWithExitStatusTwo() throws Exception {
        String base = writeMatMul("bad");
        for (String[] args : new String[][] {{"ciat", "-ipc", "0", base}, {"ciat", "-s", "0", base},
            {"ciat", "--sample", "1.5", base}, {"ciat", "--age-granularity", "3", base},
            {"ciat", "--age-scope", "cluster", base}, {"ciat", "-a", base}, {"ciat", "-dma_bw", "-1", base},
            {"ciat", "--shared-range", "0x20-0x10", base}, {"ciat", "-i", "-2", base}}) {
            Run r = run(args);
            assertEquals(2, r.status, String.join(" ", args) + ": " + r.out + r.err);
            assertTrue(r.err.startsWith("dsmscope: "), r.err);
            assertTrue(!r.err.contains("Exception"), r.err);
        }
    }

    @Test
    void optionsThatNeedAnother_warnWhenItIsMissing() throws Exception {
        String base = writeMatMul("warn");
        Run r = run("ciat", "-s", "100", "-asynch_io", "-dma_bw", "40", base);
        assertEquals(0, r.status, r.err);
        assertTrue(r.err.contains("dsmscope: warning: option -s has no effect without -i"), r.err);
        assertTrue(r.err.contains("dsmscope: warning: option -asynch_io has no effect without -handle_io"), r.err);
        assertTrue(r.err.contains("dsmscope: warning: option -dma_bw has no effect without -handle_io"), r.err);
        Run quiet = run("ciat", "-handle_io", "-dma_bw", "40", "-i", "2", "-s", "100", base);
        assertEquals(0, quiet.status, quiet.err);
        assertFalse(quiet.err.contains("warning"), quiet.err);
    }

    @Test
    void missingTraceSet_isAClearError() {
        Run r = run("ciat", dir.resolve("nothing.2").toString());
        assertEquals(2, r.status);
        assertTrue(r.err.contains("nothing.2.0"), r.err);
    }

    @Test
    void help_listsAppendixBOptions() {
        Run r = run("ciat", "-h");
        assertEquals(0, r.status);
        for (String o : new String[] {"-ciat_events", "-HPUX", "-p", "-i", "-a", "-rr_interleaving", "-k", "-s",
            "-handle_io", "-buffered_io", "-asynch_io", "-distributed_io", "-dma_bw", "-disk_latency", "-ipc",
            "-h", "--json", "--age-scope", "--age-granularity", "--sample", "--busy1", "-mhz",
            "--skip-bad-records"}) {
            assertTrue(r.out.contains(o), o);
        }
    }

    @Test
    void busy1_givesASpeedup() throws Exception {
        String base = writeMatMul("sp");
        Path j = dir.resolve("sp.json");
        assertEquals(0, run("ciat", "--busy1", "1000", "--json", j.toString(), base).status);
        JsonNode c = new ObjectMapper().readTree(j.toFile()).get("aggregate").get("concurrency");
        assertTrue(c.get("speedup").asDouble() > 0);
    }

    @Test
    void traceList_namesOutputsFromTheListFile() throws Exception {
        String base = writeMatMul("li");
        Path list = dir.resolve("traces.list");
        Files.writeString(list, "li.2.0\nli.2.1\n", StandardCharsets.UTF_8);
        Run r = run("ciat", "-t", list.toString());
        assertEquals(0, r.status, r.err);
        assertTrue(Files.exists(Path.of(list + ".ciat_report")));
        assertTrue(Files.exists(Path.of(list + ".memory")));
    }

    /** Seed 001 §5.3 Figure 4 as a trace: serial, parallel with barrier, lock and join waits, serial. */
    @Test
    void figure4Profile_reportsBusyIdleImbalanceContention() throws Exception {
        String base = dir.resolve("fig4.2").toString();
        long bar = 0x1000;
        long lock = 0x2000;
        int ld = MemType.encode(MemType.LOAD, 4, MemType.FIXED);
        int st = MemType.encode(MemType.STORE, 4, MemType.FIXED);
        try (TraceWriter p0 = TraceWriter.create(Path.of(base + ".0"), TraceWriter.Options.classic());
             TraceWriter p1 = TraceWriter.create(Path.of(base + ".1"), TraceWriter.Options.classic())) {
            rep(p0, ld, 10, 0x10000);
            p0.call(CallType.SPAWN, 0, 1, 1, 1, 0, 0);
            rep(p0, ld, 20, 0x10000);
            p0.call(CallType.BARRIER, 2, 3, bar, 2, 0, 0);
            rep(p0, ld, 10, 0x10000);
            p0.call(CallType.BEGIN_CRITICAL, 4, 5, lock, 0, 0, 0);
            rep(p0, st, 10, 0x30000);
            p0.call(CallType.END_CRITICAL, 6, 7, lock, 0, 0, 0);
            rep(p0, ld, 5, 0x10000);
            p0.call(CallType.JOIN, 8, 9, 0, 0, 0, 0);
            rep(p0, ld, 7, 0x10000);
            rep(p1, ld, 30, 0x20000);
            p1.call(CallType.BARRIER, 0, 1, bar, 2, 0, 0);
            rep(p1, ld, 12, 0x20000);
            p1.call(CallType.BEGIN_CRITICAL, 2, 3, lock, 0, 0, 0);
            rep(p1, st, 5, 0x30000);
            p1.call(CallType.END_CRITICAL, 4, 5, lock, 0, 0, 0);
            rep(p1, ld, 20, 0x20000);
        }
        Path json = dir.resolve("fig4.json");
        Run r = run("ciat", "--busy1", "100", "--json", json.toString(), base);
        assertEquals(0, r.status, r.err);
        String rep = Files.readString(Path.of(base + ".ciat_report"));
        assertTrue(rep.contains("R1T1L60: busy 0 idle 10 imbalance 0 contention 0\n"), rep);
        // the parallel phase (10-85): P0 waits 10 at the barrier and 20 at the join, P1 8 for the lock
        JsonNode par = null;
        for (JsonNode ph : new ObjectMapper().readTree(json.toFile()).get("phases")) {
            if (ph.get("kind").asText().equals("parallel") && ph.get("endClock").asLong() == 85) {
                par = ph.get("concurrency");
            }
        }
        assertTrue(rep.contains("R2TxL01: phase parallel start 10 end 85 length 75\n"), rep);
        assertTrue(rep.contains("R2T0L60: busy 45 idle 0 imbalance 30 contention 0\n"), rep);
        assertTrue(rep.contains("R2T1L60: busy 67 idle 0 imbalance 0 contention 8\n"), rep);
        assertTrue(rep.contains("R3TxL01: phase serial start 85 end 92 length 7\n"), rep);
        assertTrue(rep.contains("# threads 2 processors 2 phases 3\n"), rep);
        assertEquals("[45,67]", par.get("busy").toString());
        assertEquals("[30,0]", par.get("imbalance").toString());
        assertEquals("[0,8]", par.get("contention").toString());
        assertTrue(rep.contains("RxT0L60: busy 62 idle 0 imbalance 30 contention 0\n"), rep);
        assertTrue(rep.contains("RxT1L60: busy 67 idle 17 imbalance 0 contention 8\n"), rep);
        // speedup = 100 / ((62 + 67 + 17 + 30 + 8) / 2) = 100 / 92
        assertTrue(rep.contains("RxTxL62: speedup 1.0870 busy1 100 processors 2\n"), rep);
        // the lock-protected stores by both threads: P1 overwrites P0's words (WAW), not counted for the lock word
        assertTrue(rep.contains("RxTxL42: WAW 5 "), rep);
    }

    private static void rep(TraceWriter w, int type, int n, long addr) {
        for (int i = 0; i < n; i++) {
            w.memoryType(type, addr + 4L * i);
        }
    }

    @Test
    void generatedForkJoin_withoutSharing_hasNoCommunication_andPrivatePagesHaveOwners() throws Exception {
        Run g = run("gen", "forkjoin", "-o", dir.toString(), "--name", "fj0", "--threads", "4", "--instructions",
                "3000", "--shared", "0", "--lock-rate", "0", "--barriers", "0");
        assertEquals(0, g.status, g.err);
        String base = dir.resolve("fj0.4").toString();
        Path json = dir.resolve("fj0.json");
        Run r = run("ciat", "--json", json.toString(), base);
        assertEquals(0, r.status, r.err);
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        JsonNode par = root.get("phases").get(1);
        assertEquals("parallel", par.get("kind").asText());
        assertEquals(4 * 3000, par.get("accesses").get("loads").asLong() + par.get("accesses").get("stores").asLong());
        JsonNode c = root.get("aggregate").get("communication");
        assertEquals(0, c.get("raw").asLong() + c.get("war").asLong() + c.get("waw").asLong() + c.get("rar").asLong());
        java.util.Set<String> owners = new java.util.TreeSet<>();
        for (String line : Files.readAllLines(Path.of(base + ".memory"))) {
            if (!line.startsWith("#")) {
                String[] f = line.split(" ");
                owners.add(f[f.length - 1]);
            }
        }
        assertTrue(owners.containsAll(java.util.List.of("1", "2", "3")), owners.toString());
    }

    @Test
    void generatedForkJoin_withSharing_communicatesWithSharingDegrees() throws Exception {
        Run g = run("gen", "forkjoin", "-o", dir.toString(), "--name", "fj3", "--threads", "4", "--instructions",
                "3000", "--shared", "0.3", "--shared-bytes", "4096");
        assertEquals(0, g.status, g.err);
        Path json = dir.resolve("fj3.json");
        Run r = run("ciat", "--json", json.toString(), dir.resolve("fj3.4").toString());
        assertEquals(0, r.status, r.err);
        JsonNode c = new ObjectMapper().readTree(json.toFile()).get("aggregate").get("communication");
        assertTrue(c.get("raw").asLong() > 0 && c.get("war").asLong() > 0, c.toString());
        long s = 0;
        for (JsonNode k : c.get("sharingDegree")) {
            s += k.asLong();
        }
        assertTrue(s > 0, c.toString());
    }

    @Test
    void generatedProcesses_interleavedOnTwoProcessors() throws Exception {
        Run g = run("gen", "processes", "-o", dir.toString(), "--name", "tpc", "--processes", "4", "--slices", "10",
                "--slice-instructions", "200");
        assertEquals(0, g.status, g.err);
        Path json = dir.resolve("tpc.json");
        Run r = run("ciat", "-i", "2", "--json", json.toString(), dir.resolve("tpc.4").toString());
        assertEquals(0, r.status, r.err);
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals(4, root.get("threads").asInt());
        assertEquals(2, root.get("processors").asInt());
        assertEquals(2, root.get("aggregate").get("communication").get("matrix").size());
    }

    @Test
    void badRecord_failsNamingTheFile_orIsSkippedWithSkipBadRecords() throws Exception {
        String base = writeMatMul("br");
        // a memory-access record with an undefined type field (size code 5) in thread 1's trace
        try (java.io.OutputStream o = Files.newOutputStream(Path.of(base + ".1"),
                java.nio.file.StandardOpenOption.APPEND)) {
            o.write(new byte[] {0, 0, 0, 0x50, 0, 0, 0x10, 0});
        }
        Run fail = run("ciat", base);
        assertEquals(2, fail.status, fail.out + fail.err);
        assertTrue(fail.err.contains("br.2.1"), fail.err);
        Run skip = run("ciat", "--skip-bad-records", base);
        assertEquals(0, skip.status, skip.err);
        assertTrue(skip.out.contains("continued past 1 problem"), skip.out);
    }

    /**
     * An error the replay finds (not the prescan) in a routed partitioned run (a lock released by a thread that
     * never took it, after accesses that each partition gets only in part): the serial run's message, naming the
     * trace file and the byte offset of the record, exit status 2 and no report; the routed run says it itself
     * (replay/README.md "Partitioned replay", positions).
     */
    @Test
    void partitions_anErrorInARoutedRun_namesTheTraceFilesPosition_asTheSerialRun() throws Exception {
        String base = dir.resolve("bad.2").toString();
        for (int t = 0; t < 2; t++) {
            try (TraceWriter w = TraceWriter.create(Path.of(base + "." + t), new TraceWriter.Options().endRecord(true))) {
                if (t == 0) {
                    w.call(CallType.SPAWN, 0, 1, 1, 1, 0, 0);
                }
                for (int i = 0; i < 3000; i++) {
                    w.memory(i % 3 == 0 ? MemType.STORE : MemType.LOAD, 8, MemType.FIXED, A + 4096L * (i % 7) + 8 * i);
                }
                if (t == 1) {
                    w.call(CallType.END_CRITICAL, 5, 6, 0x8000, 0, 0, 0); // a lock thread 1 never took
                } else {
                    w.call(CallType.JOIN, 7, 8, 0, 0, 0, 0);
                }
                w.finish();
            }
        }
        Run serial = run("ciat", base);
        assertEquals(2, serial.status, serial.out + serial.err);
        assertTrue(serial.err.contains("bad.2.1") && serial.err.contains("offset"), serial.err);
        for (String parts : new String[] {"2", "3"}) {
            Run par = run("ciat", "--partitions", parts, base);
            assertEquals(2, par.status, par.out + par.err);
            assertEquals(serial.err, par.err, parts + " partitions");
            assertFalse(Files.exists(Path.of(base + ".ciat_report")), parts + " partitions");
        }
    }

    /** Partitions replay the files each only while their open files fit; a large trace set shares one replay. */
    @Test
    void partitionsReplayTheirOwnFiles_onlyWhileTheOpenFilesFit() {
        assertTrue(CiatCommand.replaysFit(2, 32));
        assertTrue(CiatCommand.replaysFit(4, 2 * 1000));
        assertFalse(CiatCommand.replaysFit(2, 2 * 6000 + 2), "more than " + CiatCommand.MAX_REPLAY_FILES);
        assertFalse(CiatCommand.replaysFit(1024, 32));
    }

    @Test
    void partitions_giveTheSameBytesAsASerialRun() throws Exception {
        Run g = run("gen", "forkjoin", "-o", dir.toString(), "--name", "pp", "--threads", "4", "--instructions",
                "4000", "--shared", "0.3", "--shared-bytes", "8192");
        assertEquals(0, g.status, g.err);
        String base = dir.resolve("pp.4").toString();
        String[] exts = {".ciat_report", ".memory", ".ciat_events"};
        Run serial = run("ciat", "-ciat_events", "--json", dir.resolve("s.json").toString(), base);
        assertEquals(0, serial.status, serial.err);
        List<String> want = new java.util.ArrayList<>();
        for (String e : exts) {
            want.add(Files.readString(Path.of(base + e)));
        }
        for (String n : new String[] {"2", "3", "0", "replays"}) {
            boolean replays = n.equals("replays");
            if (replays) {
                // the replay per partition, as the routed mode falls back to it
                System.setProperty(CiatCommand.MODE_PROPERTY, Replay.MODE_REPLAYS);
            }
            Run par;
            try {
                par = run("ciat", "-ciat_events", "--progress", "--partitions", replays ? "2" : n, "--json",
                        dir.resolve("p.json").toString(), base);
            } finally {
                System.clearProperty(CiatCommand.MODE_PROPERTY);
            }
            assertEquals(0, par.status, par.err);
            if (!n.equals("0") || Runtime.getRuntime().availableProcessors() > 1) {
                assertTrue(par.err.contains(replays ? "partitions, one replay of the trace files per partition"
                        : "partitions, routed (each trace file read once)"), par.err);
            }
            for (int i = 0; i < exts.length; i++) {
                assertEquals(want.get(i), Files.readString(Path.of(base + exts[i])), n + exts[i]);
            }
            assertEquals(Files.readString(dir.resolve("s.json")), Files.readString(dir.resolve("p.json")), n);
            assertEquals(serial.out.lines().findFirst(), par.out.lines().findFirst(), n);
            try (java.util.stream.Stream<Path> left = Files.list(dir)) {
                // the workers' event spills (written beside the outputs) are deleted after the merge
                assertEquals(List.of(), left.filter(p -> p.getFileName().toString().contains("ciat-events"))
                        .toList(), n);
            }
        }
    }
}
