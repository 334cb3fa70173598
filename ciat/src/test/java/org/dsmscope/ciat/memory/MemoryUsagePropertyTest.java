package org.dsmscope.ciat.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.dsmscope.ciat.table.LocationState;

/**
 * Memory usage (the memory usage file's page records and the twenty figures) against an obviously-correct
 * reference, a map from byte address to its flags and counts, on random streams of data accesses and instruction
 * fetches by several threads; in the packed layout (grouped words, uniform and split groups) and the wide one.
 */
class MemoryUsagePropertyTest {

    /** One random data access (code = false) or instruction fetch (code = true). */
    record Acc(int thread, boolean code, long address, int size) {
    }

    /** The reference: per byte, boxed and simple; the record fields as the module README defines them. */
    static final class Reference {
        static final class Loc {
            int first = -1;
            boolean multi;
            boolean data;
            boolean code;
            boolean insn;
            long dataCount;
            long codeCount;
        }

        final Map<Long, Loc> locs = new HashMap<>();
        final Map<Long, Set<Integer>> pageThreads = new HashMap<>();
        final Map<Long, Integer> pageFirst = new HashMap<>();

        void access(Acc a) {
            int n = a.code ? Math.max(a.size, 1) : a.size;
            if (n <= 0) {
                return;
            }
            for (long b = a.address; b < a.address + n; b++) {
                Loc l = locs.computeIfAbsent(b, k -> new Loc());
                if (l.first < 0) {
                    l.first = a.thread;
                } else if (l.first != a.thread) {
                    l.multi = true;
                }
                if (a.code) {
                    l.code = true;
                } else {
                    l.data = true;
                }
                long page = b >>> 12;
                pageThreads.computeIfAbsent(page, k -> new HashSet<>()).add(a.thread);
                pageFirst.putIfAbsent(page, a.thread);
            }
            Loc anchor = locs.get(a.address);
            if (a.code) {
                anchor.codeCount++;
                anchor.insn = true;
            } else {
                anchor.dataCount++;
            }
        }

        /**
         * The memory usage file's records: page, touched, code, shared, data, code, shared data, shared code,
         * owner.
         */
        List<long[]> rows() {
            TreeMap<Long, long[]> rows = new TreeMap<>();
            for (Map.Entry<Long, Loc> e : locs.entrySet()) {
                long page = e.getKey() >>> 12;
                long[] r = rows.computeIfAbsent(page, k -> new long[] {k, 0, 0, 0, 0, 0, 0, 0,
                    pageThreads.get(k).size() > 1 ? -1 : pageFirst.get(k)});
                Loc l = e.getValue();
                r[1]++;
                r[2] += l.code ? 1 : 0;
                r[3] += l.multi ? 1 : 0;
                r[4] += l.dataCount;
                r[5] += l.codeCount;
                r[6] += l.multi ? l.dataCount : 0;
                r[7] += l.multi ? l.codeCount : 0;
            }
            return new ArrayList<>(rows.values());
        }

        long instructionStarts() {
            return locs.values().stream().filter(l -> l.insn).count();
        }
    }

    /**
     * Mostly whole aligned groups (4-, 8- and 16-byte data accesses and 4-byte fetches at multiples of 4, which
     * keep the packed layout's groups uniform), one in five of 0 to 3 bytes at any address (splitting groups);
     * four threads over 64 bytes around a page boundary and another page.
     */
    @Provide
    Arbitrary<List<Acc>> streams() {
        Arbitrary<Long> base = Arbitraries.of(0x7FE0L, 0x7FE0L, 0x3000L);
        Arbitrary<Acc> aligned = Combinators.combine(
                Arbitraries.integers().between(0, 3), Arbitraries.of(false, false, true), base,
                Arbitraries.longs().between(0, 15), Arbitraries.of(4, 8, 16))
                .as((t, c, b, a, sz) -> new Acc(t, c, b + 4 * a, c ? 4 : sz));
        Arbitrary<Acc> small = Combinators.combine(
                Arbitraries.integers().between(0, 3), Arbitraries.of(false, true), base,
                Arbitraries.longs().between(0, 63), Arbitraries.integers().between(0, 3))
                .as((t, c, b, a, sz) -> new Acc(t, c, b + a, sz));
        return Arbitraries.frequencyOf(Tuple.of(4, aligned), Tuple.of(1, small)).list().ofMinSize(1).ofMaxSize(300);
    }

    @Property(tries = 300)
    void matchesReference_inAllLayouts(@ForAll("streams") List<Acc> stream) {
        Reference ref = new Reference();
        MemoryUsage packed = new MemoryUsage(new LocationState(4, 4));
        MemoryUsage wide = new MemoryUsage(new LocationState(4));
        MemoryUsage sparse = new MemoryUsage(new LocationState(100));
        for (Acc a : stream) {
            ref.access(a);
            for (MemoryUsage m : List.of(packed, wide, sparse)) {
                if (a.code) {
                    m.code(a.thread, a.address, a.size);
                } else {
                    m.data(a.thread, a.address, a.size);
                }
            }
        }
        List<long[]> expected = ref.rows();
        for (MemoryUsage m : List.of(packed, wide, sparse)) {
            List<long[]> rows = m.pageRows();
            assertEquals(expected.size(), rows.size(), "pages");
            for (int i = 0; i < rows.size(); i++) {
                assertArrayEquals(expected.get(i), rows.get(i), "page record " + i);
            }
            MemoryFigures f = m.figures(new AddressRanges());
            assertEquals(ref.instructionStarts(), f.instructionStarts, "instruction starts");
            assertEquals(expected.stream().mapToLong(r -> r[1]).sum(), f.get(4), "touched bytes");
            assertEquals(expected.stream().mapToLong(r -> r[3]).sum(), f.get(7), "shared bytes");
        }
    }

    /** A run of {@code count} 4-byte fetches from {@code address} (count 0: a data access of 8 bytes there). */
    record Run(int thread, long address, int count) {
    }

    /** Runs of 1 to 40 instructions, at any address (so some straddle a page boundary), among data accesses. */
    @Provide
    Arbitrary<List<Run>> runs() {
        return Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.of(0x7F80L, 0x3000L),
                Arbitraries.longs().between(0, 200), Arbitraries.integers().between(0, 40))
                .as((t, b, a, n) -> new Run(t, b + a, n)).list().ofMinSize(1).ofMaxSize(60);
    }

    /**
     * {@link MemoryUsage#codeRun} leaves exactly the state of as many {@link MemoryUsage#code} calls: page records,
     * figures and instruction starts, in both layouts, and as a partition that owns every other page.
     */
    @Property(tries = 300)
    void codeRun_equalsOneFetchAtATime(@ForAll("runs") List<Run> stream) {
        assertCodeRunsEqualOneAtATime(stream);
    }

    /**
     * Runs drawn from a pool of six, so that each thread fetches the same runs again and again (a loop), among
     * data accesses to the same bytes: the runs a thread fetched before are only counted again, and the counts
     * entered before anything reads them, also when the results are read in the middle of the stream.
     */
    @Property(tries = 200)
    void repeatedRuns_countEveryFetch_likeOneFetchAtATime(@ForAll("pooledRuns") List<Run> stream) {
        assertCodeRunsEqualOneAtATime(stream);
    }

    @Provide
    Arbitrary<List<Run>> pooledRuns() {
        Arbitrary<Run> one = Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.of(0x7F80L, 0x3000L),
                Arbitraries.longs().between(0, 200), Arbitraries.integers().between(0, 40))
                .as((t, b, a, n) -> new Run(t, b + a, n));
        return one.list().ofSize(6).flatMap(pool -> Combinators.combine(Arbitraries.integers().between(0, 5),
                Arbitraries.integers().between(0, 3)).as((i, t) -> new Run(i % 3 == 2 ? t : pool.get(i).thread,
                        pool.get(i).address, pool.get(i).count)).list().ofMinSize(1).ofMaxSize(120));
    }

    /** Feeds one MemoryUsage instruction by instruction and another run by run; their results must agree. */
    private static void assertCodeRunsEqualOneAtATime(List<Run> stream) {
        short[] owners = new short[1024];
        for (int i = 0; i < owners.length; i++) {
            owners[i] = (short) (i & 1);
        }
        for (int variant = 0; variant < 4; variant++) {
            // 0: packed, 1: wide, 2: packed and partitioned, 3: sparse
            int p = variant == 3 ? 100 : 4;
            int threads = variant == 1 ? Integer.MAX_VALUE : 4;
            MemoryUsage one = new MemoryUsage(new LocationState(p, threads));
            MemoryUsage run = new MemoryUsage(new LocationState(p, threads));
            if (variant == 2) {
                one.partition(1, 2, owners);
                run.partition(1, 2, owners);
            }
            for (int k = 0; k < stream.size(); k++) {
                Run r = stream.get(k);
                if (k == stream.size() / 2) {
                    sameResults(one, run, variant);
                }
                if (r.count == 0) {
                    one.data(r.thread, r.address, 8);
                    run.data(r.thread, r.address, 8);
                    continue;
                }
                for (int i = 0; i < r.count; i++) {
                    one.code(r.thread, r.address + 4L * i, 4);
                }
                run.codeRun(r.thread, r.address, r.count, 4);
            }
            sameResults(one, run, variant);
        }
    }

    private static void sameResults(MemoryUsage one, MemoryUsage run, int variant) {
        List<long[]> expected = one.pageRows();
        List<long[]> rows = run.pageRows();
        assertEquals(expected.size(), rows.size(), "pages");
        for (int i = 0; i < rows.size(); i++) {
            assertArrayEquals(expected.get(i), rows.get(i), "variant " + variant + " page record " + i);
        }
        MemoryFigures a = one.figures(new AddressRanges());
        MemoryFigures b = run.figures(new AddressRanges());
        assertEquals(a.instructionStarts, b.instructionStarts, "instruction starts");
        assertEquals(a.fetchedInstructions, b.fetchedInstructions, "fetched instructions");
        for (int f = 1; f <= 18; f++) {
            assertEquals(a.get(f), b.get(f), "figure " + f);
        }
    }
}
