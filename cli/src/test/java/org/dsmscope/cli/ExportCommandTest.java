package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dsmscope export chrome} on a generated trace set: the file Perfetto opens, its tracks, and mistakes. */
class ExportCommandTest {
    @TempDir
    Path dir;

    @Test
    void chrome_onAGeneratedTrace() throws Exception {
        assertEquals(0, CiatCommandTest.run("gen", "forkjoin", "--threads", "3", "--instructions", "20000",
                "--lock-rate", "0.02", "-o", dir.toString(), "--name", "fj").status());
        String set = dir.resolve("fj.3").toString();
        CiatCommandTest.Run r = CiatCommandTest.run("export", "chrome", set, "-ipc", "1", "-mhz", "1");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("export: 3 thread tracks") && r.out().contains("1 clocks per microsecond"),
                r.out());
        JsonNode root = new ObjectMapper().readTree(Path.of(set + ".chrome.json").toFile());
        assertEquals("dsmscope-chrome-trace 1", root.path("otherData").path("format").asText());
        int names = 0;
        double end = 0;
        for (JsonNode e : root.path("traceEvents")) {
            if (e.path("name").asText().equals("thread_name")) {
                names++;
            }
            if (e.path("ph").asText().equals("X")) {
                // 1 clock per microsecond: times are the clocks
                assertEquals(e.path("args").path("fromClock").asDouble(), e.path("ts").asDouble());
                end = Math.max(end, e.path("ts").asDouble() + e.path("dur").asDouble());
            }
        }
        assertEquals(4, names, "three threads and the phases");
        assertTrue(end > 20000, "the run's clocks: " + end);
        CiatCommandTest.Run bad = CiatCommandTest.run("export", "chrome", set, "-o",
                dir.resolve("no/such/x.json").toString());
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("cannot write: folder"), bad.err());
        assertEquals(2, CiatCommandTest.run("export").status());
    }

    @Test
    void chrome_processTracesOnTwoProcessors_haveProcessorTracks() throws Exception {
        assertEquals(0, CiatCommandTest.run("gen", "processes", "--processes", "4", "--slices", "4", "-o",
                dir.toString(), "--name", "tpc").status());
        String set = dir.resolve("tpc.4").toString();
        assertEquals(0, CiatCommandTest.run("export", "chrome", "-i", "2", set).status());
        JsonNode root = new ObjectMapper().readTree(Path.of(set + ".chrome.json").toFile());
        java.util.Set<String> names = new java.util.TreeSet<>();
        double[] running = new double[2];
        for (JsonNode e : root.path("traceEvents")) {
            if (e.path("name").asText().equals("thread_name")) {
                names.add(e.path("args").path("name").asText());
            }
            int tid = e.path("tid").asInt();
            if (e.path("ph").asText().equals("X") && tid >= 5 && e.path("name").asText().equals("running")) {
                running[tid - 5] += e.path("args").path("toClock").asLong() - e.path("args").path("fromClock").asLong();
            }
        }
        assertEquals(java.util.Set.of("phases", "process 0", "process 1", "process 2", "process 3", "processor 0",
                "processor 1"), names);
        assertTrue(running[0] > 0 && running[1] > 0, "both processors run slices");
    }
}
