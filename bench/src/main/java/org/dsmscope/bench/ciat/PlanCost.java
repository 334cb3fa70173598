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
 * How evenly CIAT's partitions share the work of a trace set (ciat/README.md "Balanced partitions"): one replay
 * counts every data access by thread and page slot, every fetched instruction by code page slot and every call;
 * then, for the round-robin plan, the plan made from the prescan's {@link WorkProfile} and the live plan (made as
 * on-the-fly partitions make it, from the counts of the first {@code CiatOptions.livePlanAt} accesses), it prints each
 * partition's estimated cost ({@link PartitionPlan}'s weights; a fetched instruction at {@link
 * PartitionPlan#PAGE_COST} on its code page's owner) and the largest over the mean. Usage: {@code PlanCost
 * TRACE_PREFIX PARTITIONS}.
 */
public final class PlanCost {
    private PlanCost() {
    }

    /** Counts what the replay delivers and keeps the profile the prescan made. */
    private static final class Counts implements Analysis {
        long[] threads;
        final long[] slots = new long[WorkProfile.SLOTS];
        final long[] code = new long[WorkProfile.SLOTS];
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
            slots[WorkProfile.slotOf(address)]++;
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
            code[WorkProfile.slotOf(address)]++;
        }

        @Override
        public void call(int thread, int cpu, long clock, CallEvent call) {
            calls++;
        }
    }

    /** Per partition: the data accesses of the threads whose age it keeps, of its pages, and its largest slots. */
    private static void details(Counts c, PartitionPlan p, int n) {
        for (int k = 0; k < n; k++) {
            long age = 0;
            long page = 0;
            StringBuilder th = new StringBuilder();
            for (int t = 0; t < c.threads.length; t++) {
                if (p.ageOwner(t) == k) {
                    age += c.threads[t];
                    th.append(' ').append(t);
                }
            }
            Integer[] order = new Integer[WorkProfile.SLOTS];
            int owned = 0;
            for (int s = 0; s < WorkProfile.SLOTS; s++) {
                if (p.pageOwner(s) == k) {
                    page += c.slots[s];
                    order[owned++] = s;
                }
            }
            Integer[] mine = Arrays.copyOf(order, owned);
            Arrays.sort(mine, (x, y) -> Long.compare(c.slots[y], c.slots[x]));
            StringBuilder top = new StringBuilder();
            for (int i = 0; i < Math.min(4, mine.length); i++) {
                top.append(String.format(Locale.ROOT, " %d:%d", mine[i], c.slots[mine[i]]));
            }
            System.out.printf(Locale.ROOT, "  partition %d: age threads%s (%d accesses); %d slots, %d page accesses;"
                    + " largest slots%s%n", k, th, age, owned, page, top);
        }
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
            for (int s = 0; s < WorkProfile.SLOTS; s++) {
                cost[p.pageOwner(s)] += PartitionPlan.PAGE_COST * (c.slots[s] + c.code[s]);
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
