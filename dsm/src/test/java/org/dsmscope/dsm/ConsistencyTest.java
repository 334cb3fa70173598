package org.dsmscope.dsm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.dsmscope.monitor.event.EventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Runtime semantics of each consistency model and of copy sets, several members in one JVM (SHARED_LOOPBACK). */
@Timeout(60)
class ConsistencyTest {

    @Test
    void releaseConsistency_writeInvisibleUntilGetUpdates_visibleAfter() throws Exception {
        try (Group g = new Group(3)) {
            g.spmd(d -> {
                RandomSegment s = d.createRandom(64, Consistency.release());
                Eventcount put = d.createEvent();
                Eventcount joined = d.createEvent();
                d.needUpdates(s);
                d.advance(joined);
                d.await(joined, 3);
                if (d.rank() == 0) {
                    s.putDouble(8, 3.5);
                    d.putUpdates(s);
                    d.advance(put);
                } else {
                    d.await(put, 1);
                    assertEquals(0.0, s.getDouble(8), "an update is not applied before getUpdates");
                    d.getUpdates(s);
                    assertEquals(3.5, s.getDouble(8));
                }
            });
        }
    }

    @Test
    void copySet_memberOutsideGetsNoUpdates_andLeavingStopsThem() throws Exception {
        try (Group g = new Group(3)) {
            Eventcount[] ev = new Eventcount[3];
            g.spmd(d -> {
                RandomSegment s = d.createRandom(16, Consistency.release());
                Eventcount phase = d.createEvent();
                if (d.rank() != 2) {
                    d.needUpdates(s);
                }
                d.advance(phase);
                d.await(phase, 3);
                if (d.rank() == 0) {
                    assertEquals(new TreeSet<>(List.of(0, 1)), s.copySet());
                    s.putLong(0, 42);
                    d.putUpdates(s);
                }
                d.advance(phase);
                d.await(phase, 6);
                d.getUpdates(s);
                assertEquals(d.rank() == 2 ? 0 : 42, s.getLong(0), "member " + d.rank());
                if (d.rank() == 1) {
                    d.dontNeedUpdates(s);
                }
                d.advance(phase);
                d.await(phase, 9);
                if (d.rank() == 0) {
                    s.putLong(0, 43);
                    d.putUpdates(s);
                }
                d.advance(phase);
                d.await(phase, 12);
                d.getUpdates(s);
                assertEquals(d.rank() == 0 ? 43 : d.rank() == 1 ? 42 : 0, s.getLong(0), "member " + d.rank());
            });
        }
    }

    /**
     * A member that closes right after {@code putUpdates}, its update lost on the wire: the close waits until every
     * other member has answered its BYE, which comes after the retransmitted update, so the update is not lost
     * with the channel (before, the reader kept 0).
     */
    @Test
    void memberClosingRightAfterPutUpdates_itsLastUpdateStillArrives() throws Exception {
        try (Group g = new Group(2)) {
            RandomSegment[] s = new RandomSegment[2];
            for (int r = 0; r < 2; r++) {
                s[r] = g.m(r).createRandom(16, Consistency.release());
            }
            for (int r = 0; r < 2; r++) {
                g.m(r).needUpdates(s[r]);
            }
            s[0].putLong(0, 42);
            g.m(0).discard().dropDownUnicasts(2); // the update's first transmission is dropped
            g.m(0).putUpdates(s[0]);
            g.m(0).close();
            long deadline = System.currentTimeMillis() + 20_000;
            while (g.m(1).ranks().size() > 1 && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
            g.m(1).getUpdates(s[1]);
            assertEquals(42, s[1].getLong(0));
        }
    }

    @Test
    void falseSharing_concurrentWritersMergedWithTwinsAndDiffs_bothMomentsReported() throws Exception {
        try (Group g = new Group(2)) {
            g.spmd(d -> {
                RandomSegment s = d.createRandom(32, Consistency.release());
                Eventcount wrote = d.createEvent();
                Eventcount done = d.createEvent();
                Eventcount joined = d.createEvent();
                d.needUpdates(s);
                d.advance(joined);
                d.await(joined, 2);
                // both write different halves of one segment between consistency points
                s.putLong(d.rank() * 16, 100 + d.rank());
                d.advance(wrote);
                d.await(wrote, 2);
                d.putUpdates(s);
                d.advance(done);
                d.await(done, 2);
                s.putLong(d.rank() * 16 + 8, 200 + d.rank()); // still dirty while merging below
                d.getUpdates(s);
                assertEquals(100, s.getLong(0));
                assertEquals(101, s.getLong(16));
                assertEquals(200 + d.rank(), s.getLong(d.rank() * 16 + 8));
            });
            // the second writes overlapped with the peer's pending diff: merge reported with its begin
            g.router.flushAll();
            int begins = g.sink.count(EventType.FALSE_SHARING_BEGIN, -1, i -> true);
            int merges = g.sink.count(EventType.FALSE_SHARING_MERGE, -1, i -> true);
            assertTrue(begins >= 2, "begins " + begins);
            assertTrue(merges >= 2, "merges " + merges);
        }
    }

    @Test
    void eventualConsistency_writeVisibleWithinLagWithoutAnyCall() throws Exception {
        try (Group g = new Group(2)) {
            g.spmd(d -> {
                RandomSegment s = d.createRandom(16, Consistency.eventual(40));
                Eventcount ready = d.createEvent();
                d.needUpdates(s);
                d.advance(ready);
                d.await(ready, 2);
                if (d.rank() == 0) {
                    s.putLong(0, 7);
                } else {
                    long deadline = System.currentTimeMillis() + 3000;
                    while (s.getLong(0) != 7 && System.currentTimeMillis() < deadline) {
                        Thread.sleep(5);
                    }
                    assertEquals(7, s.getLong(0), "eventual update arrived");
                }
                d.advance(ready);
                d.await(ready, 4);
            });
        }
    }

    @Test
    void sequentialInOrder_everyReplicaHoldsTheSameOrder() throws Exception {
        int per = 5;
        List<List<String>> seen = new ArrayList<>();
        try (Group g = new Group(3)) {
            for (int i = 0; i < 3; i++) {
                seen.add(null);
            }
            g.spmd(d -> {
                SequentialSegment q = d.createSequential(Consistency.release());
                Eventcount put = d.createEvent();
                Eventcount joined = d.createEvent();
                d.needUpdates(q);
                d.advance(joined);
                d.await(joined, 3);
                for (int i = 0; i < per; i++) {
                    q.append(("m" + d.rank() + "-" + i).getBytes(StandardCharsets.UTF_8));
                    if (i % 2 == 0) {
                        d.putUpdates(q);
                    }
                }
                d.putUpdates(q);
                d.advance(put);
                d.await(put, 3);
                d.getUpdates(q);
                List<String> l = new ArrayList<>();
                for (int i = 0; i < q.length(); i++) {
                    l.add(new String(q.get(i), StandardCharsets.UTF_8));
                }
                assertEquals("m" + d.rank() + "-0", new String(findFront(q, d.rank()), StandardCharsets.UTF_8));
                synchronized (seen) {
                    seen.set(d.rank(), l);
                }
            });
        }
        assertEquals(3 * per, seen.get(0).size());
        assertEquals(seen.get(0), seen.get(1));
        assertEquals(seen.get(0), seen.get(2));
    }

    private static byte[] findFront(SequentialSegment q, int rank) {
        for (byte[] b = q.readFront(); b != null; b = q.readFront()) {
            if (new String(b, StandardCharsets.UTF_8).startsWith("m" + rank + "-")) {
                return b;
            }
        }
        return null;
    }

    @Test
    void sequentialOutOfOrder_everyReplicaHoldsEveryItem() throws Exception {
        List<TreeSet<String>> seen = new ArrayList<>(List.of(new TreeSet<>(), new TreeSet<>(), new TreeSet<>()));
        try (Group g = new Group(3)) {
            g.spmd(d -> {
                SequentialSegment q = d.createSequential(Consistency.release().outOfOrder());
                Eventcount put = d.createEvent();
                Eventcount joined = d.createEvent();
                d.needUpdates(q);
                d.advance(joined);
                d.await(joined, 3);
                for (int i = 0; i < 4; i++) {
                    q.append(("m" + d.rank() + "-" + i).getBytes(StandardCharsets.UTF_8));
                }
                d.putUpdates(q);
                d.advance(put);
                d.await(put, 3);
                d.getUpdates(q);
                TreeSet<String> s = new TreeSet<>();
                for (int i = 0; i < q.length(); i++) {
                    s.add(new String(q.get(i), StandardCharsets.UTF_8));
                }
                synchronized (seen) {
                    seen.set(d.rank(), s);
                }
            });
        }
        assertEquals(12, seen.get(0).size());
        assertEquals(seen.get(0), seen.get(1));
        assertEquals(seen.get(0), seen.get(2));
    }

    /**
     * Conflicting puts of one key, in order: every member ends with the same value, round after round. (The owner
     * orders its own update on the application thread and the others' on message threads; before the ordering and
     * the sending were one step, the two could leave in the other order than applied, and the owner kept a
     * different last value than the rest: about one run in twelve of a single round failed.)
     */
    @Test
    void associativeInOrder_conflictingPutsResolveTheSameEverywhere() throws Exception {
        int rounds = 8;
        byte[][][] finalValue = new byte[rounds][3][];
        try (Group g = new Group(3)) {
            g.spmd(d -> {
                AssociativeSegment m = d.createAssociative(Consistency.release());
                Eventcount put = d.createEvent();
                Eventcount joined = d.createEvent();
                d.needUpdates(m);
                d.advance(joined);
                d.await(joined, 3);
                for (int r = 0; r < rounds; r++) {
                    m.put("shared", new byte[] {(byte) r, (byte) d.rank()});
                    m.put("own" + d.rank(), new byte[] {1});
                    d.putUpdates(m);
                    d.advance(put);
                    d.await(put, 3 * (r + 1));
                    d.getUpdates(m);
                    assertEquals(4, m.count());
                    finalValue[r][d.rank()] = m.get("shared");
                    d.advance(joined); // nobody puts the next round before everyone read this one
                    d.await(joined, 3 * (r + 2));
                }
            });
        }
        for (int r = 0; r < rounds; r++) {
            assertNotNull(finalValue[r][0]);
            assertEquals(r, finalValue[r][0][0], "round " + r);
            assertArrayEquals(finalValue[r][0], finalValue[r][1], "round " + r);
            assertArrayEquals(finalValue[r][0], finalValue[r][2], "round " + r);
        }
    }

    @Test
    void associativeOutOfOrder_everyKeyArrivesEverywhere() throws Exception {
        try (Group g = new Group(2)) {
            g.spmd(d -> {
                AssociativeSegment m = d.createAssociative(Consistency.eventual(20).outOfOrder());
                Eventcount ready = d.createEvent();
                d.needUpdates(m);
                d.advance(ready);
                d.await(ready, 2);
                m.put("k" + d.rank(), new byte[] {(byte) d.rank()});
                long deadline = System.currentTimeMillis() + 3000;
                while (m.count() < 2 && System.currentTimeMillis() < deadline) {
                    Thread.sleep(5);
                }
                assertEquals(2, m.count());
                d.advance(ready);
                d.await(ready, 4);
            });
        }
    }
}
