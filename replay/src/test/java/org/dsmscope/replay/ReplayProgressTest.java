package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.replay.gen.ProcessGen;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a progress display reads while a replay runs ({@link Replay#progress}, {@link Replay#expectedRecords}):
 * the prescan counts exactly the records the replay then counts, and the count only grows.
 */
class ReplayProgressTest {
    @TempDir
    Path dir;

    /** Samples the replay's progress at every callback (on the replay's own thread). */
    private static final class Sampler implements Analysis {
        final Replay replay;
        long last;
        long samples;
        boolean monotonic = true;
        long expectedAtBegin = -2;

        Sampler(Replay replay) {
            this.replay = replay;
        }

        @Override
        public void begin(ReplayContext ctx) {
            expectedAtBegin = replay.expectedRecords();
        }

        private void sample() {
            long p = replay.progress();
            monotonic &= p >= last;
            last = p;
            samples++;
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            sample();
        }

        @Override
        public void call(int thread, int cpu, long clock, CallEvent call) {
            sample();
        }

        @Override
        public void branch(int thread, int cpu, long clock, int kind, long source, long target) {
            sample();
        }
    }

    private static void check(TraceSet set, ReplayOptions o) {
        Replay r = new Replay(set, null, o);
        assertEquals(-1, r.expectedRecords(), "not known before the prescan");
        assertEquals(0, r.progress());
        Sampler s = new Sampler(r);
        r.add(s);
        r.run();
        assertTrue(r.records() > 0);
        assertEquals(r.records(), r.expectedRecords(), "the prescan counts what the replay counts");
        assertEquals(r.expectedRecords(), s.expectedAtBegin, "known before the first record");
        assertEquals(r.records(), r.progress(), "at the end");
        assertTrue(s.monotonic, "the count only grows");
        assertTrue(s.last > 0 && s.last <= r.records(), "seen moving during the run: " + s.last);
    }

    @Test
    void threadTraces_withLocksBarriersAndBranches_expectedEqualsReplayed() {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 5;
        p.instructions = 20_000;
        p.lockRate = 0.01;
        p.branches = true;
        check(ForkJoinGen.write(dir, "fj", p), new ReplayOptions());
    }

    @Test
    void processTraces_underTheSliceScheduler_expectedEqualsReplayed() {
        ProcessGen.Params p = new ProcessGen.Params();
        p.processes = 5;
        p.slices = 12;
        ReplayOptions o = new ReplayOptions();
        o.interleave = 2;
        check(ProcessGen.write(dir, "tpc", p), o);
    }

    @Test
    void partitionedRun_partitionZerosCountMatchesTheSerialRun() {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 4;
        p.instructions = 10_000;
        TraceSet set = ForkJoinGen.write(dir, "parts", p);
        Replay serial = new Replay(set, null, new ReplayOptions());
        serial.run();
        Replay r = new Replay(set, null, new ReplayOptions());
        List<Analysis> parts = r.runInPartitions(2, k -> new Analysis() { });
        assertEquals(2, parts.size());
        assertEquals(serial.records(), r.expectedRecords());
        assertEquals(serial.records(), r.progress());
    }
}
