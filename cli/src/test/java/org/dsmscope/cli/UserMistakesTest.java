package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's mistakes with the trace commands, as a skeptical user makes them: each gives one line naming the input
 * and what is wrong, exit status 2, no stack trace, and no partial output left looking complete.
 */
class UserMistakesTest {
    @TempDir
    Path dir;

    private static CiatCommandTest.Run run(String... args) {
        return CiatCommandTest.run(args);
    }

    private static void assertOneLineUserError(CiatCommandTest.Run r, String expected) {
        assertEquals(2, r.status(), r.err());
        assertFalse(r.err().contains("\tat "), "stack trace: " + r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains(expected), r.err());
    }

    /** A p-thread trace set NAME.p: thread 0 spawns the others, each stores and loads a few words. */
    private String writeSet(String name, int p) throws IOException {
        String base = dir.resolve(name + "." + p).toString();
        for (int t = 0; t < p; t++) {
            try (TraceWriter w = TraceWriter.create(Path.of(base + "." + t), TraceWriter.Options.classic())) {
                if (t == 0 && p > 1) {
                    w.call(CallType.SPAWN, 1, 2, 1, p - 1, 1, 0);
                }
                for (int i = 0; i < 16; i++) {
                    w.memory(MemType.STORE, 4, MemType.FIXED, 0x1000 + 4L * i);
                    w.memory(MemType.LOAD, 4, MemType.FIXED, 0x2000 + 64L * t + 4L * i);
                }
            }
        }
        return base;
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    /** A broken symbol sidecar: one line naming it and its line, and how to go on without it, which works. */
    @Test
    void ciat_withABrokenSymbolSidecar_isOneLine_andSeedStreamGoesOn() throws IOException {
        String in = writeSet("s", 2);
        Files.writeString(Path.of(in + ".symbols"), "dsmscope-symbols 1\nmethod\t0x1000\tnot-an-address\n");
        CiatCommandTest.Run r = run("ciat", in);
        assertOneLineUserError(r, in + ".symbols");
        assertTrue(r.err().contains("line 2") && r.err().contains("--seed-stream"), r.err());
        assertFalse(files().contains("s.2.ciat_report"), "nothing written");
        CiatCommandTest.Run ok = run("ciat", "--seed-stream", in);
        assertEquals(0, ok.status(), ok.err());
        assertTrue(files().contains("s.2.ciat_report"));
    }

    @Test
    void convert_intoAFolderThatIsAFile_isOneLineNotAStackTrace() throws IOException {
        String in = writeSet("a", 2);
        CiatCommandTest.Run r = run("convert", in, "-o", in + ".0/x");
        assertOneLineUserError(r, "not a directory");
    }

    @Test
    void importLackey_intoAFolderThatIsAFile_isOneLineNotAStackTrace() throws IOException {
        String in = writeSet("a", 1);
        Path lackey = dir.resolve("run.lackey");
        Files.writeString(lackey, "I  04001f40,3\n L 1ffefff8a8,8\n");
        CiatCommandTest.Run r = run("import", "lackey", "-o", in + ".0/x", lackey.toString());
        assertEquals(2, r.status(), r.err());
        assertFalse(r.err().contains("\tat "), "stack trace: " + r.err());
    }

    @Test
    void convert_whoseSecondFileIsBad_leavesNoPartialTraceSet() throws IOException {
        String in = writeSet("a", 3);
        Files.write(Path.of(in + ".1"), new byte[] {0, 0, 0, 0x40, 0, 0});
        List<String> before = files();
        CiatCommandTest.Run r = run("convert", in, "-o", dir.resolve("out").toString());
        assertOneLineUserError(r, "a.3.1: byte offset 0: truncated record");
        assertEquals(before, files(), "the failed convert left files behind");
    }

    @Test
    void convert_ontoAnotherFileOfItsInputSet_isRefusedBeforeAnythingIsWritten() throws IOException {
        writeSet("a", 2);
        Path list = dir.resolve("swapped.list");
        Files.write(list, List.of("a.2.1", "a.2.0"));
        byte[] one = Files.readAllBytes(dir.resolve("a.2.1"));
        CiatCommandTest.Run r = run("convert", "-t", list.toString(), "-o", dir.resolve("a").toString());
        assertOneLineUserError(r, "would overwrite input file 1");
        assertEquals(-1L, java.util.Arrays.mismatch(one, Files.readAllBytes(dir.resolve("a.2.1"))));
    }

    @Test
    void ciat_diskLatencyThatOverflowsThePseudoClock_isRefusedNotWrappedAround() throws IOException {
        String base = dir.resolve("io.1").toString();
        try (TraceWriter w = TraceWriter.create(Path.of(base + ".0"), TraceWriter.Options.classic())) {
            for (int i = 0; i < 4; i++) {
                w.memory(MemType.LOAD, 4, MemType.FIXED, 0x1000 + 4L * i);
                w.call(CallType.FILE_READ, 10 + i, 20 + i, 0x8000, 4096, 3, 0);
            }
        }
        for (String[] extra : new String[][] {{}, {"-i", "1"}}) {
            List<String> args = new java.util.ArrayList<>(List.of("ciat", "-handle_io", "-disk_latency", "1e15"));
            args.addAll(List.of(extra));
            args.add(base);
            CiatCommandTest.Run r = run(args.toArray(new String[0]));
            assertOneLineUserError(r, "-disk_latency 1000000000000000 ms");
            assertTrue(r.err().contains("past 2^50 instructions"), r.err());
        }
        // a long latency that still fits gives the exact clock: 4 reads of 1e6 ms (+ 4096 B at 20 MB/s) at 240
        // instructions per microsecond, one after the other
        CiatCommandTest.Run ok = run("ciat", "-handle_io", "-disk_latency", "1e6", base);
        assertEquals(0, ok.status(), ok.err());
        long perRead = 1_000_000_000L * 240 + Math.round(4096 / 20.0 * 240);
        String report = Files.readString(Path.of(base + ".ciat_report"));
        assertTrue(report.contains("end " + (4 + 4 * perRead) + " "), report.lines().limit(4)
                .collect(Collectors.joining("\n")));
    }

    /** A 2-thread set whose thread 1 ends before the barrier thread 0 waits at: a deadlock near the end. */
    private String writeDeadlock(String name) throws IOException {
        String base = dir.resolve(name + ".2").toString();
        try (TraceWriter t0 = TraceWriter.create(Path.of(base + ".0"), TraceWriter.Options.classic());
             TraceWriter t1 = TraceWriter.create(Path.of(base + ".1"), TraceWriter.Options.classic())) {
            t0.call(CallType.SPAWN, 1, 2, 1, 1, 1, 0);
            for (int i = 0; i < 20_000; i++) {
                // thread 1 stores, thread 0 loads the same words: many RAW events before the deadlock
                t1.memory(MemType.STORE, 4, MemType.FIXED, 0x1000 + 4L * (i % 64));
                t0.memory(MemType.LOAD, 4, MemType.FIXED, 0x1000 + 4L * (i % 64));
            }
            t0.call(CallType.BARRIER, 3, 4, 0x9000, 2, 0, 0);
            t0.memory(MemType.LOAD, 4, MemType.FIXED, 0x1000);
        }
        return base;
    }

    @Test
    void ciat_eventTraceOfARunThatFails_isNotLeftBehind() throws IOException {
        String base = writeDeadlock("dl");
        String serial = null;
        for (String parts : new String[] {"1", "2"}) {
            CiatCommandTest.Run r = run("ciat", "-ciat_events", "--partitions", parts, base);
            assertOneLineUserError(r, "deadlock");
            assertEquals(List.of("dl.2.0", "dl.2.1"), files(), "partitions " + parts);
            // the routed run's error names the trace files' byte offsets, as the serial run's does
            serial = serial == null ? r.err() : serial;
            assertEquals(serial, r.err(), "partitions " + parts);
        }
        // the same run continued past the deadlock writes every output, under its own name only
        CiatCommandTest.Run ok = run("ciat", "-ciat_events", "--skip-bad-records", base);
        assertEquals(0, ok.status(), ok.err());
        assertEquals(List.of("dl.2.0", "dl.2.1", "dl.2.ciat_events", "dl.2.ciat_report", "dl.2.memory"), files());
        assertTrue(Files.readString(Path.of(base + ".ciat_events")).lines().count() > 1000);
    }

    @Test
    void ciat_outputThatCannotBeWritten_isRefusedBeforeTheAnalysis() throws IOException {
        String base = writeSet("w", 2);
        CiatCommandTest.Run r = run("ciat", "--json", dir.resolve("no/such/folder/out.json").toString(), base);
        assertOneLineUserError(r, "out.json: cannot write: folder ");
        assertTrue(r.err().contains("does not exist"), r.err());
        assertEquals(List.of("w.2.0", "w.2.1"), files(), "nothing written before the refusal");
        Files.createDirectory(Path.of(base + ".memory"));
        r = run("ciat", base);
        assertOneLineUserError(r, "w.2.memory: cannot write: is a directory");
        assertEquals(List.of("w.2.0", "w.2.1", "w.2.memory"), files(), "no report without its memory file");
    }

    @Test
    void ciat_continuedPastProblems_saysSoInTheReportJsonAndOnStandardError() throws IOException {
        String base = writeDeadlock("sk");
        // an undefined type field (size code 5) at the end of thread 1's trace, byte offset 160000
        Files.write(Path.of(base + ".1"), new byte[] {0, 0, 0, 0x50, 0, 0, 0x10, 0},
                java.nio.file.StandardOpenOption.APPEND);
        Path json = dir.resolve("sk.json");
        CiatCommandTest.Run r = run("ciat", "--skip-bad-records", "--json", json.toString(), base);
        assertEquals(0, r.status(), r.err());
        String skipped = base + ".1: skipped 1 bad record, the first at byte offset 160000: ";
        assertTrue(r.err().contains("dsmscope: warning: " + skipped), r.err());
        assertTrue(r.err().contains("dsmscope: warning: deadlock: "), r.err());
        assertTrue(r.out().contains("continued past 2 problem(s) (--skip-bad-records): the results cover what could"
                + " be analysed; problems listed in " + base + ".ciat_report"), r.out());
        List<String> report = Files.readAllLines(Path.of(base + ".ciat_report"));
        assertEquals("# incomplete: continued past 2 problem(s) (--skip-bad-records); the results cover what could"
                + " be analysed", report.get(2));
        assertTrue(report.get(3).startsWith("# problem: " + skipped), report.get(3));
        assertTrue(report.get(4).startsWith("# problem: deadlock: "), report.get(4));
        assertTrue(report.get(5).startsWith("# instructions not traced: "), report.get(5)); // a level 2 trace
        assertTrue(report.get(6).startsWith("R1TxL01: "), report.get(6));
        com.fasterxml.jackson.databind.JsonNode inc = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(json.toFile()).get("incomplete");
        assertEquals(2, inc.get("problemCount").asLong());
        assertTrue(inc.get("problems").get(0).asText().startsWith(skipped), inc.toString());
        // the partitioned run says the same, byte for byte
        byte[] serial = Files.readAllBytes(Path.of(base + ".ciat_report"));
        byte[] serialJson = Files.readAllBytes(json);
        CiatCommandTest.Run par = run("ciat", "--skip-bad-records", "--partitions", "2", "--json", json.toString(),
                base);
        assertEquals(0, par.status());
        assertEquals(r.err(), par.err(), "each problem said once");
        assertEquals(r.out(), par.out());
        assertEquals(-1, java.util.Arrays.mismatch(serial, Files.readAllBytes(Path.of(base + ".ciat_report"))));
        assertEquals(-1, java.util.Arrays.mismatch(serialJson, Files.readAllBytes(json)));
        // a complete run's outputs carry no such mark
        CiatCommandTest.Run clean = run("ciat", "--json", json.toString(), writeSet("ok", 2));
        assertEquals(0, clean.status(), clean.err());
        assertFalse(Files.readString(dir.resolve("ok.2.ciat_report")).contains("incomplete"));
        assertFalse(Files.readString(json).contains("incomplete"));
    }

    @Test
    void skippingBadInput_namesWhereTheFirstSkippedRecordOrLineWas() throws IOException {
        String in = writeSet("s", 2);
        Files.write(Path.of(in + ".1"), new byte[] {0x20, 0, 0, 0, 0, 0, 0, 0},
                java.nio.file.StandardOpenOption.APPEND);
        CiatCommandTest.Run r = run("convert", "--skip-bad-records", in, "-o", dir.resolve("out").toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("dsmscope: " + in + ".1: skipped 1 bad record, the first at byte offset 256:"
                + " unknown record tag 20000000"), r.err());
        Path lackey = dir.resolve("run.lackey");
        Files.writeString(lackey, "I  04001f40,3\n L 1ffefff8a8,8\n Q nonsense\n L zz,4\n");
        r = run("import", "lackey", "--skip-bad-records", "-o", dir.resolve("lk").toString(), lackey.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains(lackey + ": skipped 2 bad lines, the first at line 3: "), r.err());
        assertTrue(r.err().contains("' Q nonsense'"), r.err());
    }

    /**
     * An access whose bytes run past the end of the 64-bit address space is refused by the Lackey import, naming
     * the log's line (before, the import wrote it and only the analysis refused it, at a byte offset of the trace);
     * with --skip-bad-records the line is counted and left out.
     */
    @Test
    void importLackey_accessPastTheEndOfTheAddressSpace_isRefusedNamingTheLine() throws IOException {
        Path lackey = dir.resolve("w.lackey");
        Files.writeString(lackey, " L 10,4\n L ffffffffffffffff,8\n S fffffffffffffff8,8\n");
        String name = dir.resolve("w").toString();
        assertOneLineUserError(run("import", "lackey", "-o", name, lackey.toString()), "dsmscope: " + lackey
                + ": line 2: an access of 8 bytes at 0xffffffffffffffff runs past the end of the 64-bit address"
                + " space: ' L ffffffffffffffff,8'");
        assertFalse(Files.exists(Path.of(name + ".1.0")));
        CiatCommandTest.Run r = run("import", "lackey", "--skip-bad-records", "-o", name, lackey.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("skipped 1 bad line, the first at line 2: an access of 8 bytes"), r.err());
    }

    /**
     * An access whose bytes run past the end of the 64-bit address space (in a trace written by another tool) is a
     * bad record for ciat, named at its byte offset; continuing skips it and analyses the rest (before, its last
     * byte wrapped to a negative key count and gave a wrong access age without a word).
     */
    @Test
    void ciat_accessPastTheEndOfTheAddressSpace_isABadRecord_notAWrongAge() throws IOException {
        String name = dir.resolve("w").toString();
        try (TraceWriter w = TraceWriter.create(Path.of(name + ".1.0"), new TraceWriter.Options().addr64(true))) {
            w.memory(MemType.LOAD, 8, MemType.VECTOR, 0xfffffffffffffffcL);
            w.memory(MemType.LOAD, 4, MemType.VECTOR, 0x10);
            w.memory(MemType.STORE, 8, MemType.VECTOR, 0xfffffffffffffff8L);
            w.memory(MemType.LOAD, 4, MemType.VECTOR, 0x10);
        }
        CiatCommandTest.Run r = run("ciat", name + ".1");
        assertOneLineUserError(r, name + ".1.0: byte offset 16: record 00000280 fffffffc: an access at "
                + "0xfffffffffffffffc runs past the end of the 64-bit address space");
        Path json = dir.resolve("w.json");
        r = run("ciat", "--skip-bad-records", "--json", json.toString(), name + ".1");
        assertEquals(0, r.status(), r.err());
        String j = Files.readString(json);
        // three accesses analysed: 0x10 (infinite), the 8 bytes ending at 2^64 - 1 (infinite), 0x10 again (age 12:
        // its 4 bytes and those 8)
        assertTrue(j.replaceAll("\\s", "").contains("\"loads\":2,\"stores\":1"), j);
        assertTrue(j.replaceAll("\\s", "").contains("\"infinite\":2,\"cdf\":[{\"bytes\":1,\"accesses\":0},"
                + "{\"bytes\":2,\"accesses\":0},{\"bytes\":4,\"accesses\":0},{\"bytes\":8,\"accesses\":0},"
                + "{\"bytes\":16,\"accesses\":1}"), j);
    }

    @Test
    void genAndConvert_badNamesAndCounts_areRefusedWithoutWritingHiddenOrDefaultOutput() throws IOException {
        String o = dir.toString();
        assertOneLineUserError(run("gen", "forkjoin", "-o", o, "--serial", "-4"), "gen: serial -4 out of range");
        assertOneLineUserError(run("gen", "forkjoin", "-o", o, "--name", ""), "option --name: '' is not a trace set");
        assertOneLineUserError(run("gen", "processes", "-o", o, "--name", "x/"), "option --name: 'x/' is not");
        assertOneLineUserError(run("gen", "forkjoin", "-o", o, "--name", "no/such"), "folder ");
        assertEquals(List.of(), files(), "nothing written");
        String in = writeSet("c", 1);
        assertOneLineUserError(run("convert", in, "-o", ""), "option -o: '' is not a trace set name");
        assertOneLineUserError(run("convert", in, "-o", dir.resolve("none/x").toString()), "does not exist");
        Files.writeString(dir.resolve("f"), "a file");
        assertOneLineUserError(run("gen", "forkjoin", "-o", dir.resolve("f").toString()),
                "cannot create output folder " + dir.resolve("f") + ": a file of that name exists");
        assertEquals(List.of("c.1.0", "f"), files());
    }

    @Test
    void demo_sizesOutsideTheExamplesLimits_areRefusedBeforeAnythingIsTraced() throws IOException {
        Path out = dir.resolve("demo");
        assertOneLineUserError(run("demo", "-o", out.toString(), "--matmul-size", "0"),
                "option --matmul-size: value 0 out of range (1..4096)");
        assertOneLineUserError(run("demo", "-o", out.toString(), "--sor-size", "1"),
                "option --sor-size: value 1 out of range (2..4096)");
        assertFalse(Files.exists(out), "no output folder, no partial traces");
    }

    @Test
    void ciat_truncatedCompressedTrace_failsClearly_orGivesWhatItHoldsWhenContinued() throws IOException {
        for (org.dsmscope.trace.Codec codec : new org.dsmscope.trace.Codec[] {org.dsmscope.trace.Codec.ZSTD,
                org.dsmscope.trace.Codec.LZ4}) {
            String base = dir.resolve(codec.name().toLowerCase() + ".1").toString();
            Path f = Path.of(base + ".0");
            try (TraceWriter w = TraceWriter.create(f, TraceWriter.Options.classic().codec(codec))) {
                java.util.Random rnd = new java.util.Random(1);
                for (int i = 0; i < 400_000; i++) {
                    w.memory(MemType.LOAD, 4, MemType.FIXED, 0x1000 + 4L * rnd.nextInt(1 << 16));
                }
            }
            byte[] all = Files.readAllBytes(f);
            Files.write(f, java.util.Arrays.copyOf(all, all.length / 2)); // a collection killed mid-write
            CiatCommandTest.Run r = run("ciat", base);
            assertOneLineUserError(r, f + ": byte offset ");
            assertTrue(r.err().contains("corrupt or truncated " + codec.name().toLowerCase() + " stream"), r.err());
            r = run("ciat", "--skip-bad-records", base);
            assertEquals(0, r.status(), r.err());
            assertTrue(r.err().contains("(the rest of the file skipped)"), r.err());
            List<String> report = Files.readAllLines(Path.of(base + ".ciat_report"));
            assertTrue(report.get(2).startsWith("# incomplete: continued past 1 problem"), report.get(2));
            long loads = Long.parseLong(report.stream().filter(l -> l.startsWith("RxTxL10: ")).findFirst()
                    .orElseThrow().split(" ")[4]);
            assertTrue(loads > 0 && loads < 400_000, "loads analysed: " + loads);
        }
    }

    @Test
    void ciat_sliceLengthNearTheLongLimit_actsAsNoLimitInsteadOfRunningOutOfMemory() throws IOException {
        // three processes on two processors, slices bounded by ldcw calls: the third starts at a later clock
        String base = dir.resolve("sl.3").toString();
        for (int t = 0; t < 3; t++) {
            try (TraceWriter w = TraceWriter.create(Path.of(base + "." + t), TraceWriter.Options.classic())) {
                for (int k = 0; k < 4; k++) {
                    for (int i = 0; i < 50; i++) {
                        w.memory(MemType.LOAD, 4, MemType.FIXED, 0x1000 + 64L * t + 4L * (i % 16));
                    }
                    w.call(CallType.LDCW, 10 * k, 10 * k + 1, 0x9000, 0, 0, 0);
                }
            }
        }
        CiatCommandTest.Run none = run("ciat", "-i", "2", "-k", base);
        assertEquals(0, none.status(), none.err());
        String kept = Files.readString(Path.of(base + ".ciat_report"));
        CiatCommandTest.Run huge = run("ciat", "-i", "2", "-s", Long.toString(Long.MAX_VALUE), base);
        assertEquals(0, huge.status(), huge.err());
        assertEquals(kept, Files.readString(Path.of(base + ".ciat_report")), "-s 2^63-1 = no slice limit = -k");
    }

    @Test
    void outputFolderNotWritable_isRefusedBeforeAnythingRuns() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeFalse("root".equals(System.getProperty("user.name")),
                "root may write anywhere");
        Path ro = Files.createDirectory(dir.resolve("ro"));
        String base = writeSet("w", 1);
        Files.move(Path.of(base + ".0"), ro.resolve("w.1.0"));
        assertTrue(ro.toFile().setWritable(false));
        try {
            CiatCommandTest.Run r = run("ciat", ro.resolve("w.1").toString());
            assertOneLineUserError(r, "w.1.ciat_report: cannot write: folder " + ro + " is not writable");
            assertOneLineUserError(run("convert", ro.resolve("w.1").toString(), "-o", ro.resolve("c").toString()),
                    "option -o: cannot write " + ro.resolve("c") + ": folder " + ro + " is not writable");
            assertOneLineUserError(run("gen", "forkjoin", "-o", ro.toString()), "folder " + ro + " is not writable");
        } finally {
            ro.toFile().setWritable(true);
        }
    }

    @Test
    void ciat_shortLittleEndianClassicTrace_isReadWithByteOrderLittle() throws IOException {
        String base = dir.resolve("be.1").toString();
        try (TraceWriter w = TraceWriter.create(Path.of(base + ".0"), TraceWriter.Options.classic())) {
            w.memory(MemType.LOAD, 4, MemType.FIXED, 0x100);
            w.call(CallType.BEGIN_CRITICAL, 1, 2, 0x500, 0, 0, 0);
            w.memory(MemType.STORE, 4, MemType.FIXED, 0x104);
            w.call(CallType.END_CRITICAL, 3, 4, 0x500, 0, 0, 0);
        }
        assertEquals(0, run("ciat", base).status());
        String expected = Files.readString(Path.of(base + ".ciat_report"));
        String le = dir.resolve("le").toString();
        assertEquals(0, run("convert", "--byte-order", "little", "--classic", base, "-o", le).status());
        // too short to detect its order with certainty: read big-endian, it is garbage
        assertEquals(2, run("ciat", le + ".1").status());
        CiatCommandTest.Run r = run("ciat", "--byte-order", "little", le + ".1");
        assertEquals(0, r.status(), r.err());
        assertEquals(expected, Files.readString(Path.of(le + ".1.ciat_report")));
        assertOneLineUserError(run("ciat", "--byte-order", "middle", le + ".1"), "unknown byte order 'middle'");
    }

    @Test
    void outOfMemory_isOneLineSayingHowToGiveMoreHeap() {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        int status = Main.outOfMemory(new OutOfMemoryError("Java heap space"),
                new java.io.PrintStream(b, true, java.nio.charset.StandardCharsets.UTF_8));
        String err = b.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(1, status);
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.startsWith("dsmscope: out of memory (Java heap space, heap at most "), err);
        assertTrue(err.contains("DSMSCOPE_JAVA_OPTS=-Xmx"), err);
    }

    @Test
    void importLackey_schedulerLineWithAnOverlongThreadNumber_isABadLineNotAnotherThreadsRecords() throws IOException {
        Path in = dir.resolve("sched.lackey");
        Files.write(in, List.of("--6383--   SCHED[2]:  acquired lock (x)", " L 0400,4",
                "--6383--   SCHED[123456789]:  acquired lock (x)", " L 0500,4"));
        CiatCommandTest.Run r = run("import", "lackey", "--threads-from-sched", in.toString(), "-o",
                dir.resolve("o").toString());
        assertOneLineUserError(r, in + ": line 3: scheduler line names a thread number of more than 7 digits");
    }

    @Test
    void dump_stopsReadingWhenItsOutputIsClosed() throws IOException {
        Path f = dir.resolve("long.1.0");
        try (TraceWriter w = TraceWriter.create(f, TraceWriter.Options.classic())) {
            for (int i = 0; i < 500_000; i++) {
                w.memory(MemType.LOAD, 4, MemType.FIXED, 0x1000 + 4L * i);
            }
        }
        // a pipe whose reader quit (| head): every write after the first 100 KB fails
        long[] attempted = new long[1];
        java.io.OutputStream pipe = new java.io.OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                attempted[0] += len;
                if (attempted[0] > 100_000) {
                    throw new IOException("Broken pipe");
                }
            }
        };
        picocli.CommandLine cl = Main.commandLine();
        cl.setOut(new java.io.PrintWriter(new java.io.PrintStream(pipe, false,
                java.nio.charset.StandardCharsets.UTF_8)));
        java.io.StringWriter err = new java.io.StringWriter();
        cl.setErr(new java.io.PrintWriter(err));
        assertEquals(0, cl.execute("dump", f.toString()));
        assertEquals("", err.toString());
        // the whole dump is about 13 MB of text: it stopped within a few 64 KiB buffers of the failure
        assertTrue(attempted[0] < 1_000_000, "bytes written after the pipe closed: " + attempted[0]);
    }
}
