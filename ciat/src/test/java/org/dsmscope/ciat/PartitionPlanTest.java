package org.dsmscope.ciat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.replay.WorkProfile;
import org.junit.jupiter.api.Test;

/** How {@link PartitionPlan} deals threads and pages over partitions. */
class PartitionPlanTest {

    @Test
    void withoutAProfile_threadsAndPagesGoRoundRobin() {
        PartitionPlan p = PartitionPlan.of(3, 5, false, null);
        for (int t = 0; t < 5; t++) {
            assertEquals((t + 1) % 3, p.ageOwner(t));
            assertEquals((t + 1) % 3, p.mixOwner(t));
        }
        for (long page = 0; page < 5000; page++) {
            assertEquals((int) (page % WorkProfile.SLOTS) % 3, p.pageOwner(page));
        }
        PartitionPlan g = PartitionPlan.of(2, 4, true, null);
        for (int t = 0; t < 4; t++) {
            assertEquals(1, g.ageOwner(t), "the global stream: last partition");
        }
    }

    /**
     * The 4-thread matrix multiply (mm.4 of the benchmarks: thread 0 also fills the matrices): round-robin gave
     * one partition threads 0 and 2, 3.63 M accesses of access age against 3.15 M; the plan evens the estimated
     * cost out with the pages.
     */
    @Test
    void matrixMultiply_theHeavierThreadPairGetsFewerPages() {
        long[] threads = {2_053_117, 1_577_027, 1_577_027, 1_577_027};
        long total = 0;
        for (long t : threads) {
            total += t;
        }
        long[] slots = new long[WorkProfile.SLOTS];
        for (int s = 0; s < 96; s++) {
            slots[s] = total / 96;
        }
        slots[0] += total - 96 * (total / 96);
        PartitionPlan p = PartitionPlan.of(2, 4, false, WorkProfile.of(threads, slots, 0));
        double[] cost = cost(p, threads, slots, 0, false);
        assertEquals(p.ageOwner(0), p.mixOwner(0));
        assertTrue(Math.abs(cost[0] - cost[1]) <= PartitionPlan.PAGE_COST * slots[0], java.util.Arrays.toString(cost));
        double roundRobin = Math.max(cost(PartitionPlan.of(2, 4, false, null), threads, slots, 0, false)[0],
                cost(PartitionPlan.of(2, 4, false, null), threads, slots, 0, false)[1]);
        assertTrue(Math.max(cost[0], cost[1]) < 0.96 * roundRobin, cost[0] + " " + cost[1] + " vs " + roundRobin);
    }

    /**
     * The live plan of the 512×512 matrix multiply (on-the-fly, counts of its first accesses): the page of B's row
     * references takes a third of the accesses. Round-robin gave it and half the other slots to partition 0; the
     * live plan keeps the threads where round-robin put them and deals the other slots around that page.
     */
    @Test
    void livePlan_keepsRoundRobinThreads_andDealsPagesAroundAHotOne() {
        long[] threads = {500_000, 4_000_000, 4_000_000, 4_000_000, 4_000_000};
        long total = 0;
        for (long t : threads) {
            total += t;
        }
        long[] slots = new long[WorkProfile.SLOTS];
        slots[514] = total / 3;
        long rest = total - slots[514];
        for (int s = 0; s < 1024; s++) {
            if (s != 514) {
                slots[s] += rest / 1023;
            }
        }
        slots[0] += rest - 1023 * (rest / 1023);
        PartitionPlan live = PartitionPlan.live(2, 5, false, WorkProfile.of(threads, slots, 0));
        PartitionPlan rr = PartitionPlan.of(2, 5, false, null);
        for (int t = 0; t < 5; t++) {
            assertEquals(rr.ageOwner(t), live.ageOwner(t));
            assertEquals(rr.mixOwner(t), live.mixOwner(t));
        }
        double[] c = cost(live, threads, slots, 0, false);
        double[] r = cost(rr, threads, slots, 0, false);
        assertTrue(Math.abs(c[0] - c[1]) <= PartitionPlan.PAGE_COST * (rest / 1023 + 1023),
                java.util.Arrays.toString(c));
        assertTrue(Math.max(c[0], c[1]) < 0.95 * Math.max(r[0], r[1]), java.util.Arrays.toString(c) + " vs "
                + java.util.Arrays.toString(r));
        PartitionPlan none = PartitionPlan.live(2, 5, false, WorkProfile.of(new long[5], new long[1024], 0));
        for (long page = 0; page < 2048; page++) {
            assertEquals(rr.pageOwner(page), none.pageOwner(page), "no counts: round-robin");
        }
    }

    /**
     * The first 16 M accesses of the 512×512 matrix multiply have touched every page (main filled A and B) but swept
     * only the first rows of A and C, so their slots count far more than they will over the run. The live plan
     * trusts only the hot slot's count (B's row references, a third) and weighs every other touched slot alike: over
     * the whole run (the hot slot, the rest even) the partitions' estimates stay within 2% of each other, where
     * dealing by the prefix's counts leaves one partition most of the later rows.
     */
    @Test
    void livePlan_aSweepsFirstRowsDoNotDecideWhereTheLaterRowsGo() {
        long[] threads = {500_000, 4_000_000, 4_000_000, 4_000_000, 4_000_000};
        long total = 16_500_000;
        long[] prefix = new long[WorkProfile.SLOTS];
        long[] run = new long[WorkProfile.SLOTS];
        prefix[514] = total / 3;
        run[514] = total / 3;
        for (int s = 0; s < WorkProfile.SLOTS; s++) {
            if (s != 514) {
                prefix[s] = s < 80 ? 60_000 : (total - total / 3 - 79 * 60_000) / 944;
                run[s] = (total - total / 3) / 1023;
            }
        }
        PartitionPlan live = PartitionPlan.live(2, 5, false, WorkProfile.of(threads, prefix, 0));
        double[] c = cost(live, threads, run, 0, false);
        assertTrue(Math.abs(c[0] - c[1]) < 0.02 * (c[0] + c[1]) / 2, java.util.Arrays.toString(c));
    }

    @Test
    void level_fillsTheLightestPartitionsToACommonLevel() {
        assertArrayEquals(new double[] {4, 0}, PartitionPlan.level(new double[] {0, 10}, 4), 1e-9);
        assertArrayEquals(new double[] {15, 5}, PartitionPlan.level(new double[] {0, 10}, 20), 1e-9);
        assertArrayEquals(new double[] {3, 0, 1}, PartitionPlan.level(new double[] {2, 9, 4}, 4), 1e-9);
    }

    /**
     * On any profile: every thread and page has one owner among the partitions, the plan is the same when made
     * again, and no partition's estimated cost exceeds the mean by more than the largest single thread or slot
     * (the list-scheduling bound).
     */
    @Property(tries = 300)
    void anyProfile_ownersInRange_deterministic_andBalancedWithinOneItem(@ForAll @IntRange(min = 1, max = 9) int parts,
            @ForAll @IntRange(min = 1, max = 40) int threadCount, @ForAll long seed, @ForAll boolean global) {
        Random r = new Random(seed);
        long[] threads = new long[threadCount];
        long total = 0;
        for (int t = 0; t < threadCount; t++) {
            threads[t] = r.nextInt(4) == 0 ? 0 : r.nextInt(1_000_000);
            total += threads[t];
        }
        long[] slots = new long[WorkProfile.SLOTS];
        long left = total;
        while (left > 0) {
            int s = r.nextInt(r.nextBoolean() ? 8 : WorkProfile.SLOTS);
            long w = Math.min(left, 1 + r.nextInt(50_000));
            slots[s] += w;
            left -= w;
        }
        long other = r.nextInt(200_000);
        WorkProfile profile = WorkProfile.of(threads, slots, other);
        PartitionPlan p = PartitionPlan.of(parts, threadCount, global, profile);
        PartitionPlan again = PartitionPlan.of(parts, threadCount, global, profile);
        for (int t = 0; t < threadCount; t++) {
            assertTrue(p.ageOwner(t) >= 0 && p.ageOwner(t) < parts);
            assertTrue(p.mixOwner(t) >= 0 && p.mixOwner(t) < parts);
            assertEquals(p.ageOwner(t), again.ageOwner(t));
            assertEquals(p.mixOwner(t), again.mixOwner(t));
            if (global) {
                assertEquals(parts - 1, p.ageOwner(t));
            }
        }
        assertArrayEquals(p.slotOwners(), again.slotOwners());
        for (short o : p.slotOwners()) {
            assertTrue(o >= 0 && o < parts);
        }
        double[] cost = cost(p, threads, slots, other, global);
        double sum = 0;
        double max = 0;
        for (double c : cost) {
            sum += c;
            max = Math.max(max, c);
        }
        double item = PartitionPlan.OTHER_COST * other + (global ? PartitionPlan.AGE_COST * total : 0);
        for (long t : threads) {
            item = Math.max(item, (PartitionPlan.AGE_COST + PartitionPlan.MIX_COST) * t);
        }
        for (long s : slots) {
            item = Math.max(item, PartitionPlan.PAGE_COST * s);
        }
        assertTrue(max <= sum / parts + item + 1e-6, max + " > mean " + sum / parts + " + " + item);
    }

    /** Threads 0..3, each with private pages below and above 2^20 (hashed), and shared accesses in slots 0..63. */
    private static WorkProfile fourThreadsWithPrivatePages() {
        long[] threads = {4000, 3000, 2000, 1000};
        long[] slots = new long[WorkProfile.SLOTS];
        long[] pages = new long[8];
        int[] owner = new int[8];
        long[] accesses = new long[8];
        for (int t = 0; t < 4; t++) {
            pages[2 * t] = 0x20000 + 0x1000L * t;
            pages[2 * t + 1] = (1L << 36) + t;
            owner[2 * t] = t;
            owner[2 * t + 1] = t;
            accesses[2 * t] = threads[t] / 2;
            accesses[2 * t + 1] = threads[t] / 4;
            slots[(int) pages[2 * t] & (WorkProfile.SLOTS - 1)] += accesses[2 * t];
            slots[(int) pages[2 * t + 1] & (WorkProfile.SLOTS - 1)] += accesses[2 * t + 1];
            for (int s = 0; s < 64; s++) {
                slots[s] += threads[t] / 4 / 64;
            }
        }
        return WorkProfile.of(threads, slots, 100, pages, owner, accesses);
    }

    @Test
    void privatePage_goesToThePartitionThatKeepsItsThreadsAccessAge() {
        WorkProfile w = fourThreadsWithPrivatePages();
        for (int parts : new int[] {2, 3, 4}) {
            PartitionPlan p = PartitionPlan.of(parts, 4, false, w);
            for (int t = 0; t < 4; t++) {
                assertEquals(p.ageOwner(t), p.mixOwner(t));
                assertEquals(p.ageOwner(t), p.pageOwner(0x20000 + 0x1000L * t), "thread " + t + ", " + parts);
                assertEquals(p.ageOwner(t), p.pageOwner((1L << 36) + t), "thread " + t + " above 2^20, " + parts);
                assertEquals(p.ageOwner(t), p.owners().owner((1L << 36) + t));
            }
        }
        PartitionPlan g = PartitionPlan.of(3, 4, true, w);
        for (int t = 0; t < 4; t++) {
            assertEquals(2, g.ageOwner(t));
            assertEquals(g.mixOwner(t), g.pageOwner(0x20000 + 0x1000L * t), "global scope: with the thread's mix");
        }
        assertTrue(g.mixOwner(0) != g.mixOwner(1), "the global stream does not draw the private pages to it");
    }

    @Test
    void sharedAndUnknownPages_goToTheirSlotsOwner() {
        WorkProfile w = fourThreadsWithPrivatePages();
        PartitionPlan p = PartitionPlan.of(3, 4, false, w);
        short[] slot = p.slotOwners();
        for (long page : new long[] {0x20000 + 7, 0x20000 + 0x1000L * 4, 0x10000, 0x3ff, (1L << 36) + 9, 1L << 20,
                (1L << 40) + 1}) {
            assertEquals(slot[(int) page & (WorkProfile.SLOTS - 1)], p.pageOwner(page), "page 0x" + Long.toHexString(page));
        }
        PartitionPlan again = PartitionPlan.of(3, 4, false, w);
        for (long page = 0x1f000; page < 0x25000; page++) {
            assertEquals(p.pageOwner(page), again.pageOwner(page));
        }
    }

    /**
     * The reference fork-join trace's shape (16 threads, 70% of each thread's accesses on its private pages, which
     * share their slots with the other threads' private pages and with the 256 pages of the shared array): with
     * the private pages a routed run gives the two partitions 1.15 times the accesses in all, where dealing every
     * page by slot gives them 1.5 times, and the estimated costs stay even.
     */
    @Test
    void privatePages_cutWhatARoutedRunDelivers_andKeepTheBalance() {
        int threads = 16;
        long[] acc = new long[threads];
        long[] slots = new long[WorkProfile.SLOTS];
        long[] pages = new long[threads * 64];
        int[] owner = new int[pages.length];
        long[] privAcc = new long[pages.length];
        long[][] sharedBy = new long[threads][256];
        for (int t = 0; t < threads; t++) {
            acc[t] = 1_000_000;
            for (int i = 0; i < 64; i++) {
                int k = t * 64 + i;
                pages[k] = 0x20000 + 0x1000L * t + i;
                owner[k] = t;
                privAcc[k] = 700_000 / 64;
                slots[(int) pages[k] & (WorkProfile.SLOTS - 1)] += privAcc[k];
            }
            for (int s = 0; s < 256; s++) {
                sharedBy[t][s] = (acc[t] - 64 * (700_000 / 64)) / 256;
                slots[s] += sharedBy[t][s];
            }
        }
        WorkProfile bySlot = WorkProfile.of(acc, slots, 0);
        WorkProfile byPage = WorkProfile.of(acc, slots, 0, pages, owner, privAcc);
        long total = 0;
        for (long a : acc) {
            total += a;
        }
        for (WorkProfile w : new WorkProfile[] {bySlot, byPage}) {
            PartitionPlan p = PartitionPlan.of(2, threads, false, w);
            long delivered = 0;
            double[] cost = new double[2];
            for (int t = 0; t < threads; t++) {
                cost[p.ageOwner(t)] += (PartitionPlan.AGE_COST + PartitionPlan.MIX_COST) * acc[t];
                for (int i = 0; i < 64; i++) {
                    int k = t * 64 + i;
                    int o = p.pageOwner(pages[k]);
                    delivered += privAcc[k] * (o == p.ageOwner(t) ? 1 : 2);
                    cost[o] += PartitionPlan.PAGE_COST * privAcc[k];
                }
                for (int s = 0; s < 256; s++) {
                    int o = p.pageOwner(0x10000 + s);
                    delivered += sharedBy[t][s] * (o == p.ageOwner(t) ? 1 : 2);
                    cost[o] += PartitionPlan.PAGE_COST * sharedBy[t][s];
                }
            }
            double ratio = (double) delivered / total;
            if (w == bySlot) {
                assertTrue(ratio > 1.45, "by slot: " + ratio);
            } else {
                assertTrue(ratio < 1.16, "by page: " + ratio);
            }
            assertTrue(Math.max(cost[0], cost[1]) <= 1.01 * (cost[0] + cost[1]) / 2, java.util.Arrays.toString(cost));
        }
    }

    /**
     * On any profile with private pages: each private page goes with its thread's mix (and, per thread, access
     * age), every other page with its slot, the plan is the same when made again, and no partition's estimated
     * cost exceeds the mean by more than the largest thread (with its private page work) or shared slot.
     */
    @Property(tries = 200)
    void anyProfileWithPrivatePages_followsItsThreads_andBalancedWithinOneItem(
            @ForAll @IntRange(min = 1, max = 9) int parts, @ForAll @IntRange(min = 1, max = 40) int threadCount,
            @ForAll long seed, @ForAll boolean global) {
        Random r = new Random(seed);
        long[] threads = new long[threadCount];
        long[] slots = new long[WorkProfile.SLOTS];
        long[] shared = new long[WorkProfile.SLOTS];
        java.util.List<long[]> priv = new java.util.ArrayList<>();
        java.util.Set<Long> used = new java.util.HashSet<>();
        long[] privWork = new long[threadCount];
        for (int t = 0; t < threadCount; t++) {
            threads[t] = r.nextInt(4) == 0 ? 0 : r.nextInt(1_000_000);
            long mine = (long) (threads[t] * r.nextDouble());
            int n = 1 + r.nextInt(20);
            for (int i = 0; i < n && mine > 0; i++) {
                long page = r.nextBoolean() ? r.nextInt(1 << 20) : (1L << 20) + (r.nextLong() >>> 20);
                if (!used.add(page)) {
                    continue;
                }
                long a = i == n - 1 ? mine : Math.min(mine, r.nextInt(200_000));
                priv.add(new long[] {page, t, a});
                slots[(int) page & (WorkProfile.SLOTS - 1)] += a;
                privWork[t] += a;
                mine -= a;
            }
            long left = threads[t] - privWork[t];
            while (left > 0) {
                int s = r.nextInt(r.nextBoolean() ? 8 : WorkProfile.SLOTS);
                long w = Math.min(left, 1 + r.nextInt(50_000));
                slots[s] += w;
                shared[s] += w;
                left -= w;
            }
        }
        long[] pages = new long[priv.size()];
        int[] owner = new int[priv.size()];
        long[] accesses = new long[priv.size()];
        for (int i = 0; i < pages.length; i++) {
            pages[i] = priv.get(i)[0];
            owner[i] = (int) priv.get(i)[1];
            accesses[i] = priv.get(i)[2];
        }
        long other = r.nextInt(200_000);
        WorkProfile profile = WorkProfile.of(threads, slots, other, pages, owner, accesses);
        PartitionPlan p = PartitionPlan.of(parts, threadCount, global, profile);
        PartitionPlan again = PartitionPlan.of(parts, threadCount, global, profile);
        double[] cost = new double[parts];
        cost[0] += PartitionPlan.OTHER_COST * other;
        long total = 0;
        for (int t = 0; t < threadCount; t++) {
            assertEquals(p.mixOwner(t), again.mixOwner(t));
            assertEquals(global ? parts - 1 : p.mixOwner(t), p.ageOwner(t));
            cost[p.ageOwner(t)] += (global ? 0 : PartitionPlan.AGE_COST) * threads[t];
            cost[p.mixOwner(t)] += PartitionPlan.MIX_COST * threads[t];
            total += threads[t];
        }
        if (global) {
            cost[parts - 1] += PartitionPlan.AGE_COST * total;
        }
        for (int i = 0; i < pages.length; i++) {
            assertEquals(p.mixOwner(owner[i]), p.pageOwner(pages[i]));
            assertEquals(p.pageOwner(pages[i]), again.pageOwner(pages[i]));
            cost[p.pageOwner(pages[i])] += PartitionPlan.PAGE_COST * accesses[i];
        }
        short[] slotOwner = p.slotOwners();
        assertArrayEquals(slotOwner, again.slotOwners());
        for (int k = 0; k < 50; k++) {
            long page = r.nextInt(1 << 21);
            if (!used.contains(page)) {
                assertEquals(slotOwner[(int) page & (WorkProfile.SLOTS - 1)], p.pageOwner(page));
            }
        }
        double item = PartitionPlan.OTHER_COST * other + (global ? PartitionPlan.AGE_COST * total : 0);
        for (int s = 0; s < WorkProfile.SLOTS; s++) {
            cost[slotOwner[s]] += PartitionPlan.PAGE_COST * shared[s];
            item = Math.max(item, PartitionPlan.PAGE_COST * shared[s]);
        }
        for (int t = 0; t < threadCount; t++) {
            item = Math.max(item, (global ? PartitionPlan.MIX_COST : PartitionPlan.AGE_COST + PartitionPlan.MIX_COST)
                    * threads[t] + PartitionPlan.PAGE_COST * privWork[t]);
        }
        double sum = 0;
        double max = 0;
        for (double c : cost) {
            sum += c;
            max = Math.max(max, c);
        }
        assertTrue(max <= sum / parts + item + 1e-6, max + " > mean " + sum / parts + " + " + item);
    }

    /** The plan's estimated cost per partition. */
    private static double[] cost(PartitionPlan p, long[] threads, long[] slots, long other, boolean global) {
        double[] c = new double[p.parts()];
        c[0] += PartitionPlan.OTHER_COST * other;
        for (int t = 0; t < threads.length; t++) {
            c[p.ageOwner(t)] += (global ? 0 : PartitionPlan.AGE_COST) * threads[t];
            c[p.mixOwner(t)] += PartitionPlan.MIX_COST * threads[t];
        }
        if (global) {
            long total = 0;
            for (long t : threads) {
                total += t;
            }
            c[p.parts() - 1] += PartitionPlan.AGE_COST * total;
        }
        for (int s = 0; s < slots.length; s++) {
            c[p.pageOwner(s)] += PartitionPlan.PAGE_COST * slots[s];
        }
        return c;
    }
}
