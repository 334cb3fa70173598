package org.dsmscope.cdat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.cdat.config.PagePolicy;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.memory.MemoryUsageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Page policies (SPEC §6) and the I/O processors' transactions. */
class PlacementAndIoTest {
    @TempDir
    Path dir;

    /** The home node of the n-th processor request (codes 1..6) of the detailed trace, counting from 0. */
    private static String homeOf(List<String> detailed, int n) {
        for (String rec : detailed) {
            String[] f = rec.split(" ");
            if (Integer.parseInt(f[2]) <= 6 && n-- == 0) {
                return f[6];
            }
        }
        throw new AssertionError("no request " + n + " in " + detailed);
    }

    @Test
    void rr1PlacesPageNumberModNodes() {
        Sim s = new Sim(ProtocolTest.machine(4, 1, 2).build(), 4, dir);
        for (int p = 0; p < 8; p++) {
            s.load(0, p, p * 4096L);
        }
        s.end();
        List<String> d = s.detailed();
        for (int p = 0; p < 8; p++) {
            assertEquals(Integer.toString(p % 4), homeOf(d, p), "page " + p);
        }
    }

    @Test
    void firstTouchPlacesAtTheFirstReferencingNode() {
        Sim s = new Sim(ProtocolTest.machine(4, 1, 2).pagePolicy(PagePolicy.FIRST_TOUCH).build(), 4, dir);
        s.load(3, 1, 0).load(1, 2, 4096).load(0, 3, 8).load(2, 4, 4096 + 64);
        CdatResult r = s.end();
        List<String> d = s.detailed();
        assertEquals("3", homeOf(d, 0));
        assertEquals("1", homeOf(d, 1));
        assertEquals("3", homeOf(d, 2), "page 0 stays where it was first touched");
        assertEquals("1", homeOf(d, 3));
        assertEquals(2, r.firstTouchedPages);
    }

    private Path usage(long[][] pages) throws Exception {
        Path f = dir.resolve("sim.p.memory");
        writeUsage(f, pages);
        return f;
    }

    /** Writes memory usage file {@code f} (4 KiB pages) listing {@code {page, code bytes, owner}} per page. */
    static void writeUsage(Path f, long[][] pages) throws java.io.IOException {
        StringWriter w = new StringWriter();
        MemoryUsageFile.writeHeader(w, 4096);
        for (long[] p : pages) {
            MemoryUsageFile.Page pg = new MemoryUsageFile.Page();
            pg.page = p[0];
            pg.touchedBytes = 64;
            pg.codeBytes = p[1];
            pg.owner = (int) p[2];
            MemoryUsageFile.writeRecord(w, pg);
        }
        Files.writeString(f, w.toString());
    }

    @Test
    void oracleReplicatesCodeKeepsPrivatePagesLocalAndSpreadsSharedOnes() throws Exception {
        // page 0 code, page 1 private to thread 3, page 2 shared, page 5 private to thread 2
        usage(new long[][] {{0, 64, -1}, {1, 0, 3}, {2, 0, -1}, {5, 0, 2}});
        Sim s = new Sim(ProtocolTest.machine(4, 1, 2).pagePolicy(PagePolicy.ORACLE).build(), 4, dir);
        s.fetch(1, 1, 0).fetch(2, 2, 0).load(3, 3, 4096).load(0, 4, 8192).load(2, 5, 5 * 4096);
        CdatResult r = s.end();
        List<String> d = s.detailed();
        assertEquals("1", homeOf(d, 0), "code: every node its own replica");
        assertEquals("2", homeOf(d, 1));
        assertEquals("3", homeOf(d, 2), "private page at its thread's node");
        assertEquals("2", homeOf(d, 3), "shared page round-robin");
        assertEquals("2", homeOf(d, 4));
        assertEquals(2, r.aggregate.streams[Counters.INSTRUCTION][Counters.LOCAL_MEMORY]);
    }

    @Test
    void rr2ReplicatesCodeOnly() throws Exception {
        usage(new long[][] {{0, 64, -1}, {1, 0, 3}});
        Sim s = new Sim(ProtocolTest.machine(4, 1, 2).pagePolicy(PagePolicy.RR2).build(), 4, dir);
        s.fetch(3, 1, 0).load(3, 2, 4096);
        s.end();
        List<String> d = s.detailed();
        assertEquals("3", homeOf(d, 0));
        assertEquals("1", homeOf(d, 1), "RR2 leaves private data pages round-robin");
    }

    @Test
    void rr2WithoutAMemoryUsageFileSaysHowToMakeOne() {
        CdatConfig cfg = ProtocolTest.machine(4, 1, 2).pagePolicy(PagePolicy.RR2).build();
        BadInputException e = assertThrows(BadInputException.class, () -> new Sim(cfg, 4, dir));
        assertTrue(e.getMessage().contains("sim.p.memory: no such file: page policy RR2 reads the memory usage file"),
                e.getMessage());
        assertTrue(e.getMessage().contains("dsmscope ciat"), e.getMessage());
    }

    @Test
    void diskReadPurgesCachedCopiesAndDiskWriteRecallsADirtyOne() {
        Sim s = new Sim(ProtocolTest.machine(2, 1, 2).build(), 2, 1, dir, true);
        s.load(1, 1, 64).store(0, 2, 128);
        s.cdat.io(0, 0, 0, 10, true, 64, 8); // disk read into line 1 (cached shared at processor 1)
        s.cdat.io(0, 0, 0, 11, false, 128, 64); // disk write from line 2 (dirty at processor 0)
        s.load(1, 12, 64);
        CdatResult r = s.end();
        List<String> d = s.detailed();
        assertEquals(List.of("10 64 6 -1 0 0 0", "10 64 34 0 0 0 1", "10 64 53 0 1 0 0", "10 64 14 0 0 -1 0",
                "11 128 5 -1 0 0 0", "11 128 31 0 0 0 0", "11 128 56 0 0 0 0", "11 128 11 0 0 -1 0"),
                d.subList(4, 12));
        assertEquals(2, r.aggregate.streams[Counters.IO][Counters.MISS]);
        assertEquals(1, r.aggregate.streams[Counters.IO][Counters.LOCAL_CACHE]);
        assertEquals(List.of("10 64 6 -1 0 0 0 2 0 1 -1", "11 128 5 -1 0 0 0 4 1 0 -1"), s.general("io1"));
    }

    @Test
    void hpuxPrivateRangeIsPlacedAtTheFirstReferenceUnderRr1() {
        CdatOptions o = new CdatOptions();
        o.hpux = true;
        o.check = true;
        o.writeFiles = false;
        Cdat c = new Cdat(ProtocolTest.machine(4, 1, 2).build(), o);
        Sim s = new Sim(c, 4);
        s.load(3, 1, 0x40000000L).load(2, 2, 0x40001000L).load(1, 3, 0x10001000L);
        CdatResult r = s.end();
        // private range: each page where it was first touched (local); elsewhere page mod nodes (0x10001 mod 4 = 1)
        assertEquals(3, r.aggregate.streams[Counters.DATA][Counters.LOCAL_MEMORY]);
        assertEquals(2, r.firstTouchedPages);
    }

    @Test
    void usageFileWithSmallerPagesThanTheConfiguration() throws Exception {
        // the file's 4 KiB pages 2 and 3 make one 8 KiB page 1: private to thread 3 only if both are
        usage(new long[][] {{2, 0, 3}, {3, 0, 3}, {4, 0, 3}, {5, 0, 1}});
        Sim s = new Sim(ProtocolTest.machine(4, 1, 2).pageSize(8192).pagePolicy(PagePolicy.ORACLE).build(), 4, dir);
        s.load(3, 1, 8192).load(1, 2, 16384);
        s.end();
        List<String> d = s.detailed();
        assertEquals("3", homeOf(d, 0), "8 KiB page 1: private to thread 3, at its node");
        assertEquals("2", homeOf(d, 1), "8 KiB page 2: two owners, so shared: page 2 mod 4");
    }
}
