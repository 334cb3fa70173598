package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fixtures for every scheduler option of seed 000 Appendix B: each changes a documented result. */
class SliceSchedulerTest {
    @TempDir
    Path dir;

    private static ReplayOptions on(int p) {
        ReplayOptions o = new ReplayOptions();
        o.interleave = p;
        return o;
    }

    private static TestTraces.W semop(TestTraces.W w, long start, long end) {
        w.w.call(CallType.SEMOP, start, end, 7, 0, -1, 0);
        return w;
    }

    /** Three processes on two processors; see SliceSchedulerTest notes in the README. */
    private TraceSet threeProcesses() {
        return TestTraces.write(dir, "tpc",
                w -> { w.loads(100, 0x1000); semop(w, 10, 11); w.loads(100, 0x1000); semop(w, 20, 21); },
                w -> { w.loads(50, 0x2000); semop(w, 5, 6); w.loads(200, 0x2000); semop(w, 30, 31); },
                w -> { w.loads(30, 0x3000); semop(w, 3, 4); w.loads(30, 0x3000); semop(w, 12, 13); });
    }

    private static Replay run(TraceSet set, ReplayOptions o, Recorder r) {
        Replay rp = new Replay(set, null, o);
        rp.add(r).run();
        return rp;
    }

    private static List<Integer> cpusOf(SliceScheduler.Schedule s, int trace) {
        List<Integer> cpus = new ArrayList<>();
        for (int c = 0; c < s.processors(); c++) {
            for (int k = 0; k < s.segments(c); k++) {
                if (s.trace(c, k) == trace && s.to(c, k) > s.from(c, k)) {
                    cpus.add(c);
                }
            }
        }
        return cpus;
    }

    @Test
    void greedy_migratesAProcessToWhicheverProcessorIsFree() {
        Replay rp = run(threeProcesses(), on(2), new Recorder());
        assertEquals(List.of(0, 1), cpusOf(rp.schedule(), 0), rp.schedule().toString());
    }

    @Test
    void affinity_keepsAProcessOnItsFirstProcessor() {
        ReplayOptions o = on(2);
        o.affinity = true;
        Recorder r = new Recorder();
        Replay rp = run(threeProcesses(), o, r);
        assertEquals(List.of(0, 0), cpusOf(rp.schedule(), 0), rp.schedule().toString());
        assertTrue(r.accesses.stream().filter(a -> a.startsWith("0 ")).allMatch(a -> a.startsWith("0 0 ")));
    }

    @Test
    void greedy_keepsTheSynchronizationOrderOfSlices() {
        Replay rp = run(threeProcesses(), on(2), new Recorder());
        // process 1's second slice starts (real time 6) after process 2's first slice ended (real time 3):
        // it may not start before that slice completed at clock 80
        SliceScheduler.Schedule s = rp.schedule();
        for (int c = 0; c < 2; c++) {
            for (int k = 0; k < s.segments(c); k++) {
                if (s.trace(c, k) == 1 && s.from(c, k) == 50) {
                    assertTrue(s.start(c, k) >= 80, s.toString());
                }
            }
        }
    }

    @Test
    void timeSlicing_splitsA250InstructionSliceIntoThree() {
        TraceSet set = TestTraces.write(dir, "long", w -> w.loads(250, 0x1000));
        ReplayOptions o = on(1);
        o.sliceLength = 100;
        Replay rp = run(set, o, new Recorder());
        assertEquals("0 0 0-100 @0\n0 0 100-200 @100\n0 0 200-250 @200\n", rp.schedule().toString());
    }

    @Test
    void keepLongSlices_runsTheSliceToItsEnd() {
        TraceSet set = TestTraces.write(dir, "longk", w -> w.loads(250, 0x1000));
        ReplayOptions o = on(1);
        o.sliceLength = 100;
        o.keepLongSlices = true;
        Replay rp = run(set, o, new Recorder());
        assertEquals("0 0 0-250 @0\n", rp.schedule().toString());
    }

    @Test
    void timeSlicing_letsAWaitingProcessIn() {
        TraceSet set = TestTraces.write(dir, "two", w -> w.loads(250, 0x1000), w -> w.loads(100, 0x2000));
        ReplayOptions o = on(1);
        o.sliceLength = 100;
        Replay rp = run(set, o, new Recorder());
        assertEquals("0 0 0-100 @0\n0 1 0-100 @100\n0 0 100-200 @200\n0 0 200-250 @300\n",
                rp.schedule().toString());
    }

    @Test
    void rrInterleaving_placesTraceIOnProcessorIModP_alternatingSlices() {
        ReplayOptions o = on(2);
        o.rrInterleaving = true;
        Replay rp = run(threeProcesses(), o, new Recorder());
        SliceScheduler.Schedule s = rp.schedule();
        List<Integer> cpu0 = new ArrayList<>();
        for (int k = 0; k < s.segments(0); k++) {
            cpu0.add(s.trace(0, k));
        }
        assertEquals(List.of(0, 2, 0, 2, 0, 2), cpu0, s.toString());
        for (int k = 0; k < s.segments(1); k++) {
            assertEquals(1, s.trace(1, k));
        }
    }

    private TraceSet reader() {
        return TestTraces.write(dir, "rd",
                w -> { w.loads(50, 0x1000); w.w.call(CallType.FILE_READ, 1, 2, 0x8000, 4096, 3, 0);
                    w.loads(50, 0x1000); },
                w -> w.loads(100, 0x2000));
    }

    /** {@code o} with {@code -handle_io}, a 10 ms disk, 1 MHz and IPC 1 (10 ms = 10,000 instructions). */
    static ReplayOptions io(ReplayOptions o) {
        o.handleIo = true;
        o.diskLatency = 10;
        o.mhz = 1;
        o.ipc = 1;
        return o;
    }

    @Test
    void handleIo_withDiskLatency10_swapsTheReaderOutDuringItsRead() {
        Replay rp = run(reader(), io(on(1)), new Recorder());
        // 10 ms = 10,000 instructions at 1 MHz, IPC 1; 4096 B at 20 MB/s = 205 instructions
        assertEquals("0 0 0-50 @0\n0 1 0-100 @50\n0 0 50-100 @10255\n", rp.schedule().toString());
        assertEquals(10255 - 50, rp.schedule().ioBlocked(0));
    }

    @Test
    void withoutHandleIo_aReadIsPartOfTheSliceBody() {
        Replay rp = run(reader(), on(1), new Recorder());
        assertEquals("0 0 0-100 @0\n0 1 0-100 @100\n", rp.schedule().toString());
    }

    @Test
    void asynchIo_neverSwapsOut() {
        ReplayOptions o = io(on(1));
        o.asynchIo = true;
        assertEquals("0 0 0-100 @0\n0 1 0-100 @100\n", run(reader(), o, new Recorder()).schedule().toString());
    }

    @Test
    void bufferedIo_writesDoNotSwapOut_readsDo() {
        TraceSet set = TestTraces.write(dir, "wr",
                w -> { w.loads(50, 0x1000); w.w.call(CallType.FILE_WRITE, 1, 2, 0x8000, 4096, 3, 0);
                    w.loads(50, 0x1000); },
                w -> w.loads(100, 0x2000));
        assertEquals("0 0 0-50 @0\n0 1 0-100 @50\n0 0 50-100 @10255\n",
                run(set, io(on(1)), new Recorder()).schedule().toString(), "raw write blocks");
        ReplayOptions o = io(on(1));
        o.bufferedIo = true;
        assertEquals("0 0 0-100 @0\n0 1 0-100 @100\n", run(set, o, new Recorder()).schedule().toString());
    }

    @Test
    void distributedIo_overlapsTransfersThatCenteredIoSerializes() {
        TestTraces.T readsBig = w -> { w.loads(10, 0x1000); w.w.call(CallType.FILE_READ, 1, 2, 0x8000, 2_000_000, 3,
                0); w.loads(10, 0x1000); };
        TraceSet set = TestTraces.write(dir, "dist", readsBig, readsBig);
        SliceScheduler.Schedule centered = run(set, io(on(2)), new Recorder()).schedule();
        ReplayOptions o = io(on(2));
        o.distributedIo = true;
        SliceScheduler.Schedule dist = run(set, o, new Recorder()).schedule();
        // transfer 2 MB at 20 MB/s = 100,000 instructions; latency 10,000
        assertEquals(110_010, resumedAt(dist, 0), dist.toString());
        assertEquals(110_010, resumedAt(dist, 1), dist.toString());
        assertEquals(110_010, resumedAt(centered, 0), centered.toString());
        assertEquals(210_010, resumedAt(centered, 1), centered.toString());
    }

    private static long resumedAt(SliceScheduler.Schedule s, int trace) {
        for (int c = 0; c < s.processors(); c++) {
            for (int k = 0; k < s.segments(c); k++) {
                if (s.trace(c, k) == trace && s.from(c, k) == 10) {
                    return s.start(c, k);
                }
            }
        }
        return -1;
    }

    @Test
    void interleavedReplay_timesAddUpPerProcess() {
        Recorder r = new Recorder();
        run(reader(), io(on(1)), r);
        long[][] t = r.total;
        long len = Long.parseLong(r.phases.get(0).split("-")[1]);
        for (int p = 0; p < 2; p++) {
            assertEquals(len, t[0][p] + t[1][p] + t[2][p] + t[3][p]);
        }
        assertEquals(100, t[0][0]);
        assertEquals(200, r.accesses.size());
    }
}
