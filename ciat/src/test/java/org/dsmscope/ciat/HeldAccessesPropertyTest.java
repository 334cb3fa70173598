package org.dsmscope.ciat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.ciat.comm.HeldAccesses;
import org.dsmscope.ciat.report.JsonReport;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;

/**
 * A serial run analyses its data accesses a batch at a time ({@link HeldAccesses}); with a communication event
 * listener it analyses each when it arrives. Both write the same bytes (report, memory usage file, event trace,
 * JSON) and the listener sees every event, on random streams longer than a batch that mix aligned words,
 * partial and page-crossing accesses, zero-byte stores, synchronization variables, instruction fetches on the data's
 * own pages (the first-thread marks that data and code share), calls and several phases.
 */
class HeldAccessesPropertyTest {

    @Property(tries = 60)
    void heldBatches_writeTheSameBytesAsAccessByAccess(@ForAll @IntRange(min = 1, max = 6) int threads,
            @ForAll long seed, @ForAll boolean events, @ForAll @IntRange(min = 0, max = 3) int fetchRate)
            throws IOException {
        Path dir = Files.createTempDirectory("ciat-held");
        try {
            String heldBase = dir.resolve("held." + threads).toString();
            String eachBase = dir.resolve("each." + threads).toString();
            CiatOptions ho = new CiatOptions();
            ho.events = events;
            Ciat held = new Ciat(ho);
            drive(seed, threads, fetchRate, held, heldBase);
            CiatOptions eo = new CiatOptions();
            eo.events = events;
            List<String> eachSeen = new ArrayList<>();
            eo.listener = (clock, type, cpu, degree, thread, address, size) ->
                    eachSeen.add(clock + " " + type + " " + cpu + " " + degree + " " + thread + " " + address);
            Ciat each = new Ciat(eo);
            drive(seed, threads, fetchRate, each, eachBase);
            for (String ext : events ? new String[] {".ciat_report", ".memory", ".ciat_events"}
                    : new String[] {".ciat_report", ".memory"}) {
                assertEquals(Files.readString(Path.of(eachBase + ext)), Files.readString(Path.of(heldBase + ext)),
                        ext);
            }
            assertEquals(JsonReport.toJson(each.result()), JsonReport.toJson(held.result()));
            // the listener saw each event the event trace holds
            if (events) {
                assertEquals(eachSeen.size(), Files.readAllLines(Path.of(heldBase + ".ciat_events")).size() - 2);
            }
        } finally {
            try (var s = Files.list(dir)) {
                s.forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
    }

    /** Random callbacks: phases of more accesses than a batch holds, on a few pages shared by data and code. */
    private static void drive(long seed, int threads, int fetchRate, Ciat c, String base) {
        SplittableRandom rnd = new SplittableRandom(seed);
        c.begin(new PartitionedTest.Ctx(threads, 0, 1, TraceSet.of(base, List.of())));
        long[] clock = new long[threads];
        PhaseTimes total = new PhaseTimes(threads);
        int phases = 1 + rnd.nextInt(3);
        for (int ph = 1; ph <= phases; ph++) {
            Phase phase = new Phase(ph, ph % 2 == 1 ? Phase.Kind.SERIAL : Phase.Kind.PARALLEL, 0, -1);
            c.phaseBegin(phase);
            int n = 100 + rnd.nextInt(HeldAccesses.CAPACITY * 4);
            for (int k = 0; k < n; k++) {
                int t = rnd.nextInt(threads);
                long cl = ++clock[t];
                long page = 4 + rnd.nextInt(3);
                int r = rnd.nextInt(100);
                if (r < fetchRate * 3) {
                    // code on the data's pages
                    c.fetch(t, t, cl, (page << 12) + 4L * rnd.nextInt(64), 4);
                    continue;
                }
                if (r < fetchRate * 3 + 2) {
                    CallEvent e = new CallEvent();
                    e.type = rnd.nextBoolean() ? CallType.FILE_READ : CallType.BEGIN_CRITICAL;
                    e.startTime = rnd.nextInt(1000);
                    e.endTime = e.startTime + rnd.nextInt(50);
                    e.arg1 = 0x5000;
                    e.arg2 = rnd.nextInt(4096);
                    c.call(t, t, cl, e);
                    continue;
                }
                int size;
                long address;
                if (r < 70) {
                    // aligned words and double words: the fused pass's short path
                    size = rnd.nextBoolean() ? 8 : 4;
                    address = (page << 12) + size * (long) rnd.nextInt(64);
                } else if (r < 95) {
                    int[] sizes = {1, 2, 3, 4, 8, 16, 32, 0};
                    size = sizes[rnd.nextInt(sizes.length)];
                    address = rnd.nextInt(5) == 0 ? (page << 12) - rnd.nextInt(12) : (page << 12) + rnd.nextInt(256);
                } else {
                    size = 4;
                    address = rnd.nextBoolean() ? 0x5000 : 0x4ffc; // a synchronization variable and its neighbour
                }
                boolean store = size == 0 || rnd.nextInt(3) == 0;
                int type = MemType.encode(store ? MemType.STORE : MemType.LOAD, size,
                        size >= 16 ? MemType.VECTOR : MemType.FIXED);
                c.access(t, t, cl, type, size, store, address);
            }
            PhaseTimes times = new PhaseTimes(threads);
            for (int t = 0; t < threads; t++) {
                times.busy[t] = clock[t];
            }
            total.add(times);
            phase.end(100L * ph);
            c.phaseEnd(phase, times);
        }
        c.end(new PartitionedTest.Ctx(threads, 0, 1, TraceSet.of(base, List.of())), total);
    }
}
