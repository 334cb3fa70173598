package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.tracedprog.RandomSync;

/**
 * Issue 22's property: random lock / wait / notify programs ({@link RandomSync}: nested monitors, timed and untimed
 * waits, notify and notifyAll, a lock with a condition, a read-write lock) traced by the real agent always replay
 * without a deadlock; the replay grants every lock in the recorded order (argument 3 counts 1, 2, … in the order of
 * the grants' clocks; readers let in together at one clock are ordered by their numbers), and each lock's exclusive
 * acquisitions come in the order the program itself logged while holding it.
 */
class LockOrderPropertyTest {

    @Property(tries = 10)
    void randomSyncPrograms_replayInTheOrderTheRunTookTheLocks(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 2) int level) throws Exception {
        Path agent = TraceCommand.findAgentJar();
        if (agent == null) {
            return; // the agent jar is built by mvn package; the other end-to-end tests say so
        }
        Path dir = Files.createTempDirectory("lockorder");
        try {
            String name = dir.resolve("rs").toString();
            List<String> cmd = List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xbootclasspath/a:" + agent.toAbsolutePath(), "-javaagent:" + agent.toAbsolutePath() + "=level="
                    + level + ",name=" + name + ",quiet=true", "-cp",
                    Paths.get("target", "test-classes").toAbsolutePath().toString(), RandomSync.class.getName(),
                    Long.toString(seed));
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the program ended");
            assertEquals(0, p.exitValue(), out);
            List<String> logged = new ArrayList<>();
            for (String line : out.split("\n")) {
                String[] f = line.split(" ", 3);
                if (f.length == 3) {
                    logged.add(f[2]);
                }
            }

            Grants g = new Grants();
            new Replay(TraceSet.ofPrefix(set(dir)), null, new ReplayOptions()).add(g).run();
            List<String> replayed = new ArrayList<>();
            for (Map.Entry<Long, List<long[]>> e : g.grants.entrySet()) {
                StringBuilder threads = new StringBuilder();
                // by grant clock; readers let in together at one clock may be delivered in either order
                List<long[]> s = new ArrayList<>(e.getValue());
                s.sort(java.util.Comparator.<long[]>comparingLong(x -> x[3]).thenComparingLong(x -> x[1]));
                for (int i = 0; i < s.size(); i++) {
                    assertEquals(i + 1, s.get(i)[1], "lock 0x" + Long.toHexString(e.getKey()) + ": granted in the"
                            + " recorded order (seed " + seed + ")");
                    if (s.get(i)[2] == 0) {
                        threads.append(threads.length() == 0 ? "" : " ").append(s.get(i)[0]);
                    }
                }
                if (threads.length() > 0) {
                    replayed.add(threads.toString());
                }
            }
            assertEquals(logged.stream().sorted().toList(), replayed.stream().sorted().toList(),
                    "each lock's exclusive acquisitions in the run's order (seed " + seed + ")");
        } finally {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    /** The trace set the agent wrote in {@code dir}: {@code rs.P}. */
    private static String set(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            Path first = s.filter(f -> f.getFileName().toString().matches("rs\\.\\d+\\.0")).findFirst().orElseThrow();
            return first.toString().substring(0, first.toString().length() - 2);
        }
    }

    /** Per lock address, its begin-critical calls as delivered: {thread, argument 3, argument 2 (mode), clock}. */
    static final class Grants implements Analysis {
        final Map<Long, List<long[]>> grants = new TreeMap<>();

        @Override
        public void call(int thread, int cpu, long clock, CallEvent call) {
            if (call.type == CallType.BEGIN_CRITICAL) {
                grants.computeIfAbsent(call.arg1, k -> new ArrayList<>()).add(new long[] {thread, call.arg3,
                    call.arg2, clock});
            }
        }
    }
}
