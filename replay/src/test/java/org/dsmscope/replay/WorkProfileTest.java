package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.replay.gen.ProcessGen;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The prescan's {@link WorkProfile}: estimates of the data accesses by thread and by page slot. */
class WorkProfileTest {
    @TempDir
    Path dir;

    /** Counts what the replay delivers, and keeps the profile the context offers. */
    static final class Counting implements Analysis {
        final boolean wants;
        long[] threads;
        final long[] slots = new long[WorkProfile.SLOTS];
        long others;
        WorkProfile profile;

        Counting(boolean wants) {
            this.wants = wants;
        }

        @Override
        public boolean wantsWorkProfile() {
            return wants;
        }

        @Override
        public void begin(ReplayContext c) {
            threads = new long[c.threads()];
            profile = c.workProfile();
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            threads[thread]++;
            slots[WorkProfile.slotOf(address)]++;
        }

        @Override
        public void call(int thread, int cpu, long clock, CallEvent call) {
            others++;
        }
    }

    /**
     * The profile's estimates against what the replay delivers: every thread within 5% (and 64), slots only where
     * accesses are, as many accesses by slot as by thread.
     */
    private static void assertCounts(Counting c) {
        long byThread = 0;
        long bySlot = 0;
        for (int t = 0; t < c.threads.length; t++) {
            long est = c.profile.threadAccesses(t);
            assertTrue(Math.abs(est - c.threads[t]) <= Math.max(64, c.threads[t] / 20),
                    "thread " + t + ": " + est + " estimated, " + c.threads[t] + " replayed");
            byThread += est;
        }
        for (int s = 0; s < WorkProfile.SLOTS; s++) {
            long est = c.profile.slotAccesses(s);
            assertTrue(est == 0 || c.slots[s] > 0, "slot " + s + " has no accesses but an estimate " + est);
            bySlot += est;
        }
        assertEquals(byThread, bySlot);
        assertTrue(c.profile.otherRecords() >= c.others && c.others > 0, "calls are among the other records");
    }

    @Test
    void partitionedReplay_countsEveryDataAccessByThreadAndPageSlot() {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 5;
        p.instructions = 20_000;
        p.lockRate = 0.01;
        TraceSet set = ForkJoinGen.write(dir, "fj", p);
        List<Counting> parts = Replay.runPartitioned(set, null, new ReplayOptions(), 2, k -> new Counting(false));
        assertCounts(parts.get(0));
        assertEquals(parts.get(0).profile, parts.get(1).profile, "one profile, shared by every partition");
        // a plain run counts it only for an analysis that asks
        Counting plain = new Counting(false);
        new Replay(set, null, new ReplayOptions()).add(plain).run();
        assertNull(plain.profile);
        Counting asks = new Counting(true);
        new Replay(set, null, new ReplayOptions()).add(asks).run();
        assertCounts(asks);
    }

    @Test
    void sliceScheduledReplay_countsTheSameWay() {
        ProcessGen.Params p = new ProcessGen.Params();
        p.processes = 4;
        p.slices = 20;
        TraceSet set = ProcessGen.write(dir, "tpc", p);
        ReplayOptions o = new ReplayOptions();
        o.interleave = 2;
        Counting c = new Counting(true);
        new Replay(set, null, o).add(c).run();
        assertCounts(c);
    }
}
