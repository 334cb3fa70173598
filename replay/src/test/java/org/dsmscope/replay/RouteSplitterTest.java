package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
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
 * Offline routing (SPEC §4 "Partitioning"; {@link RouteSplitter}, {@link Replay#runPartition(Replay.Plan, int,
 * Analysis, java.util.function.IntFunction)}): each trace split once into routed streams per partition, the plan
 * serialized and read back (as a Spark map and reduce task get them), and partition k replayed alone from its
 * streams sees exactly what partition k of the live routed replay ({@link Replay#runRouted}) sees.
 */
class RouteSplitterTest {
    @TempDir
    Path dir;

    /** Every thread's trace split by {@code plan}'s router: {@code [thread][partition]} routed stream bytes. */
    static byte[][][] split(TraceSet set, Replay.Plan plan, Replay.Router router) throws IOException {
        return split(set, plan, router, new long[2]);
    }

    /** {@link #split(TraceSet, Replay.Plan, Replay.Router)}, adding the accesses read and routed to {@code count}. */
    static byte[][][] split(TraceSet set, Replay.Plan plan, Replay.Router router, long[] count) throws IOException {
        return split(set, plan, router, new ReplayOptions(), count);
    }

    /** {@link #split(TraceSet, Replay.Plan, Replay.Router, long[])}, the traces read with replay options {@code o}. */
    static byte[][][] split(TraceSet set, Replay.Plan plan, Replay.Router router, ReplayOptions o, long[] count)
            throws IOException {
        int parts = plan.parts();
        byte[][][] out = new byte[set.size()][parts][];
        for (int t = 0; t < set.size(); t++) {
            ByteArrayOutputStream[] bytes = new ByteArrayOutputStream[parts];
            WritableByteChannel[] ch = new WritableByteChannel[parts];
            for (int p = 0; p < parts; p++) {
                bytes[p] = new ByteArrayOutputStream();
                ch[p] = Channels.newChannel(bytes[p]);
            }
            try (RouteSplitter s = new RouteSplitter(set.files().get(t), t, router, o, ch)) {
                while (s.step()) {
                    // routes the whole trace
                }
                count[0] += s.accesses();
                count[1] += s.routed();
            }
            for (int p = 0; p < parts; p++) {
                out[t][p] = bytes[p].toByteArray();
            }
        }
        return out;
    }

    @Property(tries = 30)
    void partitionsReplayedFromSplitStreams_seeWhatTheLiveRoutedReplaysPartitionsSee(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 6) int threads, @ForAll @IntRange(min = 0, max = 3) int partsIndex)
            throws Exception {
        int parts = new int[] {2, 3, 7, 16}[partsIndex];
        Path d = Files.createTempDirectory("split");
        try {
            TraceSet set = RoutedReplayTest.randomForkJoin(d, seed, threads, 6000, new SplittableRandom(seed));
            Replay live = new Replay(set, null, new ReplayOptions());
            List<RoutedReplayTest.Seen> together = live.runRouted(parts, k -> new RoutedReplayTest.Seen(),
                    ctx -> RoutedReplayTest.byPageAndThread(parts));
            assertEquals(Replay.MODE_ROUTED, live.partitionMode());
            Replay.Plan plan = PlannedPartitionTest.roundTrip(new Replay(set, null, new ReplayOptions())
                    .plan(parts, true));
            assertTrue(plan.routable());
            byte[][][] streams = split(set, plan, RouteSplitter.router(plan,
                    ctx -> RoutedReplayTest.byPageAndThread(parts)));
            for (int k = 0; k < parts; k++) {
                int part = k;
                RoutedReplayTest.Seen alone = new Replay(set, null, new ReplayOptions()).runPartition(plan, k,
                        new RoutedReplayTest.Seen(),
                        t -> Channels.newChannel(new ByteArrayInputStream(streams[t][part])));
                RoutedReplayTest.Seen want = together.get(k);
                assertTrue(alone.ctx.routed());
                // the skipped accesses between two given ones may come in one callback, of several threads
                assertEquals(RoutedReplayTest.numbered(want.all, want.given),
                        RoutedReplayTest.numbered(alone.all, alone.given), "partition " + k);
                assertEquals(want.mine, alone.mine, "partition " + k);
                assertEquals(want.other, alone.other, "partition " + k);
                assertEquals(want.bytes, alone.bytes, "partition " + k);
            }
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    @Test
    void aPlanNotMadeToRoute_isNotRoutable_andRefusesRoutedStreams() throws Exception {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 3;
        p.instructions = 2000;
        TraceSet plain = ForkJoinGen.write(dir, "plain", p);
        assertTrue(new Replay(plain, null, new ReplayOptions()).plan(2, true).routable());
        Replay.Plan plan = new Replay(plain, null, new ReplayOptions()).plan(2);
        assertFalse(plan.routable(), "not asked to route");
        assertThrows(IllegalStateException.class, () -> new Replay(plain, null, new ReplayOptions()).runPartition(
                plan, 0, new RoutedReplayTest.Seen(), t -> Channels.newChannel(new ByteArrayInputStream(
                        new byte[0]))));
        assertFalse(new Replay(plain, null, new ReplayOptions()).plan(1, true).routable(), "one partition");
    }

    @Test
    void eachAccessIsReadOnceAndRoutedOnce_andEachPartitionsStreamHoldsOnlyItsShare() throws Exception {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 4;
        p.instructions = 20_000;
        TraceSet set = ForkJoinGen.write(dir, "fj", p);
        Replay.Plan plan = new Replay(set, null, new ReplayOptions()).plan(4, true);
        long[] count = new long[2];
        byte[][][] streams = split(set, plan, RouteSplitter.router(plan, ctx -> (thread, address, size, to) -> {
            to[0] = (int) ((address >>> 12) % 4);
            return 1;
        }), count);
        RoutedReplayTest.Seen serial = new RoutedReplayTest.Seen();
        new Replay(set, null, new ReplayOptions()).add(serial).run();
        assertEquals(serial.all.size(), count[0], "every access read once");
        assertEquals(serial.all.size(), count[1], "every access routed to its one partition");
        for (int t = 0; t < set.size(); t++) {
            long sum = 0;
            for (byte[] s : streams[t]) {
                assertTrue(s.length < Files.size(set.files().get(t)), "thread " + t);
                sum += s.length;
            }
            assertTrue(sum > Files.size(set.files().get(t)) / 2, "the streams hold the accesses: thread " + t);
        }
    }
}
