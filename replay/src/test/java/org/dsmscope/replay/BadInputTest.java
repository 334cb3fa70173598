package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Bad traces: clear errors, and results for what could be replayed when asked to continue. */
class BadInputTest {
    @TempDir
    Path dir;

    private static ReplayOptions skipping() {
        ReplayOptions o = new ReplayOptions();
        o.skipBadRecords = true;
        return o;
    }

    @Test
    void readLocks_endingOneNotHeldOrEndingTheThreadInsideOne_areErrors() {
        TraceSet set = TestTraces.write(dir, "ru", w -> w.loads(2, 0x100).readUnlock(0xABC0));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(set));
        assertTrue(e.getMessage().contains("ru.1.0: byte offset 16: thread 0 ends shared critical section 0xabc0,"
                + " which it does not hold"), e.getMessage());
        TraceSet set2 = TestTraces.write(dir, "re", w -> w.readLock(0xABC0).loads(1, 0x100));
        e = assertThrows(BadInputException.class, () -> TestTraces.replay(set2));
        assertTrue(e.getMessage().contains("re.1.0: thread 0 ended inside shared critical section 0xabc0"),
                e.getMessage());
    }

    @Test
    void threadEndingInsideCriticalSection_isAnErrorNamingTheLockAndOffset() {
        TraceSet set = TestTraces.write(dir, "cs", w -> w.loads(2, 0x100).lock(0xABC0).loads(1, 0x100));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(set));
        assertTrue(e.getMessage().contains("ended inside critical section 0xabc0 (entered at byte offset 16)"),
                e.getMessage());
        assertTrue(e.getMessage().contains("cs.1.0"), e.getMessage());
    }

    /**
     * A thread whose trace says that the program ended while it ran (end_trace argument 2 = 1: the agent closed it
     * at the exit) may hold locks, exclusive and shared: no error, they are released at its end, and a thread
     * waiting for one goes on. The same trace without the mark is still an error.
     */
    @Test
    void threadCutOffByTheExitInsideCriticalSections_isNoError() {
        TraceSet set = TestTraces.write(dir, "cut", w -> w.spawn(1).loads(1, 0x100).lock(0xABC0).loads(5, 0x300)
                .unlock(0xABC0), w -> w.lock(0xABC0).readLock(0xDEF0).loads(2, 0x200)
                .call(CallType.END_TRACE, 0, 1, 1));
        Recorder r = TestTraces.replay(set);
        assertTrue(r.ended);
        TraceSet unmarked = TestTraces.write(dir, "uncut", w -> w.spawn(1).loads(1, 0x100).lock(0xABC0)
                .unlock(0xABC0), w -> w.lock(0xABC0).loads(2, 0x200).call(CallType.END_TRACE, 0, 0, 1));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(unmarked));
        assertTrue(e.getMessage().contains("thread 1 ended inside critical section 0xabc0"), e.getMessage());
    }

    /**
     * A trace that began with start_trace but has no end record lost its end (its writer stopped: a full disk): an
     * error naming the file and where it ends, not results that silently miss the rest of the thread. A trace
     * closed by end_trace or thread_end, or one without start_trace (generated, imported), is complete.
     */
    @Test
    void traceThatBeganButLostItsEnd_isAnError() {
        TraceSet lost = TestTraces.write(dir, "lost", w -> w.call(CallType.START_TRACE, 0, 0, 0).loads(3, 0x100));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(lost));
        assertTrue(e.getMessage().contains("lost.1.0: the trace ends at byte offset 72 without an end_trace record"
                + " although it began with start_trace: it is incomplete"), e.getMessage());
        assertTrue(TestTraces.replay(TestTraces.write(dir, "whole", w -> w.call(CallType.START_TRACE, 0, 0, 0)
                .loads(3, 0x100).call(CallType.END_TRACE, 0, 0, 0))).ended);
        assertTrue(TestTraces.replay(TestTraces.write(dir, "ended", w -> w.call(CallType.START_TRACE, 0, 0, 0)
                .loads(3, 0x100).call(CallType.THREAD_END, 0, 0, 0))).ended);
        assertTrue(TestTraces.replay(TestTraces.write(dir, "plain", w -> w.loads(3, 0x100))).ended);
    }

    @Test
    void threadEndingInsideCriticalSection_continuing_releasesTheLock() {
        TraceSet set = TestTraces.write(dir, "cs2", w -> w.spawn(1).loads(1, 0x100).join().lock(0xABC0)
                .unlock(0xABC0), w -> w.loads(3, 0x200).lock(0xABC0).loads(1, 0x200));
        ReplayOptions o = skipping();
        Recorder r = new Recorder();
        Replay rp = new Replay(set, null, o).add(r);
        rp.run();
        assertTrue(r.ended);
        assertEquals(1, rp.problemCount(), rp.problems().toString());
        assertTrue(rp.problems().get(0).contains("thread 1 ended inside critical section"), rp.problems().toString());
    }

    @Test
    void joinWithNoSpawn_isAnError() {
        TraceSet set = TestTraces.write(dir, "j", w -> w.loads(2, 0x100).join(), w -> w.loads(1, 0x100));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(set));
        assertTrue(e.getMessage().contains("join with no spawn"), e.getMessage());
        assertTrue(e.getMessage().contains("j.2.0: byte offset 16"), e.getMessage());
    }

    @Test
    void markerCommandOutsideZeroToFour_isAnErrorNamingTheOffset_orAPhaseMarkerWhenContinuing() {
        TraceSet set = TestTraces.write(dir, "mk", w -> w.loads(2, 0x100).call(CallType.MARKER, 7, 5, 0)
                .loads(3, 0x100));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(set));
        assertTrue(e.getMessage().contains("mk.1.0: byte offset 16: marker command 7"), e.getMessage());
        Recorder r = new Recorder();
        Replay rp = new Replay(set, null, skipping()).add(r);
        rp.run();
        assertEquals(1, rp.problemCount(), rp.problems().toString());
        assertEquals(5, r.accesses.size(), "command 7 read as command 0: tracing does not stop");
    }

    @Test
    void barrierForMoreThreadsThanTheTraceSetHas_isAnErrorAtTheBarrier_orAllActiveThreadsWhenContinuing() {
        TraceSet set = TestTraces.write(dir, "bp", w -> w.spawn(1).loads(2, 0x100).barrier(0x1000, 5).join(),
                w -> w.loads(1, 0x200).barrier(0x1000, 5).loads(1, 0x200));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(set));
        assertTrue(e.getMessage().contains("barrier 0x1000 for 5 threads, but the trace set has 2"), e.getMessage());
        Recorder r = new Recorder();
        Replay rp = new Replay(set, null, skipping()).add(r);
        rp.run();
        assertTrue(r.ended);
        assertEquals(2, rp.problemCount(), rp.problems().toString());
    }

    @Test
    void javaJoinOfAThreadNeverStarted_isAnError() {
        TraceSet set = TestTraces.write(dir, "jj", w -> w.call(CallType.JOIN, 0, 0, 1), w -> w.loads(1, 0x100));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(set));
        assertTrue(e.getMessage().contains("joins thread 1, which no spawn record started"), e.getMessage());
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void barrierThatNeverCompletes_isADeadlockSayingWhoWaitsWhere() {
        TraceSet set = TestTraces.write(dir, "b", w -> w.spawn(2).loads(5, 0x100).barrier(0x1000, 3).join(),
                w -> w.loads(3, 0x200).barrier(0x1000, 3), w -> w.loads(3, 0x300));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(set));
        String m = e.getMessage();
        assertTrue(m.startsWith("deadlock: no thread can proceed"), m);
        assertTrue(m.contains("thread 0 (") && m.contains("waits at barrier 0x1000 (2 of 3 threads arrived)"), m);
        assertTrue(m.contains("thread 1 ("), m);
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void barrierThatNeverCompletes_continuing_opensItAndFinishes() {
        TraceSet set = TestTraces.write(dir, "b2", w -> w.spawn(2).loads(5, 0x100).barrier(0x1000, 3).join(),
                w -> w.loads(3, 0x200).barrier(0x1000, 3).loads(2, 0x200), w -> w.loads(3, 0x300));
        Recorder r = new Recorder();
        Replay rp = new Replay(set, null, skipping()).add(r);
        rp.run();
        assertTrue(r.ended);
        assertEquals(5 + 3 + 2 + 3, r.accesses.size());
        assertTrue(rp.problems().get(0).startsWith("deadlock"), rp.problems().toString());
    }

    @Test
    void lockCycle_isADeadlock() {
        TraceSet set = TestTraces.write(dir, "cyc",
                w -> w.spawn(1).lock(0xA0).loads(3, 0x100).lock(0xB0).unlock(0xB0).unlock(0xA0).join(),
                w -> w.lock(0xB0).loads(3, 0x200).lock(0xA0).unlock(0xA0).unlock(0xB0));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(set));
        assertTrue(e.getMessage().contains("waits for lock 0xb0 held by thread 1"), e.getMessage());
        assertTrue(e.getMessage().contains("waits for lock 0xa0 held by thread 0"), e.getMessage());
    }

    @Test
    void threadsNeverSpawned_isAnErrorSuggestingMinusP() {
        TraceSet set = TestTraces.write(dir, "np", w -> w.loads(2, 0x100), w -> w.loads(2, 0x200));
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(set));
        assertTrue(e.getMessage().contains("thread 1 was never started") && e.getMessage().contains("-p"),
                e.getMessage());
    }

    @Test
    void callTraceWithADifferentCall_isAnErrorNamingBothFiles() {
        TraceSet detailed = TestTraces.write(dir, "d", w -> w.loads(2, 0x100).lock(0x10).unlock(0x10));
        TraceSet calls = TestTraces.write(dir, "c", w -> w.lock(0x10).barrier(0x10, 1));
        BadInputException e = assertThrows(BadInputException.class,
                () -> new Replay(detailed, calls, new ReplayOptions()).run());
        String m = e.getMessage();
        assertTrue(m.contains("c.1.0 call record #2 (byte offset 48) is barrier"), m);
        assertTrue(m.contains("d.1.0 call record #2 (byte offset 64) is end_critical"), m);
    }

    @Test
    void callTraceWithoutAnEndRecord_isListedAsUnverified_besideAnUnverifiedDetailedTrace() {
        TraceWriter.Options end = new TraceWriter.Options().endRecord(true);
        TraceSet detailed = TestTraces.write(dir, "dv", end, w -> w.loads(2, 0x100).lock(0x10).unlock(0x10));
        TraceSet calls = TestTraces.write(dir, "cv", w -> w.lock(0x10).unlock(0x10));
        Replay complete = new Replay(detailed, calls, new ReplayOptions());
        complete.run();
        assertEquals(calls.files(), complete.unverified());
        TraceSet classic = TestTraces.write(dir, "dc", w -> w.loads(2, 0x100).lock(0x10).unlock(0x10));
        Replay both = new Replay(classic, calls, new ReplayOptions());
        both.run();
        List<Path> expected = new ArrayList<>(classic.files());
        expected.addAll(calls.files());
        assertEquals(expected, both.unverified());
        Replay neither = new Replay(detailed, TestTraces.write(dir, "ce", end, w -> w.lock(0x10).unlock(0x10)),
                new ReplayOptions());
        neither.run();
        assertEquals(List.of(), neither.unverified());
    }

    @Test
    void callTraceWithFewerCalls_isAnError() {
        TraceSet detailed = TestTraces.write(dir, "d2", w -> w.lock(0x10).unlock(0x10));
        TraceSet calls = TestTraces.write(dir, "c2", w -> w.lock(0x10));
        BadInputException e = assertThrows(BadInputException.class,
                () -> new Replay(detailed, calls, new ReplayOptions()).run());
        assertTrue(e.getMessage().contains("call trace " + dir.resolve("c2.1.0") + " ends after 1 call records"),
                e.getMessage());
    }

    @Test
    void callTraceTimes_areUsedAndRebasedToTheFirstRecord() {
        TraceSet detailed = TestTraces.write(dir, "d3", w -> w.loads(1, 0x100).lock(0x10).unlock(0x10));
        TraceSet calls = TestTraces.write(dir, "c3", w -> {
            w.w.call(CallType.BEGIN_CRITICAL, 1000, 1005, 0x10, 0, 0, 0);
            w.w.call(CallType.END_CRITICAL, 1010, 1012, 0x10, 0, 0, 0);
        });
        Recorder r = new Recorder();
        new Replay(detailed, calls, new ReplayOptions()).add(r).run();
        assertEquals("0 0 1 begin_critical wait 0 t 0-5", r.calls.get(0));
        assertEquals("0 0 1 end_critical wait 0 t 10-12", r.calls.get(1));
    }

    @Test
    void callTimes_unwrapWhenThe32BitFieldWraps() {
        TraceSet set = TestTraces.write(dir, "wrap", w -> {
            w.w.call(CallType.SYSCALL, 0xFFFF_FFF0L, 0xFFFF_FFFAL, 1, 0, 0, 0);
            w.w.call(CallType.SYSCALL, 0x10L, 0x20L, 1, 0, 0, 0);
        });
        Recorder r = TestTraces.replay(set);
        assertEquals("0 0 0 syscall wait 0 t 32-48", r.calls.get(1));
    }

    @Test
    void mismatchedCallTrace_continuing_usesDetailedTimesAfterwards() {
        TraceSet detailed = TestTraces.write(dir, "d4", w -> w.lock(0x10).unlock(0x10));
        TraceSet calls = TestTraces.write(dir, "c4", w -> w.lock(0x10).barrier(0x10, 1));
        Replay rp = new Replay(detailed, calls, skipping()).add(new Recorder());
        rp.run();
        assertTrue(rp.problems().get(0).contains("do not match"), rp.problems().toString());
    }

    @Test
    void optionsOutOfRange_areRefused() {
        ReplayOptions o = new ReplayOptions();
        o.sliceLength = 0;
        TraceSet set = TestTraces.write(dir, "o", w -> w.loads(1, 0));
        BadInputException e = assertThrows(BadInputException.class, () -> new Replay(set, null, o));
        assertTrue(e.getMessage().contains("-s"), e.getMessage());
    }
}
