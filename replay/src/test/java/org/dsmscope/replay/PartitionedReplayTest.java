package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC §4 partitioning: every partition replays the same clocks; each owns the addresses of its pages. */
class PartitionedReplayTest {
    @TempDir
    Path dir;

    /** Keeps the accesses of its own partition, and every phase's times. */
    static final class Owned implements Analysis {
        final List<String> mine = new ArrayList<>();
        final List<String> phases = new ArrayList<>();
        ReplayContext ctx;

        @Override
        public void begin(ReplayContext c) {
            ctx = c;
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            if (ctx.partitionOf(address) == ctx.partition()) {
                mine.add(thread + " " + clock + " " + Long.toHexString(address));
            }
        }

        @Override
        public void phaseEnd(Phase phase, PhaseTimes times) {
            phases.add(phase.endClock() + " " + java.util.Arrays.toString(times.busy)
                    + java.util.Arrays.toString(times.imbalance) + java.util.Arrays.toString(times.contention));
        }
    }

    @Test
    void partitions_seeTheSerialRunsAccessesOfTheirPages_inTheSameOrderAndClocks() {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 4;
        p.instructions = 5000;
        p.lockRate = 0.02;
        TraceSet set = ForkJoinGen.write(dir, "part", p);
        List<Owned> serial = Replay.runPartitioned(set, null, new ReplayOptions(), 1, k -> new Owned());
        List<Owned> parts = Replay.runPartitioned(set, null, new ReplayOptions(), 3, k -> new Owned());
        int total = 0;
        for (int k = 0; k < 3; k++) {
            List<String> expected = new ArrayList<>();
            for (String s : serial.get(0).mine) {
                long addr = Long.parseLong(s.substring(s.lastIndexOf(' ') + 1), 16);
                if ((addr >>> 12) % 3 == k) {
                    expected.add(s);
                }
            }
            assertEquals(expected, parts.get(k).mine, "partition " + k);
            assertEquals(serial.get(0).phases, parts.get(k).phases);
            total += parts.get(k).mine.size();
        }
        assertEquals(serial.get(0).mine.size(), total);
        assertTrue(parts.get(1).mine.size() > 0);
    }

    /** A live source over trace files: what the agent hands over, here read from disk (the prescan's answers). */
    private static Replay.Source fileSource(TraceSet set, Prescan pre) {
        return new Replay.Source() {
            @Override
            public java.nio.channels.ReadableByteChannel channel(int thread) {
                try {
                    return java.nio.channels.FileChannel.open(set.files().get(thread));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }

            @Override
            public long firstCallTime() {
                return pre.t0;
            }

            @Override
            public boolean hasFetch(int thread) {
                return pre.hasFetch[thread];
            }

            @Override
            public boolean isSyncVariable(long address) {
                return pre.isSyncVariable(address);
            }
        };
    }

    @Test
    void aLiveReplayWithASourcePerPartition_runsInPartitions_likeTheFiles() {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 3;
        p.instructions = 4000;
        p.lockRate = 0.02;
        TraceSet set = ForkJoinGen.write(dir, "live", p);
        Prescan pre = new Prescan(set.size(), new ReplayOptions(), new Problems());
        pre.run(set, null, false);
        List<Owned> files = Replay.runPartitioned(set, null, new ReplayOptions(), 2, k -> new Owned());
        Replay live = Replay.live(set, List.of(fileSource(set, pre), fileSource(set, pre)), new ReplayOptions());
        assertTrue(live.partitionable(2));
        assertTrue(!live.partitionable(3), "two sources: two partitions");
        List<Owned> parts = live.runInPartitions(2, k -> new Owned());
        for (int k = 0; k < 2; k++) {
            assertEquals(files.get(k).mine, parts.get(k).mine, "partition " + k);
            assertEquals(files.get(k).phases, parts.get(k).phases);
            assertTrue(parts.get(k).mine.size() > 0);
        }
        Replay one = Replay.live(set, fileSource(set, pre), new ReplayOptions());
        assertTrue(!one.partitionable(2), "one source cannot feed two partitions");
        assertThrows(IllegalStateException.class, () -> one.runInPartitions(2, k -> new Owned()));
    }
}
