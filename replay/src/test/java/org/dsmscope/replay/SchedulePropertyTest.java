package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.replay.gen.ProcessGen;
import org.dsmscope.trace.TraceSet;

/**
 * Properties of every slice schedule, whatever the options: each trace's segments cover its instructions once and
 * in order, a processor runs one segment at a time, a trace runs on one processor at a time, the replay delivers
 * every access, and with {@code -a} a trace never changes processor.
 */
class SchedulePropertyTest {
    /** Five generated process traces of six 40-instruction slices with disk reads and writes, in {@code dir}. */
    static TraceSet randomProcesses(Path dir, long seed) throws IOException {
        ProcessGen.Params g = new ProcessGen.Params();
        g.processes = 5;
        g.slices = 6;
        g.sliceInstructions = 40;
        g.readRate = 0.3;
        g.writeRate = 0.2;
        g.seed = seed;
        return ProcessGen.write(dir, "s", g);
    }

    /**
     * {@code -i p} with the scheduler and I/O switches of {@code flags} (bits: -a, -rr_interleaving, -k, -handle_io,
     * -buffered_io, -distributed_io), 25-instruction slices and a fast disk.
     */
    static ReplayOptions schedulerOptions(int p, int flags) {
        ReplayOptions o = new ReplayOptions();
        o.interleave = p;
        o.affinity = (flags & 1) != 0;
        o.rrInterleaving = (flags & 2) != 0;
        o.keepLongSlices = (flags & 4) != 0;
        o.handleIo = (flags & 8) != 0;
        o.bufferedIo = (flags & 16) != 0;
        o.distributedIo = (flags & 32) != 0;
        o.sliceLength = 25;
        o.mhz = 1;
        o.ipc = 1;
        o.diskLatency = 0.05;
        return o;
    }

    @Property(tries = 25)
    void schedulesAreConsistent(@ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int p,
            @ForAll @IntRange(min = 0, max = 63) int flags) throws IOException {
        Path dir = Files.createTempDirectory("sched");
        try {
            TraceSet set = randomProcesses(dir, seed);
            ReplayOptions o = schedulerOptions(p, flags);
            Recorder r = new Recorder();
            Replay rp = new Replay(set, null, o).add(r);
            rp.run();
            SliceScheduler.Schedule s = rp.schedule();
            int n = set.size();
            List<long[]>[] byTrace = segmentsByTrace(s, n);
            for (int t = 0; t < n; t++) {
                long at = 0;
                byTrace[t].sort((a, b) -> Long.compare(a[2], b[2]) != 0 ? Long.compare(a[2], b[2])
                        : Long.compare(a[0], b[0]));
                long busyUntil = -1;
                int cpu = -1;
                for (long[] seg : byTrace[t]) {
                    assertEquals(at, seg[0], "trace " + t + " segments in order\n" + s);
                    at = seg[1];
                    assertTrue(seg[2] >= busyUntil, "trace " + t + " on one processor at a time\n" + s);
                    busyUntil = seg[2] + (seg[1] - seg[0]);
                    if (o.affinity && !o.rrInterleaving && seg[1] > seg[0]) {
                        assertTrue(cpu < 0 || cpu == seg[3], "affinity\n" + s);
                        cpu = (int) seg[3];
                    }
                }
            }
            for (int c = 0; c < p; c++) {
                long free = 0;
                for (int k = 0; k < s.segments(c); k++) {
                    assertTrue(s.start(c, k) >= free, "processor " + c + " runs one segment at a time\n" + s);
                    free = s.start(c, k) + s.to(c, k) - s.from(c, k);
                }
            }
            long accesses = 0;
            for (long[][] t : new long[][][] {r.total}) {
                for (long b : t[0]) {
                    accesses += b;
                }
            }
            assertEquals(accesses, r.accesses.size(), "every access replayed once");
        } finally {
            ClockOrderPropertyTest.delete(dir);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<long[]>[] segmentsByTrace(SliceScheduler.Schedule s, int n) {
        List<long[]>[] out = new List[n];
        for (int t = 0; t < n; t++) {
            out[t] = new ArrayList<>();
        }
        for (int c = 0; c < s.processors(); c++) {
            for (int k = 0; k < s.segments(c); k++) {
                out[s.trace(c, k)].add(new long[] {s.from(c, k), s.to(c, k), s.start(c, k), c});
            }
        }
        return out;
    }
}
