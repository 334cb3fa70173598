package org.dsmscope.ciat.age;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Access age against an obviously-correct reference: for each access, a linear scan back to the previous access of
 * each byte, counting the distinct bytes in between (SPEC §5), on random multi-thread streams, per-thread and
 * global scope, at byte and line granularity.
 */
class AccessAgePropertyTest {

    /** One random access. */
    record Acc(int thread, long address, int size) {
    }

    /** Reference ages (-1 infinite) of a stream of keys ranges. */
    static List<Long> reference(List<long[]> keys) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            long[] cur = keys.get(i);
            long age = 0;
            boolean inf = false;
            for (long k = cur[0]; k <= cur[1]; k++) {
                int prev = -1;
                for (int j = i - 1; j >= 0; j--) {
                    if (keys.get(j)[0] <= k && k <= keys.get(j)[1]) {
                        prev = j;
                        break;
                    }
                }
                if (prev < 0) {
                    inf = true;
                    break;
                }
                Set<Long> distinct = new HashSet<>();
                for (int j = prev; j <= i; j++) {
                    for (long x = keys.get(j)[0]; x <= keys.get(j)[1]; x++) {
                        distinct.add(x);
                    }
                }
                age = Math.max(age, distinct.size());
            }
            out.add(inf ? -1L : age);
        }
        return out;
    }

    /** The ages a fresh tracker gives for a stream of key ranges. */
    static List<Long> tracked(List<long[]> keys) {
        AgeTracker tr = new AgeTracker();
        List<Long> got = new ArrayList<>();
        for (long[] k : keys) {
            got.add(tr.access(k[0], k[1]));
        }
        return got;
    }

    @Provide
    Arbitrary<List<Acc>> streams() {
        Arbitrary<Acc> acc = Combinators.combine(
                Arbitraries.integers().between(0, 2),
                Arbitraries.longs().between(0, 60),
                Arbitraries.of(1, 2, 4, 8))
                .as((t, a, s) -> new Acc(t, 4090 + a, s));
        return acc.list().ofMinSize(1).ofMaxSize(200);
    }

    private static void check(List<Acc> stream, AccessAge.Scope scope, int g) {
        int shift = Integer.numberOfTrailingZeros(g);
        int threads = 3;
        AccessAge age = new AccessAge(threads, scope, g, 1);
        AgeStats got = new AgeStats();
        AgeStats want = new AgeStats();
        for (int t = 0; t < (scope == AccessAge.Scope.GLOBAL ? 1 : threads); t++) {
            List<long[]> keys = new ArrayList<>();
            for (Acc a : stream) {
                if (scope == AccessAge.Scope.GLOBAL || a.thread == t) {
                    keys.add(new long[] {a.address >>> shift, (a.address + a.size - 1) >>> shift});
                }
            }
            for (long r : reference(keys)) {
                want.record(r < 0 ? -1 : r << shift, 1);
            }
        }
        for (Acc a : stream) {
            age.access(a.thread, a.address, a.size, got);
        }
        age.flush();
        assertEquals(want.accesses, got.accesses);
        assertEquals(want.infinite, got.infinite);
        org.junit.jupiter.api.Assertions.assertArrayEquals(want.buckets, got.buckets);
    }

    @Property(tries = 200)
    void threadScopeByteGranularity_matchesLinearScan(@ForAll("streams") List<Acc> stream) {
        check(stream, AccessAge.Scope.THREAD, 1);
    }

    @Property(tries = 100)
    void globalScope_matchesLinearScan(@ForAll("streams") List<Acc> stream) {
        check(stream, AccessAge.Scope.GLOBAL, 1);
    }

    @Property(tries = 100)
    void lineGranularity_matchesLinearScanOverLines(@ForAll("streams") List<Acc> stream) {
        check(stream, AccessAge.Scope.THREAD, 8);
    }

    @Property(tries = 20)
    void exactAges_matchLinearScan_acrossTimestampRenumbering(@ForAll("streams") List<Acc> seed) {
        // repeat the stream so that it outgrows the tree's first capacity (4096 timestamps)
        AgeTracker tr = new AgeTracker();
        List<long[]> keys = new ArrayList<>();
        List<Long> got = new ArrayList<>();
        while (keys.size() < 5000) {
            for (Acc a : seed) {
                long[] k = {a.address, a.address + a.size - 1};
                keys.add(k);
                got.add(tr.access(k[0], k[1]));
            }
        }
        assertEquals(reference(keys), got);
    }

    @Provide
    Arbitrary<List<long[]>> groupStreams() {
        // Keys near a page boundary (4096), mostly aligned 4- and 8-key accesses (whole groups) mixed with 1-3
        // and 5-16-key accesses at any offset, so groups split, join again and cross pages.
        Arbitrary<long[]> aligned = Combinators.combine(Arbitraries.longs().between(0, 15), Arbitraries.of(4, 8))
                .as((w, n) -> new long[] {4064 + 4 * w, 4064 + 4 * w + n - 1});
        Arbitrary<long[]> any = Combinators.combine(Arbitraries.longs().between(0, 64),
                Arbitraries.integers().between(1, 16)).as((a, n) -> new long[] {4064 + a, 4064 + a + n - 1});
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(3, aligned), net.jqwik.api.Tuple.of(1, any))
                .list().ofMinSize(1).ofMaxSize(300);
    }

    @Property(tries = 200)
    void groupsOfKeys_splitAndJoin_exactAgesMatchLinearScan(@ForAll("groupStreams") List<long[]> keys) {
        assertEquals(reference(keys), tracked(keys));
    }

    @Property(tries = 15)
    void groupsOfKeys_acrossChunkFlushesAndRenumbering_exactAgesMatchLinearScan(
            @ForAll("groupStreams") List<long[]> seed) {
        // repeated and shifted copies: previous accesses both in the newest chunk of timestamps (1024) and in the
        // tree, and more than the tree's first capacity (4096 timestamps)
        AgeTracker tr = new AgeTracker();
        List<long[]> keys = new ArrayList<>();
        List<Long> got = new ArrayList<>();
        for (int rep = 0; keys.size() < 4500; rep++) {
            long shift = 4 * (rep % 3);
            for (long[] k : seed) {
                long[] s = {k[0] + shift, k[1] + shift};
                keys.add(s);
                got.add(tr.access(s[0], s[1]));
            }
        }
        assertEquals(reference(keys), got);
    }

    @Provide
    Arbitrary<List<long[]>> wideStreams() {
        // Mostly aligned 8- and 16-key accesses (whole wide groups, two of them with different previous timestamps)
        // over three pages, the first access of a page deciding whether it starts wide, with a few 4-key and odd
        // accesses that turn a wide page into one of 4-key groups.
        Arbitrary<long[]> wide = Combinators.combine(Arbitraries.longs().between(0, 40), Arbitraries.of(8, 16))
                .as((w, n) -> new long[] {4000 + 8 * w, 4000 + 8 * w + n - 1});
        Arbitrary<long[]> any = Combinators.combine(Arbitraries.longs().between(0, 330),
                Arbitraries.integers().between(1, 16)).as((a, n) -> new long[] {4000 + a, 4000 + a + n - 1});
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(20, wide), net.jqwik.api.Tuple.of(1, any))
                .list().ofMinSize(1).ofMaxSize(400);
    }

    @Property(tries = 200)
    void widePages_eightKeyGroupsAndTheirNarrowing_exactAgesMatchLinearScan(
            @ForAll("wideStreams") List<long[]> keys) {
        assertEquals(reference(keys), tracked(keys));
    }

    @Property(tries = 10)
    void widePages_acrossRenumbering_exactAgesMatchTextbookAlgorithm(@ForAll("wideStreams") List<long[]> seed) {
        // repeated copies shifted by whole pages: more timestamps than the first capacity, wide pages made late
        List<long[]> keys = new ArrayList<>();
        for (int rep = 0; keys.size() < 6000; rep++) {
            for (long[] k : seed) {
                keys.add(new long[] {k[0] + 4096L * (rep % 5), k[1] + 4096L * (rep % 5)});
            }
        }
        AgeTracker tr = new AgeTracker();
        List<Long> got = new ArrayList<>();
        for (long[] k : keys) {
            got.add(tr.access(k[0], k[1]));
        }
        assertEquals(textbook(keys), got);
    }

    /**
     * Reference for long streams of whole-group accesses of 4 or 8 keys: the textbook algorithm, one mark per key
     * at the time of its latest access in a Fenwick tree over access times, age = marks from the oldest previous
     * time among the access's keys to now (each key counted once, the access's own keys included).
     */
    static List<Long> textbook(List<long[]> keys) {
        int n = keys.size();
        long[] fen = new long[n + 2];
        java.util.Map<Long, Integer> last = new java.util.HashMap<>();
        List<Long> out = new ArrayList<>();
        for (int t = 1; t <= n; t++) {
            long[] k = keys.get(t - 1);
            int oldest = Integer.MAX_VALUE;
            boolean fresh = false;
            for (long x = k[0]; x <= k[1]; x++) {
                Integer p = last.get(x);
                if (p == null) {
                    fresh = true;
                } else {
                    oldest = Math.min(oldest, p);
                }
            }
            long age = -1;
            if (!fresh) {
                age = 0;
                for (int i = t - 1; i > 0; i -= i & -i) {
                    age += fen[i];
                }
                for (int i = oldest - 1; i > 0; i -= i & -i) {
                    age -= fen[i];
                }
            }
            out.add(age);
            for (long x = k[0]; x <= k[1]; x++) {
                Integer p = last.put(x, t);
                if (p != null) {
                    for (int i = p; i <= n; i += i & -i) {
                        fen[i]--;
                    }
                }
                for (int i = t; i <= n; i += i & -i) {
                    fen[i]++;
                }
            }
        }
        return out;
    }

    @Property(tries = 6)
    void longStreams_manyDistinctKeys_exactAgesMatchTextbookAlgorithm(
            @ForAll @net.jqwik.api.constraints.IntRange(min = 2000, max = 40000) int distinctGroups,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 1000) int seed) {
        // enough distinct keys (up to 160,000) that the timestamp capacity grows several times and the count
        // levels reach 4-5 deep; reuse at every distance from 1 to the whole working set
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
        List<long[]> keys = new ArrayList<>();
        for (int i = 0; i < 120_000; i++) {
            long g = rnd.nextInt(4) == 0 ? i % distinctGroups : rnd.nextInt(distinctGroups);
            long first = g * 4;
            keys.add(new long[] {first, first + (rnd.nextBoolean() ? 3 : 7)});
        }
        assertEquals(textbook(keys), tracked(keys));
    }

    /**
     * Several arrays swept in lockstep (a matrix multiply's row, column and row-pointer loads: each access removes
     * keys from an old block of timestamps of its own array, so the removals held for one old block are added to
     * the tree and replaced access by access, between the tree walks of later ages), one to seven of them; with an
     * occasional random and unaligned access between them: exact ages and bucket-only ages as the textbook
     * algorithm's.
     */
    @Property(tries = 12)
    void lockstepSweeps_heldRemovalsOfSeveralOldBlocks_exactAgesMatchTextbookAlgorithm(
            @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 7) int arrays,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 1000) int seed,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 4) int shift) {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
        long[] base = new long[arrays];
        int[] len = new int[arrays];
        int[] stride = new int[arrays];
        for (int a = 0; a < arrays; a++) {
            base[a] = (long) a << 24;
            len[a] = 200 + rnd.nextInt(3000);
            stride[a] = rnd.nextBoolean() ? 2 : 1 + rnd.nextInt(300); // in 4-key groups: rows or columns
        }
        List<long[]> keys = new ArrayList<>();
        for (int i = 0; keys.size() < 60_000; i++) {
            for (int a = 0; a < arrays; a++) {
                long g = base[a] / 4 + (long) (i % len[a]) * stride[a] + (i / len[a]) % 2;
                keys.add(new long[] {g * 4, g * 4 + 7});
            }
            if (rnd.nextInt(50) == 0) {
                long first = base[rnd.nextInt(arrays)] + rnd.nextInt(4 * 3000);
                keys.add(new long[] {first, first + rnd.nextInt(8)});
            }
        }
        List<Long> want = textbook(keys);
        assertEquals(want, tracked(keys));
        assertBucketsOnly(keys, want, shift);
    }

    /**
     * A stream of n accesses over {@code distinctGroups} groups of 4 keys: one in {@code sweepEvery} sweeps the
     * groups in order, the rest pick one at random; one in {@code manyEvery} covers 256 to 256 + {@code manyExtra}
     * unaligned keys, one in 10 of the others up to 12 unaligned keys, the rest one or two whole groups.
     */
    static List<long[]> mixedKeys(int seed, int n, int distinctGroups, int sweepEvery, int manyEvery, int manyExtra) {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
        List<long[]> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long g = rnd.nextInt(sweepEvery) == 0 ? i % distinctGroups : rnd.nextInt(distinctGroups);
            if (rnd.nextInt(manyEvery) == 0) {
                long first = g * 4 + rnd.nextInt(4);
                keys.add(new long[] {first, first + 255 + rnd.nextInt(manyExtra)});
            } else if (rnd.nextInt(10) == 0) {
                long first = g * 4 + rnd.nextInt(4);
                keys.add(new long[] {first, first + rnd.nextInt(12)});
            } else {
                keys.add(new long[] {g * 4, g * 4 + (rnd.nextBoolean() ? 3 : 7)});
            }
        }
        return keys;
    }

    /**
     * Accesses of more keys than one timestamp holds (256 to 3,000, unaligned), among ordinary ones, long enough
     * for several renumberings: the same ages as the textbook algorithm (each such access one time).
     */
    @Property(tries = 8)
    void manyKeyAccesses_amongOrdinaryOnes_exactAgesMatchTextbookAlgorithm(
            @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 1000) int seed,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 500, max = 6000) int distinctGroups) {
        List<long[]> keys = mixedKeys(seed, 30_000, distinctGroups, 3, 50, 2745);
        assertEquals(textbook(keys), tracked(keys));
    }

    /**
     * A tracker in {@link AgeTracker#bucketsOnly} mode at granularity 2^shift gives, access by access, the bucket of
     * the exact age {@code want} holds (and the same infinite ages).
     */
    static void assertBucketsOnly(List<long[]> keys, List<Long> want, int shift) {
        AgeTracker tr = new AgeTracker();
        tr.bucketsOnly(shift);
        for (int i = 0; i < keys.size(); i++) {
            long got = tr.access(keys.get(i)[0], keys.get(i)[1]);
            long w = want.get(i);
            if (w < 0 || got < 0) {
                assertEquals(w, got, "access " + i);
            } else {
                assertEquals(AgeStats.bucket(w << shift), AgeStats.bucket(got << shift), "access " + i + ", exact " + w);
            }
        }
    }

    /**
     * A tracker that may return any age of the exact age's bucket ({@link AgeTracker#bucketsOnly}, what
     * {@link AccessAge} uses unless sampling) gives, access by access, the textbook age's bucket at that granularity
     * and the same infinite ages: on long streams of whole groups, split groups, unaligned and many-key accesses,
     * with reuse at every distance (ages in old blocks of timestamps, where it may skip counting, near every bucket
     * boundary).
     */
    @Property(tries = 8)
    void bucketsOnly_givesTheBucketOfTheExactAge(
            @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 1000) int seed,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 300, max = 30000) int distinctGroups,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 6) int shift) {
        List<long[]> keys = mixedKeys(seed, 60_000, distinctGroups, 4, 100, 1000);
        List<Long> want = textbook(keys);
        assertBucketsOnly(keys, want, shift);
    }

    /**
     * Accesses given the page slots that {@link AgeTracker#peek} returned for their whole run before the run began
     * (as {@link AccessAge} does; -1 for a page the run itself adds) give exactly the textbook ages, and in
     * {@link AgeTracker#bucketsOnly} mode their buckets: the slot replaces the access's own page lookup.
     */
    @Property(tries = 8)
    void accessesGivenThePeekedSlotsOfTheirRun_giveTheAgesOfAccessesWithout(
            @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 1000) int seed,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 300, max = 30000) int distinctGroups,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 1100) int run) {
        List<long[]> keys = mixedKeys(seed, 20_000, distinctGroups, 4, 100, 1000);
        List<Long> want = textbook(keys);
        AgeTracker exact = new AgeTracker();
        AgeTracker buckets = new AgeTracker();
        buckets.bucketsOnly(0);
        int[] slotsExact = new int[run];
        int[] slotsBuckets = new int[run];
        for (int from = 0; from < keys.size(); from += run) {
            int to = Math.min(keys.size(), from + run);
            for (int i = from; i < to; i++) {
                slotsExact[i - from] = exact.peek(keys.get(i)[0]);
                slotsBuckets[i - from] = buckets.peek(keys.get(i)[0]);
            }
            for (int i = from; i < to; i++) {
                long[] k = keys.get(i);
                assertEquals((long) want.get(i), exact.access(k[0], k[1], slotsExact[i - from]), "access " + i);
                long got = buckets.access(k[0], k[1], slotsBuckets[i - from]);
                long w = want.get(i);
                if (w < 0 || got < 0) {
                    assertEquals(w, got, "access " + i);
                } else {
                    assertEquals(AgeStats.bucket(w), AgeStats.bucket(got), "access " + i + ", exact " + w);
                }
            }
        }
    }

    @Property(tries = 10)
    void heldRunsOfEachStream_giveTheAgesOfEachStreamInItsOwnOrder(
            @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 1500) int threads,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 1000) int seed) {
        // more accesses than a held run (1024, or fewer with many streams), interleaved at random, and two phases'
        // stats (a change of stats flushes): the same ages as each stream fed alone to its own tracker
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
        AccessAge age = new AccessAge(threads, AccessAge.Scope.THREAD, 1, 1);
        AgeTracker[] ref = new AgeTracker[threads];
        AgeStats[] got = {new AgeStats(), new AgeStats()};
        AgeStats[] want = {new AgeStats(), new AgeStats()};
        int hot = Math.min(threads, 3);
        for (int i = 0; i < 6000; i++) {
            int t = rnd.nextInt(4) == 0 ? rnd.nextInt(threads) : rnd.nextInt(hot);
            long a = rnd.nextInt(3000) * 4L;
            int size = rnd.nextBoolean() ? 4 : 8;
            int ph = i < 4000 ? 0 : 1;
            age.access(t, a, size, got[ph]);
            if (ref[t] == null) {
                ref[t] = new AgeTracker();
            }
            long r = ref[t].access(a, a + size - 1);
            want[ph].record(r, 1);
        }
        age.flush();
        for (int ph = 0; ph < 2; ph++) {
            assertEquals(want[ph].accesses, got[ph].accesses);
            assertEquals(want[ph].infinite, got[ph].infinite);
            org.junit.jupiter.api.Assertions.assertArrayEquals(want[ph].buckets, got[ph].buckets);
        }
    }
}
