package org.dsmscope.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import org.dsmscope.trace.sidecar.DataMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Sources#dataStructure}: a data map range is named by its type and allocation site, and a range the data
 * map names (the field a JDK array is kept in, {@code --trace-jdk}, issue 28) by that name with its type.
 */
class SourcesTest {
    @TempDir
    Path dir;

    @Test
    void dataStructure_namedRangeShowsItsName_unnamedItsType_bothTheirSite() throws IOException {
        Path f = dir.resolve("t.3.datamap");
        try (DataMap.Writer w = DataMap.writer(f)) {
            w.range(0x1000, 0x1040, "array", "java.lang.Object[]", "ArrayBlockingQueue.items",
                    "java.util.concurrent.ArrayBlockingQueue.<init>:273");
            w.range(0x2000, 0x2100, "array", "double[]", "-", "org.x.Sor.run:41");
            w.range(0x3000, 0x3040, "array", "java.util.HashMap$Node[]", "HashMap.table", "-");
        }
        FaultTrace t = new FaultTrace(true, 64, 2);
        t.fault(0, 10, 0, 0x1000 / 64, true, 0x1010, -1);
        t.fault(1, 20, 1, 0x2000 / 64, false, 0x2008, -1);
        t.fault(2, 30, 1, 0x3000 / 64, false, 0x3008, -1);
        t.fault(3, 40, 0, 0x9000 / 64, false, 0x9000, -1);
        Sources s = new Sources(t, DataMap.read(f), null, false);
        assertEquals("ArrayBlockingQueue.items (java.lang.Object[]) allocated at "
                + "java.util.concurrent.ArrayBlockingQueue.<init>:273", s.dataStructure(0));
        assertEquals("double[] allocated at org.x.Sor.run:41", s.dataStructure(1));
        assertEquals("HashMap.table (java.util.HashMap$Node[])", s.dataStructure(2));
        assertEquals("line 0x240", s.dataStructure(3));
    }
}
