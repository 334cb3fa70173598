package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.trace.TraceSet;

/**
 * Turns of a routed run with more partitions than may replay at once ({@link CoreTurns}, module README "Partitioned
 * replay", "More partitions than cores"): every partition still sees the serial run, with pipes of any capacity
 * (so that partitions give their turns back and take them again all the time), and no more partitions than there
 * are turns ever make a callback at the same moment (a partition counted while it is inside one lets the others'
 * threads run).
 */
class CoreTurnsTest {
    /** Counts the partitions inside a callback at once; keeps the most. */
    private static final class Busy implements Analysis {
        private final AtomicInteger inside;
        private final AtomicInteger most;

        Busy(AtomicInteger inside, AtomicInteger most) {
            this.inside = inside;
            this.most = most;
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            Thread.yield(); // lets another partition's thread in, if it held a turn
            inside.decrementAndGet();
        }
    }

    @Property(tries = 30)
    void fewerTurnsThanPartitions_seeTheSerialRun_andRunNoMorePartitionsAtOnce(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 6) int threads, @ForAll @IntRange(min = 0, max = 2) int partsIndex,
            @ForAll @IntRange(min = 1, max = 3) int atOnce, @ForAll boolean tiny) throws IOException {
        int parts = new int[] {3, 7, 16}[partsIndex];
        Path d = Files.createTempDirectory("turns");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            TraceSet set = RoutedReplayTest.randomForkJoin(d, seed, threads, 3000, rnd);
            RoutedReplayTest.Seen serial = new RoutedReplayTest.Seen();
            Replay one = new Replay(set, null, new ReplayOptions()).add(serial);
            one.run();
            Replay routed = new Replay(set, null, new ReplayOptions()).partitionsAtOnce(atOnce);
            if (tiny) {
                routed.routedCapacity(rnd.nextInt(100));
            }
            Replay.Router router = RoutedReplayTest.byPageAndThread(parts);
            List<RoutedReplayTest.Seen> ps = routed.runRouted(parts, k -> new RoutedReplayTest.Seen(),
                    ctx -> router);
            RoutedReplayTest.assertSeeTheSerialRun(serial, one.records(), routed, ps, router);
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            Replay busy = new Replay(set, null, new ReplayOptions()).partitionsAtOnce(atOnce).routedCapacity(64);
            busy.runRouted(parts, k -> new Busy(inside, most), ctx -> router);
            assertTrue(most.get() >= 1 && most.get() <= atOnce, most.get() + " partitions at once, " + atOnce
                    + " turns");
            assertEquals(0, inside.get());
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }
}
