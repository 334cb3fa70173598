package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.record.Recorder;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values that must be refused and messages that must say what happened (issue 23 items 5, 7 and 8): each is one
 * line naming the input or option, exit 2, before any work; unwritable outputs are found before the work, as root
 * too (a probe file, not the permission bits).
 */
class RefusedValuesTest {
    @TempDir
    Path dir;

    private static CiatCommandTest.Run assertOneLine(String expected, String... args) {
        CiatCommandTest.Run r = CiatCommandTest.run(args);
        String cmd = String.join(" ", args);
        assertEquals(2, r.status(), cmd + ": " + r.out() + r.err());
        assertFalse(r.err().contains("\tat "), cmd + ": " + r.err());
        assertEquals(1, r.err().lines().count(), cmd + ": " + r.err());
        assertTrue(r.err().startsWith("dsmscope: ") && r.err().contains(expected), cmd + ": " + r.err());
        return r;
    }

    /** A small, complete recording of two processes. */
    private Path recording() throws IOException {
        return recording(dir.resolve("r.dsmrec"), 100);
    }

    /** A complete recording {@code rec} of two processes advancing an eventcount {@code events} times. */
    static Path recording(Path rec, int events) throws IOException {
        try (Recorder r = new Recorder(rec)) {
            EventBuffer b = new EventBuffer(events);
            for (int i = 0; i < events; i++) {
                b.add(1_000_000L * i, i % 2, EventType.ADVANCE.code, -1, 0, i, 0, 10, 0);
            }
            r.process(0, "m0");
            r.process(1, "m1");
            r.accept(b);
        }
        return rec;
    }

    private String gen() {
        assertEquals(0, CiatCommandTest.run("gen", "forkjoin", "--threads", "2", "--instructions", "300", "--name",
                "g", "-o", dir.toString()).status());
        return dir.resolve("g.2").toString();
    }

    @Test
    void monitorSummary_jsonToAnUnwritablePlace_isOneLineBeforeTheSummary() throws IOException {
        Path rec = recording();
        assertOneLine("/nonexistent/x.json: cannot write: folder /nonexistent does not exist", "monitor", "summary",
                rec.toString(), "--json", "/nonexistent/x.json");
        assertOneLine(rec + ": is an input of this run", "monitor", "summary", rec.toString(), "--json",
                rec.toString());
        Path json = dir.resolve("s.json");
        assertEquals(0, CiatCommandTest.run("monitor", "summary", rec.toString(), "--json", json.toString()).status());
        assertTrue(Files.readString(json).contains("\""), "JSON written");
        assertFalse(Files.exists(dir.resolve("s.json.partial")), "through a partial file renamed into place");
    }

    @Test
    void outputsWhereNoFileCanBeCreated_areRefusedBeforeTheWork_asRootToo() {
        Path proc = Path.of("/proc");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(proc), "no /proc");
        String set = gen();
        assertOneLine("cannot write traces /proc/x.*: directory /proc", "trace", "-o", "/proc/x", "--", "java",
                "-cp", dir.toString(), "NotEvenThere");
        assertOneLine("/proc/x.2.0: cannot write: folder /proc", "convert", set, "-o", "/proc/x");
        assertOneLine("/proc/x.1.0: cannot write: folder /proc", "import", "lackey", set + ".0", "-o", "/proc/x");
        assertOneLine("/proc/x.rec: cannot write: folder /proc", "dsm", "run", "--record", "/proc/x.rec", "--",
                "org.dsmscope.examples.dsm.Sor");
        assertOneLine("/proc/x: cannot", "demo", "-o", "/proc/x");
        assertOneLine("/proc/x.json: cannot write: folder /proc", "ciat", set, "--json", "/proc/x.json");
    }

    @Test
    void valuesThatMustBeRefused_are() throws IOException {
        String set = gen();
        Path rec = recording();
        Path cfg = CdatCommandTest.config("dsm4.cfg");
        assertOneLine("--loss must be in [0, 1), got NaN", "dsm", "run", "--loss", "NaN", "--",
                "org.dsmscope.examples.dsm.Sor");
        assertOneLine("--timeout must be at least 1 second, got 0", "dsm", "run", "--timeout", "0", "--",
                "org.dsmscope.examples.dsm.Sor");
        assertOneLine("option --threshold-ms: value -1 out of range", "monitor", "summary", rec.toString(),
                "--threshold-ms", "-1");
        assertOneLine("option --threshold-ms: value 9223372036855 out of range", "monitor", "summary",
                rec.toString(), "--threshold-ms", "9223372036855");
        CiatCommandTest.Run overflow = CiatCommandTest.run("monitor", "summary", rec.toString(), "--threshold-ms",
                "99999999999999999999");
        assertEquals(2, overflow.status(), overflow.err());
        assertTrue(overflow.err().startsWith("dsmscope: Invalid value for option '--threshold-ms'"), overflow.err());
        assertOneLine("ciat: too many trace sets", "ciat", set, set, set);
        assertOneLine("export chrome: too many trace sets", "export", "chrome", set, set, set);
        assertOneLine("--vary protocol=1,1: value '1' given twice", "sweep", set, cfg.toString(), "--vary",
                "protocol=1,1");
        for (String text : new String[] {"", "# only a comment\n\n   # another\n"}) {
            Path empty = Files.writeString(dir.resolve("empty.cfg"), text);
            assertOneLine(empty + ": no configuration items", "cdat", set, empty.toString());
        }
        byte[] b = Files.readAllBytes(rec);
        b[15] = 4; // flags 0x0004, which version 1 does not define
        Path flagged = Files.write(dir.resolve("flags.dsmrec"), b);
        assertOneLine(flagged + ": byte 14: unknown recording flags 0x0004", "monitor", "summary",
                flagged.toString());
    }

    @Test
    void messagesSayWhatHappened() throws IOException {
        String set = gen();
        assertOneLine(dir + ": is a directory, not a recording", "monitor", "summary", dir.toString());
        assertOneLine("/nonexistent.cfg: no such CDAT configuration file", "trace", "--type", "to_cdat", "--config",
                "/nonexistent.cfg", "-o", dir.resolve("t").toString(), "--", "java", "-cp", dir.toString(), "M");
        CiatCommandTest.Run nul = assertOneLine("value '4\\x00x' is not a whole number", "cdat", set,
                Files.writeString(dir.resolve("nul.cfg"), "nodes = 4\0x\n").toString());
        assertFalse(nul.err().contains("\0"), "NUL echoed raw");
        byte[] r = Files.readAllBytes(recording());
        for (int i = 17; i < 21; i++) {
            r[i] = (byte) 0xff; // the first block's length: 0xffffffff
        }
        Path bad = Files.write(dir.resolve("len.dsmrec"), r);
        assertOneLine("block length 4294967295 runs past the end", "monitor", "summary", bad.toString());
        // a barrier for more threads than the set has: refused without --skip-bad-records, not "continuing"
        String base = dir.resolve("b.2").toString();
        for (int t = 0; t < 2; t++) {
            try (TraceWriter w = TraceWriter.create(Path.of(base + "." + t),
                    new TraceWriter.Options().endRecord(true))) {
                w.memory(MemType.LOAD, 4, MemType.FIXED, 0x1000);
                w.call(CallType.BARRIER, 1, 2, 0x9000, 5, 0, 0);
                w.finish();
            }
        }
        CiatCommandTest.Run barrier = assertOneLine("barrier 0x9000 for 5 threads, but the trace set has 2 (with"
                + " --skip-bad-records: taken as a barrier of all active threads)", "ciat", "-p", base);
        assertFalse(barrier.err().contains("continuing"), barrier.err());
    }

    /**
     * The {@code -Ddsmscope.*} properties of a partitioned run: a malformed or out-of-range value is refused with one
     * line naming the property and the value, exit 2, before any output; a good one runs.
     */
    @Test
    void malformedDsmscopeProperties_areRefusedNamingThemselves_goodOnesRun() throws IOException {
        String prefix = gen();
        String[][] bad = {
            {"dsmscope.routers", "two", "-Ddsmscope.routers=two: not a whole number (at least 1)"},
            {"dsmscope.routers", "0", "-Ddsmscope.routers=0: out of range (at least 1)"},
            {"dsmscope.partitionsAtOnce", "-1", "-Ddsmscope.partitionsAtOnce=-1: out of range (at least 0)"},
            {"dsmscope.chunkBytes", "4", "-Ddsmscope.chunkBytes=4: out of range (at least 8)"},
            {"dsmscope.streamsByAddress", "yes", "-Ddsmscope.streamsByAddress=yes: neither true nor false"},
            {"dsmscope.partitions.mode", "replay", "-Ddsmscope.partitions.mode=replay: not one of routed, replays"},
        };
        for (String[] b : bad) {
            System.setProperty(b[0], b[1]);
            try {
                assertOneLine(b[2], "ciat", "--no-progress", "--partitions", "2", prefix);
                assertFalse(Files.exists(Path.of(prefix + ".ciat_report")), b[0]);
            } finally {
                System.clearProperty(b[0]);
            }
        }
        System.setProperty("dsmscope.routers", "1");
        System.setProperty("dsmscope.partitions.mode", "routed");
        try {
            assertEquals(0, CiatCommandTest.run("ciat", "--no-progress", "--partitions", "2", prefix).status());
        } finally {
            System.clearProperty("dsmscope.routers");
            System.clearProperty("dsmscope.partitions.mode");
        }
    }
}
