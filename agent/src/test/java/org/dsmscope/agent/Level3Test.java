package org.dsmscope.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dsmscope.progs.BranchProg;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.sidecar.SymbolFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Level 3: procedure starts, calls and taken branches over the synthetic code address space. */
class Level3Test {
    @TempDir
    Path dir;

    @Test
    void loopCallAndSwitch_giveBranchRecordsWithSlotPlusFour() throws Exception {
        Traced t = Traced.run(dir, "level=3", BranchProg.class);
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 21"), t.out);
        Map<String, long[]> methods = new HashMap<>();
        SymbolFile sym = SymbolFile.read(dir.resolve("tr.1.symbols"));
        for (int m = 0; m < sym.size(); m++) {
            methods.put(sym.className(m).replace('.', '/') + "." + sym.methodName(m) + sym.descriptor(m),
                    new long[] {sym.start(m), sym.end(m)});
        }
        long[] main = methods.get("org/dsmscope/progs/BranchProg.main([Ljava/lang/String;)V");
        long[] twice = methods.get("org/dsmscope/progs/BranchProg.twice(I)I");
        assertTrue(main[1] < 0x1000_0000L, "code below 256 MiB");
        int mm = sym.methodAt(main[0]);
        assertEquals("BranchProg.java", sym.sourceFile(mm));
        assertTrue(sym.lineAt(main[0]) > 0, "source line of main's first instruction");
        assertTrue(sym.accessOffsets(mm).length > 0, "main's memory-access instructions");
        List<Traced.Rec> rs = t.records(0);
        assertTrue(rs.stream().anyMatch(r -> r.kind == RecordKind.PROC_START && r.address == main[0]));
        assertEquals(5, rs.stream().filter(r -> r.kind == RecordKind.PROC_START && r.address == twice[0]).count());
        assertEquals(5, rs.stream().filter(r -> r.kind == RecordKind.PROC_CALL && r.address == twice[0]).count());
        int backward = 0;
        for (Traced.Rec r : rs) {
            if (r.kind == RecordKind.BRANCH && r.source > main[0] && r.source <= main[1]) {
                assertEquals(0, (r.source - main[0]) % 4, "branch source = slot + 4");
                if (r.address < r.source) {
                    backward++;
                }
            }
        }
        assertEquals(5, backward, "the loop's back edge is taken 5 times");
        // each call of twice returns to the slot after the call
        for (int i = 0; i < rs.size(); i++) {
            if (rs.get(i).kind == RecordKind.PROC_CALL && rs.get(i).address == twice[0]) {
                long after = rs.get(i).source;
                boolean back = false;
                for (int k = i + 1; k < rs.size() && !back; k++) {
                    back = rs.get(k).kind == RecordKind.BRANCH && rs.get(k).address == after;
                }
                assertTrue(back, "return branch to 0x" + Long.toHexString(after));
            }
        }
    }
}
