package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Seed 001 §5.3 Figure 4: the two-processor execution profile, reproduced as a trace. */
class ConcurrencyProfileTest {
    @TempDir
    Path dir;

    private static final long LOCK = 0x2000;
    private static final long BAR = 0x1000;

    /**
     * P0: serial work, spawn, parallel work, barrier (waits for P1: imbalance), work, critical section (P1 finds
     * the lock held: contention), work, join (waits for P1: imbalance), final serial phase.
     */
    private TraceSet figure4() {
        return TestTraces.write(dir, "fig4",
                w -> w.loads(10, 0x10000).spawn(1).loads(20, 0x10000).barrier(BAR, 2).loads(10, 0x10000)
                        .lock(LOCK).stores(10, 0x30000).unlock(LOCK).loads(5, 0x10000).join().loads(7, 0x10000),
                w -> w.loads(30, 0x20000).barrier(BAR, 2).loads(12, 0x20000).lock(LOCK).stores(5, 0x30000)
                        .unlock(LOCK).loads(20, 0x20000));
    }

    @Test
    void figure4_serialParallelSerial_withBarrierLockAndJoinWaits() {
        Recorder r = TestTraces.replay(figure4());
        assertEquals(List.of("serial 0-10", "parallel 10-85", "serial 85-92"), r.phases);
        // {busy, idle, imbalance, contention} per thread
        long[][] serial = r.phaseTimes.get(0);
        assertArrayEquals(new long[] {10, 0}, serial[0]);
        assertArrayEquals(new long[] {0, 10}, serial[1]);
        long[][] par = r.phaseTimes.get(1);
        assertArrayEquals(new long[] {45, 67}, par[0], "busy");
        assertArrayEquals(new long[] {0, 0}, par[1], "idle");
        assertArrayEquals(new long[] {30, 0}, par[2], "imbalance: barrier 10 + join 20 for P0");
        assertArrayEquals(new long[] {0, 8}, par[3], "contention: P1 waits for the lock from 52 to 60");
        long[][] fin = r.phaseTimes.get(2);
        assertArrayEquals(new long[] {7, 0}, fin[0]);
        assertArrayEquals(new long[] {0, 7}, fin[1]);
        assertArrayEquals(new long[] {62, 67}, r.total[0]);
        assertArrayEquals(new long[] {0, 17}, r.total[1]);
    }

    @Test
    void everyPhase_timesAddUpToThePhaseLength() {
        Recorder r = TestTraces.replay(figure4());
        for (int i = 0; i < r.phases.size(); i++) {
            String[] span = r.phases.get(i).split(" ")[1].split("-");
            long len = Long.parseLong(span[1]) - Long.parseLong(span[0]);
            long[][] t = r.phaseTimes.get(i);
            for (int th = 0; th < 2; th++) {
                assertEquals(len, t[0][th] + t[1][th] + t[2][th] + t[3][th], "phase " + i + " thread " + th);
            }
        }
    }

    @Test
    void waitsAreReportedOnTheCallThatWaited() {
        Recorder r = TestTraces.replay(figure4());
        assertEquals(true, r.calls.contains("0 0 40 barrier wait 10 t 2-3"), r.calls.toString());
        assertEquals(true, r.calls.contains("1 1 60 begin_critical wait 8 t 2-3"), r.calls.toString());
        assertEquals(true, r.calls.contains("0 0 85 join wait 20 t 8-9"), r.calls.toString());
    }
}
