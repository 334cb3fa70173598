package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 item 9: per-thread state costs what the thread touched. A 6,000-thread import of one access per thread
 * (half on a page of their own, as a stack is; half writing and reading a shared array) is analysed by the real
 * {@code ciat} and {@code explain} commands in a 256 MB heap (a fresh JVM with {@code -Xmx256m}); before, CIAT's
 * wide location layout alone took 3 MiB per touched page and the run needed more than 1 GB.
 */
@Timeout(600)
class ManyThreadsHeapTest {
    static final int THREADS = 6000;

    @TempDir
    Path dir;

    /** A Lackey log: thread t's one access, t = 1..THREADS, one scheduler switch before each. */
    private Path lackeyLog() throws IOException {
        Path log = dir.resolve("many.lackey");
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.US_ASCII))) {
            for (int t = 1; t <= THREADS; t++) {
                w.println("--9--   SCHED[" + t + "]:  acquired lock (x)");
                if (t <= THREADS / 2) {
                    w.printf(" S %x,8%n", 0x1fff000000L - t * 0x10000L); // a page of its own
                } else if (t % 2 == 1) {
                    w.printf(" S %x,8%n", 0x10000L + t * 8L); // a shared array: odd threads write ...
                } else {
                    w.printf(" L %x,8%n", 0x10000L + (t - 1) * 8L); // ... and even threads read what they wrote
                }
            }
        }
        return log;
    }

    /** Runs {@code dsmscope ARGS} in a fresh JVM with a 256 MB heap; returns {exit status, output}. */
    private static Object[] run256(Path cwd, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "finished");
        return new Object[] {p.exitValue(), out};
    }

    @Test
    void sixThousandThreadsOfOneAccess_analyseInA256MbHeap() throws Exception {
        Path log = lackeyLog();
        String name = dir.resolve("many").toString();
        CiatCommandTest.Run imp = CiatCommandTest.run("import", "lackey", log.toString(), "-o", name);
        assertEquals(0, imp.status(), imp.err());
        String set = name + "." + THREADS;

        Object[] ciat = run256(dir, "ciat", "-p", set);
        assertEquals(0, ciat[0], (String) ciat[1]);
        int half = THREADS / 2;
        assertTrue(((String) ciat[1]).contains("ciat: " + THREADS + " threads, 1 phases, " + half / 2 + " loads, "
                + (half + half / 2) + " stores; RAW " + half / 2 + " WAR 0 WAW 0 RAR 0"), (String) ciat[1]);
        List<String> memory = Files.readAllLines(Path.of(set + ".memory"));
        // the private pages, one per thread, each owned by its thread; the shared array's pages shared
        assertEquals(half, memory.stream().filter(l -> !l.startsWith("#") && !l.endsWith(" -1")).count());

        Object[] explain = run256(dir, "explain", "-p", set);
        assertEquals(0, explain[0], (String) explain[1]);
    }
}
