package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28: {@code java.util.concurrent} hand-offs traced at level 2 by the real agent and analysed end to end.
 * The queue example's puts and takes and the executor example's submits, task starts and ends and
 * {@code Future.get}s become release / acquire pairs (types 23 / 24) on the queue and on each task; the replay
 * delivers every acquire at or after the clock of the release it names, the waiting threads (consumers, main in
 * {@code get}) get imbalance, and CIAT reports no problem. The programs check themselves (exit 0 means their
 * results are unchanged) and a deadlock would fail the timeout.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JucEndToEndTest {
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

    private static int run(StringWriter err, String... args) {
        picocli.CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(new StringWriter(), true));
        return cl.execute(args);
    }

    /** Traces {@code mainClass 2 size} at level 2 and returns the set's prefix (NAME.p). */
    private String trace(String name, String mainClass, int size) throws IOException {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        StringWriter err = new StringWriter();
        assertEquals(0, run(err, "trace", "--level", "2", "-o", dir.resolve(name).toString(), "--", java, "-cp",
                DemoCommand.findExamplesJar().toString(), mainClass, "2", Integer.toString(size)), err.toString());
        try (Stream<Path> s = Files.list(dir)) {
            Path first = s.filter(p -> p.getFileName().toString().matches(name + "\\.\\d+\\.0")).findFirst()
                    .orElseThrow();
            return first.toString().substring(0, first.toString().length() - 2);
        }
    }

    /** Runs {@code dsmscope ciat --json} on the set: exit 0, no problems; returns the JSON. */
    private JsonNode ciat(String set) throws IOException {
        Path json = Paths.get(set + ".json");
        StringWriter err = new StringWriter();
        assertEquals(0, run(err, "ciat", "--json", json.toString(), set), err.toString());
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertTrue(root.path("problems").isMissingNode() || root.path("problems").isEmpty(), root.toString());
        assertTrue(root.path("aggregate").path("communication").path("raw").asLong() > 0, "data moves");
        return root;
    }

    /**
     * Replays the set; checks that every acquire names a release (of another thread, if {@code otherThread}: a
     * fork-join thread may join tasks it ran itself) and comes at or after it.
     */
    private static SyncCalls replayPaired(String set, boolean otherThread) throws IOException {
        SyncCalls s = new SyncCalls();
        new Replay(TraceSet.ofPrefix(set), null, new ReplayOptions()).add(s).run();
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
                assertTrue(!otherThread || r[0] != c[0], "released by another thread");
                assertTrue(c[1] >= r[1], "acquired at clock " + c[1] + ", released at " + r[1]);
            }
        }
        return s;
    }

    /** Per thread, the imbalance plus contention of all phases. */
    private static long[] waits(JsonNode root) {
        long[] w = new long[root.path("threads").asInt()];
        for (JsonNode ph : root.path("phases")) {
            JsonNode c = ph.path("concurrency");
            for (int t = 0; t < w.length; t++) {
                w[t] += c.path("imbalance").path(t).asLong() + c.path("contention").path(t).asLong();
            }
        }
        return w;
    }

    @Test
    void queueHandoff_everyTakeAfterItsPut_consumersWait() throws IOException {
        int items = 300;
        String set = trace("queue", "org.dsmscope.examples.QueueHandoff", items);
        JsonNode root = ciat(set);
        assertEquals(3, root.path("threads").asInt(), "main and one consumer, the producer");
        SyncCalls s = replayPaired(set, true);
        long producer = s.calls.stream().filter(c -> c[2] == CallType.SYNC_RELEASE).mapToLong(c -> c[0])
                .findFirst().orElseThrow();
        long puts = s.calls.stream().filter(c -> c[2] == CallType.SYNC_RELEASE && c[0] == producer).count();
        long takes = s.calls.stream().filter(c -> c[2] == CallType.SYNC_ACQUIRE && c[4] > 0 && c[0] != producer)
                .count();
        long slots = s.calls.stream().filter(c -> c[2] == CallType.SYNC_ACQUIRE && c[0] == producer).count();
        assertEquals(items + 2, puts, "every item and one end item per consumer");
        assertEquals(items + 2, takes);
        assertEquals(items + 2 - 16, slots, "puts beyond the capacity of 16 acquire the slot a take freed");
        long consumerWaits = 0;
        long[] w = waits(root);
        for (int t = 0; t < w.length; t++) {
            consumerWaits += t == producer ? 0 : w[t];
        }
        assertTrue(consumerWaits > 0, "the consumers wait for items: " + java.util.Arrays.toString(w));
    }

    @Test
    void executorTasks_startAfterTheirSubmit_mainWaitsInGet() throws IOException {
        String set = trace("pool", "org.dsmscope.examples.ExecutorTasks", 4000);
        JsonNode root = ciat(set);
        assertEquals(3, root.path("threads").asInt(), "main and the pool's two workers");
        SyncCalls s = replayPaired(set, true);
        // 8 tasks: submit (release 1) and get (acquire 2) in main, start (acquire 1) and end (release 2) in a worker
        for (int seq = 1; seq <= 2; seq++) {
            for (int type : new int[] {CallType.SYNC_RELEASE, CallType.SYNC_ACQUIRE}) {
                final int q = seq;
                boolean inMain = (seq == 1) == (type == CallType.SYNC_RELEASE);
                long n = s.calls.stream().filter(c -> c[2] == type && c[4] == q && (c[0] == 0) == inMain).count();
                assertEquals(8, n, "type " + type + " number " + seq);
            }
        }
        long mainWait = s.calls.stream().filter(c -> c[0] == 0 && c[2] == CallType.SYNC_ACQUIRE)
                .mapToLong(c -> c[5]).sum();
        assertTrue(mainWait > 0, "main waits in get for the tasks' ends");
        assertTrue(waits(root)[0] > 0, "main's wait is imbalance");
    }

    @Test
    void parallelStream_workersRunAfterTheirFork_mainWaitsForTheirEnds() throws IOException {
        String set = trace("psum", "org.dsmscope.examples.ParallelSum", 4000);
        JsonNode root = ciat(set);
        int threads = root.path("threads").asInt();
        assertTrue(threads >= 2, "main and the pool's workers: " + threads);
        SyncCalls s = replayPaired(set, false);
        Map<String, Long> releasedBy = new HashMap<>();
        for (long[] c : s.calls) {
            if (c[2] == CallType.SYNC_RELEASE) {
                releasedBy.put(c[3] + "/" + c[4], c[0]);
            }
        }
        long forkedRuns = s.calls.stream().filter(c -> c[2] == CallType.SYNC_ACQUIRE && c[0] != 0
                && releasedBy.getOrDefault(c[3] + "/" + c[4], (long) c[0]) != c[0]).count();
        assertTrue(forkedRuns > 0, "workers run tasks forked or submitted by another thread");
        long mainJoins = s.calls.stream().filter(c -> c[2] == CallType.SYNC_ACQUIRE && c[0] == 0
                && releasedBy.getOrDefault(c[3] + "/" + c[4], 0L) != 0).count();
        assertTrue(mainJoins > 0, "main's get waits for the end of the task a worker ran");
        long mainWait = s.calls.stream().filter(c -> c[0] == 0 && c[2] == CallType.SYNC_ACQUIRE)
                .mapToLong(c -> c[5]).sum();
        assertTrue(mainWait > 0, "main waits for the stream");
    }

    @Test
    void fullBoundedQueue_theProducerWaitsForTheTakeThatFreedItsSlot() throws Exception {
        Path agent = TraceCommand.findAgentJar();
        assumeTrue(agent != null, "agent jar not built");
        String name = dir.resolve("bh").toString();
        List<String> cmd = List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xbootclasspath/a:" + agent.toAbsolutePath(), "-javaagent:" + agent.toAbsolutePath()
                + "=level=2,name=" + name + ",quiet=true", "-cp",
                Paths.get("target", "test-classes").toAbsolutePath().toString(),
                org.dsmscope.tracedprog.BoundedHandOff.class.getName(), "200");
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the program ended");
        assertTrue(out.startsWith("check"), out);
        String set = name + ".2";
        JsonNode root = ciat(set);
        SyncCalls s = replayPaired(set, true);
        long slotWaits = s.calls.stream().filter(c -> c[0] == 0 && c[2] == CallType.SYNC_ACQUIRE && c[5] > 0)
                .count();
        long slotAcquires = s.calls.stream().filter(c -> c[0] == 0 && c[2] == CallType.SYNC_ACQUIRE).count();
        assertEquals(198, slotAcquires, "puts 3..200 acquire the slots takes 1..198 freed");
        assertTrue(slotWaits > 100, "the producer waits for most slots: " + slotWaits);
        assertTrue(waits(root)[0] > 0, "the producer's waits are imbalance: " + java.util.Arrays.toString(
                waits(root)));
    }
}
