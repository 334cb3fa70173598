package org.dsmscope.trace.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.trace.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryUsageFileTest {
    @TempDir
    Path dir;

    private Path file(String text) throws Exception {
        Path f = dir.resolve("t.4.memory");
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return f;
    }

    @Test
    void writtenRecords_readBackFieldForField() throws Exception {
        StringWriter w = new StringWriter();
        MemoryUsageFile.writeHeader(w, 4096);
        MemoryUsageFile.Page p = new MemoryUsageFile.Page();
        p.page = 1;
        p.touchedBytes = 5;
        p.sharedBytes = 4;
        p.dataAccesses = 4;
        p.sharedDataAccesses = 3;
        p.owner = -1;
        MemoryUsageFile.writeRecord(w, p);
        p.page = 5;
        p.touchedBytes = 8;
        p.codeBytes = 8;
        p.sharedBytes = 0;
        p.dataAccesses = 0;
        p.codeAccesses = 2;
        p.sharedDataAccesses = 0;
        p.owner = 1;
        MemoryUsageFile.writeRecord(w, p);
        assertTrue(w.toString().startsWith("# dsmscope-memory 1\n# page_size 4096\n# fields: page "));
        List<String> seen = new ArrayList<>();
        int size = MemoryUsageFile.read(file(w.toString()), q -> seen.add(q.page + ":" + q.touchedBytes + ":"
                + q.codeBytes + ":" + q.sharedBytes + ":" + q.dataAccesses + ":" + q.codeAccesses + ":"
                + q.sharedDataAccesses + ":" + q.sharedCodeAccesses + ":" + q.owner + ":" + q.shared()));
        assertEquals(4096, size);
        assertEquals(List.of("1:5:0:4:4:0:3:0:-1:true", "5:8:8:0:0:2:0:0:1:false"), seen);
    }

    @Test
    void badRecord_namesFileLineAndField() throws Exception {
        Path f = file("# dsmscope-memory 1\n# page_size 4096\n1 5 0 4 4 0 3 0 -1\n2 5 x 4 4 0 3 0 -1\n");
        BadInputException e = assertThrows(BadInputException.class, () -> MemoryUsageFile.read(f, q -> { }));
        assertEquals(f + ": line 4: field 3 'x' is not an integer", e.getMessage());
    }

    @Test
    void wrongFieldCount_pagesOutOfOrder_andForeignFiles_areRefused() throws Exception {
        Path a = file("# dsmscope-memory 1\n# page_size 4096\n1 5 0 4\n");
        assertTrue(assertThrows(BadInputException.class, () -> MemoryUsageFile.read(a, q -> { })).getMessage()
                .endsWith("line 3: expected 9 fields (" + MemoryUsageFile.FIELDS + "), found 4"));
        Path b = file("# dsmscope-memory 1\n# page_size 4096\n7 5 0 4 4 0 3 0 -1\n3 5 0 4 4 0 3 0 -1\n");
        assertTrue(assertThrows(BadInputException.class, () -> MemoryUsageFile.read(b, q -> { })).getMessage()
                .contains("line 4: page 3 is not after page 7"));
        Path c = file("hello\n");
        assertTrue(assertThrows(BadInputException.class, () -> MemoryUsageFile.read(c, q -> { })).getMessage()
                .contains("line 1: not a memory usage file"));
        Path d = file("");
        assertTrue(assertThrows(BadInputException.class, () -> MemoryUsageFile.read(d, q -> { })).getMessage()
                .contains("line 1: empty file"));
    }
}
