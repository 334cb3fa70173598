package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.RecordKind;
import org.junit.jupiter.api.Test;

/**
 * The prescan's route check ({@link RouteCheck}, replay/README.md "Partitioned replay", "Spins") against a reference
 * that follows its definition word for word: a possible spin is a window of loads between stores and calls whose
 * d &le; 4 distinct locations (address and size) are loaded at least 5&middot;d times, and the watch set is, for
 * every load, the locations of the largest such d whose window ends at that load.
 */
class RouteCheckTest {
    private static final int LOOP = SpinDetector.MIN_REREADS + 1;

    /** One record of a generated thread: a load, a store, a call or a branch record. */
    private record Rec(int kind, boolean store, int size, long address) {
    }

    /** The reference: the spin flag and the 8-byte blocks of the watch set. */
    private static boolean reference(List<Rec> recs, TreeSet<Long> blocks) {
        boolean spins = false;
        List<long[]> run = new ArrayList<>(); // the current run's loads: {address, size}
        for (Rec r : recs) {
            if (r.kind == RecordKind.CALL || (r.kind == RecordKind.MEMORY && r.store)) {
                run.clear();
                continue;
            }
            if (r.kind != RecordKind.MEMORY || r.size <= 0) {
                continue; // branch records are not part of a run, a zero-byte load is no load
            }
            run.add(new long[] {r.address, r.size});
            int found = 0;
            List<long[]> recent = new ArrayList<>();
            for (int d = 1; d <= SpinDetector.MAX_LOCATIONS; d++) {
                // the longest window ending at this load with at most d distinct locations
                recent.clear();
                int length = 0;
                for (int i = run.size() - 1; i >= 0; i--) {
                    long[] l = run.get(i);
                    if (recent.stream().noneMatch(x -> x[0] == l[0] && x[1] == l[1])) {
                        if (recent.size() == d) {
                            break;
                        }
                        recent.add(l);
                    }
                    length++;
                }
                if (recent.size() == d && length >= LOOP * d) {
                    found = d;
                }
            }
            if (found > 0) {
                spins = true;
                recent.clear();
                for (int i = run.size() - 1; i >= 0 && recent.size() < found; i--) {
                    long[] l = run.get(i);
                    if (recent.stream().noneMatch(x -> x[0] == l[0] && x[1] == l[1])) {
                        recent.add(l);
                    }
                }
                for (long[] l : recent) {
                    for (long k = l[0] >>> 3; k <= (l[0] + l[1] - 1) >>> 3; k++) {
                        blocks.add(k);
                    }
                }
            }
        }
        return spins;
    }

    /** Feeds {@code recs} to a check as the prescan does: runs of words in pieces of random length, calls one by one. */
    private static RouteCheck check(List<Rec> recs, SplittableRandom rnd, SpinRoutes.Builder watch) {
        return check(recs, rnd, watch, 8, true);
    }

    /**
     * As above, a piece ending after a record with chance 1 in {@code cut} (0: only at calls and the end); without
     * {@code spins}, a check that looks only for branch records.
     */
    private static RouteCheck check(List<Rec> recs, SplittableRandom rnd, SpinRoutes.Builder watch, int cut,
            boolean spins) {
        RouteCheck c = new RouteCheck(watch, spins);
        long[] words = new long[recs.size()];
        int n = 0;
        for (int i = 0; i <= recs.size(); i++) {
            Rec r = i < recs.size() ? recs.get(i) : null;
            boolean flush = r == null || r.kind == RecordKind.CALL || cut > 0 && rnd.nextInt(cut) == 0;
            if (flush && n > 0) {
                int at = rnd.nextInt(4);
                long[] shifted = new long[n + at];
                System.arraycopy(words, 0, shifted, at, n);
                c.run(shifted, at, n, 0);
                n = 0;
            }
            if (r == null) {
                break;
            }
            if (r.kind == RecordKind.CALL) {
                c.record(RecordKind.CALL, null);
            } else if (r.kind == RecordKind.MEMORY) {
                int f1 = MemType.encode(r.store ? MemType.STORE : MemType.LOAD, r.size, MemType.FIXED);
                words[n++] = ((long) f1 << 32) | r.address;
            } else {
                words[n++] = 0x80004C18_00004D20L; // a taken branch
            }
        }
        return c;
    }

    @Property(tries = 1000)
    void routeCheck_findsTheReferencesSpinsAndWatchesTheirLocations_whateverThePieces(@ForAll long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        compare(rnd, 1 + rnd.nextInt(400), 8, 100);
    }

    /**
     * Pieces of hundreds of words (the prescan's runs), so that the check's blocks of words passed at once ({@link
     * RouteCheck#run}) begin and end inside loops, windows and runs of loads.
     */
    @Property(tries = 400)
    void routeCheck_findsTheReferencesSpins_inPiecesLongerThanItsBlocks(@ForAll long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        compare(rnd, 1 + rnd.nextInt(3000), rnd.nextInt(2) == 0 ? 0 : 500, rnd.nextInt(2) == 0 ? 100 : 3000);
    }

    /**
     * Random records, {@code n} or a few more, calls and branch records each 2 in {@code rare}, fed in pieces
     * ({@code cut}): the check finds what the reference does.
     */
    private static void compare(SplittableRandom rnd, int n, int cut, int rare) {
        int locations = 1 + rnd.nextInt(12);
        int storeRate = 2 + rnd.nextInt(40);
        int sequential = rnd.nextInt(4); // a share of sequential words beside the few random locations
        long next = 0x100000;
        List<Rec> recs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (rnd.nextInt(20) == 0) {
                // loads cycling over k locations (a loop's shape), repeats 1 to 5 apart
                int k = 1 + rnd.nextInt(5);
                int length = rnd.nextInt(6 * k);
                long base = 0x8000 + 64L * rnd.nextInt(4);
                for (int j = 0; j < length; j++, i++) {
                    recs.add(new Rec(RecordKind.MEMORY, false, 8, base + 8L * (j % k)));
                }
                continue;
            }
            int pick = rnd.nextInt(rare);
            if (pick < 2) {
                recs.add(new Rec(RecordKind.CALL, false, 0, 0));
            } else if (pick < 4) {
                recs.add(new Rec(RecordKind.BRANCH, false, 0, 0));
            } else {
                boolean store = rnd.nextInt(storeRate) == 0;
                int size = rnd.nextInt(12) == 0 ? 4 : 8;
                long a = rnd.nextInt(4) < sequential ? (next += 8) : 0x1000 + 8L * rnd.nextInt(locations);
                recs.add(new Rec(RecordKind.MEMORY, store, size, a));
            }
        }
        TreeSet<Long> expected = new TreeSet<>();
        boolean spins = reference(recs, expected);
        SpinRoutes.Builder watch = new SpinRoutes.Builder();
        RouteCheck c = check(recs, rnd, watch, cut, true);
        assertEquals(spins, c.spins);
        TreeSet<Long> got = new TreeSet<>();
        watch.blocks.forEachKey(got::add);
        assertEquals(expected, got);
        boolean branches = recs.stream().anyMatch(r -> r.kind == RecordKind.BRANCH);
        assertEquals(branches, c.stream);
        // a check for routers that detect no spins finds the same instruction streams, and no spin
        SpinRoutes.Builder none = new SpinRoutes.Builder();
        RouteCheck s = check(recs, rnd, none, cut, false);
        assertEquals(branches, s.stream);
        assertFalse(s.spins);
        assertEquals(0, none.blocks.size());
        assertTrue(s.routable);
    }

    @Test
    void fourLoadsOfOneLocation_areNoSpin_fiveAre() {
        List<Rec> four = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            four.add(new Rec(RecordKind.MEMORY, false, 8, 0x1000));
        }
        four.add(new Rec(RecordKind.MEMORY, true, 8, 0x2000));
        four.add(new Rec(RecordKind.MEMORY, false, 8, 0x1000));
        SpinRoutes.Builder watch = new SpinRoutes.Builder();
        assertFalse(check(four, new SplittableRandom(1), watch).spins);
        List<Rec> five = new ArrayList<>(four.subList(0, 4));
        five.add(new Rec(RecordKind.MEMORY, false, 8, 0x1000));
        RouteCheck c = check(five, new SplittableRandom(1), watch);
        assertTrue(c.spins);
        assertEquals(1, watch.blocks.size());
    }
}
