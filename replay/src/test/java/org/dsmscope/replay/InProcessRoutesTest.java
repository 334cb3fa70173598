package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace set routed once into the in-process words of a routed run and held ({@link InProcessRoutes}, SPEC §4
 * "Partitioning"): partition k replayed alone from them sees exactly what partition k of {@link Replay#runRouted}
 * sees, with routers that fill short gaps or not.
 */
class InProcessRoutesTest {
    @TempDir
    Path dir;

    @Property(tries = 25)
    void partitionsReplayedFromHeldWords_seeWhatTheRoutedRunsPartitionsSee(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 6) int threads, @ForAll @IntRange(min = 0, max = 3) int partsIndex,
            @ForAll @IntRange(min = 0, max = 8) int fill) throws Exception {
        int parts = new int[] {2, 3, 7, 16}[partsIndex];
        Path d = Files.createTempDirectory("inprocess");
        try {
            TraceSet set = RoutedReplayTest.randomForkJoin(d, seed, threads, 6000, new SplittableRandom(seed));
            java.util.function.Function<ReplayContext, Replay.Router> routing =
                    ctx -> RoutedReplayTest.filling(RoutedReplayTest.byPageAndThread(parts), fill);
            Replay routed = new Replay(set, null, new ReplayOptions());
            List<RoutedReplayTest.Seen> together = routed.runRouted(parts, k -> new RoutedReplayTest.Seen(), routing);
            assertEquals(Replay.MODE_ROUTED, routed.partitionMode());
            Replay.Plan plan = new Replay(set, null, new ReplayOptions()).plan(parts, true);
            InProcessRoutes routes = InProcessRoutes.route(plan, set, new ReplayOptions(), routing);
            for (int k = 0; k < parts; k++) {
                RoutedReplayTest.Seen alone = routes.replay(new Replay(set, null, new ReplayOptions()), k,
                        new RoutedReplayTest.Seen());
                RoutedReplayTest.Seen want = together.get(k);
                assertTrue(alone.ctx.routed());
                assertEquals(RoutedReplayTest.numbered(want.all, want.given),
                        RoutedReplayTest.numbered(alone.all, alone.given), "partition " + k);
                assertEquals(want.mine, alone.mine, "partition " + k);
                assertEquals(want.other, alone.other, "partition " + k);
                assertEquals(want.bytes, alone.bytes, "partition " + k);
                for (int t = 0; t < set.size(); t++) {
                    assertTrue(routes.words(t, k) > 0, "every stream has its header and end: thread " + t);
                }
            }
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    @Test
    void aPlanThatDoesNotRoute_isRefused() throws Exception {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 2;
        p.instructions = 1000;
        TraceSet set = ForkJoinGen.write(dir, "fj", p);
        Replay.Plan plan = new Replay(set, null, new ReplayOptions()).plan(2);
        assertThrows(IllegalStateException.class, () -> InProcessRoutes.route(plan, set, new ReplayOptions(),
                ctx -> RoutedReplayTest.byPageAndThread(2)));
    }
}
