package org.dsmscope.bench.ciat;

import java.util.Arrays;
import java.util.Locale;
import org.dsmscope.ciat.PartitionPlan;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.replay.WorkProfile;
import org.dsmscope.trace.TraceSet;

/**
 * How evenly CIAT's partitions share the work of a trace set (ciat/README.md "Balanced plan"): one replay
 * counts every data access by thread and 4 KiB page, every fetched instruction by code page and every call;
 * then, for the round-robin plan, the plan made from the prescan's {@link WorkProfile} and the live plan (made as
 * on-the-fly partitions make it, from the counts of the first {@code CiatOptions.livePlanAt} accesses), it prints each
 * partition's estimated cost ({@link PartitionPlan}'s weights; a fetched instruction at {@link
 * PartitionPlan#PAGE_COST} on its code page's owner) and the largest over the mean, and the data accesses a routed
 * run gives each partition ({@code CiatRouter}: its thread's age and mix owners and its first page's owner) and
 * their sum over the accesses. Usage: {@code PlanCost TRACE_PREFIX PARTITIONS}.
 */
public final class PlanCost {
    private PlanCost() {
    }

    /** Counts what the replay delivers and keeps the profile the prescan made. */
    private static final class Counts implements Analysis {
        long[] threads;
        /** Per 4 KiB data page: accesses by thread. */
        final java.util.TreeMap<Long, long[]> pages = new java.util.TreeMap<>();
        /** Per 4 KiB code page: fetched instructions. */
        final java.util.TreeMap<Long, long[]> code = new java.util.TreeMap<>();
        long last = -1;
        long[] lastCounts;
        long calls;
        WorkProfile profile;
        /** The counts of the first {@link #firstN} data accesses, as a live run's partitions take them. */
        long[] firstThreads;
        final long[] firstSlots = new long[WorkProfile.SLOTS];
        long seen;
        final long firstN = new org.dsmscope.ciat.CiatOptions().livePlanAt;

        @Override
        public boolean wantsWorkProfile() {
            return true;
        }

        @Override
        public void begin(ReplayContext c) {
            threads = new long[c.threads()];
            firstThreads = new long[c.threads()];
            profile = c.workProfile();
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            threads[thread]++;
            long page = address >>> 12;
            if (page != last) {
                last = page;
                lastCounts = pages.computeIfAbsent(page, k -> new long[threads.length]);
            }
            lastCounts[thread]++;
            if (seen < firstN) {
                if (seen >= firstN >>> 1) {
                    firstThreads[thread]++;
                }
                if (size > 0) {
                    firstSlots[WorkProfile.slotOf(address)]++;
                }
            }
            seen++;
        }

        @Override
        public void fetch(int thread, int cpu, long clock, long address, int size) {
            code.computeIfAbsent(address >>> 12, k -> new long[1])[0]++;
        }

        @Override
        public void call(int thread, int cpu, long clock, CallEvent call) {
            calls++;
        }
    }

    /**
     * Per partition: the data accesses of the threads whose age it keeps, of its pages, those a routed run gives
     * it, and its largest slots.
     */
    private static void details(Counts c, PartitionPlan p, int n) {
        long[] page = new long[n];
        long[] routed = new long[n];
        long[][] bySlot = new long[n][WorkProfile.SLOTS];
        for (java.util.Map.Entry<Long, long[]> e : c.pages.entrySet()) {
            int o = p.pageOwner(e.getKey());
            long[] by = e.getValue();
            for (int t = 0; t < by.length; t++) {
                page[o] += by[t];
                bySlot[o][(int) (e.getKey() & (WorkProfile.SLOTS - 1))] += by[t];
                routed[p.ageOwner(t)] += by[t];
                if (p.mixOwner(t) != p.ageOwner(t)) {
                    routed[p.mixOwner(t)] += by[t];
                }
                if (o != p.ageOwner(t) && o != p.mixOwner(t)) {
                    routed[o] += by[t];
                }
            }
        }
        long accesses = Arrays.stream(c.threads).sum();
        for (int k = 0; k < n; k++) {
            long age = 0;
            StringBuilder th = new StringBuilder();
            for (int t = 0; t < c.threads.length; t++) {
                if (p.ageOwner(t) == k) {
                    age += c.threads[t];
                    th.append(' ').append(t);
                }
            }
            long[] mine = bySlot[k];
            Integer[] order = new Integer[WorkProfile.SLOTS];
            for (int s = 0; s < WorkProfile.SLOTS; s++) {
                order[s] = s;
            }
            Arrays.sort(order, (x, y) -> Long.compare(mine[y], mine[x]));
            StringBuilder top = new StringBuilder();
            for (int i = 0; i < 4 && mine[order[i]] > 0; i++) {
                top.append(String.format(Locale.ROOT, " %d:%d", order[i], mine[order[i]]));
            }
            System.out.printf(Locale.ROOT, "  partition %d: age threads%s (%d accesses); %d page accesses; routed %d"
                    + " accesses (%.3f of all); largest slots%s%n", k, th, age, page[k], routed[k],
                    accesses == 0 ? 0.0 : (double) routed[k] / accesses, top);
        }
        System.out.printf(Locale.ROOT, "  routed in all: %d accesses, %.3f times the %d of the trace%n",
                Arrays.stream(routed).sum(), accesses == 0 ? 0.0 : (double) Arrays.stream(routed).sum() / accesses,
                accesses);
    }

    /** Prints the estimates. */
    public static void main(String[] a) {
        TraceSet set = TraceSet.ofPrefix(a[0]);
        int n = Integer.parseInt(a[1]);
        Counts c = new Counts();
        new Replay(set, null, new ReplayOptions()).add(c).run();
        for (String which : new String[] {"round-robin", "profile", "live"}) {
            if (which.equals("live") && c.seen < c.firstN) {
                System.out.printf(Locale.ROOT, "%s live plan: not made (%d accesses, fewer than %d): every page stays"
                        + " with partition 0%n", a[0], c.seen, c.firstN);
                continue;
            }
            PartitionPlan p = which.equals("live")
                    ? PartitionPlan.live(n, c.threads.length, false, WorkProfile.of(c.firstThreads, c.firstSlots, 0))
                    : PartitionPlan.of(n, c.threads.length, false, which.equals("profile") ? c.profile : null);
            double[] cost = new double[n];
            cost[0] += PartitionPlan.OTHER_COST * c.calls;
            for (int t = 0; t < c.threads.length; t++) {
                cost[p.ageOwner(t)] += PartitionPlan.AGE_COST * c.threads[t];
                cost[p.mixOwner(t)] += PartitionPlan.MIX_COST * c.threads[t];
            }
            for (java.util.Map.Entry<Long, long[]> e : c.pages.entrySet()) {
                cost[p.pageOwner(e.getKey())] += PartitionPlan.PAGE_COST * Arrays.stream(e.getValue()).sum();
            }
            for (java.util.Map.Entry<Long, long[]> e : c.code.entrySet()) {
                cost[p.pageOwner(e.getKey())] += PartitionPlan.PAGE_COST * e.getValue()[0];
            }
            double sum = Arrays.stream(cost).sum();
            double max = Arrays.stream(cost).max().orElse(0);
            StringBuilder b = new StringBuilder();
            for (double x : cost) {
                b.append(String.format(Locale.ROOT, " %.0f", x));
            }
            System.out.printf(Locale.ROOT, "%s %s plan: estimated cost per partition%s; largest / mean %.3f%n", a[0],
                    which, b, sum == 0 ? 1.0 : max / (sum / n));
            details(c, p, n);
        }
    }
}
