package org.dsmscope.ciat;

import org.dsmscope.ciat.age.AccessAge;
import org.dsmscope.ciat.table.PageOwners;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayContext;

/**
 * Which partitions of a routed CIAT run ({@code Replay.runRouted}, module README "Parallel analysis") need a data
 * access: the partition that keeps its thread's access age, the one that counts its thread's mix, and the owner of
 * every 4 KiB page its bytes touch, as the {@link PartitionPlan} that every partition derives from the same work
 * profile deals them (SPEC §4). An access to a page private to its thread needs only the thread's partition. An access of no bytes goes to every partition, as in a replay per partition.
 * Partition 0 also counts the records that are not data accesses, which every partition gets anyway. Immutable
 * (a live run's owners come from {@link LiveOwners}): the router threads share one.
 */
public final class CiatRouter implements Replay.Router {
    private final int parts;
    private final int[] ageOwner;
    private final int[] mixOwner;
    private final PageOwners owners;
    /** A live run's owners, dealt by the partitions while they run ({@link #live}); else null. */
    private final LiveOwners live;

    /**
     * What {@code Replay.runRouted} asks for: the router of CIAT options {@code opt} in {@code parts} partitions,
     * made from the replay's context after its prescan (threads, work profile).
     */
    public static java.util.function.Function<ReplayContext, Replay.Router> of(CiatOptions opt, int parts) {
        return ctx -> new CiatRouter(opt, ctx, parts, null);
    }

    /**
     * The router of a routed live run (no prescan, no work profile): threads as the partitions deal them without a
     * profile; every access to every partition until the partitions have dealt the pages ({@link LiveOwners}, which
     * each partition's {@link Ciat#liveRouted} publishes to), then by those owners; and every access to partition
     * 0, whose spin detector needs them (a live stream's possible spins are not known in advance).
     */
    public static java.util.function.Function<ReplayContext, Replay.Router> live(CiatOptions opt, int parts,
            LiveOwners owners) {
        return ctx -> new CiatRouter(opt, ctx, parts, owners);
    }

    private CiatRouter(CiatOptions opt, ReplayContext ctx, int parts, LiveOwners live) {
        this.live = live;
        int threads = ctx.threads();
        this.parts = parts;
        PartitionPlan plan = PartitionPlan.of(parts, threads, opt.ageScope == AccessAge.Scope.GLOBAL,
                ctx.workProfile());
        ageOwner = new int[threads];
        mixOwner = new int[threads];
        for (int t = 0; t < threads; t++) {
            ageOwner[t] = plan.ageOwner(t);
            mixOwner[t] = plan.mixOwner(t);
        }
        owners = plan.owners();
    }

    /**
     * Gaps of up to this many accesses go to a partition as the accesses ({@code Replay.Router.fill}): such an
     * access is another partition's thread on another partition's page, which {@link Ciat#access} only numbers and
     * counts, exactly as {@link Ciat#skipped}; a gap record costs the partition six words read on the reader's
     * slow path and, in lockstep, a place in the gap queue (replay/README.md "Partitioned replay"). 8 is a judgment,
     * not a measured optimum.
     */
    static final int FILL = 8;

    @Override
    public int fill() {
        return FILL;
    }

    /**
     * Partition 0 detects spins ({@link Ciat}: it books the times): the routed run gives it what its detector
     * needs besides its own accesses, which it handles as another partition's thread on another partition's page.
     */
    @Override
    public int spinPartition() {
        return 0;
    }

    /**
     * Decided by 4 KiB page ({@code Replay.Router.blockBits}): an access of at least one byte within one page goes to
     * its thread's age and mix owners and the page's owner, all fixed once the plan is made; a live run's owners are
     * dealt while it runs, so it decides by access.
     */
    @Override
    public int blockBits() {
        return live == null ? 12 : -1;
    }

    @Override
    public int route(int thread, long address, int size, int[] to) {
        PageOwners owners = live == null ? this.owners : live.owners();
        if (size <= 0 || owners == null) {
            for (int p = 0; p < parts; p++) {
                to[p] = p;
            }
            return parts;
        }
        int a = ageOwner[thread];
        int m = mixOwner[thread];
        to[0] = a;
        int n = 1;
        if (m != a) {
            to[n++] = m;
        }
        if (live != null && a != 0 && m != 0) {
            to[n++] = 0; // partition 0's spin detector
        }
        long first = address >>> 12;
        long last = (address + size - 1) >>> 12;
        for (long page = first; ; page++) {
            int o = owners.owner(page);
            boolean seen = false;
            for (int i = 0; i < n; i++) {
                seen |= to[i] == o;
            }
            if (!seen) {
                to[n++] = o;
            }
            if (page == last) {
                return n;
            }
        }
    }
}
