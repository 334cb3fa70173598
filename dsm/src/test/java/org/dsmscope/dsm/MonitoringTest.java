package org.dsmscope.dsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dsmscope.monitor.analysis.ClockAligner;
import org.dsmscope.monitor.analysis.EventcountChecker;
import org.dsmscope.monitor.analysis.PairStats;
import org.dsmscope.monitor.analysis.Summary;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.record.Recorder;
import org.dsmscope.monitor.record.RecordingReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Monitor events checked against what the members did (seed 002 §4.1, §4.2). */
@Timeout(60)
class MonitoringTest {
    @TempDir
    Path dir;

    @Test
    void everyAdvanceAppearsWithItsValue() throws Exception {
        Map<Integer, List<Long>> returned = Collections.synchronizedMap(new HashMap<>());
        try (Group g = new Group(3)) {
            g.spmd(d -> {
                Eventcount e = d.createEvent();
                List<Long> l = new ArrayList<>();
                for (int i = 0; i < 7; i++) {
                    l.add(d.advance(e));
                }
                returned.put(d.rank(), l);
                d.await(e, 21);
            });
            g.router.flushAll();
            EventBuffer all = g.sink.all();
            for (int r = 0; r < 3; r++) {
                List<Long> seen = new ArrayList<>();
                for (int i = 0; i < all.size(); i++) {
                    if (all.type[i] == EventType.ADVANCE.code && all.proc[i] == r) {
                        seen.add(all.b[i]);
                    }
                }
                assertEquals(returned.get(r), seen, "advances of m" + r);
            }
        }
    }

    /** Drives traffic with fragments, requests and replies. */
    private static void traffic(Group g, int rounds) throws Exception {
        g.spmd(d -> {
            RandomSegment s = d.createRandom(40_000, Consistency.release());
            Eventcount it = d.createEvent();
            Eventcount joined = d.createEvent();
            d.needUpdates(s);
            d.advance(joined);
            d.await(joined, d.members());
            for (int r = 1; r <= rounds; r++) {
                int part = 40_000 / d.members();
                for (int k = 0; k < part / 8; k++) {
                    s.putLong(d.rank() * part + k * 8, r * 1000L + d.rank());
                }
                d.putUpdates(s);
                d.advance(it);
                d.await(it, (long) r * d.members());
                d.getUpdates(s);
                for (int m = 0; m < d.members(); m++) {
                    long v = s.getLong(m * part);
                    // release consistency: at least this round's value (a faster member may be ahead)
                    assertTrue(v % 1000 == m && v / 1000 >= r, "round " + r + " part " + m + ": " + v);
                }
            }
        });
    }

    @Test
    void underInjectedLoss_everyRetransmissionHasItsNackOrTimeout_andSummariesAddUp() throws Exception {
        Path f = dir.resolve("loss.dsmrec");
        Recorder rec = new Recorder(f);
        try (Group g = new Group(3, c -> c.loss = 0.08)) {
            g.router.addSink(rec);
            traffic(g, 4);
            g.router.flushAll();
            EventBuffer all = g.sink.all();
            Map<Long, Long> firstNack = new HashMap<>();
            for (int j = 0; j < all.size(); j++) {
                if (all.type[j] == EventType.NACK_RECV.code) {
                    firstNack.merge(((long) all.proc[j] << 32) | all.peer[j], all.time[j], Math::min);
                }
            }
            int retrans = 0;
            for (int i = 0; i < all.size(); i++) {
                if (all.type[i] != EventType.RETRANS_SEND.code) {
                    continue;
                }
                retrans++;
                long cause = all.e[i] & 3;
                assertTrue(cause == EventType.CAUSE_NACK || cause == EventType.CAUSE_TIMEOUT, all.describe(i));
                assertTrue(all.e[i] >> 2 >= 1, "attempt counted: " + all.describe(i));
                if (cause == EventType.CAUSE_NACK) {
                    Long nack = firstNack.get(((long) all.proc[i] << 32) | all.peer[i]);
                    assertTrue(nack != null && nack <= all.time[i], "a NACK preceded " + all.describe(i));
                }
            }
            assertTrue(retrans > 0, "loss caused retransmissions");
        }
        rec.close();
        Summary s = Summary.of(f, false, EventcountChecker.DEFAULT_THRESHOLD);
        long retr = 0, byCause = 0, recv = 0, disc = 0;
        for (PairStats p : s.pairs.values()) {
            retr += p.retrans;
            byCause += p.retransTimeout + p.retransNack;
            recv += p.dataRecv;
            disc += p.discards;
            long levels = 0;
            for (long v : p.levels.values()) {
                levels += v;
            }
            assertTrue(levels <= p.retrans, "levels count fragments, each retransmitted at least once");
        }
        assertEquals(s.counts.get("Retrans_Send"), retr);
        assertEquals(retr, byCause);
        assertEquals(s.counts.get("Frag_Recv"), recv);
        assertEquals(s.counts.getOrDefault("Packet_Discard", 0L), disc);
        assertTrue(disc > 0, "DISCARD drops were reported");
    }

    @Test
    void droppedEventcountMulticast_isReportedAsInconsistency() throws Exception {
        Path f = dir.resolve("ec.dsmrec");
        Recorder rec = new Recorder(f);
        try (Group g = new Group(3, c -> c.autoSyncMillis = 0)) {
            g.router.addSink(rec);
            List<Eventcount> e = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                e.add(g.m(r).createEvent());
            }
            g.m(0).advance(e.get(0));
            Thread.sleep(100);
            g.m(0).discard().dropDownMulticasts(1);
            g.m(0).advance(e.get(0));
            Thread.sleep(750);
            assertEquals(1, e.get(1).count(), "m1 holds a stale count");
            g.m(1).eventSync(e.get(1));
            assertEquals(2, e.get(1).count());
        }
        rec.close();
        Summary s = Summary.of(f, false, EventcountChecker.DEFAULT_THRESHOLD);
        List<Integer> behind = new ArrayList<>();
        for (EventcountChecker.Inconsistency x : s.inconsistencies) {
            behind.add(x.proc);
            assertEquals(0, x.event);
            assertEquals(2, x.latest);
            assertTrue(x.millis() > 500, x.toString());
        }
        Collections.sort(behind);
        assertEquals(List.of(1, 2), behind, s.inconsistencies.toString());
    }

    @Test
    void injectedClockSkewIsRecoveredWithin1ms_andNoReceiveIsBeforeItsSend() throws Exception {
        long[] skew = {0, 37_000_000L, -23_000_000L};
        Path f = dir.resolve("skew.dsmrec");
        Recorder rec = new Recorder(f);
        try (Group g = new Group(3, c -> c.skewNanos = skew[c.rank])) {
            g.router.addSink(rec);
            traffic(g, 4);
        }
        rec.close();
        TreeMap<Integer, Long> off = ClockAligner.of(f);
        for (int p = 1; p < 3; p++) {
            long err = Math.abs(off.get(p) - off.get(0) - (skew[p] - skew[0]));
            assertTrue(err < 1_000_000L, "m" + p + " offset " + off.get(p) + " vs skew " + skew[p] + " err " + err);
        }
        EventBuffer all = RecordingReader.readAll(f);
        Map<Long, Long> sends = new HashMap<>();
        for (int i = 0; i < all.size(); i++) {
            if (all.type[i] == EventType.MSG_SEND_BEGIN.code) {
                sends.put(((long) all.proc[i] << 40) ^ all.b[i], all.time[i] - off.get(all.proc[i]));
            }
        }
        int pairs = 0;
        for (int i = 0; i < all.size(); i++) {
            if (all.type[i] == EventType.MSG_RECEIVE_END.code) {
                Long s = sends.get(((long) all.peer[i] << 40) ^ all.b[i]);
                if (s != null) {
                    pairs++;
                    long r = all.time[i] - off.get(all.proc[i]);
                    assertTrue(r >= s, "receive drawn before its send: " + all.describe(i));
                }
            }
        }
        assertTrue(pairs > 50, "pairs " + pairs);
    }

    @Test
    void fullDiskWhileRecording_recordingStopsAndSaysSo_programKeepsRunning() throws Exception {
        java.io.ByteArrayOutputStream msgs = new java.io.ByteArrayOutputStream();
        long[] budget = {2_000};
        java.nio.channels.WritableByteChannel disk = new java.nio.channels.WritableByteChannel() {
            @Override
            public int write(java.nio.ByteBuffer src) throws java.io.IOException {
                if (budget[0] <= 0) {
                    throw new java.io.IOException("No space left on device");
                }
                int n = (int) Math.min(src.remaining(), budget[0]);
                src.position(src.position() + n);
                budget[0] -= n;
                return n;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        Recorder rec = new Recorder(disk, "full.dsmrec", new java.io.PrintStream(msgs, true, "UTF-8"));
        try (Group g = new Group(2)) {
            g.router.addSink(rec);
            traffic(g, 5);
        }
        rec.close();
        assertTrue(rec.failure() != null && msgs.toString("UTF-8").contains("No space left on device"),
                msgs.toString("UTF-8"));
    }

    @Test
    void memberKilledMidRun_othersContinue_andTheRecordingIsReadable() throws Exception {
        Path f = dir.resolve("kill.dsmrec");
        Recorder rec = new Recorder(f);
        try (Group g = new Group(3)) {
            g.router.addSink(rec);
            RandomSegment[] s = new RandomSegment[3];
            Eventcount[] e = new Eventcount[3];
            for (int r = 0; r < 3; r++) {
                s[r] = g.m(r).createRandom(64, Consistency.release());
                e[r] = g.m(r).createEvent();
            }
            for (int r = 0; r < 3; r++) {
                g.m(r).needUpdates(s[r]);
            }
            g.m(2).crash();
            long deadline = System.currentTimeMillis() + 10_000;
            while (g.m(0).ranks().size() > 2 && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
            s[0].putLong(0, 5);
            g.m(0).putUpdates(s[0]);
            g.m(0).advance(e[0]);
            g.m(1).await(e[1], 1);
            g.m(1).getUpdates(s[1]);
            assertEquals(5, s[1].getLong(0));
        }
        rec.close();
        Summary sum = Summary.of(f, false, EventcountChecker.DEFAULT_THRESHOLD);
        assertFalse(sum.times.get(2).ended, "the killed member has no end event");
        assertTrue(sum.times.get(0).ended);
    }
}
