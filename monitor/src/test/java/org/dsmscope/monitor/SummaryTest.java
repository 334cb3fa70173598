package org.dsmscope.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.dsmscope.monitor.analysis.EventcountChecker;
import org.dsmscope.monitor.analysis.PairStats;
import org.dsmscope.monitor.analysis.Summary;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.record.Recorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code monitor summary} (seed 002 §4.1.3, §4.2) on recordings small enough to count by hand: what counts as
 * lost, and a text a user can read without the source (offsets as a table, a legend, why a run without loss
 * retransmits).
 */
class SummaryTest {
    private static final long T0 = 1_800_000_000_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final int NAKACK2 = 1;
    private static final int UNICAST3 = 2;

    @TempDir
    Path dir;

    private Summary summarize(EventBuffer b) throws Exception {
        Path f = dir.resolve("r.rec");
        try (Recorder rec = new Recorder(f)) {
            rec.process(0, "m0");
            rec.process(1, "m1");
            rec.process(2, "m2");
            rec.accept(b);
        }
        return Summary.of(f, false, EventcountChecker.DEFAULT_THRESHOLD);
    }

    private static void add(EventBuffer b, long ms, int proc, EventType t, int peer, long a, long c, long e) {
        b.add(T0 + ms * MS, proc, t.code, peer, a, -1, c, 100, e);
    }

    private static String text(Summary s, boolean explain) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        s.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), explain);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * m0 multicasts seqno 1 before m1 and m2 run, seqno 2 before they joined the group (they never receive it: a
     * joiner gets the multicasts after its join), seqno 3 when they are members (both receive it); m2 ends, then m0
     * sends it a unicast and an ACK. Nothing was lost: the first two multicasts were for no one else, and what went
     * to m2 after its end could never show a receive.
     */
    @Test
    void multicastBeforeAMemberStarted_andPacketsAfterTheReceiverEnded_areNotLost() throws Exception {
        EventBuffer b = new EventBuffer(64);
        add(b, 0, 0, EventType.PROC_START, -1, 0, 0, 0);
        add(b, 1, 0, EventType.FRAG_SEND, -1, 1, NAKACK2, 0);
        add(b, 10, 1, EventType.PROC_START, -1, 0, 0, 0);
        add(b, 10, 2, EventType.PROC_START, -1, 0, 0, 0);
        add(b, 12, 0, EventType.FRAG_SEND, -1, 2, NAKACK2, 0);
        add(b, 20, 0, EventType.FRAG_SEND, -1, 3, NAKACK2, 0);
        add(b, 21, 1, EventType.FRAG_RECV, 0, 3, NAKACK2, 0);
        add(b, 21, 2, EventType.FRAG_RECV, 0, 3, NAKACK2, 0);
        add(b, 30, 2, EventType.PROC_END, -1, 0, 0, 0);
        add(b, 40, 0, EventType.FRAG_SEND, 2, 1, UNICAST3, 0);
        add(b, 41, 0, EventType.ACK_SEND, 2, 7, UNICAST3, 0);
        add(b, 50, 1, EventType.PROC_END, -1, 0, 0, 0);
        add(b, 50, 0, EventType.PROC_END, -1, 0, 0, 0);
        Summary s = summarize(b);
        PairStats to1 = s.pairs.get(1L);
        PairStats to2 = s.pairs.get(2L);
        assertEquals(1, to1.dataSent, "the multicasts before m1 started or joined do not count for m1");
        assertEquals(1, to1.dataRecv);
        assertEquals(0.0, to1.dataLoss());
        assertEquals(2, to2.dataSent);
        assertEquals(1, to2.dataAfterEnd);
        assertEquals(1, to2.acksAfterEnd);
        assertEquals(0.0, to2.dataLoss());
        assertEquals(0.0, to2.ackLoss());
        assertNull(s.withoutDrops(), "no loss and no retransmission: nothing to explain");
    }

    @Test
    void unicastNeverReceivedWhileTheReceiverRan_isLost() throws Exception {
        EventBuffer b = new EventBuffer(16);
        add(b, 0, 0, EventType.PROC_START, -1, 0, 0, 0);
        add(b, 0, 1, EventType.PROC_START, -1, 0, 0, 0);
        add(b, 5, 0, EventType.FRAG_SEND, 1, 1, UNICAST3, 0);
        add(b, 6, 0, EventType.FRAG_SEND, 1, 2, UNICAST3, 0);
        add(b, 7, 1, EventType.FRAG_RECV, 0, 2, UNICAST3, 0);
        add(b, 50, 1, EventType.PROC_END, -1, 0, 0, 0);
        add(b, 50, 0, EventType.PROC_END, -1, 0, 0, 0);
        assertEquals(0.5, summarize(b).pairs.get(1L).dataLoss());
    }

    /**
     * A timer-caused retransmission in a run whose network dropped nothing: the text says why; the clock offsets
     * are a table (not a Java map); --explain gives every column of the transport table its meaning.
     */
    @Test
    void text_explainsColumns_tabulatesOffsets_andSaysWhyARunWithoutDropsRetransmits() throws Exception {
        EventBuffer b = new EventBuffer(16);
        add(b, 0, 0, EventType.PROC_START, -1, 0, 0, 0);
        add(b, 0, 1, EventType.PROC_START, -1, 0, 0, 0);
        add(b, 5, 0, EventType.FRAG_SEND, 1, 1, UNICAST3, 0);
        add(b, 7, 1, EventType.FRAG_RECV, 0, 1, UNICAST3, 0);
        add(b, 60, 0, EventType.RETRANS_SEND, 1, 1, UNICAST3, 4 + EventType.CAUSE_TIMEOUT);
        add(b, 61, 1, EventType.FRAG_RECV, 0, 1, UNICAST3, 0);
        add(b, 61, 1, EventType.DUPLICATE_FRAG, 0, 1, UNICAST3, 1);
        add(b, 90, 1, EventType.PROC_END, -1, 0, 0, 0);
        add(b, 90, 0, EventType.PROC_END, -1, 0, 0, 0);
        Summary s = summarize(b);
        String plain = text(s, false);
        assertTrue(plain.contains("note: the network dropped no packet in this run"), plain);
        assertTrue(plain.contains("JGroups' own timers"), plain);
        assertTrue(plain.contains("(what each column means: dsmscope monitor summary --explain)"), plain);
        assertFalse(plain.contains("{"), "no Java map in the text: " + plain);
        assertTrue(plain.matches("(?s).*Clock offsets.*\nprocess +offset_ms\nm0 +0\\.000\nm1 +0\\.000\n.*"), plain);
        String explained = text(s, true);
        String header = plain.lines().filter(l -> l.startsWith("pair ")).findFirst().orElseThrow();
        for (String column : header.trim().split(" +")) {
            if (!column.equals("pair")) {
                assertTrue(explained.contains("\n  " + column + " ") || explained.contains(column + " is ")
                        || explained.contains(column + ": "), "no legend line for " + column + ":\n" + explained);
            }
        }
        for (String column : new String[] {"span_ms", "computation%", "overhead%", "blocked%"}) {
            assertTrue(explained.contains(column), column);
        }
        // with the emulated network dropping a packet, the drops explain the retransmissions: no note
        b.add(T0 + 62 * MS, 1, EventType.PACKET_DISCARD.code, 0, 3, -1, UNICAST3, 100, 0);
        assertNull(summarize(b).withoutDrops());
    }
}
