package org.dsmscope.trace.sidecar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dsmscope.trace.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Symbol file and data map: what the writer writes the reader resolves; bad files name the line. */
class SidecarTest {
    @TempDir
    Path dir;

    @Test
    void symbolFile_resolvesMethodLineAndAccessOffsets() throws IOException {
        Path f = SymbolFile.pathFor(dir.resolve("run.4").toString());
        assertEquals(dir.resolve("run.4.symbols"), f);
        try (SymbolFile.Writer w = SymbolFile.writer(f)) {
            w.method(0x4000, 0x4100, "org.x.Mat", "mul", "([D[D)V", "Mat.java").line(0, 10).line(0x20, 12)
                    .accesses(0x8, 0x24, 0x10);
            w.method(0x4C00, 0x4C40, "org.x.Mat", "main", "([Ljava/lang/String;)V", null);
        }
        assertEquals("dsmscope-symbols 1", Files.readAllLines(f).get(0));
        SymbolFile s = SymbolFile.read(f);
        assertEquals(2, s.size());
        int m = s.methodAt(0x4024);
        assertEquals("mul", s.methodName(m));
        assertEquals("org.x.Mat", s.className(m));
        assertEquals("([D[D)V", s.descriptor(m));
        assertEquals("Mat.java", s.sourceFile(m));
        assertEquals(10, s.lineAt(0x401C));
        assertEquals(12, s.lineAt(0x4020));
        assertEquals(12, s.lineAt(0x40FF));
        assertArrayEquals(new int[] {0x8, 0x10, 0x24}, s.accessOffsets(m));
        assertEquals(-1, s.methodAt(0x4100));
        assertEquals(-1, s.methodAt(0x3FFF));
        assertNull(s.sourceFile(s.methodAt(0x4C00)));
        assertEquals(-1, s.lineAt(0x4C00));
    }

    @Test
    void dataMap_resolvesFieldsElementsAndSharing() throws IOException {
        Path f = DataMap.pathFor(dir.resolve("run.2").toString());
        try (DataMap.Writer w = DataMap.writer(f)) {
            w.field("org.x.Node", 12, 4, "next").field("org.x.Node", 16, 8, "value");
            w.array("double[]", 16, 8);
            w.range(0x1000_0000L, 0x1000_0018L, "object", "org.x.Node", null, "org.x.List.add(List.java:31)");
            w.range(0x1000_0018L, 0x1000_0418L, "array", "double[]", "a", "org.x.Mat.<init>(Mat.java:5)");
            w.privateRange(0x7FFF_0000L, 0x7FFF_8000L, 1).sharedRange(0x1000_0000L, 0x2000_0000L);
        }
        DataMap d = DataMap.read(f);
        assertEquals("org.x.Node.next", d.describe(0x1000_000CL));
        assertEquals("org.x.Node.value", d.describe(0x1000_0014L));
        assertEquals("org.x.Node+0", d.describe(0x1000_0000L));
        assertEquals("double[2]", d.describe(0x1000_0018L + 16 + 2 * 8 + 3));
        assertEquals("org.x.Mat.<init>(Mat.java:5)", d.site(d.rangeAt(0x1000_0100L)));
        assertEquals("a", d.name(d.rangeAt(0x1000_0100L)));
        assertNull(d.describe(0x1000_0418L));
        assertEquals(1, d.privateThreadAt(0x7FFF_0010L));
        assertEquals(DataMap.SHARED, d.privateThreadAt(0x1800_0000L));
        assertEquals(DataMap.UNDECLARED, d.privateThreadAt(0x10L));
    }

    @Test
    void dataMap_rowsInAnyOrder_areSorted() throws IOException {
        Path f = dir.resolve("m");
        try (DataMap.Writer w = DataMap.writer(f)) {
            w.range(0x300, 0x310, "object", "C", null, null);
            w.range(0x100, 0x110, "object", "A", null, null);
            w.range(0x200, 0x210, "object", "B", null, null);
        }
        DataMap d = DataMap.read(f);
        assertEquals("B", d.type(d.rangeAt(0x205)));
        assertEquals("A", d.type(d.rangeAt(0x100)));
        assertEquals(-1, d.rangeAt(0x150));
    }

    private BadInputException bad(String format, String... lines) throws IOException {
        Path f = dir.resolve("bad");
        Files.write(f, List.of(lines));
        return assertThrows(BadInputException.class,
                () -> {
                    if (format.equals("s")) {
                        SymbolFile.read(f);
                    } else {
                        DataMap.read(f);
                    }
                });
    }

    @Test
    void badSidecars_nameFileLineAndWhat() throws IOException {
        Path f = dir.resolve("bad");
        assertEquals(f + ": line 1: not a dsmscope-symbols file (first line 'dsmscope-datamap 1')",
                bad("s", "dsmscope-datamap 1").getMessage());
        assertEquals(f + ": line 1: unsupported dsmscope-datamap version '2' (this reader knows 1)",
                bad("d", "dsmscope-datamap 2").getMessage());
        assertEquals(f + ": line 1: empty file (expected 'dsmscope-symbols 1')", bad("s").getMessage());
        assertEquals(f + ": line 3: 'line' before any 'method'",
                bad("s", "dsmscope-symbols 1", "# c", "line\t0x0\t3").getMessage());
        assertEquals(f + ": line 2: field 1 '4000' is not a hex address (0x...)",
                bad("s", "dsmscope-symbols 1", "method\t4000\t0x4100\tA\tm\t()V\t-").getMessage());
        assertEquals(f + ": line 2: 'range' needs 6 tab-separated fields: START END KIND TYPE NAME SITE",
                bad("d", "dsmscope-datamap 1", "range\t0x10\t0x20\tobject").getMessage());
        assertEquals(f + ": data ranges overlap at 0x18",
                bad("d", "dsmscope-datamap 1", "range\t0x10\t0x20\tobject\tA\t-\t-",
                        "range\t0x18\t0x28\tobject\tB\t-\t-").getMessage());
        assertEquals(f + ": line 2: unknown row 'bogus' (expected method, line or access)",
                bad("s", "dsmscope-symbols 1", "bogus").getMessage());
        assertEquals(dir.resolve("none") + ": no such dsmscope-datamap file",
                assertThrows(BadInputException.class, () -> DataMap.read(dir.resolve("none"))).getMessage());
    }

    @Test
    void writer_refusesFieldsWithTabs() throws IOException {
        try (DataMap.Writer w = DataMap.writer(dir.resolve("x"))) {
            assertThrows(IllegalArgumentException.class, () -> w.range(0, 8, "object", "A\tB", null, null));
        }
    }
}
