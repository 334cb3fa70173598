package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a partitioned run's prescan does for its analyses (replay/README.md "Partitioned replay", the prescan): as
 * many threads as pay ({@link Prescan#workers}), and only the look-ups the analyses use ({@link Replay#prescanFor}).
 */
class PrescanNeedsTest {
    @TempDir
    Path dir;

    @Test
    void prescanThreads_atMostThePartitionsTheCoresAndOnePer16MiBOfTrace() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 6;
        p.instructions = 2000;
        TraceSet small = ForkJoinGen.write(dir, "small", p);
        assertEquals(1, Prescan.workers(16, small));
        // 20 files of 20 MiB (sparse): 400 MiB, room for 25 threads by size
        List<Path> big = new ArrayList<>();
        for (int t = 0; t < 20; t++) {
            Path f = dir.resolve("big.20." + t);
            try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
                r.setLength(20L << 20);
            }
            big.add(f);
        }
        TraceSet set = TraceSet.ofPrefix(dir.resolve("big.20").toString());
        assertEquals(20, set.size());
        assertEquals(Math.min(16, cores), Prescan.workers(16, set));
        assertEquals(Math.min(3, cores), Prescan.workers(3, set));
        assertEquals(1, Prescan.workers(1, set));
    }

    /** A routed run whose prescan skipped spins and the work profile: every partition still sees the serial run. */
    @Test
    void aRoutedRunPrescannedWithoutSpinsOrProfile_givesEveryPartitionTheSerialRun() {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 5;
        p.instructions = 6000;
        p.lockRate = 0.01;
        TraceSet set = ForkJoinGen.write(dir, "fj", p);
        RoutedReplayTest.Seen serial = new RoutedReplayTest.Seen();
        Replay one = new Replay(set, null, new ReplayOptions()).add(serial);
        one.run();
        for (int parts : new int[] {2, 3}) {
            Replay full = new Replay(set, null, new ReplayOptions());
            List<RoutedReplayTest.Seen> all = full.runRouted(parts, k -> new RoutedReplayTest.Seen(),
                    ctx -> RoutedReplayTest.byPageAndThread(parts));
            Replay lean = new Replay(set, null, new ReplayOptions()).prescanFor(false, false);
            List<RoutedReplayTest.Seen> ps = lean.runRouted(parts, k -> new RoutedReplayTest.Seen(),
                    ctx -> RoutedReplayTest.byPageAndThread(parts));
            assertEquals(Replay.MODE_ROUTED, lean.partitionMode());
            assertNotNull(full.workProfile());
            assertNull(lean.workProfile());
            RoutedReplayTest.assertSeeTheSerialRun(serial, one.records(), lean, ps,
                    RoutedReplayTest.byPageAndThread(parts));
            for (int k = 0; k < parts; k++) {
                assertTrue(all.get(k).mine.equals(ps.get(k).mine), "partition " + k + " gets the same accesses");
            }
        }
    }

    @Test
    void aRouterWithASpinPartition_failsAfterAPrescanWithoutSpins() {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 3;
        p.instructions = 1000;
        TraceSet set = ForkJoinGen.write(dir, "spin", p);
        Replay.Router plain = RoutedReplayTest.byPageAndThread(2);
        Replay.Router spinning = new Replay.Router() {
            @Override
            public int route(int thread, long address, int size, int[] to) {
                return plain.route(thread, address, size, to);
            }

            @Override
            public int spinPartition() {
                return 0;
            }
        };
        Replay lean = new Replay(set, null, new ReplayOptions()).prescanFor(false, true);
        String msg = assertThrows(IllegalStateException.class,
                () -> lean.runRouted(2, k -> new RoutedReplayTest.Seen(), ctx -> spinning)).getMessage();
        assertTrue(msg.contains("spin partition"), msg);
    }

    /** Random spinning trace sets: with the spin check some thread may spin; without it none is marked. */
    @Test
    void withoutTheSpinCheck_noThreadIsMarked_andTheSetRoutesAllTheSame() {
        boolean anySpin = false;
        for (long seed = 1; seed <= 6; seed++) {
            TraceSet set = org.dsmscope.replay.gen.SpinGen.write(dir, "s" + seed, 3, seed);
            for (boolean spins : new boolean[] {true, false}) {
                Prescan pre = new Prescan(set.size(), new ReplayOptions(), new Problems());
                pre.checkRoutes();
                if (!spins) {
                    pre.skipSpins();
                }
                pre.run(set, null, false, 2);
                assertTrue(pre.allRoutable());
                for (int t = 0; t < set.size(); t++) {
                    anySpin |= pre.possibleSpin(t);
                    assertFalse(!spins && pre.possibleSpin(t));
                }
            }
        }
        assertTrue(anySpin, "the spin check marks a thread of some spinning trace set");
    }
}
