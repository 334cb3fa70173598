package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.replay.gen.SpinGen;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;

/**
 * Spin detection in a routed run ({@link SpinRoutes}, module README "Partitioned replay"): the partition a router
 * names as its {@link Replay.Router#spinPartition}, whatever else it is given, feeding its {@link SpinDetector}
 * the accesses of the threads that may spin ({@link ReplayContext#possibleSpin}) and every store it gets and no
 * other load, sees every loop the serial run's detector reports, in the same order, with the same interval and
 * state (pending, spin, lock spin, busy), and its spin time per phase; on random {@link SpinGen} trace sets (spin
 * loops of 1 to 4 locations around the threshold and far above it, flags polled between other loads, stores to the
 * flags by threads that spin and threads that do not, lock spins, loops ended by calls, barriers and phase ends),
 * in 2, 3, 7 and 16 partitions, each given each thread's accesses with a density of its own (decided per address)
 * and the spin partition chosen at random; also from the streams a {@link RouteSplitter} writes with a plan
 * serialized and read back (a Spark task's partition).
 */
class RoutedSpinTest {
    private static final int[] PARTS = {2, 3, 7, 16};

    /** Runs a detector as CIAT's partition 0 does and logs its loops and booked spin time. */
    static final class Spins implements Analysis, SpinDetector.Sink {
        final List<String> log = new ArrayList<>();
        SpinDetector d;
        boolean[] loads;
        ReplayContext ctx;

        @Override
        public void begin(ReplayContext c) {
            ctx = c;
            d = new SpinDetector(c.threads(), this);
            loads = new boolean[c.threads()];
            for (int t = 0; t < loads.length; t++) {
                loads[t] = !c.routed() || c.possibleSpin(t);
            }
        }

        @Override
        public void loop(int thread, long from, long to, int state) {
            log.add(thread + " " + from + "-" + to + " " + state);
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            if (store || loads[thread]) {
                d.access(thread, clock, size, store, address);
            }
        }

        @Override
        public void call(int thread, int cpu, long clock, CallEvent call) {
            d.call(thread);
        }

        @Override
        public void waited(int thread, int cpu, long from, long to, int reason) {
            d.waited(thread);
        }

        @Override
        public void phaseEnd(Phase phase, PhaseTimes times) {
            d.phaseEnd();
            PhaseTimes p = new PhaseTimes(times.threads());
            p.add(times);
            d.book(p, true, false);
            log.add("phase " + java.util.Arrays.toString(p.spin) + " " + java.util.Arrays.toString(p.busy));
        }

        @Override
        public void end(ReplayContext c, PhaseTimes total) {
            d.end();
        }
    }

    @Property(tries = 60)
    void theSpinPartitionsDetector_findsTheSerialRunsLoops(@ForAll @IntRange(min = 0, max = 3) int partsIndex,
            @ForAll @IntRange(min = 1, max = 6) int threads, @ForAll long seed) throws Exception {
        check(PARTS[partsIndex], threads, seed);
    }

    /** Fixed trace sets in which the serial run finds spins (so the property compares spins, not only nothing). */
    @Test
    void spinsOfFixedTraceSets_areTheSerialRuns() throws Exception {
        int spins = 0;
        for (long seed = 1; seed <= 8; seed++) {
            spins += check(PARTS[(int) (seed % 4)], 4, seed);
        }
        assertTrue(spins > 0, "the generated traces spin");
    }

    /** Returns the number of spins of the serial run. */
    private static int check(int parts, int threads, long seed) throws Exception {
        Path dir = Files.createTempDirectory("replay-spin");
        try {
            TraceSet set = SpinGen.write(dir, "s", threads, seed);
            Spins serial = new Spins();
            new Replay(set, null, new ReplayOptions()).add(serial).run();
            SplittableRandom rnd = new SplittableRandom(seed ^ 0x5EED);
            double[][] density = new double[threads][parts];
            for (double[] row : density) {
                for (int k = 0; k < parts; k++) {
                    row[k] = rnd.nextInt(4) == 0 ? 0 : rnd.nextDouble();
                }
            }
            Replay.Router by = RoutedReplayTest.byDensity(density, seed);
            int spinPart = rnd.nextInt(parts);
            Replay routed = new Replay(set, null, new ReplayOptions());
            if (rnd.nextBoolean()) {
                routed.routedCapacity(rnd.nextInt(64));
            }
            Replay.Router router = new Replay.Router() {
                @Override
                public int route(int thread, long address, int size, int[] to) {
                    return by.route(thread, address, size, to);
                }

                @Override
                public int spinPartition() {
                    return spinPart;
                }
            };
            List<Spins> ps = routed.runRouted(parts, k -> new Spins(), ctx -> router);
            assertEquals(Replay.MODE_ROUTED, routed.partitionMode());
            assertEquals(serial.log, ps.get(spinPart).log);
            if (rnd.nextBoolean()) {
                // the offline path (a Spark map task per trace, a task per partition): the plan's spin routes
                Replay.Plan plan = PlannedPartitionTest.roundTrip(new Replay(set, null, new ReplayOptions())
                        .plan(parts, true));
                byte[][][] streams = RouteSplitterTest.split(set, plan, RouteSplitter.router(plan, ctx -> router));
                Spins alone = new Replay(set, null, new ReplayOptions()).runPartition(plan, spinPart, new Spins(),
                        t -> java.nio.channels.Channels.newChannel(new java.io.ByteArrayInputStream(
                                streams[t][spinPart])));
                assertEquals(serial.log, alone.log, "split streams");
            }
            int n = 0;
            for (String s : serial.log) {
                n += s.endsWith(" " + SpinDetector.SPIN) || s.endsWith(" " + SpinDetector.LOCK_SPIN) ? 1 : 0;
            }
            return n;
        } finally {
            ClockOrderPropertyTest.delete(dir);
        }
    }
}
