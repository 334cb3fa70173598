package org.dsmscope.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dsmscope.progs.LockProg;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.Codec;
import org.dsmscope.trace.TraceReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Agent options from the agent argument and from seed 000 §2's environment variables; bad options. */
class OptionsTest {
    @TempDir
    Path dir;

    @Test
    void environmentVariables_chooseTypeAndName() throws Exception {
        String name = dir.resolve("env").toString();
        Traced t = Traced.run(dir, "", Map.of("TRACE_FILE_TYPE", "compressed", "TRACE_FILE_NAME", name), name,
                LockProg.class, "2");
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 40 380 380"), t.out);
        assertEquals(3, t.threads());
        try (TraceReader r = TraceReader.open(dir.resolve("env.3.1"))) {
            r.next();
            assertEquals(Codec.ZSTD, r.codec());
        }
        List<Traced.Rec> rs = t.records(1);
        assertEquals(CallType.END_TRACE, rs.get(rs.size() - 1).callType);
    }

    @Test
    void suppressedType_writesNothing_andKeepsResults() throws Exception {
        Traced t = Traced.run(dir, "level=2,type=suppressed", LockProg.class, "2");
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 40 380 380"), t.out);
        assertTrue(t.err.contains("Trace output suppressed: 3 threads traced, no trace files written"), t.err);
        try (var s = Files.list(dir)) {
            assertTrue(s.noneMatch(f -> f.getFileName().toString().startsWith("tr.")));
        }
    }

    @Test
    void badOptionsAndOnTheFlyTypes_stopWithOneLineAndStatus2() throws Exception {
        String[][] cases = {{"level=7", "unknown level"}, {"type=fancy", "unknown trace type"},
            {"colour=red", "unknown agent option"}, {"type=to_ciat", "needs the dsmscope distribution jar"},
            {"type=to_cdat", "set CONFIGURATION_FILE_NAME"}};
        for (String[] c : cases) {
            Traced t = Traced.run(dir, c[0], Map.of(), dir.resolve("x").toString(), LockProg.class, "1");
            assertEquals(2, t.exit, c[0]);
            assertTrue(t.err.contains("dsmscope agent: ") && t.err.contains(c[1]), t.err);
            assertFalse(t.out.contains("check"), "the program did not run");
        }
    }

    @Test
    void malformedAgentProperties_stopWithOneLineNamingThem_andStatus2() throws Exception {
        String[][] cases = {{"-Ddsmscope.live.budget=lots", "-Ddsmscope.live.budget=lots: not a whole number"},
            {"-Ddsmscope.live.flushMs=0", "-Ddsmscope.live.flushMs=0: out of range (at least 1)"},
            {"-Ddsmscope.spill.keep=yes", "-Ddsmscope.spill.keep=yes: neither true nor false"},
            {"-Ddsmscope.agent.timing=on", "-Ddsmscope.agent.timing=on: neither true nor false"}};
        for (String[] c : cases) {
            Traced t = Traced.runWithJvmOptions(List.of(c[0]), dir, "level=2", LockProg.class, "1");
            assertEquals(2, t.exit, c[0] + ": " + t.err);
            assertTrue(t.err.contains("dsmscope agent: " + c[1]), t.err);
            assertFalse(t.out.contains("check"), "the program did not run");
        }
        Traced t = Traced.runWithJvmOptions(List.of("-Ddsmscope.spill.keep=false", "-Ddsmscope.live.flushMs=50"), dir,
                "level=2", LockProg.class, "2");
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 40 380 380"), t.out);
    }

    @Test
    void missingOutputDirectory_leavesTheProgramRunningUntraced() throws Exception {
        String name = dir.resolve("no/such/dir/t").toString();
        Traced t = Traced.run(dir, "level=2,name=" + name, Map.of(), name, LockProg.class, "2");
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 40 380 380"), t.out);
        assertTrue(t.err.contains("tracing is off"), t.err);
    }
}
