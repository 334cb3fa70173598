package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Further synchronization cases: barrier subsets, re-entry, timeouts, ordered rounds, misuse. */
class MoreSyncTest {
    @TempDir
    Path dir;

    private static ReplayOptions parallel() {
        ReplayOptions o = new ReplayOptions();
        o.parallelStart = true;
        return o;
    }

    @Test
    void barrierOfTwoParties_amongThreeThreads_releasesPairs() {
        TraceSet set = TestTraces.write(dir, "pairs", w -> w.loads(2, 0x100).barrier(0x10, 2).loads(1, 0x100),
                w -> w.loads(6, 0x200).barrier(0x10, 2).loads(1, 0x200), w -> w.loads(9, 0x300));
        Recorder r = TestTraces.replay(set, parallel());
        assertTrue(r.accesses.contains("0 0 6 L 100"), r.accesses.toString());
        assertTrue(r.accesses.contains("1 1 6 L 200"), r.accesses.toString());
    }

    @Test
    void lockReentry_byTheOwnerNests() {
        TraceSet set = TestTraces.write(dir, "re", w -> w.lock(0x40).lock(0x40).loads(1, 0).unlock(0x40).unlock(0x40));
        Recorder r = TestTraces.replay(set);
        assertEquals(4, r.calls.size());
        assertTrue(r.calls.stream().allMatch(c -> c.contains("wait 0")), r.calls.toString());
    }

    @Test
    void condWaitThatTimedOut_doesNotWait() {
        TraceSet set = TestTraces.write(dir, "to", w -> w.call(CallType.COND_WAIT, 0x70, 0, 1).loads(1, 0),
                w -> w.loads(5, 0x100));
        Recorder r = TestTraces.replay(set, parallel());
        assertTrue(r.accesses.contains("0 0 0 L 0"), r.accesses.toString());
    }

    @Test
    void condWaitForAWakeUpThatNeverComes_isADeadlockNamingTheNumber() {
        TraceSet set = TestTraces.write(dir, "nw", w -> w.call(CallType.COND_WAIT, 0x70, 3, 0),
                w -> w.loads(5, 0x100).call(CallType.COND_WAKE, 0x70, 2, 0));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(set, parallel()));
        assertTrue(e.getMessage().contains("waits on 0x70 for wake-up/release #3, which no thread has executed"),
                e.getMessage());
    }

    @Test
    void orderedSections_goRoundAfterRound() {
        TestTraces.T body = w -> {
            for (int i = 0; i < 2; i++) {
                w.call(CallType.BEGIN_ORDER, 0, 0, 0).stores(1, 0x900).call(CallType.END_ORDER, 0, 0, 0);
            }
        };
        TraceSet set = TestTraces.write(dir, "rounds", body, body, body);
        Recorder r = TestTraces.replay(set, parallel());
        List<String> order = r.accesses.stream().map(a -> a.substring(0, 1)).toList();
        assertEquals(List.of("0", "1", "2", "0", "1", "2"), order);
    }

    @Test
    void endCriticalByANonOwner_isAnError() {
        TraceSet set = TestTraces.write(dir, "no", w -> w.unlock(0x40));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(set));
        assertTrue(e.getMessage().contains("ends critical section 0x40, which it does not hold"), e.getMessage());
    }

    @Test
    void recordsAfterThreadEnd_areAnError() {
        TraceSet set = TestTraces.write(dir, "after", w -> w.call(CallType.THREAD_END, 0, 0, 0).loads(1, 0));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(set));
        assertTrue(e.getMessage().contains("byte offset 48: records after the thread_end record"), e.getMessage());
    }

    @Test
    void spawnOfARunningThread_isAnError() {
        TraceSet set = TestTraces.write(dir, "sp", w -> w.call(CallType.SPAWN, 1, 1, 1).call(CallType.SPAWN, 1, 1, 1),
                w -> w.loads(3, 0));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(set));
        assertTrue(e.getMessage().contains("spawn of thread 1, which is already running"), e.getMessage());
    }

    @Test
    void seedStyleChildJoin_parksTheChildUntilTheNextSpawn() {
        TraceSet set = TestTraces.write(dir, "regions",
                w -> w.spawn(1).loads(2, 0x100).join().loads(1, 0x100).spawn(1).loads(2, 0x100).join(),
                w -> w.loads(4, 0x200).join().loads(3, 0x200).join());
        Recorder r = TestTraces.replay(set);
        assertEquals(List.of("parallel 0-4", "serial 4-5", "parallel 5-8", "serial 8-8"), r.phases,
                "the last serial phase holds thread 0's join call");
    }
}
