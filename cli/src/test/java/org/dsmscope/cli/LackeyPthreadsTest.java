package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real pthreads program under Valgrind Lackey, end to end (issue 22 part 2, SPEC §2): {@code
 * lackey/producer-consumers.c} (a producer writes an array, a barrier, three consumers read it, a mutex-protected
 * counter) is compiled with gcc and run under {@code valgrind --tool=lackey --trace-mem=yes --trace-sched=yes} here,
 * imported with {@code dsmscope import lackey} (threads from the scheduler lines by default) and analysed with
 * {@code dsmscope ciat -p}; its RAW / WAR / WAW / RAR counts equal those of a simple reference written below,
 * which applies SPEC §5's definitions to the log's accesses in the log's own order. Skipped when gcc or valgrind
 * is missing (CI installs both).
 */
class LackeyPthreadsTest {
    @TempDir
    static Path dir;

    private static Path log;
    private static String syncList;

    @BeforeAll
    static void traceTheProgram() throws Exception {
        assumeTrue(runs("gcc", "--version") && runs("valgrind", "--version"),
                "gcc or valgrind is not installed: the Lackey end-to-end test needs both (apt-get install gcc valgrind)");
        Path src = dir.resolve("producer-consumers.c");
        try (InputStream in = LackeyPthreadsTest.class.getResourceAsStream("/lackey/producer-consumers.c")) {
            Files.copy(in, src);
        }
        Path exe = dir.resolve("producer-consumers");
        assertEquals("", exec("gcc", "-O1", "-pthread", "-o", exe.toString(), src.toString()));
        log = dir.resolve("pc.lackey");
        String out = exec("valgrind", "--tool=lackey", "--trace-mem=yes", "--trace-sched=yes",
                "--log-file=" + log, exe.toString());
        Matcher m = Pattern.compile("(?m)^sync (\\S+)$").matcher(out);
        assertTrue(m.find(), out);
        syncList = m.group(1);
    }

    private static boolean runs(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** Runs a command in {@link #dir}; returns its output, failing the test on a non-zero exit. */
    private static String exec(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", cmd) + " did not end");
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
        return out;
    }

    /** The reference's counts: RAW, WAR, WAW, RAR, accesses left out as synchronization, threads, switches. */
    record Counts(long raw, long war, long waw, long rar, long syncExcluded, int threads, long switches) {
    }

    private static final Pattern ACCESS = Pattern.compile("^(I | L| S| M) ([0-9a-f]+),([0-9]+)$");
    private static final Pattern SCHED = Pattern.compile("^--\\d+-- +SCHED\\[(\\d+)\\]:  acquired lock.*");
    private static final Pattern EXIT = Pattern.compile("^--\\d+-- +SCHED\\[(\\d+)\\]: release lock in VG_\\(exit_thread\\)");

    /**
     * SPEC §5 over the log in its own order, per byte: W the last writer, R the readers other than W since the
     * last store. A load by P is RAW if some byte was stored before by W ≠ P and P ∉ R, else RAR if some byte was
     * never stored and R holds another reader; a store is WAR if some byte's R \ {P} is non-empty, else WAW if some
     * byte's W exists and differs. Threads: a Valgrind id names a new thread after its thread exited. Accesses
     * starting at a byte of {@code sync} are left out.
     */
    static Counts reference(Path lackey, Set<Long> sync) throws IOException {
        Map<Long, Integer> writer = new HashMap<>();
        Map<Long, Set<Integer>> readers = new HashMap<>();
        Map<Integer, Integer> instance = new HashMap<>();
        Set<Integer> exited = new HashSet<>();
        long[] c = new long[5];
        int threads = 0;
        Integer cur = null;
        long switches = 0;
        try (BufferedReader in = Files.newBufferedReader(lackey, StandardCharsets.UTF_8)) {
            for (String l = in.readLine(); l != null; l = in.readLine()) {
                Matcher x = EXIT.matcher(l);
                if (x.matches()) {
                    exited.add(Integer.parseInt(x.group(1)));
                    continue;
                }
                Matcher s = SCHED.matcher(l);
                if (s.matches()) {
                    int tid = Integer.parseInt(s.group(1));
                    if (!instance.containsKey(tid) || exited.remove(tid)) {
                        instance.put(tid, threads++);
                    }
                    int next = instance.get(tid);
                    if (cur != null && cur != next) {
                        switches++;
                    }
                    cur = next;
                    continue;
                }
                Matcher a = ACCESS.matcher(l);
                if (!a.matches() || a.group(1).equals("I ")) {
                    continue;
                }
                if (cur == null) {
                    instance.put(1, threads++);
                    cur = 0;
                }
                long addr = Long.parseUnsignedLong(a.group(2), 16);
                int size = Integer.parseInt(a.group(3));
                String k = a.group(1).trim();
                if (!k.equals("S")) {
                    load(cur, addr, size, sync, writer, readers, c);
                }
                if (!k.equals("L")) {
                    store(cur, addr, size, sync, writer, readers, c);
                }
            }
        }
        return new Counts(c[0], c[1], c[2], c[3], c[4], threads, switches);
    }

    private static void load(int p, long a, int size, Set<Long> sync, Map<Long, Integer> writer,
            Map<Long, Set<Integer>> readers, long[] c) {
        if (sync.contains(a)) {
            c[4]++;
            return;
        }
        boolean raw = false;
        boolean rar = false;
        for (long b = a; b < a + size; b++) {
            Integer w = writer.get(b);
            Set<Integer> r = readers.computeIfAbsent(b, k -> new HashSet<>());
            if (w != null && w != p && !r.contains(p)) {
                raw = true;
            }
            if (w == null && !r.contains(p) && !r.isEmpty()) {
                rar = true;
            }
            if (w == null || w != p) {
                r.add(p);
            }
        }
        if (raw) {
            c[0]++;
        } else if (rar) {
            c[3]++;
        }
    }

    private static void store(int p, long a, int size, Set<Long> sync, Map<Long, Integer> writer,
            Map<Long, Set<Integer>> readers, long[] c) {
        if (sync.contains(a)) {
            c[4]++;
            return;
        }
        boolean war = false;
        boolean waw = false;
        for (long b = a; b < a + size; b++) {
            Integer w = writer.get(b);
            Set<Integer> r = readers.getOrDefault(b, Set.of());
            if (r.size() > (r.contains(p) ? 1 : 0)) {
                war = true;
            } else if (w != null && w != p) {
                waw = true;
            }
            writer.put(b, p);
            readers.remove(b);
        }
        if (war) {
            c[1]++;
        } else if (waw) {
            c[2]++;
        }
    }

    /** Imports the log (default options plus {@code extra}), runs {@code ciat -p}; returns the JSON's aggregate. */
    private static JsonNode importAndAnalyse(String name, int threads, String... extra) throws IOException {
        String prefix = dir.resolve(name).toString();
        List<String> args = new ArrayList<>(List.of("import", "lackey", log.toString(), "-o", prefix));
        args.addAll(List.of(extra));
        CiatCommandTest.Run r = CiatCommandTest.run(args.toArray(new String[0]));
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("into " + prefix + "." + threads + " (" + threads + " thread"
                + (threads == 1 ? ")" : "s)")), r.err());
        assertEquals(threads > 1, r.err().contains("analyse it with: dsmscope ciat -p " + prefix + "." + threads),
                r.err());
        Path json = dir.resolve(name + ".json");
        r = CiatCommandTest.run("ciat", "-p", "--json", json.toString(), prefix + "." + threads);
        assertEquals(0, r.status(), r.err());
        return new ObjectMapper().readTree(json.toFile());
    }

    private static void assertSameCounts(Counts ref, JsonNode comm) {
        String got = "RAW " + comm.get("raw") + " WAR " + comm.get("war") + " WAW " + comm.get("waw") + " RAR "
                + comm.get("rar") + " sync " + comm.get("syncExcluded");
        assertEquals("RAW " + ref.raw() + " WAR " + ref.war() + " WAW " + ref.waw() + " RAR " + ref.rar() + " sync "
                + ref.syncExcluded(), got);
    }

    /**
     * The import keeps Valgrind's interleaving (a hand-off pair per switch), so CIAT's communication is exactly the
     * log's. Before, the replay re-interleaved the threads by pseudo clock: RAW 60, WAR 645, WAW 66, RAR 238 against
     * the log's RAW 848, WAR 7, WAW 74, RAR 91 on this program (consumers read the array before the producer wrote
     * it, the halves of the locked read-modify-writes interleaved).
     */
    @Test
    void importedLog_hasExactlyTheCommunicationOfTheLogsOwnOrder() throws IOException {
        Counts ref = reference(log, Set.of());
        assertEquals(5, ref.threads(), "main, producer and three consumers");
        JsonNode j = importAndAnalyse("pc", 5);
        assertSameCounts(ref, j.get("aggregate").get("communication"));
        assertTrue(ref.raw() > 512, "every consumer reads what the producer wrote: " + ref);
        assertEquals(ref.switches(), j.get("recordedOrder").get("handoffs").asLong());
        assertEquals(0, j.get("recordedOrder").get("syncRanges").asLong());
        String report = Files.readString(dir.resolve("pc.5.ciat_report"));
        assertTrue(report.contains("\n# recorded_order: handoffs " + ref.switches() + ": the replay follows one"
                + " recorded interleaving"), report.substring(0, 600));
        assertTrue(report.contains("\n# sync_variables: named_ranges 0: none named: lock words count as ordinary"
                + " data"), report.substring(0, 600));
        for (JsonNode c : j.get("aggregate").get("concurrency").get("contention")) {
            assertEquals(0, c.asLong(), "no lock is recorded: no contention");
        }
    }

    /**
     * With the mutex and the barrier named ({@code --sync-addresses}, as the program prints them), accesses starting
     * in them are left out of communication, as seed 001 §5.1 does for synchronization variables; the counts still
     * equal the reference's with the same bytes left out.
     */
    @Test
    void namedSyncAddresses_areLeftOutOfCommunication_exactlyAsTheReferenceLeavesThemOut() throws IOException {
        Set<Long> sync = new HashSet<>();
        for (String item : syncList.split(",")) {
            String[] f = item.split("\\+");
            long base = Long.parseUnsignedLong(f[0].substring(2), 16);
            for (int i = 0; i < Integer.parseInt(f[1]); i++) {
                sync.add(base + i);
            }
        }
        Counts ref = reference(log, sync);
        assertTrue(ref.syncExcluded() > 0, "the mutex and barrier are accessed: " + ref);
        JsonNode j = importAndAnalyse("pcs", 5, "--sync-addresses", syncList);
        assertSameCounts(ref, j.get("aggregate").get("communication"));
        assertEquals(2, j.get("recordedOrder").get("syncRanges").asLong());
    }

    /** {@code --one-thread} still puts every record into one file: one thread, no communication, no hand-offs. */
    @Test
    void oneThread_isStillAvailable() throws IOException {
        JsonNode j = importAndAnalyse("one", 1, "--one-thread");
        JsonNode comm = j.get("aggregate").get("communication");
        assertEquals(0, comm.get("raw").asLong() + comm.get("war").asLong() + comm.get("waw").asLong()
                + comm.get("rar").asLong());
        assertTrue(j.get("recordedOrder") == null, j.toString().substring(0, 200));
    }
}
