package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.tracedprog.RandomJuc;

/**
 * Issue 28's property: random {@code java.util.concurrent} programs ({@link RandomJuc}: bounded, synchronous and
 * transfer queues with random capacities and 1–2 producers and consumers, pools with submit / get, invokeAll and
 * invokeAny, {@code CompletableFuture}s, fork / join tasks, parallel streams, latches, semaphores, barriers,
 * park / unpark rings, exchangers) traced at level 2 by the real agent end within a timeout with their own check
 * passed (the agent neither changes a result nor deadlocks a program), and replay without a deadlock or a problem;
 * every acquire (type 24) names a release (type 23) that the replay delivered, once per object and number, at or
 * before the acquire's clock.
 */
class JucPropertyTest {

    @Property(tries = 10)
    void randomJucPrograms_keepTheirResults_andReplayEveryAcquireAfterItsRelease(@ForAll long seed)
            throws Exception {
        Path agent = TraceCommand.findAgentJar();
        if (agent == null) {
            return; // the agent jar is built by mvn package; the other end-to-end tests say so
        }
        Path dir = Files.createTempDirectory("jucprop");
        try {
            String name = dir.resolve("rj").toString();
            List<String> cmd = List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xbootclasspath/a:" + agent.toAbsolutePath(), "-javaagent:" + agent.toAbsolutePath()
                    + "=level=2,name=" + name + ",quiet=true", "-cp",
                    Paths.get("target", "test-classes").toAbsolutePath().toString(), RandomJuc.class.getName(),
                    Long.toString(seed));
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            boolean ended = p.waitFor(60, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly();
            }
            assertTrue(ended, "the traced program ended (seed " + seed + ")");
            assertEquals(0, p.exitValue(), out);
            assertTrue(out.startsWith("ok"), out);

            JucEndToEndTest.SyncCalls s = new JucEndToEndTest.SyncCalls();
            Replay r = new Replay(TraceSet.ofPrefix(set(dir)), null, new ReplayOptions()).add(s);
            r.run();
            assertEquals(List.of(), r.problems(), "seed " + seed + ": " + out);
            Map<String, long[]> releases = new HashMap<>();
            for (long[] c : s.calls) {
                if (c[2] == CallType.SYNC_RELEASE) {
                    assertEquals(null, releases.put(c[3] + "/" + c[4], c), "one release per object and number");
                }
            }
            for (long[] c : s.calls) {
                if (c[2] == CallType.SYNC_ACQUIRE && c[4] > 0) {
                    long[] rel = releases.get(c[3] + "/" + c[4]);
                    assertNotNull(rel, "seed " + seed + " (" + out.trim() + "): the release acquire " + c[3] + "/"
                            + c[4] + " names");
                    assertTrue(c[1] >= rel[1], "seed " + seed + ": acquired at clock " + c[1] + ", released at "
                            + rel[1]);
                }
            }
        } finally {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    /** The trace set the agent wrote in {@code dir}: {@code rj.P}. */
    private static String set(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            Path first = s.filter(f -> f.getFileName().toString().matches("rj\\.\\d+\\.0")).findFirst().orElseThrow();
            return first.toString().substring(0, first.toString().length() - 2);
        }
    }
}
