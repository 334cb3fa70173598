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
import org.dsmscope.ciat.age.AccessAge;
import org.dsmscope.ciat.report.JsonReport;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceSet;

/**
 * A partitioned replay's merged CIAT results equal a serial run's, byte for byte: report, memory usage file,
 * event trace and JSON, on random multi-thread streams with page-crossing accesses, synchronization variables,
 * fetches and several phases.
 */
class PartitionedTest {

    /** A context for partition {@code part} of {@code parts}. */
    static final class Ctx implements ReplayContext {
        final int threads;
        final int part;
        final int parts;
        final TraceSet set;

        Ctx(int threads, int part, int parts, TraceSet set) {
            this.threads = threads;
            this.part = part;
            this.parts = parts;
            this.set = set;
        }

        @Override
        public int threads() {
            return threads;
        }

        @Override
        public int processors() {
            return threads;
        }

        @Override
        public TraceSet traces() {
            return set;
        }

        @Override
        public boolean isSyncVariable(long address) {
            return address == 0x5000 || address == 0x9ffc;
        }

        @Override
        public long clock(int thread) {
            return 0;
        }

        @Override
        public int partition() {
            return part;
        }

        @Override
        public int partitions() {
            return parts;
        }
    }

    /** Feeds the same random callbacks (accesses, fetches, branches, calls, phases) to every analysis. */
    static void drive(long seed, int threads, List<Analysis> an, List<ReplayContext> ctx) {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < an.size(); i++) {
            an.get(i).begin(ctx.get(i));
        }
        long[] clock = new long[threads];
        PhaseTimes total = new PhaseTimes(threads);
        int phases = 1 + rnd.nextInt(3);
        for (int ph = 1; ph <= phases; ph++) {
            Phase phase = new Phase(ph, ph % 2 == 1 ? Phase.Kind.SERIAL : Phase.Kind.PARALLEL, 0, -1);
            for (Analysis a : an) {
                a.phaseBegin(phase);
            }
            int n = 200 + rnd.nextInt(600);
            for (int k = 0; k < n; k++) {
                int t = rnd.nextInt(threads);
                long c = ++clock[t];
                if (rnd.nextInt(25) == 0) {
                    int[] kinds = {RecordKind.BRANCH, RecordKind.PROC_CALL, RecordKind.PROC_START};
                    int kind = kinds[rnd.nextInt(3)];
                    long target = 0x400000 + 4L * rnd.nextInt(16);
                    for (Analysis a : an) {
                        a.branch(t, t, c, kind, target + 4, target);
                    }
                    continue;
                }
                if (rnd.nextInt(30) == 0) {
                    CallEvent e = new CallEvent();
                    e.type = rnd.nextBoolean() ? CallType.FILE_READ : CallType.BEGIN_CRITICAL;
                    e.startTime = rnd.nextInt(1000);
                    e.endTime = e.startTime + rnd.nextInt(50);
                    e.arg1 = 0x5000;
                    e.arg2 = rnd.nextInt(4096);
                    e.waitClocks = rnd.nextInt(3);
                    for (Analysis a : an) {
                        a.call(t, t, c, e);
                    }
                    continue;
                }
                if (rnd.nextInt(10) == 0) {
                    long pc = 0x400000 + 4L * rnd.nextInt(2048);
                    for (Analysis a : an) {
                        a.fetch(t, t, c, pc, 4);
                    }
                    continue;
                }
                int[] sizes = {1, 2, 4, 8, 16, 0};
                int size = sizes[rnd.nextInt(sizes.length)];
                boolean store = size == 0 || rnd.nextInt(3) == 0;
                long page = 1 + rnd.nextInt(10);
                long address = rnd.nextInt(4) == 0 ? (page << 12) - rnd.nextInt(12) : (page << 12) + rnd.nextInt(64);
                if (rnd.nextInt(40) == 0) {
                    address = 0x5000;
                }
                int type = MemType.encode(store ? MemType.STORE : MemType.LOAD, size,
                        size == 16 ? MemType.VECTOR : MemType.FIXED);
                for (Analysis a : an) {
                    a.access(t, t, c, type, size, store, address);
                }
            }
            PhaseTimes times = new PhaseTimes(threads);
            for (int t = 0; t < threads; t++) {
                times.busy[t] = clock[t];
            }
            total.add(times);
            phase.end(100L * ph);
            for (Analysis a : an) {
                a.phaseEnd(phase, times);
            }
        }
        for (int i = 0; i < an.size(); i++) {
            an.get(i).end(ctx.get(i), total);
        }
    }

    /**
     * Without a work profile (as live streams run) the pages are dealt after {@code planAt} accesses from what those
     * touched ({@link CiatOptions#livePlanAt}): before the first access, during any phase, or never (the drive
     * makes at most 2,400 accesses).
     */
    @Property(tries = 40)
    void partitionedRun_equalsSerialRun(@ForAll @IntRange(min = 2, max = 3) int parts,
            @ForAll @IntRange(min = 1, max = 4) int threads, @ForAll long seed, @ForAll boolean global,
            @ForAll @IntRange(min = 0, max = 2500) int planAt)
            throws IOException {
        Path dir = Files.createTempDirectory("ciat-part");
        try {
            String serialBase = dir.resolve("serial." + threads).toString();
            String partBase = dir.resolve("part." + threads).toString();
            CiatOptions o = new CiatOptions();
            o.events = true;
            o.ageScope = global ? AccessAge.Scope.GLOBAL : AccessAge.Scope.THREAD;
            Ciat serial = new Ciat(o);
            drive(seed, threads, List.of(serial),
                    List.of(new Ctx(threads, 0, 1, TraceSet.of(serialBase, List.of()))));
            List<Analysis> an = new ArrayList<>();
            List<ReplayContext> ctx = new ArrayList<>();
            List<Ciat> cs = new ArrayList<>();
            for (int k = 0; k < parts; k++) {
                CiatOptions po = new CiatOptions();
                po.events = true;
                po.ageScope = o.ageScope;
                po.livePlanAt = planAt;
                Ciat c = new Ciat(po);
                cs.add(c);
                an.add(c);
                ctx.add(new Ctx(threads, k, parts, TraceSet.of(partBase, List.of())));
            }
            drive(seed, threads, an, ctx);
            List<Path> written = new ArrayList<>();
            CiatResult merged = Partitioned.mergeAndWrite(cs, ctx.get(0), written);
            assertEquals(JsonReport.toJson(serial.result()), JsonReport.toJson(merged));
            for (String ext : new String[] {".ciat_report", ".memory", ".ciat_events"}) {
                assertEquals(Files.readString(Path.of(serialBase + ext)), Files.readString(Path.of(partBase + ext)),
                        ext);
            }
        } finally {
            try (var s = Files.list(dir)) {
                s.forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
    }
}
