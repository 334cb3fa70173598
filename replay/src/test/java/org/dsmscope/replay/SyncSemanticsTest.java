package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The synchronization rules of SPEC §4, one behaviour per test. */
class SyncSemanticsTest {
    @TempDir
    Path dir;

    private static ReplayOptions parallel() {
        ReplayOptions o = new ReplayOptions();
        o.parallelStart = true;
        return o;
    }

    @Test
    void syncVariables_areKnownBeforeTheirFirstCallRecord() {
        TraceSet set = TestTraces.write(dir, "sv", w -> w.loads(1, 0x5000).loads(1, 0x6000).lock(0x5000)
                .unlock(0x5000));
        Recorder r = TestTraces.replay(set);
        assertEquals(List.of(true, false), r.syncSeen);
    }

    @Test
    void condWait_isImbalanceUntilItsWakeUp_thenContentionForTheMonitor() {
        long mon = 0x700;
        TraceSet set = TestTraces.write(dir, "cv",
                w -> w.lock(mon).unlock(mon).call(CallType.COND_WAIT, mon, 1, 0).lock(mon).unlock(mon),
                w -> w.loads(10, 0x100).lock(mon).call(CallType.COND_WAKE, mon, 1, 0).loads(5, 0x100).unlock(mon));
        Recorder r = TestTraces.replay(set, parallel());
        // thread 0 waits from clock 0 to the wake-up at 10 (imbalance), then for the monitor until 15 (contention)
        long[][] t = r.phaseTimes.get(0);
        assertEquals(10, t[2][0], "imbalance");
        assertEquals(5, t[3][0], "contention");
        assertTrue(r.calls.contains("0 0 10 cond_wait wait 10 t 4-5"), r.calls.toString());
    }

    /**
     * A Java monitor is both a lock and a condition (wait/notify on the same address), so a thread waiting for a
     * wake-up and a thread waiting for the lock queue on one object: the released lock goes to the lock waiter;
     * the wake-up waiter stays until its wake-up (found replaying the Pipeline example, which deadlocked).
     */
    @Test
    void monitorRelease_goesToTheLockWaiterNotToAThreadWaitingForAWakeUpOnTheSameMonitor() {
        long mon = 0x700;
        TraceSet set = TestTraces.write(dir, "mon",
                w -> w.lock(mon).unlock(mon).call(CallType.COND_WAIT, mon, 1, 0).lock(mon).unlock(mon),
                w -> w.loads(2, 0x100).lock(mon).loads(5, 0x100).unlock(mon),
                w -> w.loads(4, 0x200).lock(mon).call(CallType.COND_WAKE, mon, 1, 1).unlock(mon));
        Recorder r = TestTraces.replay(set, parallel());
        long[][] t = r.phaseTimes.get(0);
        assertEquals(3, t[3][2], "thread 2 waits for the monitor from 4 until thread 1 releases it at 7");
        assertEquals(7, t[2][0], "thread 0 waits for its wake-up, which thread 2 gives at 7");
    }

    /** Read locks (shared mode, argument 2 = 1): readers hold the lock together; a writer waits for them. */
    @Test
    void readLocks_areHeldTogether_aWriterWaitsForEveryReader_andReadersForTheWriter() {
        long rw = 0x900;
        TraceSet set = TestTraces.write(dir, "rw",
                w -> w.readLock(rw).loads(10, 0x100).readUnlock(rw),
                w -> w.loads(2, 0x200).readLock(rw).loads(3, 0x200).readUnlock(rw),
                w -> w.loads(4, 0x300).lock(rw).loads(5, 0x300).unlock(rw),
                w -> w.loads(12, 0x400).readLock(rw).loads(1, 0x400).readUnlock(rw));
        Recorder r = TestTraces.replay(set, parallel());
        long[][] t = r.phaseTimes.get(0);
        assertEquals(0, t[3][1], "the second reader enters beside the first");
        assertEquals(6, t[3][2], "the writer waits from 4 until the last reader leaves at 10");
        assertEquals(3, t[3][3], "a reader arriving at 12 waits for the writer until 15");
    }

    /**
     * Two readers inside the read lock at once, each waiting for the other's latch count-down there (as the real
     * program did): no deadlock. Treated as an exclusive lock, this valid program was reported as a deadlock.
     */
    @Test
    void readersWaitingForEachOtherInsideTheReadLock_areNoDeadlock() {
        long rw = 0x900;
        long latch = 0xA00;
        TraceSet set = TestTraces.write(dir, "rwl",
                w -> w.readLock(rw).call(CallType.SYNC_RELEASE, latch, 1, 1).call(CallType.SYNC_ACQUIRE, latch, 2, 1)
                        .readUnlock(rw),
                w -> w.loads(3, 0x100).readLock(rw).call(CallType.SYNC_RELEASE, latch, 2, 1)
                        .call(CallType.SYNC_ACQUIRE, latch, 2, 1).readUnlock(rw));
        Recorder r = TestTraces.replay(set, parallel());
        long[][] t = r.phaseTimes.get(0);
        assertEquals(0, t[3][1], "no contention for the read lock");
        assertEquals(3, t[2][0], "thread 0 waits for the second count-down (imbalance)");
    }

    @Test
    void latchAwait_waitsForTheReleaseWithItsSequenceNumber() {
        long latch = 0x800;
        TraceSet set = TestTraces.write(dir, "latch",
                w -> w.call(CallType.SYNC_ACQUIRE, latch, 2, 1).loads(1, 0x100),
                w -> w.loads(4, 0x200).call(CallType.SYNC_RELEASE, latch, 1, 1).loads(3, 0x200)
                        .call(CallType.SYNC_RELEASE, latch, 2, 1));
        Recorder r = TestTraces.replay(set, parallel());
        assertEquals("0 0 7 L 100", r.accesses.get(r.accesses.size() - 1).replace("1 1", "x"));
        assertEquals(7, r.phaseTimes.get(0)[2][0]);
    }

    @Test
    void orderedSections_areEnteredInThreadOrder() {
        TraceSet set = TestTraces.write(dir, "ord",
                w -> w.loads(6, 0x100).call(CallType.BEGIN_ORDER, 0, 0, 0).stores(2, 0x900)
                        .call(CallType.END_ORDER, 0, 0, 0),
                w -> w.loads(1, 0x200).call(CallType.BEGIN_ORDER, 0, 0, 0).stores(2, 0x904)
                        .call(CallType.END_ORDER, 0, 0, 0));
        Recorder r = TestTraces.replay(set, parallel());
        List<String> stores = r.accesses.stream().filter(s -> s.contains(" S ")).toList();
        assertEquals(List.of("0 0 6 S 900", "0 0 7 S 904", "1 1 8 S 904", "1 1 9 S 908"), stores);
        assertEquals(7, r.phaseTimes.get(0)[3][1], "thread 1 waits from 1 to 8 for its turn");
    }

    @Test
    void markerInSerialPhase_startsAUserPhase() {
        TraceSet set = TestTraces.write(dir, "m", w -> w.loads(3, 0x100).call(CallType.MARKER, 0, 7, 0)
                .loads(2, 0x100));
        Recorder r = TestTraces.replay(set);
        assertEquals(List.of("serial 0-3", "user 3-5"), r.phases);
    }

    @Test
    void markerInParallelPhase_endsThePhaseWhenTheLastThreadExecutesIt() {
        TraceSet set = TestTraces.write(dir, "mp",
                w -> w.loads(3, 0x100).call(CallType.MARKER, 0, 5, 0).loads(2, 0x100),
                w -> w.loads(8, 0x200).call(CallType.MARKER, 0, 5, 0).loads(2, 0x200));
        Recorder r = TestTraces.replay(set, parallel());
        assertEquals(List.of("parallel 0-8", "user 8-10"), r.phases);
        assertArrayEquals(new long[] {5, 0}, r.phaseTimes.get(0)[2], "thread 0 waits at the marker");
    }

    @Test
    void markerStop_countsNothingForTheStoppedThreadUntilResume() {
        TraceSet set = TestTraces.write(dir, "stop", w -> w.loads(2, 0x100).call(CallType.MARKER, 1, 0, 0)
                .loads(5, 0x200).call(CallType.MARKER, 2, 0, 0).loads(1, 0x300));
        Recorder r = TestTraces.replay(set);
        assertEquals(3, r.accesses.size());
        assertEquals(List.of("serial 0-2", "user 2-2", "user 2-3"), r.phases, "stopped records take no clock");
    }

    @Test
    void minusP_startsInAParallelPhaseWithEveryThread() {
        TraceSet set = TestTraces.write(dir, "p", w -> w.loads(2, 0x100), w -> w.loads(4, 0x200));
        Recorder r = TestTraces.replay(set, parallel());
        assertEquals(List.of("parallel 0-2", "serial 2-4"), r.phases, "one thread left: a serial phase");
        assertArrayEquals(new long[] {2, 2}, r.phaseTimes.get(0)[0]);
        assertArrayEquals(new long[] {0, 2}, r.phaseTimes.get(1)[0]);
        assertArrayEquals(new long[] {2, 0}, r.phaseTimes.get(1)[1], "thread 0 ended: idle in the serial phase");
    }

    @Test
    void javaStyleSpawnAndJoin_nameTheirThreads() {
        TraceSet set = TestTraces.write(dir, "java",
                w -> w.call(CallType.SPAWN, 0, 1, 2).loads(1, 0x100).call(CallType.JOIN, 0, 0, 2).loads(1, 0x100),
                w -> w.loads(1, 0x300),
                w -> w.loads(5, 0x200).call(CallType.THREAD_END, 0, 0, 2));
        ReplayOptions o = new ReplayOptions();
        o.skipBadRecords = true;
        Replay rp = new Replay(set, null, o);
        Recorder r = new Recorder();
        rp.add(r).run();
        assertEquals(List.of("parallel 0-5", "serial 5-6"), r.phases, "the empty serial phase before the spawn is dropped");
        assertTrue(rp.problems().get(0).contains("thread 1 was never started"), rp.problems().toString());
    }

    @Test
    void roundRobin_tiesGoToTheNextThreadAfterTheLastOneRun() {
        TraceSet set = TestTraces.write(dir, "rr", w -> w.loads(2, 0x100), w -> w.loads(2, 0x200),
                w -> w.loads(2, 0x300));
        Recorder r = TestTraces.replay(set, parallel());
        assertEquals(List.of("0 0 0 L 100", "1 1 0 L 200", "2 2 0 L 300", "0 0 1 L 104", "1 1 1 L 204",
                "2 2 1 L 304"), r.accesses);
    }

    @Test
    void handleIo_reportsTheDiskTrafficOfReadsAndWrites_atTransferCompletion() {
        TraceSet set = TestTraces.write(dir, "iot", w -> w.loads(3, 0).call(CallType.FILE_READ, 0x4000, 100, 3)
                .call(CallType.FILE_WRITE, 0x5000, 50, 3));
        List<String> seen = new java.util.ArrayList<>();
        Analysis a = new Analysis() {
            @Override
            public void io(int thread, int cpu, int ioProcessor, long clock, boolean read, long address, long bytes) {
                seen.add(thread + " " + ioProcessor + " " + clock + " " + read + " " + Long.toHexString(address) + " "
                        + bytes);
            }
        };
        ReplayOptions o = new ReplayOptions();
        o.handleIo = true;
        o.diskLatency = 0.01;
        o.mhz = 1;
        o.ipc = 1;
        o.dmaBandwidth = 10;
        o.bufferedIo = true;
        new Replay(set, null, o).add(a).run();
        // read: 3 + 10 latency + 10 transfer = 23; the buffered write does not block but still moves its bytes,
        // queued behind the read on the one (centered) I/O processor: 33 + 5 = 38
        assertEquals(List.of("0 0 23 true 4000 100", "0 0 38 false 5000 50"), seen);
        List<String> none = new java.util.ArrayList<>();
        new Replay(set, null, new ReplayOptions()).add(new Analysis() {
            @Override
            public void io(int thread, int cpu, int ioProcessor, long clock, boolean read, long address, long bytes) {
                none.add("io");
            }
        }).run();
        assertEquals(List.of(), none, "without -handle_io no traffic");
    }

    @Test
    void handleIo_fileReadAdvancesTheClockByDiskLatencyAndTransfer_asIdle() {
        TraceSet set = TestTraces.write(dir, "io", w -> w.call(CallType.FILE_READ, 0x100, 1000, 3).loads(1, 0));
        ReplayOptions o = new ReplayOptions();
        o.handleIo = true;
        o.diskLatency = 0.01; // 10 µs
        o.mhz = 1;
        o.ipc = 1;
        o.dmaBandwidth = 100; // 100 bytes/µs: 10 µs for 1000 bytes
        Recorder r = TestTraces.replay(set, o);
        assertEquals("serial 0-21", r.phases.get(0));
        assertEquals(20, r.phaseTimes.get(0)[1][0]);
        ReplayOptions async = new ReplayOptions();
        async.handleIo = true;
        async.asynchIo = true;
        assertEquals("serial 0-1", TestTraces.replay(set, async).phases.get(0));
        assertFalse(TestTraces.replay(set).phases.get(0).endsWith("21"), "without -handle_io a call takes no clock");
    }
}
