package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recorded lock order (SPEC §3 and §4, issue 22): a critical section's argument 3 is the acquisition's
 * sequence number on its lock, and the replay grants every lock in that order; 0 keeps the first-come rule.
 */
class LockOrderTest {
    @TempDir
    Path dir;

    private static ReplayOptions parallel() {
        return TestTraces.parallel();
    }

    /** Per lock address, the sequence numbers (argument 3) of its begin-critical records in delivered order. */
    static final class Grants implements Analysis {
        final Map<Long, List<Long>> seqs = new TreeMap<>();
        final Map<Long, List<Integer>> threads = new TreeMap<>();

        @Override
        public void call(int thread, int cpu, long clock, CallEvent call) {
            if (call.type == CallType.BEGIN_CRITICAL) {
                seqs.computeIfAbsent(call.arg1, k -> new ArrayList<>()).add(call.arg3);
                threads.computeIfAbsent(call.arg1, k -> new ArrayList<>()).add(thread);
            }
        }
    }

    private static Grants grants(TraceSet set, ReplayOptions o) {
        Grants g = new Grants();
        new Replay(set, null, o).add(g).run();
        return g;
    }

    @Test
    void aFreeLock_waitsForTheAcquisitionRecordedBeforeIt() {
        long l = 0x500;
        TraceSet set = TestTraces.write(dir, "turn",
                w -> w.lock(l, 2).loads(1, 0x100).unlock(l),
                w -> w.loads(5, 0x200).lock(l, 1).loads(3, 0x200).unlock(l));
        Recorder r = TestTraces.replay(set, parallel());
        long[][] t = r.phaseTimes.get(0);
        assertEquals(8, t[3][0], "thread 0 waits (contention) until thread 1, first in the run, leaves at 8");
        assertEquals(0, t[3][1]);
        assertEquals(List.of(1, 0), grants(set, parallel()).threads.get(l));
    }

    @Test
    void withoutSequenceNumbers_theFirstComerGetsTheLock() {
        long l = 0x500;
        TraceSet set = TestTraces.write(dir, "first",
                w -> w.lock(l).loads(1, 0x100).unlock(l),
                w -> w.loads(5, 0x200).lock(l).loads(3, 0x200).unlock(l));
        Recorder r = TestTraces.replay(set, parallel());
        long[][] t = r.phaseTimes.get(0);
        assertEquals(0, t[3][0]);
        assertEquals(List.of(0, 1), grants(set, parallel()).threads.get(l));
    }

    /** Readers whose turns follow each other hold the lock together; a reader after a writer waits for it. */
    @Test
    void readers_holdTogetherInTheirTurns_andAReaderAfterAWriterWaitsForTheWriter() {
        long rw = 0x900;
        TraceSet set = TestTraces.write(dir, "rw",
                w -> w.readLock(rw, 1).loads(10, 0x100).readUnlock(rw),
                w -> w.loads(2, 0x200).readLock(rw, 2).loads(3, 0x200).readUnlock(rw),
                w -> w.loads(4, 0x300).lock(rw, 3).loads(5, 0x300).unlock(rw),
                w -> w.loads(1, 0x400).readLock(rw, 4).loads(1, 0x400).readUnlock(rw));
        Recorder r = TestTraces.replay(set, parallel());
        long[][] t = r.phaseTimes.get(0);
        assertEquals(0, t[3][1], "the second reader enters beside the first");
        assertEquals(6, t[3][2], "the writer waits from 4 until the last reader leaves at 10");
        assertEquals(14, t[3][3], "the reader recorded after the writer waits from 1 until the writer leaves at 15");
        assertEquals(List.of(1L, 2L, 3L, 4L), grants(set, parallel()).seqs.get(rw));
    }

    /** A reader arriving before its turn waits for the readers recorded before it, then enters beside them. */
    @Test
    void aReaderAheadOfItsTurn_entersWhenTheReaderBeforeItHas() {
        long rw = 0x900;
        TraceSet set = TestTraces.write(dir, "rr",
                w -> w.readLock(rw, 2).loads(4, 0x100).readUnlock(rw),
                w -> w.loads(3, 0x200).readLock(rw, 1).loads(10, 0x200).readUnlock(rw));
        Recorder r = TestTraces.replay(set, parallel());
        long[][] t = r.phaseTimes.get(0);
        assertEquals(3, t[3][0], "thread 0 waits until thread 1 takes turn 1 at 3, then reads beside it");
        assertEquals(0, t[3][1]);
    }

    /**
     * Issue 22's master / worker shape with two workers, as the agent records it: the master, inside its monitor
     * m, hands each worker a task in the worker's monitor and waits on m; each worker computes in its own monitor
     * and, inside m, sets done and notifies. The master's wait ends at the first notify; in the run it took m back
     * only after the second worker's section (acquisition #4 of m, after #3). Without the numbers the replay gives
     * m to the master at once, and then the master waits for worker 2's monitor while worker 2 waits for m.
     */
    @Test
    void theIssuesMasterWorkerPattern_replaysInTheRecordedOrder_andDeadlocksWithoutIt() {
        TraceSet ordered = masterWorker("mw", true);
        Grants g = grants(ordered, parallel());
        for (List<Long> seqs : g.seqs.values()) {
            for (int i = 0; i < seqs.size(); i++) {
                assertEquals(i + 1, seqs.get(i), "granted in the recorded order: " + g.seqs);
            }
        }
        assertEquals(List.of(0, 1, 2, 0), g.threads.get(M));
        TraceSet unordered = masterWorker("mw0", false);
        BadInputException e = assertThrows(BadInputException.class, () -> grants(unordered, parallel()));
        assertTrue(e.getMessage().startsWith("deadlock: no thread can proceed; thread 0 ("), e.getMessage());
        assertTrue(e.getMessage().contains("mw0.3.0, byte offset "), e.getMessage());
        assertTrue(e.getMessage().contains("--skip-bad-records") && e.getMessage().contains("-i P -a"),
                "says how to analyse anyway: " + e.getMessage());
    }

    private static final long M = 0x100;
    private static final long W1 = 0x200;
    private static final long W2 = 0x300;

    private TraceSet masterWorker(String name, boolean ordered) {
        long k = ordered ? 1 : 0;
        return TestTraces.write(dir, name,
                w -> w.lock(M, k).lock(W1, 2 * k).call(CallType.COND_WAKE, W1, 1, 0).unlock(W1)
                        .lock(W2, 2 * k).call(CallType.COND_WAKE, W2, 1, 0).unlock(W2)
                        .unlock(M).call(CallType.COND_WAIT, M, 1, 0).lock(M, 4 * k)
                        .lock(W1, 4 * k).call(CallType.COND_WAKE, W1, 2, 0).unlock(W1)
                        .lock(W2, 4 * k).call(CallType.COND_WAKE, W2, 2, 0).unlock(W2).unlock(M),
                w -> worker(w, W1, 2, 2 * k, 1),
                w -> worker(w, W2, 20, 3 * k, 2));
    }

    private static void worker(TestTraces.W w, long self, int work, long mSeq, long wake) {
        long k = mSeq == 0 ? 0 : 1;
        w.lock(self, k).unlock(self).call(CallType.COND_WAIT, self, 1, 0).lock(self, 3 * k)
                .loads(work, self + 0x1000).lock(M, mSeq).call(CallType.COND_WAKE, M, wake, 0).unlock(M)
                .unlock(self).call(CallType.COND_WAIT, self, 2, 0).lock(self, 5 * k).unlock(self);
    }

    @Test
    void aMissingAcquisition_isReportedAsADeadlockNamingTheTurn_andSkippingOpensIt() {
        long l = 0x500;
        TraceSet set = TestTraces.write(dir, "gap",
                w -> w.lock(l, 1).loads(2, 0x100).unlock(l).loads(1, 0x100).lock(l, 3).unlock(l));
        BadInputException e = assertThrows(BadInputException.class, () -> grants(set, parallel()));
        assertTrue(e.getMessage().contains("waits for lock 0x500 (free) as acquisition #3 in the recorded order,"
                + " after #2, not yet granted"), e.getMessage());
        ReplayOptions skip = parallel();
        skip.skipBadRecords = true;
        Replay rp = new Replay(set, null, skip);
        Grants g = new Grants();
        rp.add(g).run();
        assertEquals(1, rp.problemCount());
        assertEquals(List.of(1L, 3L), g.seqs.get(l));
    }

    /** Every partition replays the same schedule: the grants of a partitioned run are the serial run's. */
    @Test
    void partitions_grantInTheSerialRunsOrder() {
        TraceSet set = masterWorker("mwp", true);
        Grants serial = grants(set, parallel());
        List<Grants> parts = Replay.runPartitioned(set, null, parallel(), 2, p -> new Grants());
        for (Grants p : parts) {
            assertEquals(serial.threads, p.threads);
            assertEquals(serial.seqs, p.seqs);
        }
    }
}
