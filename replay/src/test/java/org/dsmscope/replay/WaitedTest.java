package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.replay.gen.ProcessGen;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Analysis#waited}: every clock the engine books as idle, imbalance or contention comes as one interval, in
 * callback order, per phase and over the run; one thread's intervals never overlap; exact intervals for small
 * hand-built traces; the same calls in every partition.
 */
class WaitedTest {
    @TempDir
    Path dir;

    private static final String[] REASON = {"idle", "imbalance", "contention", "io"};

    /**
     * Records the waits and checks them as they come: after a wait no record of the thread comes at a clock before
     * its end, a wait begins no earlier than the thread's last work ended and its previous wait, it lies in the
     * phase delivered around it, and per phase the waits of each thread sum up to the phase's times.
     */
    /** Collects {@link Analysis#processorIdle} intervals and checks them against the accesses' processors. */
    static final class ProcessorIdle implements Analysis {
        final List<String> errors = new ArrayList<>();
        long[] idle;
        long[] lastTo;
        long[] lastAccess;
        long end;

        @Override
        public void begin(ReplayContext ctx) {
            idle = new long[ctx.processors()];
            lastTo = new long[ctx.processors()];
            lastAccess = new long[ctx.processors()];
            java.util.Arrays.fill(lastAccess, -1);
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            if (clock < lastTo[cpu]) {
                errors.add("access on processor " + cpu + " at " + clock + " inside its idle time until " + lastTo[cpu]);
            }
            lastAccess[cpu] = clock;
        }

        @Override
        public void processorIdle(int cpu, long from, long to) {
            if (to <= from || from < lastTo[cpu] || from <= lastAccess[cpu]) {
                errors.add("processor " + cpu + " idle " + from + "-" + to + " after " + lastTo[cpu] + " / access at "
                        + lastAccess[cpu]);
            }
            idle[cpu] += to - from;
            lastTo[cpu] = to;
        }

        @Override
        public void phaseEnd(Phase phase, PhaseTimes times) {
            end = phase.endClock();
        }
    }

    static final class Waits implements Analysis {
        final List<String> waits = new ArrayList<>();
        /** Waits and calls in delivery order. */
        final List<String> log = new ArrayList<>();
        final List<String> errors = new ArrayList<>();
        int n;
        /** Per reason and thread, the waits' sum over the run. */
        long[][] sum;
        private long[][] phaseSum;
        private long[] lastTo;
        private long[] workEnd;
        private Phase phase;
        private long phaseMaxTo;
        long[][] total;
        long endClock;
        final long[] count = new long[REASON.length];

        @Override
        public void begin(ReplayContext ctx) {
            n = ctx.threads();
            sum = new long[REASON.length][n];
            lastTo = new long[n];
            workEnd = new long[n];
        }

        @Override
        public void phaseBegin(Phase p) {
            phase = p;
            phaseSum = new long[REASON.length][n];
            phaseMaxTo = p.startClock();
        }

        private void work(int t, long clock, long end, String what) {
            if (clock < lastTo[t]) {
                errors.add(what + " of thread " + t + " at clock " + clock + " after its wait until " + lastTo[t]);
            }
            workEnd[t] = Math.max(workEnd[t], end);
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            work(thread, clock, clock + 1, "access");
        }

        @Override
        public void fetch(int thread, int cpu, long clock, long address, int size) {
            work(thread, clock, clock + 1, "fetch");
        }

        @Override
        public void branch(int thread, int cpu, long clock, int kind, long source, long target) {
            work(thread, clock, clock, "branch");
        }

        @Override
        public void call(int thread, int cpu, long clock, CallEvent call) {
            work(thread, clock, clock, "call");
            log.add("C " + thread + " " + clock + " " + CallType.name(call.type) + " wait " + call.waitClocks);
        }

        @Override
        public void waited(int thread, int cpu, long from, long to, int reason) {
            String s = thread + " " + cpu + " " + from + "-" + to + " " + REASON[reason];
            if (phase == null) {
                errors.add("wait before the first phase: " + s);
                return;
            }
            if (to <= from) {
                errors.add("empty wait " + s);
            }
            if (from < lastTo[thread]) {
                errors.add("wait " + s + " overlaps or precedes the thread's previous one, until " + lastTo[thread]);
            }
            if (from < workEnd[thread]) {
                errors.add("wait " + s + " begins before the thread's last work ended, at " + workEnd[thread]);
            }
            if (from < phase.startClock()) {
                errors.add("wait " + s + " begins before its phase, at " + phase.startClock());
            }
            lastTo[thread] = to;
            sum[reason][thread] += to - from;
            phaseSum[reason][thread] += to - from;
            phaseMaxTo = Math.max(phaseMaxTo, to);
            count[reason]++;
            waits.add(s);
            log.add("W " + s);
        }

        @Override
        public void phaseEnd(Phase p, PhaseTimes times) {
            if (phaseMaxTo > p.endClock()) {
                errors.add("phase " + p.id() + " ends at " + p.endClock() + ", a wait in it at " + phaseMaxTo);
            }
            for (int t = 0; t < n; t++) {
                if (times.idle[t] != phaseSum[Analysis.WAIT_IDLE][t] + phaseSum[Analysis.WAIT_IO][t]
                        || times.imbalance[t] != phaseSum[Analysis.WAIT_IMBALANCE][t]
                        || times.contention[t] != phaseSum[Analysis.WAIT_CONTENTION][t]) {
                    errors.add("phase " + p.id() + " thread " + t + ": times idle " + times.idle[t] + " imbalance "
                            + times.imbalance[t] + " contention " + times.contention[t] + ", waits "
                            + java.util.Arrays.toString(column(phaseSum, t)));
                }
            }
            endClock = Math.max(endClock, p.endClock());
            phase = null;
        }

        @Override
        public void end(ReplayContext ctx, PhaseTimes t) {
            total = Recorder.copy(t);
        }

        private static long[] column(long[][] a, int t) {
            long[] c = new long[a.length];
            for (int r = 0; r < a.length; r++) {
                c[r] = a[r][t];
            }
            return c;
        }

        /** The checks made on the way, then per thread: waits per reason = the run's times, and they add up. */
        Waits check() {
            assertTrue(errors.isEmpty(), String.join("\n", errors));
            for (int t = 0; t < n; t++) {
                assertEquals(total[1][t], sum[Analysis.WAIT_IDLE][t] + sum[Analysis.WAIT_IO][t], "idle of " + t);
                assertEquals(total[2][t], sum[Analysis.WAIT_IMBALANCE][t], "imbalance of " + t);
                assertEquals(total[3][t], sum[Analysis.WAIT_CONTENTION][t], "contention of " + t);
                assertEquals(endClock, total[0][t] + total[1][t] + total[2][t] + total[3][t], "times of " + t);
            }
            return this;
        }
    }

    private static Waits run(TraceSet set, ReplayOptions o) {
        Waits w = new Waits();
        new Replay(set, null, o).add(w).run();
        return w.check();
    }

    private static ReplayOptions parallel() {
        ReplayOptions o = new ReplayOptions();
        o.parallelStart = true;
        return o;
    }

    @Test
    void twoThreadLock_givesTheWaiterTheExactInterval() {
        TraceSet set = TestTraces.write(dir, "lock2",
                w -> w.lock(0x40).loads(10, 0x1000).unlock(0x40),
                w -> w.loads(2, 0x2000).lock(0x40).loads(3, 0x2000).unlock(0x40));
        Waits w = run(set, parallel());
        // thread 1 reaches the lock at clock 2 and gets it when thread 0 releases it at 10; at the tie of clocks
        // thread 1 (after thread 0 in the round) runs its load at 10 before thread 0 reads its end: the parallel
        // phase ends at 11 (thread 0's imbalance), and thread 1 finishes alone (serial, 11-13: thread 0 idle)
        assertEquals(List.of("1 1 2-10 contention", "0 0 10-11 imbalance", "0 0 11-13 idle"), w.waits);
        int release = w.log.indexOf("C 0 10 end_critical wait 0");
        int wait = w.log.indexOf("W 1 1 2-10 contention");
        int acquire = w.log.indexOf("C 1 10 begin_critical wait 8");
        assertTrue(release >= 0 && release < wait && wait < acquire, w.log.toString());
        assertEquals(8, w.total[3][1]);
        assertEquals(2, w.total[1][0]);
        assertEquals(1, w.total[2][0]);
    }

    @Test
    void locks_contentionOfEveryThreadComesAsWaits() {
        TestTraces.T body = w -> {
            for (int i = 0; i < 5; i++) {
                w.loads(1 + i, 0x1000).lock(0x40).stores(3, 0x3000).unlock(0x40).lock(0x80).loads(2, 0x3000)
                        .unlock(0x80);
            }
        };
        TraceSet set = TestTraces.write(dir, "locks", body, body, w -> w.loads(4, 0x100).readLock(0x40)
                .loads(9, 0x100).readUnlock(0x40).lock(0x40).loads(1, 0x100).unlock(0x40), body);
        Waits w = run(set, parallel());
        assertTrue(w.count[Analysis.WAIT_CONTENTION] >= 5, w.waits.toString());
    }

    @Test
    void barrier_givesEachEarlyArrivalItsImbalance() {
        TraceSet set = TestTraces.write(dir, "bar",
                w -> w.loads(2, 0x100).barrier(0x10, 0).loads(1, 0x100),
                w -> w.loads(6, 0x200).barrier(0x10, 0).loads(1, 0x200),
                w -> w.loads(9, 0x300).barrier(0x10, 0).loads(1, 0x300));
        Waits w = run(set, parallel());
        assertEquals(List.of("0 0 2-9 imbalance", "1 1 6-9 imbalance"), w.waits);
    }

    @Test
    void forkJoin_serialPhaseIdleJoinAndEndedThreads() {
        TraceSet set = TestTraces.write(dir, "fj",
                w -> w.stores(5, 0x100).spawn(2).loads(3, 0x100).join().loads(4, 0x100),
                w -> w.loads(7, 0x200),
                w -> w.loads(2, 0x300));
        Waits w = run(set, new ReplayOptions());
        // serial 0-5: threads 1 and 2 idle until spawned; parallel 5-12: thread 0 joins at 8, thread 2 ends at 7;
        // serial 12-16: threads 1 and 2 idle
        assertEquals(List.of("1 1 0-5 idle", "2 2 0-5 idle", "0 0 8-12 imbalance", "2 2 7-12 imbalance",
                "1 1 12-16 idle", "2 2 12-16 idle"), w.waits);
    }

    @Test
    void joinsOfNamedThreads_andSeedStyleRegions() {
        TraceSet named = TestTraces.write(dir, "jn",
                w -> w.call(CallType.SPAWN, 1, 2, 0).loads(1, 0x100).call(CallType.JOIN, 0, 0, 1)
                        .call(CallType.JOIN, 0, 0, 2).loads(1, 0x100),
                w -> w.loads(5, 0x200),
                w -> w.loads(8, 0x300));
        Waits a = run(named, new ReplayOptions());
        assertTrue(a.waits.contains("0 0 1-5 imbalance"), a.waits.toString());
        assertTrue(a.waits.contains("0 0 5-8 imbalance"), a.waits.toString());
        TraceSet regions = TestTraces.write(dir, "regions",
                w -> w.spawn(1).loads(2, 0x100).join().loads(1, 0x100).spawn(1).loads(2, 0x100).join(),
                w -> w.loads(4, 0x200).join().loads(3, 0x200).join());
        Waits b = run(regions, new ReplayOptions());
        assertTrue(b.count[Analysis.WAIT_IMBALANCE] > 0 && b.count[Analysis.WAIT_IDLE] > 0, b.waits.toString());
    }

    @Test
    void markersOrderedSectionsAndConditions() {
        TestTraces.T ordered = w -> {
            for (int i = 0; i < 2; i++) {
                w.loads(1 + 2 * i, 0x800).call(CallType.BEGIN_ORDER, 0, 0, 0).stores(2, 0x900)
                        .call(CallType.END_ORDER, 0, 0, 0);
            }
        };
        TraceSet set = TestTraces.write(dir, "mix",
                w -> { ordered.write(w); w.call(CallType.COND_WAIT, 0x70, 1, 0).loads(1, 0x100)
                        .call(CallType.MARKER, 0, 7, 0).loads(2, 0x100); },
                w -> { ordered.write(w); w.loads(9, 0x200).call(CallType.COND_WAKE, 0x70, 1, 0)
                        .call(CallType.MARKER, 0, 7, 0).loads(1, 0x200); },
                w -> { ordered.write(w); w.loads(2, 0x300).call(CallType.MARKER, 0, 7, 0).loads(5, 0x300); });
        Waits w = run(set, parallel());
        assertTrue(w.count[Analysis.WAIT_CONTENTION] > 0, "ordered sections: " + w.waits);
        assertTrue(w.count[Analysis.WAIT_IMBALANCE] >= 3, "condition wait and marker: " + w.waits);
    }

    @Test
    void aThreadBlockedAtAPhaseEnd_waitsThereInThatPhase() {
        TraceSet set = TestTraces.write(dir, "stuck",
                w -> w.loads(3, 0x100).call(CallType.COND_WAIT, 0x70, 1, 0).loads(1, 0x100),
                w -> w.loads(10, 0x200));
        ReplayOptions o = parallel();
        o.skipBadRecords = true;
        Waits w = run(set, o);
        // thread 1 ends at 10 with thread 0 still waiting: the phase ends there; the deadlock then lets it go
        assertEquals(List.of("0 0 3-10 imbalance", "1 1 10-11 idle"), w.waits);
    }

    @Test
    void diskIoOfAThreadTrace_isAnIoWait() {
        TraceSet set = TestTraces.write(dir, "tio",
                w -> { w.loads(5, 0x1000); w.w.call(CallType.FILE_READ, 1, 2, 0x8000, 4096, 3, 0);
                    w.loads(5, 0x1000); },
                w -> w.loads(20, 0x2000));
        Waits w = run(set, SliceSchedulerTest.io(parallel()));
        // 10 ms at 1 MHz, IPC 1 = 10,000 instructions, 4096 B at 20 MB/s = 205
        assertEquals(List.of("0 0 5-10210 io", "1 1 20-10210 imbalance", "1 1 10210-10215 idle"), w.waits);
        assertEquals(10205 + 5, w.total[1][0] + w.total[1][1]);
    }

    private TraceSet reader() {
        return TestTraces.write(dir, "rd",
                w -> { w.loads(50, 0x1000); w.w.call(CallType.FILE_READ, 1, 2, 0x8000, 4096, 3, 0);
                    w.loads(50, 0x1000); },
                w -> w.loads(100, 0x2000));
    }

    @Test
    void processTraces_handleIo_swappedOutIsAnIoWait() {
        ReplayOptions o = SliceSchedulerTest.io(new ReplayOptions());
        o.interleave = 1;
        Waits w = run(reader(), o);
        // schedule (SliceSchedulerTest): 0 0-50 @0, 1 0-100 @50, 0 50-100 @10255
        assertEquals(List.of("1 0 0-50 idle", "0 0 50-10255 io", "1 0 150-10305 idle"), w.waits);
        o.interleave = 2;
        Waits two = run(reader(), o);
        assertEquals(List.of("0 0 50-10255 io", "1 1 100-10305 idle"), two.waits);
    }

    @Test
    void processTraces_waitingForAProcessor_isContention() {
        TraceSet set = TestTraces.write(dir, "cpu", w -> w.loads(250, 0x1000), w -> w.loads(100, 0x2000));
        ReplayOptions o = new ReplayOptions();
        o.interleave = 1;
        o.sliceLength = 100;
        Waits w = run(set, o);
        // 0 0-100 @0, 1 0-100 @100, 0 100-200 @200, 0 200-250 @300
        assertEquals(List.of("1 0 0-100 idle", "0 0 100-200 contention", "1 0 200-350 idle"), w.waits);
    }

    @Test
    void processTraces_anIoAfterTheLastInstruction_isCountedOnce() {
        TraceSet set = TestTraces.write(dir, "tail",
                w -> { w.loads(10, 0x1000); w.w.call(CallType.FILE_READ, 1, 2, 0x8000, 4096, 3, 0); },
                w -> w.loads(100, 0x2000));
        ReplayOptions o = SliceSchedulerTest.io(new ReplayOptions());
        o.interleave = 1;
        o.sliceLength = 5;
        Waits w = run(set, o);
        // 0 0-5 @0, 1 0-5 @5, 0 5-10 @10, then trace 1 to the end (110); trace 0's read at its end blocks it
        // from 15 on, which is also the time after its last segment: before, idle was 0 + 95 + 10,205 (the I/O)
        // capped at 100, and the 5 clocks it waited for the processor were not contention
        assertEquals(List.of("1 0 0-5 idle", "0 0 5-10 contention", "1 0 10-15 contention", "0 0 15-110 io"),
                w.waits);
        assertEquals(95, w.total[1][0]);
        assertEquals(5, w.total[3][0]);
    }

    /**
     * With {@code -i}, every segment runs at the clock and on the processor the schedule gives it, so the waits are
     * the schedule's gaps. Before, a processor whose next segment was due much later could take a trace at a tie
     * of clocks and run the instructions of the trace's earlier segments with it (the fixed cases below: with
     * and without {@code -handle_io}).
     */
    @Property(tries = 40)
    void processTraces_segmentsRunWhenScheduled_andWaitsAddUp(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 4) int p, @ForAll @IntRange(min = 0, max = 63) int flags)
            throws IOException {
        processes(seed, p, flags);
    }

    @Test
    void processTraces_aProcessorWithALaterSegmentDoesNotTakeTheTraceEarly() throws IOException {
        processes(-4961115986754665064L, 4, 4);
        processes(-4944591145997889191L, 4, 24);
        processes(-5018952920813446025L, 4, 0);
    }

    private static void processes(long seed, int p, int flags) throws IOException {
        Path d = Files.createTempDirectory("waits");
        try {
            TraceSet set = SchedulePropertyTest.randomProcesses(d, seed);
            ReplayOptions o = SchedulePropertyTest.schedulerOptions(p, flags);
            Waits w = new Waits();
            Recorder r = new Recorder();
            ProcessorIdle pi = new ProcessorIdle();
            Replay rp = new Replay(set, null, o).add(w).add(r).add(pi);
            rp.run();
            w.check();
            // each processor: idle intervals in order, no access inside one, and with its scheduled instructions
            // they fill the run
            assertEquals(List.of(), pi.errors);
            for (int c = 0; c < p; c++) {
                assertEquals(pi.end, rp.processorBusy(c) + pi.idle[c], "processor " + c);
            }
            // the k-th access of a trace (its k-th instruction: process traces have no branches) runs in the
            // segment that holds instruction k, at that segment's start clock + (k - from), on its processor
            SliceScheduler.Schedule s = rp.schedule();
            int[] seen = new int[set.size()];
            for (String a : r.accesses) {
                String[] f = a.split(" ");
                int t = Integer.parseInt(f[0]);
                long k = seen[t]++;
                String expected = null;
                for (int c = 0; c < s.processors() && expected == null; c++) {
                    for (int j = 0; j < s.segments(c); j++) {
                        if (s.trace(c, j) == t && s.from(c, j) <= k && k < s.to(c, j)) {
                            expected = t + " " + c + " " + (s.start(c, j) + k - s.from(c, j));
                            break;
                        }
                    }
                }
                assertEquals(expected, f[0] + " " + f[1] + " " + f[2], "access " + k + " of trace " + t + "\n" + s);
            }
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    @Property(tries = 30)
    void forkJoinTraces_waitsAddUpToTheTimes(@ForAll long seed, @ForAll @IntRange(min = 1, max = 6) int threads,
            @ForAll @IntRange(min = 0, max = 5) int barriers, @ForAll @IntRange(min = 0, max = 50) int lockPermille,
            @ForAll boolean branches, @ForAll boolean parallelStart) throws IOException {
        Path d = Files.createTempDirectory("waitsfj");
        try {
            ForkJoinGen.Params g = new ForkJoinGen.Params();
            g.threads = threads;
            g.instructions = 1500;
            g.barriers = barriers;
            g.lockRate = lockPermille / 1000.0;
            g.locks = 2;
            g.branches = branches;
            g.seed = seed;
            TraceSet set = ForkJoinGen.write(d, "fj", g);
            ReplayOptions o = new ReplayOptions();
            o.parallelStart = parallelStart;
            Waits w = run(set, o);
            if (threads > 1 && !parallelStart) {
                assertTrue(w.count[Analysis.WAIT_IDLE] > 0, "the serial phases' idle threads");
            }
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    @Test
    void everyPartitionGetsTheSameWaits() throws IOException {
        ForkJoinGen.Params g = new ForkJoinGen.Params();
        g.threads = 4;
        g.instructions = 4000;
        g.lockRate = 0.03;
        g.locks = 2;
        TraceSet set = ForkJoinGen.write(dir, "part", g);
        List<Waits> one = Replay.runPartitioned(set, null, new ReplayOptions(), 1, k -> new Waits());
        List<Waits> three = Replay.runPartitioned(set, null, new ReplayOptions(), 3, k -> new Waits());
        one.get(0).check();
        assertTrue(one.get(0).count[Analysis.WAIT_CONTENTION] > 0 && one.get(0).count[Analysis.WAIT_IMBALANCE] > 0);
        for (Waits w : three) {
            assertEquals(one.get(0).waits, w.check().waits);
        }
        ProcessGen.Params pg = new ProcessGen.Params();
        pg.processes = 4;
        pg.slices = 10;
        pg.sliceInstructions = 60;
        pg.readRate = 0.3;
        TraceSet procs = ProcessGen.write(dir, "procs", pg);
        ReplayOptions o = new ReplayOptions();
        o.interleave = 2;
        o.handleIo = true;
        o.mhz = 1;
        o.ipc = 1;
        o.diskLatency = 0.05;
        Replay serial = new Replay(procs, null, o);
        List<Waits> p1 = serial.runInPartitions(1, k -> new Waits());
        List<Waits> p2 = Replay.runPartitioned(procs, null, o, 2, k -> new Waits());
        assertTrue(p1.get(0).check().count[Analysis.WAIT_IO] > 0, p1.get(0).waits.toString());
        for (Waits w : p2) {
            assertEquals(p1.get(0).waits, w.check().waits);
        }
    }
}
