package org.dsmscope.ciat;

import org.dsmscope.ciat.table.PageOwners;
import org.dsmscope.replay.WorkProfile;

/**
 * Which partition of a partitioned CIAT run (SPEC §4; module README "Parallel analysis") keeps what: the
 * access-age stream and access mix of each thread, and the communication and memory-usage state of each 4 KiB page
 * (through its slot, page number mod {@value WorkProfile#SLOTS}). Every partition computes the same plan from the
 * same inputs, so each thread and page has exactly one owner.
 *
 * <p>Without a {@link WorkProfile} (live streams) threads go round-robin ((t + 1) mod n, so that partition 0, which
 * also counts the records that are not data accesses, does not get thread 0, usually the largest) and page slots
 * too (slot mod n); {@link #live} then deals the page slots from counts of the run's first accesses. With one,
 * the plan balances an estimated cost: a data access costs {@link #AGE_COST} in the partition that keeps its
 * thread's access-age stream, {@link #MIX_COST} in the one that counts its thread's mix and {@link #PAGE_COST} in
 * the one that keeps its page; every other record {@link #OTHER_COST} in partition 0 (weights from a profile of a
 * serial run on the 4-thread matrix multiply, where access age took about 2.5 times the communication and
 * memory-usage work). Threads are dealt largest first to the least loaded partition (ties to the
 * higher partition); then pages are dealt so that every partition's total comes as close to the mean as page slots
 * allow (each slot, largest first, to the partition furthest below its share). On the 4-thread matrix multiply
 * (mm.4), whose first thread also fills the matrices and whose even pages get 68% of the accesses, the estimated
 * cost of the busier partition falls from 1.059 to 1.001 times the mean ({@code bench} {@code PlanCost}).
 */
public final class PartitionPlan {
    /** Estimated cost of a data access's access age, relative to its communication and memory usage. */
    public static final double AGE_COST = 2.0;
    /** Estimated cost of counting a data access in the mix. */
    public static final double MIX_COST = 0.3;
    /** Estimated cost of a data access's communication and memory-usage state. */
    public static final double PAGE_COST = 1.0;
    /** Estimated cost of a record that is not a data access (counted by partition 0). */
    public static final double OTHER_COST = 0.5;

    private final int parts;
    private final int[] ageOwner;
    private final int[] mixOwner;
    private final short[] slotOwner = new short[WorkProfile.SLOTS];
    private PageOwners owners;

    private PartitionPlan(int parts, int threads) {
        this.parts = parts;
        this.ageOwner = new int[threads];
        this.mixOwner = new int[threads];
    }

    /**
     * The plan for {@code parts} partitions of {@code threads} threads; {@code globalAge}: one access-age stream
     * for all threads (it goes to the last partition); {@code profile} may be null (round-robin).
     */
    public static PartitionPlan of(int parts, int threads, boolean globalAge, WorkProfile profile) {
        if (parts < 1 || parts > WorkProfile.SLOTS) {
            throw new IllegalArgumentException("partitions: " + parts + " out of range (1.." + WorkProfile.SLOTS + ")");
        }
        PartitionPlan p = new PartitionPlan(parts, threads);
        if (profile == null || profile.threads() != threads || parts == 1) {
            for (int t = 0; t < threads; t++) {
                p.mixOwner[t] = (t + 1) % parts;
                p.ageOwner[t] = globalAge ? parts - 1 : p.mixOwner[t];
            }
            for (int s = 0; s < WorkProfile.SLOTS; s++) {
                p.slotOwner[s] = (short) (s % parts);
            }
            p.owners = PageOwners.ofSlots(p.slotOwner);
            return p;
        }
        p.balance(profile, globalAge);
        p.owners = PageOwners.of(p.slotOwner, profile, p.mixOwner);
        return p;
    }

    private void balance(WorkProfile profile, boolean globalAge) {
        int threads = ageOwner.length;
        double[] load = new double[parts];
        load[0] = OTHER_COST * profile.otherRecords();
        long total = 0;
        for (int t = 0; t < threads; t++) {
            total += profile.threadAccesses(t);
        }
        if (globalAge) {
            load[parts - 1] += AGE_COST * total;
        }
        // Threads with their private pages, largest first (ties by index), each to the least loaded partition
        // (ties to the higher one).
        double perThread = globalAge ? MIX_COST : AGE_COST + MIX_COST;
        double[] cost = new double[threads];
        for (int t = 0; t < threads; t++) {
            cost[t] = perThread * profile.threadAccesses(t) + PAGE_COST * profile.privateAccesses(t);
        }
        for (int t : largestFirst(threads, u -> cost[u])) {
            int best = parts - 1;
            for (int k = parts - 2; k >= 0; k--) {
                if (load[k] < load[best]) {
                    best = k;
                }
            }
            mixOwner[t] = best;
            ageOwner[t] = globalAge ? parts - 1 : best;
            load[best] += cost[t];
        }
        long shared = 0;
        for (int s = 0; s < WorkProfile.SLOTS; s++) {
            shared += profile.sharedSlotAccesses(s);
        }
        dealSlots(profile::sharedSlotAccesses, load, shared);
    }

    /**
     * The plan of a partitioned run without a work profile (live streams) once {@code counts} were taken from its
     * first accesses: threads round-robin, as {@link #of} deals them without a profile (each partition's access-age
     * state already holds its threads); page slots dealt around the threads' estimated load as {@link #of} deals
     * them with a profile, but with the counts trusted only for a hot slot, one with at least 1/(8 n) of the counted
     * accesses ({@link #HOT_SHARE}): every other slot the first accesses touched counts as an equal share of the
     * rest, and an untouched slot as nothing (round-robin). A prefix of a run foretells its hot pages (a lock, the
     * array of a matrix's row references) but not how the rest spreads: a sweep over rows has touched only the
     * first rows, and dealing by those counts would pile the later rows onto one partition. Every partition that
     * counted the same accesses derives the same plan.
     */
    public static PartitionPlan live(int parts, int threads, boolean globalAge, WorkProfile counts) {
        PartitionPlan p = of(parts, threads, globalAge, null);
        if (parts == 1 || counts.threads() != threads) {
            return p;
        }
        long counted = 0;
        for (int s = 0; s < WorkProfile.SLOTS; s++) {
            counted += counts.slotAccesses(s);
        }
        long total = 0;
        for (int t = 0; t < threads; t++) {
            total += counts.threadAccesses(t);
        }
        // the thread counts may cover part of the window the slot counts cover: scaled to the same amount
        double scale = total == 0 ? 0 : (double) counted / total;
        double[] load = new double[parts];
        load[0] = OTHER_COST * counts.otherRecords();
        for (int t = 0; t < threads; t++) {
            long a = counts.threadAccesses(t);
            load[p.mixOwner[t]] += MIX_COST * a * scale;
            load[p.ageOwner[t]] += AGE_COST * a * scale;
        }
        double hot = counted * HOT_SHARE / parts;
        long hotTotal = 0;
        int warm = 0;
        for (int s = 0; s < WorkProfile.SLOTS; s++) {
            long c = counts.slotAccesses(s);
            if (c > 0 && c >= hot) {
                hotTotal += c;
            } else if (c > 0) {
                warm++;
            }
        }
        long[] w = new long[WorkProfile.SLOTS];
        long each = warm == 0 ? 0 : Math.max(1, (counted - hotTotal) / warm);
        for (int s = 0; s < WorkProfile.SLOTS; s++) {
            long c = counts.slotAccesses(s);
            w[s] = c > 0 && c >= hot ? c : c > 0 ? each : 0;
        }
        p.dealSlots(s -> w[s], load, counted);
        p.owners = PageOwners.ofSlots(p.slotOwner);
        return p;
    }

    /** A live plan's hot slot has at least this share, divided by the number of partitions, of the counted accesses. */
    public static final double HOT_SHARE = 1.0 / 8;

    /**
     * Page slots, largest {@code weight} first, each to the partition furthest below its share, where the shares
     * fill every partition's {@code load} up to a common level with the page work of {@code total} accesses where
     * they can.
     */
    private void dealSlots(java.util.function.IntToLongFunction weight, double[] load, long total) {
        // Each partition's share of the page work fills it up to a common level where it can.
        double[] share = level(load, PAGE_COST * total);
        for (int s : largestFirst(WorkProfile.SLOTS, weight::applyAsLong)) {
            long w = weight.applyAsLong(s);
            if (w == 0) {
                slotOwner[s] = (short) (s % parts);
                continue;
            }
            int best = 0;
            for (int k = 1; k < parts; k++) {
                if (share[k] > share[best]) {
                    best = k;
                }
            }
            slotOwner[s] = (short) best;
            share[best] -= PAGE_COST * w;
        }
    }

    /** Indices 0 .. n-1 by decreasing {@code weight}, ties in index order. */
    private static Integer[] largestFirst(int n, java.util.function.IntToDoubleFunction weight) {
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> weight.applyAsDouble(a) != weight.applyAsDouble(b)
                ? Double.compare(weight.applyAsDouble(b), weight.applyAsDouble(a)) : Integer.compare(a, b));
        return order;
    }

    /**
     * Water-filling: how much of {@code amount} each partition gets so that load + share is the same for all that
     * get any (those already above that level get none).
     */
    static double[] level(double[] load, double amount) {
        int n = load.length;
        double[] sorted = load.clone();
        java.util.Arrays.sort(sorted);
        // the level L with sum over k of max(0, L - load[k]) = amount
        double level = sorted[0] + amount;
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += sorted[i];
            double l = (sum + amount) / (i + 1);
            if (i + 1 == n || l <= sorted[i + 1]) {
                level = l;
                break;
            }
        }
        double[] share = new double[n];
        for (int k = 0; k < n; k++) {
            share[k] = Math.max(0, level - load[k]);
        }
        return share;
    }

    /** Number of partitions. */
    public int parts() {
        return parts;
    }

    /** The partition that keeps thread {@code t}'s access-age stream (the global stream: the last partition). */
    public int ageOwner(int t) {
        return ageOwner[t];
    }

    /** The partition that counts thread {@code t}'s data accesses in the access mix. */
    public int mixOwner(int t) {
        return mixOwner[t];
    }

    /** The partition that keeps the state of 4 KiB page {@code page}. */
    public int pageOwner(long page) {
        return owners.owner(page);
    }

    /** The owner of every 4 KiB page: for the per-access checks of the router, Communication and MemoryUsage. */
    public PageOwners owners() {
        return owners;
    }

    /**
     * The owner of every page slot (index: page number mod {@value WorkProfile#SLOTS}): the owner of each page that
     * is not private to one thread.
     */
    public short[] slotOwners() {
        return slotOwner.clone();
    }
}
