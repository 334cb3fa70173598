package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.replay.gen.ProcessGen;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The routed partitioned replay of process traces ({@code -i p}: {@link Replay#runRouted} with the slice engine,
 * module README "Partitioned replay"): every partition makes the serial run's scheduling decisions with the
 * accesses it was not given running as gaps (a slice boundary may fall inside one, a stopped process's are passed
 * one record at a time), so it gets exactly the serial run's accesses the router gave it, with their clocks,
 * processors and access numbers, and the serial run's calls, waits, processor idle times, I/O and phases.
 */
class RoutedSliceTest {
    @TempDir
    Path dir;

    /**
     * What a partition sees, as {@link RoutedReplayTest.Seen} logs it, plus the processor of every access it is
     * given, its processor idle intervals and its disk I/O.
     */
    static final class OnCpus implements Analysis {
        final RoutedReplayTest.Seen seen = new RoutedReplayTest.Seen();
        final List<Integer> cpus = new ArrayList<>();

        @Override
        public void begin(ReplayContext c) {
            seen.begin(c);
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            seen.access(thread, cpu, clock, memType, size, store, address);
            cpus.add(cpu);
        }

        @Override
        public void skipped(int thread, long clock, int count, long bytes) {
            seen.skipped(thread, clock, count, bytes);
        }

        @Override
        public void call(int thread, int cpu, long clock, CallEvent call) {
            seen.call(thread, cpu, clock, call);
            seen.other.add("on " + cpu);
        }

        @Override
        public void waited(int thread, int cpu, long from, long to, int reason) {
            seen.waited(thread, cpu, from, to, reason);
            seen.other.add("on " + cpu);
        }

        @Override
        public void processorIdle(int cpu, long from, long to) {
            seen.other.add("I " + cpu + " " + from + " " + to);
        }

        @Override
        public void io(int thread, int cpu, int ioProcessor, long clock, boolean read, long address, long bytes) {
            seen.other.add("IO " + thread + " " + cpu + " " + ioProcessor + " " + clock + " " + read + " "
                    + Long.toHexString(address) + " " + bytes);
        }

        @Override
        public void phaseBegin(Phase phase) {
            seen.phaseBegin(phase);
        }

        @Override
        public void phaseEnd(Phase phase, PhaseTimes times) {
            seen.phaseEnd(phase, times);
        }

        @Override
        public void end(ReplayContext c, PhaseTimes total) {
            seen.end(c, total);
        }
    }

    /**
     * A router that gives each partition each trace's accesses with a density of its own (none, sparse, dense or
     * all, decided per address), so that gaps are long, short, span slice boundaries or make up a whole trace.
     */
    static Replay.Router byDensity(SplittableRandom rnd, int traces, int parts) {
        double[] densities = {0, 0.01, 0.2, 0.7, 1};
        double[][] density = new double[traces][parts];
        for (double[] row : density) {
            for (int k = 0; k < parts; k++) {
                row[k] = densities[rnd.nextInt(densities.length)];
            }
        }
        return RoutedReplayTest.byDensity(density, rnd.nextLong());
    }

    @Property(tries = 60)
    void processTraces_routed_seeTheSerialRunsAccessesClocksProcessorsAndWaits(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 6) int processes, @ForAll @IntRange(min = 1, max = 4) int p,
            @ForAll @IntRange(min = 0, max = 63) int flags, @ForAll @IntRange(min = 0, max = 3) int partsIndex,
            @ForAll boolean tiny, @ForAll boolean byDensity) throws IOException {
        int parts = new int[] {2, 3, 7, 16}[partsIndex];
        Path d = Files.createTempDirectory("routedi");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            ProcessGen.Params g = new ProcessGen.Params();
            g.processes = processes;
            g.slices = 1 + rnd.nextInt(8);
            g.sliceInstructions = 1 + rnd.nextInt(rnd.nextBoolean() ? 20 : 300);
            g.readRate = rnd.nextInt(3) * 0.2;
            g.writeRate = rnd.nextInt(3) * 0.1;
            g.sharedFraction = rnd.nextDouble();
            g.seed = seed;
            TraceSet set = ProcessGen.write(d, "procs", g);
            ReplayOptions o = SchedulePropertyTest.schedulerOptions(p, flags);
            o.sliceLength = new long[] {7, 25, 100, 20_000}[rnd.nextInt(4)];
            Replay.Router router = byDensity ? byDensity(rnd, processes, parts)
                    : RoutedReplayTest.byPageAndThread(parts);
            assertRoutedAsSerial(set, o, router, parts, tiny ? rnd.nextInt(100) : -1);
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    /**
     * Process traces whose markers stop and resume them (commands 1/2 and 3/4) in the middle of slices, with file
     * reads, on processors whose clocks tie: the stopped stretches' accesses (neither delivered nor numbered) are
     * passed record by record as the serial run reads them, so the other processors' records keep their order.
     */
    @Property(tries = 60)
    void stoppedProcesses_routed_keepTheSerialOrder(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 5) int processes, @ForAll @IntRange(min = 1, max = 3) int p,
            @ForAll @IntRange(min = 0, max = 63) int flags, @ForAll @IntRange(min = 0, max = 2) int partsIndex,
            @ForAll boolean tiny) throws IOException {
        int parts = new int[] {2, 3, 7}[partsIndex];
        Path d = Files.createTempDirectory("stopped");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            TraceSet set = withMarkers(d, rnd, processes);
            ReplayOptions o = SchedulePropertyTest.schedulerOptions(p, flags);
            o.sliceLength = 1 + rnd.nextInt(30);
            assertRoutedAsSerial(set, o, byDensity(rnd, processes, parts), parts, tiny ? rnd.nextInt(100) : -1);
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    /**
     * Random process traces: slices of 0 to 40 accesses (sequential words of a private and a shared region, so no
     * run of loads could be a spin) ending in an ldcw or a semop, with markers that stop and resume the process
     * and file reads and writes inside slices.
     */
    private static TraceSet withMarkers(Path d, SplittableRandom rnd, int processes) throws IOException {
        List<Path> files = new ArrayList<>();
        long[] shared = {0};
        for (int i = 0; i < processes; i++) {
            Path f = d.resolve(TraceSet.fileName("m", processes, i));
            try (TraceWriter w = TraceWriter.create(f, TraceWriter.Options.classic())) {
                long us = rnd.nextInt(20);
                long priv = 0;
                boolean stopped = false;
                for (int s = 0, slices = 1 + rnd.nextInt(6); s < slices; s++) {
                    for (int k = 0, n = rnd.nextInt(41); k < n; k++) {
                        int r = rnd.nextInt(40);
                        if (r == 0) {
                            stopped = !stopped;
                            long cmd = stopped ? 1 + 2 * rnd.nextInt(2) : 2 + 2 * rnd.nextInt(2);
                            w.call(CallType.MARKER, us, us, cmd, 0, 0, 0);
                        } else if (r == 1) {
                            w.call(rnd.nextBoolean() ? CallType.FILE_READ : CallType.FILE_WRITE, us, us + 30,
                                    0x3000_0000L + 64 * i, 1 + rnd.nextInt(5000), 3, 0);
                            us += 30;
                        }
                        boolean store = rnd.nextInt(3) == 0;
                        long a = rnd.nextInt(3) == 0 ? 0x1000_0000L + 4 * (shared[0]++ % 3000)
                                : 0x2000_0000L + 0x10_0000L * i + 4 * (priv++ % 3000);
                        w.memory(store ? MemType.STORE : MemType.LOAD, 4, MemType.FIXED, a);
                        us++;
                    }
                    long d0 = rnd.nextInt(10);
                    w.call(rnd.nextBoolean() ? CallType.LDCW : CallType.SEMOP, us, us + d0, 0x0F00_0000L, 0, 0, 0);
                    us += d0 + rnd.nextInt(5);
                }
                w.finish();
            }
            files.add(f);
        }
        return TraceSet.of(d.resolve("m." + processes).toString(), files);
    }

    /**
     * Replays {@code set} serially and routed in {@code parts} partitions (pipes of {@code capacity} bytes, or the
     * default if negative) and checks every partition against the serial run.
     */
    private static void assertRoutedAsSerial(TraceSet set, ReplayOptions o, Replay.Router router, int parts,
            long capacity) {
        OnCpus serial = new OnCpus();
        Replay one = new Replay(set, null, o).add(serial);
        one.run();
        Replay routed = new Replay(set, null, o);
        if (capacity >= 0) {
            routed.routedCapacity(capacity);
        }
        List<OnCpus> ps = routed.runRouted(parts, k -> new OnCpus(), ctx -> router);
        List<RoutedReplayTest.Seen> seen = new ArrayList<>();
        for (int k = 0; k < parts; k++) {
            OnCpus s = ps.get(k);
            seen.add(s.seen);
            List<Boolean> given = RoutedReplayTest.givenTo(serial.seen, router, k);
            List<Integer> cpus = new ArrayList<>();
            for (int i = 0; i < given.size(); i++) {
                if (given.get(i)) {
                    cpus.add(serial.cpus.get(i));
                }
            }
            assertEquals(cpus, s.cpus, "partition " + k + ": processors of its accesses");
        }
        RoutedReplayTest.assertSeeTheSerialRun(serial.seen, one.records(), routed, seen, router);
    }

    @Test
    void aRoutedProcessReplay_readsEachTraceFileOnceAfterThePrescan() {
        ProcessGen.Params g = new ProcessGen.Params();
        g.processes = 5;
        g.slices = 20;
        TraceSet set = ProcessGen.write(dir, "once", g);
        ReplayOptions o = new ReplayOptions();
        o.interleave = 2;
        o.handleIo = true;
        long before = Prescan.OPENED.get();
        Replay routed = new Replay(set, null, o);
        routed.runRouted(4, k -> new OnCpus(), ctx -> RoutedReplayTest.byPageAndThread(4));
        assertEquals(Replay.MODE_ROUTED, routed.partitionMode());
        assertEquals(2 * 5, Prescan.OPENED.get() - before, "the prescan and the router: each file twice in all");
    }

    /** A process with branch records goes whole to every partition; the other is routed; the serial callbacks. */
    @Test
    void processTracesWithBranchRecords_goWholeToEveryPartition_withTheSerialCallbacks() {
        TraceSet set = TestTraces.write(dir, "br", w -> {
            w.w.procStart(0x4C00);
            w.stores(3, 0x1000);
            w.w.branch(0x4C18, 0x4D20);
            w.call(CallType.LDCW, 0x0F00_0000L, 0, 0);
            w.loads(5, 0x2000);
        }, w -> w.stores(20, 0x3000).call(CallType.SEMOP, 100, 1, 1).stores(4, 0x3100));
        ReplayOptions o = new ReplayOptions();
        o.interleave = 1;
        OnCpus serial = new OnCpus();
        new Replay(set, null, o).add(serial).run();
        Replay r = new Replay(set, null, o);
        Replay.Router router = RoutedReplayTest.byPageAndThread(3);
        List<OnCpus> ps = r.runRouted(3, k -> new OnCpus(), ctx -> router);
        assertEquals(Replay.MODE_ROUTED, r.partitionMode());
        for (int k = 0; k < ps.size(); k++) {
            OnCpus s = ps.get(k);
            assertTrue(s.seen.ctx.routed());
            List<Boolean> given = RoutedReplayTest.givenTo(serial.seen, router, k);
            for (int i = 0; i < given.size(); i++) {
                given.set(i, given.get(i) || serial.seen.all.get(i).startsWith("0 "));
            }
            assertEquals(RoutedReplayTest.numbered(serial.seen.all, given),
                    RoutedReplayTest.numbered(s.seen.all, s.seen.given), "partition " + k);
            assertEquals(serial.seen.other, s.seen.other, "partition " + k);
        }
    }
}
