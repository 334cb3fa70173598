package org.dsmscope.ciat.age;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.ciat.FakeReplay;
import org.dsmscope.replay.Phase;
import org.junit.jupiter.api.Test;

/** Access age as seed 001 §5.2 and SPEC §5 define it. */
class AccessAgeTest {
    private static final long A = 0x100;
    private static final long B = 0x200;
    private static final long C = 0x300;

    @Test
    void seedExample_wordAccessesABCAABB_haveAgesInfInfInf12_4_12_4() {
        AgeTracker t = new AgeTracker();
        long[] seq = {A, B, C, A, A, B, B};
        long[] want = {-1, -1, -1, 12, 4, 12, 4};
        for (int i = 0; i < seq.length; i++) {
            assertEquals(want[i], t.access(seq[i], seq[i] + 3), "access " + i);
        }
    }

    @Test
    void seedExample_throughCiat_givesCdfOfAges() {
        FakeReplay r = FakeReplay.of(1).start(Phase.Kind.SERIAL);
        for (long a : new long[] {A, B, C, A, A, B, B}) {
            r.load(0, a, 4);
        }
        AgeStats s = r.finish().aggregate.age;
        assertEquals(7, s.accesses);
        assertEquals(3, s.infinite);
        assertEquals(2, s.buckets[2]); // age 4
        assertEquals(2, s.buckets[4]); // age 12 in (8, 16]
    }

    @Test
    void accessWithOneNewByte_isInfinite() {
        AgeTracker t = new AgeTracker();
        t.access(A, A + 3);
        assertEquals(-1, t.access(A + 2, A + 5));
    }

    @Test
    void accessTakesTheLargestAgeOfItsBytes() {
        AgeTracker t = new AgeTracker();
        t.access(A, A);       // byte A
        t.access(B, B + 3);   // 4 bytes of B
        t.access(A + 1, A + 1);
        // bytes A, A+1: A's previous access is first: distinct since then = A, B..B+3, A+1 = 6
        assertEquals(6, t.access(A, A + 1));
    }

    @Test
    void threadScope_separatesStreams_globalScopeInterleavesThem() {
        CiatOptions o = new CiatOptions();
        o.writeFiles = false;
        FakeReplay r = new FakeReplay(2, o).start(Phase.Kind.PARALLEL);
        r.load(0, A, 4).load(1, B, 4).load(0, A, 4);
        assertEquals(1, r.finish().aggregate.age.buckets[2]); // age 4 within thread 0's stream

        CiatOptions g = new CiatOptions();
        g.writeFiles = false;
        g.ageScope = AccessAge.Scope.GLOBAL;
        FakeReplay r2 = new FakeReplay(2, g).start(Phase.Kind.PARALLEL);
        r2.load(0, A, 4).load(1, B, 4).load(0, A, 4);
        assertEquals(1, r2.finish().aggregate.age.buckets[3]); // age 8: A and B
    }

    @Test
    void granularity64_countsDistinctLinesTimesLineSize() {
        CiatOptions o = new CiatOptions();
        o.writeFiles = false;
        o.ageGranularity = 64;
        FakeReplay r = new FakeReplay(1, o).start(Phase.Kind.SERIAL);
        r.load(0, 0, 4).load(0, 8, 4).load(0, 64, 4).load(0, 4, 4);
        CiatResult res = r.finish();
        assertEquals(2, res.aggregate.age.infinite); // lines 0 and 1 first touched
        assertEquals(1, res.aggregate.age.buckets[6]); // 8 in line 0 again: age 64
        assertEquals(1, res.aggregate.age.buckets[7]); // line 0 after line 1: 128
    }

    @Test
    void timestampsRenumbered_keepAgesExact() {
        AgeTracker t = new AgeTracker();
        // far more accesses than the initial tree capacity, over 100 words
        for (int i = 0; i < 50_000; i++) {
            long w = (i * 7L) % 100;
            long age = t.access(w * 4, w * 4 + 3);
            if (i >= 100) {
                assertEquals(400, age, "access " + i); // cyclic stride over 100 words: all 100 in between
            }
        }
    }

    @Test
    void sampledMode_estimatesTheExactDistribution() {
        int n = 1_000_000;
        AgeStats exact = new AgeStats();
        AgeStats sampled = new AgeStats();
        AccessAge ex = new AccessAge(1, AccessAge.Scope.THREAD, 1, 1);
        AccessAge sa = new AccessAge(1, AccessAge.Scope.THREAD, 1, 0.1);
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
        for (int i = 0; i < n; i++) {
            // two working sets: 64 KiB hot (80%), 4 MiB cold
            long a = rnd.nextInt(10) < 8 ? rnd.nextInt(16384) * 4L : (1 << 20) + rnd.nextInt(1 << 20) * 4L;
            ex.access(0, a, 4, exact);
            sa.access(0, a, 4, sampled);
        }
        ex.flush();
        sa.flush();
        double maxErr = 0;
        long ce = 0;
        long cs = 0;
        for (int k = 0; k < AgeStats.BUCKETS; k++) {
            ce += exact.buckets[k];
            cs += sampled.buckets[k];
            maxErr = Math.max(maxErr, Math.abs((double) ce / exact.accesses - (double) cs / sampled.accesses));
        }
        System.out.println("sampled access age, rate 0.1: max CDF error " + maxErr);
        org.junit.jupiter.api.Assertions.assertTrue(maxErr < 0.05, "max CDF error " + maxErr);
    }

    @Test
    void anAccessOf255Keys_takesOneTimestamp_andIsExact() {
        // counts per timestamp are unsigned bytes: 255 keys in one access (and again: age 255) is exact
        AgeTracker t = new AgeTracker();
        assertEquals(-1, t.access(0, 254));
        assertEquals(255, t.access(0, 254));
        assertEquals(-1, t.access(1000, 1000));
        assertEquals(256, t.access(0, 254));
    }

    /**
     * A wide access of more keys than a timestamp holds (1,000 keys, as a 1,000-byte record at byte granularity)
     * takes several timestamps but ages as one access: re-reading its last keys, whose timestamp is the last of its
     * range, counts all its keys (before: such an access was refused with a stack trace from `dsmscope ciat`).
     */
    @Test
    void anAccessOfMoreKeysThanATimestampHolds_agesAsOneAccess() {
        AgeTracker t = new AgeTracker();
        assertEquals(-1, t.access(0, 999));
        assertEquals(1000, t.access(996, 999)); // its last group: the keys of the whole access since
        assertEquals(1000, t.access(0, 3));
        assertEquals(-1, t.access(5000, 5003));
        assertEquals(1004, t.access(500, 503)); // a middle group: 0..999 and 5000..5003
        assertEquals(-1, t.access(10_000, 10_000 + 65_534)); // the largest wide record
        assertEquals(65_535, t.access(10_000 + 65_532, 10_000 + 65_534));
        assertEquals(65_535 + 1_004, t.access(100, 103));
    }

    /**
     * A partition keeps the access-age streams of some threads only (ciat/README.md "Parallel analysis"): the
     * streams of the other threads of a 6,000-thread trace hold no state (a tracker is about 1.8 KB: 11 MB per
     * partition if every stream had one from the start), and the ages of the streams used are those of an analysis
     * of those streams alone.
     */
    @Test
    void streamsWithoutAccesses_holdNoState() {
        AccessAge many = new AccessAge(6000, AccessAge.Scope.THREAD, 1, 1);
        AccessAge two = new AccessAge(2, AccessAge.Scope.THREAD, 1, 1);
        AgeStats got = new AgeStats();
        AgeStats want = new AgeStats();
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(3);
        for (int i = 0; i < 5000; i++) {
            int t = rnd.nextInt(2);
            long a = rnd.nextInt(2048) * 4L;
            many.access(t == 0 ? 17 : 5999, a, 4, got);
            two.access(t, a, 4, want);
        }
        many.flush();
        two.flush();
        assertEquals(want.accesses, got.accesses);
        assertEquals(want.infinite, got.infinite);
        assertEquals(java.util.Arrays.toString(want.buckets), java.util.Arrays.toString(got.buckets));
        assertEquals(two.pages(), many.pages());
        long held = 2 * 1024 * 12; // a 2-stream analysis holds up to 1024 accesses per stream before analysing them
        assertTrue(many.footprintBytes() <= two.footprintBytes() - held + 2 * 174 * 12,
                many.footprintBytes() + " bytes for 2 of 6000 streams, " + two.footprintBytes() + " for 2 of 2");
    }
}
