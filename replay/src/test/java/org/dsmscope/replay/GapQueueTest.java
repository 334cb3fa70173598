package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The {@link GapQueue} of the lockstep rounds (replay/README.md "Partitioned replay") against a sorted set of
 * (round, place): with up to 130 places (the ring of at most 64 and the heap beyond), rounds near the last one
 * taken, around the ring's reach and far after it (places moving from the heap into the ring), and emptied for a
 * later first round, and renumbered as when the rounds' order comes to start at another place.
 */
class GapQueueTest {
    @Property(tries = 300)
    void placesComeByRoundThenPlace_ringHeapAndClearedQueues(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 130) int places) {
        check(seed, places, 2, 64, 130, 5000);
    }

    /** Gap ends around the ring's reach (256 rounds) and in the slots below the first one, after it wraps. */
    @Property(tries = 200)
    void placesComeByRoundThenPlace_endsAtTheRingsReach(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 64) int places) {
        check(seed, places, 255, 256, 257, 700);
    }

    private static void check(long seed, int places, int... reaches) {
        SplittableRandom rnd = new SplittableRandom(seed);
        GapQueue q = new GapQueue(places);
        TreeSet<long[]> ref = new TreeSet<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0])
                : Long.compare(a[1], b[1]));
        boolean[] queued = new boolean[places];
        long round = rnd.nextLong(1L << 40);
        q.clear(round);
        for (int step = 0; step < 2000; step++) {
            assertEquals(ref.isEmpty() ? Long.MAX_VALUE : ref.first()[0], q.first());
            int what = rnd.nextInt(20);
            int p = rnd.nextInt(places);
            if (what == 19) {
                // the rounds' order comes to start at place s (a call inside the rounds): places renumbered
                int m = 1 + rnd.nextInt(places);
                int s = rnd.nextInt(m + 1);
                if (ref.stream().allMatch(x -> x[1] < m)) {
                    q.renumber(s, m);
                    TreeSet<long[]> moved = new TreeSet<>(ref.comparator());
                    boolean[] was = queued.clone();
                    java.util.Arrays.fill(queued, false);
                    for (long[] x : ref) {
                        int np = (int) Math.floorMod(x[1] - s, m);
                        moved.add(new long[] {x[0], np});
                        queued[np] = was[(int) x[1]];
                        assertEquals(x[0], q.end(np));
                    }
                    ref = moved;
                }
            } else if (what == 0) {
                round += rnd.nextInt(200);
                q.clear(round);
                ref.clear();
                java.util.Arrays.fill(queued, false);
            } else if (!queued[p] && what < 12) {
                int reach = reaches[rnd.nextInt(reaches.length)];
                long end = round + rnd.nextInt(reach);
                q.add(p, end);
                ref.add(new long[] {end, p});
                queued[p] = true;
                assertEquals(end, q.end(p));
            } else if (!ref.isEmpty()) {
                long[] first = ref.pollFirst();
                round = first[0];
                int got = q.poll();
                assertEquals(first[1], got, "place of round " + first[0]);
                queued[got] = false;
            }
        }
    }
}
