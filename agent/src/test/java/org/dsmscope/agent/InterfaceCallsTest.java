package org.dsmscope.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dsmscope.progs.PlainQueueProg;
import org.dsmscope.progs.WideQueueProg;
import org.dsmscope.progs.WideStageProg;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28's leftover: hand-offs called through a wider interface type ({@code Queue}, {@code Deque},
 * {@code Collection}, {@code CompletionStage}, {@code Future}) and through method references record what the
 * concrete-typed call records, and the replay makes the receiving thread wait for the release it names; collections
 * that are not blocking queues record nothing.
 */
class InterfaceCallsTest {
    @TempDir
    Path dir;

    /** The release / acquire calls as the replay delivers them: {thread, clock, type, arg1, arg2, waitClocks}. */
    static final class SyncCalls implements Analysis {
        final List<long[]> calls = new ArrayList<>();

        @Override
        public void call(int thread, int cpu, long clock, CallEvent call) {
            if (call.type == CallType.SYNC_RELEASE || call.type == CallType.SYNC_ACQUIRE) {
                calls.add(new long[] {thread, clock, call.type, call.arg1, call.arg2, call.waitClocks});
            }
        }
    }

    /**
     * Replays the trace set; checks that numbers are unique per object and that every acquire naming a number comes
     * at or after its release in the replay's clocks. Returns the calls.
     */
    private static SyncCalls replayPaired(Traced t) throws Exception {
        SyncCalls s = new SyncCalls();
        new Replay(TraceSet.ofPrefix(t.name + "." + t.threads()), null, new ReplayOptions()).add(s).run();
        Map<String, long[]> releases = new HashMap<>();
        for (long[] c : s.calls) {
            if (c[2] == CallType.SYNC_RELEASE) {
                assertEquals(null, releases.put(c[3] + "/" + c[4], c), "one release per object and number");
            }
        }
        for (long[] c : s.calls) {
            if (c[2] == CallType.SYNC_ACQUIRE && c[4] > 0) {
                long[] r = releases.get(c[3] + "/" + c[4]);
                assertNotNull(r, "the release an acquire names: " + c[3] + "/" + c[4]);
                assertTrue(c[1] >= r[1], "acquired at clock " + c[1] + ", released at " + r[1]);
            }
        }
        return s;
    }

    /**
     * A bounded queue held as {@code Queue} (offer / poll), a deque held as {@code Deque} (push, offerFirst,
     * addFirst / pollLast), a queue held as {@code Collection} (add / remove(o)), a queue filled through
     * {@code items.forEach(q::add)} and a lambda and emptied through {@code q::poll}, and a bounded deque held as
     * {@code Deque} (addLast, offerLast / pollFirst, pop, removeFirst): each element is a release on
     * its queue by main and an acquire by the consumer (each take also releases a slot of its queue, as a
     * concrete-typed take does: every JDK blocking queue has a capacity), and in the replay the consumer waits for
     * main on every queue.
     */
    @Test
    void queueHandOffsThroughQueueDequeCollectionAndMethodReferences_pairAndTheConsumerWaits() throws Exception {
        int n = 60;
        Traced t = Traced.run(dir, "level=2", WideQueueProg.class, Integer.toString(n), "40");
        assertEquals(0, t.exit, t.err);
        long s = n * (n - 1) / 2;
        assertTrue(t.out.contains("check " + s + " " + s + " " + s + " " + 2 * s + " " + s + " " + (n - 1 + 40)),
                t.out);
        assertEquals(2, t.threads());
        Map<Long, Integer> mainReleases = new HashMap<>();
        Map<Long, Integer> consumerAcquires = new HashMap<>();
        Map<Long, Integer> consumerReleases = new HashMap<>();
        Map<String, Integer> releasedBy = new HashMap<>();
        for (int th = 0; th < 2; th++) {
            for (Traced.Rec r : t.records(th)) {
                if (r.isCall(CallType.SYNC_RELEASE)) {
                    (th == 0 ? mainReleases : consumerReleases).merge(r.args[1], 1, Integer::sum);
                    releasedBy.put(r.args[1] + "/" + r.args[2], th);
                } else if (r.isCall(CallType.SYNC_ACQUIRE)) {
                    assertEquals(1, th, "only the consumer acquires: " + r);
                    consumerAcquires.merge(r.args[1], 1, Integer::sum);
                }
            }
        }
        assertEquals(List.of(n, n, n, n, 2 * n), mainReleases.values().stream().sorted().toList(),
                "one release per element put, on five queues: " + mainReleases);
        assertEquals(mainReleases, consumerAcquires, "one acquire per element taken, on the same queues");
        // every JDK blocking queue has a capacity (LinkedBlockingQueue's default is Integer.MAX_VALUE): each take
        // releases a slot, as a concrete-typed take does
        assertEquals(List.of(n, n, n, n, 2 * n), consumerReleases.values().stream().sorted().toList(),
                "one slot release per take: " + consumerReleases);
        int crossed = 0;
        for (Traced.Rec r : t.records(1)) {
            if (r.isCall(CallType.SYNC_ACQUIRE)) {
                Integer by = releasedBy.get(r.args[1] + "/" + r.args[2]);
                assertTrue(r.args[2] == 0 || by != null, "names a release that exists: " + r);
                crossed += by != null && by == 0 ? 1 : 0;
            }
        }
        assertTrue(crossed * 10 >= 6 * n * 9, "takes name main's puts: " + crossed + " of " + 6 * n);

        SyncCalls replayed = replayPaired(t);
        Map<Long, Long> waited = new HashMap<>();
        for (long[] c : replayed.calls) {
            if (c[0] == 1 && c[2] == CallType.SYNC_ACQUIRE) {
                waited.merge(c[3], c[5], Long::sum);
            }
        }
        assertEquals(mainReleases.keySet(), waited.keySet());
        for (Map.Entry<Long, Long> e : waited.entrySet()) {
            assertTrue(e.getValue() > 0, "the consumer waits for main on every queue: " + waited);
        }
    }

    /**
     * A future held as {@code CompletionStage} ({@code thenApplyAsync}, {@code thenCombine}, {@code whenComplete})
     * and as {@code Future} ({@code get}), a source started through {@code CompletableFuture::supplyAsync}: the
     * dependant runs after the completer's release, main's get acquires the end of the last stage, and the replay
     * makes the pool's worker and main wait.
     */
    @Test
    void completionStageAndFutureCalls_orderDependantsAfterTheirSources_andTheGetterAfterTheEnd() throws Exception {
        Traced t = Traced.run(dir, "level=2", WideStageProg.class, "200");
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 201 412 412"), t.out);
        List<List<Traced.Rec>> all = t.all();
        Map<String, Integer> releasedBy = Traced.releasedBy(all);
        int fromOthers = 0;
        int mainFromOthers = 0;
        for (int th = 0; th < all.size(); th++) {
            for (Traced.Rec r : all.get(th)) {
                if (r.isCall(CallType.SYNC_ACQUIRE) && r.args[2] > 0) {
                    Integer by = releasedBy.get(r.args[1] + "/" + r.args[2]);
                    assertNotNull(by, "names a release: " + r);
                    fromOthers += by != th ? 1 : 0;
                    mainFromOthers += th == 0 && by != 0 ? 1 : 0;
                }
            }
        }
        // the completer → thenApplyAsync's function (pool), supplyAsync's submit → its run (common pool), the
        // sources' ends → thenCombine's function, its end → whenComplete's, the last end → main's get
        assertTrue(fromOthers >= 4, "acquires of other threads' releases: " + fromOthers);
        assertTrue(mainFromOthers >= 1, "main's get acquires a stage another thread ended");
        SyncCalls replayed = replayPaired(t);
        long mainWait = replayed.calls.stream().filter(c -> c[0] == 0 && c[2] == CallType.SYNC_ACQUIRE)
                .mapToLong(c -> c[5]).sum();
        long othersWait = replayed.calls.stream().filter(c -> c[0] != 0 && c[2] == CallType.SYNC_ACQUIRE)
                .mapToLong(c -> c[5]).sum();
        assertTrue(mainWait > 0, "main waits in get");
        assertTrue(othersWait > 0, "the dependant waits for the completer");
    }

    /**
     * {@code ArrayDeque}, {@code LinkedList} and {@code ArrayList} through {@code Queue}, {@code Deque},
     * {@code Collection} and method references record no release or acquire; on a blocking queue, a serializable
     * method reference, reflection and {@code Collections.addAll} (the JDK's own {@code add} calls) record nothing
     * either, and the one {@code offer} through {@code Queue} records its release.
     */
    @Test
    void plainCollectionsThroughTheInterfaces_recordNothing_unseenCallsNeither() throws Exception {
        Traced t = Traced.run(dir, "level=1", PlainQueueProg.class);
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 33 150"), t.out);
        List<Traced.Rec> sync = t.records(0).stream()
                .filter(r -> r.isCall(CallType.SYNC_RELEASE) || r.isCall(CallType.SYNC_ACQUIRE)).toList();
        assertEquals(1, sync.size(), "only the offer through Queue: " + sync);
        assertTrue(sync.get(0).isCall(CallType.SYNC_RELEASE) && sync.get(0).args[2] == 1, sync.toString());
    }
}
