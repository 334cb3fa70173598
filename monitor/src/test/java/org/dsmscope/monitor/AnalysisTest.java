package org.dsmscope.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dsmscope.monitor.analysis.ClockAligner;
import org.dsmscope.monitor.analysis.EventcountChecker;
import org.dsmscope.monitor.analysis.PairStats;
import org.dsmscope.monitor.analysis.SyncArrows;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.junit.jupiter.api.Test;

/** The analyses on hand-built event streams. */
class AnalysisTest {
    @Test
    void theAdvanceThatReachesTheAwaitedValueFirstReleasesIt() {
        SyncArrows s = new SyncArrows();
        s.advance(5, 0, 10);
        s.advance(5, 2, 20);
        s.await(5, 1, 2, 25);
        s.await(5, 2, 1, 12);
        List<SyncArrows.Arrow> a = s.arrows();
        assertEquals(2, a.size());
        assertEquals(0, a.get(0).fromProc);
        assertEquals(2, a.get(0).toProc);
        assertEquals(2, a.get(1).fromProc);
        assertEquals(1, a.get(1).toProc);
        assertEquals(25, a.get(1).toTime);
    }

    @Test
    void memberBehindLongerThanTheThresholdIsReported_shortLagIsNot() {
        EventcountChecker c = new EventcountChecker();
        long ms = 1_000_000;
        for (int p = 0; p < 3; p++) {
            c.add(0, p, 3, 7, 0);
        }
        c.add(10 * ms, 0, 0, 7, 1);
        c.add(11 * ms, 1, 1, 7, 1);   // p1 catches up after 1 ms
        c.add(900 * ms, 2, 1, 7, 1);  // p2 after 890 ms
        c.seen(1000 * ms);
        List<EventcountChecker.Inconsistency> x = c.check(500 * ms);
        assertEquals(1, x.size());
        assertEquals(2, x.get(0).proc);
        assertEquals(890.0, x.get(0).millis(), 1e-9);
    }

    @Test
    void clockOffsetsFromSendReceivePairs_areTheSkewForSymmetricDelays() {
        EventBuffer b = new EventBuffer(100);
        long skew = 5_000_000;
        long seq = 0;
        for (int i = 0; i < 10; i++) {
            long t = 1_000_000_000L + i * 1_000_000L;
            b.add(t, 0, EventType.MSG_SEND_BEGIN.code, 1, 0, ++seq, 0, 0, 0);
            b.add(t + 100_000 + skew, 1, EventType.MSG_RECEIVE_END.code, 0, 0, seq, 0, 0, 0);
            b.add(t + 500_000 + skew, 1, EventType.MSG_SEND_BEGIN.code, 0, 0, ++seq, 0, 0, 0);
            b.add(t + 600_000, 0, EventType.MSG_RECEIVE_END.code, 1, 0, seq, 0, 0, 0);
        }
        ClockAligner al = new ClockAligner();
        al.add(b);
        assertEquals(20, al.matched());
        assertEquals(skew, (long) al.offsets().get(1));
    }

    @Test
    void lossRatesNeverNegative_andPercentagesOfWhatWasSent() {
        PairStats p = new PairStats(0, 1);
        p.dataSent = 90;
        p.retrans = 10;
        p.dataRecv = 95;
        assertEquals(0.05, p.dataLoss(), 1e-12);
        assertEquals(10.0, p.retransPercent(), 1e-12);
        assertEquals(0.0, PairStats.loss(3, 5));
        assertTrue(Double.isNaN(p.rttMicros()));
    }
}
