package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.Codec;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceDump;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.TraceWriter;
import picocli.CommandLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End-to-end tests of {@code dsmscope dump}, {@code import lackey} and {@code convert} through the CLI. */
class TraceCommandsTest {
    @TempDir
    Path dir;

    private String out;
    private String err;

    private int run(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(o));
        cl.setErr(new PrintWriter(e));
        int status = cl.execute(args);
        out = o.toString();
        err = e.toString();
        return status;
    }

    private Path hexFile(String name, String hex) throws IOException {
        Path f = dir.resolve(name);
        Files.write(f, HexFormat.of().parseHex(hex.replace(" ", "")));
        return f;
    }

    private Path seedTrace() throws IOException {
        Path f = dir.resolve("seed.1.0");
        try (TraceWriter w = TraceWriter.create(f, TraceWriter.Options.classic())) {
            w.call(CallType.SPAWN, 10, 20, 1, 4, 0, 0);
            w.memory(MemType.LOAD, 4, MemType.FIXED, 0x4c00);
            w.memory(MemType.STORE, 8, MemType.FLOAT, 0x4c08);
            w.procStart(0x4c00);
            w.branch(0x4c18, 0x4d20);
            w.procCall(0x542c, 0x5630);
        }
        return f;
    }

    @Test
    void dump_printsOneLinePerRecordInTheDocumentedFormat() throws IOException {
        Path f = seedTrace();
        assertEquals(0, run("dump", f.toString()), err);
        assertEquals(String.join("\n", TraceDump.FORMAT,
                "file " + f + " order big format classic codec none",
                "0 call spawn start 10 end 20 args 1 4 0 0",
                "48 load 4 fixed 0x4c00",
                "56 store 8 float 0x4c08",
                "64 proc_start 0x4c00",
                "72 branch 0x4c18 -> 0x4d20",
                "80 proc_call 0x542c -> 0x5630",
                "end records 6 skipped 0", ""), out);
    }

    @Test
    void dump_ofATraceSetPrefix_readsEveryThreadFile() throws IOException {
        seedTrace();
        assertEquals(0, run("dump", "--summary", dir.resolve("seed.1").toString()), err);
        assertTrue(out.startsWith(TraceDump.SUMMARY_FORMAT + "\nfile "), out);
        assertTrue(out.contains("\nmemory.load 1\nmemory.store 1\ncall 1\ncall.spawn 1\nproc_start 1\nbranch 1\n"
                + "proc_call 1\nfetch 0\nrecords 6\nskipped 0\n"), out);
    }

    @Test
    void dump_fetchAndWideRecords() throws IOException {
        Path f = dir.resolve("x");
        try (TraceWriter w = TraceWriter.create(f, new TraceWriter.Options().addr64(true).codec(Codec.ZSTD))) {
            w.fetch(0x1fff000778L, 3);
            w.memory(MemType.LOAD, 10, MemType.FLOAT, 0x20);
        }
        assertEquals(0, run("dump", f.toString()));
        assertTrue(out.contains("format extended+addr64 codec zstd\n16 fetch 3 0x1fff000778\n32 load 10 float 0x20 wide\n"),
                out);
    }

    @Test
    void badRecord_isOneLineExitTwo_andSkippingCountsIt() throws IOException {
        Path f = hexFile("bad", "00000040 00001000 20000000 00000000 00000181 00000008");
        assertEquals(2, run("dump", f.toString()));
        assertEquals("dsmscope: " + f + ": byte offset 8: unknown record tag 20000000\n", err);
        assertEquals(0, run("dump", "--skip-bad-records", f.toString()));
        assertTrue(out.endsWith("end records 2 skipped 1\n"), out);
        // a classic (headerless) file: the records it holds, and the warning that it cannot be verified complete
        assertEquals("dsmscope: " + f + ": skipped 1 bad record, the first at byte offset 8: unknown record tag"
                + " 20000000\ndsmscope: warning: " + f + ": cannot be verified complete", err.substring(0,
                err.indexOf(" (no end record")));
    }

    @Test
    void everyBadTraceInput_exitsTwoWithOneLine() throws IOException {
        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {hexFile("trunc", "00000040 00001000 0000").toString(), "byte offset 8: truncated record"});
        cases.add(new String[] {hexFile("missing", "00001030 00000000 00001031 00000000 00001033 00000000"
                + " 00001034 00000000 00001035 00000000").toString(), "part 2 expected at byte offset 16, found part 3"});
        cases.add(new String[] {hexFile("empty", "").toString(), "byte offset 0: empty trace file"});
        cases.add(new String[] {dir.resolve("nothere").toString(), "no such trace file"});
        for (String[] c : cases) {
            assertEquals(2, run("dump", c[0]), c[0]);
            assertEquals(1, err.lines().count(), err);
            assertTrue(err.startsWith("dsmscope: ") && err.contains(c[1]), err);
            assertFalse(err.contains("Exception"), err);
        }
        Path list = dir.resolve("l");
        Files.write(list, List.of("trunc", "gone"));
        assertEquals(2, run("dump", "-t", list.toString()));
        assertEquals("dsmscope: " + list + ": line 2: " + dir.resolve("gone") + ": no such trace file\n", err);
    }

    private Path lackeyFixture() throws IOException {
        Path f = dir.resolve("run.lackey");
        try (InputStream in = getClass().getResourceAsStream("/pthreads-2.lackey")) {
            Files.copy(in, f);
        }
        return f;
    }

    @Test
    void importLackey_writesOneFilePerSchedulerThread() throws IOException {
        Path in = lackeyFixture();
        String name = dir.resolve("pt").toString();
        assertEquals(0, run("import", "lackey", "--threads-from-sched", in.toString(), "-o", name), err);
        for (int t = 0; t < 3; t++) {
            assertTrue(Files.exists(Path.of(name + ".3." + t)));
        }
        // the next step it names works (without -p the replay refuses threads that no spawn started)
        String hint = "analyse it with: dsmscope ciat -p " + name + ".3";
        assertTrue(err.contains(hint), err);
        assertEquals(0, run("ciat", "-p", name + ".3"), err);
        assertEquals(0, run("dump", "--summary", name + ".3"));
        long fetches = Files.readAllLines(in).stream().filter(l -> l.startsWith("I  ")).count();
        assertTrue(out.contains("total 3 files\n"), out);
        assertTrue(out.endsWith("fetch " + fetches + "\nrecords " + out.substring(out.lastIndexOf("records ") + 8)), out);
    }

    /** {@code import lackey --progress}: the final progress line gives the records imported. */
    @Test
    void importLackey_progress_endsWithTheRecordsImported() throws IOException {
        Path in = lackeyFixture();
        String name = dir.resolve("pg").toString();
        assertEquals(0, run("import", "lackey", "--progress", "--threads-from-sched", in.toString(), "-o", name), err);
        String n = err.substring(err.indexOf("dsmscope: imported ") + 19).split(" ")[0];
        assertTrue(err.contains("import: " + n + " records imported, "), err);
        assertTrue(Long.parseLong(n) > 0, err);
        assertEquals(0, run("import", "lackey", in.toString(), "-o", dir.resolve("q").toString()), err);
        assertTrue(err.startsWith("dsmscope: imported "), "quiet without a terminal: " + err);
    }

    /**
     * Threads from the scheduler lines are the default (before, a log of several threads imported without
     * {@code --threads-from-sched} quietly became one thread); {@code --one-thread} asks for one file, and the two
     * options exclude each other.
     */
    @Test
    void importLackey_splitsThreadsByDefault_andOneThreadOnRequest() throws IOException {
        Path in = lackeyFixture();
        String name = dir.resolve("d").toString();
        assertEquals(0, run("import", "lackey", in.toString(), "-o", name), err);
        assertTrue(err.contains("into " + name + ".3 (3 threads)"), err);
        assertTrue(err.contains("scheduler hand-offs keep Valgrind's order"), err);
        String flagged = dir.resolve("f").toString();
        assertEquals(0, run("import", "lackey", "--threads-from-sched", in.toString(), "-o", flagged), err);
        for (int t = 0; t < 3; t++) {
            assertEquals(-1L, Files.mismatch(Path.of(name + ".3." + t), Path.of(flagged + ".3." + t)), "file " + t);
        }
        assertEquals(0, run("import", "lackey", "--one-thread", in.toString(), "-o", name), err);
        assertTrue(err.contains("into " + name + ".1 (1 thread)"), err);
        assertEquals(2, run("import", "lackey", "--one-thread", "--threads-from-sched", in.toString(), "-o", name));
        assertTrue(err.contains("--one-thread and --threads-from-sched exclude each other"), err);
    }

    /**
     * A two-thread log analysed end to end (no Valgrind needed): CIAT counts the communication of the log's own
     * order (thread 1 reads the word thread 0 stored before the switch: RAW; the two locked read-modify-writes of
     * one lock word: RAW + WAW), and the report and JSON say what such a trace cannot know. Replayed by pseudo clock
     * (before the hand-offs), thread 1's load came before thread 0's store: RAW 1, WAR 1, WAW 1. With the lock word
     * named, its four accesses are left out.
     */
    @Test
    void importLackey_thenCiat_countsTheLogsOrder_andSaysWhatTheTraceCannotKnow() throws IOException {
        Path in = dir.resolve("two.lackey");
        Files.write(in, List.of(" S 100,8", " S 108,8", " S 110,8", "--9--   SCHED[2]:  acquired lock (x)", " L 110,8",
                " M 200,4", "--9--   SCHED[1]:  acquired lock (x)", " M 200,4"));
        String name = dir.resolve("two").toString();
        assertEquals(0, run("import", "lackey", in.toString(), "-o", name), err);
        assertTrue(err.contains("dsmscope: 2 scheduler hand-offs keep Valgrind's order"), err);
        Path json = dir.resolve("two.json");
        assertEquals(0, run("ciat", "-p", "--json", json.toString(), name + ".2"), err);
        String report = Files.readString(Path.of(name + ".2.ciat_report"));
        assertTrue(report.contains("RxTxL40: RAW 2 ") && report.contains("RxTxL41: WAR 0 ")
                && report.contains("RxTxL42: WAW 1 ") && report.contains("RxTxL43: RAR 0 "), report);
        List<String> head = report.lines().limit(4).toList();
        assertTrue(head.get(2).startsWith("# recorded_order: handoffs 2: the replay follows one recorded"
                + " interleaving (Valgrind runs one thread at a time); no lock, barrier or thread creation of the"
                + " program is recorded, so phases and waits are those of that serialised run"), head.toString());
        assertEquals("# sync_variables: named_ranges 0: none named: lock words count as ordinary data (name them on"
                + " the import: dsmscope import lackey --sync-addresses)", head.get(3));
        String j = Files.readString(json).replaceAll("\\s", "");
        assertTrue(j.contains("\"processors\":2,\"recordedOrder\":{\"handoffs\":2,\"syncRanges\":0,\"order\":"), j);

        assertEquals(0, run("import", "lackey", "--sync-addresses", "0x200", in.toString(), "-o", name), err);
        assertEquals(0, run("ciat", "-p", "--json", json.toString(), name + ".2"), err);
        report = Files.readString(Path.of(name + ".2.ciat_report"));
        assertTrue(report.contains("RxTxL40: RAW 1 ") && report.contains("RxTxL42: WAW 0 ")
                && report.contains(" sync_excluded 4\n"), report);
        assertTrue(report.contains("\n# sync_variables: named_ranges 1: accesses starting in the named ranges are"
                + " left out of communication; other lock words count as ordinary data\n"), report);
        assertEquals(2, run("import", "lackey", "--sync-addresses", "0x200+0", in.toString(), "-o", name));
        assertEquals("dsmscope: option --sync-addresses: '0x200+0': the byte count after '+' must be 1 to 65536\n",
                err);
    }

    @Test
    void importLackey_badLine_namesLine() throws IOException {
        Path in = dir.resolve("x.lackey");
        Files.write(in, List.of(" L 10,4", "I  zz,4"));
        assertEquals(2, run("import", "lackey", "--threads-from-sched", in.toString(), "-o", dir.resolve("o").toString()));
        assertTrue(err.startsWith("dsmscope: " + in + ": line 2: bad address"), err);
        assertEquals(0, run("import", "lackey", "--skip-bad-records", in.toString(), "-o", dir.resolve("o").toString()));
        assertTrue(err.contains("skipped 1 bad line"), err);
    }

    private static List<String> records(Path f) throws IOException {
        List<String> l = new ArrayList<>();
        try (TraceReader r = TraceReader.open(f)) {
            StringBuilder s = new StringBuilder();
            while (r.next() != RecordKind.EOF) {
                s.setLength(0);
                TraceDump.formatRecord(r, s);
                l.add(s.substring(s.indexOf(" ") + 1)); // without the offset, which a header shifts
            }
        }
        return l;
    }

    @Test
    void convert_preservesEveryRecordAcrossTypesOrdersAndVariants() throws IOException {
        Path in = lackeyFixture();
        String name = dir.resolve("pt").toString();
        assertEquals(0, run("import", "lackey", "--threads-from-sched", in.toString(), "-o", name));
        String[][] steps = {
            {"--type", "compressed", "--codec", "lz4", "--byte-order", "little"},
            {"--type", "compressed"},
            {"--type", "normal", "--byte-order", "big"},
        };
        String prev = name + ".3";
        for (int i = 0; i < steps.length; i++) {
            String next = dir.resolve("c" + i).toString();
            List<String> args = new ArrayList<>(List.of("convert", prev, "-o", next));
            args.addAll(List.of(steps[i]));
            assertEquals(0, run(args.toArray(new String[0])), err);
            for (int t = 0; t < 3; t++) {
                assertEquals(records(Path.of(name + ".3." + t)), records(Path.of(next + ".3." + t)));
            }
            prev = next + ".3";
        }
        try (TraceReader r = TraceReader.open(Path.of(dir.resolve("c0") + ".3.0"))) {
            assertEquals(ByteOrder.LITTLE_ENDIAN, r.order());
            assertEquals(Codec.LZ4, r.codec());
        }
        assertEquals(Files.size(Path.of(name + ".3.1")), Files.size(Path.of(dir.resolve("c2") + ".3.1")));
        assertEquals(-1L, Files.mismatch(Path.of(name + ".3.1"), Path.of(dir.resolve("c2") + ".3.1")));
    }

    /** {@code convert --progress}: a progress line even here, ending with the count of records converted. */
    @Test
    void convert_progress_endsWithTheRecordsConverted() throws IOException {
        Path f = seedTrace();
        assertEquals(0, run("convert", "--progress", dir.resolve("seed.1").toString(), "-o",
                dir.resolve("pr").toString()), err);
        long n = records(f).size();
        // the final line always; lines before it only if the ticker got to run before the end
        assertTrue(err.startsWith("convert: " + n + " records converted, ") || err.startsWith("\rconvert: "), err);
        assertTrue(err.contains("convert: " + n + " records converted, "), err);
        assertTrue(err.contains("dsmscope: converted " + n + " records into "), err);
        assertEquals(records(f), records(dir.resolve("pr.1.0"))); // record for record (plus header and end record)
        assertEquals(0, run("convert", dir.resolve("seed.1").toString(), "-o", dir.resolve("q").toString()), err);
        assertTrue(err.startsWith("dsmscope: converted "), "quiet without a terminal: " + err);
    }

    @Test
    void convert_classicToExtendedAndBack_isExact() throws IOException {
        Path f = seedTrace();
        assertEquals(0, run("convert", dir.resolve("seed.1").toString(), "-o", dir.resolve("ext").toString(),
                "--extended", "--byte-order", "little"));
        assertEquals(records(f), records(dir.resolve("ext.1.0")));
        assertEquals(0, run("convert", dir.resolve("ext.1.0").toString(), "-o", dir.resolve("back").toString(),
                "--classic"));
        assertEquals(-1L, Files.mismatch(f, dir.resolve("back.1.0")));
    }

    @Test
    void convert_toClassic_refusesA64BitAddressWithOneLine() throws IOException {
        Path in = lackeyFixture();
        String name = dir.resolve("pt").toString();
        assertEquals(0, run("import", "lackey", "--one-thread", in.toString(), "-o", name));
        assertEquals(2, run("convert", name + ".1", "-o", dir.resolve("cl").toString(), "--classic"));
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.contains("byte offset 8") && err.contains("classic") || err.contains("extended"), err);
    }

    @Test
    void convert_listFileNamingAMissingFile_exitsTwo() throws IOException {
        seedTrace();
        Path list = dir.resolve("run.list");
        Files.write(list, List.of("seed.1.0", "seed.1.1"));
        assertEquals(2, run("convert", "-t", list.toString(), "-o", dir.resolve("o").toString()));
        assertTrue(err.contains("line 2") && err.contains("no such trace file"), err);
    }

    @Test
    void helpOfEveryTraceCommand_works() {
        for (String[] c : new String[][] {{"dump", "--help"}, {"convert", "--help"}, {"import", "lackey", "--help"}}) {
            assertEquals(0, run(c));
            assertTrue(out.contains("Usage: dsmscope"), out);
        }
    }

    @Test
    void convert_ontoItsOwnInput_isRefused() throws IOException {
        Path f = seedTrace();
        byte[] before = Files.readAllBytes(f);
        assertEquals(2, run("convert", dir.resolve("seed.1").toString(), "-o", dir.resolve("seed").toString()));
        assertTrue(err.contains("would overwrite its own input"), err);
        assertEquals(-1L, Files.mismatch(f, dir.resolve("seed.1.0")));
        assertEquals(before.length, Files.size(f));
    }

    @Test
    void unknownCodecOrType_isAUsageError() throws IOException {
        seedTrace();
        assertEquals(2, run("convert", dir.resolve("seed.1").toString(), "-o", dir.resolve("o").toString(),
                "--type", "compressed", "--codec", "gzip"));
        assertTrue(err.contains("unknown codec 'gzip'"), err);
        assertEquals(2, run("convert", dir.resolve("seed.1").toString(), "-o", dir.resolve("o").toString(),
                "--type", "to_ciat"));
        assertTrue(err.contains("collection modes"), err);
    }
}
