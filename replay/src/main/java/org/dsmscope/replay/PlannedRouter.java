package org.dsmscope.replay;

import java.util.function.Function;
import org.dsmscope.trace.TraceSet;

/**
 * An analysis's router and the threads whose every record goes to every partition ({@link Prescan#whole}), as a
 * plan's prescan found them (SPEC §4 "Partitioning", module README "Partitioned replay"); a {@link RouteSplitter}
 * takes both apart, so its per-access calls go to the analysis's router itself.
 */
final class PlannedRouter implements Replay.Router {
    final Replay.Router inner;
    final boolean[] whole;
    final boolean[] stream;
    /** {@link Prescan#gapsBySize}. */
    final boolean bySize;

    PlannedRouter(Replay.Router inner, boolean[] whole, boolean[] stream, boolean bySize) {
        this.inner = inner;
        this.whole = whole;
        this.stream = stream;
        this.bySize = bySize;
    }

    @Override
    public int route(int thread, long address, int size, int[] to) {
        return inner.route(thread, address, size, to);
    }

    @Override
    public int fill() {
        return inner.fill();
    }

    @Override
    public int spinPartition() {
        return inner.spinPartition();
    }

    @Override
    public int blockBits() {
        return inner.blockBits();
    }

    @Override
    public Replay.Router forChunk() {
        Replay.Router c = inner.forChunk();
        return c == inner ? this : new PlannedRouter(c, whole, stream, bySize);
    }

    /** {@code route} with the threads that the prescan {@code pre} found go whole to every partition. */
    static Replay.Router planned(Replay.Router route, Prescan pre) {
        return new PlannedRouter(route, pre.whole.clone(), pre.stream.clone(), pre.gapsBySize());
    }

    /** {@link RouteSplitter#gapsBySize}. */
    static Replay.Router gapsBySize(Replay.Router router) {
        PlannedRouter p = (PlannedRouter) router;
        return new PlannedRouter(p.inner, p.whole, p.stream, true);
    }

    /** {@link RouteSplitter#router}: the router {@code routing} makes with a context of {@code plan}'s. */
    static Replay.Router of(Replay.Plan plan, Function<ReplayContext, Replay.Router> routing) {
        Prescan pre = plan.prescan();
        int n = plan.threads();
        int np = plan.parts();
        return planned(SpinRoutes.Routing.of(routing.apply(new ReplayContext() {
            @Override
            public int threads() {
                return n;
            }

            @Override
            public int processors() {
                return n;
            }

            @Override
            public TraceSet traces() {
                return null;
            }

            @Override
            public boolean isSyncVariable(long address) {
                return pre.isSyncVariable(address);
            }

            @Override
            public long clock(int t) {
                return 0;
            }

            @Override
            public int partitions() {
                return np;
            }

            @Override
            public WorkProfile workProfile() {
                return pre.profile;
            }

            @Override
            public boolean possibleSpin(int thread) {
                return pre.possibleSpin(thread);
            }

            @Override
            public boolean dropsAccesses() {
                return pre.dropsAccesses();
            }
        }), pre.spinRoutes, np), pre);
    }
}
