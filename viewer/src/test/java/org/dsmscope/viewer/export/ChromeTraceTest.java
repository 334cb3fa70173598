package org.dsmscope.viewer.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A generated fork-join trace with locks and barriers exported: the format first, one track per thread whose slices
 * cover the run from clock 0 to the last phase's end without gaps or overlaps, wait slices that add up to the replay's times, phases, and
 * lock hand-off arrows that pair up.
 */
class ChromeTraceTest {
    @TempDir
    Path dir;

    /** Keeps the replay's total times. */
    static final class Totals implements Analysis {
        PhaseTimes total;

        @Override
        public void end(ReplayContext ctx, PhaseTimes t) {
            total = t;
        }
    }

    @Test
    void forkJoinWithLocksAndBarriers() throws Exception {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 4;
        p.instructions = 20_000;
        p.lockRate = 0.01;
        p.barriers = 3;
        TraceSet set = ForkJoinGen.write(dir, "fj", p);
        Path out = dir.resolve("fj.json");
        ChromeTrace export = new ChromeTrace(out, 1.0, 1_000_000);
        Totals totals = new Totals();
        new Replay(set, null, new ReplayOptions()).add(export).add(totals).run();

        JsonNode root = new ObjectMapper().readTree(out.toFile());
        Iterator<String> names = root.fieldNames();
        assertEquals("otherData", names.next(), "the format comes first");
        assertEquals(ChromeTrace.FORMAT, root.path("otherData").path("format").asText());
        Map<Integer, List<JsonNode>> byThread = new HashMap<>();
        Map<Long, String> starts = new HashMap<>();
        long finishes = 0;
        long[][] waits = new long[3][4];
        int phases = 0;
        long runEnd = 0;
        for (JsonNode e : root.path("traceEvents")) {
            String ph = e.path("ph").asText();
            int tid = e.path("tid").asInt();
            if (ph.equals("X") && tid < 4) {
                byThread.computeIfAbsent(tid, k -> new ArrayList<>()).add(e);
                long len = e.path("args").path("toClock").asLong() - e.path("args").path("fromClock").asLong();
                switch (e.path("name").asText()) {
                    case "idle": waits[0][tid] += len; break;
                    case "imbalance": waits[1][tid] += len; break;
                    case "contention": waits[2][tid] += len; break;
                    default: break;
                }
            } else if (ph.equals("X")) {
                phases++;
                runEnd = Math.max(runEnd, e.path("args").path("toClock").asLong());
            } else if (ph.equals("s")) {
                starts.put(e.path("id").asLong(), tid + " " + e.path("ts").asDouble());
            } else if (ph.equals("f")) {
                finishes++;
                String s = starts.get(e.path("id").asLong());
                assertTrue(s != null, "a finish follows its start");
                assertTrue(Double.parseDouble(s.split(" ")[1]) <= e.path("ts").asDouble());
                assertTrue(!s.startsWith(tid + " "), "a hand-off goes to another thread");
            }
        }
        for (int t = 0; t < 4; t++) {
            long at = 0;
            for (JsonNode e : byThread.get(t)) {
                assertEquals(at, e.path("args").path("fromClock").asLong(), "thread " + t + ": no gap or overlap");
                at = e.path("args").path("toClock").asLong();
            }
            assertEquals(runEnd, at, "thread " + t + "'s track ends where the last phase ends");
            assertEquals(totals.total.idle[t], waits[0][t], "idle of thread " + t);
            assertEquals(totals.total.imbalance[t], waits[1][t], "imbalance of thread " + t);
            assertEquals(totals.total.contention[t], waits[2][t], "contention of thread " + t);
        }
        assertTrue(phases >= 3, "serial, parallel, serial at least: " + phases);
        assertEquals(starts.size(), finishes);
        assertEquals(export.flows(), finishes);
        assertTrue(finishes > 0, "4 threads contending for 4 locks hand some over");
        assertEquals(finishes, root.path("dsmscope").path("lockHandOffs").asLong());
        assertTrue(!Files.exists(dir.resolve("fj.json.partial")));
    }

    @Test
    void threadEndingWithACallRecord_endsItsTrackAtTheRunsEnd() throws Exception {
        Path f = dir.resolve(TraceSet.fileName("one", 1, 0));
        try (TraceWriter w = TraceWriter.create(f, TraceWriter.Options.classic())) {
            for (int i = 0; i < 10; i++) {
                w.memory(MemType.LOAD, 4, MemType.FIXED, 0x1000 + 4L * i);
            }
            w.call(CallType.MARKER, 0, 1, 0, 7, 0, 0); // a call takes no clock
        }
        Path out = dir.resolve("one.json");
        new Replay(TraceSet.of(dir.resolve("one.1").toString(), List.of(f)), null, new ReplayOptions())
                .add(new ChromeTrace(out, 1.0, 10)).run();
        long end = 0;
        for (JsonNode e : new ObjectMapper().readTree(out.toFile()).path("traceEvents")) {
            if (e.path("ph").asText().equals("X") && e.path("tid").asInt() == 0) {
                end = Math.max(end, e.path("args").path("toClock").asLong());
            }
        }
        assertEquals(10, end, "ten instructions: clocks 0 to 10");
    }
}
