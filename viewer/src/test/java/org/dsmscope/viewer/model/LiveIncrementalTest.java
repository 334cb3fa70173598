package org.dsmscope.viewer.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.dsmscope.monitor.analysis.EventcountChecker;
import org.dsmscope.monitor.analysis.Summary;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.probe.TransportProbe;
import org.dsmscope.monitor.record.Recorder;
import org.junit.jupiter.api.Test;

/**
 * The live path grows by the new events only (seed 002 §4.3: the views of a running program): a
 * {@link LiveMonitorSource} fed a "dsmscope-live 1" stream in random batches, brought up to date after each, answers
 * every window (the picture's JSON, with and without content filters), the tables and the description exactly as a
 * source fed the same lines at once; its per-process table and whole-run transport table equal {@code monitor
 * summary}'s counting ({@code Summary.ofEvents}) of the same events; and the stream's reader goes on while a page's
 * request holds the timeline.
 */
class LiveIncrementalTest {
    private static final JsonFactory JSON = new JsonFactory();
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int PROCS = 4;

    /** A random live stream: calls, eventcounts, messages, unicast and multicast transport, output, late names. */
    private static List<String> stream(long seed, int n, EventBuffer events) {
        return stream(seed, n, events, true);
    }

    /**
     * As {@link #stream(long, int, EventBuffer)}; with {@code matched} false, receives name message sequence numbers
     * nobody sent (no message pairs: a recording of the events then needs no clock alignment).
     */
    private static List<String> stream(long seed, int n, EventBuffer events, boolean matched) {
        Random rnd = new Random(seed);
        List<String> lines = new ArrayList<>();
        long[] clock = new long[PROCS];
        boolean[] named = new boolean[PROCS];
        boolean[] aligned = new boolean[PROCS];
        long[] msgseq = new long[PROCS];
        long[] mcast = new long[PROCS];
        int[] advances = new int[2];
        for (int p = 0; p < PROCS; p++) {
            clock[p] = 1_000_000 + rnd.nextInt(5_000);
        }
        List<long[]> sent = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int p = rnd.nextInt(PROCS), q = (p + 1 + rnd.nextInt(PROCS - 1)) % PROCS;
            if (!named[p] && rnd.nextInt(8) == 0) {
                named[p] = true;
                lines.add("{\"kind\":\"process\",\"proc\":" + p + ",\"name\":\"m" + p + "\"}");
                lines.add("{\"kind\":\"host\",\"proc\":" + p + ",\"host\":\"h" + p + "\",\"arch\":\"amd64\",\"os\":"
                        + "\"Linux\",\"cores\":2,\"jvm\":\"17\"}");
            }
            aligned[p] |= rnd.nextInt(40) == 0;
            clock[p] += rnd.nextInt(3) * 1_000L; // ties on purpose
            long t = clock[p];
            if (rnd.nextInt(30) == 0) {
                lines.add("{\"kind\":\"output\",\"t\":" + t + ",\"proc\":" + p + ",\"stream\":\"out\",\"line\":\"line "
                        + i + "\"}");
            }
            EventType type;
            long[] f = new long[5];
            int peer = -1;
            int r = rnd.nextInt(14);
            long dur = 500 + rnd.nextInt(3_000);
            switch (r) {
                case 0:
                    type = EventType.PUT_UPDATES;
                    f = new long[] {rnd.nextInt(2), i, 64, dur, rnd.nextInt(2) * dur / 2};
                    break;
                case 1: {
                    type = EventType.ADVANCE;
                    int e = rnd.nextInt(2);
                    f = new long[] {e, ++advances[e], 0, dur, 0};
                    break;
                }
                case 2: {
                    type = EventType.AWAIT;
                    int e = rnd.nextInt(2);
                    long v = 1 + rnd.nextInt(advances[e] + 3);
                    f = new long[] {e, v, v + rnd.nextInt(2), dur, dur / 2};
                    break;
                }
                case 3:
                    type = EventType.MSG_SEND_BEGIN;
                    peer = q;
                    f = new long[] {rnd.nextInt(2), ++msgseq[p], rnd.nextInt(3), 512, 0};
                    sent.add(new long[] {p, msgseq[p], f[0]});
                    break;
                case 4: {
                    type = EventType.MSG_RECEIVE_END;
                    long[] s = sent.isEmpty() || !matched ? new long[] {q, 1_000_000 + i, 0}
                            : sent.get(rnd.nextInt(sent.size()));
                    peer = (int) s[0];
                    f = new long[] {s[2], s[1], 0, 512, 0};
                    break;
                }
                case 5:
                    type = EventType.FRAG_SEND;
                    f = new long[] {++mcast[p], -1, TransportProbe.P_NAKACK2, 600, 0};
                    break;
                case 6:
                    type = EventType.FRAG_RECV;
                    peer = q;
                    f = new long[] {Math.max(1, mcast[q] - rnd.nextInt(3)), -1, TransportProbe.P_NAKACK2, 600, 0};
                    break;
                default: {
                    EventType[] tr = {EventType.FRAG_SEND, EventType.FRAG_RECV, EventType.ACK_SEND, EventType.ACK_RECV,
                        EventType.NACK_SEND, EventType.NACK_RECV, EventType.RETRANS_SEND, EventType.DUPLICATE_FRAG,
                        EventType.PACKET_DISCARD};
                    type = tr[rnd.nextInt(tr.length)];
                    peer = q;
                    f = new long[] {i, rnd.nextInt(3), TransportProbe.P_UNICAST3, rnd.nextInt(4) == 0 ? 0 : 100 + i,
                        type == EventType.RETRANS_SEND ? 4 * (1 + rnd.nextInt(3)) + 1 + rnd.nextInt(2) : rnd.nextInt(2)};
                    break;
                }
            }
            if ("dur".equals(type.fields[3])) {
                clock[p] += dur;
            }
            // before the aligner knows a process's offset, its events carry only its own clock (5 µs ahead)
            lines.add(eventLine(type, aligned[p] ? t + 5_000 : t + 5_000, aligned[p] ? t : null, p, peer, f));
            events.add(t + (aligned[p] ? 0 : 5_000), p, type.code, peer, f[0], f[1], f[2], f[3], f[4]);
        }
        lines.add("{\"kind\":\"end\",\"status\":0,\"dropped\":0}");
        return lines;
    }

    private static String eventLine(EventType type, long t, Long ta, int proc, int peer, long[] f) {
        StringBuilder sb = new StringBuilder("{\"kind\":\"event\",\"t\":").append(t);
        if (ta != null) {
            sb.append(",\"ta\":").append(ta);
        }
        sb.append(",\"proc\":").append(proc).append(",\"type\":\"").append(type.seedName())
                .append("\",\"level\":\"").append(type.level.label()).append("\",\"peer\":").append(peer)
                .append(",\"args\":{");
        String sep = "";
        for (int i = 0; i < 5; i++) {
            if (!"-".equals(type.fields[i])) {
                sb.append(sep).append('"').append(type.fields[i]).append("\":").append(f[i]);
                sep = ",";
            }
        }
        return sb.append("}}").toString();
    }

    private static LiveMonitorSource fed(List<String> lines, int from, int to, LiveMonitorSource s) throws IOException {
        s.read(JSON.createParser(String.join("\n", lines.subList(from, to))));
        s.timeline(); // a page's request: the pending lines go into the timeline
        return s;
    }

    private static String window(Timeline tl, long t0, long t1, int bins, Map<String, String> filter)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            Window.write(tl, t0, t1, bins, Filter.parse(filter), g);
        }
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Every answer of {@code s} equals the same answer of {@code ref} for a few random windows and filters. */
    private static void sameAnswers(LiveMonitorSource ref, LiveMonitorSource s, Random rnd, String where)
            throws IOException {
        Timeline a = ref.timeline(), b = s.timeline();
        assertEquals(a.events(), b.events(), where + ": events");
        assertEquals(a.arrows(), b.arrows(), where + ": arrows");
        assertEquals(a.version(), b.version(), where + ": version");
        for (int l = 0; l < a.lanes.size(); l++) {
            assertEquals(a.lane(l).name + a.lane(l).host + a.lane(l).start + ":" + a.lane(l).end,
                    b.lane(l).name + b.lane(l).host + b.lane(l).start + ":" + b.lane(l).end, where + ": lane " + l);
        }
        String[][] filters = {{}, {"level", "program"}, {"proc", "0,2"}, {"seg", "1"}, {"ec", "0"},
            {"arrows", "sync"}, {"mtype", "data,reply"}};
        long end = Math.max(1, a.end());
        for (int k = 0; k < 12; k++) {
            long t0 = k == 0 ? 0 : rnd.nextLong(-1_000, end), t1 = k == 0 ? end : t0 + 1 + rnd.nextLong(end);
            int bins = k % 3 == 0 ? 4 + rnd.nextInt(20) : 100 + rnd.nextInt(700);
            Map<String, String> f = new HashMap<>();
            String[] pick = filters[rnd.nextInt(filters.length)];
            if (pick.length > 0) {
                f.put(pick[0], pick[1]);
            }
            assertEquals(window(a, t0, t1, bins, f), window(b, t0, t1, bins, f),
                    where + ": window [" + t0 + ", " + t1 + ") " + bins + " bins " + f);
            assertEquals(MAPPER.writeValueAsString(ref.tables(t0, t1)), MAPPER.writeValueAsString(s.tables(t0, t1)),
                    where + ": tables [" + t0 + ", " + t1 + ")");
        }
        assertEquals(MAPPER.writeValueAsString(ref.outputs().latest(a, Long.MAX_VALUE, 100)),
                MAPPER.writeValueAsString(s.outputs().latest(b, Long.MAX_VALUE, 100)), where + ": output");
    }

    @Property(tries = 30)
    void randomBatches_answerEveryWindowAsOneBatch(@ForAll long seed) throws IOException {
        List<String> lines = stream(seed, 700, new EventBuffer(800));
        Random rnd = new Random(seed ^ 0x9E3779B97F4A7C15L);
        LiveMonitorSource s = LiveMonitorSource.detached("batches");
        int at = 0, batches = 0;
        while (at < lines.size()) {
            int next = Math.min(lines.size(), at + 1 + rnd.nextInt(rnd.nextBoolean() ? 5 : 80));
            fed(lines, at, next, s);
            at = next;
            if (++batches % 9 == 0 || at == lines.size()) {
                sameAnswers(fed(lines, 0, at, LiveMonitorSource.detached("batches")), s, rnd, "after " + at + " lines");
            }
        }
    }

    @Property(tries = 15)
    void processesAndTransport_equalMonitorSummaryOfTheRecordedEvents(@ForAll long seed) throws IOException {
        EventBuffer events = new EventBuffer(1000);
        List<String> lines = stream(seed, 600, events, false);
        Random rnd = new Random(seed);
        LiveMonitorSource s = LiveMonitorSource.detached("summary");
        for (int at = 0; at < lines.size();) {
            int next = Math.min(lines.size(), at + 1 + rnd.nextInt(60));
            fed(lines, at, next, s);
            at = next;
        }
        Path dir = Files.createTempDirectory("live-summary");
        Path file = dir.resolve("r.dsmrec");
        try (Recorder r = new Recorder(file)) {
            for (int p = 0; p < PROCS; p++) { // the processes the stream named, as the live server does
                if (lines.contains("{\"kind\":\"process\",\"proc\":" + p + ",\"name\":\"m" + p + "\"}")) {
                    r.process(p, "m" + p);
                }
            }
            r.accept(events);
        }
        Summary ref = Summary.of(file, false, EventcountChecker.DEFAULT_THRESHOLD);
        Files.delete(file);
        Files.delete(dir);
        assertTrue(ref.offsets.values().stream().allMatch(o -> o == 0), "no clock alignment needed");
        Map<String, Object> tables = s.tables(Long.MIN_VALUE, Long.MAX_VALUE);
        assertEquals(MAPPER.writeValueAsString(MonitorSource.processTimes(ref)),
                MAPPER.writeValueAsString(tables.get("processes")));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> pairs = (List<Map<String, Object>>) ref.toJson().get("pairs");
        pairs.forEach(m -> m.remove("retransmissionLevels"));
        assertFalse(pairs.isEmpty());
        assertEquals(MAPPER.writeValueAsString(pairs), MAPPER.writeValueAsString(tables.get("transportRun")));
    }

    @Test
    void theReaderGoesOn_whileARequestHoldsTheTimeline() throws Exception {
        List<String> lines = stream(3, 20_000, new EventBuffer(20_100));
        LiveMonitorSource s = LiveMonitorSource.detached("held");
        Timeline tl = s.timeline();
        Thread reader;
        Throwable[] failed = new Throwable[1];
        synchronized (tl) {
            // a page's request answering a window holds the timeline's monitor: the reader must not wait for it
            reader = new Thread(() -> {
                try {
                    s.read(JSON.createParser(String.join("\n", lines)));
                } catch (IOException e) {
                    failed[0] = e;
                }
            });
            reader.start();
            reader.join(120_000);
            assertFalse(reader.isAlive(), "the reader waited for the timeline's monitor");
            assertEquals(0, tl.events(), "nothing reaches the timeline before a request brings it in");
        }
        assertEquals(null, failed[0]);
        assertEquals(20_000, s.timeline().events());
        assertTrue(s.timeline().notes.contains("the run ended (status 0)"));
    }

    @Test
    void aLineThatIsNoObject_namesTheLine() throws IOException {
        LiveMonitorSource s = LiveMonitorSource.detached("bad");
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> s.read(JSON.createParser("{\"kind\":\"hello\"}\n[1,2]\n")));
        assertNotNull(e.getMessage());
        assertTrue(e.getMessage().contains("bad: line 2: not a JSON object"), e.getMessage());
    }
}
