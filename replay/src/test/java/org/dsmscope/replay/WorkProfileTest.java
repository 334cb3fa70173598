package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
        /** Per 4 KiB page: accesses by thread. */
        final Map<Long, long[]> pages = new HashMap<>();
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
            pages.computeIfAbsent(address >>> 12, k -> new long[threads.length])[thread]++;
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

    /**
     * The fork-join program's pages: a page of one thread's private region with enough accesses to be seen is
     * private to that thread, a page that several threads touch often (the shared array, the lock counters) is not,
     * each thread's private accesses are estimated within 5%, and private and shared accesses add up to the slots'.
     */
    @Test
    void privatePages_areTheOnesOneThreadTouches_withTheirAccesses() {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 4;
        p.instructions = 40_000;
        p.lockRate = 0.01;
        TraceSet set = ForkJoinGen.write(dir, "fj", p);
        Counting c = new Counting(true);
        new Replay(set, null, new ReplayOptions()).add(c).run();
        WorkProfile w = c.profile;
        long[] priv = new long[4];
        int privatePages = 0;
        int sharedPages = 0;
        for (Map.Entry<Long, long[]> e : c.pages.entrySet()) {
            long[] by = e.getValue();
            int touchers = 0;
            int often = 0;
            int only = -1;
            for (int t = 0; t < by.length; t++) {
                touchers += by[t] > 0 ? 1 : 0;
                often += by[t] >= 32 ? 1 : 0;
                only = by[t] > 0 ? t : only;
            }
            if (touchers == 1) {
                priv[only] += by[only];
                if (by[only] >= 64) {
                    assertEquals(only, w.privateThread(e.getKey()), "page 0x" + Long.toHexString(e.getKey()));
                    privatePages++;
                }
            } else if (often >= 2) {
                assertEquals(-1, w.privateThread(e.getKey()), "page 0x" + Long.toHexString(e.getKey()));
                sharedPages++;
            }
        }
        assertTrue(privatePages >= 4 * 20 && sharedPages >= 128, privatePages + " private, " + sharedPages + " shared");
        for (int t = 0; t < 4; t++) {
            assertTrue(Math.abs(w.privateAccesses(t) - priv[t]) <= priv[t] / 20,
                    "thread " + t + ": " + w.privateAccesses(t) + " estimated, " + priv[t] + " replayed");
        }
        long slots = 0;
        long split = 0;
        for (int s = 0; s < WorkProfile.SLOTS; s++) {
            slots += w.slotAccesses(s);
            split += w.sharedSlotAccesses(s);
            assertTrue(w.sharedSlotAccesses(s) >= 0 && w.sharedSlotAccesses(s) <= w.slotAccesses(s));
        }
        for (int t = 0; t < 4; t++) {
            split += w.privateAccesses(t);
        }
        assertEquals(slots, split);
    }

    /**
     * The caps: each thread's scan keeps at most its share of pages, and the merge in thread order keeps at most
     * the cap in all; a page past either is unknown (not private), a page two threads saw is shared.
     */
    @Test
    void pagesPastTheCaps_areUnknown_andTheMergeGoesInThreadOrder() {
        WorkProfile w = new WorkProfile(2, 4);
        w.nextThread();
        for (long page = 1; page <= 6; page++) {
            w.count(0, org.dsmscope.trace.RecordKind.MEMORY, page << 12);
        }
        w.nextThread();
        for (long page : new long[] {4, 7, 8}) {
            w.count(1, org.dsmscope.trace.RecordKind.MEMORY, (page << 12) + 8);
        }
        w.resolvePages();
        for (long page = 1; page <= 3; page++) {
            assertEquals(0, w.privateThread(page));
        }
        assertEquals(-1, w.privateThread(4), "seen by both threads");
        for (long page : new long[] {5, 6, 7, 8, 9}) {
            assertEquals(-1, w.privateThread(page), "past a cap, or never seen: unknown");
        }
        assertEquals(3, w.privatePages());
        assertEquals(3, w.privateAccesses(0));
        assertEquals(0, w.privateAccesses(1));
        assertEquals(0, w.sharedSlotAccesses(1));
        assertEquals(2, w.sharedSlotAccesses(4));
        assertEquals(1, w.sharedSlotAccesses(5));
    }

    @Test
    void privatePages_surviveSerialization() throws Exception {
        long[] slots = new long[WorkProfile.SLOTS];
        slots[7] = 9;
        slots[0] = 6;
        WorkProfile w = WorkProfile.of(new long[] {10, 5}, slots, 3, new long[] {7, 1L << 40}, new int[] {1, 0},
                new long[] {4, 6});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(w);
        }
        WorkProfile back;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            back = (WorkProfile) in.readObject();
        }
        assertEquals(1, back.privateThread(7));
        assertEquals(0, back.privateThread(1L << 40));
        assertEquals(-1, back.privateThread(8));
        assertEquals(6, back.privateAccesses(0));
        assertEquals(4, back.privateAccesses(1));
        assertEquals(2, back.privatePages());
        assertEquals(5, back.sharedSlotAccesses(7));
        assertEquals(0, back.sharedSlotAccesses(0));
    }
}
