package org.dsmscope.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dsmscope.progs.MatMul;
import org.dsmscope.progs.MemProg;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.sidecar.DataMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Level 2: field and array accesses with SPEC §3's synthetic address model. */
class Level2Test {
    @TempDir
    Path dir;

    private static sun.misc.Unsafe unsafe() throws Exception {
        Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        return (sun.misc.Unsafe) f.get(null);
    }

    /** Data map ranges: "KIND TYPE" → address (lowest of each), and all [lo, hi) ranges. */
    private static Map<String, Long> objects(DataMap m, List<long[]> ranges) {
        Map<String, Long> first = new HashMap<>();
        for (int i = 0; i < m.size(); i++) {
            ranges.add(new long[] {m.start(i), m.end(i)});
            first.putIfAbsent(m.kind(i) + " " + m.type(i), m.start(i));
        }
        return first;
    }

    @Test
    void arrayElementsFieldsAndStatics_getHotSpotAddresses_andMarkersStopTracing() throws Exception {
        Traced t = Traced.run(dir, "level=2", MemProg.class);
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 34 2.0"), t.out);
        List<long[]> ranges = new ArrayList<>();
        DataMap map = DataMap.read(dir.resolve("tr.1.datamap"));
        Map<String, Long> obj = objects(map, ranges);
        sun.misc.Unsafe u = unsafe();
        long ints = obj.get("array int[]");
        long longs = obj.get("array long[]");
        long doubles = obj.get("array double[]");
        long self = obj.get("object org.dsmscope.progs.MemProg");
        List<Traced.Rec> rs = t.records(0);
        int m = 0;
        while (!(rs.get(m).isCall(CallType.MARKER) && rs.get(m).args[1] == 0)) {
            m++;
        }
        List<Traced.Rec> mem = new ArrayList<>();
        int stop = -1;
        for (int i = m + 1; i < rs.size(); i++) {
            Traced.Rec r = rs.get(i);
            if (r.isCall(CallType.MARKER) && r.args[1] == 1) {
                stop = i;
                break;
            }
            if (r.kind == RecordKind.MEMORY) {
                mem.add(r);
            }
        }
        // a[i] = i: 8 word stores at base + header + 4i
        for (int i = 0; i < 8; i++) {
            assertEquals(0x041, mem.get(i).memType);
            assertEquals(ints + unsafe().arrayBaseOffset(int[].class) + 4L * i, mem.get(i).address);
        }
        // l[i] = a[i]; d[i] = l[i]; b[i] = (byte) i
        List<Traced.Rec> loop = mem.subList(8, 8 + 4 * 5);
        for (int i = 0; i < 4; i++) {
            Traced.Rec ld = loop.get(5 * i);
            Traced.Rec st = loop.get(5 * i + 1);
            Traced.Rec lld = loop.get(5 * i + 2);
            Traced.Rec dst = loop.get(5 * i + 3);
            Traced.Rec bst = loop.get(5 * i + 4);
            assertEquals(0x040, ld.memType);
            assertEquals(0x081, st.memType, "long store: double-word fixed-point");
            assertEquals(longs + u.arrayBaseOffset(long[].class) + 8L * i, st.address);
            assertEquals(0x080, lld.memType);
            assertEquals(0x181, dst.memType, "double store: double-word floating-point");
            assertEquals(doubles + u.arrayBaseOffset(double[].class) + 8L * i, dst.address);
            assertEquals(0x011, bst.memType);
        }
        // m.x = 1 (putfield int at JOL's offset)
        long xOff = u.objectFieldOffset(MemProg.class.getDeclaredField("x"));
        long yOff = u.objectFieldOffset(MemProg.class.getDeclaredField("y"));
        assertTrue(mem.stream().anyMatch(r -> r.memType == 0x041 && r.address == self + xOff), "m.x store");
        assertTrue(mem.stream().anyMatch(r -> r.memType == 0x081 && r.address == self + yOff), "m.y store");
        long statics = obj.get("statics static org.dsmscope.progs.MemProg");
        assertTrue(mem.stream().anyMatch(r -> r.memType == 0x041 && r.address >= statics && r.address < statics + 16),
                "staticInt store in MemProg's static block");
        // the data map (trace module format) names what each address is
        assertEquals("int[2]", map.describe(ints + u.arrayBaseOffset(int[].class) + 8));
        assertEquals("org.dsmscope.progs.MemProg.x", map.describe(self + xOff));
        assertTrue(mem.stream().anyMatch(r -> r.address >= statics && r.address < statics + 16
                && map.describe(r.address).startsWith("static org.dsmscope.progs.MemProg.")), "static field named");
        // marker 1 stops detailed tracing until marker 2
        assertTrue(stop > 0);
        int i = stop + 1;
        for (; !(rs.get(i).isCall(CallType.MARKER) && rs.get(i).args[1] == 2); i++) {
            assertTrue(rs.get(i).kind != RecordKind.MEMORY, "memory record while stopped");
        }
        // no two objects overlap
        ranges.sort((p, q) -> Long.compare(p[0], q[0]));
        for (int k = 1; k < ranges.size(); k++) {
            assertTrue(ranges.get(k - 1)[1] <= ranges.get(k)[0], "overlap at 0x" + Long.toHexString(ranges.get(k)[0]));
        }
    }

    @Test
    void matrixMultiply_tracesEveryAccessOfEveryThread_withResultUnchanged() throws Exception {
        Traced t = Traced.run(dir, "level=2", MatMul.class, "2", "12");
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 20592.0"), "same result as the untraced run: " + t.out);
        assertEquals(3, t.threads());
        long loads = 0;
        for (int th = 1; th <= 2; th++) {
            for (Traced.Rec r : t.records(th)) {
                if (r.kind == RecordKind.MEMORY && r.memType == 0x180) {
                    loads++;
                }
            }
        }
        // a[i][k] and b[k][j] double loads: 2 per inner iteration, 12^3 iterations over both threads
        assertEquals(2L * 12 * 12 * 12, loads);
    }
}
