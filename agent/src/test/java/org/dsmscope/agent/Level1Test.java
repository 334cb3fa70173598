package org.dsmscope.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dsmscope.progs.CfProg;
import org.dsmscope.progs.FileProg;
import org.dsmscope.progs.ForkJoinProg;
import org.dsmscope.progs.JucProg;
import org.dsmscope.progs.LockProg;
import org.dsmscope.progs.ParkProg;
import org.dsmscope.progs.QueueProg;
import org.dsmscope.progs.SyncProg;
import org.dsmscope.progs.WaitProg;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.RecordKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Level 1 call records (SPEC §3 table) of small multi-threaded programs run under the agent jar. */
class Level1Test {
    @TempDir
    Path dir;


    @Test
    void locks_recordOutermostSectionsOnly_pairedPerThread_andKeepResults() throws Exception {
        Traced t = Traced.run(dir, "level=1", LockProg.class, "3");
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 60 570 570"), t.out);
        assertEquals(4, t.threads());
        for (int th = 1; th <= 3; th++) {
            List<Traced.Rec> rs = t.records(th);
            Map<Long, Integer> open = new HashMap<>();
            int begins = 0;
            for (Traced.Rec r : rs) {
                if (r.isCall(CallType.BEGIN_CRITICAL)) {
                    assertEquals(null, open.put(r.args[1], 1), "nested begin on one lock: " + rs);
                    begins++;
                } else if (r.isCall(CallType.END_CRITICAL)) {
                    assertEquals(1, open.remove(r.args[1]), "end without begin");
                }
            }
            assertTrue(open.isEmpty(), "unbalanced sections " + open);
            // 20 iterations × (monitor block + synchronized method + lock), nested acquires not recorded
            assertEquals(60, begins);
            assertEquals(CallType.START_TRACE, rs.get(0).callType);
            assertEquals(CallType.END_TRACE, rs.get(rs.size() - 1).callType);
            assertEquals(CallType.THREAD_END, rs.get(rs.size() - 2).callType);
        }
        List<Traced.Rec> main = t.records(0);
        long spawns = main.stream().filter(r -> r.isCall(CallType.SPAWN)).count();
        long joins = main.stream().filter(r -> r.isCall(CallType.JOIN)).count();
        assertEquals(3, spawns);
        assertEquals(3, joins);
        Set<Long> children = new HashSet<>();
        main.stream().filter(r -> r.isCall(CallType.SPAWN)).forEach(r -> children.add(r.args[3]));
        assertEquals(Set.of(1L, 2L, 3L), children);
        assertTrue(t.err.contains("Trace output stored in:"), t.err);
        assertTrue(t.err.contains("tr.4.3 for thread 3"), t.err);
    }

    @Test
    void waitsAndConditionAwaits_pairWithTheWakeUpThatCausedThem() throws Exception {
        Traced t = Traced.run(dir, "level=1", WaitProg.class);
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 1225 1225"), t.out);
        Map<Long, Set<Long>> wakes = new HashMap<>();
        List<List<Traced.Rec>> all = t.all();
        for (List<Traced.Rec> rs : all) {
            for (Traced.Rec r : rs) {
                if (r.isCall(CallType.COND_WAKE)) {
                    assertTrue(wakes.computeIfAbsent(r.args[1], k -> new HashSet<>()).add(r.args[2]),
                            "wake-up sequence numbers are unique per object");
                }
            }
        }
        int waits = 0;
        for (List<Traced.Rec> rs : all) {
            for (int i = 0; i < rs.size(); i++) {
                Traced.Rec r = rs.get(i);
                if (r.isCall(CallType.COND_WAIT)) {
                    waits++;
                    assertTrue(r.args[2] > 0, "every wait here was ended by a wake-up");
                    assertTrue(wakes.getOrDefault(r.args[1], Set.of()).contains(r.args[2]),
                            "wait paired with a wake-up of the same object: " + r);
                    // released before, re-acquired after
                    assertEquals(CallType.END_CRITICAL, rs.get(i - 1).callType);
                    assertEquals(CallType.BEGIN_CRITICAL, rs.get(i + 1).callType);
                }
            }
        }
        assertTrue(waits > 0, "the program waited at least once");
    }

    /**
     * SPEC §3: argument 3 of an outermost acquisition is its sequence number on the lock: per lock 1, 2, … without
     * a gap or a repeat over all threads, increasing within each thread (monitor, synchronized method, Lock).
     */
    @Test
    void locks_numberTheOutermostAcquisitionsOfEachLock() throws Exception {
        Traced t = Traced.run(dir, "level=1", LockProg.class, "3");
        assertEquals(0, t.exit, t.err);
        Map<Long, Set<Long>> seqs = new HashMap<>();
        for (List<Traced.Rec> rs : t.all()) {
            Map<Long, Long> last = new HashMap<>();
            for (Traced.Rec r : rs) {
                if (r.isCall(CallType.BEGIN_CRITICAL)) {
                    assertTrue(seqs.computeIfAbsent(r.args[1], k -> new HashSet<>()).add(r.args[3]),
                            "a number used twice: " + r);
                    Long before = last.put(r.args[1], r.args[3]);
                    assertTrue(before == null || before < r.args[3], "increasing within a thread: " + r);
                }
            }
        }
        assertEquals(3, seqs.size(), "the monitor, the class's monitor, the lock: " + seqs.keySet());
        for (Set<Long> s : seqs.values()) {
            assertEquals(60, s.size());
            assertEquals(1L, s.stream().mapToLong(Long::longValue).min().getAsLong());
            assertEquals(60L, s.stream().mapToLong(Long::longValue).max().getAsLong());
        }
    }

    /**
     * The re-acquisition after {@code Object.wait} / {@code Condition.await} is a new acquisition, numbered after
     * the section of the thread whose wake-up ended the wait (that thread held the lock when it woke the waiter).
     */
    @Test
    void theReacquisitionAfterAWait_isNumberedAfterTheWakersSection() throws Exception {
        Traced t = Traced.run(dir, "level=1", WaitProg.class);
        assertEquals(0, t.exit, t.err);
        List<List<Traced.Rec>> all = t.all();
        // (wake object, wake number) -> number of the waker's section on each lock it held then
        Map<String, Map<Long, Long>> wakers = new HashMap<>();
        for (List<Traced.Rec> rs : all) {
            Map<Long, Long> open = new HashMap<>();
            for (Traced.Rec r : rs) {
                if (r.isCall(CallType.BEGIN_CRITICAL)) {
                    open.put(r.args[1], r.args[3]);
                } else if (r.isCall(CallType.END_CRITICAL)) {
                    open.remove(r.args[1]);
                } else if (r.isCall(CallType.COND_WAKE)) {
                    wakers.put(r.args[1] + "#" + r.args[2], new HashMap<>(open));
                }
            }
        }
        int checked = 0;
        for (List<Traced.Rec> rs : all) {
            for (int i = 0; i + 1 < rs.size(); i++) {
                Traced.Rec w = rs.get(i);
                Traced.Rec again = rs.get(i + 1);
                if (w.isCall(CallType.COND_WAIT) && again.isCall(CallType.BEGIN_CRITICAL)) {
                    Long waker = wakers.get(w.args[1] + "#" + w.args[2]).get(again.args[1]);
                    assertTrue(waker != null && again.args[3] > waker, "re-acquired as #" + again.args[3]
                            + " after the waker's #" + waker);
                    checked++;
                }
            }
        }
        assertTrue(checked > 0, "the program waited at least once");
    }

    /**
     * Issue 28's fallback: {@code LockSupport.unpark(t)} is a release on t's thread object with a per-object sequence
     * number, a return from {@code park*} an acquire on the parking thread's object naming the last unpark of it.
     */
    @Test
    void parkAndUnpark_areAcquireAndReleaseOnTheParkedThread() throws Exception {
        Traced t = Traced.run(dir, "level=1", ParkProg.class);
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 20"), t.out);
        List<List<Traced.Rec>> all = t.all();
        Map<Long, Set<Long>> releases = new HashMap<>();
        for (List<Traced.Rec> rs : all) {
            for (Traced.Rec r : rs) {
                if (r.isCall(CallType.SYNC_RELEASE)) {
                    assertTrue(releases.computeIfAbsent(r.args[1], k -> new HashSet<>()).add(r.args[2]),
                            "unpark numbers are unique per thread object: " + r);
                }
            }
        }
        assertEquals(2, releases.size(), "each thread unparks the other: " + releases.keySet());
        assertEquals(10, releases.values().iterator().next().size());
        int paired = 0;
        for (int th = 0; th < all.size(); th++) {
            Long self = null;
            for (Traced.Rec r : all.get(th)) {
                if (r.isCall(CallType.SYNC_ACQUIRE)) {
                    assertTrue(self == null || self == r.args[1], "a thread parks on its own object");
                    self = r.args[1];
                    if (r.args[2] > 0) {
                        assertTrue(releases.get(r.args[1]).contains(r.args[2]), "paired with an unpark: " + r);
                        paired++;
                    }
                }
            }
        }
        assertTrue(paired > 0, "some park returned after an unpark");
    }

    @Test
    void barriersLatchesSemaphoresAndAtomics_areRecorded() throws Exception {
        Traced t = Traced.run(dir, "level=1", SyncProg.class, "3");
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 9 6"), t.out);
        List<List<Traced.Rec>> all = t.all();
        Map<Long, Long> releases = new HashMap<>();
        for (int th = 1; th <= 3; th++) {
            List<Traced.Rec> rs = all.get(th);
            assertEquals(4, rs.stream().filter(r -> r.isCall(CallType.BARRIER) && r.args[2] == 3).count(),
                    "3 CyclicBarrier + 1 Phaser barriers with 3 parties");
            assertTrue(rs.stream().filter(r -> r.isCall(CallType.LDCW)).count() >= 4, "3 increments + CAS");
            for (Traced.Rec r : rs) {
                if (r.isCall(CallType.SYNC_RELEASE)) {
                    assertEquals(null, releases.put(r.args[1] << 20 | r.args[2], r.args[3]),
                            "release sequence numbers unique per object");
                }
            }
        }
        List<Traced.Rec> main = all.get(0);
        Traced.Rec latchWait = main.stream().filter(r -> r.isCall(CallType.SYNC_ACQUIRE) && r.args[3] == 1)
                .findFirst().orElseThrow();
        assertEquals(3, latchWait.args[2], "the latch opened with its third countDown");
        Traced.Rec semAcq = main.stream().filter(r -> r.isCall(CallType.SYNC_ACQUIRE) && r.args[3] == 3)
                .findFirst().orElseThrow();
        assertEquals(3, semAcq.args[2], "acquire(3) passed after the third release");
        assertTrue(releases.containsKey(latchWait.args[1] << 20 | 3));
    }

    @Test
    void fileReadsAndWrites_recordBytesAndHandles() throws Exception {
        Traced t = Traced.run(dir, "level=1", FileProg.class, dir.resolve("data.bin").toString());
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 41 100"), t.out);
        List<Traced.Rec> rs = t.records(0);
        ArrayDeque<long[]> io = new ArrayDeque<>();
        for (Traced.Rec r : rs) {
            if (r.isCall(CallType.FILE_WRITE) || r.isCall(CallType.FILE_READ)) {
                io.add(new long[] {r.callType, r.args[2], r.args[3]});
            }
        }
        long[][] expect = {{CallType.FILE_WRITE, 40}, {CallType.FILE_WRITE, 1}, {CallType.FILE_READ, 41},
            {CallType.FILE_WRITE, 100}, {CallType.FILE_READ, 30}, {CallType.FILE_READ, 100}};
        assertEquals(expect.length, io.size(), () -> io.stream().map(a -> a[0] + ":" + a[1]).toList().toString());
        long[] first = io.peek();
        for (long[] e : expect) {
            long[] g = io.poll();
            assertEquals(e[0], g[0]);
            assertEquals(e[1], g[1]);
        }
        assertTrue(first[2] >= 3, "file handle");
        assertTrue(rs.stream().noneMatch(r -> r.kind == RecordKind.MEMORY), "no memory records at level 1");
    }

    /**
     * Issue 28: a submit (or {@code CompletableFuture.supplyAsync / runAsync}) is release 1 on its task and the task's start acquire 1 in a worker, the task's end
     * release 2 and a {@code get} or {@code join} acquire 2; a put or offer is a release on the queue and a take or poll an acquire
     * naming a put that happened; the program's result is unchanged.
     */
    @Test
    void executorsAndBlockingQueues_areReleaseAcquirePairs_andKeepResults() throws Exception {
        Traced t = Traced.run(dir, "level=1", JucProg.class, "20");
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 94 done 380 6"), t.out);
        List<List<Traced.Rec>> all = t.all();
        assertTrue(all.size() >= 3, "main, the pool's two workers and the common pool's: " + all.size());
        Map<String, Integer> releasedBy = Traced.releasedBy(all);
        Map<Long, Integer> acquires = new HashMap<>();
        int paired = 0;
        for (int th = 0; th < all.size(); th++) {
            for (Traced.Rec r : all.get(th)) {
                if (r.isCall(CallType.SYNC_ACQUIRE)) {
                    Integer by = releasedBy.get(r.args[1] + "/" + r.args[2]);
                    // 0: a take that found no put numbered within the agent's catch-up time (orders nothing)
                    assertTrue(r.args[2] == 0 || by != null && by != th, "paired with another thread's release: " + r);
                    acquires.merge(r.args[1], 1, Integer::sum);
                    paired += r.args[2] > 0 ? 1 : 0;
                }
            }
        }
        // 10 tasks (4 submitted, 1 executed, 2 completable, 3 invoked): start and get / join / invoke each, and the
        // gets of invokeAll's two futures; 20 takes, 20 polls; puts 5..20 into the queue of capacity 4 acquire the
        // slots that takes 1..16 freed
        assertEquals(List.of(2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 16, 20, 20), acquires.values().stream().sorted().toList(),
                acquires.toString());
        long queueReleases = all.get(0).stream().filter(r -> r.isCall(CallType.SYNC_RELEASE) && r.args[2] > 1)
                .map(r -> r.args[1]).distinct().count();
        assertEquals(2, queueReleases, "main puts into two queues");
        assertTrue(paired >= 30, "most takes name their put: " + paired + " of 50 acquires");
    }

    /**
     * Issue 28, the queue hand-offs beyond put / take: a producer that fills a bounded queue acquires the slot the
     * take freed (put m of a queue of capacity C acquires slot release m − C), a SynchronousQueue's put and a
     * transfer acquire their own take's, deque ends and drainTo pair with their puts, and each side of an
     * Exchanger acquires its partner's release. Every number names a release of the other thread; results keep.
     */
    @Test
    void boundedQueuesDequesTransfersAndExchanges_pairBothWays_andKeepResults() throws Exception {
        int n = 20;
        Traced t = Traced.run(dir, "level=1", QueueProg.class, Integer.toString(n));
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 190 190 190 570 190 190 20190"), t.out);
        List<List<Traced.Rec>> all = t.all();
        assertEquals(2, all.size());
        Map<String, Integer> releasedBy = Traced.releasedBy(all);
        int crossed = 0;
        int acquires = 0;
        for (int th = 0; th < 2; th++) {
            Map<Long, Integer> perObject = new HashMap<>();
            for (Traced.Rec r : all.get(th)) {
                if (!r.isCall(CallType.SYNC_ACQUIRE)) {
                    continue;
                }
                Integer by = releasedBy.get(r.args[1] + "/" + r.args[2]);
                assertTrue(r.args[2] == 0 || by != null, "names a release that exists: " + r);
                perObject.merge(r.args[1], 1, Integer::sum);
                acquires++;
                // the catch-up's fallback (the last number given) may be the thread's own earlier release, which
                // orders nothing; the rest pair with the other thread
                crossed += by != null && by != th ? 1 : 0;
            }
            if (th == 0) {
                // slots of the ArrayBlockingQueue (puts 3..20) and the deque (puts 4..20), the synchronous queue's
                // takes and slots, the transfers' slots, the exchanges
                assertEquals(List.of(n - 3, n - 2, n, n, n, n), perObject.values().stream().sorted().toList(),
                        perObject.toString());
            }
        }
        // 0 or the thread's own number: an acquire that found no number of the other thread within the agent's
        // catch-up time (orders nothing)
        assertTrue(crossed * 10 >= acquires * 9, "acquires name the other thread's release: " + crossed + " of "
                + acquires);
    }

    /**
     * Issue 28, fork / join where the JDK forks and joins: a parallel stream on the common pool and a RecursiveTask
     * on a pool of two. Forks are releases on the task, a worker's run of a forked task acquires its fork, and main's
     * joins acquire the ends of tasks that other threads ran. Numbers are unique per task and every acquire names
     * a release that exists; results keep.
     */
    @Test
    void forkJoinTasksAndParallelStreams_forkBeforeRun_joinAfterEnds_andKeepResults() throws Exception {
        Traced t = Traced.run(dir, "level=1", ForkJoinProg.class, "64000");
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check 2047968000 2047968000"), t.out);
        List<List<Traced.Rec>> all = t.all();
        assertTrue(all.size() >= 3, "main, a common-pool worker and the pool's workers: " + all.size());
        Map<String, Integer> releasedBy = Traced.releasedBy(all);
        int workerStarts = 0;
        int mainJoinsOfOthers = 0;
        for (int th = 0; th < all.size(); th++) {
            for (Traced.Rec r : all.get(th)) {
                if (r.isCall(CallType.SYNC_ACQUIRE)) {
                    Integer by = releasedBy.get(r.args[1] + "/" + r.args[2]);
                    assertTrue(by != null, "names a release: " + r);
                    workerStarts += th != 0 && by != th ? 1 : 0;
                    mainJoinsOfOthers += th == 0 && by != 0 ? 1 : 0;
                }
            }
        }
        assertTrue(workerStarts > 0, "workers run what other threads forked");
        assertTrue(mainJoinsOfOthers > 0, "main's joins wait for tasks the workers ended");
    }

    /**
     * Issue 28, CompletableFuture dependants: each function runs after its submit and after the completion of its
     * sources, a dependant's getters after its function's end, a future completed with {@code complete(v)} after
     * the completing thread's release. Numbers are unique and every acquire names a release; results keep.
     */
    @Test
    void completableFutureDependants_runAfterTheirSources_gettersAfterTheirEnd() throws Exception {
        Traced t = Traced.run(dir, "level=1", CfProg.class);
        assertEquals(0, t.exit, t.err);
        // 30, 38 (30 + 4 + 4), 39, 78 + 30 = 108, 109, anyOf: ran's null or handled's 78; 77 + 77
        assertTrue(t.out.matches("(?s)check 30 39 108 109 (null|78) 154\\s*"), t.out);
        List<List<Traced.Rec>> all = t.all();
        Map<String, Integer> releasedBy = Traced.releasedBy(all);
        int fromOthers = 0;
        for (int th = 0; th < all.size(); th++) {
            for (Traced.Rec r : all.get(th)) {
                if (r.isCall(CallType.SYNC_ACQUIRE) && r.args[2] > 0) {
                    Integer by = releasedBy.get(r.args[1] + "/" + r.args[2]);
                    assertTrue(by != null, "names a release: " + r);
                    fromOthers += by != th ? 1 : 0;
                }
            }
        }
        // sources → dependants across the pool, the common pool and main, the completer → main's join
        assertTrue(fromOthers >= 8, "acquires of other threads' releases: " + fromOthers);
    }
}
