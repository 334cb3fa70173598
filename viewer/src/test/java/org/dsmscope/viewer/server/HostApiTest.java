package org.dsmscope.viewer.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventSink;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.HostInfo;
import org.dsmscope.monitor.record.Recorder;
import org.dsmscope.viewer.model.MonitorSource;
import org.dsmscope.viewer.model.ReplaySource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The API's host labels and output view: recorded hosts, "unknown" for version-1 recordings, none for replays. */
class HostApiTest {
    @TempDir
    Path dir;

    private Path recording(String name, boolean withHost) throws Exception {
        Path f = dir.resolve(name);
        EventBuffer b = new EventBuffer(4);
        b.add(1_000_000_000L, 0, EventType.PROC_START.code, -1, 0, 0, 0, 0, 0);
        b.add(3_000_000_000L, 0, EventType.PROC_END.code, -1, 0, 0, 0, 0, 0);
        try (Recorder r = new Recorder(f)) {
            r.process(0, "m0");
            if (withHost) {
                r.host(0, new HostInfo("node1", "riscv64", "Linux 6.6", 4, "OpenJDK 17"));
                r.output(0, 2_000_000_000L, EventSink.STDOUT, "hello");
            }
            r.accept(b);
        }
        return f;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> hostOf(MonitorSource s) {
        List<Map<String, Object>> lanes = (List<Map<String, Object>>) Api.meta(s.timeline()).get("lanes");
        return (Map<String, Object>) lanes.get(0).get("hostInfo");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aRecordedHostLabelsItsLane_andItsLinesAreOnTheRecordingsClock() throws Exception {
        MonitorSource s = MonitorSource.open(recording("h.dsmrec", true));
        Map<String, Object> h = hostOf(s);
        assertEquals("node1", h.get("host"));
        assertEquals("riscv64", h.get("arch"));
        assertEquals(4, h.get("cores"));
        Map<String, Object> out = Api.output(s.timeline(), s.outputs(), Long.MAX_VALUE, 10);
        assertEquals(true, out.get("available"));
        Map<String, Object> m0 = (Map<String, Object>) ((List<Object>) out.get("processes")).get(0);
        assertEquals(List.of(List.of(1_000_000_000L, "out", "hello")), m0.get("lines"));
    }

    @Test
    void aVersion1Recording_opensWithUnknownHosts() throws Exception {
        Path f = recording("v1.dsmrec", false);
        byte[] bytes = Files.readAllBytes(f);
        bytes[13] = 1;
        Files.write(f, bytes);
        Map<String, Object> h = hostOf(MonitorSource.open(f));
        assertEquals("unknown", h.get("host"));
        assertEquals("unknown", h.get("arch"));
    }

    @Test
    void aReplayedTraceSet_saysItHasNoOutput() {
        ReplaySource r = new ReplaySource("fj");
        Map<String, Object> out = Api.output(r.timeline(), r.outputs(), 0, 10);
        assertEquals(false, out.get("available"));
        assertTrue(((String) out.get("note")).startsWith("a replayed trace set has no standard output"));
    }
}
