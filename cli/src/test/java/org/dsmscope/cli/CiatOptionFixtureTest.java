package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One fixture per seed 000 Appendix B option, run end to end through {@code dsmscope ciat}: each option changes a
 * documented CIAT result. The schedules these traces get are the replay's documented ones (replay module README,
 * its SliceSchedulerTest); here they show up in CIAT's figures.
 */
class CiatOptionFixtureTest {
    private static final long A = 0x1000;
    private static final long X = 0x9000;

    @TempDir
    Path dir;

    /** Writes one trace file's records. */
    interface Body {
        void write(TraceWriter w);
    }

    private static void loads(TraceWriter w, int n, long addr, boolean sameWord) {
        for (int i = 0; i < n; i++) {
            w.memory(MemType.LOAD, 4, MemType.FIXED, sameWord ? addr : addr + 4L * i);
        }
    }

    private static void semop(TraceWriter w, long start, long end) {
        w.call(CallType.SEMOP, start, end, 7, 0, -1, 0);
    }

    private String traces(String name, Body... bodies) throws IOException {
        String base = dir.resolve(name + "." + bodies.length).toString();
        for (int t = 0; t < bodies.length; t++) {
            try (TraceWriter w = TraceWriter.create(Path.of(base + "." + t), TraceWriter.Options.classic())) {
                bodies[t].write(w);
            }
        }
        return base;
    }

    private JsonNode ciat(String base, String... options) throws IOException {
        Path json = dir.resolve("out" + System.nanoTime() + ".json");
        List<String> args = new ArrayList<>(List.of("ciat", "--json", json.toString()));
        args.addAll(List.of(options));
        args.add(base);
        picocli.CommandLine cl = Main.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        cl.setOut(new PrintWriter(new StringWriter()));
        int st = cl.execute(args.toArray(new String[0]));
        assertEquals(0, st, String.join(" ", args) + ": " + err);
        return new ObjectMapper().readTree(json.toFile());
    }

    private static long raw(JsonNode root) {
        return root.get("aggregate").get("communication").get("raw").asLong();
    }

    private static long endClock(JsonNode root) {
        return root.get("aggregate").get("endClock").asLong();
    }

    /** Accesses with a finite age above 4 bytes (the global stream interleaved differently). */
    private static long agesAbove4(JsonNode root) {
        JsonNode a = root.get("aggregate").get("accessAge");
        long finite = a.get("accesses").asLong() - a.get("infinite").asLong();
        long le4 = 0;
        for (JsonNode e : a.get("cdf")) {
            if (e.get("bytes").asLong() == 4) {
                le4 = e.get("accesses").asLong();
            }
        }
        return finite - le4;
    }

    @Test
    void p_startsInAParallelPhase() throws IOException {
        String base = traces("par", w -> { w.memory(MemType.STORE, 4, MemType.FIXED, X); loads(w, 20, A, false); },
            w -> { loads(w, 10, A + 0x1000, false); w.memory(MemType.LOAD, 4, MemType.FIXED, X); });
        JsonNode r = ciat(base, "-p");
        assertEquals("parallel", r.get("phases").get(0).get("kind").asText());
        assertEquals(1, raw(r), "thread 1 reads what thread 0 stored");
    }

    @Test
    void i_interleavesTracesOnFewerProcessors_soNoInterProcessorCommunication() throws IOException {
        Body producer = w -> { w.memory(MemType.STORE, 4, MemType.FIXED, X); loads(w, 20, A, false); };
        Body consumer = w -> { loads(w, 30, A + 0x1000, false); w.memory(MemType.LOAD, 4, MemType.FIXED, X); };
        String base = traces("il", producer, consumer);
        JsonNode two = ciat(base, "-i", "2");
        JsonNode one = ciat(base, "-i", "1");
        assertEquals(2, two.get("processors").asInt());
        assertEquals(1, raw(two));
        assertEquals(1, one.get("processors").asInt());
        assertEquals(0, raw(one), "both processes on processor 0");
    }

    /** Three processes on two processors (replay SliceSchedulerTest): process 0 migrates between its slices. */
    private String threeProcesses(String name) throws IOException {
        return traces(name,
            w -> { w.memory(MemType.STORE, 4, MemType.FIXED, X); loads(w, 99, A, false); semop(w, 10, 11);
                w.memory(MemType.LOAD, 4, MemType.FIXED, X); loads(w, 99, A, false); semop(w, 20, 21); },
            w -> { loads(w, 50, 0x2000, false); semop(w, 5, 6); loads(w, 200, 0x2000, false); semop(w, 30, 31); },
            w -> { loads(w, 30, 0x3000, false); semop(w, 3, 4); loads(w, 30, 0x3000, false); semop(w, 12, 13); });
    }

    @Test
    void a_keepsAProcessOnItsProcessor_soItsOwnDataDoesNotMigrate() throws IOException {
        String base = threeProcesses("aff");
        JsonNode greedy = ciat(base, "-i", "2");
        JsonNode affinity = ciat(base, "-i", "2", "-a");
        assertEquals(1, raw(greedy), "process 0 stored X on processor 0 and reloads it on processor 1");
        assertEquals(1, greedy.get("aggregate").get("communication").get("matrix").get(0).get(1).asLong());
        assertEquals(0, raw(affinity));
    }

    @Test
    void rrInterleaving_placesTraceIOnProcessorIModP() throws IOException {
        String base = threeProcesses("rr");
        JsonNode rr = ciat(base, "-i", "2", "-rr_interleaving");
        assertEquals(0, raw(rr), "process 0 always on processor 0");
        JsonNode rr1 = ciat(base, "-i", "1", "-rr_interleaving");
        assertEquals(1, rr1.get("processors").asInt());
    }

    /** Trace 0: 250 loads of one word; trace 1: 100 loads of distinct words. */
    private String longSlice(String name) throws IOException {
        return traces(name, w -> loads(w, 250, A, true), w -> loads(w, 100, 0x8000, false));
    }

    @Test
    void s_splitsALongSlice_soAnotherProcessRunsInBetween() throws IOException {
        String base = longSlice("sl");
        JsonNode whole = ciat(base, "-i", "1", "--age-scope", "global");
        JsonNode split = ciat(base, "-i", "1", "-s", "100", "--age-scope", "global");
        assertEquals(0, agesAbove4(whole), "trace 0 runs its 250 loads back to back");
        assertEquals(1, agesAbove4(split), "trace 1's 100 words ran between trace 0's loads 100 and 101");
    }

    @Test
    void k_keepsLongSlicesScheduled() throws IOException {
        String base = longSlice("kk");
        JsonNode kept = ciat(base, "-i", "1", "-s", "100", "-k", "--age-scope", "global");
        assertEquals(0, agesAbove4(kept));
    }

    /** Trace 0 reads (or writes) a file between two halves of 50 loads of one word; trace 1 loads 100 words. */
    private String reader(String name, int type, long bytes) throws IOException {
        return traces(name,
            w -> { loads(w, 50, A, true); w.call(type, 1, 2, 0x8000, bytes, 3, 0); loads(w, 50, A, true); },
            w -> loads(w, 100, 0x8000, false));
    }

    @Test
    void handleIo_withDiskLatency_swapsTheReaderOut() throws IOException {
        String base = reader("io", CallType.FILE_READ, 4096);
        JsonNode plain = ciat(base, "-i", "1", "--age-scope", "global", "-mhz", "1", "-ipc", "1");
        JsonNode io = ciat(base, "-i", "1", "--age-scope", "global", "-mhz", "1", "-ipc", "1", "-handle_io",
                "-disk_latency", "10");
        assertEquals(0, agesAbove4(plain));
        assertEquals(1, agesAbove4(io), "trace 1 ran while trace 0 waited for its read");
        assertTrue(endClock(io) > endClock(plain) + 10_000, io.get("aggregate").get("endClock") + " vs "
                + plain.get("aggregate").get("endClock"));
    }

    @Test
    void diskLatency_dmaBw_ipc_mhz_changeTheTimeAProcessWaitsForIo() throws IOException {
        String base = reader("lat", CallType.FILE_READ, 4096);
        String[] io = {"-i", "1", "-handle_io"};
        long base10 = endClock(ciat(base, cat(io, "-mhz", "1", "-ipc", "1", "-disk_latency", "10")));
        long lat20 = endClock(ciat(base, cat(io, "-mhz", "1", "-ipc", "1", "-disk_latency", "20")));
        long bw40 = endClock(ciat(base, cat(io, "-mhz", "1", "-ipc", "1", "-disk_latency", "10", "-dma_bw", "40")));
        long ipc2 = endClock(ciat(base, cat(io, "-mhz", "1", "-ipc", "2", "-disk_latency", "10")));
        long mhz2 = endClock(ciat(base, cat(io, "-mhz", "2", "-ipc", "1", "-disk_latency", "10")));
        assertEquals(10_000, lat20 - base10, "10 ms more at 1 MHz, IPC 1");
        assertTrue(bw40 < base10, "4096 B move faster at 40 MB/s");
        assertTrue(ipc2 > base10 + 9_000, "the same wait is twice the instructions at IPC 2");
        assertTrue(mhz2 > base10 + 9_000, "and at 2 MHz");
    }

    @Test
    void asynchIo_neverSwapsOut() throws IOException {
        String base = reader("as", CallType.FILE_READ, 4096);
        JsonNode r = ciat(base, "-i", "1", "--age-scope", "global", "-mhz", "1", "-ipc", "1", "-handle_io",
                "-asynch_io");
        assertEquals(0, agesAbove4(r));
    }

    @Test
    void bufferedIo_writesDoNotSwapOut() throws IOException {
        String base = reader("bw", CallType.FILE_WRITE, 4096);
        JsonNode raw = ciat(base, "-i", "1", "--age-scope", "global", "-mhz", "1", "-ipc", "1", "-handle_io");
        JsonNode buffered = ciat(base, "-i", "1", "--age-scope", "global", "-mhz", "1", "-ipc", "1", "-handle_io",
                "-buffered_io");
        assertEquals(1, agesAbove4(raw), "a raw write blocks the writer");
        assertEquals(0, agesAbove4(buffered));
    }

    @Test
    void distributedIo_overlapsTransfersThatCenteredIoSerializes() throws IOException {
        Body big = w -> { loads(w, 10, A, true); w.call(CallType.FILE_READ, 1, 2, 0x8000, 2_000_000, 3, 0);
            loads(w, 10, A, true); };
        String base = traces("dist", big, big);
        String[] io = {"-i", "2", "-handle_io", "-mhz", "1", "-ipc", "1"};
        long centered = endClock(ciat(base, io));
        long distributed = endClock(ciat(base, cat(io, "-distributed_io")));
        assertTrue(distributed < centered, distributed + " < " + centered);
    }

    @Test
    void ciatEvents_ageOptions_busy1_json_change_theirOutputs() throws IOException {
        String base = traces("misc", w -> { w.memory(MemType.STORE, 4, MemType.FIXED, X); loads(w, 20, A, false); },
            w -> { loads(w, 30, A + 0x1000, false); w.memory(MemType.LOAD, 4, MemType.FIXED, X); });
        JsonNode g = ciat(base, "-p", "--age-scope", "global", "--age-granularity", "64", "--busy1", "50",
                "-ciat_events");
        assertEquals("global", g.get("aggregate").get("accessAge").get("scope").asText());
        assertEquals(64, g.get("aggregate").get("accessAge").get("granularity").asInt());
        assertTrue(g.get("aggregate").get("concurrency").get("speedup").isNumber());
        assertTrue(Files.readString(Path.of(base + ".ciat_events")).contains(" RAW 1 0\n"));
        JsonNode s = ciat(base, "-p", "--sample", "0.5");
        assertEquals(0.5, s.get("aggregate").get("accessAge").get("sample").asDouble());
    }

    private static String[] cat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
