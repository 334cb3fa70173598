package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.trace.TraceSet;

/**
 * Routing decided by block ({@link Replay.Router#blockBits}, replay/README.md "Partitioned replay"): a splitter whose
 * router declares that its answer depends only on the thread and the block (after the block's first access, whose
 * answer may be more) remembers the answers and routes runs of accesses to one block at once, and writes exactly
 * the streams it writes when it asks the same router for every access.
 */
class BlockRoutingTest {
    /**
     * A router whose answer for an access within one block of 2^bits bytes is a pseudo-random set of one to three
     * partitions of (thread, block), every partition for a thread's first access to a block in its chunk when
     * {@code firstAll} (as CDAT's first references), and every partition for an access across blocks or of no bytes;
     * it counts the questions asked. {@code declared}: it says {@link #blockBits}; else the same answers, by access.
     */
    static final class ByBlock implements Replay.Router {
        final int parts;
        final int bits;
        final boolean declared;
        final boolean firstAll;
        final int fill;
        final long seed;
        final LongIntMap seen = new LongIntMap(64);
        final long[] asked;

        ByBlock(int parts, int bits, boolean declared, boolean firstAll, int fill, long seed, long[] asked) {
            this.parts = parts;
            this.bits = bits;
            this.declared = declared;
            this.firstAll = firstAll;
            this.fill = fill;
            this.seed = seed;
            this.asked = asked;
        }

        @Override
        public int route(int thread, long address, int size, int[] to) {
            asked[0]++;
            long block = address >>> bits;
            boolean inBlock = size > 0 && (address + size - 1) >>> bits == block;
            boolean first = firstAll && seen.get(block * 64 + thread) < 0;
            if (inBlock) {
                seen.put(block * 64 + thread, 0);
            }
            if (!inBlock || first) {
                for (int p = 0; p < parts; p++) {
                    to[p] = p;
                }
                return parts;
            }
            long h = (block * 0x9E3779B97F4A7C15L) ^ (thread * 0xC2B2AE3D27D4EB4FL) ^ seed;
            h ^= h >>> 29;
            h *= 0xBF58476D1CE4E5B9L;
            h ^= h >>> 32;
            int n = 0;
            for (int k = 0, want = 1 + (int) Math.floorMod(h, 3L); k < want; k++) {
                int p = (int) Math.floorMod(h >>> (8 * k + 2), (long) parts);
                boolean dup = false;
                for (int i = 0; i < n; i++) {
                    dup |= to[i] == p;
                }
                if (!dup) {
                    to[n++] = p;
                }
            }
            return n;
        }

        @Override
        public int fill() {
            return fill;
        }

        @Override
        public int blockBits() {
            return declared ? bits : -1;
        }

        @Override
        public Replay.Router forChunk() {
            return firstAll ? new ByBlock(parts, bits, declared, true, fill, seed, asked) : this;
        }
    }

    @Property(tries = 40)
    void aSplitterDecidingByBlock_writesTheStreamsOfOneDecidingByAccess(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 5) int threads, @ForAll @IntRange(min = 0, max = 3) int partsIndex)
            throws Exception {
        int parts = new int[] {2, 3, 7, 16}[partsIndex];
        SplittableRandom rnd = new SplittableRandom(seed);
        int bits = 3 + rnd.nextInt(10);
        boolean firstAll = rnd.nextBoolean();
        int fill = rnd.nextBoolean() ? 0 : 1 + rnd.nextInt(8);
        Path d = Files.createTempDirectory("byblock");
        try {
            TraceSet set = RoutedReplayTest.randomForkJoin(d, seed, threads, 8000, rnd);
            Replay.Plan plan = new Replay(set, null, new ReplayOptions()).plan(parts, true);
            assertTrue(plan.routable());
            long[] byAccess = new long[1];
            long[] byBlock = new long[1];
            long[] countAccess = new long[2];
            long[] countBlock = new long[2];
            byte[][][] want = RouteSplitterTest.split(set, plan, RouteSplitter.router(plan,
                    ctx -> new ByBlock(parts, bits, false, firstAll, fill, seed, byAccess)), countAccess);
            byte[][][] got = RouteSplitterTest.split(set, plan, RouteSplitter.router(plan,
                    ctx -> new ByBlock(parts, bits, true, firstAll, fill, seed, byBlock)), countBlock);
            for (int t = 0; t < set.size(); t++) {
                for (int p = 0; p < parts; p++) {
                    assertArrayEquals(want[t][p], got[t][p], "thread " + t + ", partition " + p);
                }
            }
            assertEquals(countAccess[0], countBlock[0], "accesses read");
            assertEquals(countAccess[1], countBlock[1], "accesses routed");
            assertTrue(byBlock[0] <= byAccess[0], "asked " + byBlock[0] + " times against " + byAccess[0]);
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }
}
