package org.dsmscope.ciat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.ciat.age.AccessAge;
import org.dsmscope.ciat.report.JsonReport;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;

/**
 * The parallel mode (one replay, CIAT's work on worker threads) writes exactly a serial run's bytes: report,
 * memory usage file, event trace and JSON, on random multi-thread streams with page-crossing accesses,
 * synchronization variables, fetches, branches, calls and several phases; with tiny batches and pools so that
 * batch boundaries, recycling and back-pressure are exercised on every run.
 */
class ParallelCiatTest {

    @Property(tries = 40)
    void parallelRun_writesTheSameBytesAsASerialRun(@ForAll @IntRange(min = 2, max = 3) int workers,
            @ForAll @IntRange(min = 1, max = 5) int threads, @ForAll long seed, @ForAll boolean global,
            @ForAll @IntRange(min = 2, max = 300) int batch, @ForAll @IntRange(min = 1, max = 4) int batches,
            @ForAll boolean events)
            throws IOException {
        Path dir = Files.createTempDirectory("ciat-par");
        try {
            String serialBase = dir.resolve("serial." + threads).toString();
            String parBase = dir.resolve("par." + threads).toString();
            Ciat serial = new Ciat(options(global, null, events));
            PartitionedTest.drive(seed, threads, List.of(serial),
                    List.of(new PartitionedTest.Ctx(threads, 0, 1, TraceSet.of(serialBase, List.of()))));
            Path sj = dir.resolve("s.json");
            JsonReport.write(serial.result(), sj);
            Path pj = dir.resolve("p.json");
            ParallelCiat par = new ParallelCiat(options(global, pj, events), workers, batch, batches);
            try (par) {
                PartitionedTest.drive(seed, threads, List.of(par),
                        List.of(new PartitionedTest.Ctx(threads, 0, 1, TraceSet.of(parBase, List.of()))));
            }
            for (String ext : events ? new String[] {".ciat_report", ".memory", ".ciat_events"}
                    : new String[] {".ciat_report", ".memory"}) {
                assertEquals(Files.readString(Path.of(serialBase + ext)), Files.readString(Path.of(parBase + ext)),
                        ext);
            }
            assertEquals(Files.readString(sj), Files.readString(pj));
            assertEquals(JsonReport.toJson(serial.result()), JsonReport.toJson(par.result()));
            assertEquals(Path.of(parBase + ".ciat_report"), par.written().get(0));
        } finally {
            try (var s = Files.list(dir)) {
                s.forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
    }

    private static CiatOptions options(boolean global, Path json, boolean events) {
        CiatOptions o = new CiatOptions();
        o.events = events;
        o.json = json;
        o.ageScope = global ? AccessAge.Scope.GLOBAL : AccessAge.Scope.THREAD;
        return o;
    }

    @Test
    void closeWithoutEnd_stopsTheWorkers() throws Exception {
        CiatOptions o = new CiatOptions();
        o.writeFiles = false;
        ParallelCiat par = new ParallelCiat(o, 2, 4, 2);
        par.begin(new PartitionedTest.Ctx(2, 0, 1, TraceSet.of("unused", List.of())));
        for (int i = 0; i < 100; i++) {
            par.access(i % 2, i % 2, i, 0, 4, i % 3 == 0, 0x1000 + 4L * i);
        }
        par.close();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            assertTrue(!t.getName().startsWith("ciat-worker-") || !t.isAlive(), t.getName() + " still running");
        }
    }
}
