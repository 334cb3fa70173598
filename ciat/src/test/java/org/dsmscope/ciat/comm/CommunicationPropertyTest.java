package org.dsmscope.ciat.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.ciat.table.LocationState;

/**
 * Communication against an obviously-correct reference: a HashMap from byte address to (writer, reader set,
 * anchor), the rules of SPEC §5 written out directly, on random multi-processor access streams.
 */
class CommunicationPropertyTest {

    /** One random access. */
    record Acc(int cpu, boolean store, long address, int size) {
    }

    /** The reference: per byte location, boxed and simple. */
    static final class Reference {
        static final class Loc {
            int writer = -1;
            Set<Integer> readers = new HashSet<>();
            boolean anchor;
        }

        final int p;
        final Map<Long, Loc> locs = new HashMap<>();
        long raw;
        long war;
        long waw;
        long rar;
        final long[] s;
        final long[] inv;
        final long[] mat;

        Reference(int p) {
            this.p = p;
            s = new long[p + 1];
            inv = new long[p + 1];
            mat = new long[p * p];
        }

        void access(Acc a) {
            boolean isRaw = false;
            boolean isRar = false;
            boolean isWar = false;
            boolean isWaw = false;
            int maxL = 0;
            Set<Long> pairs = new HashSet<>();
            for (long b = a.address; b < a.address + a.size; b++) {
                Loc l = locs.computeIfAbsent(b, k -> new Loc());
                int pp = a.cpu;
                if (!a.store) {
                    if (l.writer >= 0) {
                        if (pp != l.writer && !l.readers.contains(pp)) {
                            isRaw = true;
                            pairs.add((long) l.writer * p + pp);
                            l.readers.add(pp);
                        }
                    } else if (!l.readers.contains(pp)) {
                        if (!l.readers.isEmpty()) {
                            isRar = true;
                        }
                        l.readers.add(pp);
                    }
                } else {
                    if (l.anchor && !l.readers.isEmpty()) {
                        s[l.readers.size()]++;
                    }
                    Set<Integer> lset = new HashSet<>(l.readers);
                    lset.remove(pp);
                    if (!lset.isEmpty()) {
                        isWar = true;
                        maxL = Math.max(maxL, lset.size());
                        for (int j : lset) {
                            pairs.add((long) pp * p + j);
                        }
                    } else if (l.writer >= 0 && l.writer != pp) {
                        isWaw = true;
                        pairs.add((long) l.writer * p + pp);
                    }
                    l.writer = pp;
                    l.readers.clear();
                    l.anchor = b == a.address;
                }
            }
            if (a.store) {
                if (isWar) {
                    war++;
                    inv[maxL]++;
                } else if (isWaw) {
                    waw++;
                }
            } else if (isRaw) {
                raw++;
            } else if (isRar) {
                rar++;
            }
            for (long k : pairs) {
                mat[(int) k]++;
            }
        }

        void finish() {
            for (Loc l : locs.values()) {
                if (l.anchor && !l.readers.isEmpty()) {
                    s[l.readers.size()]++;
                }
            }
        }
    }

    @Provide
    Arbitrary<List<Acc>> streams() {
        Arbitrary<Acc> acc = Combinators.combine(
                Arbitraries.integers().between(0, 4),
                Arbitraries.of(true, false),
                Arbitraries.longs().between(0, 40),
                Arbitraries.of(1, 2, 4, 8))
                .as((c, st, a, sz) -> new Acc(c, st, 0x7000 + a, sz));
        return acc.list().ofMinSize(1).ofMaxSize(300);
    }

    /**
     * Mostly whole aligned groups of 4 bytes (4-, 8- and 16-byte accesses at multiples of 4, which keep the packed
     * layout's groups uniform), with one access in ten of 1 or 2 bytes anywhere, which splits a group.
     */
    @Provide
    Arbitrary<List<Acc>> alignedStreams() {
        Arbitrary<Acc> aligned = Combinators.combine(
                Arbitraries.integers().between(0, 4),
                Arbitraries.of(true, false),
                Arbitraries.longs().between(0, 12),
                Arbitraries.of(4, 8, 16))
                .as((c, st, a, sz) -> new Acc(c, st, 0x7FE0 + 4 * a, sz));
        Arbitrary<Acc> small = Combinators.combine(
                Arbitraries.integers().between(0, 4),
                Arbitraries.of(true, false),
                Arbitraries.longs().between(0, 63),
                Arbitraries.of(1, 2))
                .as((c, st, a, sz) -> new Acc(c, st, 0x7FE0 + a, sz));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(9, aligned), net.jqwik.api.Tuple.of(1, small))
                .list().ofMinSize(1).ofMaxSize(300);
    }

    @Property(tries = 300)
    void matchesReference_alignedGroupsAndSplits(@ForAll("alignedStreams") List<Acc> stream) {
        check(5, stream);
    }

    @Provide
    Arbitrary<List<Acc>> crossPageStreams() {
        Arbitrary<Acc> acc = Combinators.combine(
                Arbitraries.integers().between(0, 69),
                Arbitraries.of(true, false),
                Arbitraries.longs().between(4080, 4110),
                Arbitraries.of(1, 4, 16))
                .as((c, st, a, sz) -> new Acc(c, st, a, sz));
        return acc.list().ofMinSize(1).ofMaxSize(300);
    }

    private static void check(int p, List<Acc> stream) {
        check(p, stream, new LocationState(p));
        if (p <= LocationState.P_MAX_PROCESSORS) {
            // the packed layout (one word per location) gives the same results
            LocationState packed = new LocationState(p, 8);
            org.junit.jupiter.api.Assertions.assertTrue(packed.packed());
            check(p, stream, packed);
        }
    }

    private static void check(int p, List<Acc> stream, LocationState loc) {
        Reference ref = new Reference(p);
        Communication comm = new Communication(p, loc);
        CommStats st = new CommStats(p);
        long clock = 0;
        for (Acc a : stream) {
            ref.access(a);
            comm.access(a.cpu, ++clock, a.store, a.address, a.size, st, null);
        }
        ref.finish();
        comm.finish(st);
        assertEquals(ref.raw, st.raw, "RAW");
        assertEquals(ref.war, st.war, "WAR");
        assertEquals(ref.waw, st.waw, "WAW");
        assertEquals(ref.rar, st.rar, "RAR");
        assertArrayEquals(ref.s, st.sharing, "S");
        assertArrayEquals(ref.inv, st.invalidation, "I");
        assertArrayEquals(ref.mat, st.matrix.toDense(), "COMM_MAT");
    }

    @Property(tries = 300)
    void matchesReference_fiveProcessors(@ForAll("streams") List<Acc> stream) {
        check(5, stream);
    }

    @Property(tries = 100)
    void matchesReference_seventyProcessorsAcrossAPageBoundary(@ForAll("crossPageStreams") List<Acc> stream) {
        check(70, stream);
    }

    /**
     * Above {@link PairCounts#DENSE_MAX} processors COMM_MAT keeps only the pairs that communicated: the same
     * counts as the reference (the streams' processors spread over 0..299).
     */
    @Property(tries = 60)
    void matchesReference_threeHundredProcessors_sparseMatrix(@ForAll("crossPageStreams") List<Acc> stream) {
        List<Acc> s = stream.stream().map(a -> new Acc(a.cpu * 4 + a.cpu % 3, a.store, a.address, a.size)).toList();
        check(300, s);
    }

    @Property(tries = 50)
    void matchesReference_anyProcessorCount(@ForAll @IntRange(min = 1, max = 3) int p,
            @ForAll("streams") List<Acc> stream) {
        List<Acc> s = stream.stream().map(a -> new Acc(a.cpu % p, a.store, a.address, a.size)).toList();
        check(p, s);
    }

    /**
     * Mostly loads by many processors on few locations around a chunk boundary (256) and a page boundary (4096), so
     * that reader sets grow past the sparse layout's four inline readers into pooled blocks and stores release them.
     */
    @Provide
    Arbitrary<List<Acc>> manyReaderStreams() {
        Arbitrary<Acc> acc = Combinators.combine(
                Arbitraries.integers().between(0, 299),
                Arbitraries.frequency(net.jqwik.api.Tuple.of(1, true), net.jqwik.api.Tuple.of(5, false)),
                Arbitraries.of(0L, 250L, 254L, 256L, 4090L, 4094L, 4100L),
                Arbitraries.of(1, 2, 4, 8, 300))
                .as((c, st, a, sz) -> new Acc(c, st, 0x10000 + a, sz));
        return acc.list().ofMinSize(1).ofMaxSize(400);
    }

    /** The sparse layout (65 to 300 processors: inline and pooled reader sets, chunked pages) equals the reference. */
    @Property(tries = 150)
    void matchesReference_sixtyFiveToThreeHundredProcessors_sparseLayout(
            @ForAll @IntRange(min = 65, max = 300) int p, @ForAll("manyReaderStreams") List<Acc> stream) {
        List<Acc> s = stream.stream().map(a -> new Acc(a.cpu % p, a.store, a.address, a.size)).toList();
        LocationState loc = new LocationState(p, 100_000);
        org.junit.jupiter.api.Assertions.assertTrue(loc.sparse());
        check(p, s, loc);
    }
}
