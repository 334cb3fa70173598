package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No command writes over a file it reads in the same run, nor two of its outputs over each other (real paths,
 * links followed), and a trace the project wrote that was cut short is an error, not other figures (issue 23
 * items 1 and 2).
 */
class InputsSafeTest {
    @TempDir
    Path dir;

    private String gen() {
        CiatCommandTest.Run g = CiatCommandTest.run("gen", "forkjoin", "--threads", "2", "--instructions", "300",
                "--name", "base", "-o", dir.toString());
        assertEquals(0, g.status(), g.err());
        return dir.resolve("base.2").toString();
    }

    private static void assertRefused(CiatCommandTest.Run r, String named) {
        assertEquals(2, r.status(), r.out() + r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("dsmscope: " + named + ": "), r.err());
        assertFalse(r.out().contains("wrote"), r.out());
    }

    @Test
    void outputOverAnInputOrAnotherOutput_isRefusedBeforeAnyWork_andNothingChanges() throws IOException {
        String base = gen();
        Path cfg = Files.copy(CdatCommandTest.config("dsm4.cfg"), dir.resolve("dsm4.cfg"));
        assertEquals(0, CiatCommandTest.run("ciat", base).status());
        Path report = Path.of(base + ".ciat_report");
        Path link = Files.createSymbolicLink(dir.resolve("link"), Path.of("base.2.1"));
        Path sub = Files.createDirectories(dir.resolve("sub"));
        String dotted = sub.resolve("../base.2.0").toString();
        List<Path> watched = List.of(Path.of(base + ".0"), Path.of(base + ".1"), report, cfg);
        List<byte[]> before = new ArrayList<>();
        for (Path p : watched) {
            before.add(Files.readAllBytes(p));
        }
        String[][] cases = {
            {base + ".0", "ciat", base, "--json", base + ".0"},
            {dotted, "ciat", base, "--json", dotted},
            {link.toString(), "ciat", base, "--json", link.toString()},
            {report.toString(), "ciat", base, "--json", report.toString()},
            {base + ".1", "cdat", base, cfg.toString(), "--json", base + ".1"},
            {cfg.toString(), "cdat", base, cfg.toString(), "--json", cfg.toString()},
            {cfg.toString(), "sweep", base, cfg.toString(), "--vary", "protocol=1,2", "--json", cfg.toString()},
            {base + ".0", "export", "chrome", base, "-o", base + ".0"},
            {base + ".memory", "cdat", base, cfg.toString(), "--json", base + ".memory"},
        };
        for (String[] c : cases) {
            assertRefused(CiatCommandTest.run(Arrays.copyOfRange(c, 1, c.length)), c[0]);
            for (int i = 0; i < watched.size(); i++) {
                assertArrayEquals(before.get(i), Files.readAllBytes(watched.get(i)), watched.get(i) + " changed");
            }
        }
    }

    @Test
    void importLackey_neverWritesOverItsLogOrAnAddressFile_norLeavesAPartialSet() throws IOException {
        byte[] log;
        try (java.io.InputStream in = getClass().getResourceAsStream("/pthreads-2.lackey")) {
            log = in.readAllBytes();
        }
        Path asOutput = Files.write(dir.resolve("imp.1.0"), log);
        Path target = Files.write(dir.resolve("two.3.1"), log);
        Path link = Files.createSymbolicLink(dir.resolve("run.lackey"), Path.of("two.3.1"));
        Path sync = Files.writeString(dir.resolve("syn.1.0"), "0x1000+8\n");
        Path plain = Files.write(dir.resolve("plain.lackey"), log);
        String[][] cases = {
            {asOutput.toString(), "import", "lackey", asOutput.toString(), "--one-thread", "-o",
                dir.resolve("imp").toString()},
            {link.toString(), "import", "lackey", link.toString(), "-o", dir.resolve("two").toString()},
            {sync.toString(), "import", "lackey", plain.toString(), "--one-thread", "--sync-address-file",
                sync.toString(), "-o", dir.resolve("syn").toString()},
        };
        for (String[] c : cases) {
            CiatCommandTest.Run r = CiatCommandTest.run(Arrays.copyOfRange(c, 1, c.length));
            assertRefused(r, c[0]);
            assertTrue(r.err().contains("an output never replaces an input"), r.err());
        }
        assertArrayEquals(log, Files.readAllBytes(asOutput));
        assertArrayEquals(log, Files.readAllBytes(target));
        assertEquals("0x1000+8\n", Files.readString(sync));
        // a log that fails at its last line leaves no file of the set and no temporary file behind
        Path bad = Files.write(dir.resolve("bad.lackey"), log);
        Files.write(bad, "junk!\n".getBytes(), java.nio.file.StandardOpenOption.APPEND);
        List<Path> before;
        try (var s = Files.list(dir)) {
            before = s.sorted().toList();
        }
        CiatCommandTest.Run r = CiatCommandTest.run("import", "lackey", bad.toString(), "-o",
                dir.resolve("out").toString());
        assertRefused(r, bad.toString());
        try (var s = Files.list(dir)) {
            assertEquals(before, s.sorted().toList());
        }
    }

    @Test
    void genTraceCutAtARecordBoundary_isAnErrorNamingTheFile() throws IOException {
        String base = gen();
        Path f = Path.of(base + ".1");
        byte[] b = Files.readAllBytes(f);
        Files.write(f, Arrays.copyOf(b, b.length - 8)); // the end record lost: every record before it is whole
        for (String cmd : new String[] {"ciat", "export"}) {
            CiatCommandTest.Run r = cmd.equals("ciat") ? CiatCommandTest.run("ciat", base)
                    : CiatCommandTest.run("export", "chrome", base);
            assertRefused(r, f.toString());
            assertTrue(r.err().contains("without the end record"), r.err());
        }
    }

    @Test
    void dumpOfAClassicTrace_warnsOnceAfterTheRecords_dumpOfAGenTraceDoesNot() {
        String base = gen();
        String classic = dir.resolve("cl").toString();
        assertEquals(0, CiatCommandTest.run("convert", "--classic", base, "-o", classic).status());
        for (String[] args : new String[][] {{"dump", classic + ".2"}, {"dump", "--summary", classic + ".2"}}) {
            CiatCommandTest.Run r = CiatCommandTest.run(args);
            assertEquals(0, r.status(), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("dsmscope: warning: " + classic + ".2.0, " + classic + ".2.1: cannot be"
                    + " verified complete"), r.err());
            assertTrue(r.out().startsWith("dsmscope-dump"), r.out());
        }
        CiatCommandTest.Run r = CiatCommandTest.run("dump", base);
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
    }

    @Test
    void classicCallTrace_isNamedInTheWarning() {
        String base = gen();
        String classic = dir.resolve("cl").toString();
        assertEquals(0, CiatCommandTest.run("convert", "--classic", base, "-o", classic).status());
        CiatCommandTest.Run r = CiatCommandTest.run("ciat", classic + ".2", base);
        assertEquals(0, r.status(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("dsmscope: warning: " + classic + ".2.0, " + classic + ".2.1: cannot be"
                + " verified complete"), r.err());
    }

    @Test
    void classicTrace_isAnalysedWithAWarning_convertedOneWithout() {
        String base = gen();
        String classic = dir.resolve("cl").toString();
        assertEquals(0, CiatCommandTest.run("convert", "--classic", base, "-o", classic).status());
        CiatCommandTest.Run r = CiatCommandTest.run("ciat", classic + ".2");
        assertEquals(0, r.status(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("dsmscope: warning: " + classic + ".2.0, " + classic + ".2.1: cannot be"
                + " verified complete"), r.err());
        CiatCommandTest.Run again = CiatCommandTest.run("convert", classic + ".2", "-o", dir.resolve("back")
                .toString());
        assertTrue(again.err().contains("cannot be verified complete"), again.err());
        CiatCommandTest.Run back = CiatCommandTest.run("ciat", dir.resolve("back.2").toString());
        assertEquals(0, back.status(), back.err());
        assertEquals("", back.err());
        assertEquals(r.out().lines().findFirst(), back.out().lines().findFirst());
    }
}
