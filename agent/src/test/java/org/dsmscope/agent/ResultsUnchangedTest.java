package org.dsmscope.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dsmscope.progs.MixedProg;
import org.dsmscope.trace.CallType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A program using executors (whose workers are interrupted at shutdown), parallel streams, records, inner classes,
 * enums, string switches and multi-dimensional arrays prints the same under the agent at every level, and every
 * trace file ends properly.
 */
class ResultsUnchangedTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"1", "2", "3"})
    void mixedProgram_printsTheSameCheckValue_atEveryLevel(String level) throws Exception {
        String expected = Traced.plain(dir, MixedProg.class);
        Traced t = Traced.run(Files.createDirectory(dir.resolve("l" + level)), "level=" + level, MixedProg.class);
        assertEquals(0, t.exit, t.err);
        assertEquals(expected, t.out);
        assertFalse(t.err.contains("dsmscope agent:"), t.err);
        for (List<Traced.Rec> rs : t.all()) {
            assertEquals(CallType.END_TRACE, rs.get(rs.size() - 1).callType);
        }
    }
}
