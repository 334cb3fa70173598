package org.dsmscope.agent;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dsmscope.progs.JdkProg;
import org.dsmscope.progs.LockProg;
import org.dsmscope.progs.VarHandleProg;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.sidecar.DataMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdk=true} (issue 28): the memory accesses inside {@code java.util.concurrent}'s queues and maps are traced
 * with data map names, the agent's own use of the JDK is not, and the program's result is unchanged (the child
 * JVM runs under a timeout: a deadlock fails the test).
 */
class JdkTraceTest {
    private static final int N = 2000;

    @TempDir
    Path dir;

    /** Per thread, the number of loads (index 0) and stores (1) in [lo, hi). */
    private static long[][] accesses(List<List<Traced.Rec>> all, long lo, long hi) {
        long[][] n = new long[all.size()][2];
        for (int t = 0; t < all.size(); t++) {
            for (Traced.Rec r : all.get(t)) {
                if (r.kind == RecordKind.MEMORY && r.address >= lo && r.address < hi) {
                    n[t][r.memType & 1]++;
                }
            }
        }
        return n;
    }

    private static int named(DataMap m, String name) {
        for (int i = 0; i < m.size(); i++) {
            if (name.equals(m.name(i))) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void queueSlotsAndMapTable_areTracedAndNamed_theAgentsOwnCollectionsNever() throws Exception {
        Traced t = Traced.run(dir, "level=2,jdk=true", JdkProg.class, String.valueOf(N));
        assertEquals(0, t.exit, t.err);
        long expected = (long) N * (N - 1) + 4 * 19_999L;
        assertTrue(t.out.contains("check " + expected + " " + N), t.out);
        // main, the producer, the filler and four workers: the agent's threads have no trace
        assertEquals(7, t.threads());
        DataMap map = DataMap.read(dir.resolve("tr.7.datamap"));
        List<List<Traced.Rec>> all = t.all();

        int items = named(map, "ArrayBlockingQueue.items");
        assertTrue(items >= 0, "the queue's array is named in the data map");
        assertEquals("java.lang.Object[]", map.type(items));
        assertTrue(map.site(items).startsWith("java.util.concurrent.ArrayBlockingQueue.<init>:"), map.site(items));
        long[][] slots = accesses(all, map.start(items), map.end(items));
        // every put stores its element in a slot (thread 1), every take reads it and clears the slot (main)
        assertTrue(slots[1][1] >= N, "producer's stores " + slots[1][1]);
        assertTrue(slots[0][0] >= N && slots[0][1] >= N, "consumer's loads " + slots[0][0] + ", stores " + slots[0][1]);
        assertEquals(0, slots[2][0] + slots[2][1], "the filler never touches the queue");

        // the map's table: the filler's Unsafe stores (casTabAt) and main's Unsafe loads (tabAt)
        long fillerStores = 0;
        long mainLoads = 0;
        for (int i = 0; i < map.size(); i++) {
            if ("java.util.concurrent.ConcurrentHashMap$Node[]".equals(map.type(i))) {
                long[][] a = accesses(all, map.start(i), map.end(i));
                fillerStores += a[2][1];
                mainLoads += a[0][0];
            }
        }
        assertTrue(fillerStores >= N, "filler's table stores " + fillerStores);
        assertTrue(mainLoads >= N, "main's table loads " + mainLoads);

        // the agent's own ArrayList of traces and set of laid-out classes: never in any thread's trace
        String[] agent = t.out.lines().filter(l -> l.startsWith("agent ")).findFirst().orElseThrow().split(" ");
        for (int k = 1; k <= 2; k++) {
            long a = Long.parseUnsignedLong(agent[k], 16);
            int r = map.rangeAt(a);
            assertTrue(r >= 0, "the agent's collection has a data map row");
            long[][] n = accesses(all, map.start(r), map.end(r));
            for (int th = 0; th < n.length; th++) {
                assertEquals(0, n[th][0] + n[th][1], "thread " + th + " touched " + map.type(r));
            }
        }
    }

    /** Per thread, the loads (index 0) and stores (1) of the field the data map names {@code field}. */
    private static long[][] fieldAccesses(List<List<Traced.Rec>> all, DataMap map, String field) {
        long[][] n = new long[all.size()][2];
        for (int t = 0; t < all.size(); t++) {
            for (Traced.Rec r : all.get(t)) {
                if (r.kind == RecordKind.MEMORY && field.equals(map.describe(r.address))) {
                    n[t][r.memType & 1]++;
                }
            }
        }
        return n;
    }

    @Test
    void varHandleAccesses_futureResultAndQueueNodeItem_recordedOnTheirFields() throws Exception {
        Traced t = Traced.run(dir, "level=2,jdk=true", VarHandleProg.class, String.valueOf(N));
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("check " + (long) N * (N - 1) * 3 / 2), t.out);
        // main, the completer, the producer and the pool's workers
        assertTrue(t.threads() >= 4, "threads " + t.threads());
        DataMap map = DataMap.read(dir.resolve("tr." + t.threads() + ".datamap"));
        List<List<Traced.Rec>> all = t.all();

        // complete(v): RESULT.compareAndSet, a read and (it succeeded) a write, by the completer (thread 1);
        // join(): main reads the result
        long[][] result = fieldAccesses(all, map, "java.util.concurrent.CompletableFuture.result");
        long[][] item = fieldAccesses(all, map, "java.util.concurrent.ConcurrentLinkedQueue$Node.item");
        long forks = Long.parseLong(t.out.lines().filter(l -> l.startsWith("forks ")).findFirst().orElseThrow()
                .substring(6));
        long[] slots = new long[2];
        for (int i = 0; i < map.size(); i++) {
            if ("java.util.concurrent.ForkJoinTask[]".equals(map.type(i))) {
                long[][] a = accesses(all, map.start(i), map.end(i));
                for (long[] th : a) {
                    slots[0] += th[0];
                    slots[1] += th[1];
                }
            }
        }
        assertAll(
            // complete(v): RESULT.compareAndSet, a read and (it succeeded) a write, by the completer (thread 1);
            // join(): main reads the result
            () -> assertTrue(result[1][1] >= N, "the completer's stores of CompletableFuture.result: " + result[1][1]),
            () -> assertTrue(result[1][0] >= N, "the completer's CAS reads of CompletableFuture.result: " + result[1][0]),
            () -> assertTrue(result[0][0] >= N, "main's loads of CompletableFuture.result: " + result[0][0]),
            // offer: the node's constructor sets its item with ITEM.set (a handle of the outer class) in the
            // producer (thread 2); poll: main reads the item and clears it with ITEM.compareAndSet
            () -> assertTrue(item[2][1] >= N, "the producer's stores of Node.item: " + item[2][1]),
            () -> assertTrue(item[0][0] >= N, "main's loads of Node.item: " + item[0][0]),
            () -> assertTrue(item[0][1] >= N, "main's clearing CAS stores of Node.item: " + item[0][1]),
            // fork: WorkQueue.QA.setVolatile into a slot of a work queue's array; pop / steal: QA.getAndSet or CAS
            () -> assertTrue(forks > 0 && slots[1] >= forks, "work queue slot stores " + slots[1] + ", forks " + forks),
            () -> assertTrue(slots[0] >= forks, "work queue slot loads " + slots[0] + ", forks " + forks));
    }

    @Test
    void jdkOption_needsLevel2() throws Exception {
        for (String level : new String[] {"1", "3"}) {
            Traced t = Traced.run(dir, "level=" + level + ",jdk=true", Map.of(), dir.resolve("x").toString(),
                    LockProg.class, "1");
            assertEquals(2, t.exit, level);
            assertTrue(t.err.contains("dsmscope agent: jdk=true") && t.err.contains("needs level=2"), t.err);
        }
    }
}
