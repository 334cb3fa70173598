package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 22's master / worker program ({@code examples} {@code MasterWorker}: nested monitors, wait/notify both
 * ways) traced by the real agent at levels 1–3 with 1, 2, 4 and 8 workers and analysed end to end by {@code ciat}
 * (serial, two partitions, {@code -i}), {@code cdat} and {@code export chrome} with no problem reported, and
 * replayed granting every lock in the order the run took it. Without the recorded order, about half of such runs
 * were refused with a false deadlock (the master given its monitor back before the workers that really took it
 * first).
 */
class MasterWorkerEndToEndTest {
    @TempDir
    Path dir;

    static Stream<Arguments> runs() {
        List<Arguments> a = new ArrayList<>();
        for (int level = 1; level <= 3; level++) {
            for (int workers : new int[] {1, 2, 4, 8}) {
                a.add(Arguments.of(level, workers));
            }
        }
        return a.stream();
    }

    @ParameterizedTest(name = "level {0}, {1} workers")
    @MethodSource("runs")
    void tracedMasterWorker_isAnalysedWithoutProblems_inTheRecordedLockOrder(int level, int workers)
            throws IOException {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        String name = dir.resolve("mw").toString();
        CiatCommandTest.Run traced = CiatCommandTest.run("trace", "--level", Integer.toString(level), "-o", name,
                "--", java, "-cp", DemoCommand.findExamplesJar().toString(), "org.dsmscope.examples.MasterWorker",
                Integer.toString(workers), "50");
        assertEquals(0, traced.status(), "the program's self-check passed under the agent: " + traced.err());
        int p = workers + 1;
        String set = name + "." + p;

        Path json = dir.resolve("ciat.json");
        CiatCommandTest.Run ciat = CiatCommandTest.run("ciat", "--json", json.toString(), set);
        assertEquals(0, ciat.status(), ciat.err());
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals(p, root.path("threads").asInt());
        assertFalse(root.toString().contains("\"problems\""), "no problems: " + ciat.out());
        if (level >= 2) {
            assertTrue(root.path("aggregate").path("communication").path("raw").asLong() > 0,
                    "the input and the results move between master and workers");
        }
        Path parts = dir.resolve("ciat2.json");
        assertEquals(0, CiatCommandTest.run("ciat", "--partitions", "2", "--json", parts.toString(), set).status());
        assertEquals(root.path("aggregate"), new ObjectMapper().readTree(parts.toFile()).path("aggregate"),
                "two partitions: the serial run's results");
        CiatCommandTest.Run sliced = CiatCommandTest.run("ciat", "-i", "2", "-a", "--json",
                dir.resolve("ciati.json").toString(), set);
        assertEquals(0, sliced.status(), sliced.err());

        Path cdat = dir.resolve("cdat.json");
        CiatCommandTest.Run c = CiatCommandTest.run("cdat", "--json", cdat.toString(), set,
                CdatCommandTest.config("dsm4.cfg").toString());
        assertEquals(0, c.status(), c.err());
        assertFalse(Files.readString(cdat).contains("\"problems\""));
        CiatCommandTest.Run chrome = CiatCommandTest.run("export", "chrome", set);
        assertEquals(0, chrome.status(), chrome.err());
        assertTrue(Files.size(Paths.get(set + ".chrome.json")) > 0);

        LockOrderPropertyTest.Grants g = new LockOrderPropertyTest.Grants();
        new Replay(TraceSet.ofPrefix(set), null, new ReplayOptions()).add(g).run();
        assertTrue(g.grants.size() >= workers + 1, "the master's and every worker's monitor: " + g.grants.keySet());
        for (Map.Entry<Long, List<long[]>> e : g.grants.entrySet()) {
            List<long[]> s = e.getValue();
            for (int i = 0; i < s.size(); i++) {
                assertEquals(i + 1, s.get(i)[1], "lock 0x" + Long.toHexString(e.getKey()) + " granted in the"
                        + " recorded order");
            }
        }
    }
}
