package org.dsmscope.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dsmscope.trace.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "dsmscope-faults 2" text format (version 1 still read): what the writer writes the reader reads back, the
 * faults' bytes in the unit and their data names included; bad input names file and line.
 */
class FaultFormatTest {
    @TempDir
    Path dir;

    @Test
    void writtenRecords_readBackTheSame() throws IOException {
        StringWriter w = new StringWriter();
        FaultSink s = FaultFormat.writer(w, false, 4096, 3, a -> a == 0x10008 ? "org.x.Counter.hits@12" : null);
        s.fault(0, 5, 0, 0x10, true, 0x10008, 0x4a0c, 8, 8);
        s.fault(1, 6, 2, 0x10, false, -1, -1);
        s.sync(9, 2, FaultSink.BARRIER, new long[] {0x10}, new int[] {0}, 1);
        s.fault(2, 9, 2, 0x10, false, 0x10010, 0x4a10, 16, 4);
        Path f = dir.resolve("t.faults");
        Files.writeString(f, w.toString());
        FaultTrace t = FaultFormat.read(f);
        assertEquals(3, t.faults());
        assertEquals(1, t.syncs());
        assertEquals(3, t.processors);
        assertEquals(0x10, t.unit(2));
        assertEquals(2, t.proc(1));
        assertEquals(0x4a0c, t.site[0]);
        assertEquals(-1, t.address[1]);
        assertEquals(FaultSink.BARRIER, t.sKind[0]);
        assertEquals(2, t.sBefore[0], "the sync record comes after two faults");
        assertEquals(8, t.offset[0]);
        assertEquals(8, t.size[0]);
        assertEquals(-1, t.offset[1], "bytes unknown");
        assertEquals("org.x.Counter.hits at offset 12", t.dataName(0));
        assertEquals(null, t.dataName(2));
        assertTrue(w.toString().contains("F 0 5 0 0x10 W 0x10008 0x4a0c 8+8 org.x.Counter.hits@12\n"), w.toString());
        StringWriter again = new StringWriter();
        FaultSink s2 = FaultFormat.writer(again, false, 4096, 3, a -> a == 0x10008 ? "org.x.Counter.hits@12" : null);
        int si = 0;
        for (int i = 0; i <= t.faults(); i++) {
            for (; si < t.syncs() && t.sBefore[si] == i; si++) {
                s2.sync(t.sTime[si], t.sProc[si], t.sKind[si], new long[] {t.pUnit[si]}, new int[] {t.pFault[si]}, 1);
            }
            if (i < t.faults()) {
                s2.fault(i, t.time(i), t.proc(i), t.unit(i), t.isWrite(i), t.address[i], t.site[i], t.offset[i],
                        t.size[i]);
            }
        }
        assertEquals(w.toString(), again.toString());
    }

    private String error(String... records) {
        Path f = Traces.write(dir, "page 4096", 2, records);
        BadInputException e = assertThrows(BadInputException.class, () -> FaultFormat.read(f));
        assertTrue(e.getMessage().startsWith(f + ": line "), e.getMessage());
        return e.getMessage().substring(f.toString().length() + 2);
    }

    @Test
    void timeGoingBackwards_isRefusedWithItsLine() {
        assertEquals("line 5: time 3 goes backwards (the record before is at 7)",
                error("F 0 7 0 0x10 R - -", "F 1 3 1 0x10 R - -"));
    }

    @Test
    void faultOnAProcessorThatDoesNotExist_isRefused() {
        assertEquals("line 4: processor 2 does not exist (processors 2)", error("F 0 7 2 0x10 R - -"));
    }

    @Test
    void syncNamingAnUnknownPage_isRefused() {
        assertEquals("line 5: synchronization names unknown page 0x11: no fault on it before",
                error("F 0 1 0 0x10 W - -", "S 2 1 acquire 0x11:0"));
    }

    @Test
    void writeNoticeThatIsNoWriteFault_isRefused() {
        assertEquals("line 5: write notice 0 is not an earlier write fault on page 0x10",
                error("F 0 1 0 0x10 R - -", "S 2 1 acquire 0x10:0"));
    }

    @Test
    void missingHeader_andBadFields_areRefused() throws IOException {
        Path f = dir.resolve("x.faults");
        Files.writeString(f, "hello\n");
        BadInputException e = assertThrows(BadInputException.class, () -> FaultFormat.read(f));
        assertEquals(f + ": line 1: not a fault trace: the first line must be 'dsmscope-faults 2' (or"
                + " 'dsmscope-faults 1')", e.getMessage());
        assertEquals("line 4: access must be R or W, was 'X'", error("F 0 1 0 0x10 X - -"));
        assertEquals("line 4: fault id 3 out of order: expected 0", error("F 3 1 0 0x10 R - -"));
        assertEquals("line 4: unknown synchronization kind 'lock' (acquire, barrier, wakeup, join, start,"
                + " invalidate)", error("S 1 0 lock"));
    }

    @Test
    void versionOneFaults_readWithoutBytes_andVersionTwoFieldsChecked() throws IOException {
        FaultTrace t = Traces.pages(dir, 2, "F 0 1 0 0x10 W 0x10008 -");
        assertEquals(1, t.faults());
        assertEquals(-1, t.offset[0], "a version-1 fault's bytes are unknown");
        Path f = dir.resolve("v2.faults");
        Files.writeString(f, "dsmscope-faults 2\nunit line 64\nprocessors 2\nF 0 1 0 0x10 W - - 8+8 a%20b@4\n");
        t = FaultFormat.read(f);
        assertEquals(8, t.offset[0]);
        assertEquals("a b at offset 4", t.dataName(0), "spaces escaped as %20");
        assertEquals("line 4: a fault has 10 fields: F ID TIME PROC UNIT R|W ADDRESS SITE OFFSET+SIZE DATA",
                errorV2("F 0 1 0 0x10 W - -"));
        assertEquals("line 4: '60+8' is not OFFSET+SIZE within the line of 64 bytes",
                errorV2("F 0 1 0 0x10 W - - 60+8 -"));
        assertEquals("line 4: data 'hits' is not NAME@OFFSET", errorV2("F 0 1 0 0x10 W - - 0+8 hits"));
    }

    private String errorV2(String record) throws IOException {
        Path f = dir.resolve("bad2.faults");
        Files.writeString(f, "dsmscope-faults 2\nunit line 64\nprocessors 2\n" + record + "\n");
        BadInputException e = assertThrows(BadInputException.class, () -> FaultFormat.read(f));
        return e.getMessage().substring(f.toString().length() + 2);
    }
}
